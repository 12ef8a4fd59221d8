#!/usr/bin/env python3
"""Benchmark: a boot-session reboot of N simulated machines.

It starts the clustered mode as ``bench_deploy.py`` does (the
functional-test harness: a fresh MariaDB or PostgreSQL database,
``ironic-like-api`` with 1 worker, 1 or 2 ``ironic-like-conductor``
processes over RabbitMQ, the service's default periodic timings; one boot
file server for the conductors; the lab's Redfish emulator and agent
simulator), enrols N ``redfish`` nodes labelled ``group.bench`` (their
BMCs report them powered on), puts a session template whose boot set
names the kernel and initrd on the boot file server, posts a ``reboot``
session of the group and polls ``GET /v1/boot/sessions/{name}/status``
every 0.5 s until it is complete. Every machine has to power off, power
on, network-boot the kernel and initrd, wait ``--os-boot-delay`` s (its
simulated OS boot) and report its referral token.

It prints and (``--json``) writes:

* total session time: client side (POST sent -> first ``complete`` seen)
  and server side (the status's ``timing``, whole seconds on MariaDB);
* the simulated hardware's critical path: ``os_boot_delay`` + the time
  to download the kernel and initrd (timed by this client on the boot
  file server; sizes checked against the simulator's records); the
  orchestration overhead is the total minus that;
* per node, from the components' timestamps and the simulator's records:
  power-on requested, OS loaded, token reported (stable follows at the
  status operator's next look), relative to the POST: median, p95, max;
* CPU seconds of every process over the session (``/proc/<pid>/stat``
  utime+stime; API with its workers, each conductor, the simulator, the
  emulator, the boot file server, the database and RabbitMQ servers
  (whole servers, shared with anything else running), this client);
* operator loops: each conductor runs here as ``ironic-like-conductor``
  wrapped by this script (``--conductor-stats``), which only adds a
  SIGUSR1 handler writing the boot operators' own counters (loops and
  thread CPU per operator) to a file; ``--plain-conductors`` runs the
  console script instead (no loop counts);
* database queries: MariaDB's global ``Questions`` (every client of the
  server, this one's few reads included), PostgreSQL's committed +
  rolled back transactions of the benchmark's database, over the session,
  per node and per operator loop; the same counters over an idle window
  before the session (``--idle-seconds``) give the background rate;
* the status endpoint's latency: every poll during the run, and 30 GETs
  after completion (median, p99, max).

Usage (from the repository root, with the project's virtualenv)::

    .venv/bin/python tools/bench/bench_boot_sessions.py --nodes 1000
    .venv/bin/python tools/bench/bench_boot_sessions.py --nodes 50 \\
        --conductors 1 --json /tmp/boot-50-c1.json

Figures are printed, never asserted (the exit status is 1 when the
session did not complete or not every node ended stable). Every wait is
bounded; at the end every process is stopped and the database dropped.
"""

import datetime
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_deploy  # noqa: E402
import bench_node_list as common  # noqa: E402

from ironic_like_lab import lab as lab_mod  # noqa: E402

HEADERS = {'X-OpenStack-Ironic-API-Version': 'latest',
           'Content-Type': 'application/json'}
CLIENTS = 16
POLL = 0.5
KERNEL_BYTES = 256 * 1024
TEMPLATE = 'bench'
GROUP = 'bench'
SESSION = 'bench-reboot'
STATUS_REPEATS = 30
DOWNLOAD_REPEATS = 5
# Bound of the wait for a conductor's counters after SIGUSR1.
STATS_TIMEOUT = 10.0
CLK_TCK = os.sysconf('SC_CLK_TCK')
# Database and message-bus servers, by /proc/<pid>/comm.
SERVERS = {'mysql': ('mariadb server', ('mariadbd', 'mysqld')),
           'postgresql': ('postgresql server', ('postgres',))}
RABBITMQ = ('rabbitmq server', ('beam.smp',))

log = bench_deploy.log


# -- the conductor wrapper --------------------------------------------------

