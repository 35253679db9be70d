# agg.py DIR: medians and per-run ratios (jobqueue / the better of db-scheduler's two) of the drains runs.sh (or
# ../mariadb-drain-rounds/rounds.sh, which runs no build before) wrote in DIR
import glob,re,statistics,sys
d=sys.argv[1]
rows={}
for f in sorted(glob.glob(d+'/mariadb-drain-*.tsv')):
    for line in open(f):
        p=line.split('\t')
        if len(p)>3 and p[2]=='jobs/s':
            m=re.search(r'mariadb-drain-(before-)?(\d+)',f)
            rows.setdefault(int(m.group(2)),{})['before' if m.group(1) else p[1]]=float(p[3])
def best(r): return max(rows[r]['db-scheduler'],rows[r]['db-scheduler-skip-locked'])
systems=[k for k in ['jobqueue','jobqueue-prefetch','db-scheduler','db-scheduler-skip-locked','before'] if all(k in rows[r] for r in rows)]
for k in systems:
    v=[rows[r][k] for r in rows]; print(k, len(v), 'median %.0f'%statistics.median(v), '%.0f - %.0f'%(min(v),max(v)))
for k in [k for k in ['jobqueue','jobqueue-prefetch','before'] if k in systems]:
    rat=[rows[r][k]/best(r) for r in rows]
    print(k,'ratio median %.2f'%statistics.median(rat), '%.2f - %.2f'%(min(rat),max(rat)), ['%.2f'%x for x in rat])
