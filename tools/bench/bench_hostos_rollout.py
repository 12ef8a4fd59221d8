#!/usr/bin/env python3
"""Benchmark: a host OS configuration rolled out to N nodes.

It starts the clustered mode as the other benchmarks do (the
functional-test harness: a fresh MariaDB or PostgreSQL database,
``ironic-like-api`` with 1 worker, 2 ``ironic-like-conductor`` processes
over RabbitMQ), enrols N ``fake-hardware`` nodes labelled
``bench=hostos`` through the API and marks them ``active`` in the
database (a shortcut: a deploy is not what is measured). In this
process it runs N real host agents (``ironic_like_hostagent.HostAgent``,
each with a directory of its own as its host's root) on a pool of
``--agent-workers`` threads, serves the module archive from a local HTTP
server that counts the bytes it sends, registers the module, waits until
it is available, then creates a configuration selecting every node and
polls its node counts until every node reports ok.

The playbook is trivial (it writes one file from a templated value). By
default the agents run the real ``ansible-playbook`` (about 2 s of CPU
per run on this kind of machine, so N=1,000 takes a while on 2 cores);
``--fake-ansible`` gives them a small Python script instead, which
writes the same file, to measure the orchestration alone.

Printed: time from the configuration's POST to every node ok (and to
the first node ok), archive downloads and bytes served (target: one
download per node), heartbeats and item runs. Figures are printed,
never asserted; every process is stopped and the database dropped.

Usage (repository root, the project's virtualenv; services as for the
functional tests)::

    .venv/bin/python tools/bench/bench_hostos_rollout.py --nodes 1000 \\
        --fake-ansible
    .venv/bin/python tools/bench/bench_hostos_rollout.py --nodes 100
"""

import concurrent.futures
import hashlib
import http.server
import os
import shutil
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.abspath(os.path.join(
    os.path.dirname(__file__), '..', '..')))

import bench_node_list as common  # noqa: E402

from ironic_like.common.hostos import archive  # noqa: E402
import ironic_like_hostagent.agent as host_agent  # noqa: E402

PLAYBOOK = """\
- hosts: all
  gather_facts: false
  tasks:
    - file:
        path: "{{ host_os_root }}/etc"
        state: directory
    - copy:
        dest: "{{ host_os_root }}/etc/motd"
        content: "{{ values.motd }}\\n"
"""

# Stands for ansible-playbook: reads the extra-vars file and writes what
# the playbook would.
FAKE_ANSIBLE = """\
#!%s
import json, os, sys
args = sys.argv[1:]
extra = {}
for i, a in enumerate(args):
    if a == '-e' and args[i + 1].startswith('@'):
        with open(args[i + 1][1:]) as f:
            extra.update(json.load(f))
path = extra['host_os_root'] + '/etc/motd'
os.makedirs(os.path.dirname(path), exist_ok=True)
with open(path, 'w') as f:
    f.write(extra['values']['motd'] + '\\n')
print('ok=1 changed=1')
"""


class ArchiveServer(object):
    def __init__(self, data):
        self.data = data
        self.downloads = 0
        self.bytes = 0
        self.lock = threading.Lock()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header('Content-Length', str(len(server.data)))
                self.end_headers()
                self.wfile.write(server.data)
                with server.lock:
                    server.downloads += 1
                    server.bytes += len(server.data)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(('127.0.0.1', 0),
                                                     Handler)
        threading.Thread(target=self.httpd.serve_forever,
                         daemon=True).start()
        self.url = 'http://127.0.0.1:%d/motd-1.0.0.tgz' % (
            self.httpd.server_address[1])

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class Fleet(object):
    """N host agents driven by a thread pool: each runs one loop
    (heartbeat, items, report) when due, then waits its interval."""

    def __init__(self, api_url, uuids, root, ansible, workers, interval):
        self.agents = []
        for uuid in uuids:
            agent = host_agent.HostAgent(
                api_url, uuid, root=os.path.join(root, uuid),
                ansible_playbook=ansible)
            agent.interval_override = interval
            self.agents.append(agent)
        self.pool = concurrent.futures.ThreadPoolExecutor(workers)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._drive, daemon=True)

    def start(self):
        self.thread.start()

    def _drive(self):
        due = {id(a): time.monotonic() for a in self.agents}
        busy = set()
        lock = threading.Lock()

        def one(agent):
            try:
                agent.run_once()
            finally:
                with lock:
                    busy.discard(id(agent))
                    due[id(agent)] = time.monotonic() + agent.next_delay()

        while not self.stop.is_set():
            now = time.monotonic()
            for agent in self.agents:
                with lock:
                    if id(agent) in busy or due[id(agent)] > now:
                        continue
                    busy.add(id(agent))
                self.pool.submit(one, agent)
            self.stop.wait(0.2)

    def close(self):
        self.stop.set()
        self.thread.join(10)
        self.pool.shutdown(wait=True, cancel_futures=True)

    def totals(self):
        keys = ('heartbeats', 'heartbeat_errors', 'runs', 'failures',
                'downloads', 'skipped')
        return {k: sum(getattr(a, k) for a in self.agents) for k in keys}


