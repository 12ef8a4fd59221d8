"""/v1/ports and /v1/nodes/{id}/ports.

Ports are looked up by UUID only (Ironic added port names much later).
Writes go to the conductor of the port's node, under the node's lock.
"""

from oslo_utils import uuidutils
import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import collection
from ironic_like.api.controllers.v1 import portgroup_utils
from ironic_like.api.controllers.v1 import utils
from ironic_like.api import links
from ironic_like.api import patching
from ironic_like.api.schemas import port as schema
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.api.views import base as view_base
from ironic_like.api.views import port as port_view
from ironic_like.common import exception
from ironic_like.common import policy
from ironic_like.db.sqlalchemy import api as sa_api

_LIST_PARAMS = utils.PAGING_PARAMS + ('fields', 'detail')
_FILTER_PARAMS = ('node', 'node_uuid', 'address', 'portgroup', 'shard',
                  'conductor_groups', 'description_contains')
# Stored forms: empty dicts, not null; PXE enabled unless said otherwise;
# MAC addresses in one spelling.
_normalize = utils.Normalizer(
    schema.FIELDS, ['extra', 'local_link_connection'],
    {'pxe_enabled': lambda enabled: True if enabled is None else enabled,
     'is_smartnic': bool,
     'available_for_dynamic_portgroup':
         lambda available: True if available is None else available,
     'address': validation.normalize_mac})
# What a field removed by a PATCH becomes.
DEFAULTS = _normalize.defaults
# Above this many distinct nodes in a page, one query maps every node id
# to its UUID instead of one query per node.
_PER_NODE_LOOKUPS = 10

_CREATE_VALIDATOR = validation.make_validator(schema.CREATE_BODY)
_FIELD_VALIDATORS = {name: validation.make_validator(body)
                     for name, body in schema.FIELD_BODIES.items()}


def _node_uuids(ports):
    """{node id: node UUID} for the nodes of ``ports``."""
    ids = {p.node_id for p in ports}
    db = utils.dbapi()
    if len(ids) <= _PER_NODE_LOOKUPS:
        found = {}
        for node_id in ids:
            try:
                found[node_id] = db.get_node_by_id(node_id).uuid
            except exception.NodeNotFound:
                pass  # deleted meanwhile, with its ports
        return found
    return {n.id: n.uuid for n in db.get_node_list(columns=['id', 'uuid'])}


def _node_by_uuid(node_uuid, field='node_uuid'):
    """The node a body names; a missing one is a bad request (400), not a
    missing resource."""
    try:
        return utils.dbapi().get_node_by_uuid(node_uuid)
    except exception.NodeNotFound:
        raise exception.InvalidParameterValue(
            err='Node %s could not be found.' % node_uuid, field=field)


def _node_ident_to_uuid(body):
    """A create body naming its node by ``node_ident`` (1.94: a UUID or
    a name) gets the node's ``node_uuid`` instead; both is a 400, as is
    a node that does not exist."""
    if 'node_ident' not in body:
        if 'node_uuid' not in body:
            raise exception.InvalidParameterValue(
                err="Invalid input for field/attribute node_uuid. "
                    "'node_uuid' is a required property (or, from API "
                    "1.94, node_ident).", field='node_uuid')
        return
    utils.require_version(versions.PORT_NODE_IDENT, '"node_ident"')
    ident = body.pop('node_ident')
    if 'node_uuid' in body:
        raise exception.InvalidParameterValue(
            err='Give the node as node_uuid or node_ident, not both.',
            field='node_ident')
    if not isinstance(ident, str) or not ident:
        raise exception.InvalidParameterValue(
            err='node_ident must be the UUID or name of a node.',
            field='node_ident')
    try:
        body['node_uuid'] = utils.get_node(ident).uuid
    except (exception.NodeNotFound, exception.InvalidUuidOrName,
            exception.InvalidUUID):
        raise exception.InvalidParameterValue(
            err='Node %s could not be found.' % ident, field='node_ident')


def _authorize_port(rule, port):
    """The port's node, if ``rule`` allows; 404 for users who may not see
    the node (so ports do not reveal nodes of other projects)."""
    node = utils.dbapi().get_node_by_id(port.node_id)
    utils.authorize_hiding(rule, 'baremetal:node:get',
                           policy.node_target(node),
                           exception.PortNotFound(port=port.uuid))
    return node


def _get_port(ident):
    """A port by UUID, or by name from 1.88 (404 if none)."""
    if uuidutils.is_uuid_like(ident):
        return utils.dbapi().get_port_by_uuid(ident)
    if utils.allowed(versions.PORT_NAME):
        if not validation.is_logical_name(ident):
            raise exception.InvalidUuidOrName(name=ident)
        return utils.by_name(utils.dbapi().get_port_by_name, ident)
    raise exception.InvalidUUID(uuid=ident)


def _portgroup_uuids(ports):
    """{group id: group UUID} for the groups of ``ports`` (one query, none
    when no port is in a group)."""
    return utils.dbapi().get_portgroup_uuids(p.portgroup_id for p in ports)


