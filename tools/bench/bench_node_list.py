#!/usr/bin/env python3
"""Benchmark: listing and getting nodes through the API at 1,000 nodes.

By default it starts the clustered mode with the functional-test harness
(ironic_like/tests/functional/base.py): a fresh MariaDB database upgraded
by ``ironic-like-dbsync``, ``ironic-like-api`` with 2 workers and 2
``ironic-like-conductor`` processes over RabbitMQ on loopback (with the
service's default periodic timings, not the tests' short ones). It enrols
the nodes concurrently through the API (``POST /v1/nodes``, fake-hardware),
then times, after a warm-up:

* ``GET /v1/nodes``             (default 30 repeats)
* ``GET /v1/nodes/detail``      (default 30 repeats)
* ``GET /v1/nodes/{uuid}``      (default 300 repeats, random nodes)

and prints the median, p99 (nearest rank), min and max in milliseconds,
the number of nodes each list returned and the response size. Each request
is timed from sending to the last byte received, over one keep-alive
connection (requests.Session), one request at a time. Finally it stops
the processes and drops the database. Figures are printed, never
asserted.

Usage (from the repository root, with the project's virtualenv)::

    .venv/bin/python tools/bench/bench_node_list.py
    .venv/bin/python tools/bench/bench_node_list.py --backend postgresql
    .venv/bin/python tools/bench/bench_node_list.py --nodes 200 \\
        --repeats-list 10 --repeats-get 100
    # Against a service that is already running (the nodes it enrols are
    # deleted at the end unless --keep):
    .venv/bin/python tools/bench/bench_node_list.py --url http://127.0.0.1:6385

For reference, real Ironic listed 1,000 nodes with /detail in 830-940 ms;
the goal for ironic_like is under 280 ms.
"""

import argparse
import concurrent.futures
import json
import os
import random
import statistics
import sys
import threading
import time
import uuid

import requests

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cpu_usage  # noqa: E402

SERVICE_TIMINGS = {
    'DEFAULT': {'hash_ring_reset_interval': 15},
    'conductor': {'heartbeat_interval': 10, 'heartbeat_timeout': 60,
                  'takeover_check_interval': 5,
                  'sync_power_state_interval': 60},
}
HEADERS = {'X-OpenStack-Ironic-API-Version': '1.51',
           'Content-Type': 'application/json'}


