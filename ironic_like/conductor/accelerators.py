"""Accelerators on the conductor: the attachment reconciler, the periodic
re-inventory of nodes whose agent is up, and on-demand discovery.

The reconciler is what Cyborg lacks (its bind jobs are threads; a
conductor restart leaves ARQs half bound and handles held by nobody).
Each conductor looks at the attachments of the nodes it owns on the hash
ring:

- in progress (pending, programming) past its deadline or
  whose conductor is dead: rolled back (handle freed, row ``failed``);
- ``programmed`` past its deadline or of a dead conductor, while the node
  still carries the instance: finished (``attached``), the program having
  succeeded; otherwise rolled back;
- ``attached`` to an instance the node no longer has: released.
"""

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.accelerators import discovery
from ironic_like.common import agent_info
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import takeover
from ironic_like.conf import CONF
from ironic_like.db import api as db_api
from ironic_like.db.sqlalchemy import accelerators as acc_db

LOG = log.getLogger(__name__)

# Where a node still carries the instance a programmed attachment is for.
_INSTANCE_STATES = frozenset([states.DEPLOYING, states.DEPLOYWAIT,
                              states.ACTIVE])


def _owns(ring, host, node):
    try:
        return ring.get_owner(node.uuid, node.driver,
                              node.conductor_group or '') == host
    except exception.NoValidHost:
        return False


def _has_instance(node, attachment):
    return (node.provision_state in _INSTANCE_STATES
            and (node.instance_uuid or node.uuid)
            == attachment['instance_uuid'])


def reconcile(db, ring, host):
    """One pass; returns counts {'finished', 'rolled_back', 'released'}."""
    counts = {'finished': 0, 'rolled_back': 0, 'released': 0}
    dead = takeover.dead_conductors(db)
    for att in db.list_stale_accelerator_attachments(timeutils.utcnow(),
                                                     dead):
        try:
            node = db.get_node_by_id(att['node_id'])
        except exception.NodeNotFound:
            continue
        if not _owns(ring, host, node):
            continue
        why = ('conductor %s is dead' % att['conductor']
               if att['conductor'] in dead else 'past its deadline')
        if att['state'] == acc_db.ATTACHED:
            if db.release_accelerator_attachment(att['id']):
                counts['released'] += 1
            LOG.info('Node %s: accelerator of instance %s released (the '
                     'node no longer has it)', node.uuid,
                     att['instance_uuid'])
        elif att['state'] == acc_db.PROGRAMMED and _has_instance(node, att) \
                and db.update_accelerator_attachment(
                    att['id'], (acc_db.PROGRAMMED,), state=acc_db.ATTACHED,
                    deadline=None):
            counts['finished'] += 1
            LOG.info('Node %s: attachment %s finished by the reconciler '
                     '(%s)', node.uuid, att['uuid'], why)
        else:
            db.release_accelerator_attachment(
                att['id'], state=acc_db.FAILED,
                error='rolled back by the reconciler on %s: %s (was %s)'
                      % (host, why, att['state']))
            counts['rolled_back'] += 1
            LOG.warning('Node %s: attachment %s of instance %s rolled back '
                        '(%s, was %s)', node.uuid, att['uuid'],
                        att['instance_uuid'], why, att['state'])
    return counts


def reinventory(db, ring, host):
    """Take the inventory again of the owned nodes waiting on their agent
    (and not locked) whose last one is older than
    [accelerators]inventory_interval. Returns how many were taken."""
    interval = CONF.accelerators.inventory_interval
    if not interval:
        return 0
    taken = 0
    now = timeutils.utcnow()
    for row in takeover.owned_node_rows(ring, host, db,
                                        provision_states=states.WAIT_STATES):
        node = db.get_node_by_id(row[0])
        if node.reservation or not (node.driver_internal_info or {}).get(
                agent_info.AGENT_URL):
            continue
        last = db.get_accelerator_discovery(node.id)
        if last and last['reported_at'] and \
                (now - last['reported_at']).total_seconds() < interval:
            continue
        try:
            discovery.discover(node)
            taken += 1
        except exception.IronicLikeException as e:
            LOG.warning('Node %s: periodic accelerator inventory failed: '
                        '%s', node.uuid, exception.safe_message(e))
    return taken


def discover(context, node_id):
    """On demand (the API): take the node's inventory now.

    :raises: InvalidState (409) when no agent of the node is up;
        AgentUnavailable when it cannot be reached.
    """
    node = db_api.get_instance().get_node_by_id(node_id)
    if not (node.driver_internal_info or {}).get(agent_info.AGENT_URL):
        raise exception.InvalidState(
            'Node %s has no agent up (accelerators are discovered by the '
            'deploy agent, in deploy, cleaning or while it waits).'
            % node.uuid)
    return discovery.discover(node)
