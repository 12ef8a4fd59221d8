"""Volume connectors and volume targets in the API."""

from ironic_like.api import links
from ironic_like.api.views import base

# /v1/volume and the node's volume sub-resource (Ironic's 1.32; the
# constant lives here, as the deploy template view's, so that this
# feature leaves versions.py alone).
VOLUME = (1, 32)

# What a user without baremetal:volume:view_target_properties sees instead
# of a target's properties (Ironic's text: iSCSI connection details and
# the like may be secrets).
REDACTED_PROPERTIES = {
    'redacted_contents': '** Value redacted: Requires permission '
                         'baremetal:volume:view_target_properties access. '
                         'Permission denied. **'}


def _node_uuid_make(ctx):
    # Rows store the node's id; the controller resolves the ids of a page
    # to UUIDs once (ctx.node_uuids) instead of per row.
    uuids = ctx.node_uuids
    return lambda row: uuids.get(row.node_id)


def _properties_make(ctx):
    if ctx.redact_properties:
        return lambda target: dict(REDACTED_PROPERTIES)
    # Secrets inside (a CHAP password...) are masked for everyone.
    return lambda target: base.mask_secrets(target.properties)


CONNECTOR_FIELDS = base.registry(
    base.column('uuid', VOLUME),
    base.column('type', VOLUME),
    base.column('connector_id', VOLUME),
    base.Field('node_uuid', VOLUME, ['node_id'], _node_uuid_make),
    base.column('extra', VOLUME),
    base.datetime_column('created_at', VOLUME),
    base.datetime_column('updated_at', VOLUME),
    base.links_field('volume/connectors', 'uuid'),
)

TARGET_FIELDS = base.registry(
    base.column('uuid', VOLUME),
    base.column('volume_type', VOLUME),
    base.Field('properties', VOLUME, ['properties'], _properties_make),
    base.column('boot_index', VOLUME),
    base.column('volume_id', VOLUME),
    base.column('extra', VOLUME),
    base.Field('node_uuid', VOLUME, ['node_id'], _node_uuid_make),
    base.datetime_column('created_at', VOLUME),
    base.datetime_column('updated_at', VOLUME),
    base.links_field('volume/targets', 'uuid'),
)

# Ironic's short forms (lists without detail).
CONNECTOR_SHORT = ['uuid', 'node_uuid', 'type', 'connector_id', 'links']
TARGET_SHORT = ['uuid', 'node_uuid', 'volume_type', 'boot_index',
                'volume_id', 'links']


def connector_view(version, base_url, node_uuids, fields=None,
                   detail=True):
    names = base.select(CONNECTOR_FIELDS, version, fields,
                        None if detail else CONNECTOR_SHORT)
    ctx = base.ViewContext(base_url, node_uuids=node_uuids)
    return base.View(CONNECTOR_FIELDS, names, ctx)


def target_view(version, base_url, node_uuids, fields=None, detail=True,
                redact_properties=True):
    names = base.select(TARGET_FIELDS, version, fields,
                        None if detail else TARGET_SHORT)
    ctx = base.ViewContext(base_url, node_uuids=node_uuids,
                           redact_properties=redact_properties)
    return base.View(TARGET_FIELDS, names, ctx)


def root(base_url, node_ident=None):
    """The links of /v1/volume, or of /v1/nodes/{node}/volume."""
    path = 'nodes/%s/volume' % node_ident if node_ident else 'volume'
    return {
        'links': links.make_collection_links(base_url, path),
        'connectors': [
            {'href': links.build_url(base_url, path + '/connectors'),
             'rel': 'self'},
            {'href': '%s/%s/connectors' % (base_url, path),
             'rel': 'bookmark'}],
        'targets': [
            {'href': links.build_url(base_url, path + '/targets'),
             'rel': 'self'},
            {'href': '%s/%s/targets' % (base_url, path),
             'rel': 'bookmark'}],
    }
