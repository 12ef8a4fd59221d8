"""Creating, changing and deleting ports, under their node's lock."""

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import locks
from ironic_like.conductor import settable
from ironic_like.db import api as db_api

SETTABLE_FIELDS = frozenset(['address', 'extra', 'pxe_enabled',
                             'local_link_connection', 'physical_network',
                             'uuid', 'node_id', 'portgroup_id',
                             'is_smartnic', 'name', 'description',
                             'vendor', 'category',
                             'available_for_dynamic_portgroup'])

# Where a port may join or leave a port group without maintenance
# (Ironic's: the group's wiring must not change under a deployed node).
PORTGROUP_CHANGE_STATES = frozenset([states.ENROLL, states.MANAGEABLE,
                                     states.INSPECTING])


def _check(values):
    settable.check(values, SETTABLE_FIELDS, 'a port')


def _check_owner(db, node_id, port_id):
    # Only the lock of the port's own node protects it: a port of another
    # node (a caller's mistake or a port moved meanwhile) is not found.
    port = db.get_port_by_id(port_id)
    if port.node_id != node_id:
        raise exception.PortNotFound(port=port_id)
    return port


def _check_physnet(db, portgroup, physical_network, port_id=None):
    """The ports of a group are on one physical network (API 1.34): the
    other members', or (1.102) the group's own when it has no member yet;
    409 otherwise, as Ironic answers."""
    physnets = {p.physical_network
                for p in db.get_ports_by_portgroup_id(portgroup.id)
                if p.id != port_id}
    if not physnets:
        if portgroup.physical_network is None:
            return
        physnets = {portgroup.physical_network}
    expected = physnets.pop()
    if physical_network != expected:
        raise exception.Conflict(
            'Port with physical network %s cannot become a member of port '
            'group %s which has ports in physical network %s.'
            % (physical_network, portgroup.uuid, expected))


def _check_portgroup(db, portgroup_id, node_id, pxe_enabled,
                     physical_network=None, port_id=None):
    """A port in group ``portgroup_id`` must be on the group's node and
    on its physical network, and may boot on its own only if the group
    supports standalone ports."""
    if portgroup_id is None:
        return
    portgroup = db.get_portgroup_by_id(portgroup_id)
    if portgroup.node_id != node_id:
        node = db.get_node_by_id(node_id)
        raise exception.PortgroupNodeMismatch(
            portgroup=portgroup.uuid, node=node.uuid,
            field='portgroup_uuid')
    if pxe_enabled and not portgroup.standalone_ports_supported:
        # Ironic's answer: 409 Conflict.
        raise exception.Conflict(
            'Port group %s doesn\'t support standalone ports: a port with '
            '\'pxe_enabled\' set to True cannot be a member of it.'
            % portgroup.uuid)
    _check_physnet(db, portgroup, physical_network, port_id)


def create_port(context, node_id, values):
    _check(values)
    with locks.acquire(context, node_id, purpose='port create'):
        values = dict(values, node_id=node_id)
        db = db_api.get_instance()
        _check_portgroup(db, values.get('portgroup_id'), node_id,
                         values.get('pxe_enabled', True),
                         values.get('physical_network'))
        return db.create_port(values).uuid


def update_port(context, node_id, port_id, values):
    _check(values)
    db = db_api.get_instance()
    with locks.acquire(context, node_id, purpose='port update') as task:
        port = _check_owner(db, node_id, port_id)
        if values.get('portgroup_id', port.portgroup_id) != \
                port.portgroup_id and \
                task.node.provision_state not in PORTGROUP_CHANGE_STATES \
                and not task.node.maintenance:
            raise exception.InvalidState(
                'Port %s can only join or leave a port group while node %s '
                'is in the %s states or in maintenance; it is in state '
                '"%s".' % (port.uuid, task.node.uuid,
                           ', '.join(sorted(PORTGROUP_CHANGE_STATES)),
                           task.node.provision_state))
        if {'portgroup_id', 'node_id', 'pxe_enabled',
                'physical_network'} & set(values):
            _check_portgroup(
                db, values.get('portgroup_id', port.portgroup_id),
                values.get('node_id', node_id),
                values.get('pxe_enabled', port.pxe_enabled),
                values.get('physical_network', port.physical_network),
                port.id)
        if 'node_id' in values and values['node_id'] != node_id:
            # Moving a port between nodes: lock the target node too.
            with locks.acquire(context, values['node_id'],
                               purpose='port update'):
                return db.update_port(port_id, values).uuid
        if 'address' in values and task.node.provision_state in (
                states.ACTIVE,) and not task.node.maintenance:
            raise exception.InvalidState(
                'Cannot change the address of a port of active node %s '
                'unless it is in maintenance.' % task.node.uuid)
        return db.update_port(port_id, values).uuid


def destroy_port(context, node_id, port_id):
    with locks.acquire(context, node_id, purpose='port deletion'):
        db = db_api.get_instance()
        _check_owner(db, node_id, port_id)
        db.destroy_port(port_id)
