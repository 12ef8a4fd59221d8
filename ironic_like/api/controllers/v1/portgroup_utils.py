"""Looking up port groups for the controllers of groups and of ports
(both need it; neither may import the other's module for it: the group
controller lists a group's ports through the port controller)."""

from oslo_utils import uuidutils

from ironic_like.api.controllers.v1 import utils
from ironic_like.api import validation
from ironic_like.api.views import portgroup as portgroup_view
from ironic_like.common import exception
from ironic_like.common import policy


def get_portgroup(ident):
    """A group by UUID or logical name (404 if none, 400 if ``ident`` is
    neither)."""
    db = utils.dbapi()
    if uuidutils.is_uuid_like(ident):
        return db.get_portgroup_by_uuid(ident)
    if not validation.is_logical_name(ident):
        raise exception.InvalidUuidOrName(name=ident)
    return utils.by_name(db.get_portgroup_by_name, ident)


def authorize_portgroup(rule, portgroup, ident=None):
    """The group's node, if ``rule`` allows; 404 for users who may not see
    the node (so groups do not reveal nodes of other projects)."""
    node = utils.dbapi().get_node_by_id(portgroup.node_id)
    utils.authorize_hiding(
        rule, 'baremetal:node:get', policy.node_target(node),
        exception.PortgroupNotFound(portgroup=ident or portgroup.uuid))
    return node


def portgroup_for_port(portgroup_uuid, node):
    """The group a port's body names, which must be on the port's
    ``node``: a 400 naming portgroup_uuid otherwise (a missing group is
    a bad request, not a missing resource)."""
    try:
        portgroup = utils.dbapi().get_portgroup_by_uuid(portgroup_uuid)
    except exception.PortgroupNotFound:
        raise exception.InvalidParameterValue(
            err='Port group %s could not be found.' % portgroup_uuid,
            field='portgroup_uuid')
    if portgroup.node_id != node.id:
        raise exception.PortgroupNodeMismatch(
            portgroup=portgroup.uuid, node=node.uuid, field='portgroup_uuid')
    return portgroup


def hide_below_subresources():
    """The port group sub-resources (a node's groups, a group's ports)
    came in 1.24: 404 before."""
    utils.hide_below(portgroup_view.SUBRESOURCES)
