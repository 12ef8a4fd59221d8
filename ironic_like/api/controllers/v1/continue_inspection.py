"""POST /v1/continue_inspection (Ironic 1.84): an inspecting agent posts
its inventory (and any plugin data beside it), as ironic-python-agent
does when booted with an inspection callback URL.

- Available at 1.84 and later, and at 1.1 (no version header), so the
  service stands in for ironic-inspector's callback; 404 in between. The
  ``node_uuid`` parameter needs 1.84.
- Public, like lookup: the agent has no credentials yet. Only a node in
  "inspect wait" under the agent inspect interface takes the data, and
  failed look-ups count against [agent]lookup_failures_per_minute.
- The node is found by ``node_uuid``, by the MAC addresses of the
  inventory's interfaces (its ports), or by the inventory's BMC
  addresses (``bmc_address``, ``bmc_v6address``) against the host of each
  ``*_address`` field of a waiting node's driver_info and the addresses
  it resolved to (common/bmc_lookup.py). Any failure is the
  same 404, which says nothing of the nodes (as Ironic answers).
- 202. At 1.84 the answer is a lookup's (the node and the agent's
  configuration with its token), so the agent can heartbeat next; at 1.1
  it is ``{"uuid": ...}``, ironic-inspector's.

An inventory that names no node at all (no node_uuid, no port with one
of its MACs, no waiting node with its BMC address) enrolls a new node
when [auto_discovery]enabled, as Ironic's auto-discovery does: a node of
[auto_discovery]driver in "enroll", created by its conductor, which
records what the inventory says of it (properties, ports, inspection
rules; plugin data ``auto_discovered``) and leaves it in "enroll".
"""

from oslo_log import log
from oslo_utils import uuidutils
import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import ramdisk
from ironic_like.api.controllers.v1 import utils
from ironic_like.api import lookup_limit
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.common import bmc_lookup
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

# Ironic's minimal acceptable inventory; anything else passes through.
BODY = {
    'type': 'object',
    'properties': {
        'inventory': {
            'type': 'object',
            'properties': {
                'bmc_address': {'type': ['string', 'null']},
                'bmc_v6address': {'type': ['string', 'null']},
                'interfaces': {
                    'type': 'array',
                    'items': {
                        'type': 'object',
                        'properties': {'mac_address': {'type': 'string'}},
                        'required': ['mac_address'],
                    },
                    'minItems': 1,
                },
            },
            'required': ['interfaces'],
        },
    },
    'required': ['inventory'],
}
_VALIDATOR = validation.make_validator(BODY)
# Addresses an inventory reports for a BMC it does not have.
_NO_BMC = ('', '0.0.0.0', '::')


def _not_found():
    return exception.NotFound('No node is waiting for this inspection '
                              'data.')


class _Unknown(exception.NotFound):
    """The inspection data names no node at all (auto-discovery may
    enroll one); the same 404 as any other failed look-up."""

    def __init__(self):
        super().__init__('No node is waiting for this inspection data.')


def _by_bmc(db, bmc_addresses):
    """The nodes in "inspect wait" one of ``bmc_addresses`` names: the
    host of a ``*_address`` field of their driver_info, or an address
    it resolved to when their inspection started (only the waiting
    nodes are read: a short list)."""
    wanted = {address.lower() for address in bmc_addresses}
    found = []
    for node in db.get_node_list(
            filters={'provision_state': states.INSPECTWAIT},
            columns=['uuid', 'driver_info', 'driver_internal_info']):
        if bmc_lookup.addresses(node) & wanted:
            found.append(node.id)
    return found


