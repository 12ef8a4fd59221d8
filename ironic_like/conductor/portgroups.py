"""Creating, changing and deleting port groups, under their node's lock.

The same rules as ports (conductor/ports.py): only the lock of the
group's own node protects it, and the address of a deployed node's group
changes only in maintenance. As in Ironic, a group moves to another node
only while both nodes are in a state where nothing is wired to it
(enroll, manageable, inspecting) or in maintenance, and only empty: its
ports stay on their node.
"""

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import locks
from ironic_like.conductor import settable
from ironic_like.db import api as db_api

SETTABLE_FIELDS = frozenset(['uuid', 'name', 'address', 'extra',
                             'standalone_ports_supported', 'mode',
                             'properties', 'node_id', 'physical_network',
                             'category'])

# Where a group may be moved between nodes without maintenance (Ironic's
# list; inspect wait does not exist here).
MOVE_ALLOWED_STATES = frozenset([states.ENROLL, states.MANAGEABLE,
                                 states.INSPECTING])


def _check(values):
    settable.check(values, SETTABLE_FIELDS, 'a port group')


def _owned(db, node_id, portgroup_id):
    """The group, if it is still the locked node's; a group of another
    node (moved meanwhile, or a caller's mistake) is not found."""
    portgroup = db.get_portgroup_by_id(portgroup_id)
    if portgroup.node_id != node_id:
        raise exception.PortgroupNotFound(portgroup=portgroup_id)
    return portgroup


def _check_move(node, portgroup):
    if node.provision_state in MOVE_ALLOWED_STATES or node.maintenance:
        return
    raise exception.InvalidState(
        'Port group %(pg)s can only be moved between nodes in the %(ok)s '
        'states or in maintenance; node %(node)s is in state '
        '"%(state)s".' % {'pg': portgroup.uuid,
                          'ok': ', '.join(sorted(MOVE_ALLOWED_STATES)),
                          'node': node.uuid,
                          'state': node.provision_state})


def _check_standalone(db, portgroup):
    # A group that does not support standalone ports cannot have a member
    # that boots on its own (Ironic answers 409 Conflict).
    for port in db.get_ports_by_portgroup_id(portgroup.id):
        if port.pxe_enabled:
            raise exception.Conflict(
                'standalone_ports_supported can not be set to False, '
                'because the port group %s contains port %s with '
                '\'pxe_enabled\' set to True.'
                % (portgroup.uuid, port.uuid))


def create_portgroup(context, node_id, values):
    _check(values)
    with locks.acquire(context, node_id, purpose='portgroup create'):
        values = dict(values, node_id=node_id)
        return db_api.get_instance().create_portgroup(values).uuid


def update_portgroup(context, node_id, portgroup_id, values):
    _check(values)
    db = db_api.get_instance()
    with locks.acquire(context, node_id,
                       purpose='portgroup update') as task:
        portgroup = _owned(db, node_id, portgroup_id)
        if values.get('address') not in (None, portgroup.address) and \
                task.node.provision_state == states.ACTIVE and \
                not task.node.maintenance:
            raise exception.InvalidState(
                'Cannot change the address of a port group of active node '
                '%s unless it is in maintenance.' % task.node.uuid)
        if values.get('standalone_ports_supported') is False:
            _check_standalone(db, portgroup)
        new_node_id = values.get('node_id', node_id)
        if new_node_id == node_id:
            return db.update_portgroup(portgroup_id, values).uuid
        _check_move(task.node, portgroup)
        if db.get_ports_by_portgroup_id(portgroup_id):
            raise exception.PortgroupNotEmpty(portgroup=portgroup.uuid)
        # Moving a group between nodes: lock the target node too.
        with locks.acquire(context, new_node_id,
                           purpose='portgroup update') as target:
            _check_move(target.node, portgroup)
            return db.update_portgroup(portgroup_id, values).uuid


def destroy_portgroup(context, node_id, portgroup_id):
    db = db_api.get_instance()
    with locks.acquire(context, node_id, purpose='portgroup deletion'):
        _owned(db, node_id, portgroup_id)
        db.destroy_portgroup(portgroup_id)
