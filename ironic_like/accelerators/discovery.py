"""Take a node's accelerator inventory from its agent and record it.

The agent answers IPA's ``poll.get_hardware_info`` with its inventory;
its ``accelerators`` list (doc/accelerators.md) is parsed and diffed
against the node's records by the database layer, which writes only what
changed (nothing at all for an unchanged inventory). The discovery state
(discovering, done, failed) is what os_acc.initialize() waits on.
"""

from oslo_log import log

from ironic_like.common.accelerators import inventory as acc_inventory
from ironic_like.common import exception
from ironic_like.db import api as db_api
from ironic_like.db.sqlalchemy import accelerators as acc_db
from ironic_like.drivers.modules import agent_client

LOG = log.getLogger(__name__)

GET_HARDWARE_INFO = 'poll.get_hardware_info'


def record(node, inventory):
    """Parse ``inventory`` (the agent's, a dict) and apply it to the
    node's records; returns the summary of
    db.apply_accelerator_inventory.

    :raises: InvalidParameterValue (the inventory is refused whole; the
        records stay as they were and discovery is marked failed).
    """
    db = db_api.get_instance()
    try:
        specs = acc_inventory.parse((inventory or {}).get('accelerators')
                                    or [])
    except exception.InvalidParameterValue as e:
        db.set_accelerator_discovery(node.id, acc_db.DISCOVERY_FAILED,
                                     error=exception.safe_message(e))
        raise
    summary = db.apply_accelerator_inventory(node.id, specs,
                                             node.name or node.uuid)
    if summary['changed']:
        LOG.info('Node %s accelerators: added %s, updated %s, removed %s, '
                 'missing %s', node.uuid, summary['added'] or '-',
                 summary['updated'] or '-', summary['removed'] or '-',
                 summary['missing'] or '-')
    return summary


def discover(node):
    """Ask the node's agent for its inventory and record it.

    :raises: AgentUnavailable when the agent cannot be reached or fails
        the command; InvalidParameterValue for a malformed inventory.
    """
    db = db_api.get_instance()
    db.set_accelerator_discovery(node.id, acc_db.DISCOVERING)
    try:
        inventory = agent_client.run_command(node, GET_HARDWARE_INFO)
    except (exception.AgentConnectionFailed,
            exception.AgentCommandFailed) as e:
        reason = exception.safe_message(e)
        db.set_accelerator_discovery(node.id, acc_db.DISCOVERY_FAILED,
                                     error='agent unavailable: %s' % reason)
        raise exception.AgentUnavailable(node=node.uuid, reason=reason)
    return record(node, inventory if isinstance(inventory, dict) else {})
