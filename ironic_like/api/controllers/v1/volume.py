"""/v1/volume, /v1/volume/connectors, /v1/volume/targets and the node's
volume sub-resource, /v1/nodes/{id}/volume[/connectors|/targets] (Ironic
1.32).

Connectors and targets are looked up by UUID. Writes go to the conductor
of the row's node, under the node's lock, as for ports; the conductor
applies Ironic's power state rules (conductor/volumes.py). Every path is
404 below 1.32: it did not exist.
"""

from oslo_utils import uuidutils
import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import collection
from ironic_like.api.controllers.v1 import utils
from ironic_like.api import links
from ironic_like.api import patching
from ironic_like.api.schemas import volume as schema
from ironic_like.api import validation
from ironic_like.api.views import base as view_base
from ironic_like.api.views import volume as volume_view
from ironic_like.common import exception
from ironic_like.common import policy
from ironic_like.db.sqlalchemy import volumes as db_volumes

VOLUME = volume_view.VOLUME
LIST_PARAMS = utils.PAGING_PARAMS + ('fields', 'detail')
FILTER_PARAMS = ('node',)

# Validators of the request bodies (whole on POST, field by field on
# PATCH); module level, where the OpenAPI test finds them.
CONNECTOR_CREATE_VALIDATOR = validation.make_validator(
    schema.CONNECTOR_CREATE_BODY)
CONNECTOR_FIELD_VALIDATORS = {
    name: validation.make_validator(body)
    for name, body in schema.CONNECTOR_FIELD_BODIES.items()}
TARGET_CREATE_VALIDATOR = validation.make_validator(
    schema.TARGET_CREATE_BODY)
TARGET_FIELD_VALIDATORS = {
    name: validation.make_validator(body)
    for name, body in schema.TARGET_FIELD_BODIES.items()}


class _Kind(object):
    """What differs between connectors and targets; the handlers below
    are the same for both."""

    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)

    def view(self, node_uuids, fields=None, detail=True):
        if self.key == 'targets':
            # Ironic's rule: the properties (iSCSI credentials and the
            # like) only for users allowed to see them.
            redact = not policy.check(
                'baremetal:volume:view_target_properties', {},
                utils.context())
            return volume_view.target_view(
                utils.version(), utils.public_url(), node_uuids,
                fields=fields, detail=detail, redact_properties=redact)
        return volume_view.connector_view(
            utils.version(), utils.public_url(), node_uuids, fields=fields,
            detail=detail)


CONNECTORS = _Kind(
    key='connectors', what='volume connector',
    fields=volume_view.CONNECTOR_FIELDS,
    create_fields=schema.CONNECTOR_CREATE_FIELDS,
    patch_fields=schema.CONNECTOR_PATCH_FIELDS,
    mandatory=schema.CONNECTOR_MANDATORY,
    create_validator=CONNECTOR_CREATE_VALIDATOR,
    field_validators=CONNECTOR_FIELD_VALIDATORS,
    normalize=utils.Normalizer(schema.CONNECTOR_FIELDS, ['extra']),
    sort_keys=db_volumes.CONNECTOR_SORT_KEYS,
    not_found=lambda ident: exception.VolumeConnectorNotFound(
        connector=ident),
    get_by_uuid='get_volume_connector_by_uuid',
    get_by_id='get_volume_connector_by_id',
    get_list='get_volume_connector_list',
    create='create_volume_connector',
    update='update_volume_connector',
    destroy='destroy_volume_connector')

TARGETS = _Kind(
    key='targets', what='volume target',
    fields=volume_view.TARGET_FIELDS,
    create_fields=schema.TARGET_CREATE_FIELDS,
    patch_fields=schema.TARGET_PATCH_FIELDS,
    mandatory=schema.TARGET_MANDATORY,
    create_validator=TARGET_CREATE_VALIDATOR,
    field_validators=TARGET_FIELD_VALIDATORS,
    normalize=utils.Normalizer(schema.TARGET_FIELDS,
                               ['extra', 'properties']),
    sort_keys=db_volumes.TARGET_SORT_KEYS,
    not_found=lambda ident: exception.VolumeTargetNotFound(target=ident),
    get_by_uuid='get_volume_target_by_uuid',
    get_by_id='get_volume_target_by_id',
    get_list='get_volume_target_list',
    create='create_volume_target',
    update='update_volume_target',
    destroy='destroy_volume_target')


def _node_uuids(rows):
    """{node id: node UUID} for the nodes of ``rows`` (one query)."""
    ids = {row.node_id for row in rows}
    if not ids:
        return {}
    nodes = utils.dbapi().get_node_list(filters={'id_in': sorted(ids)},
                                        columns=['id', 'uuid'])
    return {n.id: n.uuid for n in nodes}


