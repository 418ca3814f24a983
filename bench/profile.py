#!/usr/bin/env python3
"""Where the protocol spends Redis CPU: per command, per part, per job in memory.

    /usr/bin/python3 bench/profile.py --socket SOCK --lib build/lua/qless-lib.lua \
        [--n 5000] [--rounds 3] [--json FILE] [--no-parts] \
        [--floor bench/floor.lua [--against LABEL=OTHER/qless-lib.lua ...]]

Times are Redis's own CPU time (INFO cpu, used_cpu_sys + used_cpu_user, a
delta around each measured loop) divided by the calls: CPU, not wall time,
so a busy shared machine that preempts Redis does not inflate them, and the
client does not count. INFO commandstats (reset before each loop) counts
the nested commands per call and gives their own usec (wall time). Every loop is pipelined
(batches of 50, one `now` per batch, as libqless sends them) and repeated
--rounds times, each round next to a pipelined `EVALSHA return 1` of its
own; the table gives the median round and `x triv`, the ratio to that
round's trivial call.

Per part: the same loop with one part of the script switched off in a
bench-only copy of the library (stub functions appended before the entry
point, never the shipped file): the part's cost is the difference, per
call. The parts interact a little (a stubbed history skips its config
read), so they do not add up exactly; `redis cmds` is the summed usec of
the nested commands (every key read and write), `lua` the rest.

The server is FLUSHed: never point this at a server holding data.
"""
import argparse
import json
import statistics
import sys
import time

import redis

BATCH = 50
DATA = '{"a":1,"b":"text"}'

# Stubs appended to a copy of the library; each switches one part off.
PARTS = {
    'json check': "Q.json_valid = function() end",
    'history': "Q.history = function(jid, t, what, extras, plain, text) return text or '' end",
    'stats': "Q.stat = function() end\nQ.stat_batch = function() end",
    'events': "Q.log_event = function() end\nQ.track_event = function() end",
    'registry': None,  # key filter, below
    'job reply': "Q.view_parts = function(buf, k) return k end",
}
# Registry keys (ql:queues, ql:workers, a worker's job set) are skipped by a
# filter over redis.call; every variant (and the full one they are compared
# with) runs through the same filter, so its own cost cancels out.
FILTER = r'''
local redis = (function(r)
  local skip = BENCH_SKIP
  return {call = function(cmd, key, ...)
    if skip and type(key) == 'string' and (key == 'ql:queues' or key == 'ql:workers' or
        (string.sub(key, 1, 5) == 'ql:w:' and string.sub(key, -5) == ':jobs')) then
      return 0
    end
    return _G.redis.call(cmd, key, ...)
  end, pcall = function(...) return _G.redis.pcall(...) end, register_function = r.register_function}
end)(redis)
'''


def variant(lib, part):
    """The library text with `part` switched off (None: all on, same filter)."""
    head, _, body = lib.partition('\n')
    entry = body.rindex('redis.register_function')  # the entry point (base.lua also names it)
    stub = PARTS.get(part) or ''
    filt = FILTER.replace('BENCH_SKIP', 'true' if part == 'registry' else 'false')
    return head + '\n' + filt + body[:entry] + stub + '\n' + body[entry:]


