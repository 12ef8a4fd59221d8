#!/usr/bin/env python3
"""Benchmark: deploying simulated machines on the clustered mode.

It starts the clustered mode with the functional-test harness (a fresh
MariaDB database, ``ironic-like-api`` with 1 worker, 2
``ironic-like-conductor`` processes over RabbitMQ, the service's default
periodic timings), one boot file server shared by both conductors
(``python -m ironic_like.common.boot_file_server`` serving their
``[deploy]http_root``; the conductors' own servers are off,
``[deploy]http_server_port = 0``), and
the lab around it (``ironic_like_lab.lab.Lab`` with ``api_url``: the
Redfish emulator and the agent simulator, one virtual agent per machine).
It enrols N ``redfish`` nodes (deploy ``agent``, boot ``ipxe``) and
measures:

* throughput of manage, provide (automated cleaning through the agent),
  deploy (a small image over HTTP, sha256) and undeploy (cleaning again):
  nodes per minute from the first request of the burst to the last node
  reaching the stage's target state (the burst is sent by 16 clients);
* sustained heartbeats: the API and the conductors are restarted with
  ``[agent]heartbeat_timeout = 10`` (``--heartbeat-timeout``; agents
  then heartbeat every 5 s
  +-15 %), every node is cleaned again with the agents' clean step held
  for an hour, so that all N agents sit in ``clean wait`` heartbeating
  (with ``--idle-heartbeats`` every node is then put in maintenance, so
  that the heartbeats have nothing for a conductor to do);
  for ``--heartbeat-seconds`` it samples the simulator's
  ``/control/health`` (heartbeats accepted so far, timers scheduled) and
  prints the rate accepted against the rate the agents ask for, and the
  backlog: heartbeats due but not sent yet (queued for the simulator's
  I/O workers or in flight), i.e. two timers per heartbeating agent (its
  next heartbeat and its held clean step) minus the timers scheduled;
* RSS (VmRSS) of every process: API (with its workers), each conductor,
  the agent simulator, the Redfish emulator; the peak over the samples
  taken after every stage.

Usage (from the repository root, with the project's virtualenv)::

    .venv/bin/python tools/bench/bench_deploy.py --nodes 200
    .venv/bin/python tools/bench/bench_deploy.py --nodes 1000 \\
        --stage-timeout 1800

Figures are printed, never asserted. Every wait is bounded
(``--stage-timeout`` per stage); at the end every process is stopped and
the database dropped.
"""

import collections
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_node_list as common  # noqa: E402
import cpu_usage  # noqa: E402
import profiling  # noqa: E402

from ironic_like_lab import lab as lab_mod  # noqa: E402

HEADERS = {'X-OpenStack-Ironic-API-Version': 'latest',
           'Content-Type': 'application/json'}
CLIENTS = 16
POLL = 1.0
PROGRESS_EVERY = 10.0
# Agents heartbeat every heartbeat_timeout / 2 (+-15 %); the default
# of --heartbeat-timeout.
HEARTBEAT_TIMEOUT = 10
# The maintenance reason of --idle-heartbeats.
IDLE_REASON = 'bench: idle heartbeats'
# Long enough that every agent is still "running" its clean step when the
# measurement ends.
HELD_STEP_SECONDS = 3600


def log(text):
    print(text, flush=True)


# -- processes and their memory ---------------------------------------------

def rss_kib(pid):
    try:
        with open('/proc/%d/status' % pid) as f:
            for line in f:
                if line.startswith('VmRSS:'):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def process_table(cluster, lab, files):
    """{label: [pids]}: a process and its children (API workers)."""
    from ironic_like.tests.functional import base
    table = {}
    if cluster.api is not None and cluster.api.running():
        table['api (%d worker(s))' % cluster.api_workers] = (
            [cluster.api.pid] + base.child_pids(cluster.api.pid))
    for host in sorted(cluster.conductors):
        proc = cluster.conductors[host]
        if proc.running():
            table['conductor %s' % host.rsplit('-', 1)[-1]] = [proc.pid]
    for name, proc in lab.processes:
        if proc.poll() is None:
            table[name] = [proc.pid]
    table['boot file server'] = [files.pid]
    return table


