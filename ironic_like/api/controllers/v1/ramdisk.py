"""The deploy agent's endpoints: lookup and heartbeat.

Two forms of each:

* Ironic's current one, used by ironic-python-agent (from API 1.22;
  the agent token from 1.62):
    GET  /v1/lookup?addresses=<MACs>&node_uuid=<uuid>
    POST /v1/heartbeat/{node}   {callback_url, agent_version, agent_token,
                                 agent_status, agent_status_message}
* the vendor passthru form of Ironic's agent interface, at every version
  (agents that speak only this form must still find their node):
    POST /v1/drivers/{driver}/vendor_passthru/lookup
         {"version": 2, "inventory": {"interfaces": [...], ...}}
    POST /v1/nodes/{node}/vendor_passthru/heartbeat
         {"agent_url": ..., "agent_token": ...}

Agents have no keystone token: these routes are public (see
middleware/public_routes.py); what authenticates an agent is its agent
token, checked on every heartbeat (by the conductor, or by the API when
it records a heartbeat that has nothing for a conductor to do: see
api/idle_heartbeats.py). No policy rule applies and the conductor is
called with an anonymous context.

Lookup is answered by the API itself. The first lookup of a node stores a
new token in driver_internal_info with a compare-and-swap that also
requires the node to be unlocked (409 otherwise: the agent retries), so a
conductor working on the node can never overwrite it. When the node
already has a token (handed out by an earlier lookup, or out of band in
the boot configuration) the answer is still 200 but carries the mask
"******" instead of the token, as Ironic does: the token is handed out
once only, and ironic-python-agent then keeps the token it has.

Failed lookups (400, 404) are limited per client address
([agent]lookup_failures_per_minute, see api/lookup_limit.py): beyond the
limit, 429 with Retry-After. The callback URL of a heartbeat is checked by
common/callback_url.py ([agent]allowed_callback_networks, and https only
with [agent]require_tls). Lookup answers only for nodes where an agent is
expected unless [api]restrict_lookup is False.
"""

from oslo_log import log
from oslo_utils import uuidutils
import pecan
from pecan import rest

from ironic_like.accelerators import discovery
from ironic_like.api.controllers.v1 import utils
from ironic_like.api import idle_heartbeats
from ironic_like.api import lookup_limit
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.api.views import node as node_view
from ironic_like.common import agent_token
from ironic_like.common import callback_url as callback_url_check
from ironic_like.common import context as ctx_module
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

# Node fields a lookup returns (as Ironic's _LOOKUP_RETURN_FIELDS).
LOOKUP_NODE_FIELDS = ['uuid', 'properties', 'instance_info',
                      'driver_internal_info']
# The inventory versions the vendor passthru lookup understands.
INVENTORY_VERSIONS = (2,)

HEARTBEAT_FIELDS = {
    'callback_url': versions.AGENT_LOOKUP,
    'agent_version': versions.AGENT_VERSION_HEARTBEAT,
    'agent_token': versions.AGENT_TOKEN,
    'agent_verify_ca': versions.HEARTBEAT_VERIFY_CA,
    'agent_status': versions.HEARTBEAT_STATUS,
    'agent_status_message': versions.HEARTBEAT_STATUS,
}
# What agent_status may say (1.72), as Ironic: the ramdisk deploy of an
# agent that reports its own progress.
AGENT_STATUSES = ('start', 'end', 'error')
# The fields of a vendor passthru heartbeat.
PASSTHRU_HEARTBEAT_FIELDS = ('agent_url', 'agent_token', 'agent_version')


def agent_context():
    """An anonymous context: on these public routes identity headers are
    not validated by anyone and must not be trusted."""
    request_ctx = utils.context()
    return ctx_module.RequestContext(
        request_id=getattr(request_ctx, 'request_id', None),
        overwrite=False)


# -- lookup -----------------------------------------------------------------

