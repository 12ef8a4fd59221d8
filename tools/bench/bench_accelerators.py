#!/usr/bin/env python3
"""Benchmark: accelerator plug latency and the inventory diff at scale.

The two figures the accelerators work asks for (doc/accelerators.md), in
process against a fresh database (MariaDB by default, PostgreSQL with
``--backend postgresql``, SQLite with ``--backend sqlite``, or an empty
database of yours with ``--db-url``), no API and no RabbitMQ: the
service's own code (``ironic_like.accelerators.os_acc`` and
``Connection.apply_accelerator_inventory``) is called directly.

1. **Plug latency with the simulated programmer.** The lab's agent
   simulator runs as a process of its own (``python -m
   ironic_like_lab.agent_sim``) with one booted agent per node, each
   machine carrying a blank FPGA (one region, 2 VFs) and a GPU (the
   ``accelerators`` agent option, ``program_delay`` 0 by default) and
   requiring its agent token. ``--nodes`` nodes are created in the
   database in ``deploying`` with an instance, their ``agent_url``
   (``<simulator>/agents/<id>``) and agent token in
   ``driver_internal_info``, and the same inventory recorded with
   ``apply_accelerator_inventory``. Two bitstreams of
   ``--bitstream-kib`` KiB are in a JSON index (``images.write_index``,
   ``[accelerators]image_service = index``); a boot file server
   (``python -m ironic_like.common.boot_file_server``, a process) serves
   ``[deploy]http_root`` at ``[deploy]http_url``, where the conductor side
   stages the bitstream and the simulated agent downloads it from.

   Per node it times ``os_acc.plug(instance_info, {'uuid': node},
   flavor_extra_specs)`` and ``os_acc.unplug(instance_info)``: a plug
   that programs the region (``accel:bitstream_id`` of a bitstream not
   loaded: the conductor downloads and checks it from the index, stages
   it, the agent downloads, checks and loads it), a plug of the function
   already loaded (the same bitstream again after the unplug: no
   programming), a plug of the GPU (``resources:PGPU``), each followed by
   its unplug. First one node at a time (bitstream A), then, with
   ``--concurrency`` C > 1, the nodes over C threads (bitstream B, so the
   regions are programmed again). The time of a programming plug is
   split into the bitstream's staging (``bitstreams.stage``), the agent's
   ``accelerator.program`` call and the rest (database, index look-up).
   After each round it checks on the simulator (``GET
   /control/agents/<id>/accelerators/<pci>/0/bitstream``) that every
   node's region holds exactly the image's bytes (``--verify-sample``
   limits that to a sample), that each agent programmed once per round
   (no programming for the loaded function or the GPU), and in the
   database that nothing is left held and every trait is free again.

2. **The inventory diff at scale.** ``--scale-nodes`` nodes (1,000) with
   ``--devices`` accelerators each (8: FPGAs with two regions and 4 VFs,
   some with a function loaded, and GPUs with or without VFs; every PCI
   address distinct) are inserted in bulk, their inventories recorded
   once, one node at a time (parse + apply, as discovery does;
   ``--record-workers`` threads otherwise); then every node's unchanged
   inventory is applied again (must write nothing: it counts the rows the
   statements wrote and compares every accelerator row, ``updated_at``
   included, before and after); then ONE device of ONE node changes and
   that node's inventory is applied: a function loaded in a region, then,
   on another node, a GPU vanishing. For each change it prints the time,
   the rows it touched per table and whether any row of any other node
   differs (full snapshots of the six accelerator tables before and
   after).

Figures are printed (``--json FILE`` writes them too); the checks are
reported, and the exit status is 1 when one failed.

Usage (repository root, the project's virtualenv; MariaDB as for the
functional tests)::

    .venv/bin/python tools/bench/bench_accelerators.py
    .venv/bin/python tools/bench/bench_accelerators.py --backend sqlite
    .venv/bin/python tools/bench/bench_accelerators.py --nodes 200 \\
        --concurrency 8 --bitstream-kib 4096 --json /tmp/acc.json
    .venv/bin/python tools/bench/bench_accelerators.py --skip-scale
    .venv/bin/python tools/bench/bench_accelerators.py --skip-plug \\
        --scale-nodes 5000
"""

import argparse
import concurrent.futures
import copy
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid

from oslo_utils import timeutils
import requests
import sqlalchemy as sa

sys.path.insert(0, os.path.abspath(os.path.join(
    os.path.dirname(__file__), '..', '..')))

