"""Schemas of port request bodies."""

import functools

from ironic_like.api.schemas import common

# The OVN VTEP switch of a link (API 1.90): both or neither; below 1.90
# the API refuses them, and shows a link holding them as {}.
OVN_VTEP_KEYS = ('vtep-logical-switch', 'vtep-physical-switch')

# Keys of local_link_connection: Ironic's by API 1.90 (hostname: a smart
# NIC's host, 1.53; network_type, 1.64; the OVN VTEP switch, 1.90: the API
# refuses each below its version).
LOCAL_LINK_CONNECTION = {
    'type': ['object', 'null'],
    'properties': {
        'switch_id': {'type': 'string', 'format': 'switch_id'},
        'port_id': {'type': 'string', 'minLength': 1, 'maxLength': 255},
        'switch_info': {'type': 'string', 'maxLength': 255},
        'hostname': {'type': 'string', 'minLength': 1, 'maxLength': 255},
        'network_type': {'type': 'string',
                         'enum': ['managed', 'unmanaged']},
        'vtep-logical-switch': {'type': 'string', 'minLength': 1,
                                'maxLength': 255},
        'vtep-physical-switch': {'type': 'string', 'minLength': 1,
                                 'maxLength': 255},
    },
    'additionalProperties': False,
    'dependentRequired': {'vtep-logical-switch': ['vtep-physical-switch'],
                          'vtep-physical-switch': ['vtep-logical-switch']},
    # Empty, or enough to find the switch port (or the smart NIC's host);
    # a link no networking service manages needs nothing more.
    'anyOf': [{'maxProperties': 0},
              {'required': ['switch_id', 'port_id']},
              {'required': ['port_id', 'hostname']},
              {'required': ['port_id'] + list(OVN_VTEP_KEYS)},
              {'required': ['network_type'],
               'properties': {'network_type': {'const': 'unmanaged'}}}],
}

FIELDS = {
    'uuid': common.UUID_OR_NULL,
    'address': {'type': 'string', 'format': 'mac_address'},
    'node_uuid': {'type': 'string', 'format': 'uuid'},
    'extra': common.OBJECT_OR_NULL,
    'pxe_enabled': {'type': ['boolean', 'null']},
    'local_link_connection': LOCAL_LINK_CONNECTION,
    'physical_network': {'type': ['string', 'null'], 'maxLength': 64},
    # The group (of the port's node) the port is a member of (API 1.24).
    'portgroup_uuid': common.UUID_OR_NULL,
    # A smart NIC (API 1.53); null (removed) is false.
    'is_smartnic': {'type': ['boolean', 'null']},
    # API 1.88: unique; the port can be named by it in URLs.
    'name': {'type': ['string', 'null'], 'format': 'logical_name',
             'minLength': 1, 'maxLength': 255},
    # Free text: API 1.97, 1.100, 1.101.
    'description': {'type': ['string', 'null'], 'maxLength': 255},
    'vendor': {'type': ['string', 'null'], 'maxLength': 32},
    'category': {'type': ['string', 'null'], 'maxLength': 80},
    # API 1.111: null (removed) is true.
    'available_for_dynamic_portgroup': {'type': ['boolean', 'null']},
}

CREATE_FIELDS = frozenset(FIELDS)
PATCH_FIELDS = frozenset(FIELDS) - {'uuid'}
MANDATORY = frozenset(['address', 'node_uuid'])


# The object schema of a body setting ``names`` (a subset of FIELDS).
object_schema = functools.partial(common.object_schema, FIELDS)

# POST /v1/ports: the node by node_uuid or (1.94) node_ident, a UUID or
# a name (the API turns node_ident into node_uuid before the rest is
# validated).
CREATE_BODY = object_schema(CREATE_FIELDS, required=['address'])
CREATE_BODY['properties']['node_ident'] = {'type': 'string', 'minLength': 1,
                                           'maxLength': 255}
# (One of node_uuid and node_ident is required: the API checks it, to
# name the missing field.)
# Each field a PATCH changes is validated on its own: {name: new value}.
FIELD_BODIES = {name: object_schema([name]) for name in FIELDS}
