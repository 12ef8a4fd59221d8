"""Schemas of volume connector and volume target request bodies."""

import functools

from ironic_like.api.schemas import common

# The kinds of initiator identifiers Ironic's API reference lists for a
# connector: iSCSI qualified name, IP or MAC address, Fibre Channel node
# and port world wide names, a port or a port group.
CONNECTOR_TYPES = ('iqn', 'ip', 'mac', 'wwnn', 'wwpn', 'port', 'portgroup')

CONNECTOR_FIELDS = {
    'uuid': common.UUID_OR_NULL,
    'node_uuid': {'type': 'string', 'format': 'uuid'},
    'type': {'type': 'string', 'enum': list(CONNECTOR_TYPES)},
    # Bounded by the column (String(255)).
    'connector_id': {'type': 'string', 'minLength': 1, 'maxLength': 255},
    'extra': common.OBJECT_OR_NULL,
}

TARGET_FIELDS = {
    'uuid': common.UUID_OR_NULL,
    'node_uuid': {'type': 'string', 'format': 'uuid'},
    # Free text for the storage interface ('iscsi', 'fibre_channel'...),
    # bounded by its column.
    'volume_type': {'type': 'string', 'minLength': 1, 'maxLength': 64},
    'properties': common.OBJECT_OR_NULL,
    # 0 is the boot volume. Bounded to what the INTEGER column holds on
    # every backend: a larger number would be a database error, not a 400.
    'boot_index': {'type': 'integer', 'minimum': 0,
                   'maximum': 2 ** 31 - 1},
    'volume_id': {'type': 'string', 'minLength': 1, 'maxLength': 36},
    'extra': common.OBJECT_OR_NULL,
}

CONNECTOR_CREATE_FIELDS = frozenset(CONNECTOR_FIELDS)
CONNECTOR_PATCH_FIELDS = frozenset(CONNECTOR_FIELDS) - {'uuid'}
CONNECTOR_MANDATORY = frozenset(['node_uuid', 'type', 'connector_id'])

TARGET_CREATE_FIELDS = frozenset(TARGET_FIELDS)
TARGET_PATCH_FIELDS = frozenset(TARGET_FIELDS) - {'uuid'}
TARGET_MANDATORY = frozenset(['node_uuid', 'volume_type', 'boot_index',
                              'volume_id'])

_connector_schema = functools.partial(common.object_schema,
                                      CONNECTOR_FIELDS)
_target_schema = functools.partial(common.object_schema, TARGET_FIELDS)

# POST /v1/volume/connectors and /v1/volume/targets.
CONNECTOR_CREATE_BODY = _connector_schema(CONNECTOR_CREATE_FIELDS,
                                          required=CONNECTOR_MANDATORY)
TARGET_CREATE_BODY = _target_schema(TARGET_CREATE_FIELDS,
                                    required=TARGET_MANDATORY)
# Each field a PATCH changes is validated on its own: {name: new value}.
CONNECTOR_FIELD_BODIES = {name: _connector_schema([name])
                          for name in CONNECTOR_PATCH_FIELDS}
TARGET_FIELD_BODIES = {name: _target_schema([name])
                       for name in TARGET_PATCH_FIELDS}