def _node_by_uuid(node_uuid):
    """The node a body names; a missing one is a bad request (400), not a
    missing resource."""
    try:
        return utils.dbapi().get_node_by_uuid(node_uuid)
    except exception.NodeNotFound:
        raise exception.InvalidParameterValue(
            err='Node %s could not be found.' % node_uuid,
            field='node_uuid')


def _get(kind, row_uuid, rule):
    """The row and its node, if ``rule`` allows; 404 for users who may not
    see the node (so volumes do not reveal nodes of other projects)."""
    if not uuidutils.is_uuid_like(row_uuid):
        raise exception.InvalidUUID(uuid=row_uuid)
    row = getattr(utils.dbapi(), kind.get_by_uuid)(row_uuid)
    try:
        node = utils.dbapi().get_node_by_id(row.node_id)
    except exception.NodeNotFound:
        # Deleted meanwhile, with its volumes.
        raise kind.not_found(row_uuid)
    utils.authorize_hiding(rule, 'baremetal:node:get',
                           policy.node_target(node), kind.not_found(row_uuid))
    return row, node


def _render(kind, row, node, fields=None):
    return kind.view({node.id: node.uuid}, fields=fields).render(row)


def _list_scope():
    """The project a list is narrowed to (None: all), as Ironic:
    baremetal:volume:list_all sees every node's volumes, others with
    baremetal:volume:list those of the nodes their project owns or
    leases."""
    ctx = utils.context()
    if policy.check('baremetal:volume:list_all', {}, ctx):
        return None
    policy.authorize('baremetal:volume:list', {}, ctx)
    project = getattr(ctx, 'project_id', None)
    if not project:
        # Without a project there is nothing to narrow the list to.
        raise exception.HTTPForbidden(resource='baremetal:volume:list_all')
    return project


def _detail(params):
    """?detail= exists for volumes from 1.32 (not 1.43 as for the other
    resources), never with fields."""
    detail = utils.parse_bool('detail', params.get('detail'))
    if detail and params.get('fields') is not None:
        raise exception.InvalidParameterValue(
            err="Can't fetch a subset of fields with 'detail' set",
            field='detail')
    return bool(detail)


def list_rows(kind, node_ident=None):
    """GET of /v1/volume/<kind> and /v1/nodes/{id}/volume/<kind>."""
    utils.hide_below(VOLUME)
    names = LIST_PARAMS if node_ident else LIST_PARAMS + FILTER_PARAMS
    params = utils.query(names)
    fields = view_base.parse_fields(utils.fields_param(params))
    detail = _detail(params)
    limit, sort_key, sort_dir, marker = utils.parse_page(
        params, kind.sort_keys)
    node = None
    ident = node_ident or params.get('node')
    if ident is not None:
        node = utils.get_node(ident)
        utils.authorize_node('baremetal:node:get', node, ident)
    project = _list_scope()
    # Built before the query: a bad field is refused without one.
    kind.view({}, fields=fields, detail=detail)
    filters = {'node_id': node.id} if node is not None else {}
    rows = getattr(utils.dbapi(), kind.get_list)(
        filters=filters, limit=limit, marker=marker, sort_key=sort_key,
        sort_dir=sort_dir, project=project)
    view = kind.view({node.id: node.uuid} if node else _node_uuids(rows),
                     fields=fields, detail=detail)
    items = [view.render(row) for row in rows]
    path = ('nodes/%s/volume/%s' % (node_ident, kind.key) if node_ident
            else 'volume/%s' % kind.key)
    last = rows[-1].uuid if rows else None
    return collection.list_body(kind.key, items, limit, path, last, params)


def show(kind, row_uuid):
    utils.hide_below(VOLUME)
    params = utils.query(['fields'])
    fields = view_base.parse_fields(utils.fields_param(params))
    row, node = _get(kind, row_uuid, 'baremetal:volume:get')
    return _render(kind, row, node, fields)


def create(kind):
    utils.hide_below(VOLUME)
    utils.query()
    ctx = utils.context()
    body = utils.load_body()
    utils.check_body_fields(body, kind.create_fields, kind.fields,
                            kind.what)
    utils.validate(kind.create_validator, body)
    values = kind.normalize(dict(body))
    node_uuid = values.pop('node_uuid')
    try:
        node = utils.dbapi().get_node_by_uuid(node_uuid)
    except exception.NodeNotFound:
        node = None
    # As Ironic: the rule first, on the node's owner and lessee (403 even
    # for another project's node: it is named in the body, not the URL),
    # then 400 for a node that does not exist.
    policy.authorize('baremetal:volume:create',
                     policy.node_target(node) if node else {}, ctx)
    if node is None:
        node = _node_by_uuid(node_uuid)
    row_uuid = values.get('uuid') or uuidutils.generate_uuid()
    values['uuid'] = row_uuid
    getattr(utils.rpcapi(), kind.create)(ctx, node, values)
    row = getattr(utils.dbapi(), kind.get_by_uuid)(row_uuid)
    utils.set_status(201)
    utils.set_location(links.build_url(
        utils.public_url(), 'volume/%s/%s' % (kind.key, row_uuid)))
    return _render(kind, row, node)