def percentile(samples, pct):
    """Nearest-rank percentile of ``samples`` (pct in 0..100)."""
    ordered = sorted(samples)
    rank = max(1, int(-(-pct * len(ordered) // 100)))
    return ordered[min(rank, len(ordered)) - 1]


class Client(object):
    """One keep-alive session per thread."""

    def __init__(self, url):
        self.url = url.rstrip('/')
        self._local = threading.local()

    @property
    def session(self):
        session = getattr(self._local, 'session', None)
        if session is None:
            session = requests.Session()
            session.headers.update(HEADERS)
            self._local.session = session
        return session

    def request(self, method, path, body=None, timeout=60):
        return self.session.request(
            method, self.url + path, timeout=timeout,
            data=json.dumps(body) if body is not None else None)


def enrol(client, count, concurrency, prefix):
    """Create ``count`` fake-hardware nodes through the API, concurrently."""
    def create(index):
        # Bounded retries: a 503 can happen while a ring is rebuilt.
        for _attempt in range(5):
            resp = client.request('POST', '/v1/nodes', {
                'driver': 'fake-hardware',
                'name': '%s-%04d' % (prefix, index),
                'properties': {'cpus': 8, 'memory_mb': 16384,
                               'local_gb': 100, 'cpu_arch': 'x86_64'}})
            if resp.status_code == 201:
                return resp.json()['uuid']
            if resp.status_code != 503:
                break
            time.sleep(0.5)
        raise RuntimeError('POST /v1/nodes answered %s: %s'
                           % (resp.status_code, resp.text[:300]))

    with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
        return list(pool.map(create, range(count)))


def delete_nodes(client, uuids, concurrency):
    def delete(node_uuid):
        resp = client.request('DELETE', '/v1/nodes/%s' % node_uuid)
        return resp.status_code
    with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
        return list(pool.map(delete, uuids))


def time_requests(client, paths, repeats, warmup):
    """Time GETs of ``paths`` (cycled); returns (ms samples, last resp)."""
    resp = None
    for index in range(warmup):
        resp = client.request('GET', paths[index % len(paths)])
        resp.raise_for_status()
    samples = []
    for index in range(repeats):
        path = paths[index % len(paths)]
        started = time.perf_counter()
        resp = client.request('GET', path)
        _body = resp.content  # noqa: F841 - the download is timed
        samples.append((time.perf_counter() - started) * 1000.0)
        resp.raise_for_status()
    return samples, resp


def run_benchmark(client, args, out=sys.stdout):
    prefix = 'bench-%s' % uuid.uuid4().hex[:6]
    started = time.monotonic()
    uuids = enrol(client, args.nodes, args.concurrency, prefix)
    enrol_seconds = time.monotonic() - started
    print('Enrolled %d nodes through the API in %.1f s (%.0f nodes/s, '
          '%d concurrent clients)'
          % (len(uuids), enrol_seconds, len(uuids) / enrol_seconds,
             args.concurrency), file=out)

    rng = random.Random(42)
    singles = ['/v1/nodes/%s' % rng.choice(uuids)
               for _ in range(args.repeats_get)]
    cases = [('GET /v1/nodes', ['/v1/nodes'], args.repeats_list),
             ('GET /v1/nodes/detail', ['/v1/nodes/detail'],
              args.repeats_list),
             ('GET /v1/nodes/{uuid}', singles, args.repeats_get)]
    rows = []
    for label, paths, repeats in cases:
        samples, resp = time_requests(client, paths, repeats, args.warmup)
        data = resp.json()
        returned = len(data['nodes']) if 'nodes' in data else 1
        rows.append((label, repeats, statistics.median(samples),
                     percentile(samples, 99), min(samples), max(samples),
                     returned, len(resp.content)))

    print('', file=out)
    print('%-22s %7s %9s %9s %9s %9s %7s %10s'
          % ('request', 'repeats', 'median', 'p99', 'min', 'max', 'nodes',
             'bytes'), file=out)
    for label, repeats, median, p99, low, high, returned, size in rows:
        print('%-22s %7d %7.1fms %7.1fms %7.1fms %7.1fms %7d %10d'
              % (label, repeats, median, p99, low, high, returned, size),
              file=out)
    return uuids, rows


def cluster_parser(doc, api_workers=1, nodes=200):
    """An argument parser with the options of a started cluster."""
    parser = argparse.ArgumentParser(
        description=doc.split('\n\n')[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--backend', choices=['mysql', 'postgresql'],
                        default='mysql',
                        help='Database of the started cluster.')
    parser.add_argument('--api-workers', type=int, default=api_workers)
    parser.add_argument('--conductors', type=int, default=2)
    parser.add_argument('--nodes', type=int, default=nodes)
    return parser


def start_cluster(args, conf=None, **cluster_kwargs):
    """Database, dbsync, API and conductors, from the test harness.

    ``conf`` ({section: {option: value}}) overrides the harness's config;
    ``cluster_kwargs`` go to the harness's Cluster (e.g.
    ``allocation_delay``).
    """
    from ironic_like.tests.functional import base
    ok, detail = base.service_status(base.RABBITMQ)
    if not ok:
        sys.exit('RabbitMQ is not reachable: %s' % detail)
    database = base.Database(args.backend)
    cluster = None
    try:
        tmp = base.tempfile.mkdtemp(prefix='ironic-like-bench-')
        config = base.write_config(os.path.join(tmp, 'dbsync.conf'), {
            'database': {'connection': database.url}})
        base.run_dbsync(config)
        base.shutil.rmtree(tmp, ignore_errors=True)
        kwargs = dict(cluster_kwargs)
        if conf:
            kwargs['conf'] = conf
        cluster = base.Cluster(database, conductors=args.conductors,
                               api_workers=args.api_workers, **kwargs)
        cluster.setUp()
    except BaseException:
        if cluster is not None:
            _dump_logs(cluster)
            cluster.cleanUp()
        database.drop()
        raise
    return database, cluster


def _dump_logs(cluster):
    for proc in cluster.processes:
        sys.stderr.write('---- %s ----\n%s\n' % (proc.name,
                                                 proc.log_text(20000)))


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split('\n\n')[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--url', help='Benchmark this running API instead '
                        'of starting the clustered mode.')
    parser.add_argument('--backend', choices=['mysql', 'postgresql'],
                        default='mysql',
                        help='Database of the started cluster.')
    parser.add_argument('--api-workers', type=int, default=2)
    parser.add_argument('--conductors', type=int, default=2)
    parser.add_argument('--nodes', type=int, default=1000)
    parser.add_argument('--concurrency', type=int, default=16,
                        help='Concurrent clients while enrolling.')
    parser.add_argument('--repeats-list', type=int, default=30)
    parser.add_argument('--repeats-get', type=int, default=300)
    parser.add_argument('--warmup', type=int, default=3)
    parser.add_argument('--keep', action='store_true',
                        help='With --url: leave the enrolled nodes.')
    parser.add_argument('--json', metavar='FILE',
                        help='Also write the figures to FILE as JSON.')
    args = parser.parse_args(argv)

    if args.url:
        client = Client(args.url)
        uuids = []
        try:
            uuids, _rows = run_benchmark(client, args)
        finally:
            if uuids and not args.keep:
                delete_nodes(client, uuids, args.concurrency)
        return 0

    started = time.monotonic()
    # The service's default periodic timings, not the harness's short test
    # ones: a power sync of every node each 3 s would compete with the
    # requests being measured.
    database, cluster = start_cluster(args, conf=SERVICE_TIMINGS)
    print('Started %d API workers and %d conductors on %s in %.1f s '
          '(%s)' % (args.api_workers, args.conductors, args.backend,
                    time.monotonic() - started, cluster.url))
    meter = cpu_usage.CpuMeter(
        {proc.name: proc.pid for proc in cluster.processes}).start()
    try:
        _uuids, rows = run_benchmark(Client(cluster.url), args)
    except BaseException:
        _dump_logs(cluster)
        raise
    finally:
        meter.stop()
        cluster.cleanUp()
        database.drop()
    print('CPU seconds (enrolment and requests): %s'
          % cpu_usage.format_seconds(meter.seconds()))
    if args.json:
        figures = {
            'benchmark': 'node list', 'nodes': args.nodes,
            'mode': '%s, %d API worker(s), %d conductors' % (
                args.backend, args.api_workers, args.conductors),
            'requests': {label: {'median_ms': median, 'p99_ms': p99,
                                 'repeats': repeats, 'bytes': size}
                         for label, repeats, median, p99, _low, _high,
                         _returned, size in rows},
            'cpu_seconds': meter.seconds(),
        }
        with open(args.json, 'w') as f:
            json.dump(figures, f, indent=2, sort_keys=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
