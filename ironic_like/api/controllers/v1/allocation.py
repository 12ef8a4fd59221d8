"""/v1/allocations and /v1/nodes/{id}/allocation.

Creation stores the allocation (`allocating`) for a random alive
conductor and tells it to start with a cast (rpcapi.store_allocation; a
backfill goes through a conductor); the conductor's flow finds and
reserves a node. Deletion goes to the owner of the allocation's node,
which frees the node in the same transaction.
"""

from oslo_utils import uuidutils
import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import collection
from ironic_like.api.controllers.v1 import utils
from ironic_like.api import links
from ironic_like.api import patching
from ironic_like.api.schemas import allocation as schema
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.api.views import allocation as allocation_view
from ironic_like.api.views import base as view_base
from ironic_like.common import exception
from ironic_like.common import policy
from ironic_like.common import states
from ironic_like.db.sqlalchemy import allocations as db_allocations

LIST_PARAMS = utils.PAGING_PARAMS + ('fields', 'state', 'resource_class',
                                     'node', 'owner')
DEFAULTS = {'name': None, 'extra': {}}

_CREATE_VALIDATOR = validation.make_validator(schema.CREATE_BODY)
_FIELD_VALIDATORS = {name: validation.make_validator(body)
                     for name, body in schema.FIELD_BODIES.items()}


def allocation_target(allocation):
    return {'allocation.owner': allocation.owner or policy.NO_PROJECT}


def _node_uuids(allocations):
    ids = {a.node_id for a in allocations if a.node_id is not None}
    if not ids:
        return {}
    nodes = utils.dbapi().get_node_list(filters={'id_in': ids},
                                        columns=['id', 'uuid'])
    return {n.id: n.uuid for n in nodes}


def _render(allocation, fields=None):
    view = allocation_view.view(utils.version(), utils.public_url(),
                                _node_uuids([allocation]), fields=fields)
    return view.render(allocation)


def get_allocation(ident):
    """By UUID or name; 404 if missing or not the user's to see."""
    db = utils.dbapi()
    if uuidutils.is_uuid_like(ident):
        allocation = db.get_allocation_by_uuid(ident)
    elif validation.is_logical_name(ident):
        allocation = utils.by_name(db.get_allocation_by_name, ident)
    else:
        raise exception.InvalidUuidOrName(name=ident)
    return allocation


def authorize(rule, allocation, ident=None):
    """Apply ``rule``; users who may not see the allocation get 404."""
    utils.authorize_hiding(
        rule, 'baremetal:allocation:get', allocation_target(allocation),
        exception.AllocationNotFound(allocation=ident or allocation.uuid))


def _node_for_body(ident, field):
    """A node a request body names: unknown is 400, not 404."""
    try:
        return utils.get_node(ident)
    except (exception.NodeNotFound, exception.InvalidUuidOrName,
            exception.InvalidUUID):
        raise exception.InvalidParameterValue(
            err='Node %s could not be found.' % ident, field=field)


def _owner_for_create(ctx, requested):
    """The owner of a new allocation: whatever an admin asks; a project
    user's own project, and nothing else."""
    if policy.check('baremetal:allocation:create_any_owner', {}, ctx):
        return requested
    if not ctx.project_id:
        raise exception.HTTPForbidden(
            resource='baremetal:allocation:create (no project)')
    if requested and requested != ctx.project_id:
        raise exception.HTTPForbidden(
            resource='baremetal:allocation:create for project %s'
                     % requested)
    return ctx.project_id


def _create_values(ctx, body):
    values = {'uuid': body.get('uuid') or uuidutils.generate_uuid()}
    for name in ('name', 'resource_class', 'extra'):
        if body.get(name) is not None:
            values[name] = body[name]
    values['traits'] = list(body.get('traits') or [])
    candidates = []
    for ident in body.get('candidate_nodes') or []:
        candidates.append(_node_for_body(ident, 'candidate_nodes').uuid)
    if candidates:
        values['candidate_nodes'] = candidates
    values['owner'] = _owner_for_create(ctx, body.get('owner'))
    node = None
    if body.get('node') is not None:
        utils.require_version(versions.ALLOCATION_BACKFILL,
                              'The node field of an allocation')
        node = _node_for_body(body['node'], 'node')
        utils.authorize_node('baremetal:node:get', node)
        values['node_id'] = node.id
    elif not values.get('resource_class'):
        raise exception.InvalidParameterValue(
            err='The resource_class field is mandatory (unless node is '
                'given to backfill an allocation).', field='resource_class')
    return values


