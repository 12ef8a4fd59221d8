"""GET /v1/nodes/{id}/validate: each interface's verdict on the node,
given by the node's conductor (conductor/validation.py)."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import utils


class NodeValidateController(rest.RestController):

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:validate')
        return utils.rpcapi().validate_driver_interfaces(utils.context(),
                                                         node)
