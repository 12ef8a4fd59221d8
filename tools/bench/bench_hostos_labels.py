#!/usr/bin/env python3
"""Benchmark: one label change on one node among 10,000, with host OS
configurations selecting by labels.

It fills a fresh database (MariaDB by default, PostgreSQL with
``--backend postgresql``, or SQLite with ``--backend sqlite``) with
``--nodes`` nodes (bulk inserts: the point is the label change, not the
enrolment), every node labelled ``rack=r<i % 100>`` and
``role=web|db|cache``, one module version and ``--configurations``
configurations selecting by role and rack. It derives their items, then
times ``--repeats`` label changes through the conductor's node update
path (``ironic_like.conductor.nodes.update_node``: the node lock, the
UPDATE of the node and its label index, the derivation for that node,
the lock release), in process, alternating the node's role between
``web`` and ``db`` so that each change moves items.

For each change it counts the rows written (INSERT, UPDATE, DELETE row
counts of every statement) and checks which nodes they belonged to: the
target is under 50 ms of server time with no other node touched.
Figures are printed, never asserted.

Usage (repository root, the project's virtualenv; MariaDB/PostgreSQL as
for the functional tests)::

    .venv/bin/python tools/bench/bench_hostos_labels.py
    .venv/bin/python tools/bench/bench_hostos_labels.py --backend sqlite
    .venv/bin/python tools/bench/bench_hostos_labels.py --nodes 1000
"""

import argparse
import os
import random
import re
import statistics
import sys
import tempfile
import time
import uuid

from oslo_utils import timeutils
import sqlalchemy as sa

sys.path.insert(0, os.path.abspath(os.path.join(
    os.path.dirname(__file__), '..', '..')))

from ironic_like.common import context  # noqa: E402
from ironic_like.conductor import nodes as conductor_nodes  # noqa: E402
from ironic_like.conf import CONF  # noqa: E402
from ironic_like.db import api as db_api  # noqa: E402
from ironic_like.db import migration  # noqa: E402
from ironic_like.db.sqlalchemy import api as sa_api  # noqa: E402
from ironic_like.tests.functional import base as ft_base  # noqa: E402

ROLES = ('web', 'db', 'cache')
HOST = 'bench-conductor'