def find_waiting_node(macs, bmc_addresses, node_uuid=None):
    """The node in "inspect wait" the inspection data is for; NotFound
    (the same whatever went wrong, the reason logged) otherwise."""
    db = utils.dbapi()
    candidates = set()
    if node_uuid is not None:
        try:
            candidates.add(db.get_node_by_uuid(node_uuid).id)
        except exception.NodeNotFound:
            LOG.warning('Inspection data for node %s, which does not exist',
                        node_uuid)
            raise _not_found()
    by_mac = {node.id for node in ramdisk.nodes_by_ports(db, macs)}
    by_bmc = set(_by_bmc(db, bmc_addresses)) if bmc_addresses else set()
    for found in (by_mac, by_bmc):
        if found:
            # Every way of naming the node must name the same one: a BMC
            # address copied to the wrong node must not update it.
            candidates = candidates & found if candidates else found
            if not candidates:
                break
    if node_uuid is None and not by_mac and not by_bmc:
        LOG.warning('Inspection data with MAC addresses %s and BMC '
                    'addresses %s matches no node', ', '.join(macs) or '-',
                    ', '.join(bmc_addresses) or '-')
        raise _Unknown()
    if len(candidates) != 1:
        LOG.warning('Inspection data with MAC addresses %s, BMC addresses '
                    '%s and node %s matches %s', ', '.join(macs) or '-',
                    ', '.join(bmc_addresses) or '-', node_uuid or '-',
                    'several nodes' if candidates else 'no node')
        raise _not_found()
    node = db.get_node_by_id(candidates.pop())
    if node.provision_state != states.INSPECTWAIT:
        LOG.warning('Inspection data for node %s, which is %s, not %s',
                    node.uuid, node.provision_state, states.INSPECTWAIT)
        raise _not_found()
    return node


def _enroll(macs, bmc_addresses):
    """A new node of [auto_discovery]driver in "enroll" for an unknown
    machine's inspection data, created by its conductor (which proves
    it can load the driver). Any failure is logged and answered with the
    same 404 (nothing is disclosed to an unauthenticated caller)."""
    driver = CONF.auto_discovery.driver
    if not driver:
        LOG.error('[auto_discovery]enabled is set but [auto_discovery]'
                  'driver is not: the machine with MAC addresses %s is not '
                  'enrolled.', ', '.join(macs) or '-')
        raise _not_found()
    values = {'uuid': uuidutils.generate_uuid(), 'driver': driver,
              'provision_state': states.ENROLL}
    try:
        utils.rpcapi().create_node(ramdisk.agent_context(), values)
    except exception.IronicLikeException as e:
        LOG.error('Auto-discovery could not enroll a node with driver %s '
                  '(MAC addresses %s): %s', driver, ', '.join(macs) or '-',
                  exception.safe_message(e))
        raise _not_found()
    LOG.info('Enrolled the newly discovered node %s with driver %s, MAC '
             'addresses [%s] and BMC address(es) [%s]', values['uuid'],
             driver, ', '.join(macs), ', '.join(bmc_addresses))
    return utils.dbapi().get_node_by_uuid(values['uuid'])


class ContinueInspectionController(rest.RestController):

    @pecan.expose('json')
    def post(self, **kwargs):
        version = utils.version()
        if not (version == versions.MIN_VERSION
                or utils.allowed(versions.CONTINUE_INSPECTION)):
            raise exception.NotFound(
                'API version %s or newer is required.'
                % versions.to_string(versions.CONTINUE_INSPECTION))
        with lookup_limit.guard(pecan.request.remote_addr):
            params = utils.query(['node_uuid'])
            node_uuid = params.get('node_uuid')
            if node_uuid is not None:
                utils.hide_below(versions.CONTINUE_INSPECTION)
                if not uuidutils.is_uuid_like(node_uuid):
                    raise exception.InvalidUUID(uuid=node_uuid,
                                                field='node_uuid')
            data = utils.validate(_VALIDATOR, utils.load_body())
            inventory = data.pop('inventory')
            macs = ramdisk.valid_macs(
                [iface['mac_address'] for iface in inventory['interfaces']])
            bmc_addresses = [
                address.strip() for address in (
                    inventory.get('bmc_address'),
                    inventory.get('bmc_v6address'))
                if isinstance(address, str)
                and address.strip() not in _NO_BMC]
            if not macs and not bmc_addresses and not node_uuid:
                raise exception.MissingParameterValue(
                    err='No lookup information provided: no valid MAC '
                        'address, BMC address or node_uuid.',
                    field='inventory.interfaces')
            try:
                node = find_waiting_node(macs, bmc_addresses, node_uuid)
            except _Unknown:
                if not CONF.auto_discovery.enabled:
                    raise
                node = _enroll(macs, bmc_addresses)
                # ironic-inspector's flag, as Ironic sets it.
                data['auto_discovered'] = True
            answer = {'uuid': node.uuid}
            if utils.allowed(versions.CONTINUE_INSPECTION):
                # The token first: the conductor locks the node next.
                answer = ramdisk.lookup_answer(node)
            utils.rpcapi().continue_inspection(
                ramdisk.agent_context(), node, inventory, data)
        utils.set_status(202)
        return answer
