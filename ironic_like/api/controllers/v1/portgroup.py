"""/v1/portgroups, /v1/nodes/{id}/portgroups and
/v1/portgroups/{id}/ports (Ironic 1.23 to 1.26).

A group is named by UUID or logical name. Writes go to the conductor of
the group's node, under the node's lock, as for ports. Every path is 404
below 1.23, and the sub-resources below 1.24: they did not exist.
"""

from oslo_utils import uuidutils
import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import collection
from ironic_like.api.controllers.v1 import port
from ironic_like.api.controllers.v1 import portgroup_utils
from ironic_like.api.controllers.v1 import utils
from ironic_like.api import links
from ironic_like.api import patching
from ironic_like.api.schemas import portgroup as schema
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.api.views import base as view_base
from ironic_like.api.views import portgroup as portgroup_view
from ironic_like.common import exception
from ironic_like.common import policy
from ironic_like.db.sqlalchemy import portgroups as db_portgroups

LIST_PARAMS = utils.PAGING_PARAMS + ('fields', 'detail')
FILTER_PARAMS = ('node', 'address', 'conductor_groups', 'shard')
# Stored forms: empty dicts, not null; standalone ports supported unless
# said otherwise; MAC addresses in one spelling (null stays null).
_normalize = utils.Normalizer(
    schema.FIELDS, ['extra', 'properties'],
    {'standalone_ports_supported':
        lambda supported: True if supported is None else supported,
     'address': lambda mac: None if mac is None else
        validation.normalize_mac(mac)})
# What a field removed by a PATCH becomes.
DEFAULTS = _normalize.defaults

_CREATE_VALIDATOR = validation.make_validator(schema.CREATE_BODY)
_FIELD_VALIDATORS = {name: validation.make_validator(body)
                     for name, body in schema.FIELD_BODIES.items()}


def _node_uuids(portgroups):
    """{node id: node UUID} for the nodes of ``portgroups``."""
    ids = {pg.node_id for pg in portgroups}
    if not ids:
        return {}
    nodes = utils.dbapi().get_node_list(filters={'id_in': sorted(ids)},
                                        columns=['id', 'uuid'])
    return {n.id: n.uuid for n in nodes}


def _node_by_uuid(node_uuid):
    """The node a body names; a missing one is a bad request (400)."""
    try:
        return utils.dbapi().get_node_by_uuid(node_uuid)
    except exception.NodeNotFound:
        raise exception.InvalidParameterValue(
            err='Node %s could not be found.' % node_uuid, field='node_uuid')


def _get(ident, rule):
    """The group ``ident`` names and its node, if ``rule`` allows."""
    portgroup = portgroup_utils.get_portgroup(ident)
    node = portgroup_utils.authorize_portgroup(rule, portgroup, ident)
    return portgroup, node


def _render(portgroup, node, fields=None):
    view = portgroup_view.view(utils.version(), utils.public_url(),
                               {node.id: node.uuid}, fields=fields)
    return view.render(portgroup)


def list_portgroups(detail_path, node_ident=None):
    """GET of /v1/portgroups[/detail] and /v1/nodes/{id}/portgroups[...]."""
    names = LIST_PARAMS if node_ident else LIST_PARAMS + FILTER_PARAMS
    params = utils.query(names)
    ctx = utils.context()
    policy.authorize('baremetal:portgroup:list', {}, ctx)
    fields = view_base.parse_fields(utils.fields_param(params, detail_path))
    detail = utils.parse_detail(params, detail_path)
    limit, sort_key, sort_dir, marker = utils.parse_page(
        params, db_portgroups.PORTGROUP_SORT_KEYS)
    if params.get('node') is not None and \
            params.get('address') is not None:
        # As Ironic: one filter at a time.
        raise exception.InvalidParameterValue(
            err='Filtering by node and address simultaneously is not '
                'supported.', field='address')

    node = None
    ident = node_ident or params.get('node')
    if ident is not None:
        node = utils.get_node(ident)
        utils.authorize_node('baremetal:node:get', node, ident)
    elif not policy.check('baremetal:portgroup:list_all', {}, ctx):
        # Needs a project filter on groups the database layer lacks yet.
        raise exception.HTTPForbidden(
            resource='baremetal:portgroup:list_all (filter by node to list '
                     'the port groups of one of your nodes)')

    filters = {}
    if node is not None:
        filters['node_id'] = node.id
    if params.get('address') is not None:
        filters['address'] = validation.normalize_mac(params['address'])
    groups = utils.conductor_groups_filter(params, ('node', 'address'))
    if groups is not None:
        filters['node_conductor_groups'] = groups
    if params.get('shard') is not None:
        # 1.106: the groups of the nodes in these shards; one filter at a
        # time, as Ironic.
        utils.require_version(versions.PORTGROUP_SHARD, 'The shard filter')
        others = [name for name in ('node', 'address', 'conductor_groups')
                  if params.get(name) is not None]
        if others:
            raise exception.InvalidParameterValue(
                err='Filtering by node, address, or shard simultaneously '
                    'is not supported.', field='shard')
        filters['node_shards'] = utils.parse_shards(params['shard'])
    portgroups = utils.dbapi().get_portgroup_list(
        filters=filters, limit=limit, marker=marker, sort_key=sort_key,
        sort_dir=sort_dir)
    node_uuids = ({node.id: node.uuid} if node
                  else _node_uuids(portgroups))
    view = portgroup_view.view(utils.version(), utils.public_url(),
                               node_uuids, fields=fields, detail=detail)
    items = [view.render(pg) for pg in portgroups]
    path = ('nodes/%s/portgroups' % node_ident if node_ident
            else 'portgroups')
    if detail_path:
        path += '/detail'
    last = portgroups[-1].uuid if portgroups else None
    return collection.list_body('portgroups', items, limit, path, last,
                                params)