def percentile(samples, pct):
    ordered = sorted(samples)
    rank = max(1, int(-(-pct * len(ordered) // 100)))
    return ordered[min(rank, len(ordered)) - 1]


def fill(engine, count):
    """Bulk-insert ``count`` labelled nodes (and what every node has: a
    boot component and its label index rows)."""
    now = timeutils.utcnow()
    meta = sa.MetaData()
    meta.reflect(engine, only=['nodes', 'node_labels', 'boot_components'])
    nodes, labels, components = (meta.tables[n] for n in (
        'nodes', 'node_labels', 'boot_components'))
    batch = 1000
    for start in range(0, count, batch):
        rows, label_rows, component_rows = [], [], []
        for i in range(start, min(count, start + batch)):
            node_labels = {'rack': 'r%d' % (i % 100),
                           'role': ROLES[i % len(ROLES)]}
            rows.append({
                'id': i + 1, 'uuid': str(uuid.uuid4()),
                'name': 'node-%05d' % i, 'driver': 'fake-hardware',
                'provision_state': 'active', 'power_state': 'power on',
                'maintenance': False, 'conductor_group': '',
                'labels': node_labels, 'driver_info': {},
                'driver_internal_info': {}, 'instance_info': {},
                'properties': {}, 'extra': {}, 'created_at': now})
            label_rows += [{'node_id': i + 1, 'key': k, 'value': v,
                            'created_at': now}
                           for k, v in node_labels.items()]
            component_rows.append({'node_id': i + 1, 'phase': '',
                                   'status': 'stable', 'enabled': False})
        with engine.begin() as conn:
            conn.execute(nodes.insert(), [_json(r) for r in rows])
            conn.execute(labels.insert(), label_rows)
            conn.execute(components.insert(), component_rows)


def _json(row):
    import json
    return {k: json.dumps(v) if isinstance(v, dict) else v
            for k, v in row.items()}


class WriteCounter(object):
    """Rows written per statement, and the node ids in the parameters of
    writes to node-keyed tables."""

    _WRITE = re.compile(r'^\s*(INSERT|UPDATE|DELETE)\b', re.I)

    def __init__(self, engine):
        self.rows = 0
        self.statements = 0
        sa.event.listen(engine, 'after_cursor_execute', self._after)

    def reset(self):
        self.rows = 0
        self.statements = 0

    def _after(self, conn, cursor, statement, params, context, many):
        if self._WRITE.match(statement):
            self.statements += 1
            self.rows += max(cursor.rowcount, 0)


def configurations(db, count, module):
    made = []
    for i in range(count):
        role = ROLES[i % len(ROLES)]
        selector = {'match_labels': {'role': role}}
        if i >= len(ROLES):
            selector['match_expressions'] = [
                {'key': 'rack', 'operator': 'In',
                 'values': ['r%d' % (i % 100), 'r%d' % ((i + 1) % 100)]}]
        configuration = db.create_hostos_configuration({
            'name': 'conf-%02d' % i, 'machine_selector': selector,
            'configs': [{'module': module.name,
                         'module_version': module.version,
                         'values': {'n': i}}],
            'secret_values': [None]})
        made.append(configuration)
    return made


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--backend', default='mysql',
                        choices=['mysql', 'postgresql', 'sqlite'])
    parser.add_argument('--nodes', type=int, default=10000)
    parser.add_argument('--configurations', type=int, default=10)
    parser.add_argument('--repeats', type=int, default=50)
    args = parser.parse_args(argv)

    database = None
    tmp = None
    if args.backend == 'sqlite':
        tmp = tempfile.mkdtemp(prefix='bench-hostos-')
        url = 'sqlite:///%s/bench.db' % tmp
    else:
        database = ft_base.Database(args.backend)
        url = database.url
    try:
        CONF([], project='ironic_like')
        CONF.set_override('connection', url, group='database')
        CONF.set_override('host', HOST)
        engine = sa_api.get_engine()
        migration.upgrade('head', engine=engine)
        db = db_api.get_instance()
        db.register_conductor(HOST, '', ['fake-hardware'])
        started = time.monotonic()
        fill(engine, args.nodes)
        filled = time.monotonic() - started
        module = db.create_hostos_module({
            'name': 'motd', 'version': '1.0.0',
            'url': 'http://127.0.0.1/motd-1.0.0.tgz', 'sha256sum': 'a' * 64,
            'state': 'available', 'playbook': 'main.yaml'})
        made = configurations(db, args.configurations, module)
        started = time.monotonic()
        for configuration in made:
            db.sync_hostos_items([configuration.id])
        derived = time.monotonic() - started
        with engine.connect() as conn:
            items = conn.execute(sa.text(
                'SELECT COUNT(*) FROM hostos_items')).scalar()
        print('%d nodes filled in %.1f s; %d configurations derived %d '
              'items in %.1f s' % (args.nodes, filled, len(made), items,
                                   derived))

        counter = WriteCounter(engine)
        ctx = context.get_admin_context()
        rng = random.Random(7)
        samples, rows, statements, others = [], [], [], 0
        for _ in range(args.repeats):
            node_id = rng.randrange(1, args.nodes + 1)
            node = db.get_node_by_id(node_id)
            labels = dict(node.labels)
            labels['role'] = 'db' if labels['role'] == 'web' else 'web'
            with engine.connect() as conn:
                before = conn.execute(sa.text(
                    'SELECT node_id, MAX(updated_at), COUNT(*) FROM '
                    'hostos_items WHERE node_id != :n GROUP BY node_id'),
                    {'n': node_id}).all()
            counter.reset()
            t0 = time.perf_counter()
            conductor_nodes.update_node(ctx, node_id, {'labels': labels})
            samples.append((time.perf_counter() - t0) * 1000)
            rows.append(counter.rows)
            statements.append(counter.statements)
            with engine.connect() as conn:
                after = conn.execute(sa.text(
                    'SELECT node_id, MAX(updated_at), COUNT(*) FROM '
                    'hostos_items WHERE node_id != :n GROUP BY node_id'),
                    {'n': node_id}).all()
            others += int(sorted(before) != sorted(after))
        print('label change on one node among %d (%s), %d repeats:'
              % (args.nodes, args.backend, args.repeats))
        print('  server time ms: median %.1f  p99 %.1f  min %.1f  max %.1f'
              % (statistics.median(samples), percentile(samples, 99),
                 min(samples), max(samples)))
        print('  rows written per change: median %d  max %d (statements: '
              'median %d)' % (statistics.median(rows), max(rows),
                              statistics.median(statements)))
        print('  changes that touched another node\'s items: %d' % others)
    finally:
        if database is not None:
            sa_api.get_engine().dispose()
            database.drop()
    return 0


if __name__ == '__main__':
    sys.exit(main())
