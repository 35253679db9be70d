# poller-jfr.py JSON: from `jfr print --json --events jdk.SocketRead,jdk.SocketWrite,jdk.ThreadPark p.jfr > JSON`
# (a drain recorded with -XX:StartFlightRecording=filename=p.jfr,settings=poll.jfc), the poller thread's claims:
# per statement of a seven-statement claim, the median wait for its answer, and the median claim cycle.
import json, re, datetime, statistics, sys
events = json.load(open(sys.argv[1]))['recording']['events']
def seconds(text):
    m = re.match(r'PT(?:(\d+)M)?([\d.]+)S', text)
    return int(m.group(1) or 0) * 60 + float(m.group(2)) if m else 0
def instant(text):
    base, fraction = text.rstrip('Z').split('.')
    return datetime.datetime.fromisoformat(base).timestamp() + float('0.' + fraction)
poller = sorted((instant(e['values']['startTime']), e['type'].split('.')[-1], seconds(e['values']['duration']))
                for e in events if 'poller' in ((e['values'].get('eventThread') or {}).get('javaName') or ''))
cycles, current = [], []
for event in poller:
    if event[1] == 'ThreadPark':
        cycles.append(current)
        current = [event]
    else:
        current.append(event)
reads = {k: [] for k in range(7)}
lengths = []
for cycle in cycles:
    answers = [e for e in cycle if e[1] == 'SocketRead']
    if len(answers) != 7 or cycle[0][1] != 'ThreadPark':
        continue
    for k, answer in enumerate(answers):
        reads[k].append(answer[2] * 1e6)
    lengths.append((cycle[-1][0] + cycle[-1][2] - cycle[0][0]) * 1e6)
names = ['auto-commit off', 'isolation', 'candidates', 'locking read', 'update', 'commit', 'auto-commit on']
for k in range(7):
    print('%-16s median %4.0f us' % (names[k], statistics.median(reads[k])))
print('claims %d, cycle median %.0f us' % (len(lengths), statistics.median(lengths)))
