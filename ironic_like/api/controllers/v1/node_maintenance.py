"""/v1/nodes/{id}/maintenance: PUT sets maintenance (with an optional
reason, in the body or the query), DELETE clears it; both answer 202."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import utils
from ironic_like.api.schemas import node as schema
from ironic_like.api import validation

_VALIDATOR = validation.make_validator(schema.MAINTENANCE_BODY)


class NodeMaintenanceController(rest.RestController):

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose('json')
    def put(self, **kwargs):
        params = utils.query(['reason'])
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:set_maintenance')
        body = utils.load_optional_body()
        if 'reason' not in body and 'reason' in params:
            # The query's reason is held to the body's bounds.
            body['reason'] = params['reason']
        utils.validate(_VALIDATOR, body)
        reason = body.get('reason')
        utils.rpcapi().set_maintenance(utils.context(), node, True, reason)
        utils.set_status(202)

    @pecan.expose('json')
    def delete(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:clear_maintenance')
        utils.rpcapi().set_maintenance(utils.context(), node, False)
        utils.set_status(202)
