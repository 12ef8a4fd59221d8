"""Ports in the API."""

from ironic_like.api import versions as v
from ironic_like.api.views import base


def _node_uuid_make(ctx):
    # Ports store the node's id; the controller resolves the ids of a
    # page to UUIDs once (ctx.node_uuids) instead of per port.
    uuids = ctx.node_uuids
    return lambda port: uuids.get(port.node_id)


FIELDS = base.registry(
    base.column('uuid'),
    base.column('address'),
    base.Field('node_uuid', v.MIN_VERSION, ['node_id'], _node_uuid_make),
    base.column('extra'),
    base.column('pxe_enabled', v.PORT_PXE_AND_LLC),
    base.column('local_link_connection', v.PORT_PXE_AND_LLC),
    base.column('physical_network', v.PHYSICAL_NETWORK),
    base.constant('internal_info', {}, v.PORT_INTERNAL_INFO),
    base.constant('portgroup_uuid', None, v.PORTGROUPS),
    base.constant('is_smartnic', False, v.PORT_SMARTNIC),
    base.datetime_column('created_at'),
    base.datetime_column('updated_at'),
    base.links_field('ports', 'uuid'),
)

SHORT = ['uuid', 'address', 'links']


def view(version, base_url, node_uuids, fields=None, detail=True):
    names = base.select(FIELDS, version, fields, None if detail else SHORT)
    ctx = base.ViewContext(base_url, node_uuids=node_uuids)
    return base.View(FIELDS, names, ctx)
