"""A small client of the Ironic-compatible /v1 API.

It sends every request through the keystoneauth session OpenStackClient
made (so clouds.yaml, OS_* variables, keystone tokens and
``--os-auth-type none --os-endpoint URL`` all work as for any other
service) and adds the microversion header. Unless a version was asked
for, the version is negotiated once per command: the highest the server
supports (read from ``GET /``) up to the highest this plugin knows.

Errors become one-line CommandErrors carrying Ironic's faultstring.
"""

import json
import re
import urllib.parse

from keystoneauth1 import exceptions as ksa_exc
from osc_lib import exceptions as osc_exc

VERSION_HEADER = 'X-OpenStack-Ironic-API-Version'
MIN_VERSION_HEADER = 'X-OpenStack-Ironic-API-Minimum-Version'
MAX_VERSION_HEADER = 'X-OpenStack-Ironic-API-Maximum-Version'

# Features of the API the commands use, by the version Ironic added them.
NODE_NAME = (1, 5)
INSPECT_VERB = (1, 6)
FIELDS = (1, 8)
RAID_CONFIG = (1, 12)
ABORT_VERB = (1, 13)
CLEAN_VERB = (1, 15)
ADOPT_VERB = (1, 17)
PORT_PXE_AND_LLC = (1, 19)
NETWORK_INTERFACE = (1, 20)
PORTGROUPS = (1, 23)
PORT_PORTGROUP = (1, 24)
PORTGROUP_MODE = (1, 26)
SOFT_POWER = (1, 27)
VIFS = (1, 28)
INJECT_NMI = (1, 29)
DYNAMIC_DRIVERS = (1, 30)
# The console, inspect, raid and vendor interface fields of a node.
MORE_INTERFACES = (1, 31)
VOLUMES = (1, 32)
STORAGE_INTERFACE = (1, 33)
PHYSICAL_NETWORK = (1, 34)
TRAITS = (1, 37)
RESCUE = (1, 38)
BIOS = (1, 40)
NODE_FAULT = (1, 42)
DETAIL_PARAM = (1, 43)
RESET_INTERFACES = (1, 45)
AUTOMATED_CLEAN = (1, 47)
PROTECTED = (1, 48)
CONDUCTORS = (1, 49)
ALLOCATIONS = (1, 52)
DEPLOY_TEMPLATES = (1, 55)
ALLOCATION_UPDATE = (1, 57)
ALLOCATION_BACKFILL = (1, 58)
ALLOCATION_OWNER = (1, 60)
RETIRED = (1, 61)
LESSEE = (1, 65)
NETWORK_DATA = (1, 66)
# disable_ramdisk of manual cleaning.
CLEAN_DISABLE_RAMDISK = (1, 70)
BOOT_MODE = (1, 76)
DRIVER_FIELDS = (1, 77)
NODE_HISTORY = (1, 78)
NODE_INVENTORY = (1, 81)
NODE_SHARD = (1, 82)
PARENT_CHILD_NODES = (1, 83)
UNHOLD_VERB = (1, 85)
FIRMWARE_INTERFACE = (1, 86)
SERVICE = (1, 87)
PORT_NAME = (1, 88)
# The node's disable_power_off flag.
DISABLE_POWER_OFF = (1, 95)
RUNBOOKS = (1, 92)
INSPECTION_RULES = (1, 96)
# A port's description and the port list's description_contains filter.
PORT_DESCRIPTION = (1, 97)
# The conductor_groups filter of the port and port group lists.
CONDUCTOR_GROUPS_FILTER = (1, 99)
PORT_VENDOR = (1, 100)
PORT_CATEGORY = (1, 101)
PORTGROUP_PHYSICAL_NETWORK = (1, 102)
PORTGROUP_CATEGORY = (1, 103)
# A node's instance_name and the node list's instance_name filter.
INSTANCE_NAME = (1, 104)
SERVICE_DISABLE_RAMDISK = (1, 108)
PORTGROUP_SHARD = (1, 106)
NODE_HEALTH = (1, 109)
# A port's available_for_dynamic_portgroup and a port group's
# dynamic_portgroup.
DYNAMIC_PORTGROUP = (1, 111)
# A runbook's description and traits (/v1/runbooks/{id}/traits).
RUNBOOK_TRAITS = (1, 112)
# The project of a node history event.
NODE_HISTORY_PROJECT = (1, 113)
# The vendor, model and serial_number of a firmware component.
FIRMWARE_HARDWARE = (1, 114)
# The state, target_provision_state and duration_seconds of a node
# history event.
NODE_HISTORY_STATES = (1, 115)

