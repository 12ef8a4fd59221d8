"""The conductor's side of the agent's REST API (the ironic-python-agent
command API): ``POST {agent_url}/v1/commands/`` starts a command, ``GET
{agent_url}/v1/commands/`` lists them with their status. Every request
carries the node's agent token in the ``X-Agent-Token`` header and, as
ironic-python-agent needs it (it reads the ``agent_token`` query parameter
only), in the query unless ``[agent]command_token_in_query`` is off: URLs
end up in proxy logs and in error messages, so a fleet whose agents read
the header turns it off. Error messages (and from there last_error) are
scrubbed of the token either way.

Long commands (writing the image, a clean step) are started with
``wait=false``; the conductor reads their status on the agent's next
heartbeats instead of holding a thread while they run.
"""

import requests

from oslo_log import log

from ironic_like.common import agent_certificates
from ironic_like.common import agent_info
from ironic_like.common import agent_token
from ironic_like.common import exception
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

RUNNING = 'RUNNING'
SUCCEEDED = 'SUCCEEDED'
FAILED = 'FAILED'

_SESSION = None


def _session():
    # One pooled session per process: thousands of nodes talk through it.
    global _SESSION
    if _SESSION is None:
        session = requests.Session()
        adapter = requests.adapters.HTTPAdapter(pool_connections=16,
                                                pool_maxsize=64)
        session.mount('http://', adapter)
        session.mount('https://', adapter)
        _SESSION = session
    return _SESSION


def _base(node):
    url = (node.driver_internal_info or {}).get(agent_info.AGENT_URL)
    if not url:
        raise exception.AgentConnectionFailed(
            reason='node %s has no agent URL (no heartbeat yet)' % node.uuid)
    return '%s/v1/commands/' % url.rstrip('/')


# The header the agent token travels in (the agent simulator reads it).
TOKEN_HEADER = 'X-Agent-Token'
# What replaces the token in an error message.
_SCRUBBED = '***'


def _params(node, wait=None):
    params = {}
    token = agent_token.get(node.driver_internal_info)
    if token and CONF.agent.command_token_in_query:
        params['agent_token'] = token
    if wait is not None:
        params['wait'] = 'true' if wait else 'false'
    return params


def _headers(node):
    token = agent_token.get(node.driver_internal_info)
    return {TOKEN_HEADER: token} if token else {}


def _scrub(node, text):
    """``text`` without the node's agent token (an exception's text may
    quote the request URL, an agent may echo what it was sent)."""
    text = str(text)
    token = agent_token.get(node.driver_internal_info)
    return text.replace(token, _SCRUBBED) if token else text


def _request(method, node, url, what, timeout=None, **kwargs):
    try:
        # The certificate the agent sent (API 1.68), else the system's.
        verify = agent_certificates.verify_for(node.uuid,
                                               node.driver_internal_info)
        resp = _session().request(
            method, url,
            timeout=timeout or CONF.deploy.agent_command_timeout,
            headers=_headers(node), verify=verify, **kwargs)
    except (requests.RequestException, OSError) as e:
        raise exception.AgentConnectionFailed(
            reason=_scrub(node, '%s of node %s: %s' % (what, node.uuid, e)))
    try:
        body = resp.json()
    except ValueError:
        body = None
    if resp.status_code >= 400:
        message = body.get('message') or body.get('details') \
            if isinstance(body, dict) else None
        raise exception.AgentCommandFailed(
            command=what, error=_scrub(node, 'HTTP %s%s' % (
                resp.status_code, ': %s' % message if message else '')))
    if not isinstance(body, dict):
        raise exception.AgentCommandFailed(
            command=what, error='the agent answered no JSON object')
    return body


def start_command(node, name, params):
    """Start command ``name``; returns its document (id, command_status,
    command_result, command_error)."""
    return _request('POST', node, _base(node), name,
                    params=_params(node, wait=False),
                    json={'name': name, 'params': params})


def run_command(node, name, params=None, timeout=None):
    """Run a short command to its end and return its result; raises
    AgentCommandFailed if it failed. ``timeout``: seconds to wait for the
    answer when the command may take longer than
    [deploy]agent_command_timeout (programming an FPGA)."""
    doc = _request('POST', node, _base(node), name, timeout=timeout,
                   params=_params(node, wait=True),
                   json={'name': name, 'params': params or {}})
    return result_of(doc, name)


def list_commands(node):
    body = _request('GET', node, _base(node), 'list commands',
                    params=_params(node))
    commands = body.get('commands')
    return commands if isinstance(commands, list) else []


def last_command(node, name):
    """The newest command ``name`` the agent knows of, or None."""
    found = [c for c in list_commands(node)
             if c.get('command_name') == name]
    return found[-1] if found else None


def find_command(node, command_id):
    for command in list_commands(node):
        if command.get('id') == command_id:
            return command
    return None


def error_text(doc):
    error = doc.get('command_error')
    if isinstance(error, dict):
        return error.get('message') or error.get('details') or \
            error.get('type') or str(error)
    return str(error)


def result_of(doc, name):
    """The result of a finished command document, or AgentCommandFailed."""
    if doc.get('command_status') == FAILED:
        raise exception.AgentCommandFailed(command=name,
                                           error=error_text(doc))
    return doc.get('command_result')
