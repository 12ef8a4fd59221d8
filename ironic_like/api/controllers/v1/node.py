"""/v1/nodes: list, show, create, change (JSON patch) and delete nodes.

Changes go to the node's conductor over RPC, which returns nothing we
use: the node is read back from the database for the answer.
"""

from oslo_utils import uuidutils
import pecan
from pecan import rest

from ironic_like.api.controllers.v1.accelerators import node as \
    node_accelerators
from ironic_like.api.controllers.v1 import allocation
from ironic_like.api.controllers.v1 import collection
from ironic_like.api.controllers.v1 import node_bios
from ironic_like.api.controllers.v1 import node_children
from ironic_like.api.controllers.v1 import node_firmware
from ironic_like.api.controllers.v1 import node_history
from ironic_like.api.controllers.v1 import node_inventory
from ironic_like.api.controllers.v1 import node_maintenance
from ironic_like.api.controllers.v1 import node_management
from ironic_like.api.controllers.v1 import node_patch_policy
from ironic_like.api.controllers.v1 import node_self_owned
from ironic_like.api.controllers.v1 import node_states
from ironic_like.api.controllers.v1 import node_traits
from ironic_like.api.controllers.v1 import node_validate
from ironic_like.api.controllers.v1 import node_vifs
from ironic_like.api.controllers.v1 import node_vmedia
from ironic_like.api.controllers.v1 import port
from ironic_like.api.controllers.v1 import portgroup
from ironic_like.api.controllers.v1 import vendor_passthru
from ironic_like.api.controllers.v1 import utils
from ironic_like.api.controllers.v1 import volume
from ironic_like.api import links
from ironic_like.api import patching
from ironic_like.api.schemas import node as schema
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.api.views import base as view_base
from ironic_like.api.views import chassis as chassis_view
from ironic_like.api.views import node as node_view
from ironic_like.common import exception
from ironic_like.common import faults
from ironic_like.common.hostos import selector as hostos_selector
from ironic_like.common import policy
from ironic_like.common import states
from ironic_like.db.sqlalchemy import api as sa_api

# Filters of GET /v1/nodes and the version each appeared in.
FILTERS = {
    'provision_state': versions.MIN_VERSION,
    'maintenance': versions.MIN_VERSION,
    'associated': versions.MIN_VERSION,
    'instance_uuid': versions.MIN_VERSION,
    'driver': versions.DRIVER_FILTER,
    'resource_class': versions.RESOURCE_CLASS,
    'conductor_group': versions.CONDUCTOR_GROUP,
    'owner': versions.OWNER,
    'fault': versions.NODE_FAULT,
    'retired': versions.RETIRED,
    'lessee': versions.LESSEE,
    'shard': versions.NODE_SHARD,
    'sharded': versions.NODE_SHARD,
    'instance_name': versions.INSTANCE_NAME,
}
# Filters Ironic applies without a version check: description_contains
# (a substring of the description), project (owned or leased by it); and
# conductor (1.49, the conductor the hash ring gives the node to).
OTHER_FILTERS = ('description_contains', 'project', 'conductor')
LIST_PARAMS = frozenset(utils.PAGING_PARAMS + ('fields', 'detail')
                        + tuple(FILTERS) + node_children.FILTERS
                        + ('label_selector', 'chassis_uuid')
                        + OTHER_FILTERS)
# GET /v1/chassis/{uuid}/nodes: the chassis is in the path.
CHASSIS_NODES_PARAMS = LIST_PARAMS - {'chassis_uuid'}
_BOOL_FILTERS = ('maintenance', 'associated', 'retired', 'sharded')
# Stored forms: empty dicts, not null; lower-case conductor groups (Ironic
# matches them case-insensitively).
_normalize = utils.Normalizer(
    schema.FIELDS,
    ['driver_info', 'properties', 'extra', 'instance_info', 'labels',
     'network_data'],
    {'conductor_group': lambda group: (group or '').lower(),
     # Not null in the database: a removed flag is false.
     'protected': bool, 'retired': bool, 'disable_power_off': bool})
# What a field removed by a PATCH becomes.
DEFAULTS = _normalize.defaults

_CREATE_VALIDATOR = validation.make_validator(schema.CREATE_BODY)
_FIELD_VALIDATORS = {name: validation.make_validator(body)
                     for name, body in schema.FIELD_BODIES.items()}


def _check_network_data_patch(patch):
    """A whole network_data a PATCH sets (add or replace of /network_data)
    is checked as given, as Ironic does: a document, not {} or null,
    which creation accepts (remove clears the field)."""
    for op in patch:
        if op['path'] != '/network_data' or op['op'] not in ('add',
                                                             'replace'):
            continue
        value = op['value']
        if value is None or value == {}:
            raise exception.InvalidParameterValue(
                err='Value: %s. A PATCH sets a whole document (links, '
                    'networks and services); remove clears it.'
                    % ('null' if value is None else '{}'),
                field='network_data')
        utils.validate(_FIELD_VALIDATORS['network_data'],
                       {'network_data': value})