from ironic_like.accelerators import bitstreams  # noqa: E402
from ironic_like.accelerators import drivers  # noqa: E402
from ironic_like.accelerators import images  # noqa: E402
from ironic_like.accelerators import os_acc  # noqa: E402
from ironic_like.common.accelerators import inventory  # noqa: E402
from ironic_like.common import agent_token  # noqa: E402
from ironic_like.conf import CONF  # noqa: E402
from ironic_like.db import api as db_api  # noqa: E402
from ironic_like.db import migration  # noqa: E402
from ironic_like.db.sqlalchemy import api as sa_api  # noqa: E402
from ironic_like.tests.functional import base as ft_base  # noqa: E402
from ironic_like.tests.unit import accelerator_samples as samples  # noqa
from ironic_like_lab import lab as lab_mod  # noqa: E402

HOST = 'bench-conductor'
HTTP_TIMEOUT = 60
TABLES = ('accelerator_inventories', 'accelerator_devices',
          'accelerator_deployables', 'accelerator_attach_handles',
          'accelerator_traits', 'accelerator_attachments')
# The bitstreams of the plug rounds: (id, name, function uuid).
BITSTREAMS = (('bench-gzip', 'gzip', samples.GZIP),
              ('bench-aes', 'aes', samples.AES))
FPGA_ADDRESS = '0000:5e:00.0'
GPU_ADDRESS = '0000:3b:00.0'


def log(text):
    print(text, flush=True)