def update(kind, row_uuid):
    utils.hide_below(VOLUME)
    utils.require_ident(row_uuid)
    utils.query()
    row, node = _get(kind, row_uuid, 'baremetal:volume:update')
    patch = utils.load_body(list)
    version = utils.version()
    patching.check(patch, kind.fields, version, kind.patch_fields,
                   kind.mandatory)
    before = {name: getattr(row, name) for name in kind.patch_fields
              if name != 'node_uuid'}
    before['node_uuid'] = node.uuid
    after = patching.apply(before, patch)
    changes = patching.changes(before, after, kind.normalize.defaults)
    for name, value in changes.items():
        changes[name] = utils.validate(kind.field_validators[name],
                                       {name: value})[name]
    # (A mandatory field cannot be null here: its schema refuses it.)
    values = kind.normalize(changes)
    new_node = node
    if 'node_uuid' in values:
        new_node = _node_by_uuid(values.pop('node_uuid'))
        # Moving it there is changing that node's volumes too.
        utils.authorize_hiding(
            'baremetal:volume:update', 'baremetal:node:get',
            policy.node_target(new_node),
            exception.InvalidParameterValue(
                err='Node %s could not be found.' % new_node.uuid,
                field='node_uuid'))
        values['node_id'] = new_node.id
    if values:
        getattr(utils.rpcapi(), kind.update)(utils.context(), node, row.id,
                                             values)
        row = getattr(utils.dbapi(), kind.get_by_id)(row.id)
    return _render(kind, row, new_node)


def delete(kind, row_uuid):
    utils.hide_below(VOLUME)
    utils.require_ident(row_uuid)
    utils.query()
    row, node = _get(kind, row_uuid, 'baremetal:volume:delete')
    getattr(utils.rpcapi(), kind.destroy)(utils.context(), node, row.id)
    utils.set_status(204)


class _Collection(rest.RestController):
    """/v1/volume/<kind>."""

    kind = None

    @pecan.expose('json')
    def get_all(self, **kwargs):
        return list_rows(self.kind)

    @pecan.expose('json')
    def get_one(self, row_uuid, **kwargs):
        return show(self.kind, row_uuid)

    @pecan.expose('json')
    def post(self, **kwargs):
        return create(self.kind)

    @pecan.expose('json')
    def patch(self, row_uuid=None, **kwargs):
        return update(self.kind, row_uuid)

    @pecan.expose('json')
    def delete(self, row_uuid=None, **kwargs):
        return delete(self.kind, row_uuid)


class VolumeConnectorsController(_Collection):
    kind = CONNECTORS


class VolumeTargetsController(_Collection):
    kind = TARGETS


class _NodeCollection(rest.RestController):
    """/v1/nodes/{id}/volume/<kind>: read only, as in Ironic."""

    kind = None

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose('json')
    def get_all(self, **kwargs):
        return list_rows(self.kind, self.node_ident)


class NodeVolumeConnectorsController(_NodeCollection):
    kind = CONNECTORS


class NodeVolumeTargetsController(_NodeCollection):
    kind = TARGETS


class VolumeController(rest.RestController):
    """/v1/volume and /v1/nodes/{id}/volume: links to the connectors and
    targets."""

    _subcontrollers = {'connectors': VolumeConnectorsController,
                       'targets': VolumeTargetsController}
    _node_subcontrollers = {'connectors': NodeVolumeConnectorsController,
                            'targets': NodeVolumeTargetsController}

    def __init__(self, node_ident=None):
        self.node_ident = node_ident

    @pecan.expose()
    def _lookup(self, name, *remainder):
        # 404 whatever the method below 1.32.
        utils.hide_below(VOLUME)
        if self.node_ident is None:
            sub = self._subcontrollers.get(name)
            return (sub(), remainder) if sub else None
        sub = self._node_subcontrollers.get(name)
        return (sub(self.node_ident), remainder) if sub else None

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.hide_below(VOLUME)
        utils.query()
        ctx = utils.context()
        target = {}
        if self.node_ident is not None:
            node = utils.get_node(self.node_ident)
            utils.authorize_node('baremetal:node:get', node,
                                 self.node_ident)
            target = policy.node_target(node)
        policy.authorize('baremetal:volume:get', target, ctx)
        return volume_view.root(utils.public_url(), self.node_ident)
