"""Medians (and 90th percentiles) of the steps of enqueue -> handler start, from the T lines of an instrumented run.

Each job: the producer's enqueue call (ENQDONE: start, end), the notifier's statement (SEND0, SEND1) and the
listener's receipt (NOTIFY) on the other-JVM pass, the poller's claim (CLAIM: start, end) and the handler's start
(START). Times are wall-clock microseconds, one clock for both JVMs. The first 20 jobs of each pass are left out.
"""
import statistics, sys

events = [l.split() for l in open(sys.argv[1]) if l.startswith('T ')]
starts = {int(e[2]): int(e[3]) for e in events if e[1] == 'START'}
jobs = []
for i, e in enumerate(events):
    if e[1] != 'ENQDONE':
        continue
    enq, done = int(e[2]), int(e[3])
    step = {'enq': enq, 'done': done, 'start': starts.get(enq)}
    for f in events[i - 3:i + 12]:
        t = int(f[2]) if f[1] != 'CLAIM' else int(f[3])
        if f[1] in ('SEND0', 'SEND1', 'NOTIFY') and f[1] not in step and t >= enq:
            step[f[1]] = int(f[2])
        if f[1] == 'CLAIM' and 'claim0' not in step and int(f[3]) >= done - 5000:
            step['claim0'], step['claim1'] = int(f[2]), int(f[3])
    jobs.append(step)

def show(name, part, spans):
    cells = []
    for label, a, b in spans:
        values = [j[b] - j[a] for j in part if j.get(a) and j.get(b)]
        if values:
            values.sort()
            cells.append(f"{label} {statistics.median(values) / 1000:.2f} ({values[int(len(values) * .9)] / 1000:.2f})")
    print(f"{name}: " + ", ".join(cells))

half = len(jobs) // 2
show('other JVM', jobs[20:half], [('enqueue call', 'enq', 'done'), ('enqueue returned -> notify sent', 'done', 'SEND0'),
     ('notify statement', 'SEND0', 'SEND1'), ('notify returned -> listener receipt', 'SEND1', 'NOTIFY'),
     ('receipt -> claim sent', 'NOTIFY', 'claim0'), ('claim', 'claim0', 'claim1'),
     ('claim answered -> handler start', 'claim1', 'start'), ('enqueue -> start', 'enq', 'start')])
show('same JVM', jobs[half + 20:], [('enqueue call', 'enq', 'done'), ('enqueue returned -> claim sent', 'done', 'claim0'),
     ('claim', 'claim0', 'claim1'), ('claim answered -> handler start', 'claim1', 'start'), ('enqueue -> start', 'enq', 'start')])
