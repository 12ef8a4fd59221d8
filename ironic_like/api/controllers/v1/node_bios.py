"""/v1/nodes/{id}/bios (1.40): the node's BIOS settings as its BIOS
interface last read them (on manage/verify); none for no-bios. From 1.74
a setting also shows its BIOS registry entry (type, allowed values,
bounds...): a single setting always, the list with ?detail=True, and
?fields= picks any of them."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import utils
from ironic_like.api import links
from ironic_like.api import versions
from ironic_like.api.views import base as view_base
from ironic_like.common import bios_registry
from ironic_like.common import exception

DEFAULT_FIELDS = ('name', 'value')
REGISTRY_FIELDS = DEFAULT_FIELDS + bios_registry.FIELDS


def _render(setting, node_uuid, fields=DEFAULT_FIELDS):
    doc = {name: getattr(setting, name) for name in fields}
    doc.update({
        'created_at': view_base.format_datetime(setting.created_at),
        'updated_at': view_base.format_datetime(setting.updated_at),
        'links': links.make_links(utils.public_url(), 'nodes', '%s/bios/%s'
                                  % (node_uuid, setting.name)),
    })
    return doc


def _list_fields(params):
    """The fields a list shows: ?detail=True and ?fields= came with 1.74
    (400 before, as Ironic answers) and exclude each other."""
    detail = params.get('detail')
    fields = params.get('fields')
    registry = utils.allowed(versions.BIOS_REGISTRY)
    for name, value in (('detail', detail), ('fields', fields)):
        if value is not None and not registry:
            raise exception.InvalidParameterValue(
                err='Invalid query parameter ?%s=%s received.'
                    % (name, value), field=name)
    detail = utils.parse_bool('detail', detail)
    if fields is not None and detail:
        raise exception.InvalidParameterValue(
            err='Can not specify ?detail=True and fields in the same '
                'request.', field='fields')
    if fields is not None:
        names = view_base.parse_fields(fields)
        unknown = [n for n in names if n not in REGISTRY_FIELDS]
        if unknown:
            raise exception.InvalidParameterValue(
                err='Field(s) "%s" are not valid' % ', '.join(unknown),
                field='fields')
        return tuple(names)
    return REGISTRY_FIELDS if detail else DEFAULT_FIELDS


class NodeBiosController(rest.RestController):

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose('json')
    def get_all(self, **kwargs):
        params = utils.query(['detail', 'fields'])
        fields = _list_fields(params)
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:bios:get')
        settings = utils.dbapi().get_bios_settings(node.id)
        return {'bios': [_render(s, node.uuid, fields) for s in settings]}

    @pecan.expose('json')
    def get_one(self, name, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:bios:get')
        setting = utils.dbapi().get_bios_setting(node.id, name,
                                                 node_ident=node.uuid)
        fields = (REGISTRY_FIELDS if utils.allowed(versions.BIOS_REGISTRY)
                  else DEFAULT_FIELDS)
        return {name: _render(setting, node.uuid, fields)}