# The highest version this plugin knows: never negotiate above it.
LAST_KNOWN_VERSION = (1, 115)
# What a server that tells nothing is assumed to speak (Ironic's minimum).
FALLBACK_VERSION = (1, 1)

_VERSION_RE = re.compile(r'^(\d+)\.(\d+)$')
# Bound of the pages one list follows (a server whose ``next`` links never
# end must not keep a command running for ever).
MAX_PAGES = 100000


class HTTPError(osc_exc.CommandError):
    """The API answered an error; ``message`` is its faultstring."""

    def __init__(self, status, message):
        self.status = status
        self.message = message
        super().__init__('%s (HTTP %s)' % (message, status))


def version_string(version):
    return '%d.%d' % tuple(version)


def parse_version(text):
    """(major, minor) of '1.52'; ValueError if malformed."""
    match = _VERSION_RE.match((text or '').strip())
    if not match:
        raise ValueError('Invalid API version "%s": use MAJOR.MINOR, '
                         'e.g. 1.52.' % text)
    return int(match.group(1)), int(match.group(2))


def one_line(text):
    """``text`` on one line: whitespace runs, newlines included, become
    one space."""
    return ' '.join(str(text).split())


def fault_message(response):
    """The cause of an error response, from Ironic's body
    ``{"error_message": "<JSON text with faultstring>"}`` and a few
    looser shapes (a plain string, an object, a text body)."""
    message = None
    try:
        doc = response.json()
    except ValueError:
        doc = None
    if isinstance(doc, dict):
        error = doc.get('error_message', doc)
        if isinstance(error, str):
            try:
                error = json.loads(error)
            except ValueError:
                message = error
        if isinstance(error, dict):
            message = (error.get('faultstring') or error.get('message')
                       or error.get('title') or error.get('description'))
            if not message and isinstance(error.get('error'), dict):
                inner = error['error']
                message = inner.get('message') or inner.get('title')
    if not message:
        message = (getattr(response, 'text', '') or '').strip()
    if not message:
        message = getattr(response, 'reason', None) or 'Request failed'
    return one_line(message)


def _connect_error(endpoint, error):
    cause = one_line(error)
    match = re.search(r'\[Errno -?\d+\] ([^\'")]+)', cause)
    if match:
        cause = match.group(1).strip()
    return osc_exc.CommandError(
        'Unable to connect to the baremetal API at %s: %s'
        % (endpoint, cause))


def strip_version_path(endpoint):
    """The service root of ``endpoint`` (catalogs may list .../v1)."""
    endpoint = endpoint.rstrip('/')
    if endpoint.endswith('/v1'):
        endpoint = endpoint[:-len('/v1')]
    return endpoint


def quote(ident):
    return urllib.parse.quote(str(ident), safe='')