def conductor_main(argv):
    """``ironic-like-conductor`` with one addition: on SIGUSR1 it writes
    its boot operators' counters ({operator: {loops, cpu_seconds}}, their
    own ``BootOperators.stats()``) to the file named by
    ``--conductor-stats``, with a sequence number."""
    stats_path = argv[1]
    from ironic_like.cmd import conductor
    from ironic_like.conductor.operators import runner

    instances = []
    original = runner.BootOperators.__init__

    def remember(self, *args, **kwargs):
        original(self, *args, **kwargs)
        instances.append(self)
    runner.BootOperators.__init__ = remember
    seq = [0]

    def dump(signum, frame):
        seq[0] += 1
        doc = {'seq': seq[0], 'pid': os.getpid(), 'time': time.time(),
               'operators': instances[-1].stats() if instances else {}}
        tmp = stats_path + '.tmp'
        with open(tmp, 'w') as f:
            json.dump(doc, f)
        os.rename(tmp, stats_path)
    signal.signal(signal.SIGUSR1, dump)
    # The conductor parses sys.argv (oslo.config) itself.
    sys.argv = [sys.argv[0]] + argv[2:]
    return conductor.main()


def cluster_class():
    """The harness's Cluster, its conductors started through
    conductor_main when ``stats_dir`` is given."""
    from ironic_like.tests.functional import base

    class BenchCluster(base.Cluster):
        def __init__(self, *args, **kwargs):
            self.stats_dir = kwargs.pop('stats_dir', None)
            self.stats_files = {}
            super().__init__(*args, **kwargs)

        def start_conductor(self, host, wait=True):
            if not self.stats_dir:
                return super().start_conductor(host, wait=wait)
            path = os.path.join(self.stats_dir, '%s.stats.json' % host)
            proc = self._start(host, [sys.executable,
                                      os.path.abspath(__file__),
                                      '--conductor-stats', path], host)
            self.conductors[host] = proc
            self.stats_files[host] = path
            if wait:
                self.wait_for_conductors([host])
            return proc
    return base, BenchCluster


def read_loop_stats(cluster):
    """{host: {operator: {loops, cpu_seconds}}} asked of every conductor
    now (SIGUSR1), or {} without the wrapper; a conductor that does not
    answer within STATS_TIMEOUT is left out."""
    found = {}
    for host, path in sorted(cluster.stats_files.items()):
        proc = cluster.conductors[host]
        before = _read_json(path)
        seq = before.get('seq', 0) if before else 0
        proc.send(signal.SIGUSR1)
        deadline = time.monotonic() + STATS_TIMEOUT
        while time.monotonic() < deadline:
            doc = _read_json(path)
            if doc and doc.get('seq', 0) > seq:
                found[host] = doc['operators']
                break
            time.sleep(0.05)
        else:
            log('  (conductor %s did not write its counters within %.0f s)'
                % (host, STATS_TIMEOUT))
    return found


def _read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


# -- CPU and database counters ----------------------------------------------

def _stat_fields(pid):
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()
    except (OSError, IndexError):
        return None


def cpu_of(pid, with_children=False):
    """utime + stime (+ cutime + cstime) of ``pid``, in seconds."""
    fields = _stat_fields(pid)
    if fields is None:
        return None
    ticks = int(fields[11]) + int(fields[12])
    if with_children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / float(CLK_TCK)


def pids_named(names):
    found = []
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open('/proc/%s/comm' % entry) as f:
                if f.read().strip() in names:
                    found.append(int(entry))
        except OSError:
            continue
    return found


def cpu_snapshot(cluster, lab, files, backend):
    """{label: {pid: seconds}} of every process of the benchmark."""
    table = {label: (pids, False) for label, pids in
             bench_deploy.process_table(cluster, lab, files).items()}
    # Reaped children's time counts too: PostgreSQL's backends that exit
    # move theirs into the postmaster's.
    for label, names in (SERVERS[backend], RABBITMQ):
        table[label] = (pids_named(names), True)
    table['benchmark client'] = ([os.getpid()], False)
    snapshot = {}
    for label, (pids, children) in table.items():
        snapshot[label] = {}
        for pid in pids:
            seconds = cpu_of(pid, children)
            if seconds is not None:
                snapshot[label][pid] = seconds
    return snapshot


def cpu_delta(before, after):
    """{label: CPU seconds between the two snapshots}."""
    delta = {}
    for label, pids in after.items():
        old = before.get(label, {})
        delta[label] = sum(max(0.0, seconds - old.get(pid, 0.0))
                           for pid, seconds in pids.items())
    return delta