def _sync_instance_name(node, changes):
    """An instance_info change naming the instance (Nova's
    display_name) also sets instance_name when none is set, as Ironic
    keeps them in step (API 1.104)."""
    if 'instance_info' not in changes or 'instance_name' in changes:
        return
    display_name = (changes['instance_info'] or {}).get('display_name')
    if display_name and not node.instance_name and \
            isinstance(display_name, str):
        changes['instance_name'] = display_name[:255]


def _filters(params):
    filters = {}
    for name, since in FILTERS.items():
        value = params.get(name)
        if value is None:
            continue
        utils.require_version(since, 'The %s filter' % name)
        if name in _BOOL_FILTERS:
            value = utils.parse_bool(name, value)
        elif name == 'instance_uuid' and not uuidutils.is_uuid_like(value):
            raise exception.InvalidUUID(uuid=value, field=name)
        elif name == 'conductor_group':
            value = value.lower()
        elif name == 'shard':
            # Ironic's: a comma-separated list, any of them.
            value = utils.parse_shards(value)
        elif name == 'fault' and value not in faults.VALID_FAULTS:
            raise exception.InvalidParameterValue(
                err='Unknown fault "%s": use one of %s.'
                    % (value, ', '.join(sorted(faults.VALID_FAULTS))),
                field='fault')
        filters[name] = value
    if params.get('description_contains') is not None:
        filters['description_contains'] = params['description_contains']
    text = params.get('label_selector')
    if text is not None:
        # Ours (no microversion): a Kubernetes selector over the labels.
        if not text.strip():
            raise exception.InvalidParameterValue(
                err='label_selector is empty: give a selector such as '
                    '"env=prod,tier in (web,db),!legacy".',
                field='label_selector')
        filters['label_selector'] = hostos_selector.parse(
            text, 'label_selector')
    chassis_uuid = params.get('chassis_uuid')
    if chassis_uuid is not None:
        if not uuidutils.is_uuid_like(chassis_uuid):
            raise exception.InvalidUUID(uuid=chassis_uuid,
                                        field='chassis_uuid')
        # Ironic's database layer looks the chassis up, so an unknown
        # chassis is a 404 ChassisNotFound there, not a 400: the same here.
        filters['chassis_id'] = utils.dbapi().get_chassis_by_uuid(
            chassis_uuid).id
    filters.update(node_children.list_filters(params))
    return filters


def _chassis_id(chassis_uuid):
    """The id of the chassis a body names (None for none). An unknown
    chassis is a bad request naming chassis_uuid (400, as Ironic), not a
    missing resource."""
    if chassis_uuid is None:
        return None
    try:
        return utils.dbapi().get_chassis_by_uuid(chassis_uuid).id
    except exception.ChassisNotFound:
        raise exception.InvalidParameterValue(
            err='Chassis %s could not be found.' % chassis_uuid,
            field='chassis_uuid')


def _chassis_uuid(node):
    """The UUID of the node's chassis (None if in none): chassis_uuid
    is not a column of the node."""
    if node.chassis_id is None:
        return None
    return utils.dbapi().get_chassis_uuids([node.chassis_id]).get(
        node.chassis_id)


class _NodeRenderer(object):
    """The view of one request, with the look-ups its fields need."""

    def __init__(self, fields=None, detail=True):
        self.allocations = node_view.AllocationUuids(utils.dbapi())
        self.chassis = node_view.ChassisUuids(utils.dbapi())
        self.view = node_view.view(utils.version(), utils.public_url(),
                                   utils.owner_lookup(), fields=fields,
                                   detail=detail,
                                   allocation_uuid_of=self.allocations,
                                   chassis_uuid_of=self.chassis)
        self.columns = self.view.columns

    def render_all(self, nodes):
        if 'allocation_uuid' in self.view.names:
            self.allocations.load(nodes)
        if 'chassis_uuid' in self.view.names:
            self.chassis.load(nodes)
        render = self.view.render
        return [render(node) for node in nodes]

    def render(self, node):
        return self.render_all([node])[0]


def _view(fields=None, detail=True):
    return _NodeRenderer(fields, detail)


# The node sub-resources that came after 1.1, with their version.
_SUBRESOURCE_SINCE = {
    'traits': versions.TRAITS,
    'portgroups': versions.PORTGROUPS,
    'vifs': node_vifs.VIFS,
    'volume': volume.VOLUME,
    'bios': versions.BIOS_INTERFACE,
    'history': versions.NODE_HISTORY,
    'inventory': versions.NODE_INVENTORY,
    'children': versions.PARENT_CHILD_NODES,
    'firmware': versions.FIRMWARE_INTERFACE,
    'vmedia': versions.VMEDIA,
}


