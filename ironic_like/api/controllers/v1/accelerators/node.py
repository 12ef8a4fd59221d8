"""/v1/nodes/{node}/accelerators: everything about one node's
accelerators (devices, deployables, attach handles, attachments, the
accelerator traits with their total and free counts, the state of its
last discovery), and POST .../discover to take the inventory from the
node's agent now (202; 409 when no agent is up).

The node is named by UUID or name whatever the microversion, like the
rest of the accelerators API."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1.accelerators import common
from ironic_like.api.controllers.v1 import utils

_RESOURCES = {'devices': 'devices', 'deployables': 'deployables',
              'attach_handles': 'attach_handles'}


def node_accelerators(node):
    doc = utils.dbapi().get_node_accelerators(node.id)
    result = {'node_uuid': node.uuid}
    for key, value in doc.items():
        if key in _RESOURCES:
            result[key] = common.render_all(value, _RESOURCES[key])
        elif isinstance(value, list):
            result[key] = common.render_all(value)
        elif isinstance(value, dict):
            result[key] = common.render(value)
        else:
            result[key] = value
    return result


class NodeAcceleratorsController(rest.RestController):
    """/v1/nodes/{node}/accelerators"""

    _custom_actions = {'discover': ['POST']}

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        node = common.get_authorized_node(self.node_ident, common.GET_RULE)
        return node_accelerators(node)

    @pecan.expose('json')
    def discover(self, **kwargs):
        """Re-inventory now: the node's conductor asks its agent."""
        utils.query()
        node = common.get_authorized_node(self.node_ident,
                                          common.DISCOVER_RULE)
        utils.rpcapi().discover_accelerators(utils.context(), node)
        utils.set_status(202)
