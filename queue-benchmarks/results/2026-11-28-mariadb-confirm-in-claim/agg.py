# agg.py DIR: medians and per-run ratios (jobqueue's variants / the best of db-scheduler's variants in the round) of
# the drains runs.sh (or ../2026-11-28-mariadb-drain-rounds/rounds.sh, which runs no build before) wrote in DIR
import glob,re,statistics,sys
d=sys.argv[1]
rows={}
for f in sorted(glob.glob(d+'/mariadb-drain-*.tsv')):
    for line in open(f):
        p=line.split('\t')
        if len(p)>3 and p[2]=='jobs/s':
            m=re.search(r'mariadb-drain-(before-)?(\d+)',f)
            rows.setdefault(int(m.group(2)),{})['before' if m.group(1) else p[1]]=float(p[3])
def best(r): return max(v for k,v in rows[r].items() if k.startswith('db-scheduler'))
names=['jobqueue','jobqueue-prefetch','db-scheduler','db-scheduler-skip-locked','db-scheduler-prefetch','before']
systems=[k for k in names if all(k in rows[r] for r in rows)]
for k in systems:
    v=[rows[r][k] for r in rows]; print(k, len(v), 'median %.0f'%statistics.median(v), '%.0f - %.0f'%(min(v),max(v)))
for k in [k for k in ['jobqueue','jobqueue-prefetch','before'] if k in systems]:
    rat=[rows[r][k]/best(r) for r in rows]
    print(k,'ratio median %.2f'%statistics.median(rat), '%.2f - %.2f'%(min(rat),max(rat)), ['%.2f'%x for x in rat])