def db_counter(database):
    """MariaDB: the server's Questions; PostgreSQL: the transactions of
    the benchmark's database."""
    if database.backend == 'mysql':
        rows = database.query("SHOW GLOBAL STATUS LIKE 'Questions'")
        return int(rows[0][1])
    rows = database.query(
        'SELECT xact_commit + xact_rollback FROM pg_stat_database '
        'WHERE datname = :name', name=database.name)
    return int(rows[0][0])


def db_counter_label(backend):
    return ('queries (global Questions)' if backend == 'mysql'
            else 'transactions (pg_stat_database)')


class Snapshot(object):
    """CPU per process, the database counter and the operators' loops at
    one moment."""

    def __init__(self, cluster, lab, files, database):
        if database.backend == 'postgresql':
            # Backends flush their counters about once a second.
            time.sleep(1.1)
        self.loops = read_loop_stats(cluster)
        self.cpu = cpu_snapshot(cluster, lab, files, database.backend)
        self.db = db_counter(database)
        self.time = time.monotonic()


def loops_delta(before, after):
    """{host: {operator: {loops, cpu_seconds}}} between two snapshots."""
    delta = {}
    for host, operators in after.items():
        old = before.get(host, {})
        delta[host] = {
            name: {'loops': v['loops'] - old.get(name, {}).get('loops', 0),
                   'cpu_seconds': v['cpu_seconds']
                   - old.get(name, {}).get('cpu_seconds', 0.0)}
            for name, v in operators.items()}
    return delta


# -- the API and the machines -----------------------------------------------

class Client(common.Client):
    def request(self, method, path, body=None, timeout=60):
        return self.session.request(
            method, self.url + path, timeout=timeout, headers=HEADERS,
            data=json.dumps(body) if body is not None else None)


def enrol(client, lab):
    """The lab's machines as redfish nodes in group ``bench`` (with their
    port), CLIENTS at a time; node UUIDs in the order of lab.systems."""
    def create(system):
        node = bench_deploy.checked(client.request('POST', '/v1/nodes', {
            'name': system['name'], 'driver': 'redfish',
            'resource_class': 'lab', 'deploy_interface': 'agent',
            'boot_interface': 'ipxe',
            'labels': {'group.%s' % GROUP: ''},
            'driver_info': {
                'redfish_address': lab.bmc_url,
                'redfish_system_id': '/redfish/v1/Systems/%s'
                                     % system['uuid'],
                'redfish_username': 'admin',
                'redfish_password': 'password'},
            'properties': {'cpus': 4, 'memory_mb': 8192, 'local_gb': 20,
                           'cpu_arch': 'x86_64'}}),
            'POST /v1/nodes %s' % system['name']).json()
        bench_deploy.checked(client.request('POST', '/v1/ports', {
            'node_uuid': node['uuid'],
            'address': system['nics'][0]['mac']}),
            'POST /v1/ports %s' % system['name'])
        return node['uuid']
    lab.nodes = bench_deploy.concurrently(create, lab.systems)
    return lab.nodes


def set_os_boot_delay(client, lab, seconds):
    def put(system):
        bench_deploy.checked(client.session.put(
            '%s/control/agents/%s/options' % (lab.sim_url, system['uuid']),
            json={'os_boot_delay': seconds}, timeout=60),
            'options of %s' % system['uuid'])
    bench_deploy.concurrently(put, lab.systems)


def write_boot_files(http_root, http_url):
    """A kernel and an initrd of random bytes; their URLs and sizes."""
    images = os.path.join(http_root, 'images')
    os.makedirs(images, exist_ok=True)
    files = {}
    for kind, name in (('kernel', 'vmlinuz'), ('initrd', 'initrd.img')):
        with open(os.path.join(images, name), 'wb') as f:
            f.write(os.urandom(KERNEL_BYTES))
        files[kind] = {'url': '%s/images/%s' % (http_url, name),
                       'size': KERNEL_BYTES}
    return files


def time_download(client, boot_files):
    """Median seconds to fetch the kernel then the initrd (what each
    machine downloads), over DOWNLOAD_REPEATS tries."""
    samples = []
    for _ in range(DOWNLOAD_REPEATS):
        started = time.perf_counter()
        for kind in ('kernel', 'initrd'):
            resp = client.session.get(boot_files[kind]['url'], timeout=60)
            bench_deploy.checked(resp, 'GET %s' % kind)
            _body = resp.content  # noqa: F841 - the download is timed
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def put_template(client, boot_files):
    bench_deploy.checked(client.request(
        'PUT', '/v1/boot/sessiontemplates/%s' % TEMPLATE, {
            'description': 'bench_boot_sessions: group %s' % GROUP,
            'enable_cfs': False,
            'boot_sets': {GROUP: {
                'name': GROUP,
                'kernel': boot_files['kernel']['url'],
                'initrd': boot_files['initrd']['url'],
                'kernel_parameters': 'console=ttyS0',
                'node_groups': [GROUP]}}}), 'PUT template')
    valid = client.request(
        'GET', '/v1/boot/sessiontemplatesvalid/%s' % TEMPLATE).json()
    if valid != 'Valid':
        raise RuntimeError('template %s: %s' % (TEMPLATE, valid))


