"""Schema of POST /v1/nodes/{id}/vifs (Ironic 1.28)."""

# A VIF is named as Ironic names one: a UUID (a Neutron port) or a
# logical name.
VIF_ID = {'type': 'string', 'minLength': 1, 'maxLength': 255,
          'anyOf': [{'format': 'uuid'}, {'format': 'logical_name'}]}

# Keys besides "id" are accepted and passed to the conductor (Ironic
# hands them to the network interface); the whole body is bounded as a
# JSON field is, since it travels over RPC.
ATTACH_BODY = {
    'type': 'object',
    'properties': {'id': VIF_ID},
    'required': ['id'],
    'additionalProperties': True,
    'maxJsonSize': True,
}
