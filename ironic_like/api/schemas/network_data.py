"""The schema of a node's network_data (Ironic 1.66): the
network_data.json document of OpenStack's config drive (links,
networks, services), which cloud-init and Glean read on the deployed
host. Checked on the structure they rely on: a link has an id and a
type, a network an id, a type and the link it is on, a service a type
and an address. Other keys of each item are left to them.
"""

_STRING = {'type': 'string', 'maxLength': 255}
_STRINGS = {'type': 'array', 'items': _STRING}

LINK = {
    'type': 'object',
    'properties': {
        'id': _STRING,
        'type': _STRING,
        'ethernet_mac_address': _STRING,
        'mtu': {'type': ['integer', 'null'], 'minimum': 0},
        'vif_id': _STRING,
        'bond_links': _STRINGS,
        'bond_mode': _STRING,
        'vlan_link': _STRING,
        'vlan_id': {'type': 'integer', 'minimum': 0, 'maximum': 4095},
        'vlan_mac_address': _STRING,
    },
    'required': ['id', 'type'],
}

ROUTE = {
    'type': 'object',
    'properties': {
        'network': _STRING,
        'netmask': _STRING,
        'gateway': _STRING,
    },
    'required': ['network', 'netmask', 'gateway'],
}

SERVICE = {
    'type': 'object',
    'properties': {
        'type': _STRING,
        'address': _STRING,
    },
    'required': ['type', 'address'],
}

NETWORK = {
    'type': 'object',
    'properties': {
        'id': _STRING,
        'type': _STRING,
        'link': _STRING,
        'network_id': _STRING,
        'ip_address': _STRING,
        'netmask': _STRING,
        'routes': {'type': 'array', 'items': ROUTE},
        'services': {'type': 'array', 'items': SERVICE},
        'dns_nameservers': _STRINGS,
    },
    'required': ['id', 'type', 'link'],
}

NETWORK_DATA = {
    'type': ['object', 'null'],
    'maxJsonSize': True,
    'properties': {
        'links': {'type': 'array', 'items': LINK},
        'networks': {'type': 'array', 'items': NETWORK},
        'services': {'type': 'array', 'items': SERVICE},
    },
    'additionalProperties': False,
}