def _render(port, node, fields=None):
    view = port_view.view(utils.version(), utils.public_url(),
                          {node.id: node.uuid}, fields=fields,
                          portgroup_uuids=_portgroup_uuids([port]))
    return view.render(port)


def _list_portgroup(params, portgroup_ident):
    """The group a list is narrowed to (?portgroup= from 1.24, or the
    group of /v1/portgroups/{id}/ports), with its node; None, None if
    none."""
    ident = portgroup_ident
    if ident is None and params.get('portgroup') is not None:
        utils.require_version(versions.PORTGROUPS, 'The portgroup filter')
        ident = params['portgroup']
    if ident is None:
        return None, None
    portgroup = portgroup_utils.get_portgroup(ident)
    node = portgroup_utils.authorize_portgroup('baremetal:node:get',
                                               portgroup, ident)
    return portgroup, node


def list_ports(detail_path, node_ident=None, portgroup_ident=None):
    """GET of /v1/ports[/detail], /v1/nodes/{id}/ports[/detail] and
    /v1/portgroups/{id}/ports[/detail]."""
    names = (_LIST_PARAMS if node_ident or portgroup_ident
             else _LIST_PARAMS + _FILTER_PARAMS)
    params = utils.query(names)
    ctx = utils.context()
    policy.authorize('baremetal:port:list', {}, ctx)
    fields = view_base.parse_fields(utils.fields_param(params, detail_path))
    detail = utils.parse_detail(params, detail_path)
    limit, sort_key, sort_dir, marker = utils.parse_page(
        params, sa_api.PORT_SORT_KEYS)

    shards = None
    if params.get('shard') is not None:
        # Ironic 1.82: the ports of the nodes in these shards; not with a
        # node or a port group (Ironic's 403 OperationNotPermitted).
        utils.require_version(versions.NODE_SHARD, 'The shard filter')
        shards = utils.parse_shards(params['shard'])
        if any(params.get(name) is not None
               for name in ('node', 'node_uuid', 'portgroup')):
            raise exception.HTTPForbidden(
                resource='the shard filter with a node or port group '
                         'filter (Operation not permitted)')
    portgroup, portgroup_node = _list_portgroup(params, portgroup_ident)
    node = None
    if node_ident is not None:
        node = utils.get_node(node_ident)
    elif params.get('node') is not None and \
            params.get('node_uuid') is not None:
        raise exception.InvalidParameterValue(
            err='Only one of node and node_uuid may be given.',
            field='node')
    elif params.get('node') is not None:
        node = utils.get_node(params['node'])
    elif params.get('node_uuid') is not None:
        if not uuidutils.is_uuid_like(params['node_uuid']):
            raise exception.InvalidUUID(uuid=params['node_uuid'],
                                        field='node_uuid')
        node = utils.dbapi().get_node_by_uuid(params['node_uuid'])
    if node is not None:
        utils.authorize_node('baremetal:node:get', node)
    elif portgroup_node is None and \
            not policy.check('baremetal:port:list_all', {}, ctx):
        # Needs a project filter on ports the database layer lacks yet.
        raise exception.HTTPForbidden(
            resource='baremetal:port:list_all (filter by node to list the '
                     'ports of one of your nodes)')

    filters = {}
    if node is not None:
        filters['node_id'] = node.id
    if portgroup is not None:
        # With a node filter too, both apply (another node's filter finds
        # none of the group's ports).
        filters['portgroup_id'] = portgroup.id
    if params.get('address') is not None:
        filters['address'] = validation.normalize_mac(params['address'])
    if shards is not None:
        filters['node_shards'] = shards
    groups = utils.conductor_groups_filter(
        params, ('node', 'node_uuid', 'portgroup', 'address'))
    if groups is not None:
        filters['node_conductor_groups'] = groups
    if params.get('description_contains') is not None:
        utils.require_version(versions.PORT_DESCRIPTION,
                              'The description_contains filter')
        filters['description_contains'] = params['description_contains']
    ports = utils.dbapi().get_port_list(filters=filters, limit=limit,
                                        marker=marker, sort_key=sort_key,
                                        sort_dir=sort_dir)
    node = node or portgroup_node
    node_uuids = {node.id: node.uuid} if node else _node_uuids(ports)
    view = port_view.view(utils.version(), utils.public_url(), node_uuids,
                          fields=fields, detail=detail,
                          portgroup_uuids=_portgroup_uuids(ports))
    items = [view.render(p) for p in ports]
    if portgroup_ident:
        path = 'portgroups/%s/ports' % portgroup_ident
    elif node_ident:
        path = 'nodes/%s/ports' % node_ident
    else:
        path = 'ports'
    if detail_path:
        path += '/detail'
    last = ports[-1].uuid if ports else None
    return collection.list_body('ports', items, limit, path, last, params)


NodePortsController = collection.read_only_list(
    list_ports, 'node_ident',
    """/v1/nodes/{id}/ports: read only, as in Ironic.""")


