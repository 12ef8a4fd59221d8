"""The schema of a node's network_data (Ironic 1.66): the
network_data.json document of OpenStack's config drive (links,
networks, services), which cloud-init and Glean read on the deployed
host.

It accepts and refuses what Ironic's network-data-schema.json does (the
default of its [api]network_data_schema option): null, an empty object,
or a document with links, networks and services, where

- a link is a physical-like interface, a bond or a VLAN, told apart by
  its type, each with its required fields and MAC address;
- a network is IPv4 or IPv6 (static, DHCP or SLAAC), told apart by its
  type, with addresses, netmask and routes of its family;
- a service is a DNS server at an IPv4 or IPv6 address.

Ironic checks addresses with regular expressions (it has no format
checker), and so do we: the same expressions, with their quirks (an IPv6
host may carry a /prefix; the IPv4 netmask expression is only partly
anchored, and refuses 255.255.255.255). Keys a part does not describe
are left alone, as Ironic does. Ironic picks one of several schemas
(oneOf); we go by the ``type`` of each item (if/then), which accepts the
same documents but names the key at fault when one is refused.
"""

_STRING = {'type': 'string'}

# -- addresses --------------------------------------------------------------

# A MAC address: six hexadecimal pairs, separated by colons or dashes.
_MAC = {'type': 'string',
        'pattern': '(?i)^([0-9A-F]{2}[:-]){5}([0-9A-F]{2})$'}

_V4_OCTET = '(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)'
# An IPv4 host (or gateway) address, dotted decimal.
_IPV4_HOST = {'type': 'string',
              'pattern': '^(?:%s\\.){3}%s$' % (_V4_OCTET, _V4_OCTET)}
# An IPv4 network address (no leading zeros).
_V4_NW_OCTET = '([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])'
_IPV4_NETWORK = {'type': 'string',
                 'pattern': '^(%s\\.){3}%s$' % (_V4_NW_OCTET, _V4_NW_OCTET)}
# An IPv4 netmask: contiguous ones. As in Ironic, only the first
# alternative is anchored at the start and only the last at the end.
_MASK_OCTET = '(254|252|248|240|224|192|128|0)'
_IPV4_NETMASK = {'type': 'string', 'pattern': '|'.join([
    '^%s\\.0\\.0\\.0' % _MASK_OCTET,
    '255\\.%s\\.0\\.0' % _MASK_OCTET,
    '255\\.255\\.%s\\.0' % _MASK_OCTET,
    '255\\.255\\.255\\.%s$' % _MASK_OCTET,
])}

# IPv6: the full form and the forms compressed with "::".
_H = '[0-9a-fA-F]{1,4}'
_V6_FORMS = [
    '(%s:){7,7}%s' % (_H, _H),
    '(%s:){1,7}:' % _H,
    '(%s:){1,6}:%s' % (_H, _H),
    '(%s:){1,5}(:%s){1,2}' % (_H, _H),
    '(%s:){1,4}(:%s){1,3}' % (_H, _H),
    '(%s:){1,3}(:%s){1,4}' % (_H, _H),
    '(%s:){1,2}(:%s){1,5}' % (_H, _H),
    '%s:((:%s){1,6})' % (_H, _H),
]
# An octet of an IPv4 address embedded in an IPv6 one.
_V6_V4_OCTET = '(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])'
_V6_V4 = '(%s\\.){3,3}%s' % (_V6_V4_OCTET, _V6_V4_OCTET)
# A host or gateway also may be "::", link-local with a zone
# (fe80::1%eth0), or end with an IPv4 address (::ffff:192.0.2.1).
_V6_HOST_FORMS = _V6_FORMS + [
    ':((:%s){1,7}|:)' % _H,
    'fe80:(:[0-9a-fA-F]{0,4}){0,4}%[0-9a-zA-Z]{1,}',
    '::(ffff(:0{1,4}){0,1}:){0,1}' + _V6_V4,
    '(%s:){1,4}:' % _H + _V6_V4,
]
# A network address or netmask: no zone, no embedded IPv4.
_V6_NET_FORMS = _V6_FORMS + [':((:%s){1,7})' % _H, '(::)']

# An IPv6 host address, optionally with a /prefix length.
_IPV6_HOST = {'type': 'string', 'pattern': '^(%s)(/[0-9]{1,2})?$'
              % '|'.join(_V6_HOST_FORMS)}
# An IPv6 gateway address.
_IPV6_GATEWAY = {'type': 'string',
                 'pattern': '^(%s)$' % '|'.join(_V6_HOST_FORMS)}
# An IPv6 network address or netmask.
_IPV6_NETWORK = {'type': 'string',
                 'pattern': '^(%s)$' % '|'.join(_V6_NET_FORMS)}


def _when_type(types, then):
    """Apply ``then`` to an item whose ``type`` is one of ``types``."""
    return {'if': {'properties': {'type': {'enum': types}},
                   'required': ['type']},
            'then': then}