class Memory(object):
    """Peak RSS per process label over the samples taken."""

    def __init__(self, files):
        self.files = files
        self.peak = {}

    def sample(self, cluster, lab, when):
        for label, pids in process_table(cluster, lab,
                                         self.files).items():
            kib = sum(rss_kib(p) for p in pids)
            if kib > self.peak.get(label, (0, ''))[0]:
                self.peak[label] = (kib, when)

    def report(self):
        log('RSS (VmRSS, peak over the samples taken after each stage):')
        for label in sorted(self.peak):
            kib, when = self.peak[label]
            log('  %-26s %7.1f MiB  (after %s)'
                % (label, kib / 1024.0, when))


# -- the API ----------------------------------------------------------------

def concurrently(fn, items):
    with concurrent.futures.ThreadPoolExecutor(CLIENTS) as pool:
        return list(pool.map(fn, items))


def checked(resp, what):
    if resp.status_code >= 400:
        raise RuntimeError('%s: %s %s' % (what, resp.status_code,
                                          resp.text[:300]))
    return resp


def set_image(client, lab):
    def patch(uuid):
        checked(client.request('PATCH', '/v1/nodes/%s' % uuid, [
            {'op': 'add', 'path': '/instance_info/image_source',
             'value': lab.image_url},
            {'op': 'add', 'path': '/instance_info/image_checksum',
             'value': lab.image_sha256},
            {'op': 'add', 'path': '/instance_info/root_gb', 'value': 10}]),
            'PATCH %s' % uuid)
    concurrently(patch, lab.nodes)


def count_states(lab):
    counts = {}
    nodes = lab.states()
    for node in nodes.values():
        counts[node['provision_state']] = counts.get(
            node['provision_state'], 0) + 1
    return nodes, counts


def patiently(client, method, path, body, what):
    """A request as a patient client sends it: bounded retries on 409
    (NodeLocked while a power sync or a heartbeat holds the node) and 503
    (every worker of the conductor busy, after the Retry-After asked)."""
    for _attempt in range(20):
        resp = client.request(method, path, body)
        if resp.status_code not in (409, 503):
            break
        time.sleep(min(float(resp.headers.get('Retry-After') or 0.5), 5))
    return checked(resp, what)


def put_provision(client, uuid, target):
    """PUT .../states/provision, patiently."""
    return patiently(client, 'PUT', '/v1/nodes/%s/states/provision' % uuid,
                     {'target': target}, 'PUT %s %s' % (target, uuid))


def run_stage(client, lab, label, target, wanted, timeout):
    """Send ``target`` to every node (CLIENTS at a time), wait (bounded)
    until every node is in a final state or ``wanted``; returns a dict of
    figures."""
    log('%s: %d nodes -> %s' % (label, len(lab.nodes), wanted))
    started = time.monotonic()

    concurrently(lambda u: put_provision(client, u, target), lab.nodes)
    burst = time.monotonic() - started
    deadline = started + timeout
    last_print = 0.0
    nodes, counts = count_states(lab)
    while time.monotonic() < deadline:
        settled = all(n['provision_state'] == wanted
                      or n['provision_state'] in lab_mod.FINAL
                      for n in nodes.values())
        now = time.monotonic()
        if settled or now - last_print >= PROGRESS_EVERY:
            log('  %6.1fs %s' % (now - started, ', '.join(
                '%s: %d' % kv for kv in sorted(counts.items()))))
            last_print = now
        if settled:
            break
        time.sleep(POLL)
        nodes, counts = count_states(lab)
    elapsed = time.monotonic() - started
    reached = counts.get(wanted, 0)
    errors = [n.get('last_error') for n in nodes.values()
              if n['provision_state'] != wanted][:3]
    figures = {'stage': label, 'seconds': elapsed, 'burst': burst,
               'reached': reached, 'states': counts,
               'per_min': 60.0 * reached / max(elapsed, 0.001),
               'errors': errors}
    log('  %s: %d of %d %s in %.1f s (requests sent in %.1f s): '
        '%.1f nodes/min' % (label, reached, len(lab.nodes), wanted,
                            elapsed, burst, figures['per_min']))
    if errors:
        log('  e.g. %s' % errors)
    return figures


# -- heartbeats -------------------------------------------------------------

def restart_service(cluster, extra):
    """Restart the API and every conductor with ``extra`` config added
    ({section: {option: value}}); the nodes are idle meanwhile."""
    for section, values in extra.items():
        cluster.conf.setdefault(section, {}).update(values)
    for host in sorted(cluster.conductors):
        cluster.conductors[host].stop()
        cluster.start_conductor(host, wait=False)
    cluster.api.stop()
    cluster.start_api(wait=False)
    cluster.wait_until_ready()


