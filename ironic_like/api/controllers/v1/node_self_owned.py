"""Ironic's self-owned nodes: the administrator of a project enrols nodes
that its project then owns, and deletes them, without being a cloud
administrator ([api]project_admin_can_manage_own_nodes; API 1.80 marks
the feature, which Ironic applies at every version).
"""

from ironic_like.api.controllers.v1 import utils
from ironic_like.common import exception
from ironic_like.common import policy
from ironic_like.conf import CONF

CREATE_RULE = 'baremetal:node:create:self_owned_node'
DELETE_RULE = 'baremetal:node:delete:self_owned_node'


def authorize_create(ctx):
    """Authorize a node creation (403 otherwise). True when it is a
    self-owned node: then set_owner() must run on its values."""
    if (CONF.api.project_admin_can_manage_own_nodes
            and policy.check(CREATE_RULE, {}, ctx)):
        # A system-scoped token creates nodes as the operators do.
        return getattr(ctx, 'system_scope', None) != 'all'
    policy.authorize('baremetal:node:create', {}, ctx)
    return False


def set_owner(ctx, values):
    """The requester's project owns the node; asking for another owner
    is refused (400), as Ironic refuses it."""
    project = getattr(ctx, 'project_id', None)
    requested = values.get('owner')
    if requested and requested != project:
        raise exception.InvalidParameterValue(
            err='Cannot create a node as a project scoped admin with an '
                'owner other than your own project.', field='owner')
    values['owner'] = project


def get_deletable_node(ident):
    """The node ``ident`` names, if the requester may delete it: by
    baremetal:node:delete, else (the option on) as the admin of the
    project owning it."""
    try:
        return utils.get_authorized_node(ident, 'baremetal:node:delete')
    except exception.HTTPForbidden:
        if not CONF.api.project_admin_can_manage_own_nodes:
            raise
        return utils.get_authorized_node(ident, DELETE_RULE)
