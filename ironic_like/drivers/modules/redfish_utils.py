"""Redfish driver_info parsing and cached sushy connections.

driver_info keys (the same as Ironic's redfish hardware type):

``redfish_address`` (required)
    URL of the BMC, ``http(s)://host[:port]``; without a scheme ``https://``
    is assumed, as Ironic does.
``redfish_system_id``
    Path of the ComputerSystem, e.g. ``/redfish/v1/Systems/<id>``. Optional
    only when the BMC lists exactly one system.
``redfish_username``, ``redfish_password``
    Credentials, always sent with HTTP Basic authentication.
``redfish_verify_ca``
    ``true``/``false`` (bool or string), or the path of a CA bundle file or
    directory. Default: true.
``redfish_auth_type``
    Only ``basic`` is supported (the default).
"""

import collections
import contextlib
import os
import threading
import time
from urllib import parse as urlparse

from oslo_log import log
from oslo_utils import strutils
import sushy

from ironic_like.common import agent_info
from ironic_like.common import exception
from ironic_like.common import masking

LOG = log.getLogger(__name__)

REQUIRED_PROPERTIES = {
    'redfish_address': 'The URL of the Redfish BMC, http(s)://host[:port]. '
                       'Required.',
}
OPTIONAL_PROPERTIES = {
    'redfish_system_id': 'The path of the ComputerSystem resource, e.g. '
                         '/redfish/v1/Systems/1. Optional when the BMC has '
                         'exactly one system.',
    'redfish_username': 'User name for the BMC. Optional.',
    'redfish_password': 'Password for the BMC. Optional.',
    'redfish_verify_ca': 'true, false, or the path of a CA bundle to verify '
                         'the BMC\'s certificate with. Default: true.',
    'redfish_auth_type': 'Authentication: "basic" (the only one supported, '
                         'and the default).',
}
COMMON_PROPERTIES = dict(REQUIRED_PROPERTIES, **OPTIONAL_PROPERTIES)

AUTH_TYPES = ('basic',)

# At most this many sushy connections are kept (least recently used ones
# are dropped first). Not a config option on purpose: it only bounds memory.
MAX_CACHED_CONNECTIONS = 1000

# sushy retries a GET answered with a 5xx (and a refused connection) this
# many times, this many seconds apart. sushy's own defaults (10 x 3 s) would
# hold a conductor worker for 30 s per call against a dead BMC.
SERVER_SIDE_RETRIES = 2
SERVER_SIDE_RETRIES_DELAY = 1
# Seconds to wait for a BMC's answer.
READ_TIMEOUT = 30
CONNECT_TIMEOUT = 10


def _invalid(field, err):
    # Messages quote the address, which may hold a password
    # (https://user:password@bmc): they reach logs and last_error.
    return exception.InvalidParameterValue(err=masking.mask_text(err),
                                           field=field)