def timed_get(client, path):
    started = time.perf_counter()
    resp = client.request('GET', path)
    _body = resp.content  # noqa: F841 - the download is timed
    return (time.perf_counter() - started) * 1000.0, resp


def run_session(client, count, timeout):
    """POST the session and poll its status every POLL s until complete
    (aborted after ``timeout`` s). Answers a dict of what was seen."""
    path = '/v1/boot/sessions/%s' % SESSION
    t_post = time.time()
    started = time.monotonic()
    resp = client.request('POST', '/v1/boot/sessions', {
        'name': SESSION, 'operation': 'reboot', 'template_name': TEMPLATE})
    bench_deploy.checked(resp, 'POST session')
    post_ms = (time.monotonic() - started) * 1000.0
    latencies = []
    last = None
    status = {}
    complete = False
    while True:
        ms, resp = timed_get(client, path + '/status')
        seen = time.monotonic() - started
        latencies.append(ms)
        status = bench_deploy.checked(resp, 'GET status').json()
        counts = sorted((status.get('counts') or {}).get(
            'status', {}).items())
        line = (status['status'], counts)
        if line != last:
            log('  %6.1fs %s%s' % (seen, status['status'],
                                   ': ' + ', '.join('%s: %d' % kv
                                                    for kv in counts)
                                   if counts else ''))
            last = line
        if status['status'] == 'complete':
            complete = True
            break
        if seen >= timeout:
            log('  not complete within %.0f s: aborting the session'
                % timeout)
            try:
                client.request('POST', path + '/abort')
            except Exception as e:  # reported, not fatal
                log('  abort failed: %s' % e)
            break
        time.sleep(max(0.0, POLL - ms / 1000.0))
    return {'t_post': t_post, 'post_ms': post_ms,
            'client_seconds': time.monotonic() - started,
            'complete': complete, 'status': status,
            'poll_latencies_ms': latencies}


def parse_iso(value):
    """Epoch seconds of an ISO 8601 UTC time ('...Z'), or None."""
    if not value:
        return None
    text = value[:-1] if value.endswith('Z') else value
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment.timestamp()


def per_node(client, lab, t_post, boot_files):
    """Per machine: the component's timestamps and the simulator's
    record of its OS boot."""
    components = {c['id']: c for c in bench_deploy.checked(client.request(
        'GET', '/v1/boot/components?session=%s' % SESSION),
        'GET components').json()}

    def detail(system):
        return bench_deploy.checked(client.session.get(
            '%s/control/agents/%s' % (lab.sim_url, system['uuid']),
            timeout=60), 'agent %s' % system['uuid']).json()
    details = bench_deploy.concurrently(detail, lab.systems)
    rows = []
    for system, doc in zip(lab.systems, details):
        comp = components.get(system['name']) or {}
        record = (doc.get('records') or {}).get('os_boot') or {}
        actual = comp.get('actual_state') or {}
        action = comp.get('last_action') or {}
        status = (comp.get('status') or {}).get('status')
        token = (comp.get('desired_state') or {}).get('bss_token')
        stats = comp.get('event_stats') or {}
        counters = doc.get('counters') or {}
        # The reporter sends again at a random moment of its period
        # (0.75 x component_actual_state_ttl): a second report re-stamps
        # actual_state.last_updated, which then no longer tells when the
        # node got there.
        t_report = (parse_iso(actual.get('last_updated'))
                    if counters.get('reports', 0) <= 1 else None)
        t_power_on = (parse_iso(action.get('last_updated'))
                      if action.get('action') == 'powering_on' else None)
        t_loaded = record.get('time')
        rows.append({
            'id': system['name'], 'status': status,
            'power_on': _rel(t_power_on, t_post),
            'loaded': _rel(t_loaded, t_post),
            'reported': _rel(t_report, t_post),
            'sizes_ok': (record.get('kernel_size')
                         == boot_files['kernel']['size']
                         and record.get('initrd_size')
                         == boot_files['initrd']['size']),
            'in_os': (doc.get('state') == 'os' and token is not None
                      and record.get('token') == token),
            'os_boots': counters.get('os_boots', 0),
            'reports': counters.get('reports', 0),
            'report_errors': counters.get('report_errors', 0),
            'power_on_attempts': stats.get('power_on_attempts', 0),
            'graceful_attempts': stats.get('power_off_graceful_attempts',
                                           0),
            'forceful_attempts': stats.get('power_off_forceful_attempts',
                                           0),
            'error': comp.get('error') or ''})
    return rows


