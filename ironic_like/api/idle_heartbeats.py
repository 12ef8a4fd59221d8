"""Agent heartbeats the API records itself.

A heartbeat of a node that is unlocked and either in maintenance or in no
wait state has nothing for a conductor to do: the conductor would take
the lock, record where the agent listens and when it was heard, and let
go (common/agent_info.heartbeat_is_idle). The API does the same with no
lock and no RPC: it checks the agent token on the row it read to route
the heartbeat, and writes with one conditional UPDATE that only matches
if nothing changed since that read (db node_heartbeats). When anything
did, or the heartbeat needs more (a certificate not stored yet, a deploy
interface with a heartbeat handler of its own), the heartbeat goes to the
conductor as before.
"""

from oslo_log import log
from oslo_serialization import jsonutils

from ironic_like.common import agent_certificates
from ironic_like.common import agent_info
from ironic_like.common import agent_token as agent_tokens
from ironic_like.common import exception
from ironic_like.drivers import base as drivers_base
from ironic_like.drivers import loader

LOG = log.getLogger(__name__)


def _handled_by_api(row):
    if row.reservation is not None:
        # A conductor works on the node: it replays the heartbeat when it
        # lets go (conductor/agent_heartbeat.py).
        return False
    if not agent_info.heartbeat_is_idle(row.provision_state,
                                        row.maintenance):
        return False
    try:
        deploy = loader.node_interface(row, 'deploy')
    except exception.IronicLikeException:
        # A driver this API does not load: the conductor decides.
        return False
    return not drivers_base.has_heartbeat_handler(deploy)


def record(db, row, callback_url, agent_version=None, agent_token=None,
           agent_status=None, agent_status_message=None,
           agent_verify_ca=None):
    """Record the heartbeat of node ``row`` (a db HeartbeatRow) here if it
    has nothing for a conductor to do. Returns True when recorded, False
    when the conductor must have it (nothing written).

    :raises: AgentTokenInvalid (nothing written).
    """
    if not _handled_by_api(row):
        return False
    info = jsonutils.loads(row.info_text) if row.info_text else {}
    if not agent_tokens.is_valid(info, agent_token):
        raise exception.AgentTokenInvalid(node=row.uuid)
    if agent_verify_ca and not agent_certificates.is_stored(
            info, agent_verify_ca):
        # Storing a new certificate writes a file on the conductor that
        # talks to the agent.
        return False
    recorded = agent_info.with_heartbeat(
        info, callback_url, agent_version, agent_status,
        agent_status_message)
    if db.record_unlocked_heartbeat(row, recorded):
        LOG.debug('Heartbeat of node %s recorded by the API (%s, '
                  'maintenance %s).', row.uuid, row.provision_state,
                  row.maintenance)
        return True
    # Locked or changed since the read: the conductor's turn.
    return False