# Keys of a local_link_connection that came after the link itself, with
# the versions they are accepted in ([since, until)): a request using one
# outside gets 406, as Ironic answers. The OVN VTEP keys were removed
# again at 1.105.
_LINK_KEYS_VERSIONS = (
    (('network_type',), versions.LLC_NETWORK_TYPE, None),
    (schema.OVN_VTEP_KEYS, versions.OVN_VTEP, versions.OVN_VTEP_REMOVED),
)


def _check_link_version(link):
    if not isinstance(link, dict):
        return
    for keys, since, until in _LINK_KEYS_VERSIONS:
        used = [key for key in keys if key in link]
        if not used:
            continue
        if not utils.allowed(since):
            raise exception.NotAcceptable(
                'local_link_connection/%s needs API version %s or later.'
                % (used[0], versions.to_string(since)),
                field='local_link_connection')
        if until is not None and utils.allowed(until):
            raise exception.NotAcceptable(
                'local_link_connection/%s was removed in API version %s.'
                % (used[0], versions.to_string(until)),
                field='local_link_connection')


class PortsController(rest.RestController):

    _custom_actions = {'detail': ['GET']}

    @pecan.expose('json')
    def get_all(self, **kwargs):
        return list_ports(False)

    @pecan.expose('json')
    def detail(self, **kwargs):
        return list_ports(True)

    @pecan.expose('json')
    def get_one(self, port_uuid, **kwargs):
        params = utils.query(['fields'])
        fields = view_base.parse_fields(utils.fields_param(params))
        port = _get_port(port_uuid)
        node = _authorize_port('baremetal:port:get', port)
        return _render(port, node, fields)

    @pecan.expose('json')
    def post(self, **kwargs):
        utils.query()
        ctx = utils.context()
        policy.authorize('baremetal:port:create', {}, ctx)
        body = utils.load_body()
        _node_ident_to_uuid(body)
        utils.check_body_fields(body, schema.CREATE_FIELDS,
                                port_view.FIELDS, 'port')
        _check_link_version(body.get('local_link_connection'))
        utils.validate(_CREATE_VALIDATOR, body, string_booleans=True)
        values = _normalize(dict(body))
        node = _node_by_uuid(values.pop('node_uuid'))
        portgroup_uuid = values.pop('portgroup_uuid', None)
        if portgroup_uuid is not None:
            values['portgroup_id'] = portgroup_utils.portgroup_for_port(
                portgroup_uuid, node).id
        port_uuid = values.get('uuid') or uuidutils.generate_uuid()
        values['uuid'] = port_uuid
        utils.rpcapi().create_port(ctx, node, values)
        port = utils.dbapi().get_port_by_uuid(port_uuid)
        utils.set_status(201)
        utils.set_location(links.build_url(utils.public_url(),
                                           'ports/%s' % port_uuid))
        return _render(port, node)

    @pecan.expose('json')
    def patch(self, port_uuid=None, **kwargs):
        utils.require_ident(port_uuid)
        utils.query()
        port = _get_port(port_uuid)
        node = _authorize_port('baremetal:port:update', port)
        patch = utils.load_body(list)
        version = utils.version()
        writable = {name for name in schema.PATCH_FIELDS
                    if port_view.FIELDS[name].since <= version}
        patching.check(patch, port_view.FIELDS, version, writable,
                       schema.MANDATORY)
        before = {name: getattr(port, name) for name in writable
                  if name not in ('node_uuid', 'portgroup_uuid')}
        before['node_uuid'] = node.uuid
        if 'portgroup_uuid' in writable:
            before['portgroup_uuid'] = _portgroup_uuids([port]).get(
                port.portgroup_id)
        after = patching.apply(before, patch)
        changes = patching.changes(before, after, DEFAULTS)
        for name, value in changes.items():
            changes[name] = utils.validate(_FIELD_VALIDATORS[name],
                                           {name: value},
                                           string_booleans=True)[name]
        _check_link_version(changes.get('local_link_connection'))
        values = _normalize(changes)
        new_node = node
        if 'node_uuid' in values:
            new_node = _node_by_uuid(values.pop('node_uuid'))
            values['node_id'] = new_node.id
        if 'portgroup_uuid' in values:
            portgroup_uuid = values.pop('portgroup_uuid')
            values['portgroup_id'] = None if portgroup_uuid is None else \
                portgroup_utils.portgroup_for_port(portgroup_uuid,
                                                   new_node).id
        if values:
            utils.rpcapi().update_port(utils.context(), node, port.id,
                                       values)
            port = utils.dbapi().get_port_by_id(port.id)
        return _render(port, new_node)

    @pecan.expose('json')
    def delete(self, port_uuid=None, **kwargs):
        utils.require_ident(port_uuid)
        utils.query()
        port = _get_port(port_uuid)
        node = _authorize_port('baremetal:port:delete', port)
        utils.rpcapi().destroy_port(utils.context(), node, port.id)
        utils.set_status(204)
