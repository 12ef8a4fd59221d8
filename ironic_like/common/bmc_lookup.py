"""The BMC addresses inspection data is matched against (POST
/v1/continue_inspection's ``bmc_address``), as Ironic's inspection
look-up matches them: the host of every ``*_address`` field of the
node's driver_info, and the IP addresses that host resolves to, cached
in driver_internal_info when the node's inspection starts (so that the
API's look-up resolves nothing). Loopback addresses a name resolves to
are left out, as Ironic leaves them out."""

import ipaddress
import socket
from urllib import parse

from oslo_log import log

LOG = log.getLogger(__name__)

# driver_internal_info key of the cache (Ironic's name).
CACHE = 'lookup_bmc_addresses'


def host_of(value):
    """The host of a driver_info address: a URL's host, or the value;
    lower-cased, brackets stripped; None when there is none."""
    if not isinstance(value, str) or not value.strip():
        return None
    value = value.strip()
    host = parse.urlsplit(value).hostname if '://' in value else value
    return (host or '').strip('[]').lower() or None


def hosts(driver_info):
    """The hosts of every ``*_address`` field of ``driver_info``."""
    found = {host_of(value) for key, value in (driver_info or {}).items()
             if key.endswith('_address')}
    found.discard(None)
    return found


def _is_loopback(address):
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def resolve(driver_info, node_uuid=None):
    """hosts() and the IP addresses each resolves to (loopback ones left
    out); a name that does not resolve is logged and kept as it is."""
    found = set()
    for host in hosts(driver_info):
        found.add(host)
        try:
            infos = socket.getaddrinfo(host, None, proto=socket.SOL_TCP)
        except (socket.gaierror, UnicodeError) as e:
            LOG.warning('Node %s: BMC host %s does not resolve (%s); '
                        'inspection data is matched against the name '
                        'only', node_uuid, host, e)
            continue
        for info in infos:
            address = info[4][0].split('%')[0].lower()
            if not _is_loopback(address):
                found.add(address)
    return sorted(found)


def addresses(node):
    """What inspection data's BMC address may match for ``node``: its
    driver_info's hosts, and the cached resolved addresses."""
    cached = (node.driver_internal_info or {}).get(CACHE) or ()
    return hosts(node.driver_info) | {a.lower() for a in cached}
