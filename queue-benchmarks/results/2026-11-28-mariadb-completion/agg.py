# agg.py FILE: the samples in FILE (perf script -i X.data --tid T -F tid,ip,sym) by the first class of rules
# whose frames they contain, as shares of all the samples; the rest by their innermost frame.
import sys, collections
rules = [
 ('parse', ['MYSQLparse','parse_sql']),
 ('commit', ['ha_commit_trans','trans_commit','ha_commit_one_phase']),
 ('optimize', ['JOIN::optimize','SQL_SELECT::test_quick_select','make_join_statistics']),
 ('select-exec', ['JOIN::exec']),
 ('update', ['mysql_update','Sql_cmd_update','handler::ha_update_row','mysql_multi_update']),
 ('net-read', ['my_net_read_packet','vio_read','do_command']),
 ('net-send', ['net_flush','net_write_command','my_net_write','vio_write','Protocol::send','tcp_sendmsg']),
 ('prepare', ['JOIN::prepare','setup_fields','Item_func_in::fix','fix_fields','open_tables','open_and_lock_tables','lock_tables']),
]
counts = collections.Counter(); total = 0
stack = []
def flush():
    global total
    if not stack: return
    total += 1
    syms = stack
    for name, keys in rules:
        if any(any(k in s for k in keys) for s in syms):
            counts[name] += 1; return
    counts['other:' + syms[0][:40]] += 1
for line in open(sys.argv[1]):
    line = line.rstrip()
    if not line:
        flush(); stack = []
    elif line.startswith(' ') or line.startswith('\t'):
        stack.append(line.strip())
    else:
        pass
flush()
for k, v in counts.most_common(25):
    print(f"{v*100.0/total:6.1f}% {k}")
print(total, 'samples')
