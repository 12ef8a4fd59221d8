"""Who may change which fields of a node (PATCH /v1/nodes/{ident}).

Ironic checks one rule per field a patch touches, so that a project can
be allowed to name its nodes or fill their ``extra`` without being allowed
to move them to another conductor group or owner. The rules and their
defaults are Ironic's (``common/policy.py`` here); a field without a rule
of its own falls under the generic ``baremetal:node:update``, which the
members of the owning and leasing projects pass.

Two changes of the owner are refused with 409 whatever the rules say, as
in Ironic: of a deployed node, unless ``update_owner_provisioned``
allows it (a cloud admin by default), and of a node held by an
allocation that has an owner (the allocation's project would lose it).
"""

from oslo_utils import strutils

from ironic_like.api.controllers.v1 import utils
from ironic_like.common import exception
from ironic_like.common import policy
from ironic_like.common import states
from ironic_like.drivers import base as driver_base

GENERIC = 'baremetal:node:update'
DISABLE_CLEANING = 'baremetal:node:disable_cleaning'
OWNER_PROVISIONED = 'baremetal:node:update_owner_provisioned'
_DRIVER_INTERFACES = 'baremetal:node:update:driver_interfaces'

# Top-level field -> its rule. ``retired_reason`` goes with ``retired``,
# as Ironic matches path prefixes.
FIELD_RULES = {
    'instance_info': 'baremetal:node:update_instance_info',
    'extra': 'baremetal:node:update_extra',
    'driver_info': 'baremetal:node:update:driver_info',
    'properties': 'baremetal:node:update:properties',
    'chassis_uuid': 'baremetal:node:update:chassis_uuid',
    'instance_uuid': 'baremetal:node:update:instance_uuid',
    'lessee': 'baremetal:node:update:lessee',
    'owner': 'baremetal:node:update:owner',
    'driver': _DRIVER_INTERFACES,
    'network_data': 'baremetal:node:update:network_data',
    'conductor_group': 'baremetal:node:update:conductor_group',
    'name': 'baremetal:node:update:name',
    'retired': 'baremetal:node:update:retired',
    'retired_reason': 'baremetal:node:update:retired',
    'shard': 'baremetal:node:update:shard',
    'parent_node': 'baremetal:node:update:parent_node',
    'disable_power_off': 'baremetal:node:update:disable_power_off',
    'instance_name': 'baremetal:node:update_instance_info',
}
FIELD_RULES.update({kind + '_interface': _DRIVER_INTERFACES
                    for kind in driver_base.INTERFACE_KINDS})


def _field(operation):
    """The top-level field an operation of a patch touches (or None)."""
    path = operation.get('path') if isinstance(operation, dict) else None
    if not isinstance(path, str):
        return None
    return path.lstrip('/').split('/', 1)[0]


def _turns_cleaning_off(operation):
    return (operation.get('op') in ('add', 'replace')
            and strutils.bool_from_string(operation.get('value'),
                                          default=None) is False)


def rules_for(patch):
    """The rules a patch needs, in order, without repeats; the generic
    rule when some operation has no rule of its own (or there is none)."""
    rules = []
    generic = not patch
    for operation in patch:
        field = _field(operation)
        rule = FIELD_RULES.get(field)
        if rule is None and field == 'automated_clean' and \
                _turns_cleaning_off(operation):
            rule = DISABLE_CLEANING
        if rule is None:
            generic = True
        elif rule not in rules:
            rules.append(rule)
    if generic:
        rules.append(GENERIC)
    return rules


def authorize(ident, patch):
    """The node ``ident`` names, if the caller passes every rule the patch
    needs: 404 for a node the caller may not see, 403 naming the first
    rule refused."""
    rules = rules_for(patch)
    node = utils.get_authorized_node(ident, rules[0])
    target = policy.node_target(node)
    for rule in rules[1:]:
        policy.authorize(rule, target, utils.context())
    return node


def check_owner_change(node, changes):
    """409 for the owner changes Ironic refuses whatever the rules say."""
    if 'owner' not in changes:
        return
    if node.provision_state == states.ACTIVE and not policy.check(
            OWNER_PROVISIONED, policy.node_target(node), utils.context()):
        raise exception.Conflict(
            'Cannot update owner of node "%s" while it is in state "%s".'
            % (node.uuid, states.ACTIVE), field='owner')
    if node.allocation_id:
        try:
            allocation = utils.dbapi().get_allocation_by_id(
                node.allocation_id)
        except exception.AllocationNotFound:
            return
        if allocation.owner is not None:
            raise exception.Conflict(
                'Cannot update owner of node "%s" while it is allocated to '
                'an allocation with an owner.' % node.uuid, field='owner')
