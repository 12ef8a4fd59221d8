"""/v1/nodes/{id}/vifs (Ironic 1.28): the node's virtual network
interfaces, listed, attached and detached by its conductor
(conductor/vifs.py), which decides where a VIF goes.

A single VIF is its own controller so that its id always comes from the
path (pecan would also fill a ``vif_id`` argument from a JSON body key).
"""

from oslo_utils import uuidutils
import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import utils
from ironic_like.api.schemas import node_vifs as schema
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.common import exception

# The version Ironic added the sub-resource in: 404 below, whatever the
# method (node.py's _lookup checks it).
VIFS = versions.VIFS

_ATTACH_VALIDATOR = validation.make_validator(schema.ATTACH_BODY)


def _check_port_choice(body):
    """port_uuid or portgroup_uuid (1.67) names where the VIF goes: one
    of them, a UUID."""
    if 'port_uuid' in body and 'portgroup_uuid' in body:
        raise exception.InvalidParameterValue(
            err='Cannot specify both port_uuid and portgroup_uuid',
            field='port_uuid')
    for name in ('port_uuid', 'portgroup_uuid'):
        value = body.get(name)
        if name in body and not (isinstance(value, str)
                                 and uuidutils.is_uuid_like(value)):
            raise exception.InvalidUUID(uuid=value, field=name)


class NodeVIFController(rest.RestController):
    """/v1/nodes/{id}/vifs/{vif_id}"""

    def __init__(self, node_ident, vif_id):
        self.node_ident = node_ident
        self.vif_id = vif_id

    @pecan.expose('json')
    def delete(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:vif:detach')
        if not (validation.is_logical_name(self.vif_id)
                or uuidutils.is_uuid_like(self.vif_id)):
            raise exception.InvalidParameterValue(
                err='Expected a logical name or UUID for vif_id: %s'
                    % self.vif_id, field='vif_id')
        utils.rpcapi().vif_detach(utils.context(), node, self.vif_id)
        utils.set_status(204)


class NodeVIFsController(rest.RestController):
    """/v1/nodes/{id}/vifs"""

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose()
    def _lookup(self, vif_id, *remainder):
        if remainder:
            return None
        return NodeVIFController(self.node_ident, vif_id), []

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:vif:list')
        return {'vifs': utils.rpcapi().vif_list(utils.context(), node)}

    @pecan.expose('json')
    def post(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:vif:attach')
        body = utils.validate(_ATTACH_VALIDATOR, utils.load_body())
        if utils.allowed(versions.VIF_ATTACH_PORT):
            _check_port_choice(body)
        else:
            # Before 1.67 these keys meant nothing: the conductor must
            # not narrow its choice by them.
            body.pop('port_uuid', None)
            body.pop('portgroup_uuid', None)
        utils.rpcapi().vif_attach(utils.context(), node, body)
        utils.set_status(204)