def percentile(samples_, pct):
    """Nearest-rank percentile of ``samples_`` (pct in 0..100)."""
    ordered = sorted(samples_)
    rank = max(1, int(-(-pct * len(ordered) // 100)))
    return ordered[min(rank, len(ordered)) - 1]


def stats(samples_):
    """{n, p50, p95, max, mean} of a list of milliseconds."""
    if not samples_:
        return None
    return {'n': len(samples_), 'p50': statistics.median(samples_),
            'p95': percentile(samples_, 95), 'max': max(samples_),
            'mean': statistics.fmean(samples_)}


# -- measuring inside the service's calls ------------------------------------

_TLS = threading.local()


class Probe(object):
    """Per thread: seconds spent in wrapped functions, SQL statements and
    rows written (INSERT, UPDATE, DELETE row counts) during one call."""

    _WRITE = re.compile(r'^\s*(INSERT|UPDATE|DELETE)\b', re.I)

    def __init__(self, engine):
        sa.event.listen(engine, 'after_cursor_execute', self._after)

    @staticmethod
    def start():
        _TLS.probe = {'statements': 0, 'writes': 0, 'rows_written': 0}

    @staticmethod
    def stop():
        probe, _TLS.probe = getattr(_TLS, 'probe', None), None
        return probe or {}

    @staticmethod
    def add(key, seconds):
        probe = getattr(_TLS, 'probe', None)
        if probe is not None:
            probe[key] = probe.get(key, 0.0) + seconds

    def _after(self, conn, cursor, statement, params, context, many):
        probe = getattr(_TLS, 'probe', None)
        if probe is None:
            return
        probe['statements'] += 1
        if self._WRITE.match(statement):
            probe['writes'] += 1
            probe['rows_written'] += max(cursor.rowcount, 0)


def timed(fn, key):
    """``fn``, adding the time it takes to the running probe's ``key``."""
    def wrapper(*args, **kwargs):
        started = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            Probe.add(key, time.perf_counter() - started)
    wrapper.__wrapped__ = fn
    return wrapper


def instrument():
    """Time the bitstream staging and the agent's program call (the
    behaviour is unchanged: the wrappers only measure)."""
    bitstreams.stage = timed(bitstreams.stage, 'stage_s')
    drivers.FPGAAgentDriver.program = timed(
        drivers.FPGAAgentDriver.program, 'program_s')


# -- processes ---------------------------------------------------------------

def start_process(name, argv, url, workdir):
    """A child process logging to ``workdir/<name>.log``, answering
    ``url``: (process, log path)."""
    path = os.path.join(workdir, '%s.log' % name)
    with open(path, 'wb') as out:
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
    try:
        lab_mod.wait_http(url, process=proc)
    except BaseException:
        stop_process(proc)
        raise
    return proc, path


def stop_process(proc):
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(20)


def checked(resp, what):
    if resp.status_code >= 400:
        raise RuntimeError('%s answered %s: %s' % (what, resp.status_code,
                                                   resp.text[:300]))
    return resp


# -- part 1: plug latency ----------------------------------------------------

def bitstream_properties(function_uuid, function_name):
    return {images.FUNCTION_UUID: function_uuid,
            images.FUNCTION_NAME: function_name,
            images.REGION_TYPE_UUID: samples.REGION_TYPE,
            images.VENDOR: '8086'}


def make_bitstreams(index_dir, size):
    """The index and its images: {id: (record, data)}."""
    made = []
    for image_id, name, function_uuid in BITSTREAMS:
        made.append((name, os.urandom(size),
                     bitstream_properties(function_uuid, name), image_id))
    records = images.write_index(index_dir, made)
    return {r.id: (r, item[1]) for r, item in zip(records, made)}


class PlugLab(object):
    """The agent simulator with one booted agent per node, and the nodes
    (deploying, with an instance) in the database."""

    def __init__(self, args, db, workdir, http_url):
        self.args = args
        self.db = db
        self.workdir = workdir
        self.http_url = http_url
        self.sim = None
        self.sim_log = None
        self.sim_url = None
        self.nodes = []  # [{'uuid', 'id', 'agent', 'instance'}]
        self.session = requests.Session()

    def start(self):
        port = lab_mod.free_port()
        self.sim_url = 'http://127.0.0.1:%d' % port
        self.sim, self.sim_log = start_process('agent-sim', [
            sys.executable, '-m', 'ironic_like_lab.agent_sim',
            # Nothing answers lookups: the agents look up once (404 from
            # the boot file server), then wait an hour before trying
            # again; they answer commands meanwhile, as in a deploy.
            '--api-url', self.http_url, '--host', '127.0.0.1',
            '--port', str(port),
            '--state-dir', os.path.join(self.workdir, 'agents'),
            '--command-workers', '4'],
            self.sim_url + '/control/health', self.workdir)

    def stop(self):
        stop_process(self.sim)

    def sim_request(self, method, path, **kwargs):
        resp = self.session.request(method, self.sim_url + path,
                                    timeout=HTTP_TIMEOUT, **kwargs)
        return checked(resp, '%s %s' % (method, path))

    def create(self):
        options = {'accelerators': [samples.fpga(FPGA_ADDRESS),
                                    samples.gpu(GPU_ADDRESS)],
                   'program_delay': self.args.program_delay,
                   'require_token': True,
                   'lookup_backoff': 3600, 'lookup_backoff_max': 3600,
                   'lookup_timeout': 7200}
        specs = []
        for index in range(self.args.nodes):
            agent_id = 'acc-%04d' % index
            node_uuid = str(uuid.uuid4())
            token = agent_token.generate()
            node = self.db.create_node({
                'uuid': node_uuid, 'name': agent_id,
                'driver': 'fake-hardware', 'provision_state': 'deploying',
                'power_state': 'power on',
                'instance_uuid': str(uuid.uuid4()),
                'driver_internal_info': {
                    'agent_url': '%s/agents/%s' % (self.sim_url, agent_id),
                    agent_token.TOKEN_KEY: token}})
            samples.apply(node, copy.deepcopy(options['accelerators']))
            self.nodes.append({'uuid': node.uuid, 'id': node.id,
                               'agent': agent_id, 'token': token,
                               'instance': {'uuid': node.instance_uuid,
                                            'name': 'vm-%s' % agent_id,
                                            'project_id': 'bench'}})
            specs.append({'id': agent_id, 'macs': [lab_mod.mac_of(index)],
                          'node_uuid': node.uuid, 'options': options})
        self.sim_request('POST', '/control/agents', json={'agents': specs})
        for node in self.nodes:
            self.sim_request('POST', '/control/agents/%s/boot'
                             % node['agent'],
                             json={'agent_token': node['token']})
        # A command with a wrong token is refused: the token is checked.
        resp = self.session.post(
            '%s/agents/%s/v1/commands/?wait=true' % (self.sim_url,
                                                     self.nodes[0]['agent']),
            json={'name': 'accelerator.erase', 'params': {}},
            headers={'X-Agent-Token': 'wrong'}, timeout=HTTP_TIMEOUT)
        if resp.status_code != 401:
            raise RuntimeError('the simulated agent accepted a wrong token '
                               '(%s)' % resp.status_code)


def run_op(fn, *args):
    """(result, ms, probe) of one call."""
    Probe.start()
    started = time.perf_counter()
    try:
        result = fn(*args)
    finally:
        ms = (time.perf_counter() - started) * 1000.0
        probe = Probe.stop()
    return result, ms, probe


def node_cycle(node, bitstream_id):
    """One node's plugs and unplugs: [(kind, ms, probe, result)]."""
    rp = {'uuid': node['uuid']}
    instance = node['instance']
    done = []
    for kind, specs_ in (
            ('plug_program', {'accel:bitstream_id': bitstream_id}),
            ('plug_loaded', {'accel:bitstream_id': bitstream_id}),
            ('plug_gpu', {'resources:PGPU': '1'})):
        result, ms, probe = run_op(os_acc.plug, instance, rp, specs_)
        done.append((kind, ms, probe, result))
        result, ms, probe = run_op(os_acc.unplug, instance)
        done.append(('unplug', ms, probe, result))
    return done


def check_cycle(node, done, errors):
    vfs = set(samples.fpga(FPGA_ADDRESS)['virtual_functions'])
    for kind, _ms, probe, result in done:
        if kind == 'unplug':
            if result != 1:
                errors.append('%s: unplug released %r, not 1'
                              % (node['agent'], result))
            continue
        pci = [r.get('pci_id') for r in result]
        wanted = {GPU_ADDRESS} if kind == 'plug_gpu' else vfs
        if len(pci) != 1 or pci[0] not in wanted:
            errors.append('%s: %s gave %r' % (node['agent'], kind, result))
        programmed = 'program_s' in probe
        if programmed != (kind == 'plug_program'):
            errors.append('%s: %s %s the agent' % (
                node['agent'], kind,
                'called' if programmed else 'did not call'))


def run_round(lab, bitstream_id, concurrency):
    """Every node's cycle, ``concurrency`` nodes at a time; returns
    ({kind: [ms]}, {kind: [probe]}, seconds, errors)."""
    errors = []
    times, probes = {}, {}
    started = time.monotonic()
    if concurrency <= 1:
        results = [(node, node_cycle(node, bitstream_id))
                   for node in lab.nodes]
    else:
        with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
            futures = [(node, pool.submit(node_cycle, node, bitstream_id))
                       for node in lab.nodes]
            results = []
            for node, future in futures:
                try:
                    results.append((node, future.result()))
                except Exception as e:
                    errors.append('%s: %s' % (node['agent'], e))
    elapsed = time.monotonic() - started
    for node, done in results:
        check_cycle(node, done, errors)
        for kind, ms, probe, _result in done:
            times.setdefault(kind, []).append(ms)
            probes.setdefault(kind, []).append(probe)
    return times, probes, elapsed, errors


def verify_round(lab, data, round_number, sample, errors):
    """The simulator holds the image's bytes in every node's region
    (``sample`` nodes, 0: all) and each agent programmed ``round_number``
    times in all; the database holds nothing any more."""
    nodes = lab.nodes if not sample else lab.nodes[::max(
        1, len(lab.nodes) // sample)][:sample]
    compared = 0
    for node in nodes:
        resp = lab.session.get(
            '%s/control/agents/%s/accelerators/%s/0/bitstream'
            % (lab.sim_url, node['agent'], FPGA_ADDRESS),
            timeout=HTTP_TIMEOUT)
        if resp.status_code != 200 or resp.content != data:
            errors.append('%s: the region holds %s, not the image'
                          % (node['agent'], '%d bytes' % len(resp.content)
                             if resp.status_code == 200 else
                             'HTTP %s' % resp.status_code))
        compared += 1
        detail = lab.sim_request('GET', '/control/agents/%s'
                                 % node['agent']).json()
        programs = len(detail.get('records', {}).get('accelerators') or [])
        if programs != round_number:
            errors.append('%s: the agent programmed %d times, not %d'
                          % (node['agent'], programs, round_number))
    db = lab.db
    for node in lab.nodes:
        acc = db.get_node_accelerators(node['id'])
        if acc['attachments'] or any(h['in_use']
                                     for h in acc['attach_handles']):
            errors.append('%s: attachments left after the unplugs'
                          % node['agent'])
        busy = [t['name'] for t in acc['traits'] if t['free'] != t['total']]
        if busy:
            errors.append('%s: traits not free again: %s'
                          % (node['agent'], ', '.join(busy)))
    return compared


def plug_figures(times, probes, elapsed, concurrency, checked_nodes):
    figures = {'concurrency': concurrency, 'seconds': elapsed,
               'verified_nodes': checked_nodes}
    for kind, ms in times.items():
        entry = stats(ms)
        kind_probes = probes[kind]
        entry['statements_p50'] = statistics.median(
            p.get('statements', 0) for p in kind_probes)
        entry['rows_written_p50'] = statistics.median(
            p.get('rows_written', 0) for p in kind_probes)
        if kind == 'plug_program':
            stage = [p.get('stage_s', 0) * 1000 for p in kind_probes]
            program = [p.get('program_s', 0) * 1000 for p in kind_probes]
            rest = [t - s - p for t, s, p in zip(ms, stage, program)]
            entry['stage'] = stats(stage)
            entry['agent_program'] = stats(program)
            entry['rest'] = stats(rest)
        figures[kind] = entry
    return figures


def bench_plug(args, db, workdir, http_url, results, errors):
    index_dir = os.path.join(workdir, 'index')
    records = make_bitstreams(index_dir, args.bitstream_kib * 1024)
    CONF.set_override('image_service', 'index', group='accelerators')
    CONF.set_override('index_url', index_dir, group='accelerators')
    images.reset_service()
    instrument()
    lab = PlugLab(args, db, workdir, http_url)
    lab.start()
    try:
        started = time.monotonic()
        lab.create()
        log('plug: %d nodes and booted agents (FPGA with 2 VFs + GPU each) '
            'ready in %.1f s; bitstreams %d KiB'
            % (len(lab.nodes), time.monotonic() - started,
               args.bitstream_kib))
        rounds = [(1, BITSTREAMS[0][0])]
        if args.concurrency > 1:
            rounds.append((args.concurrency, BITSTREAMS[1][0]))
        results['plug'] = []
        for number, (concurrency, bitstream_id) in enumerate(rounds, 1):
            times, probes, elapsed, round_errors = run_round(
                lab, bitstream_id, concurrency)
            verified = verify_round(lab, records[bitstream_id][1], number,
                                    args.verify_sample, round_errors)
            figures = plug_figures(times, probes, elapsed, concurrency,
                                   verified)
            figures['bitstream'] = bitstream_id
            figures['errors'] = round_errors
            results['plug'].append(figures)
            errors.extend(round_errors)
            log('plug round %d (%s): %.1f s, %d errors'
                % (number, 'sequential' if concurrency <= 1 else
                   '%d threads' % concurrency, elapsed, len(round_errors)))
            for line in round_errors[:10]:
                log('  ERROR %s' % line)
    except BaseException:
        log('agent simulator log: %s' % lab.sim_log)
        raise
    finally:
        lab.stop()


# -- part 2: the inventory diff at scale --------------------------------------

def scale_entries(index, devices):
    """A node's accelerators: even slots FPGAs (4 VFs, two regions of two
    VFs, a function loaded in region 0 on every third node), odd slots
    GPUs (4 VFs on every other one); one PCI bus per device."""
    entries = []
    for slot in range(devices):
        address = '0000:%02x:00.0' % (0x10 + slot * 0x10)
        if slot % 2 == 0:
            entry = samples.fpga(address, vfs=4)
            vfs = entry['virtual_functions']
            entry['regions'] = [
                {'region_type_uuid': samples.REGION_TYPE,
                 'partial_reconfiguration': True,
                 'pci_addresses': vfs[:2],
                 'function': ({'uuid': samples.GZIP, 'name': 'gzip'}
                              if index % 3 == 0 else None)},
                {'region_type_uuid': samples.OTHER_REGION_TYPE,
                 'partial_reconfiguration': True,
                 'pci_addresses': vfs[2:], 'function': None}]
        else:
            entry = samples.gpu(address, vfs=4 if slot % 4 == 1 else 0,
                                product='1eb8' if slot % 4 == 1 else '20b0')
        entries.append(entry)
    return entries


def snapshot(engine):
    """{table: {primary key: row tuple}} of the accelerator tables, and
    the node id column's position in each."""
    meta = sa.MetaData()
    meta.reflect(engine, only=list(TABLES))
    snap = {}
    with engine.connect() as conn:
        for name in TABLES:
            table = meta.tables[name]
            keys = [c.name for c in table.primary_key.columns]
            columns = [c.name for c in table.columns]
            key_at = [columns.index(k) for k in keys]
            node_at = columns.index('node_id')
            updated_at = columns.index('updated_at')
            rows = {}
            for row in conn.execute(sa.select(table)):
                row = tuple(row)
                rows[tuple(row[i] for i in key_at)] = row
            snap[name] = (rows, node_at, updated_at)
    return snap


def compare(before, after):
    """What differs: {table: {'added', 'changed', 'removed',
    'updated_at_changed'}}, and the node ids of the rows that differ."""
    tables, nodes = {}, set()
    for name in TABLES:
        old, node_at, updated_at = before[name]
        new = after[name][0]
        added = [k for k in new if k not in old]
        removed = [k for k in old if k not in new]
        changed = [k for k in new if k in old and new[k] != old[k]]
        stamped = [k for k in changed
                   if new[k][updated_at] != old[k][updated_at]]
        for key in added + changed:
            nodes.add(new[key][node_at])
        for key in removed:
            nodes.add(old[key][node_at])
        tables[name] = {'rows': len(new), 'added': len(added),
                        'changed': len(changed), 'removed': len(removed),
                        'updated_at_changed': len(stamped)}
    return tables, nodes


def touched(tables):
    return sum(t['added'] + t['changed'] + t['removed']
               for t in tables.values())


def apply_one(db, node, entries):
    """What discovery does with an agent's report: parse, then apply."""
    return db.apply_accelerator_inventory(
        node['id'], inventory.parse(entries), node['name'])


def scale_change(db, engine, label, node, entries):
    before = snapshot(engine)
    summary, ms, probe = run_op(apply_one, db, node, entries)
    after = snapshot(engine)
    tables, nodes = compare(before, after)
    others = sorted(n for n in nodes if n != node['id'])
    figure = {'change': label, 'node': node['name'], 'ms': ms,
              'summary': {k: v for k, v in summary.items() if v},
              'statements': probe.get('statements', 0),
              'write_statements': probe.get('writes', 0),
              'rows_written': probe.get('rows_written', 0),
              'rows_touched': touched(tables),
              'tables': {k: v for k, v in tables.items()
                         if v['added'] or v['changed'] or v['removed']},
              'other_nodes_touched': len(others)}
    return figure, others


def fill_nodes(engine, count):
    """Bulk-insert ``count`` nodes (and their boot components, as
    create_node makes them): the point is the inventories, not the
    enrolment. Returns [{'id', 'name', 'index'}]."""
    now = timeutils.utcnow()
    meta = sa.MetaData()
    meta.reflect(engine, only=['nodes', 'boot_components'])
    nodes, components = meta.tables['nodes'], meta.tables['boot_components']
    empty = json.dumps({})
    names = ['inv-%05d' % index for index in range(count)]
    for start in range(0, count, 500):
        rows = [{'uuid': str(uuid.uuid4()), 'name': name,
                 'driver': 'fake-hardware', 'provision_state': 'available',
                 'power_state': 'power off', 'maintenance': False,
                 'conductor_group': '', 'labels': empty,
                 'driver_info': empty, 'driver_internal_info': empty,
                 'instance_info': empty, 'properties': empty,
                 'extra': empty, 'created_at': now}
                for name in names[start:start + 500]]
        with engine.begin() as conn:
            conn.execute(nodes.insert(), rows)
    with engine.begin() as conn:
        ids = dict((name, node_id) for node_id, name in conn.execute(
            sa.select(nodes.c.id, nodes.c.name).where(
                nodes.c.name.like('inv-%'))))
        conn.execute(components.insert(), [
            {'node_id': ids[name], 'phase': '', 'status': 'stable',
             'enabled': False} for name in names])
    return [{'id': ids[name], 'name': name, 'index': index}
            for index, name in enumerate(names)]


def record_all(db, nodes, reports, workers, errors, devices):
    """The first recording of every node: ([ms], [statements])."""
    def record(item):
        node, entries = item
        summary, ms, probe = run_op(apply_one, db, node, entries)
        if len(summary['added']) != devices:
            errors.append('%s: the first recording added %d devices'
                          % (node['name'], len(summary['added'])))
        return ms, probe.get('statements', 0)

    items = list(zip(nodes, reports))
    if workers <= 1:
        done = [record(item) for item in items]
    else:
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            done = list(pool.map(record, items))
    return [d[0] for d in done], [d[1] for d in done]


def bench_scale(args, db, engine, results, errors):
    started = time.monotonic()
    nodes = fill_nodes(engine, args.scale_nodes)
    created = time.monotonic() - started
    reports = [scale_entries(n['index'], args.devices) for n in nodes]
    log('inventory: %d nodes created in %.1f s; recording %d devices each'
        % (len(nodes), created, args.devices))

    started = time.monotonic()
    record_ms, record_statements = record_all(
        db, nodes, reports, args.record_workers, errors, args.devices)
    recorded = time.monotonic() - started
    started = time.monotonic()
    before = snapshot(engine)
    snapshot_s = time.monotonic() - started
    counts = {name: len(before[name][0]) for name in TABLES}
    log('inventory: recorded in %.1f s (%s)' % (recorded, ', '.join(
        '%s %d' % (n.replace('accelerator_', ''), c)
        for n, c in counts.items())))

    reapply_ms, writes, statements, changed_summaries = [], 0, [], 0
    started = time.monotonic()
    for node, entries in zip(nodes, reports):
        summary, ms, probe = run_op(apply_one, db, node, entries)
        reapply_ms.append(ms)
        writes += probe.get('rows_written', 0) + probe.get('writes', 0)
        statements.append(probe.get('statements', 0))
        changed_summaries += int(summary['changed'])
    reapplied = time.monotonic() - started
    after = snapshot(engine)
    tables, touched_nodes = compare(before, after)
    unchanged = {'seconds': reapplied, 'per_node': stats(reapply_ms),
                 'statements_per_node_p50': statistics.median(statements),
                 'write_statements_and_rows': writes,
                 'reported_changed': changed_summaries,
                 'rows_touched': touched(tables),
                 'updated_at_changed': sum(t['updated_at_changed']
                                           for t in tables.values()),
                 'nodes_touched': len(touched_nodes)}
    if writes or unchanged['rows_touched'] or changed_summaries:
        errors.append('re-applying unchanged inventories wrote: %d write '
                      'statements/rows, %d rows differ, %d said changed'
                      % (writes, unchanged['rows_touched'],
                         changed_summaries))
    log('inventory: unchanged re-apply of %d nodes in %.2f s'
        % (len(nodes), reapplied))

    changes = []
    target = nodes[len(nodes) // 2]
    entries = copy.deepcopy(reports[target['index']])
    region = entries[0]['regions'][1]
    region['function'] = {'uuid': samples.AES, 'name': 'aes'}
    changes.append(('function loaded in region 1 of %s'
                    % entries[0]['pci_address'], target, entries))
    target = nodes[(len(nodes) * 3) // 4]
    entries = copy.deepcopy(reports[target['index']])
    gone = entries.pop(1)
    changes.append(('GPU %s vanished' % gone['pci_address'], target,
                    entries))
    results['inventory'] = {
        'nodes': len(nodes), 'devices_per_node': args.devices,
        'rows': counts, 'create_nodes_seconds': created,
        'record': {'seconds': recorded, 'per_node': stats(record_ms),
                   'workers': args.record_workers,
                   'statements_per_node_p50': statistics.median(
                       record_statements)},
        'snapshot_seconds': snapshot_s,
        'unchanged': unchanged, 'changes': []}
    for label, node, entries in changes:
        figure, others = scale_change(db, engine, label, node, entries)
        results['inventory']['changes'].append(figure)
        if others:
            errors.append('%s on %s touched rows of %d other nodes (ids %s)'
                          % (label, node['name'], len(others),
                             ', '.join(map(str, others[:10]))))
        if not figure['rows_touched']:
            errors.append('%s on %s changed nothing' % (label,
                                                        node['name']))


# -- the report --------------------------------------------------------------

def _ms(entry, key='p50'):
    return '%.1f' % entry[key] if entry else '-'


def print_figures(args, results, errors):
    log('')
    log('accelerators benchmark (%s), %s' % (
        results['backend'], time.strftime('%Y-%m-%d %H:%M')))
    labels = (('plug_program', 'plug, programming the FPGA region'),
              ('plug_loaded', 'plug, function already loaded'),
              ('plug_gpu', 'plug, GPU (no programming)'),
              ('unplug', 'unplug'))
    for figures in results.get('plug', []):
        log('')
        log('Plug latency, %d nodes, %s, bitstream %d KiB, program_delay '
            '%.1f s (%d regions verified on the simulator)' % (
                args.nodes, 'sequential' if figures['concurrency'] <= 1
                else '%d threads' % figures['concurrency'],
                args.bitstream_kib, args.program_delay,
                figures['verified_nodes']))
        log('  %-36s %8s %8s %8s %8s %6s %6s' % (
            'operation (ms)', 'p50', 'p95', 'max', 'mean', 'SQL', 'rows'))
        for kind, label in labels:
            entry = figures.get(kind)
            if not entry:
                continue
            log('  %-36s %8s %8s %8s %8s %6d %6d' % (
                label, _ms(entry), _ms(entry, 'p95'), _ms(entry, 'max'),
                _ms(entry, 'mean'), entry['statements_p50'],
                entry['rows_written_p50']))
            if kind == 'plug_program':
                for part, name in (('stage', 'conductor: fetch, check, '
                                             'stage'),
                                   ('agent_program', 'agent: download, '
                                                     'check, load'),
                                   ('rest', 'the rest (DB, index)')):
                    log('    %-34s %8s %8s %8s %8s' % (
                        name, _ms(entry[part]), _ms(entry[part], 'p95'),
                        _ms(entry[part], 'max'), _ms(entry[part], 'mean')))
        log('  round: %.1f s for %d plugs + %d unplugs; errors %d' % (
            figures['seconds'], 3 * args.nodes, 3 * args.nodes,
            len(figures['errors'])))
    inv = results.get('inventory')
    if inv:
        log('')
        log('Inventory diff, %d nodes x %d devices (%s)' % (
            inv['nodes'], inv['devices_per_node'], ', '.join(
                '%s %d' % (n.replace('accelerator_', ''), c)
                for n, c in inv['rows'].items())))
        rec, unch = inv['record'], inv['unchanged']
        log('  %-44s %9s %8s %8s %8s' % ('', 'total s', 'p50 ms', 'p95 ms',
                                         'max ms'))
        log('  %-44s %9.2f %8s %8s %8s' % (
            'first recording (parse + apply, per node)', rec['seconds'],
            _ms(rec['per_node']), _ms(rec['per_node'], 'p95'),
            _ms(rec['per_node'], 'max')))
        log('    statements per node %d; %s; snapshot of the 6 tables '
            '%.2f s' % (rec['statements_per_node_p50'],
                        'one node at a time' if rec['workers'] <= 1 else
                        '%d threads' % rec['workers'],
                        inv['snapshot_seconds']))
        log('  %-44s %9.2f %8s %8s %8s' % (
            'unchanged re-apply of every node', unch['seconds'],
            _ms(unch['per_node']), _ms(unch['per_node'], 'p95'),
            _ms(unch['per_node'], 'max')))
        log('    statements per node %d; writes %d; rows differing %d; '
            'updated_at changed %d; nodes touched %d' % (
                unch['statements_per_node_p50'],
                unch['write_statements_and_rows'], unch['rows_touched'],
                unch['updated_at_changed'], unch['nodes_touched']))
        for change in inv['changes']:
            log('  %s on %s: %.1f ms, %d statements (%d writes, %d rows '
                'written)' % (change['change'], change['node'],
                              change['ms'], change['statements'],
                              change['write_statements'],
                              change['rows_written']))
            log('    rows touched %d: %s; other nodes touched: %d' % (
                change['rows_touched'], ', '.join(
                    '%s +%d ~%d -%d' % (n.replace('accelerator_', ''),
                                        t['added'], t['changed'],
                                        t['removed'])
                    for n, t in change['tables'].items()),
                change['other_nodes_touched']))
    log('')
    log('checks: %s' % ('all passed' if not errors else
                        '%d FAILED' % len(errors)))
    for line in errors[:20]:
        log('  %s' % line)


# -- main --------------------------------------------------------------------

def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--backend', default='mysql',
                        choices=['mysql', 'postgresql', 'sqlite'],
                        help='A fresh database on this server (dropped at '
                             'the end); sqlite: a file in the work '
                             'directory.')
    parser.add_argument('--db-url', default=None,
                        help='Use this (empty) database instead: it is '
                             'upgraded and left as it is at the end.')
    parser.add_argument('--nodes', type=int, default=50,
                        help='Nodes (and simulated agents) of the plug '
                             'benchmark.')
    parser.add_argument('--concurrency', type=int, default=4,
                        help='Threads of the second plug round (1 or 0: '
                             'no second round).')
    parser.add_argument('--bitstream-kib', type=int, default=1024,
                        help='Size of each bitstream, KiB.')
    parser.add_argument('--program-delay', type=float, default=0.0,
                        help='Seconds each simulated program takes on top '
                             'of the download (agent option '
                             'program_delay).')
    parser.add_argument('--verify-sample', type=int, default=0,
                        help='Check the programmed bytes on this many '
                             'nodes per round (0: every node).')
    parser.add_argument('--scale-nodes', type=int, default=1000,
                        help='Nodes of the inventory diff benchmark.')
    parser.add_argument('--devices', type=int, default=8,
                        help='Accelerators per node there (at most 15).')
    parser.add_argument('--record-workers', type=int, default=1,
                        help='Threads recording the first inventories '
                             '(1: one node at a time).')
    parser.add_argument('--skip-plug', action='store_true')
    parser.add_argument('--skip-scale', action='store_true')
    parser.add_argument('--json', metavar='FILE',
                        help='Write the figures to FILE as JSON.')
    parser.add_argument('--keep', action='store_true',
                        help='Keep the work directory (logs, index, '
                             'simulator state).')
    args = parser.parse_args(argv)
    if not 1 <= args.devices <= 15:
        parser.error('--devices must be 1 to 15')
    if args.nodes < 1 or args.scale_nodes < 4:
        parser.error('--nodes must be >= 1 and --scale-nodes >= 4')

    workdir = tempfile.mkdtemp(prefix='ironic-like-bench-acc-')
    http_root = os.path.join(workdir, 'httpboot')
    os.makedirs(http_root)
    database = None
    files = None
    errors = []
    if args.db_url:
        url, backend = args.db_url, args.db_url.split(':', 1)[0]
    elif args.backend == 'sqlite':
        url, backend = 'sqlite:///%s/bench.db' % workdir, 'sqlite'
    else:
        database = ft_base.Database(args.backend)
        url, backend = database.url, args.backend
    results = {'backend': backend, 'date': time.strftime('%Y-%m-%d'),
               'args': vars(args)}
    try:
        CONF([], project='ironic_like')
        CONF.set_override('connection', url, group='database')
        CONF.set_override('host', HOST)
        engine = sa_api.get_engine()
        migration.upgrade('head', engine=engine)
        db = db_api.get_instance()
        db.register_conductor(HOST, '', ['fake-hardware'])
        Probe(engine)
        if not args.skip_plug:
            port = lab_mod.free_port()
            http_url = 'http://127.0.0.1:%d' % port
            files, _log = start_process('boot-file-server', [
                sys.executable, '-m', 'ironic_like.common.boot_file_server',
                '--root', http_root, '--host', '127.0.0.1',
                '--port', str(port)], http_url + '/', workdir)
            CONF.set_override('http_root', http_root, group='deploy')
            CONF.set_override('http_url', http_url, group='deploy')
            bench_plug(args, db, workdir, http_url, results, errors)
        if not args.skip_scale:
            bench_scale(args, db, engine, results, errors)
        results['errors'] = errors
        print_figures(args, results, errors)
        if args.json:
            with open(args.json, 'w') as f:
                json.dump(results, f, indent=1, sort_keys=True, default=str)
            log('Figures written to %s' % args.json)
    finally:
        stop_process(files)
        if database is not None:
            sa_api.get_engine().dispose()
            database.drop()
        if args.keep:
            log('Work directory kept: %s' % workdir)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