def parse_driver_info(node):
    """Check the node's redfish_* driver_info; return the parsed values.

    Raises MissingParameterValue / InvalidParameterValue whose ``field``
    names the driver_info key at fault. Never contacts the BMC.
    """
    info = node.driver_info or {}
    uuid = getattr(node, 'uuid', None)

    address = info.get('redfish_address')
    if not address:
        raise exception.MissingParameterValue(
            err='Node %s: driver_info is missing redfish_address (the URL '
                'of the Redfish BMC).' % uuid, field='redfish_address')
    if not isinstance(address, str):
        raise _invalid('redfish_address',
                       'Node %s: redfish_address must be a string, not %r.'
                       % (uuid, address))
    address = address.strip()
    if '://' not in address:
        address = 'https://' + address
    parsed = urlparse.urlparse(address)
    if parsed.scheme not in ('http', 'https') or not parsed.netloc:
        raise _invalid('redfish_address',
                       'Node %s: invalid redfish_address "%s": expected an '
                       'http(s)://host[:port] URL.' % (uuid, address))
    try:
        parsed.port  # raises ValueError on a bad port
    except ValueError as e:
        raise _invalid('redfish_address',
                       'Node %s: invalid redfish_address "%s": %s.'
                       % (uuid, address, e))
    address = address.rstrip('/')

    system_id = info.get('redfish_system_id')
    if system_id is not None:
        if (not isinstance(system_id, str) or not system_id.startswith('/')
                or any(c.isspace() for c in system_id)
                or system_id.rstrip('/') == ''):
            raise _invalid('redfish_system_id',
                           'Node %s: invalid redfish_system_id %r: expected '
                           'the path of a ComputerSystem, e.g. '
                           '/redfish/v1/Systems/<id>.' % (uuid, system_id))
        system_id = system_id.rstrip('/')

    creds = {}
    for key in ('redfish_username', 'redfish_password'):
        value = info.get(key)
        if value is not None and not isinstance(value, str):
            raise _invalid(key, 'Node %s: %s must be a string.'
                           % (uuid, key))
        creds[key] = value

    verify = info.get('redfish_verify_ca', True)
    if isinstance(verify, str):
        try:
            verify = strutils.bool_from_string(verify, strict=True)
        except ValueError:
            if not os.path.exists(verify):
                raise _invalid('redfish_verify_ca',
                               'Node %s: redfish_verify_ca "%s" is neither '
                               'a boolean nor an existing CA file or '
                               'directory.' % (uuid, verify))
    elif not isinstance(verify, bool):
        raise _invalid('redfish_verify_ca',
                       'Node %s: redfish_verify_ca must be a boolean or the '
                       'path of a CA bundle, not %r.' % (uuid, verify))

    auth_type = info.get('redfish_auth_type', 'basic')
    if auth_type not in AUTH_TYPES:
        raise _invalid('redfish_auth_type',
                       'Node %s: redfish_auth_type "%s" is not supported; '
                       'supported: %s.' % (uuid, auth_type,
                                           ', '.join(AUTH_TYPES)))

    return {'address': address, 'system_id': system_id,
            'username': creds['redfish_username'],
            'password': creds['redfish_password'],
            'verify_ca': verify, 'auth_type': auth_type,
            'node_uuid': uuid}


class ConnectionCache(object):
    """Bounded LRU cache of sushy.Sushy objects.

    Keyed by (address, username, system id); an entry whose password,
    CA verification or auth type differ from the node's is replaced.
    """

    def __init__(self, max_size=MAX_CACHED_CONNECTIONS):
        self.max_size = max_size
        self._entries = collections.OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def key(info):
        return (info['address'], info['username'], info['system_id'])

    @staticmethod
    def _fingerprint(info):
        return (info['password'], str(info['verify_ca']), info['auth_type'])

    def get(self, info):
        key = self.key(info)
        fingerprint = self._fingerprint(info)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] == fingerprint:
                self._entries.move_to_end(key)
                return entry[1]
        # Built outside the lock: it talks to the BMC (GET of the root).
        conn = _connect(info)
        with self._lock:
            old = self._entries.pop(key, None)
            self._entries[key] = (fingerprint, conn)
            evicted = [old[1]] if old else []
            while len(self._entries) > self.max_size:
                evicted.append(self._entries.popitem(last=False)[1][1])
        for stale in evicted:
            _close(stale)
        return conn

    def drop(self, info):
        with self._lock:
            entry = self._entries.pop(self.key(info), None)
        if entry:
            _close(entry[1])

    def clear(self):
        with self._lock:
            entries = list(self._entries.values())
            self._entries.clear()
        for entry in entries:
            _close(entry[1])

    def __len__(self):
        return len(self._entries)


def _close(conn):
    try:
        conn._conn.close()
    except Exception:
        pass


def _connect(info):
    auth = sushy.auth.BasicAuth(username=info['username'],
                                password=info['password'])
    return sushy.Sushy(info['address'], verify=info['verify_ca'], auth=auth,
                       server_side_retries=SERVER_SIDE_RETRIES,
                       server_side_retries_delay=SERVER_SIDE_RETRIES_DELAY,
                       read_timeout=READ_TIMEOUT,
                       connect_timeout=CONNECT_TIMEOUT)


_CACHE = ConnectionCache()


def drop_connection(info):
    """Forget the node's cached connection: the next call reconnects
    (after a connection error: the BMC may have restarted)."""
    _CACHE.drop(info)


def describe(info):
    """The node's system and BMC, for messages (the password of the
    address, if it has one, masked)."""
    return ('Redfish system %s at %s'
            % (info['system_id'] or '(the only one)',
               masking.mask_url_password(info['address'])))


