"""Allocations in the API."""

from ironic_like.api import versions as v
from ironic_like.api.views import base


def _node_uuid_make(ctx):
    # The controller maps the page's node ids to UUIDs in one query.
    uuids = ctx.node_uuids
    return lambda allocation: uuids.get(allocation.node_id)


def _traits_make(ctx):
    return lambda allocation: [t.trait for t in allocation.traits]


def _candidates_make(ctx):
    return lambda allocation: list(allocation.candidate_nodes or [])


FIELDS = base.registry(
    base.column('uuid', v.ALLOCATIONS),
    base.column('name', v.ALLOCATIONS),
    base.Field('node_uuid', v.ALLOCATIONS, ['node_id'], _node_uuid_make),
    base.column('state', v.ALLOCATIONS),
    base.column('last_error', v.ALLOCATIONS),
    base.column('resource_class', v.ALLOCATIONS),
    base.Field('traits', v.ALLOCATIONS, ['traits'], _traits_make),
    base.Field('candidate_nodes', v.ALLOCATIONS, ['candidate_nodes'],
               _candidates_make),
    base.column('extra', v.ALLOCATIONS),
    base.column('owner', v.ALLOCATION_OWNER),
    base.datetime_column('created_at', v.ALLOCATIONS),
    base.datetime_column('updated_at', v.ALLOCATIONS),
    base.links_field('allocations', 'uuid'),
)


def view(version, base_url, node_uuids, fields=None):
    names = base.select(FIELDS, version, fields)
    ctx = base.ViewContext(base_url, node_uuids=node_uuids)
    return base.View(FIELDS, names, ctx)
