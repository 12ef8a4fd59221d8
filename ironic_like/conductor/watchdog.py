"""Nodes that say work is under way while nobody works on them.

Work in a transient provision state (verifying, deploying, cleaning, ...)
and a power change (target_power_state set) always run under the node's
lock, held until the node reaches a stable or wait state. So a node of
ours in such a state without a lock has lost its worker: its conductor was
killed between the state change and the end of the work and a take-over
found the node locked at that instant, or its worker thread was refused.
Take-over alone would leave it there for good.

The watchdog runs on each conductor over the nodes the ring gives it: it
locks such a node (one attempt: a node locked meanwhile has a worker
again, and the next round looks again), checks again under the lock, and
carries the work on (resumable node flows) or ends it with a last_error
that says what was interrupted.
"""

from oslo_log import log

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import locks
from ironic_like.conductor import power
from ironic_like.conductor import provisioning
from ironic_like.conductor import takeover

LOG = log.getLogger(__name__)


def _orphans(ring, host, db):
    """Ids of our unlocked nodes in a transient state or with a pending
    power change."""
    transient = takeover.owned_node_rows(
        ring, host, db, provision_states=states.TRANSIENT_STATES,
        extra_filters={'reserved': False})
    powering = takeover.owned_node_rows(
        ring, host, db,
        extra_filters={'reserved': False, 'power_change_pending': True})
    return sorted({row[0] for row in transient + powering})


def _power_change_interrupted(task):
    target = task.node.target_power_state
    message = ('Power change to "%s" was interrupted: the conductor '
               'working on it stopped. The power state is read again.'
               % target)
    LOG.warning('Node %s: %s', task.node.uuid, message)
    task.update_node({'target_power_state': None, 'last_error': message})


def check_node(context, node_id):
    """Carry on with or end the orphaned work of one node. Returns True
    when something was done."""
    with locks.acquire(context, node_id, attempts=1,
                       purpose='watchdog') as task:
        node = task.node
        acted = False
        if node.target_power_state is not None:
            _power_change_interrupted(task)
            acted = True
        if node.provision_state in states.TRANSIENT_STATES:
            acted = provisioning.fail_interrupted(task) or acted
    if acted and task.node.target_power_state is None:
        power.sync_node_power_state(context, node_id)
    return acted


def check_nodes(context, ring, host, db):
    """One round over our nodes. Returns the ids acted on."""
    acted = []
    for node_id in _orphans(ring, host, db):
        try:
            if check_node(context, node_id):
                acted.append(node_id)
        except (exception.NodeLocked, exception.NodeNotFound):
            # Work started again, or the node went: nothing to do.
            continue
        except Exception:
            LOG.exception('Watchdog check of node %s failed', node_id)
    return acted