class AllocationsController(rest.RestController):

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.hide_below(versions.ALLOCATIONS)
        params = utils.query(LIST_PARAMS)
        ctx = utils.context()
        policy.authorize('baremetal:allocation:list', {}, ctx)
        fields = view_base.parse_fields(utils.fields_param(params))
        # Refuse unknown fields before any query.
        view_base.select(allocation_view.FIELDS, utils.version(), fields)
        filters = {}
        state = params.get('state')
        if state is not None:
            if state not in states.ALLOCATION_STATES:
                raise exception.InvalidParameterValue(
                    err='Invalid allocation state "%s": use one of %s.'
                        % (state, ', '.join(sorted(
                            states.ALLOCATION_STATES))), field='state')
            filters['state'] = state
        if params.get('resource_class') is not None:
            validation.validate(_FIELD_VALIDATORS['resource_class'],
                                {'resource_class': params['resource_class']})
            filters['resource_class'] = params['resource_class']
        if params.get('node') is not None:
            filters['node_id'] = _node_for_body(params['node'], 'node').id
        if params.get('owner') is not None:
            utils.require_version(versions.ALLOCATION_OWNER,
                                  'The owner filter')
            filters['owner'] = params['owner']
        if not policy.check('baremetal:allocation:list_all', {}, ctx):
            if not ctx.project_id:
                return {'allocations': []}
            if filters.get('owner', ctx.project_id) != ctx.project_id:
                raise exception.HTTPForbidden(
                    resource='baremetal:allocation:list_all')
            filters['owner'] = ctx.project_id
        limit, sort_key, sort_dir, marker = utils.parse_page(
            params, db_allocations.ALLOCATION_SORT_KEYS)
        found = utils.dbapi().get_allocation_list(
            filters=filters, limit=limit, marker=marker, sort_key=sort_key,
            sort_dir=sort_dir)
        view_ = allocation_view.view(utils.version(), utils.public_url(),
                                     _node_uuids(found), fields=fields)
        items = [view_.render(a) for a in found]
        last = found[-1].uuid if found else None
        return collection.list_body('allocations', items, limit,
                                    'allocations', last, params)

    @pecan.expose('json')
    def get_one(self, ident, **kwargs):
        utils.hide_below(versions.ALLOCATIONS)
        params = utils.query(['fields'])
        fields = view_base.parse_fields(utils.fields_param(params))
        allocation = get_allocation(ident)
        authorize('baremetal:allocation:get', allocation, ident)
        return _render(allocation, fields)

    @pecan.expose('json')
    def post(self, **kwargs):
        utils.hide_below(versions.ALLOCATIONS)
        utils.query()
        ctx = utils.context()
        policy.authorize('baremetal:allocation:create', {}, ctx)
        body = utils.load_body()
        utils.check_body_fields(body, schema.CREATE_FIELDS,
                                allocation_view.FIELDS, 'allocation')
        utils.validate(_CREATE_VALIDATOR, body)
        values = _create_values(ctx, body)
        # Stored by the API and started by a cast (a backfill: by a
        # conductor): the row is the answer.
        allocation = utils.rpcapi().store_allocation(
            ctx, values, uuid_given=bool(body.get('uuid')))
        utils.set_status(201)
        utils.set_location(links.build_url(
            utils.public_url(), 'allocations/%s' % allocation.uuid))
        return _render(allocation)

    @pecan.expose('json')
    def patch(self, ident=None, **kwargs):
        utils.hide_below(versions.ALLOCATIONS)
        utils.require_ident(ident)
        if not utils.allowed(versions.ALLOCATION_UPDATE):
            raise exception.MethodNotAllowed(
                'Updating an allocation needs API version %s or later.'
                % versions.to_string(versions.ALLOCATION_UPDATE))
        utils.query()
        allocation = get_allocation(ident)
        authorize('baremetal:allocation:update', allocation, ident)
        patch = utils.load_body(list)
        patching.check(patch, allocation_view.FIELDS, utils.version(),
                       schema.PATCH_FIELDS)
        before = {name: getattr(allocation, name)
                  for name in schema.PATCH_FIELDS}
        after = patching.apply(before, patch)
        changes = patching.changes(before, after, DEFAULTS)
        for name, value in changes.items():
            utils.validate(_FIELD_VALIDATORS[name], {name: value})
        if changes.get('extra', 0) is None:
            changes['extra'] = {}
        if changes:
            # Compare-and-swap on the conductor handling it, so a take-over
            # in between is seen (and simply retried once).
            db = utils.dbapi()
            for attempt in range(2):
                try:
                    allocation = db.update_allocation(
                        allocation.id, changes,
                        conductor=allocation.conductor_affinity)
                    break
                except exception.AllocationTakenOver:
                    if attempt:
                        raise
                    allocation = db.get_allocation_by_id(allocation.id)
        return _render(allocation)

    @pecan.expose('json')
    def delete(self, ident=None, **kwargs):
        utils.hide_below(versions.ALLOCATIONS)
        utils.require_ident(ident)
        utils.query()
        allocation = get_allocation(ident)
        authorize('baremetal:allocation:delete', allocation, ident)
        delete_allocation(allocation)
        utils.set_status(204)


def delete_allocation(allocation):
    node = None
    if allocation.node_id is not None:
        node = utils.dbapi().get_node_by_id(allocation.node_id)
    utils.rpcapi().destroy_allocation(utils.context(), allocation, node=node)


class NodeAllocationController(rest.RestController):
    """/v1/nodes/{id}/allocation: the node's allocation (GET, DELETE)."""

    def __init__(self, node_ident):
        self.node_ident = node_ident

    def _allocation(self):
        utils.hide_below(versions.ALLOCATIONS)
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:get')
        if node.allocation_id is None:
            if node.instance_uuid:
                raise exception.InvalidParameterValue(
                    err='Node %s has instance_uuid %s, which is not an '
                        'allocation.' % (node.uuid, node.instance_uuid))
            raise exception.AllocationNotFound(
                allocation='of node %s' % self.node_ident)
        return utils.dbapi().get_allocation_by_id(node.allocation_id)

    @pecan.expose('json')
    def get_all(self, **kwargs):
        params = utils.query(['fields'])
        fields = view_base.parse_fields(utils.fields_param(params))
        allocation = self._allocation()
        authorize('baremetal:allocation:get', allocation)
        return _render(allocation, fields)

    @pecan.expose('json')
    def delete(self, **kwargs):
        utils.query()
        allocation = self._allocation()
        authorize('baremetal:allocation:delete', allocation)
        delete_allocation(allocation)
        utils.set_status(204)
