"""Schemas of port group request bodies."""

import functools

from ironic_like.api.schemas import common

FIELDS = {
    'uuid': common.UUID_OR_NULL,
    # A logical name, as Ironic's (RFC 3986 unreserved characters).
    'name': {'type': ['string', 'null'], 'format': 'logical_name',
             'minLength': 1, 'maxLength': 255},
    # May be unset: a group's MAC is often only known once bonded.
    'address': {'type': ['string', 'null'], 'format': 'mac_address'},
    'node_uuid': {'type': 'string', 'format': 'uuid'},
    'extra': common.OBJECT_OR_NULL,
    'standalone_ports_supported': {'type': ['boolean', 'null']},
    # Linux bonding modes are free text in Ironic too (the switch and the
    # image must agree, not the service).
    'mode': {'type': ['string', 'null'], 'minLength': 1, 'maxLength': 255},
    'properties': common.OBJECT_OR_NULL,
    # API 1.102: its member ports' network (they follow a change).
    'physical_network': {'type': ['string', 'null'], 'maxLength': 64},
    # API 1.103: free text.
    'category': {'type': ['string', 'null'], 'maxLength': 80},
}

CREATE_FIELDS = frozenset(FIELDS)
PATCH_FIELDS = frozenset(FIELDS) - {'uuid'}
# mode cannot be removed either (Ironic: "a mandatory attribute").
MANDATORY = frozenset(['node_uuid'])
PATCH_MANDATORY = frozenset(['node_uuid', 'mode'])

object_schema = functools.partial(common.object_schema, FIELDS)

# POST /v1/portgroups.
CREATE_BODY = object_schema(CREATE_FIELDS, required=MANDATORY)
# Each field a PATCH changes is validated on its own: {name: new value}.
FIELD_BODIES = {name: object_schema([name]) for name in FIELDS}
