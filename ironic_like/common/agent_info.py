"""What a node's driver_internal_info keeps about its deploy agent.

The agent client and the boot interfaces (drivers) and the heartbeat
handling, flows and timeouts (conductor) share these names; they live
here, below both. The task helpers take the NodeTask the conductor hands
to drivers (anything with ``node`` and ``update_node``).
"""

from oslo_utils import timeutils

from ironic_like.common import agent_token
from ironic_like.common import states

# Where the agent listens, and what its last heartbeat said.
AGENT_URL = 'agent_url'
LAST_HEARTBEAT = 'agent_last_heartbeat'
AGENT_VERSION = 'agent_version'
AGENT_STATUS = 'agent_status'
AGENT_STATUS_MESSAGE = 'agent_status_message'
# The agent's TLS certificate (API 1.68): common/agent_certificates.py.
AGENT_VERIFY_CA = 'agent_verify_ca'
AGENT_VERIFY_CA_TEXT = 'agent_verify_ca_text'
# What a heartbeat records; dropped with the token when the node leaves
# the ramdisk (the URL is then stale, the next agent has its own
# certificate).
RECORDED_KEYS = (AGENT_URL, LAST_HEARTBEAT, AGENT_VERSION, AGENT_STATUS,
                 AGENT_STATUS_MESSAGE, AGENT_VERIFY_CA, AGENT_VERIFY_CA_TEXT)
# Reboots of a silent agent, and when the last one was. A heartbeat proves
# the agent alive again and resets them.
TIMEOUT_REBOOTS = 'agent_timeout_reboots'
TIMEOUT_REBOOTED_AT = 'agent_timeout_rebooted_at'
# The agent phase the node waits in, when it began (ISO 8601, UTC), and
# the agent command it follows.
PHASE = 'agent_phase'
PHASE_STARTED = 'agent_phase_started'
COMMAND = 'agent_command'


def add_pregenerated_token(task):
    """Generate a token handed to the ramdisk out of band; returns it.
    Lookup will then not hand a token out.

    Only for a boot medium nobody but the node can read (e.g. a virtual
    media image given to its BMC alone). Never put the token into a file
    a web or TFTP server publishes, such as the ipxe boot interface's
    scripts: anyone who can fetch the file could heartbeat as the agent.
    No boot interface uses it yet."""
    info = agent_token.with_new_token(task.node.driver_internal_info,
                                      pregenerated=True)
    task.update_node({'driver_internal_info': info})
    return info[agent_token.TOKEN_KEY]


def wipe_agent_token(task):
    """Forget the agent token (and the agent's URL and status) of
    ``task.node``, under its exclusive lock: called when the node leaves
    the ramdisk (active, available, manageable, failures). Nothing is
    written when there is nothing to drop."""
    info = task.node.driver_internal_info or {}
    if not any(key in info for key in
               (agent_token.TOKEN_KEY, agent_token.PREGENERATED_KEY)
               + RECORDED_KEYS):
        return
    task.update_node({'driver_internal_info': without_agent(info)})


def without_agent(info):
    """A copy of ``info`` without the agent token and what heartbeats
    recorded: for a node whose agent is gone (rebooted, powered off), so
    that the next agent's lookup hands out a new token."""
    info = agent_token.without_token(info)
    for key in RECORDED_KEYS:
        info.pop(key, None)
    return info


def with_heartbeat(info, callback_url, agent_version=None,
                   agent_status=None, agent_status_message=None):
    """A copy of driver_internal_info ``info`` recording a heartbeat:
    where the agent listens, when it was heard, what it said; the silent
    agent's reboot count is reset."""
    info = dict(info or {})
    info[AGENT_URL] = callback_url
    info[LAST_HEARTBEAT] = timeutils.utcnow().isoformat()
    info.pop(TIMEOUT_REBOOTS, None)
    info.pop(TIMEOUT_REBOOTED_AT, None)
    if agent_version is not None:
        info[AGENT_VERSION] = agent_version
    if agent_status is not None:
        info[AGENT_STATUS] = agent_status
        info[AGENT_STATUS_MESSAGE] = agent_status_message
    return info


def heartbeat_is_idle(provision_state, maintenance):
    """Whether a heartbeat of a node in ``provision_state`` has nothing
    for a conductor to do beyond recording it. The conductor's handlers
    (the flows' next phase, inspection's inventory, rescue's finish) act
    only in a wait state and never in maintenance; the conductor asks
    this before calling them, and the API records such a heartbeat
    itself."""
    return bool(maintenance) or provision_state not in states.WAIT_STATES