@contextlib.contextmanager
def sushy_errors(info, action, error_cls):
    """Turn sushy's errors into ours, with a message saying what failed.

    ``error_cls`` is used for failures of ``action`` itself (e.g.
    PowerStateFailure); a system that does not exist or rejected
    credentials are configuration errors (InvalidParameterValue naming the
    driver_info key).
    """
    try:
        yield
    except exception.IronicLikeException:
        raise
    except sushy.exceptions.ResourceNotFoundError as e:
        raise _invalid('redfish_system_id',
                       'Node %s: %s: %s failed, the BMC has no such system '
                       '(check redfish_system_id): %s'
                       % (info['node_uuid'], describe(info), action, e))
    except sushy.exceptions.UnknownDefaultError as e:
        raise exception.MissingParameterValue(
            err=masking.mask_text(
                'Node %s: redfish_system_id is not set and the BMC at %s '
                'does not have exactly one system: %s'
                % (info['node_uuid'], info['address'], e)),
            field='redfish_system_id')
    except sushy.exceptions.AccessError as e:
        _CACHE.drop(info)
        raise _invalid('redfish_username',
                       'Node %s: %s: %s failed, access denied (check '
                       'redfish_username/redfish_password): %s'
                       % (info['node_uuid'], describe(info), action, e))
    except sushy.exceptions.SushyError as e:
        if isinstance(e, sushy.exceptions.ConnectionError):
            # The next call reconnects (the BMC may have restarted).
            _CACHE.drop(info)
        # sushy's messages quote the URL it used.
        raise error_cls(masking.mask_text(
            'Node %s: %s: %s failed: %s'
            % (info['node_uuid'], describe(info), action, e)))


def get_system(node, action='reading the system', error_cls=None):
    """(parsed driver_info, sushy System read now from the BMC)."""
    info = parse_driver_info(node)
    error_cls = error_cls or exception.IronicLikeException
    with sushy_errors(info, action, error_cls):
        conn = _CACHE.get(info)
        return info, conn.get_system(info['system_id'])


def _service(node, action, getter, name):
    """(parsed driver_info, the connection, the BMC's service ``name``
    from ``conn.<getter>()``); IronicLikeException saying the BMC has
    none."""
    info = parse_driver_info(node)
    with sushy_errors(info, action, exception.IronicLikeException):
        conn = _CACHE.get(info)
        try:
            return info, conn, getattr(conn, getter)()
        except (sushy.exceptions.MissingAttributeError,
                sushy.exceptions.ResourceNotFoundError) as e:
            raise exception.IronicLikeException(masking.mask_text(
                'Node %s: %s: %s failed, the BMC has no %s: %s'
                % (info['node_uuid'], describe(info), action, name, e)))


def get_update_service(node, action):
    """(parsed driver_info, the BMC's sushy UpdateService, the number of
    systems the BMC lists): a BMC with more than one must be told which
    system an update is for (SimpleUpdate's Targets), as Ironic does."""
    info, conn, service = _service(node, action, 'get_update_service',
                                   'UpdateService')
    with sushy_errors(info, action, exception.IronicLikeException):
        count = len(conn.get_system_collection().members_identities)
    return info, service, count


def get_event_service(node, action):
    """(parsed driver_info, the BMC's sushy EventService)."""
    info, _conn, service = _service(node, action, 'get_event_service',
                                    'EventService')
    return info, service


def read_optional(node_uuid, what, read, default=None):
    """``read()`` of a part of a system the caller does without: its
    absence (no link) or a BMC error gives ``default``, logged."""
    try:
        return read()
    except sushy.exceptions.MissingAttributeError:
        LOG.debug('Node %s: its BMC reports no %s', node_uuid, what)
    except sushy.exceptions.SushyError as e:
        LOG.warning('Node %s: reading %s from its BMC failed, going on '
                    'without: %s', node_uuid, what,
                    masking.mask_text(str(e)))
    return default


def network_adapters(node_uuid, system, first_chassis_only=False):
    """The NetworkAdapter resources of the chassis ``system`` is in, or
    of the first one (Ironic's choice for firmware: a blade's enclosure,
    a later chassis, may hold adapters shared by other systems);
    read_optional: a BMC without them gives none."""
    adapters = []
    chassis_list = read_optional(node_uuid, 'the chassis',
                                 lambda: list(system.chassis or ()), [])
    if first_chassis_only:
        chassis_list = chassis_list[:1]
    for chassis in chassis_list:
        adapters.extend(read_optional(
            node_uuid, 'the network adapters',
            lambda c=chassis: list(c.network_adapters.get_members()), []))
    return adapters


