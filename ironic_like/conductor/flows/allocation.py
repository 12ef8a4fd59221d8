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
"""

import random
import threading
import time

from oslo_log import log
from taskflow import engines
from taskflow.patterns import linear_flow
from taskflow import task

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import failures
from ironic_like.db import api as db_api

LOG = log.getLogger(__name__)

# Names of the values passed between tasks.
ALLOCATION_IDS = 'allocation_ids'
CONDUCTOR = 'conductor'
REQUESTS = 'allocation_requests'
CANDIDATES = 'candidates'
NODE_UUIDS = 'node_uuids'

# Atom names: fixed, a persisted schema.
MARK_ERROR_ON_REVERT = 'allocation-mark-error-on-revert'
FIND_CANDIDATES = 'allocation-find-candidates'
RESERVE_NODE = 'allocation-reserve-node'


# Nodes fetched per try: enough to get past the nodes concurrent
# allocations are taking, few enough that the query costs the same at any
# fleet size.
CANDIDATE_BATCH = 16
# How many batches of candidates the reserve step tries for one
# allocation, and the most it waits between two (randomised, so that
# competing allocations spread out) when all it tried were locked.
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


def _candidates(db, request):
    # Best fit first (the database orders them; within the best, from a
    # random point), and, as Ironic (API 1.79), the node named as the
    # allocation before all when it matches and is free: tried in this
    # order.
    return db.allocation_candidates(
        request['resource_class'], request['traits'],
        request['candidate_nodes'], request['owner'], limit=CANDIDATE_BATCH,
        name=request.get('name') or None)


class FindCandidates(task.Task):
    """The requests of the batch's allocations still `allocating` and a
    first batch of free matching nodes for each; those with none fail
    here, with the reason."""

    def __init__(self):
        super().__init__(name=FIND_CANDIDATES,
                         provides=(REQUESTS, CANDIDATES))

    def execute(self, allocation_ids, conductor):
        db = db_api.get_instance()
        pending = []
        candidates = {}
        hopeless = []
        # The whole batch's reads in one transaction; the failures are
        # written after it.
        with db.read_together():
            for request in db.get_allocation_requests(allocation_ids):
                if request['state'] != states.ALLOCATING:
                    continue
                ids = _candidates(db, request)
                if not ids:
                    hopeless.append((request, db.explain_no_candidates(
                        request['resource_class'], request['traits'],
                        request['candidate_nodes'], request['owner'])))
                    continue
                pending.append(request)
                # Store keys are strings: the store must stay JSON.
                candidates[str(request['id'])] = ids
        for request, reason in hopeless:
            _fail(db, request, conductor, reason)
        return pending, candidates


def _reserve(db, request, conductor, candidate_ids):
    """A node for one allocation; AllocationFailed if none is left."""
    for attempt in range(RESERVE_PASSES):
        for node_id in candidate_ids:
            node_uuid = db.reserve_node_for_allocation(
                request['id'], node_id, conductor, request=request)
            if node_uuid is not None:
                return node_uuid
        # Every node tried was won by another allocation or is locked by
        # other work: look again.
        candidate_ids = _candidates(db, request)
        if not candidate_ids:
            raise exception.AllocationFailed(
                uuid=request['uuid'],
                error='every matching node was taken by other allocations '
                      'meanwhile')
        time.sleep(RESERVE_PASS_DELAY * random.random())
    raise exception.AllocationFailed(
        uuid=request['uuid'],
        error='every matching node was locked by other work (tried %d '
              'times)' % RESERVE_PASSES)


class ReserveNode(task.Task):
    """Reserve a node for each allocation of the batch, each in one
    transaction; provides {allocation id: node uuid}."""

    def __init__(self):
        super().__init__(name=RESERVE_NODE,
                         provides=NODE_UUIDS)

    def execute(self, conductor, allocation_requests, candidates):
        db = db_api.get_instance()
        reserved = {}
        for request in allocation_requests:
            try:
                node_uuid = _reserve(db, request, conductor,
                                     candidates[str(request['id'])])
            except exception.AllocationFailed as e:
                _fail(db, request, conductor, exception.safe_message(e))
                continue
            except (exception.AllocationTakenOver,
                    exception.AllocationNotFound) as e:
                # Taken over or deleted meanwhile: not ours to finish.
                LOG.info('Allocation %s: %s', request['uuid'],
                         exception.safe_message(e))
                continue
            LOG.info('Allocation %s got node %s', request['uuid'],
                     node_uuid)
            reserved[str(request['id'])] = node_uuid
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
        engines.run(_thread_flow(), engine='serial',
                    store={ALLOCATION_IDS: list(allocation_ids),
                           CONDUCTOR: conductor})
    except Exception:
        LOG.exception('Allocations %s: unexpected failure', allocation_ids)
