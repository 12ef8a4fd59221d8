"""Chassis in the API."""

from ironic_like.api import versions as v
from ironic_like.api.views import base

UNSET_CHASSIS_UUID = v.UNSET_CHASSIS_UUID


def _nodes_links_make(ctx):
    root = ctx.base_url
    return lambda chassis: [
        {'href': '%s/v1/chassis/%s/nodes' % (root, chassis.uuid),
         'rel': 'self'},
        {'href': '%s/chassis/%s/nodes' % (root, chassis.uuid),
         'rel': 'bookmark'},
    ]


FIELDS = base.registry(
    base.column('uuid'),
    base.column('description'),
    base.column('extra'),
    base.datetime_column('created_at'),
    base.datetime_column('updated_at'),
    base.links_field('chassis', 'uuid'),
    base.Field('nodes', v.MIN_VERSION, ['uuid'], _nodes_links_make),
)

# Ironic's short form (lists without detail).
SHORT = ['uuid', 'description', 'links']


def view(version, base_url, fields=None, detail=True):
    names = base.select(FIELDS, version, fields, None if detail else SHORT)
    return base.View(FIELDS, names, base.ViewContext(base_url))
