"""/v1/nodes/{id}/bios (1.40): the node's BIOS settings as its BIOS
interface last read them (on manage/verify); none for no-bios."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import utils
from ironic_like.api import links
from ironic_like.api.views import base as view_base


def _render(setting, node_uuid):
    return {
        'name': setting.name,
        'value': setting.value,
        'created_at': view_base.format_datetime(setting.created_at),
        'updated_at': view_base.format_datetime(setting.updated_at),
        'links': links.make_links(utils.public_url(), 'nodes', '%s/bios/%s'
                                  % (node_uuid, setting.name)),
    }


class NodeBiosController(rest.RestController):

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:bios:get')
        settings = utils.dbapi().get_bios_settings(node.id)
        return {'bios': [_render(s, node.uuid) for s in settings]}

    @pecan.expose('json')
    def get_one(self, name, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:bios:get')
        setting = utils.dbapi().get_bios_setting(node.id, name,
                                                 node_ident=node.uuid)
        return {name: _render(setting, node.uuid)}
