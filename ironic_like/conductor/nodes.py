"""Creating, changing and deleting nodes, on the node's owner."""

from oslo_log import log

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import allocations
from ironic_like.conductor.flows import polled_steps
from ironic_like.conductor import instance_images
from ironic_like.conductor import locks
from ironic_like.conductor import node_flags
from ironic_like.conductor import settable
from ironic_like.conductor import vmedia_images
from ironic_like.conf import CONF
from ironic_like.db import api as db_api
from ironic_like.db.sqlalchemy import hostos as hostos_db
from ironic_like.drivers import base
from ironic_like.drivers import loader
from ironic_like.drivers.modules import ipxe

LOG = log.getLogger(__name__)

# Columns the API may set on create or update; anything else is refused.
SETTABLE_FIELDS = frozenset([
    'name', 'description', 'driver', 'driver_info', 'instance_info',
    'instance_uuid', 'properties', 'extra', 'labels', 'resource_class',
    'conductor_group', 'owner', 'lessee', 'maintenance_reason',
    'chassis_id', 'automated_clean', 'protected', 'protected_reason',
    'retired', 'retired_reason', 'network_data', 'shard',
    'parent_node', 'disable_power_off', 'instance_name',
] + ['%s_interface' % kind for kind in base.INTERFACE_KINDS])


def _check_fields(values):
    settable.check(values, SETTABLE_FIELDS | {'uuid', 'provision_state',
                                              'power_state'})


def create_node(context, values):
    _check_fields(values)
    # Loading the driver here proves the owner can manage the node.
    loader.interface_names(values)
    values = dict(values)
    values.setdefault('provision_state', states.ENROLL)
    # The API routed the creation to the node's owner on the ring: this
    # conductor. Claiming it now spares the take-over pass the work.
    values['conductor_affinity'] = CONF.host
    values.setdefault('power_state', states.NOSTATE)
    dbapi = db_api.get_instance()
    node = dbapi.create_node(values)
    LOG.info('Node %s created with driver %s', node.uuid, node.driver)
    if node.labels:
        # Host OS configurations selecting the new node get their items.
        _sync_labelled(node)
    return node.uuid


def update_node(context, node_id, values, reset_interfaces=False):
    _check_fields(values)
    values = dict(values)
    with locks.acquire(context, node_id, purpose='node update') as task:
        node = task.node
        node_flags.check_update(node, values)
        changes_driver = ('driver' in values and
                          values['driver'] != node.driver)
        touches_ifaces = changes_driver or any(
            '%s_interface' % k in values for k in base.INTERFACE_KINDS)
        if touches_ifaces:
            if node.provision_state not in states.UPDATE_ALLOWED_STATES:
                raise exception.InvalidState(
                    'Cannot change the driver or interfaces of node %s '
                    'while it is in state "%s".'
                    % (node.uuid, node.provision_state))
            merged = {'driver': values.get('driver', node.driver)}
            for kind in base.INTERFACE_KINDS:
                key = '%s_interface' % kind
                if key in values:
                    merged[key] = values[key]
                elif changes_driver and reset_interfaces:
                    merged[key] = None
                    values[key] = None
                else:
                    merged[key] = getattr(node, key)
            loader.interface_names(merged)
        if 'instance_uuid' in values and values['instance_uuid'] and \
                node.instance_uuid and \
                values['instance_uuid'] != node.instance_uuid:
            raise exception.NodeAssociated(node=node.uuid,
                                           instance=node.instance_uuid)
        if 'conductor_group' in values:
            values['conductor_group'] = values['conductor_group'] or ''
        if ('instance_uuid' in values and not values['instance_uuid']
                and node.allocation_id is not None):
            # Seed 004: unsetting instance_uuid deletes the allocation.
            allocations.check_deletable(node)
            task.node = db_api.get_instance().release_node_instance(node.id)
            values.pop('instance_uuid')
            values.pop('instance_info', None)
        task.update_node(values)
        if 'labels' in values:
            _sync_labelled(node)
    return node.uuid


def _sync_labelled(node):
    """Only this node is evaluated against the configurations (the label
    index spares the others): it gains or loses items. The node and its
    labels are stored already; a sync the database still refuses after
    its retries (a deadlock, a lost connection, a race on an item) is left
    to the periodic reconciliation ([hostos]reconcile_interval) rather
    than failing a creation or a change that was made, which a client
    would then send again."""
    try:
        db_api.get_instance().sync_hostos_items(node_ids=[node.id])
    except hostos_db.SYNC_LEFT_FOR_LATER as e:
        LOG.warning('Host OS items of node %(node)s not synced after its '
                    'labels were set (the next reconciliation will): '
                    '%(error)s', {'node': node.uuid, 'error': e})


def destroy_node(context, node_id):
    with locks.acquire(context, node_id, purpose='node deletion') as task:
        node = task.node
        node_flags.check_destroy(node)
        if node.instance_uuid and not node.maintenance:
            raise exception.NodeAssociated(node=node.uuid,
                                           instance=node.instance_uuid)
        if (node.provision_state not in states.DELETE_ALLOWED_STATES
                and not node.maintenance):
            raise exception.InvalidState(
                'Can not delete node "%s" while it is in provision state '
                '"%s". Valid provision states to perform deletion are: %s, '
                'or put the node in maintenance mode.'
                % (node.uuid, node.provision_state,
                   ', '.join(sorted(states.DELETE_ALLOWED_STATES))))
        macs = [port.address for port in task.ports]
        # A step it waited for (in maintenance): what the interface kept
        # on this conductor for it goes (a staged firmware image).
        polled_steps.abandon(task)
        db_api.get_instance().destroy_node(node.id)
    # The virtual media, instance images and boot files this conductor
    # served for it, if any.
    vmedia_images.unpublish(node.uuid)
    instance_images.remove(node.uuid)
    ipxe.remove_node_files(node.uuid, macs)
    LOG.info('Node %s deleted', node.uuid)


def set_maintenance(context, node_id, mode, reason=None):
    with locks.acquire(context, node_id, purpose='maintenance') as task:
        if mode:
            task.update_node({'maintenance': True,
                              'maintenance_reason': reason})
        else:
            # The fault was the reason the service set maintenance.
            task.update_node({'maintenance': False,
                              'maintenance_reason': None, 'fault': None})


def set_node_traits(context, node_id, traits):
    with locks.acquire(context, node_id, purpose='set traits') as task:
        task.update_node({'traits': list(traits)})


def add_node_trait(context, node_id, trait):
    with locks.acquire(context, node_id, purpose='add trait') as task:
        db_api.get_instance().add_node_trait(task.node.id, trait)


def remove_node_traits(context, node_id, traits=None):
    with locks.acquire(context, node_id, purpose='remove traits') as task:
        db = db_api.get_instance()
        if traits is None:
            task.update_node({'traits': []})
            return
        for trait in traits:
            db.delete_node_trait(task.node.id, trait)