def reboot_to_apply(task):
    """Reboot the node so that its firmware applies what was written
    (BIOS settings, a firmware image), and record the power state it
    reached. When its agent runs (other
    steps need the ramdisk), the node is made to boot the ramdisk again,
    as Ironic reboots to finish a step (its network boot is set once);
    the agent token goes either way, so that the next lookup gets a new
    one."""
    if (task.node.driver_internal_info or {}).get(agent_info.AGENT_URL):
        task.driver.boot.prepare_ramdisk(task)
    agent_info.wipe_agent_token(task)
    power = task.driver.power
    power.reboot(task)
    task.update_node({'power_state': power.get_power_state(task),
                      'target_power_state': None})


# The states of a BMC task not over yet, and the statuses of one that
# ended well (Ironic's reading).
TASK_RUNNING = (sushy.TASK_STATE_NEW, sushy.TASK_STATE_STARTING,
                sushy.TASK_STATE_RUNNING, sushy.TASK_STATE_PENDING)
TASK_SUCCEEDED = (sushy.HEALTH_OK, sushy.HEALTH_WARNING)


def task_text(value):
    """A sushy enum member as the BMC wrote it."""
    return getattr(value, 'value', value)


def task_messages(sushy_task):
    """The task's messages, as text."""
    found = []
    with contextlib.suppress(Exception):
        messages = sushy_task.messages or []
        if messages and not messages[0].message:
            sushy_task.parse_messages()
        for message in messages:
            text = message.message
            if not text or text.lower() in ('unknown', 'unknown error'):
                text = message.message_id
            if text:
                found.append(text)
    return found


def connection(info):
    """The sushy connection to the BMC of parsed driver_info ``info``
    (cached); call it inside sushy_errors."""
    return _CACHE.get(info)


def task_monitor(node, uri):
    """The sushy TaskMonitor of the BMC task at ``uri`` (kept as its URI
    by a polled step); None when it cannot be made now."""
    try:
        info = parse_driver_info(node)
        return _CACHE.get(info).get_task_monitor(uri)
    except Exception as e:
        LOG.info('Node %s: the BMC task %s cannot be read now: %s',
                 node.uuid, uri, masking.mask_text(str(e)))
        return None


def task_failure(monitor):
    """What a BMC task (a sushy TaskMonitor) that ended badly says: 'ended
    <state> (status <status>): <messages>'; None while it runs, once it
    ended well, when it says no state, when the BMC no longer has it, or
    when it cannot be read now (the caller reads again), or without a
    monitor."""
    if monitor is None:
        return None
    try:
        if monitor.check_is_processing:
            task = monitor.task
            state = getattr(task, 'task_state', None)
            if state is None or state in TASK_RUNNING:
                return None
        else:
            task = monitor.get_task()
    except Exception:
        return None
    state = getattr(task, 'task_state', None)
    status = getattr(task, 'task_status', None)
    # No state said: what the task did shows in the resources it changed.
    if state is None or state in TASK_RUNNING or (
            state == sushy.TASK_STATE_COMPLETED and
            status in TASK_SUCCEEDED):
        return None
    return 'ended %s (status %s): %s' % (
        task_text(state), task_text(status),
        '; '.join(task_messages(task)) or 'no message')


def poll(read, timeout, interval, node_uuid, what):
    """Call ``read()`` -> (value, done) until done or ``timeout`` seconds
    passed, every ``interval`` seconds; the last value. A read that
    fails (IronicLikeException: a BMC often answers 503 or drops the
    connection while the machine runs its power-on self test) is tried
    again until the deadline, then raised. ``what`` is read, for the
    log."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value, done = read()
        except exception.IronicLikeException as e:
            if time.monotonic() >= deadline:
                raise
            LOG.info('Node %s: reading %s failed (read again): %s',
                     node_uuid, what, exception.safe_message(e))
        else:
            if done or time.monotonic() >= deadline:
                return value
        time.sleep(interval)