def _rel(moment, origin):
    return None if moment is None else moment - origin


def spread(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {'median': statistics.median(values),
            'p95': common.percentile(values, 95),
            'max': max(values), 'min': min(values), 'count': len(values)}


def latency(samples):
    if not samples:
        return None
    return {'median': statistics.median(samples),
            'p99': common.percentile(samples, 99), 'max': max(samples),
            'count': len(samples)}


# -- figures ----------------------------------------------------------------

def figures_of(args, run, rows, download_s, idle, before, after,
               final_latency, components_ms, backend, owners):
    n = args.nodes
    status = run['status']
    timing = status.get('timing') or {}
    t_start = parse_iso(timing.get('start_time'))
    t_end = parse_iso(timing.get('end_time'))
    hardware = args.os_boot_delay + download_s
    total = run['client_seconds']
    reported = spread([r['reported'] for r in rows])
    cpu = cpu_delta(before.cpu, after.cpu)
    loops = loops_delta(before.loops, after.loops)
    loops_per_host = {host: sum(v['loops'] for v in ops.values())
                      for host, ops in loops.items()}
    total_loops = sum(loops_per_host.values())
    queries = after.db - before.db
    session_seconds = after.time - before.time
    idle_rate = idle['db'] / idle['seconds'] if idle['seconds'] else 0.0
    idle_cpu = {label: seconds / idle['seconds']
                for label, seconds in idle['cpu'].items()}
    per_conductor_cpu = {}
    for host in loops:
        label = 'conductor %s' % host.rsplit('-', 1)[-1]
        if label in cpu and loops_per_host[host]:
            in_operators = sum(v['cpu_seconds']
                               for v in loops[host].values())
            per_conductor_cpu[label] = {
                'cpu_seconds': cpu[label], 'loops': loops_per_host[host],
                'cpu_ms_per_loop': 1000.0 * cpu[label]
                / loops_per_host[host],
                'operator_threads_cpu_seconds': in_operators,
                'other_threads_cpu_seconds': cpu[label] - in_operators}
    service_cpu = sum(v for k, v in cpu.items()
                      if k.startswith('api') or k.startswith('conductor'))
    figures = {
        'nodes': n, 'conductors': args.conductors, 'backend': backend,
        'api_workers': args.api_workers,
        'os_boot_delay': args.os_boot_delay,
        'kernel_initrd_bytes': 2 * KERNEL_BYTES,
        'complete': run['complete'],
        'percent_successful': status.get('percent_successful'),
        'counts': (status.get('counts') or {}).get('status'),
        'failed_nodes': (status.get('failed_nodes') or [])[:5],
        'total_seconds_client': total,
        'total_seconds_server': (t_end - t_start
                                 if t_start and t_end else None),
        'last_report_seconds': reported and reported['max'],
        'download_seconds': download_s,
        'hardware_critical_path_seconds': hardware,
        'overhead_seconds': total - hardware,
        'overhead_seconds_last_report': (reported['max'] - hardware
                                         if reported else None),
        'seconds_per_node': total / n,
        'per_node': {
            'power_on_requested': spread([r['power_on'] for r in rows]),
            'os_loaded': spread([r['loaded'] for r in rows]),
            'reported': reported,
            'power_on_to_loaded': spread([
                r['loaded'] - r['power_on'] for r in rows
                if r['loaded'] is not None and r['power_on'] is not None]),
            'loaded_to_reported': spread([
                r['reported'] - r['loaded'] for r in rows
                if r['loaded'] is not None and r['reported'] is not None]),
        },
        'machines_in_os_with_token': sum(1 for r in rows if r['in_os']),
        'machines_with_right_sizes': sum(1 for r in rows if r['sizes_ok']),
        'machines_booted_more_than_once': sum(1 for r in rows
                                              if r['os_boots'] > 1),
        'report_errors': sum(r['report_errors'] for r in rows),
        'reported_again': sum(1 for r in rows if r['reports'] > 1),
        'nodes_per_conductor': owners,
        'power_on_retries': sum(max(0, r['power_on_attempts'] - 1)
                                for r in rows),
        'forced_power_offs': sum(1 for r in rows
                                 if r['forceful_attempts']),
        'errors': sorted(set(r['error'] for r in rows if r['error']))[:5],
        'cpu_seconds': cpu,
        'cpu_seconds_service_total': service_cpu,
        'cpu_ms_per_node_service': 1000.0 * service_cpu / n,
        'idle_cpu_per_second': idle_cpu,
        'conductor_cpu_per_loop': per_conductor_cpu,
        'operator_loops': loops,
        'operator_loops_total': total_loops,
        'db_counter': db_counter_label(backend),
        'db_count': queries,
        'db_count_per_node': queries / float(n),
        'db_count_per_loop': (queries / float(total_loops)
                              if total_loops else None),
        'db_idle_rate_per_second': idle_rate,
        'db_count_above_idle': queries - idle_rate * session_seconds,
        'status_latency_ms_during_run': latency(run['poll_latencies_ms']),
        'status_latency_ms_after_complete': latency(final_latency),
        'components_list_ms': latency(components_ms),
        'post_session_ms': run['post_ms'],
    }
    return figures


def nodes_per_conductor(base, cluster, lab):
    """{conductor: nodes it owns}, the ring computed as the services
    compute it (the harness's ring_owners)."""
    counts = {}
    for host in base.ring_owners(sorted(cluster.conductors),
                                 lab.nodes).values():
        label = 'conductor %s' % host.rsplit('-', 1)[-1]
        counts[label] = counts.get(label, 0) + 1
    return counts


def log_problems(cluster):
    """{process: number of WARNING/ERROR/CRITICAL lines in its log}."""
    found = {}
    for proc in cluster.processes:
        lines = [line for line in proc.log_text(10 ** 7).splitlines()
                 if any(' %s ' % level in line for level in
                        ('WARNING', 'ERROR', 'CRITICAL'))]
        if lines:
            found[proc.name] = {'count': len(lines), 'last': lines[-3:]}
    return found


def _fmt(value, unit='', digits=1):
    if value is None:
        return 'n/a'
    return '%.*f%s' % (digits, value, unit)


def _spread_text(s, unit='s'):
    if not s:
        return 'n/a'
    return 'median %s, p95 %s, max %s' % (
        _fmt(s['median'], unit), _fmt(s['p95'], unit), _fmt(s['max'], unit))


def print_figures(f):
    log('')
    log('Boot session reboot: %d nodes, %d conductor(s), %s, '
        'os_boot_delay %.1f s' % (f['nodes'], f['conductors'], f['backend'],
                                  f['os_boot_delay']))
    rows = [
        ('complete / successful', '%s / %s %%  counts %s' % (
            f['complete'], f['percent_successful'], f['counts'])),
        ('total (client: POST -> complete seen)',
         _fmt(f['total_seconds_client'], ' s')),
        ('total (server timing, whole s)',
         _fmt(f['total_seconds_server'], ' s', 0)),
        ('last node reported (after POST)',
         _fmt(f['last_report_seconds'], ' s')),
        ('hardware critical path',
         '%s (os_boot_delay %.1f + kernel+initrd %s)' % (
             _fmt(f['hardware_critical_path_seconds'], ' s', 2),
             f['os_boot_delay'],
             _fmt(f['download_seconds'] * 1000.0, ' ms'))),
        ('orchestration overhead (total - hw)',
         '%s (last report - hw: %s)' % (
             _fmt(f['overhead_seconds'], ' s'),
             _fmt(f['overhead_seconds_last_report'], ' s'))),
        ('total per node', _fmt(f['seconds_per_node'] * 1000.0, ' ms')),
        ('per node: power-on requested',
         _spread_text(f['per_node']['power_on_requested'])),
        ('per node: OS loaded',
         _spread_text(f['per_node']['os_loaded'])),
        ('per node: reported (~stable)',
         '%s%s' % (_spread_text(f['per_node']['reported']),
                   ' (%d reported again later: left out)'
                   % f['reported_again'] if f['reported_again'] else '')),
        ('per node: power-on -> OS loaded',
         _spread_text(f['per_node']['power_on_to_loaded'])),
        ('per node: OS loaded -> reported',
         _spread_text(f['per_node']['loaded_to_reported'])),
        ('machines in the OS with their token',
         '%d (right kernel/initrd sizes: %d; booted twice: %d; power-on '
         'retries: %d; forced offs: %d; failed reports: %d)' % (
             f['machines_in_os_with_token'],
             f['machines_with_right_sizes'],
             f['machines_booted_more_than_once'], f['power_on_retries'],
             f['forced_power_offs'], f['report_errors'])),
        ('nodes per conductor (ring)', ', '.join(
            '%s: %d' % kv for kv in sorted(
                f['nodes_per_conductor'].items()))),
    ]
    for label, seconds in sorted(f['cpu_seconds'].items()):
        idle = f['idle_cpu_per_second'].get(label)
        rows.append(('CPU %s' % label, '%.2f s  (idle %s/s)' % (
            seconds, _fmt(idle, ' s', 3))))
    rows.append(('CPU API + conductors per node',
                 _fmt(f['cpu_ms_per_node_service'], ' ms')))
    for label, c in sorted(f['conductor_cpu_per_loop'].items()):
        rows.append(('%s per loop' % label,
                     '%.1f ms CPU (%d loops; operator threads %.1f s, '
                     'other threads %.1f s)' % (
                         c['cpu_ms_per_loop'], c['loops'],
                         c['operator_threads_cpu_seconds'],
                         c['other_threads_cpu_seconds'])))
    rows.append(('operator loops (all conductors)',
                 str(f['operator_loops_total'] or 'n/a')))
    rows.append(('DB %s' % f['db_counter'],
                 '%d (idle background %.1f/s; above idle ~%.0f)' % (
                     f['db_count'], f['db_idle_rate_per_second'],
                     f['db_count_above_idle'])))
    rows.append(('DB per node / per loop', '%s / %s' % (
        _fmt(f['db_count_per_node']), _fmt(f['db_count_per_loop']))))
    for key, label in (('status_latency_ms_during_run',
                        'status latency during run'),
                       ('status_latency_ms_after_complete',
                        'status latency after complete'),
                       ('components_list_ms',
                        'GET components?session (N)')):
        s = f[key]
        rows.append((label, 'n/a' if not s else
                     'median %.1f ms, p99 %.1f ms, max %.1f ms (%d)' % (
                         s['median'], s['p99'], s['max'], s['count'])))
    rows.append(('POST session', _fmt(f['post_session_ms'], ' ms')))
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        log('  %-*s  %s' % (width, label, value))
    log('  operator loops / thread CPU per conductor:')
    for host, operators in sorted(f['operator_loops'].items()):
        log('    %s: %s' % (host.rsplit('-', 1)[-1], ', '.join(
            '%s %d (%.2f s)' % (name, v['loops'], v['cpu_seconds'])
            for name, v in sorted(operators.items()) if v['loops'])))
    for name, problems in sorted(f.get('log_problems', {}).items()):
        log('  %s: %d WARNING/ERROR log lines, the last: %s'
            % (name, problems['count'], problems['last']))
    if f['errors']:
        log('  component errors, e.g.: %s' % f['errors'])
    if f['failed_nodes']:
        log('  failed nodes, e.g.: %s' % f['failed_nodes'])


# -- main -------------------------------------------------------------------

def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ['--conductor-stats']:
        return conductor_main(argv)
    parser = common.cluster_parser(__doc__, api_workers=1, nodes=1000)
    parser.add_argument('--os-boot-delay', type=float, default=2.0,
                        help='The simulated OS boot time of every machine '
                             '(agent option os_boot_delay), seconds.')
    parser.add_argument('--timeout', type=float, default=None,
                        help='Seconds the session may take before it is '
                             'aborted (default: 120 + 2 per node).')
    parser.add_argument('--idle-seconds', type=float, default=10.0,
                        help='Idle window before the session for the '
                             'background CPU and database rates.')
    parser.add_argument('--json', metavar='FILE',
                        help='Write the figures to FILE as JSON.')
    parser.add_argument('--plain-conductors', action='store_true',
                        help='Run ironic-like-conductor unwrapped (no '
                             'operator loop counts).')
    parser.add_argument('--keep', action='store_true',
                        help='Keep the work directory (logs).')
    args = parser.parse_args(argv)
    if args.conductors not in (1, 2):
        parser.error('--conductors must be 1 or 2')
    timeout = (args.timeout if args.timeout is not None
               else lab_mod.session_bound(args.nodes))

    workdir = tempfile.mkdtemp(prefix='ironic-like-bench-boot-')
    http_root = os.path.join(workdir, 'httpboot')
    os.makedirs(http_root)
    files, http_port, http_url = bench_deploy.start_boot_file_server(http_root)
    conf = {section: dict(values)
            for section, values in common.SERVICE_TIMINGS.items()}
    conf.setdefault('DEFAULT', {})['enabled_hardware_types'] = (
        'redfish,fake-hardware')
    conf['deploy'] = {'http_root': http_root, 'http_url': http_url,
                      'http_server_port': 0}
    conf.setdefault('DEFAULT', {})['rpc_node_call_timeout'] = 8
    started = time.monotonic()
    base, bench_cluster = cluster_class()
    try:
        with mock.patch.object(base, 'Cluster', bench_cluster):
            database, cluster = common.start_cluster(
                args, conf, work_dir=workdir,
                stats_dir=None if args.plain_conductors else workdir)
    except BaseException:
        files.terminate()
        files.wait(20)
        raise
    log('Started %d API worker(s) and %d conductor(s) on %s in %.1f s '
        '(%s); boot files on %s; work directory %s'
        % (args.api_workers, args.conductors, args.backend,
           time.monotonic() - started, cluster.url, http_url, workdir))
    lab = lab_mod.Lab(workdir, args.nodes, api_url=cluster.url,
                      image_mb=0, http_port=http_port, log=log)
    for system in lab.systems:
        system['power_state'] = 'On'
    figures = None
    try:
        started = time.monotonic()
        lab.start()
        client = Client(cluster.url)
        set_os_boot_delay(client, lab, args.os_boot_delay)
        log('Lab (emulator, simulator) up in %.1f s'
            % (time.monotonic() - started))
        started = time.monotonic()
        enrol(client, lab)
        log('Enrolled %d nodes (%d clients) in %.1f s'
            % (len(lab.nodes), CLIENTS, time.monotonic() - started))
        boot_files = write_boot_files(http_root, http_url)
        put_template(client, boot_files)
        download_s = time_download(client, boot_files)
        log('Idle for %.0f s (background rates)...' % args.idle_seconds)
        first = Snapshot(cluster, lab, files, database)
        time.sleep(args.idle_seconds)
        before = Snapshot(cluster, lab, files, database)
        idle = {'seconds': before.time - first.time,
                'cpu': cpu_delta(first.cpu, before.cpu),
                'db': before.db - first.db}
        log('Reboot session of %d nodes (bound %.0f s)...'
            % (args.nodes, timeout))
        run = run_session(client, args.nodes, timeout)
        after = Snapshot(cluster, lab, files, database)
        final_latency = []
        for _ in range(STATUS_REPEATS):
            ms, resp = timed_get(client, '/v1/boot/sessions/%s/status'
                                 % SESSION)
            bench_deploy.checked(resp, 'GET status')
            final_latency.append(ms)
        components_ms = [timed_get(
            client, '/v1/boot/components?session=%s' % SESSION)[0]
            for _ in range(3)]
        rows = per_node(client, lab, run['t_post'], boot_files)
        figures = figures_of(args, run, rows, download_s, idle, before,
                             after, final_latency, components_ms,
                             args.backend, nodes_per_conductor(
                                 base, cluster, lab))
        figures['log_problems'] = log_problems(cluster)
        print_figures(figures)
        if args.json:
            with open(args.json, 'w') as f:
                json.dump(figures, f, indent=1, sort_keys=True)
            log('Figures written to %s' % args.json)
        if not run['complete']:
            common._dump_logs(cluster)
            log('The session did not complete; lab logs in %s (--keep to '
                'keep them)' % workdir)
    except BaseException:
        common._dump_logs(cluster)
        raise
    finally:
        lab.stop()
        cluster.cleanUp()
        database.drop()
        files.terminate()
        try:
            files.wait(20)
        except subprocess.TimeoutExpired:
            files.kill()
            files.wait(20)
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    ok = (figures is not None and figures['complete']
          and figures['percent_successful'] == 100)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
