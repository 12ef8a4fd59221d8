"""Ports in the API."""

from ironic_like.api.schemas import port as port_schema
from ironic_like.api import versions as v
from ironic_like.api.views import base


def _node_uuid_make(ctx):
    # Ports store the node's id; the controller resolves the ids of a
    # page to UUIDs once (ctx.node_uuids) instead of per port.
    uuids = ctx.node_uuids
    return lambda port: uuids.get(port.node_id)


def _portgroup_uuid_make(ctx):
    # Likewise for groups: one look-up of the page's group ids.
    uuids = ctx.portgroup_uuids
    return lambda port: uuids.get(port.portgroup_id)


def _link_make(ctx):
    # Outside 1.90-1.104 a link naming an OVN VTEP switch is shown empty
    # (the key stays, as clients expect it), as Ironic shows it.
    if v.OVN_VTEP <= ctx.version < v.OVN_VTEP_REMOVED:
        return _link

    def get(port):
        link = port.local_link_connection
        if link and any(key in link for key in port_schema.OVN_VTEP_KEYS):
            return {}
        return link
    return get


def _link(port):
    return port.local_link_connection


FIELDS = base.registry(
    base.column('uuid'),
    base.column('address'),
    base.Field('node_uuid', v.MIN_VERSION, ['node_id'], _node_uuid_make),
    base.column('extra'),
    base.column('pxe_enabled', v.PORT_PXE_AND_LLC),
    base.Field('local_link_connection', v.PORT_PXE_AND_LLC,
               ['local_link_connection'], _link_make),
    base.column('physical_network', v.PHYSICAL_NETWORK),
    base.column('internal_info', v.PORT_INTERNAL_INFO),
    base.Field('portgroup_uuid', v.PORTGROUPS, ['portgroup_id'],
               _portgroup_uuid_make),
    base.column('is_smartnic', v.PORT_SMARTNIC),
    base.column('name', v.PORT_NAME),
    base.column('description', v.PORT_DESCRIPTION),
    base.column('vendor', v.PORT_VENDOR),
    base.column('category', v.PORT_CATEGORY),
    base.column('available_for_dynamic_portgroup', v.DYNAMIC_PORTGROUP),
    base.datetime_column('created_at'),
    base.datetime_column('updated_at'),
    base.links_field('ports', 'uuid'),
)

SHORT = ['uuid', 'address', 'links']


def view(version, base_url, node_uuids, fields=None, detail=True,
         portgroup_uuids=None):
    names = base.select(FIELDS, version, fields, None if detail else SHORT)
    ctx = base.ViewContext(base_url, version=version, node_uuids=node_uuids,
                           portgroup_uuids=portgroup_uuids or {})
    return base.View(FIELDS, names, ctx)
