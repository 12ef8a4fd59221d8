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

The tasks of a flow get the node's NodeTask (the lock, the driver) from
the flow's store under ``NODE_TASK``, injected as a transient value: what
is saved holds only JSON-able values.
"""

import contextlib

from oslo_log import log
from oslo_utils import uuidutils
from taskflow.persistence import models as tf_models

from ironic_like.conductor.flows import engine_loader
from ironic_like.db.sqlalchemy import flow_backend

LOG = log.getLogger(__name__)

RECORD_KEY = 'flow'
# The store keys every node flow receives: the node's id (saved with the
# flow's progress) and the NodeTask holding its lock (kept in memory only:
# a live object, handed again to a flow that is resumed).
NODE_ID = 'node_id'
NODE_TASK = 'node_task'

# flow name -> factory building the flow (filled by the flow modules).
_FACTORIES = {}


def register(name, factory):
    """Declare flow ``name``; resume builds it again with ``factory()``.
    Names are a persisted schema: never rename one."""
    _FACTORIES[name] = factory
    return factory


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


def _connection():
    return contextlib.closing(flow_backend.backend().get_connection())


def _destroy_book(book_uuid):
    try:
        with _connection() as conn:
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


def _load_engine(task, name, detail, book):
    # The node's id goes into the saved store on every run: a conductor
    # that died right after recording the flow may not have saved it yet
    # (and injecting it twice is harmless).
    engine = engine_loader.load(_FACTORIES[name](),
                                store={NODE_ID: task.node.id},
                                flow_detail=detail, book=book,
                                backend=flow_backend.backend())
    engine.storage.inject({NODE_TASK: task}, transient=True)
    return engine


def _run_engine(task, engine, record):
    try:
        engine.run()
    except Exception:
        if task.lock_lost:
            # Taken over while running: the record and the progress are
            # the new owner's to resume from, not ours to destroy.
            raise
        # Ended (reverted) by a failure: nothing is left to resume.
        _forget(task, record)
        raise
    # Anything else (the interpreter going down) keeps the record and the
    # progress: the next owner resumes the flow.
    _forget(task, record)


def run(task, name):
    """Run flow ``name`` for ``task.node`` (locked by ``task``) to its end,
    saving its progress. Failures were handled by the flow's own reverts;
    they are logged here, not raised."""
    old = recorded(task.node)
    if old:
        _destroy_book(old.get('book'))
    book = tf_models.LogBook('node-%s' % task.node.uuid)
    detail = tf_models.FlowDetail(name, uuidutils.generate_uuid())
    book.add(detail)
    with _connection() as conn:
        conn.save_logbook(book)
    record = {'name': name, 'book': book.uuid, 'detail': detail.uuid}
    # Recorded before the first step: a take-over must find it.
    _set_record(task, record)
    try:
        engine = _load_engine(task, name, detail, book)
    except Exception as e:
        LOG.warning('Flow %s of node %s could not start: %s', name,
                    task.node.uuid, e)
        _forget(task, record)
        return False
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
        with _connection() as conn:
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
    try:
        engine = _load_engine(task, record['name'], detail, book)
    except Exception as e:
        # Progress saved by a conductor killed in the middle of saving it
        # can be unusable (seen: an atom without its details). Resuming
        # would fail the same way at every try and leave the node in its
        # transient state for good: the caller carries on from the node's
        # restart point instead (runner.resume_chain).
        LOG.warning('Progress of flow %s of node %s cannot be loaded (%s); '
                    'it cannot be resumed', record['name'], task.node.uuid,
                    e)
        _forget(task, record)
        return False
    LOG.info('Resuming flow %s of node %s', record['name'], task.node.uuid)
    try:
        _run_engine(task, engine, record)
    except Exception as e:
        LOG.warning('Resumed flow %s of node %s failed: %s', record['name'],
                    task.node.uuid, e)
    return True