class Bench:
    """Calls go to FCALL `target`: the library's `qless`, or another
    library's function loaded beside it (floor_library)."""
    def __init__(self, r, lib, target='qless'):
        self.r = r
        self.lib = lib
        self.triv = r.script_load('return 1')
        self.seq = 0
        self.target = target

    def call(self, *args):
        return self.r.execute_command('FCALL', self.target, 0, *args)

    def load(self, text):
        self.r.function_load(text, replace=True)

    def now(self):
        return '%.6f' % time.time()

    def jids(self, n):
        self.seq += 1
        return ['%08x%024x' % (self.seq, i) for i in range(n)]

    def fcalls(self, calls):
        """Pipelines a call of each argument list, BATCH at a time."""
        for i in range(0, len(calls), BATCH):
            p = self.r.pipeline(transaction=False)
            now = self.now()
            for args in calls[i:i + BATCH]:
                p.execute_command('FCALL', self.target, 0, args[0], now, *args[1:])
            p.execute()

    def stats(self):
        out = {}
        for name, v in self.r.info('commandstats').items():
            out[name.replace('cmdstat_', '')] = (v['calls'], v['usec'])
        return out

    def cpu(self):
        c = self.r.info('cpu')
        return (c['used_cpu_sys'] + c['used_cpu_user']) * 1e6

    def measured(self, calls, per):
        """Redis CPU usec per `per` unit of the FCALLs in `calls`, nested
        commands' usec per unit, nested calls per unit."""
        self.r.config_resetstat()
        c0 = self.cpu()
        self.fcalls(calls)
        cpu = self.cpu() - c0
        st = self.stats()
        nested = {k: v for k, v in st.items() if k not in ('fcall', 'config|resetstat', 'config', 'info')}
        return cpu / per, sum(v[1] for v in nested.values()) / per, \
            {k: v[0] / per for k, v in nested.items()}

    def trivial(self, n):
        c0 = self.cpu()
        for i in range(0, n, BATCH):
            p = self.r.pipeline(transaction=False)
            for _ in range(BATCH):
                p.evalsha(self.triv, 0)
            p.execute()
        return (self.cpu() - c0) / n

    # Each setup returns (calls, units): the state is made beforehand.
    def put(self, n):
        return [('put', 'w', 'q', j, 'K', DATA, 0) for j in self.jids(n)], n

    def fill(self, n):
        self.fcalls(self.put(n)[0])

    def running(self, n):
        self.fill(n)
        jids = []
        for _ in range(0, n, BATCH):
            jobs = json.loads(self.call('pop', self.now(), 'q', 'w', BATCH))
            jids += [j['jid'] for j in jobs]
        return jids

    def pop1(self, n):
        self.fill(n)
        return [('pop', 'q', 'w', 1)] * n, n

    def pop50(self, n):
        self.fill(n)
        return [('pop', 'q', 'w', BATCH)] * (n // BATCH), n

    def complete(self, n):
        return [('complete', j, 'w', 'q', DATA) for j in self.running(n)], n

    def heartbeat(self, n):
        return [('heartbeat', j, 'w') for j in self.running(n)], n

    def fail(self, n):
        return [('fail', j, 'w', 'grp', 'boom', DATA) for j in self.running(n)], n

    def retry(self, n):
        return [('retry', j, 'q', 'w', 0) for j in self.running(n)], n

    def settle(self, n):
        jids = self.running(n)
        self.fill(n)
        return [('settle', 'w', '["q"]', 1, 'complete', j, 'q', DATA) for j in jids], n

    def settle0(self, n):
        return [('settle', 'w', '[]', 0, 'complete', j, 'q', DATA) for j in self.running(n)], n

    def dispatch(self, n):
        return [('config.get', 'heartbeat')] * n, n


ROWS = [
    ('put', 'put'),
    ('pop1', 'pop (count 1)'),
    ('pop50', 'pop (count 50), per job'),
    ('complete', 'complete'),
    ('heartbeat', 'heartbeat'),
    ('fail', 'fail'),
    ('retry', 'retry (delay 0)'),
    ('settle', 'settle complete + pop 1'),
    ('settle0', 'settle complete, pop 0'),
    ('dispatch', 'config.get heartbeat (dispatch)'),
]
PART_ROWS = ['put', 'pop1', 'pop50', 'complete']
# The rows bench/floor.lua answers.
FLOOR_ROWS = ['put', 'pop1', 'pop50', 'complete', 'settle', 'dispatch']


def command_diff(lib, floor):
    """'same' when the floor sent the library's nested commands (per call,
    INFO commandstats), else what it sent more (+) or fewer (-): the floor
    is a fair comparison only while it sends what the library sends."""
    out = []
    for cmd in sorted(set(lib) | set(floor)):
        d = floor.get(cmd, 0) - lib.get(cmd, 0)
        if abs(d) >= 0.05:
            out.append('%s %+.2g' % (cmd, d))
    return ', '.join(out) or 'same'


def load_beside(r, text, name, essential=False):
    """Loads another Functions library (bench/floor.lua, or another build of
    the real one) as library and function `name`, beside the real `qless`;
    `essential`: without the lines marked `-- extra`. Returns `name`."""
    if essential:
        text = '\n'.join(l for l in text.split('\n') if not l.rstrip().endswith('-- extra'))
    text = text.replace('#!lua name=qless', '#!lua name=' + name, 1)
    for form in ("redis.register_function('qless'", "function_name = 'qless'"):
        text = text.replace(form, form.replace("'qless'", "'%s'" % name), 1)
    r.function_load(text, replace=True)
    return name


def round_of(b, row, n, text=None):
    """One measured loop; `text`: the library variant measured (the state is
    always made by the full library)."""
    b.r.flushdb()
    calls, units = getattr(b, row)(n)
    if text is not None:
        b.load(text)
    usec, nested, counts = b.measured(calls, units)
    return usec, nested, counts


def median_round(b, row, n, rounds):
    results = []
    for k in range(rounds):
        if k % 2:
            t = b.trivial(n)
            res = round_of(b, row, n)
        else:
            res = round_of(b, row, n)
            t = b.trivial(n)
        results.append((res[0] / t, res, t))
    results.sort(key=lambda x: x[0])
    return results[len(results) // 2]


def memory(b, n):
    """Bytes per job waiting, running and completed: INFO used_memory deltas
    over n jobs, and MEMORY USAGE of one job's own keys."""
    r = b.r
    r.flushdb()
    b.load(b.lib)
    r.fcall('qless', 0, 'put', b.now(), 'w', 'q', 'warm', 'K', DATA, 0)
    r.fcall('qless', 0, 'pop', b.now(), 'q', 'w', 1)
    r.fcall('qless', 0, 'complete', b.now(), 'warm', 'w', 'q', DATA)
    used = lambda: r.info('memory')['used_memory']
    out = {}
    m0 = used()
    calls, _ = b.put(n)
    b.fcalls(calls)
    one = calls[0][3]
    m1 = used()
    out['waiting'] = {'info': (m1 - m0) / n, 'job keys': job_keys(r, one)}
    for _ in range(0, n, BATCH):
        r.fcall('qless', 0, 'pop', b.now(), 'q', 'w', BATCH)
    m2 = used()
    out['running'] = {'info': (m2 - m0) / n, 'job keys': job_keys(r, one)}
    b.fcalls([('complete', c[3], 'w', 'q', DATA) for c in calls])
    m3 = used()
    out['completed'] = {'info': (m3 - m0) / n, 'job keys': job_keys(r, one)}
    return out


def job_keys(r, jid):
    total = 0
    for key in ('ql:j:' + jid, 'ql:j:' + jid + '-history'):
        total += r.memory_usage(key, samples=0) or 0
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--socket')
    ap.add_argument('--url')
    ap.add_argument('--lib', required=True)
    ap.add_argument('--n', type=int, default=5000)
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--mem-n', type=int, default=10000)
    ap.add_argument('--json')
    ap.add_argument('--no-parts', action='store_true')
    ap.add_argument('--only', help='comma list of rows')
    ap.add_argument('--floor', help='bench/floor.lua: measure the library beside it (rows %s)' % ','.join(FLOOR_ROWS))
    ap.add_argument('--against', action='append', metavar='LABEL=LIB',
                    help='with --floor: another build of the library, measured in the same rounds')
    a = ap.parse_args()
    r = redis.Redis(unix_socket_path=a.socket) if a.socket else redis.Redis.from_url(a.url)
    with open(a.lib) as f:
        lib = f.read()
    b = Bench(r, lib)
    b.load(lib)
    only = set(a.only.split(',')) if a.only else None
    n = a.n - a.n % BATCH
    report = {'n': n, 'rounds': a.rounds, 'commands': [], 'parts': [], 'memory': None}

    print('## Per command (Redis CPU usec per call, INFO cpu, pipelined, median of %d rounds)' % a.rounds)
    print()
    print('| command | CPU usec/call | x triv | nested cmds usec | nested calls per call |')
    print('|---|---:|---:|---:|---|')
    t_med = []
    for row, label in ROWS:
        if only and row not in only:
            continue
        ratio, (usec, nested, counts), t = median_round(b, row, n, a.rounds)
        t_med.append(t)
        calls = ', '.join('%s %.2g' % (k, v) for k, v in sorted(counts.items(), key=lambda x: -x[1]) if v >= 0.01)
        print('| %s | %.2f | %.2f | %.2f | %s |' % (label, usec, ratio, nested, calls))
        report['commands'].append({'row': row, 'label': label, 'usec': usec, 'x_trivial': ratio,
                                   'nested_usec': nested, 'nested_calls': counts, 'trivial_usec': t})
    if t_med:
        print('| EVALSHA `return 1` (median of the rounds above) | %.2f | 1.00 | | |' % statistics.median(t_med))
    print()

    if not a.no_parts:
        print('## Per part (Redis CPU usec per call saved by switching the part off; bench-only copies of the library)')
        print()
        names = list(PARTS)
        print('| command | full | ' + ' | '.join(names) + ' | nested cmds | rest |')
        print('|---|---:|' + '---:|' * (len(names) + 2))
        for row in PART_ROWS:
            if only and row not in only:
                continue
            full = []
            deltas = {p: [] for p in names}
            nested_all = []
            for k in range(a.rounds):
                order = [None] + names if k % 2 == 0 else names + [None]
                got = {}
                for p in order:
                    got[p] = round_of(b, row, n, variant(lib, p))
                    b.load(lib)
                full.append(got[None][0])
                nested_all.append(got[None][1])
                for p in names:
                    deltas[p].append(got[None][0] - got[p][0])
            b.load(lib)
            f = statistics.median(full)
            nd = statistics.median(nested_all)
            cells = ['%.2f' % statistics.median(deltas[p]) for p in names]
            print('| %s | %.2f | %s | %.2f | %.2f |' % (row, f, ' | '.join(cells), nd, f - nd))
            report['parts'].append({'row': row, 'full_usec': f, 'nested_usec': nd,
                                    'parts_usec': {p: statistics.median(deltas[p]) for p in names}})
        print()

    if a.floor:
        with open(a.floor) as f:
            floor = f.read()
        sides = [('library', b)]
        for k, spec in enumerate(a.against or []):
            label, _, path = spec.partition('=')
            with open(path) as f:
                sides.append((label, Bench(r, lib, load_beside(r, f.read(), 'qless_against%d' % k))))
        sides += [('floor', Bench(r, lib, load_beside(r, floor, 'qless_floor'))),
                  ('essential', Bench(r, lib, load_beside(r, floor, 'qless_essential', True)))]
        print('## The library against its floor (Redis CPU usec per call, median of %d alternating rounds)' % a.rounds)
        print()
        print('floor: %s, the same Redis commands with no logic; essential: the floor without the' % a.floor)
        print('commands marked `-- extra`: the writes, and the reads the replies and the lock check need.')
        print('logic = library - floor.')
        print()
        others = [name for name, _ in sides[1:-2]]
        print('| command | library | ' + ''.join('%s | ' % o for o in others) +
              'floor | essential | logic | logic share | floor\'s commands |')
        print('|---|---:|' + '---:|' * (len(others) + 4) + '---|')
        report['floor'] = []
        for row in FLOOR_ROWS:
            if only and row not in only:
                continue
            got = {name: [] for name, _ in sides}
            counts = {}
            for k in range(a.rounds):
                for name, side in (sides if k % 2 == 0 else sides[::-1]):
                    usec, _, counts[name] = round_of(side, row, n)
                    got[name].append(usec)
            m = {name: statistics.median(v) for name, v in got.items()}
            logic = m['library'] - m['floor']
            print('| %s | %.2f | %s%.2f | %.2f | %.2f | %.0f %% | %s |' % (
                row, m['library'], ''.join('%.2f | ' % m[o] for o in others), m['floor'], m['essential'],
                logic, 100 * logic / m['library'], command_diff(counts['library'], counts['floor'])))
            report['floor'].append(dict(row=row, **m))
        for name, side in sides[1:]:
            r.function_delete(side.target)
        print()

    if not only or 'memory' in only:
        mem = memory(b, a.mem_n)
        print('## Memory per job (%d jobs; used_memory delta / jobs, and MEMORY USAGE of one job\'s hash + history)' % a.mem_n)
        print()
        print('| state | bytes/job (INFO memory) | job keys (MEMORY USAGE) |')
        print('|---|---:|---:|')
        for state, v in mem.items():
            print('| %s | %.0f | %d |' % (state, v['info'], v['job keys']))
        report['memory'] = mem
        print()
    r.flushdb()
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(report, f, indent=1)


if __name__ == '__main__':
    sys.exit(main())
