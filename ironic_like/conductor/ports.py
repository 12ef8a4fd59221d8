"""Creating, changing and deleting ports, under their node's lock."""

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import locks
from ironic_like.db import api as db_api

SETTABLE_FIELDS = frozenset(['address', 'extra', 'pxe_enabled',
                             'local_link_connection', 'physical_network',
                             'uuid', 'node_id'])


def _check(values):
    unknown = set(values) - SETTABLE_FIELDS
    if unknown:
        field = sorted(unknown)[0]
        raise exception.InvalidParameterValue(
            err='Field "%s" of a port cannot be set.' % field, field=field)


def _check_owner(db, node_id, port_id):
    # Only the lock of the port's own node protects it: a port of another
    # node (a caller's mistake or a port moved meanwhile) is not found.
    if db.get_port_by_id(port_id).node_id != node_id:
        raise exception.PortNotFound(port=port_id)


def create_port(context, node_id, values):
    _check(values)
    with locks.acquire(context, node_id, purpose='port create'):
        values = dict(values, node_id=node_id)
        return db_api.get_instance().create_port(values).uuid


def update_port(context, node_id, port_id, values):
    _check(values)
    db = db_api.get_instance()
    with locks.acquire(context, node_id, purpose='port update') as task:
        _check_owner(db, node_id, port_id)
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