NodePortgroupsController = collection.read_only_list(
    list_portgroups, 'node_ident',
    """/v1/nodes/{id}/portgroups (1.24): read only, as in Ironic.""")

PortgroupPortsController = collection.read_only_list(
    port.list_ports, 'portgroup_ident',
    """/v1/portgroups/{id}/ports (1.24): read only, as in Ironic.""")


class PortgroupsController(rest.RestController):

    _custom_actions = {'detail': ['GET']}

    _subcontrollers = {'ports': PortgroupPortsController}

    @pecan.expose()
    def _lookup(self, ident, *remainder):
        utils.hide_below(portgroup_view.PORTGROUPS)
        if not remainder:
            return None
        sub = self._subcontrollers.get(remainder[0])
        if sub is None:
            return None
        portgroup_utils.hide_below_subresources()
        return sub(ident), remainder[1:]

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.hide_below(portgroup_view.PORTGROUPS)
        return list_portgroups(False)

    @pecan.expose('json')
    def detail(self, **kwargs):
        utils.hide_below(portgroup_view.PORTGROUPS)
        return list_portgroups(True)

    @pecan.expose('json')
    def get_one(self, ident, **kwargs):
        utils.hide_below(portgroup_view.PORTGROUPS)
        params = utils.query(['fields'])
        fields = view_base.parse_fields(utils.fields_param(params))
        portgroup, node = _get(ident, 'baremetal:portgroup:get')
        return _render(portgroup, node, fields)

    @pecan.expose('json')
    def post(self, **kwargs):
        utils.hide_below(portgroup_view.PORTGROUPS)
        utils.query()
        ctx = utils.context()
        policy.authorize('baremetal:portgroup:create', {}, ctx)
        body = utils.load_body()
        utils.check_body_fields(body, schema.CREATE_FIELDS,
                                portgroup_view.FIELDS, 'port group')
        utils.validate(_CREATE_VALIDATOR, body, string_booleans=True)
        values = _normalize(dict(body))
        node = _node_by_uuid(values.pop('node_uuid'))
        if values.get('mode') is None:
            # The database gives it [DEFAULT]default_portgroup_mode.
            values.pop('mode', None)
        portgroup_uuid = values.get('uuid') or uuidutils.generate_uuid()
        values['uuid'] = portgroup_uuid
        utils.rpcapi().create_portgroup(ctx, node, values)
        portgroup = utils.dbapi().get_portgroup_by_uuid(portgroup_uuid)
        utils.set_status(201)
        utils.set_location(links.build_url(
            utils.public_url(), 'portgroups/%s' % portgroup_uuid))
        return _render(portgroup, node)

    @pecan.expose('json')
    def patch(self, ident=None, **kwargs):
        utils.hide_below(portgroup_view.PORTGROUPS)
        utils.require_ident(ident)
        utils.query()
        portgroup, node = _get(ident, 'baremetal:portgroup:update')
        patch = utils.load_body(list)
        version = utils.version()
        writable = {name for name in schema.PATCH_FIELDS
                    if portgroup_view.FIELDS[name].since <= version}
        patching.check(patch, portgroup_view.FIELDS, version, writable,
                       schema.PATCH_MANDATORY)
        before = {name: getattr(portgroup, name) for name in writable
                  if name != 'node_uuid'}
        before['node_uuid'] = node.uuid
        after = patching.apply(before, patch)
        changes = patching.changes(before, after, DEFAULTS)
        for name, value in changes.items():
            changes[name] = utils.validate(_FIELD_VALIDATORS[name],
                                           {name: value},
                                           string_booleans=True)[name]
        if 'mode' in changes and changes['mode'] is None:
            raise exception.InvalidParameterValue(
                err="'/mode' is a mandatory attribute and can not be "
                    "removed", field='mode')
        values = _normalize(changes)
        new_node = node
        if 'node_uuid' in values:
            new_node = _node_by_uuid(values.pop('node_uuid'))
            values['node_id'] = new_node.id
        if values:
            utils.rpcapi().update_portgroup(utils.context(), node,
                                            portgroup.id, values)
            portgroup = utils.dbapi().get_portgroup_by_id(portgroup.id)
        return _render(portgroup, new_node)

    @pecan.expose('json')
    def delete(self, ident=None, **kwargs):
        utils.hide_below(portgroup_view.PORTGROUPS)
        utils.require_ident(ident)
        utils.query()
        portgroup, node = _get(ident, 'baremetal:portgroup:delete')
        utils.rpcapi().destroy_portgroup(utils.context(), node,
                                         portgroup.id)
        utils.set_status(204)
