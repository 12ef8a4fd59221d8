"""Where node flows keep their progress: taskflow's SQLAlchemy persistence
backend on the service's own database (tables logbooks, flowdetails,
atomdetails), so that another conductor can resume a flow a dead one was
running.

A node runs at most one flow at a time (it holds the node lock). Before
the engine starts, the node records which flow it runs and where its
progress is kept (``driver_internal_info['flow']``: name, logbook and
flow detail uuids). A conductor that takes the node over finds that
record and resumes the flow: atoms that finished are skipped, the one that
was running runs again (tasks are idempotent). When a flow ends, however
it ends, its logbook is destroyed and the record dropped.

The tasks of a flow get the node's NodeTask (the lock, the driver) through
``current_task(node_id)``: the store holds only JSON-able values.
"""

import contextlib
import threading

from oslo_log import log
from oslo_utils import uuidutils
from taskflow import engines
from taskflow.persistence.backends import impl_sqlalchemy
from taskflow.persistence import models as tf_models

from ironic_like.db.sqlalchemy import api as sa_api

LOG = log.getLogger(__name__)

RECORD_KEY = 'flow'
# The store key every node flow receives.
NODE_ID = 'node_id'

_BACKEND = None
_BACKEND_LOCK = threading.Lock()
# node id -> NodeTask of the flow running for it in this process.
_CURRENT = {}
# flow name -> factory building the flow (filled by the flow modules).
_FACTORIES = {}


def register(name, factory):
    """Declare flow ``name``; resume builds it again with ``factory()``.
    Names are a persisted schema: never rename one."""
    _FACTORIES[name] = factory
    return factory


class _Backend(impl_sqlalchemy.SQLAlchemyBackend):
    """taskflow's SQLAlchemy backend, with one connection object.

    The stock get_connection() builds a new MetaData with all of
    taskflow's tables for every storage access (each atom state change):
    with 200 flows running that took most of a conductor's CPU. Its
    connection object holds only the engine and the table definitions
    (every operation takes its own transaction from the engine, and
    close() does nothing), so one can serve every thread.
    """

    def __init__(self, conf, engine=None):
        super().__init__(conf, engine=engine)
        self._shared = None
        self._shared_lock = threading.Lock()

    def get_connection(self):
        if self._shared is None:
            with self._shared_lock:
                if self._shared is None:
                    self._shared = super().get_connection()
        return self._shared


def _make_backend(engine):
    if engine.dialect.name == 'sqlite':
        # taskflow reads then writes in one transaction; on SQLite a
        # deferred one then fails with "database is locked" when another
        # thread wrote meanwhile (and taskflow retries seconds later).
        engine = engine.execution_options(**{sa_api.IMMEDIATE_OPTION: True})
    return _Backend({}, engine=engine)


def backend(engine=None):
    """The persistence backend on our engine (the default: the service's)."""
    global _BACKEND
    if engine is not None:
        return _make_backend(engine)
    with _BACKEND_LOCK:
        if _BACKEND is None:
            # Flows run in the conductor's workers: their pool.
            _BACKEND = _make_backend(sa_api.get_worker_engine())
        return _BACKEND


def reset():
    """Forget the cached backend (tests switch databases)."""
    global _BACKEND
    with _BACKEND_LOCK:
        _BACKEND = None


def upgrade(engine=None):
    """Create or upgrade taskflow's tables (dbsync calls this). On MariaDB
    and PostgreSQL taskflow runs its own alembic migrations, tracked in
    alembic_version: ours use another version table for that reason."""
    with contextlib.closing(backend(engine).get_connection()) as conn:
        conn.upgrade()


def current_task(node_id):
    """The NodeTask of the flow running for ``node_id`` here."""
    try:
        return _CURRENT[node_id]
    except KeyError:
        raise RuntimeError('No flow is running for node %s in this '
                           'process' % node_id)