def valid_macs(addresses):
    """Lower-cased MACs of ``addresses``; invalid ones are ignored (an
    agent reports every interface, virtual ones included)."""
    macs = []
    for address in addresses:
        if isinstance(address, str) and validation.is_mac(address.strip()):
            mac = validation.normalize_mac(address.strip())
            if mac not in macs:
                macs.append(mac)
    return macs


def nodes_by_ports(db, macs):
    node_ids = []
    for mac in macs:
        try:
            port = db.get_port_by_address(mac)
        except exception.PortNotFound:
            continue
        if port.node_id not in node_ids:
            node_ids.append(port.node_id)
    return [db.get_node_by_id(node_id) for node_id in node_ids]


def find_node(addresses, node_uuid=None):
    """The node an agent with ``addresses`` (MACs) and optionally
    ``node_uuid`` runs on, if an agent is expected there (in any state
    with ``[api]restrict_lookup = False``).

    :raises: MissingParameterValue (400) with neither a valid MAC nor a
        UUID; NotFound (404) when no node matches or it is in a state
        where no agent is expected.
    """
    db = utils.dbapi()
    macs = valid_macs(addresses)
    if node_uuid is not None and not uuidutils.is_uuid_like(node_uuid):
        raise exception.InvalidUUID(uuid=node_uuid, field='node_uuid')
    if not macs and not node_uuid:
        raise exception.MissingParameterValue(
            err='Lookup needs at least one valid MAC address or a node '
                'UUID.', field='addresses')
    matched = nodes_by_ports(db, macs)
    if node_uuid:
        try:
            node = db.get_node_by_uuid(node_uuid)
        except exception.NodeNotFound:
            raise exception.NotFound(
                'No node matches the lookup: node %s does not exist.'
                % node_uuid)
        if matched and node.id not in {n.id for n in matched}:
            raise exception.NotFound(
                'No node matches the lookup: the MAC addresses belong to '
                'another node than %s.' % node_uuid)
    else:
        if not matched:
            raise exception.NotFound(
                'No node matches the lookup: no port has any of the MAC '
                'addresses %s.' % ', '.join(macs))
        if len(matched) > 1:
            # Ports of several nodes: the one expecting an agent wins.
            waiting = [n for n in matched
                       if n.provision_state in states.LOOKUP_ALLOWED_STATES]
            if len(waiting) != 1:
                raise exception.NotFound(
                    'No single node matches the lookup: the MAC addresses '
                    'belong to nodes %s; give node_uuid.'
                    % ', '.join(sorted(n.uuid for n in matched)))
            matched = waiting
        node = matched[0]
    # [api]restrict_lookup = False (as in Ironic) answers for a node in any
    # state; several nodes matching still need the one expecting an agent.
    if (CONF.api.restrict_lookup
            and node.provision_state not in states.LOOKUP_ALLOWED_STATES):
        raise exception.NotFound(
            'Node %s matches the lookup but expects no agent: its '
            'provision state is "%s" (an agent is expected in: %s).'
            % (node.uuid, node.provision_state,
               ', '.join(sorted(states.LOOKUP_ALLOWED_STATES))))
    return node


def issue_token(node):
    """(node, token to hand out). A new token on the first lookup; the
    mask when the node already has one (an earlier lookup, or out of band
    in the boot configuration): a token is handed out once only.

    :raises: NodeLocked (409) when a conductor holds the node (the agent
        retries its lookup).
    """
    info = node.driver_internal_info
    if agent_token.is_present(info):
        return node, agent_token.MASK
    if node.reservation is not None:
        raise exception.NodeLocked(node=node.uuid, host=node.reservation)
    new_info = agent_token.with_new_token(info)
    try:
        node = utils.dbapi().update_node(
            node.id, {'driver_internal_info': new_info},
            expected={'driver_internal_info': info, 'reservation': None,
                      'provision_state': node.provision_state})
    except exception.InvalidState:
        raise exception.NodeLocked(
            'Node %s changed during the lookup; please retry.' % node.uuid)
    return node, new_info[agent_token.TOKEN_KEY]


def lookup_node_view(node):
    view = node_view.view(utils.version(), utils.public_url(), None,
                          names=LOOKUP_NODE_FIELDS)
    return view.render(node)