def sim_get(client, lab, path):
    resp = client.session.get(lab.sim_url + path, timeout=60)
    return checked(resp, 'GET %s' % path).json()


def hold_clean_steps(client, lab):
    """Make every agent run its clean step for an hour."""
    def hold(system):
        checked(client.session.put(
            '%s/control/agents/%s/options' % (lab.sim_url, system['uuid']),
            json={'execute_clean_step_delay': HELD_STEP_SECONDS},
            timeout=60), 'hold %s' % system['uuid'])
    concurrently(hold, lab.systems)


def measure_heartbeats(client, lab, seconds, heartbeat_timeout):
    """Sample the simulator's counters every 5 s for ``seconds``."""
    samples = []
    deadline = time.monotonic() + seconds
    while True:
        health = sim_get(client, lab, '/control/health')
        now = time.monotonic()
        beating = health['states'].get('heartbeating', 0)
        # Each agent holds one timer for its next heartbeat and one for
        # its held clean step; a heartbeat popped from the timer heap but
        # not answered yet is missing from "scheduled".
        backlog = 2 * beating - health['scheduled']
        samples.append((now, health['heartbeats'], beating, backlog))
        log('  %5.1fs heartbeats accepted %d, agents heartbeating %d, '
            'timers scheduled %d, backlog %d'
            % (now - samples[0][0], health['heartbeats'], beating,
               health['scheduled'], backlog))
        if now >= deadline:
            break
        time.sleep(min(5.0, max(0.0, deadline - now)))
    first, last = samples[0], samples[-1]
    span = max(last[0] - first[0], 0.001)
    rate = (last[1] - first[1]) / span
    asked = last[2] / (heartbeat_timeout / 2.0)
    backlogs = [s[3] for s in samples]
    return {'rate': rate, 'asked': asked, 'span': span,
            'backlog_first': backlogs[0], 'backlog_last': backlogs[-1],
            'backlog_max': max(backlogs), 'agents': last[2]}


def heartbeat_errors(client, lab):
    """(heartbeats refused or failed, {answer: count} of those still in
    the agents' event logs: an HTTP code or the client's error)."""
    def errors(system):
        doc = sim_get(client, lab, '/control/agents/%s' % system['uuid'])
        answers = [line.split('heartbeat answered ', 1)[1][:80]
                   for line in doc.get('events', [])
                   if 'heartbeat answered ' in line]
        return doc.get('counters', {}).get('heartbeat_errors', 0), answers
    found = concurrently(errors, lab.systems)
    answers = collections.Counter(
        answer for _count, seen in found for answer in seen)
    return sum(count for count, _seen in found), dict(answers)


def run_heartbeats(args, client, cluster, lab, memory):
    log('heartbeats: restarting the API and the conductors with '
        '[agent]heartbeat_timeout = %d' % args.heartbeat_timeout)
    restart_service(cluster, {'agent': {
        'heartbeat_timeout': args.heartbeat_timeout}})
    hold_clean_steps(client, lab)
    run_stage(client, lab, 'manage', 'manage', 'manageable',
              args.stage_timeout)
    # Cleaning stops in "clean wait" while the held step runs. A node
    # the manage stage left elsewhere (it says which) is left out: the
    # rate asked counts the agents heartbeating.
    nodes, _counts = count_states(lab)
    ready = [u for u in lab.nodes
             if nodes[u]['provision_state'] == 'manageable']
    if len(ready) < len(lab.nodes):
        log('  %d node(s) not manageable, left out'
            % (len(lab.nodes) - len(ready)))
    started = time.monotonic()
    concurrently(lambda u: put_provision(client, u, 'provide'), ready)
    deadline = started + args.stage_timeout
    counts = {}
    while time.monotonic() < deadline:
        _nodes, counts = count_states(lab)
        if counts.get('clean wait', 0) + sum(
                v for k, v in counts.items() if k in lab_mod.FINAL) \
                >= len(ready):
            break
        time.sleep(POLL)
    log('  %.1fs after provide: %s' % (time.monotonic() - started, counts))
    if args.idle_heartbeats:
        # Maintenance leaves nothing for a conductor to do on a
        # heartbeat: the API records it alone (api/idle_heartbeats.py).
        log('heartbeats: idle: every node in maintenance')
        concurrently(lambda u: patiently(
            client, 'PUT', '/v1/nodes/%s/maintenance' % u,
            {'reason': IDLE_REASON}, 'maintenance %s' % u), ready)
    # Let the heartbeats of the agents that booted last spread out.
    time.sleep(args.heartbeat_timeout)
    log('heartbeats: measuring for %d s' % args.heartbeat_seconds)
    # CPU seconds per process over the measurement (the API's workers
    # are counted with it: CpuMeter adds the descendants).
    meter = cpu_usage.CpuMeter(
        {label: pids[0] for label, pids in
         process_table(cluster, lab, memory.files).items()}).start()
    profilers = (profiling.start(cluster.processes, args.profile,
                                 gil=args.profile_gil)
                 if args.profile else [])
    try:
        figures = measure_heartbeats(client, lab, args.heartbeat_seconds,
                                     args.heartbeat_timeout)
    finally:
        profiling.stop(profilers)
    figures['cpu_seconds'] = meter.stop().seconds()
    memory.sample(cluster, lab, 'heartbeats')
    figures['errors'], figures['error_statuses'] = heartbeat_errors(
        client, lab)
    _nodes, figures['states'] = count_states(lab)
    maintenance = client.request(
        'GET', '/v1/nodes?maintenance=true&fields=uuid,maintenance_reason'
        '&limit=1000&resource_class=lab').json().get('nodes', [])
    # Put there by the service (e.g. the silent-agent check), not by
    # --idle-heartbeats.
    figures['maintenance'] = len([
        n for n in maintenance if n.get('maintenance_reason') != IDLE_REASON])
    figures['idle'] = bool(args.idle_heartbeats)
    return figures