class Client(object):
    """The /v1 API at ``endpoint`` through ``session``.

    ``session`` is a keystoneauth1 Session (or anything with its
    ``request(url, method, **kwargs)``); ``version`` is the (major, minor)
    the user asked for, or None to negotiate.
    """

    def __init__(self, session, endpoint, version=None,
                 last_known=LAST_KNOWN_VERSION):
        self.session = session
        self.endpoint = strip_version_path(endpoint)
        self.requested_version = version
        self.last_known = last_known
        self._version = version
        self.server_max_version = None

    # -- microversions ----------------------------------------------------

    @property
    def version(self):
        """The version every request carries (negotiated on first use)."""
        if self._version is None:
            self._version = self._negotiate()
        return self._version

    def _negotiate(self):
        response = self._send('GET', self.endpoint + '/', headers={})
        if response.status_code >= 400:
            raise HTTPError(response.status_code, fault_message(response))
        server_max = None
        header = response.headers.get(MAX_VERSION_HEADER)
        if header:
            try:
                server_max = parse_version(header)
            except ValueError:
                server_max = None
        if server_max is None:
            try:
                doc = response.json()
                server_max = parse_version(
                    doc['default_version']['version'])
            except (ValueError, KeyError, TypeError):
                server_max = None
        if server_max is None:
            server_max = FALLBACK_VERSION
        self.server_max_version = server_max
        return min(server_max, self.last_known)

    def require(self, feature, what):
        """CommandError unless the request version reaches ``feature``."""
        if self.version >= tuple(feature):
            return
        if self.requested_version is not None:
            why = ('version %s was requested (--os-baremetal-api-version)'
                   % version_string(self.version))
        else:
            why = ('the server supports versions up to %s'
                   % version_string(self.server_max_version or self.version))
        raise osc_exc.CommandError('%s: API version %s or later is needed, '
                                   'but %s.' % (what, version_string(feature),
                                                why))

    def supports(self, feature):
        return self.version >= tuple(feature)

    # -- requests ---------------------------------------------------------

    def _send(self, method, url, headers, **kwargs):
        try:
            return self.session.request(url, method, headers=headers,
                                        raise_exc=False, **kwargs)
        except ksa_exc.ConnectFailure as e:
            raise _connect_error(self.endpoint, e)
        except ksa_exc.ClientException as e:
            raise osc_exc.CommandError(one_line(e))

    def request(self, method, path, params=None, body=None,
                versioned=True, log=True):
        """JSON document of ``method`` on /v1/``path`` (None if the answer
        has no body); HTTPError on an error status. ``versioned``: send
        the Ironic microversion (paths outside Ironic's API take none).
        ``log=False``: keystoneauth does not log the request, not even
        with --debug (its body holds secrets)."""
        headers = {'Accept': 'application/json'}
        if versioned:
            headers[VERSION_HEADER] = version_string(self.version)
        kwargs = {}
        if params:
            kwargs['params'] = params
        if body is not None:
            kwargs['json'] = body
        if not log:
            kwargs['log'] = False
        url = '%s/v1/%s' % (self.endpoint, path.lstrip('/'))
        response = self._send(method, url, headers, **kwargs)
        if response.status_code >= 400:
            raise HTTPError(response.status_code, fault_message(response))
        if response.status_code == 204 or not response.content:
            return None
        try:
            return response.json()
        except ValueError:
            raise osc_exc.CommandError(
                'The baremetal API answered %s %s with a body that is not '
                'JSON.' % (method, url))

    def get(self, path, params=None):
        return self.request('GET', path, params=params)

    def post(self, path, body):
        return self.request('POST', path, body=body)

    def put(self, path, body=None):
        return self.request('PUT', path, body=body)

    def patch(self, path, patch, params=None):
        return self.request('PATCH', path, params=params, body=patch)

    def delete(self, path):
        return self.request('DELETE', path)

    def list(self, path, key, params=None, limit=None):
        """Items of a collection, following ``next`` links until they end
        or ``limit`` items (if given and > 0) are collected."""
        params = dict(params or {})
        if limit:
            params['limit'] = limit
        return paginate(lambda page_params: self.get(path, page_params) or {},
                        lambda doc: doc.get(key) or [], params, limit=limit)


def paginate(fetch, items_of, params, limit=None, max_pages=MAX_PAGES):
    """Items of a collection read a page at a time: ``fetch(params)`` is
    the document of a page, ``items_of(document)`` its items; the
    ``next`` link of an object document gives the marker of the next
    page. Stops at a page without items or without a new marker, or once
    ``limit`` items (if given and > 0) are collected."""
    params = dict(params)
    items = []
    seen = set()
    for _page in range(max_pages):
        doc = fetch(params)
        page = items_of(doc)
        items.extend(page)
        if limit and len(items) >= limit:
            return items[:limit]
        marker = (_next_marker(doc.get('next')) if isinstance(doc, dict)
                  else None)
        if not page or not marker or marker in seen:
            break
        seen.add(marker)
        params['marker'] = marker
    return items


def _next_marker(next_url):
    """The marker of a ``next`` link: the next page is asked of our own
    endpoint, which may differ from the server's idea of its URL."""
    if not next_url:
        return None
    query = urllib.parse.urlparse(next_url).query
    values = urllib.parse.parse_qs(query).get('marker')
    return values[-1] if values else None


class ServiceAPI(object):
    """Requests to /v1/``PREFIX``/``path`` through a Client (its session,
    endpoint, authentication and error handling), without the
    microversion header: these paths are outside Ironic's versioned API
    (they have a version document of their own)."""

    PREFIX = None

    def __init__(self, client):
        self.client = client

    def request(self, method, path, params=None, body=None, log=True):
        """JSON document of the answer (None if it has no body);
        HTTPError (a CommandError) on an error status. Parameters whose
        value is None are left out; ``log=False``: the request is not
        logged, not even with --debug."""
        params = {k: v for k, v in (params or {}).items() if v is not None}
        return self.client.request(
            method, '%s/%s' % (self.PREFIX, path.lstrip('/')),
            params=params, body=body, versioned=False, log=log)

    def get(self, path, params=None):
        return self.request('GET', path, params=params)
