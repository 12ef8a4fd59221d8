"""/v1/nodes/{id}/inventory (1.81): what the node's agent reported at its
last inspection (``inventory``) and what inspection made of it
(``plugin_data``), as Ironic answers; 404 for a node never inspected
through its agent, or when [inventory]data_backend is ``none``."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import utils
from ironic_like.common import exception
from ironic_like.conf import CONF
from ironic_like.conf import inspector as inspector_conf

RULE = 'baremetal:node:inventory:get'


class NodeInventoryController(rest.RestController):

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident, RULE)
        if CONF.inventory.data_backend != inspector_conf.INVENTORY_DATABASE:
            raise exception.NodeInventoryNotFound(node=node.uuid)
        row = utils.dbapi().get_node_inventory(node.id, node.uuid)
        return {'inventory': row.inventory_data or {},
                'plugin_data': row.plugin_data or {}}