class LookupController(rest.RestController):
    """GET /v1/lookup (from 1.22)."""

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.hide_below(versions.AGENT_LOOKUP)
        with lookup_limit.guard(pecan.request.remote_addr):
            params = utils.query(['addresses', 'node_uuid'])
            addresses = [a for a in
                         (params.get('addresses') or '').split(',')
                         if a.strip()]
            node = find_node(addresses, params.get('node_uuid'))
            return lookup_answer(node)


def lookup_answer(node):
    """What a lookup answers for ``node``: its lookup fields and the
    agent's configuration, with its token from 1.62 (issue_token())."""
    config = {'heartbeat_timeout': CONF.agent.heartbeat_timeout}
    if utils.allowed(versions.AGENT_TOKEN):
        node, token = issue_token(node)
        config['agent_token'] = token
        config['agent_token_required'] = True
    return {'node': lookup_node_view(node), 'config': config}


def _check_inventory(body):
    """The MACs and node UUID of a vendor passthru lookup body; 400
    naming the field at fault."""
    version = body.get('version')
    if version not in INVENTORY_VERSIONS or isinstance(version, bool):
        raise exception.InvalidParameterValue(
            err='Unsupported inventory version %r; supported: %s.'
                % (version, ', '.join(str(v) for v in INVENTORY_VERSIONS)),
            field='version')
    inventory = body.get('inventory')
    if not isinstance(inventory, dict):
        raise exception.InvalidParameterValue(
            err='"inventory" must be an object.', field='inventory')
    interfaces = inventory.get('interfaces')
    if not isinstance(interfaces, list) or not all(
            isinstance(i, dict) for i in interfaces):
        raise exception.InvalidParameterValue(
            err='"inventory.interfaces" must be a list of objects.',
            field='inventory.interfaces')
    node_uuid = body.get('node_uuid')
    if node_uuid is not None and not isinstance(node_uuid, str):
        raise exception.InvalidUUID(uuid=node_uuid, field='node_uuid')
    return [i.get('mac_address') for i in interfaces], node_uuid


def _record_accelerators(node, inventory):
    """The accelerators of a lookup's inventory (doc/accelerators.md),
    when it reports them. A malformed list is logged and recorded as a
    failed discovery; the lookup itself still succeeds (the agent must
    find its node)."""
    if 'accelerators' not in inventory:
        return
    try:
        discovery.record(node, inventory)
    except exception.InvalidParameterValue as e:
        LOG.warning('Node %s: the accelerators of its agent\'s lookup '
                    'were refused: %s', node.uuid,
                    exception.safe_message(e))


class DriverVendorPassthruController(rest.RestController):
    """POST /v1/drivers/{driver}/vendor_passthru/lookup: the agent's
    lookup in the vendor passthru form."""

    _custom_actions = {'lookup': ['POST']}

    def __init__(self, driver_name):
        self.driver_name = driver_name

    @pecan.expose('json')
    def lookup(self, **kwargs):
        with lookup_limit.guard(pecan.request.remote_addr):
            utils.query()
            body = utils.load_body()
            addresses, node_uuid = _check_inventory(body)
            if not valid_macs(addresses) and not node_uuid:
                raise exception.MissingParameterValue(
                    err='No interface of the inventory has a valid '
                        'mac_address.', field='inventory.interfaces')
            node = find_node(addresses, node_uuid)
            node, token = issue_token(node)
        _record_accelerators(node, body['inventory'])
        timeout = CONF.agent.heartbeat_timeout
        # The vendor passthru answer plus the token: at the top level, where
        # this form's agents read it, and in the same "config" block as the
        # current form (one parser for both).
        return {'heartbeat_timeout': timeout,
                'node': {'uuid': node.uuid},
                'agent_token': token,
                'config': {'heartbeat_timeout': timeout,
                           'agent_token': token,
                           'agent_token_required': True}}


# -- heartbeat --------------------------------------------------------------

