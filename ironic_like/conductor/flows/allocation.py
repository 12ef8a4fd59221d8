"""The allocation flow as a taskflow graph.

    allocation-mark-error-on-revert -> allocation-find-candidates
        -> allocation-reserve-node

One run handles a batch of allocations (one, unless a burst queued more):
taskflow's own cost per run is about that of the database work of one
allocation, so a burst pays it once per batch instead of once each.

Arguments are ids only; the tasks read what they need from the database,
so running the flow again (a restart, a take-over) is safe: an allocation
that is no longer `allocating` is left alone, and the reserve step is a
compare-and-swap that only the allocation's current conductor can win.
An allocation that cannot be served is marked `error` by the task that
found out, with last_error saying why; the revert of the first task marks
the rest of the batch only if a task failed unexpectedly. Atom names are
fixed: they are a persisted schema.

Each reservation picks its best-fit node and takes it in one transaction
(db reserve_best_fit_node: a locking read that skips the rows other
reservations hold), so concurrent allocations, on this conductor or
another, never try a node another one took: no candidate list goes stale
and no reservation transaction fails (issue 14).
"""

import random
import threading
import time

from oslo_db import exception as db_exc
from oslo_log import log
from taskflow.patterns import linear_flow
from taskflow import task

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import engine_loader
from ironic_like.conductor.flows import failures
from ironic_like.db import api as db_api

LOG = log.getLogger(__name__)

# Names of the values passed between tasks.
ALLOCATION_IDS = 'allocation_ids'
CONDUCTOR = 'conductor'
REQUESTS = 'allocation_requests'
# {allocation id: [the id of the node named as the allocation]}, for the
# allocations named after a node (API 1.79): that node is tried first.
CANDIDATES = 'candidates'
NODE_UUIDS = 'node_uuids'

# Atom names: fixed, a persisted schema.
MARK_ERROR_ON_REVERT = 'allocation-mark-error-on-revert'
FIND_CANDIDATES = 'allocation-find-candidates'
RESERVE_NODE = 'allocation-reserve-node'

# How many times the reserve step looks for a node for one allocation,
# and the most it waits between two looks (randomised, so that competing
# allocations spread out), while every matching free node is locked by
# other work.
RESERVE_PASSES = 50
RESERVE_PASS_DELAY = 0.05


def _fail(db, request_or_id, conductor, message):
    allocation_id = (request_or_id['id'] if isinstance(request_or_id, dict)
                     else request_or_id)
    if db.fail_allocation(allocation_id, conductor, message):
        LOG.info('Allocation %s failed: %s', allocation_id, message)


class MarkErrorOnRevert(task.Task):
    """First task: if a later one fails unexpectedly, the allocations of
    the batch still `allocating` end in `error`, with the cause."""

    def __init__(self):
        super().__init__(name=MARK_ERROR_ON_REVERT)

    def execute(self, allocation_ids, conductor):
        return None

    def revert(self, allocation_ids, conductor, *args, **kwargs):
        message = failures.first_failure(kwargs.get('flow_failures'))[1]
        db = db_api.get_instance()
        for allocation_id in allocation_ids:
            try:
                _fail(db, allocation_id, conductor, message)
            except Exception:
                LOG.exception('Could not mark allocation %s as failed',
                              allocation_id)


class FindCandidates(task.Task):
    """The requests of the batch's allocations still `allocating`, and for
    those named after a node, that node: as Ironic (API 1.79), it is tried
    first. The best fit of the others is picked as it is taken
    (ReserveNode), not read ahead."""

    def __init__(self):
        super().__init__(name=FIND_CANDIDATES,
                         provides=(REQUESTS, CANDIDATES))

    def execute(self, allocation_ids, conductor):
        db = db_api.get_instance()
        # The whole batch's reads in one transaction.
        with db.read_together():
            requests = [r for r in db.get_allocation_requests(allocation_ids)
                        if r['state'] == states.ALLOCATING]
            named = db.node_ids_by_name(r.get('name') for r in requests)
        # Store keys are strings: the store must stay JSON.
        candidates = {str(r['id']): [named[r['name']]] for r in requests
                      if r.get('name') in named}
        return requests, candidates


