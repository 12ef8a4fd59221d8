"""Schema of POST /v1/events (Ironic 1.54): what the networking service
reports about the ports it binds to nodes."""

EVENT_TYPES = ('network.bind_port', 'network.unbind_port',
               'network.delete_port')

UUID = {'type': 'string', 'format': 'uuid'}
UUID_OR_NULL = {'type': ['string', 'null'], 'format': 'uuid'}

# One event, checked on its own so that an error names the field of the
# event at fault rather than "events".
EVENT = {
    'type': 'object',
    'properties': {
        'event': {'type': 'string', 'enum': list(EVENT_TYPES)},
        'port_id': UUID,
        'mac_address': {'type': 'string', 'format': 'mac_address'},
        'status': {'type': 'string'},
        'device_id': UUID_OR_NULL,
        'binding:host_id': UUID_OR_NULL,
        'binding:vnic_type': {'type': ['string', 'null']},
    },
    'required': ['event', 'port_id', 'mac_address', 'status'],
    'additionalProperties': False,
}

CREATE_BODY = {
    'type': 'object',
    'properties': {
        'events': {'type': 'array', 'minItems': 1, 'items': EVENT},
    },
    'required': ['events'],
    'additionalProperties': False,
}