# The longest string each heartbeat field may be (any other: 255).
_MAX_LENGTHS = {'agent_status_message': 4096, 'callback_url': 1024,
                'agent_verify_ca': 65536,
                'agent_url': 1024}


def _check_strings(body, names):
    for name in names:
        value = body.get(name)
        if value is not None and not isinstance(value, str):
            raise exception.InvalidParameterValue(
                err='"%s" must be a string.' % name, field=name)
        limit = _MAX_LENGTHS.get(name, 255)
        if value is not None and len(value) > limit:
            raise exception.InvalidParameterValue(
                err='"%s" is longer than %d characters.' % (name, limit),
                field=name)


def _send_heartbeat(node_ident, callback_url, agent_version=None,
                    token=None, agent_status=None,
                    agent_status_message=None, agent_verify_ca=None):
    # A heartbeat with nothing for a conductor to do is recorded here;
    # any other goes to the node's conductor, which reads the node,
    # checks the token and records: the API only needs to know where to
    # send it.
    db = utils.dbapi()
    node = utils.get_node_route(node_ident, db.get_node_heartbeat_row)
    # As Ironic: no conductor serves the node, 400 (NoValidHost), even
    # for a heartbeat the API would record alone.
    utils.rpcapi().owner_of(node)
    if idle_heartbeats.record(
            db, node, callback_url, agent_version=agent_version,
            agent_token=token, agent_status=agent_status,
            agent_status_message=agent_status_message,
            agent_verify_ca=agent_verify_ca):
        utils.set_status(202)
        return
    utils.rpcapi().heartbeat(
        agent_context(), node, callback_url, agent_version=agent_version,
        agent_token=token, agent_status=agent_status,
        agent_status_message=agent_status_message,
        agent_verify_ca=agent_verify_ca)
    utils.set_status(202)


class HeartbeatController(rest.RestController):
    """POST /v1/heartbeat/{node} (from 1.22)."""

    @pecan.expose('json')
    def post(self, node_ident=None, **kwargs):
        utils.hide_below(versions.AGENT_LOOKUP)
        utils.require_ident(node_ident)
        utils.query()
        body = utils.load_optional_body()
        for name in body:
            since = HEARTBEAT_FIELDS.get(name)
            if since is None or not utils.allowed(since):
                raise exception.InvalidParameterValue(
                    err='Field "%s" not recognised%s.' % (
                        name, '' if since is None else
                        ' before API version %s' % versions.to_string(
                            since)), field=name)
        _check_strings(body, HEARTBEAT_FIELDS)
        status = body.get('agent_status')
        if status is not None and status not in AGENT_STATUSES:
            raise exception.InvalidParameterValue(
                err='Unknown agent status %s; valid statuses are %s.'
                    % (status, ','.join(AGENT_STATUSES)),
                field='agent_status')
        callback_url = callback_url_check.check(body.get('callback_url'),
                                                'callback_url')
        _send_heartbeat(node_ident, callback_url,
                        agent_version=body.get('agent_version'),
                        token=body.get('agent_token'),
                        agent_status=body.get('agent_status'),
                        agent_status_message=body.get(
                            'agent_status_message'),
                        agent_verify_ca=body.get('agent_verify_ca'))


class NodeVendorPassthruController(rest.RestController):
    """POST /v1/nodes/{node}/vendor_passthru/heartbeat: the agent's
    heartbeat in the vendor passthru form."""

    _custom_actions = {'heartbeat': ['POST']}

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose('json')
    def heartbeat(self, **kwargs):
        utils.query()
        body = utils.load_body()
        for name in body:
            if name not in PASSTHRU_HEARTBEAT_FIELDS:
                raise exception.InvalidParameterValue(
                    err='Field "%s" not recognised.' % name, field=name)
        _check_strings(body, PASSTHRU_HEARTBEAT_FIELDS)
        agent_url = callback_url_check.check(body.get('agent_url'),
                                             'agent_url')
        _send_heartbeat(self.node_ident, agent_url,
                        agent_version=body.get('agent_version'),
                        token=body.get('agent_token'))
