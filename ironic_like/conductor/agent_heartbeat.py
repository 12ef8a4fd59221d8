"""Agent heartbeats on the conductor, and the agent token's end of life.

A heartbeat is the agent's callback: it says where the agent listens
(``agent_url``) and that it is alive. It must carry the node's agent
token; a missing or wrong one is refused (AgentTokenInvalid, 401) and
changes nothing.

Heartbeats never wait for a node lock: one reservation attempt, and if the
node is locked the heartbeat is acknowledged at once and nothing is
recorded. When the lock holder is this conductor (a flow step is running,
typically the power-on the agent is answering), the heartbeat is replayed
as soon as the lock is released; when another conductor holds it (the API
sent the heartbeat elsewhere because the owner was slow to answer), the
heartbeat is forwarded to that conductor once (a cast), which replays it
when it releases the lock.

Once the heartbeat is recorded, under the lock, a deploy interface run as
node flows (the agent deploy) gets its next phase started by the flow
runner; any other deploy interface with a ``heartbeat(task, callback_url,
agent_version)`` method has it called (``agent_status`` and
``agent_status_message`` are passed too when the method accepts them).
Either may hand long work to a worker with ``task.spawn_after``; the
lock then passes to that worker.
"""

import inspect

from oslo_log import log

from ironic_like.common import agent_certificates
from ironic_like.common import agent_info
from ironic_like.common import agent_token
from ironic_like.common import callback_url as callback_url_check
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import runner
from ironic_like.conductor import inspection
from ironic_like.conductor import locks
from ironic_like.conductor import rescue
from ironic_like.conf import CONF
from ironic_like.db import api as db_api
from ironic_like.drivers import base as drivers_base

LOG = log.getLogger(__name__)


def check_token(node, token):
    """AgentTokenInvalid unless ``token`` is ``node``'s agent token."""
    if not agent_token.is_valid(node.driver_internal_info, token):
        raise exception.AgentTokenInvalid(node=node.uuid)


def _call_deploy_heartbeat(task, callback_url, agent_version, agent_status,
                           agent_status_message):
    """The flows' next phase, or the deploy interface's heartbeat when it
    has one."""
    if drivers_base.runs_flows(task.driver.deploy):
        runner.on_heartbeat(task)
        return
    if not drivers_base.has_heartbeat_handler(task.driver.deploy):
        return
    handler = task.driver.deploy.heartbeat
    kwargs = {}
    try:
        params = inspect.signature(handler).parameters
    except (TypeError, ValueError):
        params = {}
    if 'agent_status' in params:
        kwargs['agent_status'] = agent_status
    if 'agent_status_message' in params:
        kwargs['agent_status_message'] = agent_status_message
    handler(task, callback_url, agent_version, **kwargs)


# States where a heartbeat is inspection's (conductor/inspection.py).
_INSPECTION_STATES = frozenset([states.INSPECTING, states.INSPECTWAIT])


def heartbeat(context, node_id, callback_url, agent_version=None,
              agent_token=None, agent_status=None,
              agent_status_message=None, agent_verify_ca=None,
              forwarded=False):
    """Record an agent's heartbeat. Returns True if it was recorded, False
    if the node was locked (acknowledged, nothing recorded).

    :raises: NodeNotFound, AgentTokenInvalid, InvalidParameterValue (a
        callback URL refused by common/callback_url.py; nothing recorded).
    """
    db = db_api.get_instance()
    # The API checked it too; a conductor never records (and later sends
    # the token to) a URL it would not accept from the API.
    callback_url_check.check(callback_url, 'callback_url')
    try:
        with locks.acquire(context, node_id, purpose='heartbeat',
                           attempts=1) as task:
            # Checked on the node the reservation read (no read of its
            # own on this hot path); a locked node's below.
            check_token(task.node, agent_token)
            node = task.node
            info = agent_info.with_heartbeat(
                node.driver_internal_info, callback_url, agent_version,
                agent_status, agent_status_message)
            if agent_verify_ca:
                # Refused (nothing recorded) if the agent's certificate
                # changed.
                info.update(agent_certificates.store(
                    task.node.uuid, task.node.driver_internal_info,
                    agent_verify_ca))
            # One conditional UPDATE: nothing else of the node changes.
            task.write_columns({'driver_internal_info': info})
            if (agent_info.heartbeat_is_idle(node.provision_state,
                                             node.maintenance)
                    and not drivers_base.has_heartbeat_handler(
                        task.driver.deploy)):
                # Recorded, nothing else to do (the API records such
                # heartbeats alone when the node is unlocked).
                return True
            # Work the deploy interface hands over with spawn_after takes
            # the lock with it.
            if task.node.provision_state in _INSPECTION_STATES:
                # The agent's ramdisk booted for inspection, whatever the
                # node's deploy interface.
                inspection.on_heartbeat(task)
            elif task.node.provision_state == states.RESCUEWAIT:
                # The rescue ramdisk's agent: the rescue interface's,
                # whatever the node's deploy interface.
                rescue.on_heartbeat(task)
            else:
                _call_deploy_heartbeat(task, callback_url, agent_version,
                                       agent_status, agent_status_message)
    except exception.NodeLocked as e:
        # A wrong token is refused whatever the lock.
        check_token(db.get_node_by_id(node_id), agent_token)
        # Acknowledged at once, never queued behind the lock. If this
        # conductor holds the lock (a flow step is running), the heartbeat
        # is replayed when the lock is released: the agent of a node that
        # just booted would otherwise wait a whole heartbeat interval.
        # The holder the failed reservation saw (no extra query).
        holder = e.kwargs.get('host')
        args = (context, callback_url, agent_version, agent_token,
                agent_status, agent_status_message, agent_verify_ca)
        # None: released since our attempt (the release hook ran before
        # the heartbeat was stored): replay it now.
        if holder in (CONF.host, None):
            _MISSED[node_id] = args
            if holder is None or _lock_holder(db, node_id) is None:
                _replay_missed(node_id)
        elif not forwarded:
            # Another conductor works on the node (the API routed the
            # heartbeat here because that one was slow to answer): hand
            # it over, once, so that it is replayed there.
            _forward(holder, node_id, args)
        LOG.debug('Heartbeat of node %s acknowledged without action: the '
                  'node is locked.', node_id)
        return False
    return True


# node id -> the arguments of the last heartbeat that found the node
# locked by this conductor (at most one per node: the newest wins).
_MISSED = {}


_FORWARDER = []


def _forward(host, node_id, args):
    from ironic_like.conductor import rpcapi
    try:
        if not _FORWARDER:
            _FORWARDER.append(rpcapi.ConductorAPI())
        _FORWARDER[0].forward_heartbeat(args[0], host, node_id, *args[1:])
    except Exception as e:
        LOG.debug('Heartbeat of node %s not forwarded to %s: %s', node_id,
                  host, e)


def _lock_holder(db, node_id):
    try:
        return db.get_node_by_id(node_id).reservation
    except exception.NodeNotFound:
        return None


def _replay_missed(node_id):
    args = _MISSED.pop(node_id, None)
    if args is None:
        return
    try:
        runner.executor().submit(_replay, node_id, args)
    except Exception as e:
        LOG.debug('Heartbeat of node %s not replayed: %s', node_id, e)


def _replay(node_id, args):
    try:
        heartbeat(args[0], node_id, *args[1:])
    except Exception as e:
        # The token may have been wiped meanwhile, the node deleted...
        LOG.debug('Replayed heartbeat of node %s: %s', node_id, e)


locks.add_release_hook(_replay_missed)
