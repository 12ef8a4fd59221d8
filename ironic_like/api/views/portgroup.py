"""Port groups in the API."""

from ironic_like.api import versions as v
from ironic_like.api.views import base

# Short names of the versions of the port group features (versions.py).
PORTGROUPS = v.PORTGROUPS_API
SUBRESOURCES = v.PORTGROUPS
MODE_AND_PROPERTIES = v.PORTGROUP_MODE


def _node_uuid_make(ctx):
    # Groups store the node's id; the controller resolves the ids of a
    # page to UUIDs once (ctx.node_uuids) instead of per group.
    uuids = ctx.node_uuids
    return lambda portgroup: uuids.get(portgroup.node_id)


def _ports_links_make(ctx):
    root = ctx.base_url
    return lambda portgroup: [
        {'href': '%s/v1/portgroups/%s/ports' % (root, portgroup.uuid),
         'rel': 'self'},
        {'href': '%s/portgroups/%s/ports' % (root, portgroup.uuid),
         'rel': 'bookmark'},
    ]


FIELDS = base.registry(
    base.column('uuid', PORTGROUPS),
    base.column('name', PORTGROUPS),
    base.column('address', PORTGROUPS),
    base.Field('node_uuid', PORTGROUPS, ['node_id'], _node_uuid_make),
    base.column('extra', PORTGROUPS),
    base.column('internal_info', PORTGROUPS),
    base.column('standalone_ports_supported', PORTGROUPS),
    base.column('mode', MODE_AND_PROPERTIES),
    base.column('properties', MODE_AND_PROPERTIES),
    base.column('physical_network', v.PORTGROUP_PHYSICAL_NETWORK),
    base.column('category', v.PORTGROUP_CATEGORY),
    base.column('dynamic_portgroup', v.DYNAMIC_PORTGROUP),
    base.datetime_column('created_at', PORTGROUPS),
    base.datetime_column('updated_at', PORTGROUPS),
    base.links_field('portgroups', 'uuid'),
    # Ironic shows the link from 1.23, although the path answers from
    # 1.24 only.
    base.Field('ports', PORTGROUPS, ['uuid'], _ports_links_make),
)

SHORT = ['uuid', 'address', 'name', 'links']


def view(version, base_url, node_uuids, fields=None, detail=True):
    names = base.select(FIELDS, version, fields, None if detail else SHORT)
    ctx = base.ViewContext(base_url, node_uuids=node_uuids)
    return base.View(FIELDS, names, ctx)
