"""Creating, changing and deleting volume connectors and targets, under
their node's lock.

Ironic's state rules: a connector or target is changed only while its node
is powered off (the storage interface may have it attached to a running
node), and deleted while the node is powered off or in a state where the
node itself could be deleted (enroll, manageable, adopt failed: nothing
uses the volumes there). Maintenance does not lift either rule, and
creation has none. A refusal is InvalidStateRequested (400), as Ironic's.
"""

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import locks
from ironic_like.db import api as db_api

CONNECTOR_FIELDS = frozenset(['uuid', 'node_id', 'type', 'connector_id',
                              'extra'])
TARGET_FIELDS = frozenset(['uuid', 'node_id', 'volume_type', 'properties',
                           'boot_index', 'volume_id', 'extra'])

# Ironic's states.DELETE_ALLOWED_STATES, which its volume deletion checks;
# not this project's node-deletion set, which also admits available and
# failed nodes (a failed deploy or clean may leave volumes attached).
DELETE_STATES = frozenset([states.ENROLL, states.MANAGEABLE,
                           states.ADOPTFAIL])


class _Kind(object):
    """What differs between connectors and targets."""

    def __init__(self, name, fields, get, create, update, destroy,
                 not_found):
        self.name = name
        self.fields = fields
        self.get = get
        self.create = create
        self.update = update
        self.destroy = destroy
        self.not_found = not_found


_CONNECTOR = _Kind('volume connector', CONNECTOR_FIELDS,
                   'get_volume_connector_by_id', 'create_volume_connector',
                   'update_volume_connector', 'destroy_volume_connector',
                   lambda ident: exception.VolumeConnectorNotFound(
                       connector=ident))
_TARGET = _Kind('volume target', TARGET_FIELDS,
                'get_volume_target_by_id', 'create_volume_target',
                'update_volume_target', 'destroy_volume_target',
                lambda ident: exception.VolumeTargetNotFound(target=ident))


def _check(kind, values):
    unknown = set(values) - kind.fields
    if unknown:
        field = sorted(unknown)[0]
        raise exception.InvalidParameterValue(
            err='Field "%s" of a %s cannot be set.' % (field, kind.name),
            field=field)


def _owned(db, kind, node_id, row_id):
    # Only the lock of its own node protects a row: one of another node
    # (moved meanwhile, or a caller's mistake) is not found.
    row = getattr(db, kind.get)(row_id)
    if row.node_id != node_id:
        raise kind.not_found(row_id)
    return row


def _require_powered_off(node, action):
    if node.power_state != states.POWER_OFF:
        raise exception.InvalidStateRequested(
            action=action, node=node.uuid, state=node.power_state)


def _create(kind, context, node_id, values):
    _check(kind, values)
    with locks.acquire(context, node_id, purpose='%s create' % kind.name):
        values = dict(values, node_id=node_id)
        db = db_api.get_instance()
        return getattr(db, kind.create)(values).uuid


def _update(kind, context, node_id, row_id, values):
    _check(kind, values)
    db = db_api.get_instance()
    action = '%s update' % kind.name
    with locks.acquire(context, node_id, purpose=action) as task:
        _owned(db, kind, node_id, row_id)
        _require_powered_off(task.node, action)
        new_node_id = values.get('node_id', node_id)
        if new_node_id == node_id:
            return getattr(db, kind.update)(row_id, values).uuid
        # Moving to another node: that node is locked and must be powered
        # off too (Ironic checks the node the row ends up on).
        with locks.acquire(context, new_node_id, purpose=action) as target:
            _require_powered_off(target.node, action)
            return getattr(db, kind.update)(row_id, values).uuid


def _destroy(kind, context, node_id, row_id):
    db = db_api.get_instance()
    action = '%s deletion' % kind.name
    with locks.acquire(context, node_id, purpose=action) as task:
        _owned(db, kind, node_id, row_id)
        if task.node.provision_state not in DELETE_STATES:
            _require_powered_off(task.node, action)
        getattr(db, kind.destroy)(row_id)


def create_volume_connector(context, node_id, values):
    return _create(_CONNECTOR, context, node_id, values)


def update_volume_connector(context, node_id, connector_id, values):
    return _update(_CONNECTOR, context, node_id, connector_id, values)


def destroy_volume_connector(context, node_id, connector_id):
    _destroy(_CONNECTOR, context, node_id, connector_id)


def create_volume_target(context, node_id, values):
    return _create(_TARGET, context, node_id, values)


def update_volume_target(context, node_id, target_id, values):
    return _update(_TARGET, context, node_id, target_id, values)


def destroy_volume_target(context, node_id, target_id):
    _destroy(_TARGET, context, node_id, target_id)
