"""The periodic poll of the out-of-band steps that go on outside the
conductor (conductor/flows/polled_steps.py): each conductor polls those
of the nodes it owns, every [conductor]check_polled_steps_interval
seconds, one node at a time per worker, under the node's lock (a node
locked by anything else is polled at the next pass). A step found done
carries its work on (the agent's flows through the runner; work without
the agent as after "unhold"); a step that failed fails the node's work
as a failed step does. Nodes in maintenance are not polled, as Ironic
leaves them.
"""

import copy
import threading

from oslo_log import log

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import clean
from ironic_like.conductor.flows import deploy
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor.flows import polled_steps
from ironic_like.conductor.flows import runner
from ironic_like.conductor.flows import service
from ironic_like.conductor import locks
from ironic_like.conductor import provisioning
from ironic_like.conductor import servicing
from ironic_like.db import api as db_api

LOG = log.getLogger(__name__)

# The state a node waits in for a polled step of each kind of work.
_WAIT_STATE = {'clean': states.CLEANWAIT, 'service': states.SERVICEWAIT,
               'deploy': states.DEPLOYWAIT}
POLLED_STATES = frozenset(_WAIT_STATE.values())
# How last_error names each kind of work (as its failed steps do).
_OPERATION = {keys.kind: keys.operation for keys in (
    clean.STEP_LIST, service.STEP_LIST, deploy.STEP_LIST)}

# Node ids whose poll is queued or running here: a slow BMC is not
# polled twice at once, nor queued again by every pass.
_QUEUED = set()
_QUEUED_LOCK = threading.Lock()


def candidates(db, rows):
    """The ids of the nodes among ownership ``rows`` (takeover.
    owned_node_rows, filtered on POLLED_STATES) that wait for a polled
    step: not in maintenance, not locked, and recorded so. One query
    reads what the waiting nodes recorded (not a read per node: a fleet
    cleaning through its agents waits in the same states)."""
    wanted = {row[0] for row in rows
              if not row[6] and not row[5] and row[7] in POLLED_STATES}
    if not wanted:
        return []
    waiting = db.get_node_list(
        filters={'provision_state': sorted(POLLED_STATES),
                 'maintenance': False},
        columns=['id', 'driver_internal_info'])
    return sorted(node.id for node in waiting
                  if node.id in wanted and
                  polled_steps.record(node) is not None)


def check_nodes(context, rows, executor):
    """One pass: queue a poll of each node of ``rows`` that waits for a
    polled step in ``executor``. Returns the ids queued."""
    queued = []
    for node_id in candidates(db_api.get_instance(), rows):
        with _QUEUED_LOCK:
            if node_id in _QUEUED:
                continue
            _QUEUED.add(node_id)
        try:
            executor.submit(_poll_queued, context, node_id)
        except Exception as e:
            with _QUEUED_LOCK:
                _QUEUED.discard(node_id)
            LOG.warning('Polling the step of node %s was not started (the '
                        'next pass tries again): %s', node_id, e)
            continue
        queued.append(node_id)
    return queued


def _poll_queued(context, node_id):
    try:
        poll_node(context, node_id)
    except Exception:
        LOG.exception('Polling the step of node %s failed', node_id)
    finally:
        with _QUEUED_LOCK:
            _QUEUED.discard(node_id)


def poll_node(context, node_id):
    """Poll node ``node_id``'s step once, under its lock, and act on what
    it says. Returns 'done', 'failed', 'polling' or None (locked, gone,
    no longer waiting for a polled step, or done but no worker free to
    carry its work on)."""
    try:
        with locks.acquire(context, node_id, purpose='polling a step',
                           attempts=1) as task:
            node = task.node
            found = polled_steps.record(node)
            if found is None or node.maintenance or \
                    node.provision_state not in POLLED_STATES:
                return None
            if _WAIT_STATE.get(found.get('kind')) != node.provision_state:
                # Not this wait's step (a record that outlived its work):
                # never polled, so that it cannot carry another work on.
                LOG.warning('Node %s: a %s step recorded as polled while '
                            'the node is in %s; forgotten', node.uuid,
                            found.get('kind'), node.provision_state)
                polled_steps.abandon(task)
                task.update_node({'driver_internal_info':
                                  provisioning.without_leftovers(
                                      node.driver_internal_info)})
                return None
            try:
                done = polled_steps.poll(task)
            except Exception as e:
                _fail(task, found, e)
                return 'failed'
            if not done:
                return 'polling'
            if found.get('without_agent'):
                _carry_on_without_agent(task)
            else:
                runner.after_polled_step(task)
            return 'done'
    except (exception.NodeLocked, exception.NodeNotFound):
        return None
    except exception.TemporaryFailure as e:
        # No worker to carry the work on: the node waits as it was, and
        # the next pass polls it again.
        LOG.info('Node %s: %s; polled again at the next pass', node_id, e)
        return None


def _fail(task, found, error):
    """The step failed: the node's work fails as with a failed step
    (powered off, out of the ramdisk, in its failure state, the step
    named in last_error), and nothing of it is kept."""
    # fail_node drops the record in the write that fails the node.
    node_steps.fail_node(task, '%s failed at %s' % (
        _OPERATION.get(found.get('kind'), 'The work'),
        exception.safe_message(error)))
    if task.lock_lost:
        return
    node_steps.set_info(task, **{provisioning.AFTER_HOLD: None,
                                 servicing.NO_RAMDISK: None})


def _carry_on_without_agent(task):
    """Work without the agent (manual cleaning or servicing without the
    ramdisk, an interface without node flows) whose polled step is done:
    back to its transient state in one write, then its steps after the
    polled one run in a worker, as after "unhold"."""
    node = task.node
    before = copy.deepcopy(node.driver_internal_info or {})
    previous = node.provision_state
    task.update_node({
        'provision_state': states.next_state(previous, 'resume'),
        'driver_internal_info': polled_steps.without_record(before)})
    task.set_spawn_error_hook(_back_to_wait, previous, before)
    task.spawn_after(runner.executor(), provisioning.carry_on_after_hold)


def _back_to_wait(task, error, previous, before):
    # The pool refused the work: the node waits for its step again (its
    # record back: polled again, found done again), and the next pass
    # carries on.
    task.update_node({'provision_state': previous,
                      'driver_internal_info': before})
