"""Child nodes (Ironic 1.83): a node whose ``parent_node`` names another
is a part of it (a DPU, a smart NIC or another BMC-managed device inside
a server).

- The node list hides child nodes unless ``include_children=True`` or a
  ``parent_node`` filter asks for them.
- ``GET /v1/nodes/{id}/children`` lists a parent's children (UUIDs).
- ``parent_node`` is given by UUID or name and stored as the UUID. The
  requester must be able to see the parent, and parent and child must
  have the same owner; otherwise the same 400 whether or not the parent
  exists, so other projects' nodes do not show (as Ironic answers).
"""

from oslo_utils import uuidutils
import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import utils
from ironic_like.api import links
from ironic_like.api import versions
from ironic_like.common import exception
from ironic_like.common import policy

# Filters of GET /v1/nodes this module reads.
FILTERS = ('include_children', 'parent_node')
# A chain of parents is walked at most this deep looking for a cycle.
_MAX_DEPTH = 32


def list_filters(params):
    """The database filters of a node list's child-node parameters:
    top-level nodes only unless the request asks otherwise."""
    include = utils.parse_bool('include_children',
                               params.get('include_children'))
    parent = params.get('parent_node')
    if include is not None or parent is not None:
        utils.require_version(versions.PARENT_CHILD_NODES,
                              'The include_children and parent_node '
                              'filters')
    if parent is not None:
        return {'parent_node': _parent_uuid_filter(parent)}
    if include:
        return {}
    return {'has_parent': False}


def _parent_uuid_filter(ident):
    """The stored form of a parent_node filter: a UUID as given, a name
    turned into its node's UUID. A name no node has matches nothing (an
    empty list, like an unknown UUID, so names do not leak)."""
    if uuidutils.is_uuid_like(ident):
        return ident
    try:
        return utils.dbapi().get_node_by_name(ident).uuid
    except exception.NodeNotFound:
        return ident


def resolve_parent(ident, node_uuid, owner):
    """The UUID to store as the parent_node of node ``node_uuid`` owned by
    ``owner``, given ``ident`` (UUID or name; None removes the parent)."""
    if ident is None:
        return None
    invalid = exception.InvalidParameterValue(
        err="Unable to apply the requested parent_node '%s'. Requested "
            "value was invalid." % ident, field='parent_node')
    try:
        parent = utils.get_node(ident)
        utils.authorize_node('baremetal:node:get', parent, ident)
    except (exception.NotFound, exception.HTTPForbidden,
            exception.Invalid):
        raise invalid
    if (parent.owner or None) != (owner or None):
        raise invalid
    _check_no_cycle(parent, node_uuid)
    return parent.uuid


def _check_no_cycle(parent, node_uuid):
    """A node may not be its own parent, nor its own ancestor's."""
    db = utils.dbapi()
    current = parent
    for _ in range(_MAX_DEPTH):
        if current.uuid == node_uuid:
            raise exception.InvalidParameterValue(
                err='Node %s cannot be a parent of itself or of one of '
                    'its ancestors.' % node_uuid, field='parent_node')
        if not current.parent_node:
            return
        try:
            current = db.get_node_by_uuid(current.parent_node)
        except exception.NodeNotFound:
            return
    raise exception.InvalidParameterValue(
        err='The chain of parents above %s is deeper than %d nodes.'
            % (parent.uuid, _MAX_DEPTH), field='parent_node')


class NodeChildrenController(rest.RestController):
    """GET /v1/nodes/{id}/children: the UUIDs of the node's children the
    requester may see, and a link to their list."""

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        ctx = utils.context()
        try:
            parent = utils.get_authorized_node(self.node_ident,
                                               'baremetal:node:get')
        except exception.HTTPForbidden:
            raise exception.NodeNotFound(node=self.node_ident)
        filters = {'parent_node': parent.uuid}
        if not policy.check('baremetal:node:list_all', {}, ctx):
            if not ctx.project_id:
                filters = None
            else:
                filters['project'] = ctx.project_id
        children = []
        if filters is not None:
            children = [node.uuid for node in utils.dbapi().get_node_list(
                filters=filters, sort_key='id', columns=['uuid'])]
        return {'children': children,
                'links': {'href': links.build_url(
                    utils.public_url(), 'nodes',
                    'parent_node=%s' % parent.uuid), 'rel': 'children'}}
