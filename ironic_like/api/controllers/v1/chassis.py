"""/v1/chassis and /v1/chassis/{uuid}/nodes.

A chassis is named by its UUID only (Ironic never gave chassis names).
It is plain data, tied to no conductor, so the API writes it to the
database itself, as Ironic's API does.
"""

from oslo_utils import uuidutils
import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import collection
from ironic_like.api.controllers.v1 import node as node_ctl
from ironic_like.api.controllers.v1 import utils
from ironic_like.api import links
from ironic_like.api import patching
from ironic_like.api.schemas import chassis as schema
from ironic_like.api import validation
from ironic_like.api.views import base as view_base
from ironic_like.api.views import chassis as chassis_view
from ironic_like.common import exception
from ironic_like.common import policy
from ironic_like.db.sqlalchemy import chassis as chassis_db

LIST_PARAMS = utils.PAGING_PARAMS + ('fields', 'detail')
# Stored form of extra: an empty dict, not null.
_normalize = utils.Normalizer(schema.FIELDS, ['extra'])
# What a field removed by a PATCH becomes.
DEFAULTS = _normalize.defaults

_CREATE_VALIDATOR = validation.make_validator(schema.CREATE_BODY)
_FIELD_VALIDATORS = {name: validation.make_validator(body)
                     for name, body in schema.FIELD_BODIES.items()}


def _authorize(rule):
    ctx = utils.context()
    policy.authorize(rule, {}, ctx)


def get_chassis(chassis_uuid):
    """The chassis of a path: 400 for a non-UUID, 404 if there is none."""
    if not uuidutils.is_uuid_like(chassis_uuid):
        raise exception.InvalidUUID(uuid=chassis_uuid)
    return utils.dbapi().get_chassis_by_uuid(chassis_uuid)


def _render(chassis, fields=None):
    view = chassis_view.view(utils.version(), utils.public_url(), fields)
    return view.render(chassis)


def _list(detail_path):
    params = utils.query(LIST_PARAMS)
    _authorize('baremetal:chassis:get')
    fields = view_base.parse_fields(utils.fields_param(params, detail_path))
    detail = utils.parse_detail(params, detail_path)
    limit, sort_key, sort_dir, marker = utils.parse_page(
        params, chassis_db.CHASSIS_SORT_KEYS)
    found = utils.dbapi().get_chassis_list(limit=limit, marker=marker,
                                           sort_key=sort_key,
                                           sort_dir=sort_dir)
    view = chassis_view.view(utils.version(), utils.public_url(),
                             fields=fields, detail=detail)
    items = [view.render(c) for c in found]
    path = 'chassis/detail' if detail_path else 'chassis'
    last = found[-1].uuid if found else None
    return collection.list_body('chassis', items, limit, path, last, params)


class ChassisNodesController(rest.RestController):
    """/v1/chassis/{uuid}/nodes[/detail]: the node list (its parameters
    and policy, as Ironic) narrowed to the chassis; read only."""

    _custom_actions = {'detail': ['GET']}

    def __init__(self, chassis_uuid):
        self.chassis_uuid = chassis_uuid

    def _list(self, detail_path):
        # Unknown parameters first (400), as every list does.
        utils.query(node_ctl.CHASSIS_NODES_PARAMS)
        chassis = get_chassis(self.chassis_uuid)
        return node_ctl.NodesController()._list(
            detail_path, extra_filters={'chassis_id': chassis.id},
            path='chassis/%s/nodes' % chassis.uuid,
            param_names=node_ctl.CHASSIS_NODES_PARAMS)

    @pecan.expose('json')
    def get_all(self, **kwargs):
        return self._list(False)

    @pecan.expose('json')
    def detail(self, **kwargs):
        return self._list(True)


class ChassisController(rest.RestController):

    _custom_actions = {'detail': ['GET']}

    @pecan.expose()
    def _lookup(self, ident, *remainder):
        if remainder and remainder[0] == 'nodes':
            return ChassisNodesController(ident), remainder[1:]
        return None

    @pecan.expose('json')
    def get_all(self, **kwargs):
        return _list(False)

    @pecan.expose('json')
    def detail(self, **kwargs):
        return _list(True)

    @pecan.expose('json')
    def get_one(self, chassis_uuid, **kwargs):
        params = utils.query(['fields'])
        _authorize('baremetal:chassis:get')
        fields = view_base.parse_fields(utils.fields_param(params))
        return _render(get_chassis(chassis_uuid), fields)

    @pecan.expose('json')
    def post(self, **kwargs):
        utils.query()
        _authorize('baremetal:chassis:create')
        body = utils.load_body()
        utils.check_body_fields(body, schema.CREATE_FIELDS,
                                chassis_view.FIELDS, 'chassis')
        utils.validate(_CREATE_VALIDATOR, body)
        values = _normalize(dict(body))
        chassis = utils.dbapi().create_chassis(values)
        utils.set_status(201)
        utils.set_location(links.build_url(utils.public_url(),
                                           'chassis/%s' % chassis.uuid))
        return _render(chassis)

    @pecan.expose('json')
    def patch(self, chassis_uuid=None, **kwargs):
        utils.require_ident(chassis_uuid)
        utils.query()
        _authorize('baremetal:chassis:update')
        chassis = get_chassis(chassis_uuid)
        patch = utils.load_body(list)
        version = utils.version()
        writable = schema.PATCH_FIELDS
        patching.check(patch, chassis_view.FIELDS, version, writable)
        before = {name: getattr(chassis, name) for name in writable}
        after = patching.apply(before, patch)
        changes = patching.changes(before, after, DEFAULTS)
        for name, value in changes.items():
            utils.validate(_FIELD_VALIDATORS[name], {name: value})
        values = _normalize(changes)
        if values:
            chassis = utils.dbapi().update_chassis(chassis.id, values)
        return _render(chassis)

    @pecan.expose('json')
    def delete(self, chassis_uuid=None, **kwargs):
        utils.require_ident(chassis_uuid)
        utils.query()
        _authorize('baremetal:chassis:delete')
        chassis = get_chassis(chassis_uuid)
        utils.dbapi().destroy_chassis(chassis.id)
        utils.set_status(204)