# -- main -------------------------------------------------------------------

def start_boot_file_server(http_root):
    """A boot file server publishing ``http_root`` in a process of its
    own: (process, port, URL)."""
    http_port = lab_mod.free_port()
    http_url = 'http://127.0.0.1:%d' % http_port
    files = subprocess.Popen(
        [sys.executable, '-m', 'ironic_like.common.boot_file_server',
         '--root', http_root, '--port', str(http_port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        lab_mod.wait_http(http_url + '/', process=files)
    except BaseException:
        files.kill()
        files.wait(20)
        raise
    return files, http_port, http_url


def main(argv=None):
    parser = common.cluster_parser(__doc__)
    parser.add_argument('--image-mb', type=int, default=1,
                        help='Size of the image deployed (MiB); every '
                             'agent writes it to its disk file.')
    parser.add_argument('--stage-timeout', type=float, default=1200,
                        help='Seconds to wait for one stage.')
    parser.add_argument('--heartbeat-seconds', type=int, default=45)
    parser.add_argument('--skip-heartbeats', action='store_true')
    parser.add_argument('--heartbeat-timeout', type=int,
                        default=HEARTBEAT_TIMEOUT,
                        help='[agent]heartbeat_timeout of the heartbeat '
                             'run; agents heartbeat every half of it, so '
                             'N agents ask N / (timeout / 2) per second.')
    parser.add_argument('--json', metavar='FILE',
                        help='Also write the figures to FILE (JSON).')
    parser.add_argument('--profile', metavar='DIR',
                        help='Record the API and the conductors with py-spy '
                             'during the heartbeat measurement, one file '
                             'of folded stacks per process in DIR.')
    parser.add_argument('--profile-gil', action='store_true',
                        help='With --profile: only the threads holding the '
                             'GIL, i.e. where the CPU goes.')
    parser.add_argument('--heartbeats-only', action='store_true',
                        help='Skip the manage/provide/deploy/undeploy '
                             'stages: enrol, then measure heartbeats.')
    parser.add_argument('--idle-heartbeats', action='store_true',
                        help='Put every node in maintenance before the '
                             'heartbeat measurement: heartbeats with '
                             'nothing for a conductor to do, which the '
                             'API records alone.')
    parser.add_argument('--keep', action='store_true',
                        help='Keep the work directory (logs, disks).')
    args = parser.parse_args(argv)

    workdir = tempfile.mkdtemp(prefix='ironic-like-bench-deploy-')
    http_root = os.path.join(workdir, 'httpboot')
    # One boot file server for both conductors, as a cluster would have,
    # in a process of its own (not competing with this one for the GIL).
    os.makedirs(http_root)
    files, http_port, http_url = start_boot_file_server(http_root)
    conf = {section: dict(values)
            for section, values in common.SERVICE_TIMINGS.items()}
    conf.setdefault('DEFAULT', {})['enabled_hardware_types'] = (
        'redfish,fake-hardware')
    conf['deploy'] = {'http_root': http_root, 'http_url': http_url,
                      'http_server_port': 0}
    # The product's default node-call timeout (the test harness shortens
    # it to fail fast): a loaded conductor answers slower than the tests'.
    conf.setdefault('DEFAULT', {})['rpc_node_call_timeout'] = 8
    started = time.monotonic()
    try:
        database, cluster = common.start_cluster(args, conf)
    except BaseException:
        files.terminate()
        files.wait(20)
        raise
    log('Started %d API worker(s) and %d conductors on %s in %.1f s (%s); '
        'boot files on %s; work directory %s'
        % (args.api_workers, args.conductors, args.backend,
           time.monotonic() - started, cluster.url, http_url, workdir))
    lab = lab_mod.Lab(workdir, args.nodes, api_url=cluster.url,
                      image_mb=args.image_mb, http_port=http_port, log=log)
    memory = Memory(files)
    stages = []
    heartbeats = None
    try:
        lab.start()
        client = common.Client(cluster.url)
        client.session.headers.update(HEADERS)
        started = time.monotonic()
        lab.enrol()
        log('Enrolled %d nodes (sequentially) in %.1f s'
            % (len(lab.nodes), time.monotonic() - started))
        memory.sample(cluster, lab, 'enrol')
        for label, target, wanted in () if args.heartbeats_only else (
                ('manage', 'manage', 'manageable'),
                ('provide (clean)', 'provide', 'available'),
                ('deploy', 'active', 'active'),
                ('undeploy (clean)', 'deleted', 'available')):
            if target == 'active':
                set_image(client, lab)
            stages.append(run_stage(client, lab, label, target, wanted,
                                    args.stage_timeout))
            memory.sample(cluster, lab, label)
            if stages[-1]['reached'] < len(lab.nodes):
                log('Stopping: not every node reached %s' % wanted)
                break
        else:
            if not args.skip_heartbeats:
                heartbeats = run_heartbeats(args, client, cluster, lab,
                                            memory)
    except BaseException:
        common._dump_logs(cluster)
        raise
    finally:
        summary(args, stages, heartbeats, memory)
        if args.json:
            write_json(args, stages, heartbeats, memory)
        lab.stop()
        cluster.cleanUp()
        database.drop()
        files.terminate()
        files.wait(20)
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


def write_json(args, stages, heartbeats, memory):
    """The figures for tools/bench/run_all.py."""
    figures = {'benchmark': 'deploy', 'nodes': args.nodes,
               'stages': stages, 'heartbeats': heartbeats,
               'heartbeat_timeout': args.heartbeat_timeout,
               'peak_rss_mib': {label: round(kib / 1024.0, 1)
                                for label, (kib, _when)
                                in memory.peak.items()}}
    with open(args.json, 'w') as f:
        json.dump(figures, f, indent=2, sort_keys=True)


def summary(args, stages, heartbeats, memory):
    log('')
    log('N=%d nodes, %d API worker(s), %d conductors, %s, image %d MiB'
        % (args.nodes, args.api_workers, args.conductors, args.backend,
           args.image_mb))
    for s in stages:
        log('  %-18s %7.1f s  %7.1f nodes/min  (%d reached; requests '
            'sent in %.1f s)' % (s['stage'], s['seconds'], s['per_min'],
                                 s['reached'], s['burst']))
    if heartbeats:
        h = heartbeats
        log('  %sheartbeats: %.1f/s accepted over %.0f s, %.1f/s asked by '
            '%d agents; backlog %d -> %d (max %d); %d heartbeat errors; '
            '%d nodes put in maintenance; states %s'
            % ('idle ' if h.get('idle') else '', h['rate'], h['span'],
               h['asked'], h['agents'],
               h['backlog_first'], h['backlog_last'], h['backlog_max'],
               h['errors'], h['maintenance'], h['states']))
        if h['error_statuses']:
            log('  answers of the failed heartbeats (agents\' logs): %s'
                % ', '.join('%s x%d' % item for item in sorted(
                    h['error_statuses'].items())))
        log('  CPU seconds during the heartbeats: %s'
            % cpu_usage.format_seconds(h['cpu_seconds']))
    memory.report()


if __name__ == '__main__':
    sys.exit(main())