# -- links (L2) -------------------------------------------------------------

# A link whose type is not a bond or a VLAN: an interface with a MAC.
PHY_LINK_TYPES = ['bridge', 'dvs', 'hw_veb', 'hyperv', 'ovs', 'tap',
                  'vhostuser', 'vif', 'phy']
BOND_MODES = ['802.3ad', 'balance-rr', 'active-backup', 'balance-xor',
              'broadcast', 'balance-tlb', 'balance-alb']

# MTU: 1-65535 (any number, as in Ironic) or null.
_MTU = {'anyOf': [{'type': 'number', 'minimum': 1, 'maximum': 65535},
                  {'type': 'null'}]}

LINK = {
    'type': 'object',
    'properties': {
        'id': _STRING,
        'type': {'type': 'string',
                 'enum': PHY_LINK_TYPES + ['bond', 'vlan']},
        'mtu': _MTU,
        # The Neutron port (VIF) behind the link.
        'vif_id': _STRING,
    },
    'required': ['id', 'type'],
    'allOf': [
        # An interface: its MAC.
        _when_type(PHY_LINK_TYPES, {
            'properties': {'ethernet_mac_address': _MAC},
            'required': ['ethernet_mac_address'],
        }),
        # A bond: its MAC, its mode and the ids of the links it bonds.
        _when_type(['bond'], {
            'properties': {
                'ethernet_mac_address': _MAC,
                'bond_mode': {'type': 'string', 'enum': BOND_MODES},
                'bond_links': {'type': 'array', 'items': _STRING},
            },
            'required': ['ethernet_mac_address', 'bond_mode',
                         'bond_links'],
        }),
        # A VLAN: its MAC, its id (any integer) and the link it is on.
        _when_type(['vlan'], {
            'properties': {
                'vlan_mac_address': _MAC,
                'vlan_id': {'type': 'integer'},
                'vlan_link': _STRING,
            },
            'required': ['vlan_mac_address', 'vlan_id', 'vlan_link'],
        }),
    ],
}

# -- services ---------------------------------------------------------------


def _service(address):
    """A DNS server at ``address``."""
    return {
        'type': 'object',
        'properties': {
            'type': {'type': 'string', 'enum': ['dns']},
            'address': address,
        },
        'required': ['address', 'type'],
    }


# A service on the top level: at an IPv4 or an IPv6 address.
SERVICE = _service({'anyOf': [_IPV4_HOST, _IPV6_HOST]})

# -- networks (L3) ----------------------------------------------------------

IPV4_NETWORK_TYPES = ['ipv4', 'ipv4_dhcp']
IPV6_NETWORK_TYPES = ['ipv6', 'ipv6_dhcp', 'ipv6_slaac']


def _route(network, netmask, gateway, host):
    """A route of one address family, and the services behind it."""
    return {
        'type': 'object',
        'properties': {
            'network': network,
            'netmask': netmask,
            'gateway': gateway,
            'services': {'type': 'array', 'items': _service(host)},
        },
        'required': ['gateway', 'netmask', 'network'],
    }


def _family(host, netmask, route):
    """The keys of a network of one address family."""
    return {'properties': {
        'ip_address': host,
        'netmask': netmask,
        'routes': {'type': 'array', 'items': route},
    }}


IPV4_ROUTE = _route(_IPV4_NETWORK, _IPV4_NETMASK, _IPV4_HOST, _IPV4_HOST)
IPV6_ROUTE = _route(_IPV6_NETWORK, _IPV6_NETWORK, _IPV6_GATEWAY,
                    _IPV6_HOST)

NETWORK = {
    'type': 'object',
    'properties': {
        'id': _STRING,
        # The id of the link the network is on.
        'link': _STRING,
        # The Neutron network.
        'network_id': _STRING,
        'type': {'type': 'string',
                 'enum': IPV4_NETWORK_TYPES + IPV6_NETWORK_TYPES},
    },
    'required': ['id', 'link', 'network_id', 'type'],
    'allOf': [
        _when_type(IPV4_NETWORK_TYPES,
                   _family(_IPV4_HOST, _IPV4_NETMASK, IPV4_ROUTE)),
        _when_type(IPV6_NETWORK_TYPES,
                   _family(_IPV6_HOST, _IPV6_NETWORK, IPV6_ROUTE)),
    ],
}

# -- the document -----------------------------------------------------------

# A whole network_data.json: all three lists (other keys are left alone).
DOCUMENT = {
    'type': 'object',
    'properties': {
        'links': {'type': 'array', 'items': LINK},
        'networks': {'type': 'array', 'items': NETWORK},
        'services': {'type': 'array', 'items': SERVICE},
    },
    'required': ['links', 'networks', 'services'],
}

# The node field: null and {} (no network data), or a whole document.
NETWORK_DATA = {
    'type': ['object', 'null'],
    'maxJsonSize': True,
    'if': {'type': 'object', 'minProperties': 1},
    'then': DOCUMENT,
}