def _reserve(db, request, conductor, named_ids):
    """A node for one allocation: the node named as it if that one is free
    and matches, else the best fit. AllocationFailed if none is left."""
    for node_id in named_ids:
        node_uuid = db.reserve_node_for_allocation(
            request['id'], node_id, conductor, request=request)
        if node_uuid is not None:
            return node_uuid
    for attempt in range(RESERVE_PASSES):
        node_uuid = db.reserve_best_fit_node(request['id'], conductor,
                                             request)
        if node_uuid is not None:
            return node_uuid
        # No matching node is free and unlocked now. One that is only
        # locked (by a conductor's work, or a reservation in flight that
        # may yet roll back) is worth waiting for; with none, say why.
        if not db.allocation_candidates(
                request['resource_class'], request['traits'],
                request['candidate_nodes'], request['owner'], limit=1):
            raise exception.AllocationFailed(
                uuid=request['uuid'], error=db.explain_no_candidates(
                    request['resource_class'], request['traits'],
                    request['candidate_nodes'], request['owner']))
        time.sleep(RESERVE_PASS_DELAY * random.random())
    raise exception.AllocationFailed(
        uuid=request['uuid'],
        error='every matching node was locked by other work (tried %d '
              'times)' % RESERVE_PASSES)


def _same_request(request):
    return (request['resource_class'], tuple(request['traits']),
            tuple(request['candidate_nodes']), request['owner'])


def _reserve_group(db, group, conductor):
    """{allocation id (text): node uuid} of the allocations of ``group``
    (asking alike) that got their best-fit nodes together, in one
    transaction (db reserve_best_fit_nodes). Grouping only saves work:
    on any database error the group is left to be reserved one by one,
    where each allocation gets its own answer."""
    try:
        taken = db.reserve_best_fit_nodes(group, conductor)
    except db_exc.DBError as e:
        LOG.warning('Allocations %s could not be reserved together (%s); '
                    'reserving them one by one',
                    ', '.join(r['uuid'] for r in group),
                    exception.safe_message(e))
        return {}
    return {str(allocation_id): node_uuid
            for allocation_id, node_uuid in taken.items()}


def _in_turn(requests, candidates):
    """The batch's requests in the order they are reserved, each with the
    group of alike requests to reserve together at its turn (or None).

    Allocations named after a node go first, so that their node is theirs
    before any best fit can take it (API 1.79); then the others in the
    batch's order, a group of two or more asking alike (and naming no
    node) reserved together when its first member's turn comes."""
    named = [r for r in requests if candidates.get(str(r['id']))]
    others = [r for r in requests if not candidates.get(str(r['id']))]
    alike = {}
    for request in others:
        alike.setdefault(_same_request(request), []).append(request)
    for request in named:
        yield request, None
    for request in others:
        group = alike[_same_request(request)]
        first = len(group) > 1 and group[0] is request
        yield request, group if first else None


class ReserveNode(task.Task):
    """Reserve a node for each allocation of the batch, in the order of
    _in_turn: those asking alike together, the others each in one
    transaction; provides {allocation id: node uuid}."""

    def __init__(self):
        super().__init__(name=RESERVE_NODE,
                         provides=NODE_UUIDS)

    def execute(self, conductor, allocation_requests, candidates):
        db = db_api.get_instance()
        reserved = {}
        for request, group in _in_turn(allocation_requests, candidates):
            if group:
                reserved.update(_reserve_group(db, group, conductor))
            key = str(request['id'])
            node_uuid = reserved.get(key)
            if node_uuid is None:
                try:
                    node_uuid = _reserve(db, request, conductor,
                                         candidates.get(key, []))
                except exception.AllocationFailed as e:
                    _fail(db, request, conductor, exception.safe_message(e))
                    continue
                except (exception.AllocationTakenOver,
                        exception.AllocationNotFound) as e:
                    # Taken over or deleted meanwhile: not ours to finish.
                    LOG.info('Allocation %s: %s', request['uuid'],
                             exception.safe_message(e))
                    continue
                reserved[key] = node_uuid
            LOG.info('Allocation %s got node %s', request['uuid'],
                     node_uuid)
        return reserved


def get_flow():
    flow = linear_flow.Flow('allocation')
    flow.add(MarkErrorOnRevert(), FindCandidates(), ReserveNode())
    return flow


# Building the flow's task objects costs about as much as running them,
# and they hold no state of a run, so each worker thread keeps one flow.
_LOCAL = threading.local()


def _thread_flow():
    flow = getattr(_LOCAL, 'flow', None)
    if flow is None:
        flow = _LOCAL.flow = get_flow()
    return flow


def run(allocation_ids, conductor):
    """Run the flow over a batch to its end; errors are recorded on the
    allocations, never raised."""
    try:
        engine_loader.run(_thread_flow(),
                          store={ALLOCATION_IDS: list(allocation_ids),
                                 CONDUCTOR: conductor})
    except Exception:
        LOG.exception('Allocations %s: unexpected failure', allocation_ids)