def recorded(node):
    """The flow record of ``node`` or None."""
    record = (node.driver_internal_info or {}).get(RECORD_KEY)
    return record if isinstance(record, dict) else None


def _set_record(task, record):
    info = dict(task.node.driver_internal_info or {})
    if record is None:
        if RECORD_KEY not in info:
            return
        info.pop(RECORD_KEY)
    else:
        info[RECORD_KEY] = record
    task.update_node({'driver_internal_info': info})


def _destroy_book(book_uuid):
    try:
        with contextlib.closing(backend().get_connection()) as conn:
            conn.destroy_logbook(book_uuid)
    except Exception as e:
        # Not found (already gone) or a database hiccup: only rows of a
        # finished flow are left behind.
        LOG.debug('Logbook %s not destroyed: %s', book_uuid, e)


def _forget(task, record):
    _destroy_book(record['book'])
    try:
        task.node = task.db.get_node_by_id(task.node.id)
        _set_record(task, None)
    except Exception as e:
        # E.g. a flow that ended by deleting the node.
        LOG.debug('Flow record of node %s not dropped: %s',
                  task.node.uuid, e)


def _run_engine(task, engine, record):
    _CURRENT[task.node.id] = task
    try:
        engine.run()
    except Exception:
        # Ended (reverted) by a failure: nothing is left to resume.
        _forget(task, record)
        raise
    else:
        _forget(task, record)
    finally:
        # Anything else (the interpreter going down) keeps the record and
        # the progress: the next owner resumes the flow.
        _CURRENT.pop(task.node.id, None)


def run(task, name, store=None):
    """Run flow ``name`` for ``task.node`` (locked by ``task``) to its end,
    saving its progress. Failures were handled by the flow's own reverts;
    they are logged here, not raised."""
    old = recorded(task.node)
    if old:
        _destroy_book(old.get('book'))
    book = tf_models.LogBook('node-%s' % task.node.uuid)
    detail = tf_models.FlowDetail(name, uuidutils.generate_uuid())
    book.add(detail)
    with contextlib.closing(backend().get_connection()) as conn:
        conn.save_logbook(book)
    record = {'name': name, 'book': book.uuid, 'detail': detail.uuid}
    # Recorded before the first step: a take-over must find it.
    _set_record(task, record)
    values = dict(store or {})
    values[NODE_ID] = task.node.id
    engine = engines.load(_FACTORIES[name](), store=values,
                          flow_detail=detail, book=book, backend=backend(),
                          engine='serial')
    try:
        _run_engine(task, engine, record)
    except Exception as e:
        LOG.warning('Flow %s of node %s failed: %s', name, task.node.uuid,
                    e)
        return False
    return True


def resume(task):
    """Resume the flow recorded on ``task.node`` where it stopped. Returns
    False when there is nothing to resume (no record, the progress is
    gone, or the flow is unknown)."""
    record = recorded(task.node)
    if not record or record.get('name') not in _FACTORIES:
        return False
    try:
        with contextlib.closing(backend().get_connection()) as conn:
            book = conn.get_logbook(record['book'])
    except Exception as e:
        LOG.warning('Progress of flow %s of node %s is gone (%s); it '
                    'cannot be resumed', record.get('name'), task.node.uuid,
                    e)
        _set_record(task, None)
        return False
    detail = book.find(record['detail'])
    if detail is None:
        _set_record(task, None)
        return False
    LOG.info('Resuming flow %s of node %s', record['name'], task.node.uuid)
    # The store again: a conductor that died right after recording the
    # flow may not have saved it yet (and injecting it twice is harmless).
    engine = engines.load(_FACTORIES[record['name']](),
                          store={NODE_ID: task.node.id}, flow_detail=detail,
                          book=book, backend=backend(), engine='serial')
    try:
        _run_engine(task, engine, record)
    except Exception as e:
        LOG.warning('Resumed flow %s of node %s failed: %s', record['name'],
                    task.node.uuid, e)
    return True