class NodesController(rest.RestController):

    _custom_actions = {'detail': ['GET']}

    _subcontrollers = {
        'states': node_states.NodeStatesController,
        'maintenance': node_maintenance.NodeMaintenanceController,
        'traits': node_traits.NodeTraitsController,
        'ports': port.NodePortsController,
        'portgroups': portgroup.NodePortgroupsController,
        'allocation': allocation.NodeAllocationController,
        # Driver interfaces: validation, management, BIOS (1.40).
        'validate': node_validate.NodeValidateController,
        'management': node_management.NodeManagementController,
        'bios': node_bios.NodeBiosController,
        # Its history of errors and faults (1.78).
        'history': node_history.NodeHistoryController,
        # What its agent reported at its last inspection (1.81).
        'inventory': node_inventory.NodeInventoryController,
        # The nodes it is the parent of (1.83).
        'children': node_children.NodeChildrenController,
        # Its firmware components (1.86).
        'firmware': node_firmware.NodeFirmwareController,
        # Its virtual media (1.89).
        'vmedia': node_vmedia.NodeVmediaController,
        # Its VIFs (1.28), recorded on its ports and port groups.
        'vifs': node_vifs.NodeVIFsController,
        # Its volume connectors and targets (1.32, read only here).
        'volume': volume.VolumeController,
        # Its accelerators (no microversion; see accelerators/node.py).
        'accelerators': node_accelerators.NodeAcceleratorsController,
        # Its vendor passthru methods, and the agent's heartbeat in the
        # vendor passthru form (see ramdisk).
        'vendor_passthru': vendor_passthru.NodeVendorPassthruController,
    }

    @pecan.expose()
    def _lookup(self, ident, *remainder):
        if not remainder:
            return None
        sub = self._subcontrollers.get(remainder[0])
        if sub is None:
            return None
        since = _SUBRESOURCE_SINCE.get(remainder[0])
        if since is not None:
            # The endpoint did not exist yet: 404 whatever the method.
            utils.hide_below(since)
        return sub(ident), remainder[1:]

    # -- reading ---------------------------------------------------------

    @pecan.expose('json')
    def get_all(self, **kwargs):
        return self._list(detail_path=False)

    @pecan.expose('json')
    def detail(self, **kwargs):
        return self._list(detail_path=True)

    def _list(self, detail_path, extra_filters=None, path='nodes',
              param_names=LIST_PARAMS):
        """A page of nodes; ``extra_filters`` and ``path`` (of the next
        link) are those of a sub-resource (/v1/chassis/{uuid}/nodes)."""
        params = utils.query(param_names)
        ctx = utils.context()
        policy.authorize('baremetal:node:list', {}, ctx)
        fields = view_base.parse_fields(
            utils.fields_param(params, detail_path))
        detail = utils.parse_detail(params, detail_path)
        filters = _filters(params)
        filters.update(extra_filters or {})
        limit, sort_key, sort_dir, marker = utils.parse_page(
            params, sa_api.NODE_SORT_KEYS)
        if detail_path:
            path += '/detail'
        project = params.get('project')
        if not policy.check('baremetal:node:list_all', {}, ctx):
            # Project-scoped users see the nodes their project owns or
            # leases, nothing else (another project: 403, as Ironic).
            if not ctx.project_id:
                return {'nodes': []}
            if project is not None and project != ctx.project_id:
                raise exception.HTTPForbidden(
                    resource='baremetal:node:list_all')
            project = ctx.project_id
        if project is not None:
            filters['project'] = project
        conductor = params.get('conductor')
        if conductor is not None:
            utils.require_version(versions.CONDUCTORS,
                                  'The conductor filter')
        view = _view(fields, detail)
        columns = None
        if not detail or fields is not None:
            # Short form and ?fields= load only the columns they show
            # (and what the conductor filter needs).
            columns = sorted(view.columns | {'uuid'} | (
                {'driver', 'conductor_group'} if conductor else set()))
        nodes = utils.dbapi().get_node_list(
            filters=filters, limit=limit, marker=marker, sort_key=sort_key,
            sort_dir=sort_dir, columns=columns)
        last = nodes[-1].uuid if nodes else None
        full_page = bool(limit) and len(nodes) >= limit
        if conductor is not None:
            # As Ironic: the page is filtered once read (the ring, not the
            # database, knows which conductor a node has); the next link
            # follows the page read, so no node is skipped.
            owner_of = utils.owner_lookup()
            nodes = [n for n in nodes if owner_of(n) == conductor]
        body = collection.list_body('nodes', view.render_all(nodes), limit,
                                    path, last, params)
        if full_page and 'next' not in body:
            body['next'] = collection.next_link(path, limit, last, params)
        return body

    @pecan.expose('json')
    def get_one(self, ident, **kwargs):
        params = utils.query(['fields'])
        fields = view_base.parse_fields(utils.fields_param(params))
        node = utils.get_authorized_node(ident, 'baremetal:node:get')
        return _view(fields).render(node)

    # -- writing ---------------------------------------------------------

    @pecan.expose('json')
    def post(self, **kwargs):
        utils.query()
        ctx = utils.context()
        self_owned = node_self_owned.authorize_create(ctx)
        body = utils.load_body()
        utils.check_body_fields(body, schema.CREATE_FIELDS,
                                node_view.FIELDS, 'node')
        utils.validate(_CREATE_VALIDATOR, body, string_booleans=True)
        values = _normalize(dict(body))
        if self_owned:
            node_self_owned.set_owner(ctx, values)
        if 'chassis_uuid' in values:
            values['chassis_id'] = _chassis_id(values.pop('chassis_uuid'))
        node_uuid = values.get('uuid') or uuidutils.generate_uuid()
        values['uuid'] = node_uuid
        if values.get('parent_node') is not None:
            values['parent_node'] = node_children.resolve_parent(
                values['parent_node'], node_uuid, values.get('owner'))
        if not utils.allowed(versions.ENROLL_ON_CREATE):
            # Before 1.11 Ironic put new nodes straight into available.
            values['provision_state'] = states.AVAILABLE
        try:
            utils.rpcapi().create_node(ctx, values)
        except exception.NoValidHost as e:
            e.field = 'driver'
            raise
        node = utils.dbapi().get_node_by_uuid(node_uuid)
        utils.set_status(201)
        utils.set_location(links.build_url(utils.public_url(),
                                           'nodes/%s' % node_uuid))
        return _view().render(node)

    @pecan.expose('json')
    def patch(self, ident=None, **kwargs):
        utils.require_ident(ident)
        params = utils.query(['reset_interfaces'])
        reset = utils.parse_bool('reset_interfaces',
                                 params.get('reset_interfaces'))
        if reset is not None:
            utils.require_version(versions.RESET_INTERFACES,
                                  'The reset_interfaces parameter')
        patch = utils.load_body(list)
        version = utils.version()
        writable = {name for name in schema.PATCH_FIELDS
                    if node_view.FIELDS[name].since <= version}
        patching.check(patch, node_view.FIELDS, version, writable,
                       schema.MANDATORY)
        # One rule per field the patch touches (Ironic's per-field rules).
        node = node_patch_policy.authorize(ident, patch)
        _check_network_data_patch(patch)
        before = node_view.raw_values(node, writable,
                                      {'chassis_uuid': _chassis_uuid})
        after = patching.apply(before, patch)
        changes = patching.changes(before, after, DEFAULTS)
        for name, value in changes.items():
            changes[name] = utils.validate(_FIELD_VALIDATORS[name],
                                           {name: value},
                                           string_booleans=True)[name]
        changes = _normalize(changes)
        if 'chassis_uuid' in changes:
            chassis_uuid = changes.pop('chassis_uuid')
            if chassis_uuid is None and \
                    not utils.allowed(chassis_view.UNSET_CHASSIS_UUID):
                # Ironic's answer (NotAcceptable), by remove or by null.
                raise exception.NotAcceptable(
                    'Removing chassis_uuid needs API version %s or later.'
                    % versions.to_string(chassis_view.UNSET_CHASSIS_UUID),
                    field='chassis_uuid')
            changes['chassis_id'] = _chassis_id(chassis_uuid)
        if reset and 'driver' not in changes:
            raise exception.InvalidParameterValue(
                err='The reset_interfaces parameter can only be used when '
                    'changing the node\'s driver.',
                field='reset_interfaces')
        node_patch_policy.check_owner_change(node, changes)
        _sync_instance_name(node, changes)
        if 'parent_node' in changes:
            changes['parent_node'] = node_children.resolve_parent(
                changes['parent_node'], node.uuid,
                changes.get('owner', node.owner))
        if changes:
            utils.rpcapi().update_node(utils.context(), node, changes,
                                       reset_interfaces=bool(reset))
            node = utils.dbapi().get_node_by_id(node.id)
        return _view().render(node)

    @pecan.expose('json')
    def delete(self, ident=None, **kwargs):
        utils.require_ident(ident)
        utils.query()
        node = node_self_owned.get_deletable_node(ident)
        utils.rpcapi().destroy_node(utils.context(), node)
        utils.set_status(204)