def enrol(client, database, count):
    uuids = []

    def post(index):
        # Bounded retries: a 503 can happen while a ring is rebuilt.
        for _attempt in range(5):
            resp = client.request('POST', '/v1/nodes', {
                'name': 'hostos-%04d' % index, 'driver': 'fake-hardware',
                'labels': {'bench': 'hostos'}})
            if resp.status_code == 201:
                return resp.json()['uuid']
            time.sleep(1)
        raise RuntimeError('POST /v1/nodes: %s %s'
                           % (resp.status_code, resp.text[:300]))
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        uuids = list(pool.map(post, range(count)))
    database.execute("UPDATE nodes SET provision_state = 'active'")
    return uuids


def main(argv=None):
    parser = common.cluster_parser(__doc__, nodes=1000)
    parser.add_argument('--agent-workers', type=int, default=8)
    parser.add_argument('--fake-ansible', action='store_true')
    parser.add_argument('--timeout', type=int, default=3600)
    parser.add_argument('--heartbeat-interval', type=int, default=10,
                        help='Seconds between two heartbeats of each host '
                             'agent (the service\'s default is 10).')
    args = parser.parse_args(argv)
    conf = {'conductor': {'sync_power_state_interval': 600},
            'hostos': {'agent_heartbeat_interval': args.heartbeat_interval}}
    work = tempfile.mkdtemp(prefix='bench-hostos-')
    data = archive.make_module('motd', '1.0.0', PLAYBOOK)
    server = ArchiveServer(data)
    ansible = os.path.join(os.path.dirname(sys.executable),
                           'ansible-playbook')
    if args.fake_ansible:
        ansible = os.path.join(work, 'fake-ansible-playbook')
        with open(ansible, 'w') as f:
            f.write(FAKE_ANSIBLE % sys.executable)
        os.chmod(ansible, 0o755)
    database, cluster = common.start_cluster(args, conf)
    fleet = None
    try:
        client = common.Client(cluster.url)
        t0 = time.monotonic()
        uuids = enrol(client, database, args.nodes)
        print('%d nodes enrolled in %.1f s' % (len(uuids),
                                               time.monotonic() - t0))
        fleet = Fleet(cluster.url, uuids, os.path.join(work, 'hosts'),
                      ansible, args.agent_workers, args.heartbeat_interval)
        fleet.start()
        client.request('POST', '/v1/hostos/modules', {
            'name': 'motd', 'version': '1.0.0', 'url': server.url,
            'sha256sum': hashlib.sha256(data).hexdigest()})
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            module = client.request(
                'GET', '/v1/hostos/modules/motd/1.0.0').json()
            if module['state'] != 'verifying':
                break
            time.sleep(0.2)
        print('module: %s' % module['state'])
        verify_downloads = server.downloads
        posted = time.monotonic()
        resp = client.request('POST', '/v1/hostos/configurations', {
            'name': 'bench',
            'machine_selector': {'match_labels': {'bench': 'hostos'}},
            'configs': [{'module': 'motd', 'module_version': '1.0.0',
                         'values': {'motd': 'hello'}}]})
        created = time.monotonic() - posted
        first = None
        counts = {}
        while time.monotonic() - posted < args.timeout:
            counts = client.request(
                'GET', '/v1/hostos/configurations/bench').json()['nodes']
            if counts.get('ok') and first is None:
                first = time.monotonic() - posted
            if counts.get('ok') == args.nodes:
                break
            time.sleep(0.5)
        done = time.monotonic() - posted
        totals = fleet.totals()
        print('rollout of one configuration to %d nodes (%s, %d agent '
              'threads, heartbeat every %d s), POST %d in %.2f s:'
              % (args.nodes, 'fake ansible' if args.fake_ansible
                 else 'ansible-playbook', args.agent_workers,
                 args.heartbeat_interval,
                 resp.status_code, created))
        print('  first node ok after %.1f s; every node ok after %.1f s'
              % (first or -1, done))
        print('  final counts: %s' % counts)
        print('  archive: %d download(s) by the service, %d by hosts, '
              '%d bytes served in all (%d bytes per archive)'
              % (verify_downloads, server.downloads - verify_downloads,
                 server.bytes, len(data)))
        print('  host agents: %s' % totals)
    finally:
        if fleet is not None:
            fleet.close()
        server.stop()
        cluster.cleanUp()
        database.drop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
