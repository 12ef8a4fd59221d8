#!/usr/bin/env python3
"""The benchmarks in one command: ``tox -e bench`` runs this.

Each benchmark runs in its own process against a service it starts (the
clustered mode on MariaDB and RabbitMQ, or the embedded mode), writes its
figures as JSON, and stops what it started. At the end a table sums them
up, with the CPU seconds of the busiest processes of each run, and every
figure goes to one JSON file (``--output``). How to read it:
``tools/bench/README.md``. Nothing is asserted: figures are read, not
tested.

    python tools/bench/run_all.py                  # everything, ~13 min
    python tools/bench/run_all.py --only alloc     # names containing it
    python tools/bench/run_all.py --list
"""

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, script, arguments)
PLAN = [
    ('allocations N=200 C=16', 'bench_allocations.py',
     ['--nodes', '200', '--clients', '16']),
    ('allocations N=1000 C=32', 'bench_allocations.py',
     ['--nodes', '1000', '--clients', '32']),
    ('allocations embedded N=200 C=16', 'bench_allocations.py',
     ['--embedded', '--nodes', '200', '--clients', '16']),
    ('allocation take-over', 'bench_allocations.py', ['--takeover']),
    ('node list 1000', 'bench_node_list.py', ['--nodes', '1000']),
    # 200 agents in clean wait heartbeating every ~2 s ask 100/s: the
    # load of 15,000 agents at the default heartbeat_timeout (300 s).
    ('heartbeats 200 agents /2 s', 'bench_deploy.py',
     ['--nodes', '200', '--heartbeats-only', '--heartbeat-timeout', '4',
      '--heartbeat-seconds', '40']),
    # The same agents with their nodes in maintenance: heartbeats with
    # nothing for a conductor to do, recorded by the API alone.
    ('idle heartbeats 200 agents /2 s', 'bench_deploy.py',
     ['--nodes', '200', '--heartbeats-only', '--heartbeat-timeout', '4',
      '--heartbeat-seconds', '40', '--idle-heartbeats']),
]


def _busiest(cpu, count=3):
    return ', '.join('%s %.1f' % (label, value) for label, value in sorted(
        cpu.items(), key=lambda kv: -kv[1])[:count] if value)


def summary(name, figures):
    """One line of the table for a benchmark's figures."""
    if figures is None:
        return 'FAILED (see its output above)'
    kind = figures.get('benchmark')
    if kind == 'allocations':
        return ('%.1f alloc/s, POST p50 %.0f ms p99 %.0f ms, to active '
                'p50 %.0f ms, %d errors, %d double-booked, %d locked; '
                'CPU s: %s' % (
                    figures['allocations_per_s'], figures['post_ms_p50'],
                    figures['post_ms_p99'],
                    figures['to_active_ms_p50'] or 0,
                    figures['non_201_posts'] + figures['in_error'],
                    figures['double_booked'], figures['database_locked'],
                    _busiest(figures['cpu_seconds'])))
    if kind == 'allocation take-over':
        resumed = figures['resumed_after_s']
        return ('%d orphans resumed %s' % (
            figures['orphans'], 'after %.1f s' % resumed
            if resumed is not None else 'NOT within 120 s'))
    if kind == 'node list':
        parts = ['%s %.1f ms' % (label, values['median_ms'])
                 for label, values in sorted(figures['requests'].items())]
        return '%s (medians); CPU s: %s' % (
            ', '.join(parts), _busiest(figures['cpu_seconds']))
    if kind == 'deploy' and figures.get('heartbeats'):
        h = figures['heartbeats']
        return ('%s%.1f heartbeats/s accepted of %.1f/s asked, backlog '
                'max %d, %d errors, %d put in maintenance; CPU s: %s' % (
                    'idle: ' if h.get('idle') else '', h['rate'],
                    h['asked'], h['backlog_max'], h['errors'],
                    h['maintenance'], _busiest(h['cpu_seconds'])))
    return json.dumps(figures)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split('\n\n')[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--only', action='append', default=[],
                        help='Run the benchmarks whose name contains this '
                             '(repeatable).')
    parser.add_argument('--list', action='store_true',
                        help='List the benchmarks and stop.')
    parser.add_argument('--output', default='bench-results.json',
                        help='Where to write every figure (JSON).')
    args = parser.parse_args(argv)
    plan = [step for step in PLAN
            if not args.only or any(o in step[0] for o in args.only)]
    if args.list:
        for name, script, extra in plan:
            print('%-34s %s %s' % (name, script, ' '.join(extra)))
        return 0

    results = {}
    with tempfile.TemporaryDirectory(prefix='ironic-like-bench-') as tmp:
        for index, (name, script, extra) in enumerate(plan, 1):
            print('=== [%d/%d] %s' % (index, len(plan), name), flush=True)
            out = os.path.join(tmp, '%d.json' % index)
            code = subprocess.call(
                [sys.executable, os.path.join(HERE, script)] + extra +
                ['--json', out])
            figures = None
            if code == 0 and os.path.exists(out):
                with open(out) as f:
                    figures = json.load(f)
            results[name] = figures

    print('\n%-34s %s' % ('benchmark', 'figures'))
    for name, figures in results.items():
        print('%-34s %s' % (name, summary(name, figures)))
    with open(args.output, 'w') as f:
        json.dump({'measured_at': datetime.datetime.now(
            datetime.timezone.utc).isoformat(timespec='seconds'),
            'results': results}, f, indent=2, sort_keys=True)
    print('\nAll figures: %s' % os.path.abspath(args.output))
    return 0 if all(r is not None for r in results.values()) else 1


if __name__ == '__main__':
    sys.exit(main())
