"""A simulated BMC: sushy-tools' Redfish emulator with a fixed power delay.

Run as ``python -m ironic_like_lab.redfish_emulator [--power-delay S]
[--post-delay S] <sushy-emulator arguments>``. sushy-tools' FakeDriver
(no libvirt) applies a power change after a random, hard-coded 1-11 s;
this wrapper makes that
delay ``--power-delay`` seconds (default 0) and then runs the emulator
unchanged. A change still shows only on the next GET of the system.

With ``EXTERNAL_NOTIFICATION_URL`` pointing at the agent simulator's
``/control/power``, the simulated machines follow the emulator's power and
boot device (see :func:`write_config`), and the emulator honours their
failure options ``ignore_graceful_shutdown`` and ``fail_power_on`` (see
:func:`patch_power_faults`). Systems that define ``bios`` have a BIOS whose
settings apply at the next boot (:func:`patch_bios`; ``--post-delay``
seconds after it started, as in a power-on self test), and every system's
SecureBoot has the ResetKeys action (:func:`patch_secure_boot_keys`).
Systems that define ``firmware`` report BIOS and BMC versions that
UpdateService.SimpleUpdate changes from an image the emulator downloads,
a BIOS image at the next boot (:func:`patch_firmware_update`), and the
service has an EventService whose subscriptions receive test events
(:func:`patch_event_service`). Systems that define ``storage`` have RAID
controllers whose volumes a client creates and deletes, at once or at the
next boot (:func:`redfish_storage.patch_storage`).
sushy-tools is needed only here (it is a test requirement, not a service
one).
"""

import argparse
import functools
import inspect
import logging
import sys
import time
from urllib import parse
import uuid as uuidlib

import requests

from ironic_like_lab import redfish_storage
from ironic_like_lab import redfish_views as views

LOG = logging.getLogger(__name__)

# Resets a machine's OS may ignore (option ignore_graceful_shutdown) and
# the ones its BMC refuses with fail_power_on.
GRACEFUL_RESETS = ('GracefulShutdown', 'GracefulRestart')
POWER_ON_RESETS = ('On', 'ForceOn')
POWER_ON_FAILURE = 'simulated power-on failure'
# (connect, read) seconds for asking the simulator: a Redfish request
# waits on it.
SIMULATOR_TIMEOUT = (1.0, 2.0)
_NOTIFY_PATH = '/control/power'


class _FixedRandom(object):
    """Stands for the ``random`` module inside sushy-tools' FakeDriver."""

    def __init__(self, delay):
        self.delay = delay

    def randint(self, low, high):
        return self.delay


def patch_power_delay(delay=0):
    """Make the FakeDriver apply power changes after ``delay`` seconds."""
    from sushy_tools.emulator.resources.systems import fakedriver
    source = inspect.getsource(fakedriver.FakeDriver.set_power_state)
    if 'random.randint' not in source:
        # sushy-tools changed: fail loudly rather than keep a random delay.
        raise RuntimeError('sushy-tools FakeDriver.set_power_state no longer '
                           'uses random.randint; update the wrapper in %s'
                           % __file__)
    fakedriver.random = _FixedRandom(int(delay))


def simulator_url(notification_url):
    """The agent simulator's base URL when ``notification_url`` is its
    ``/control/power``; None otherwise (e.g. a test's listener)."""
    if not notification_url:
        return None
    parts = parse.urlsplit(str(notification_url))
    path = parts.path.rstrip('/')
    if not path.endswith(_NOTIFY_PATH):
        return None
    return parse.urlunsplit((parts.scheme, parts.netloc,
                             path[:-len(_NOTIFY_PATH)], '', ''))


def machine_options(sim_url, system, timeout=SIMULATOR_TIMEOUT):
    """The options of the simulated machine behind a FakeDriver system
    (found by its uuid, a NIC's MAC or its name), or {} when the
    simulator does not know it or does not answer."""
    keys = [system.get('uuid')] + [
        nic.get('mac') for nic in system.get('nics') or []
        if isinstance(nic, dict)] + [system.get('name')]
    for key in keys:
        if not key:
            continue
        url = '%s/control/agents/%s/options' % (
            sim_url, parse.quote(str(key), safe=''))
        try:
            resp = requests.get(url, timeout=timeout)
            if resp.status_code == 404:
                continue
            resp.raise_for_status()
            return resp.json().get('options') or {}
        except (requests.RequestException, ValueError, AttributeError) as e:
            LOG.warning('Simulator %s did not give the options of %s: %s',
                        sim_url, key, e)
            return {}
    return {}


def power_fault(driver, identity, state):
    """What a simulated machine does with a reset: None (apply it),
    ``'ignore'`` or ``'fail'``; asks the simulator only for a graceful
    reset of a machine that is on or a power-on of one that is off."""
    from sushy_tools import error
    if state not in GRACEFUL_RESETS + POWER_ON_RESETS:
        return None
    try:
        system = driver._get(identity)
    except error.FishyError:
        return None  # set_power_state answers it (not found, alias)
    is_on = system.get('power_state') == 'On'
    if is_on != (state in GRACEFUL_RESETS):
        return None
    config = getattr(driver, '_config', None) or {}
    sim_url = simulator_url(config.get('EXTERNAL_NOTIFICATION_URL'))
    if sim_url is None:
        return None
    options = machine_options(sim_url, system)
    if state in GRACEFUL_RESETS and options.get('ignore_graceful_shutdown'):
        return 'ignore'
    if state in POWER_ON_RESETS and options.get('fail_power_on'):
        return 'fail'
    return None


def patch_power_faults():
    """Make the FakeDriver honour the simulated machines' options
    ``ignore_graceful_shutdown`` and ``fail_power_on``.

    The emulator's reset action calls ``FakeDriver.set_power_state``; the
    wrapped one asks the agent simulator (the host of
    ``EXTERNAL_NOTIFICATION_URL``, when that is its ``/control/power``)
    for the machine's options first: a graceful reset of a machine that
    ignores it returns at once and changes nothing (the BMC accepted it,
    the OS ignored it: 204, the machine stays on); a power-on of a machine
    with ``fail_power_on`` raises sushy-tools' ``FishyError`` (the
    emulator answers 500 "simulated power-on failure"). When the
    simulator does not answer, the reset applies as usual.
    """
    from sushy_tools.emulator.resources.systems import fakedriver
    from sushy_tools import error
    driver = fakedriver.FakeDriver
    original = driver.set_power_state
    if getattr(original, 'ironic_like_power_faults', False):
        return
    params = list(inspect.signature(original).parameters)
    if (params != ['self', 'identity', 'state']
            or not callable(getattr(driver, '_get', None))
            or 'cls._config' not in inspect.getsource(driver.initialize)
            or not issubclass(getattr(error, 'FishyError', type), Exception)):
        # sushy-tools changed: fail loudly rather than ignore the options.
        raise RuntimeError('sushy-tools FakeDriver.set_power_state, _get or '
                           '_config changed; update the wrapper in %s'
                           % __file__)

    @functools.wraps(original)
    def set_power_state(self, identity, state):
        fault = power_fault(self, identity, state)
        if fault == 'ignore':
            self._logger.info('System %s ignores %s (simulated '
                              'ignore_graceful_shutdown)', identity, state)
            return None
        if fault == 'fail':
            self._logger.info('System %s fails %s (simulated fail_power_on)',
                              identity, state)
            raise error.FishyError(POWER_ON_FAILURE, 500)
        return original(self, identity, state)

    set_power_state.ironic_like_power_faults = True
    driver.set_power_state = set_power_state


# A system definition's factory BIOS attributes ({name: value}); a system
# without them has no BIOS, as sushy-tools' FakeDriver has none. What a
# BIOS settings PATCH or a ResetBios asks for is pending (kept under
# _BIOS_PENDING, _BIOS_RESET) until the machine has booted again, as on
# real hardware: a reset that starts a boot marks them _BIOS_BOOTING, and
# they apply once the machine is on (the emulator's power delay passed;
# storage operations waiting for a reset apply then too: see
# redfish_storage.patch_storage).
# _BIOS_CURRENT holds what the last boot applied.
BIOS_KEY = 'bios'
_BIOS_CURRENT = 'bios_current'
_BIOS_PENDING = 'bios_pending'
_BIOS_RESET = 'bios_reset_pending'
_BIOS_BOOTING = 'bios_booting'
# When that boot started (time.time()): what waits for it applies only
# --post-delay seconds later, as firmware applies it in its power-on self
# test, minutes into a real server's boot.
_BOOT_STARTED = 'boot_started_at'
_POST = [0]
# A system's firmware versions ({'bios': ..., 'bmc': ...}: see
# patch_firmware_update) and the BIOS version flashed at its next boot.
FIRMWARE_KEY = 'firmware'
_FIRMWARE_PENDING = 'firmware_bios_pending'


def _bios_system(driver, identity):
    """The system (its due power change applied first), and what waits
    for a boot applied if it has booted since (see _apply_at_boot)."""
    from sushy_tools import error
    system = _applied_at_boot(driver, identity)
    if not isinstance(system.get(BIOS_KEY), dict):
        raise error.NotSupportedError('System %s has no BIOS' % identity)
    return system


def _applied_at_boot(driver, identity):
    """The system (its due power change applied first); its pending BIOS
    settings, BIOS firmware and storage operations (see
    :func:`redfish_storage.patch_storage`) applied if it has booted since
    they were asked for."""
    system = driver._get(identity)
    if (system.get(_BIOS_BOOTING) and system.get('power_state') == 'On'
            and not system.get('pending_power') and
            time.time() - (system.get(_BOOT_STARTED) or 0) >=
            _POST[0]):
        # Storage first: its operations stay armed (applied at a later
        # boot) should clearing the flag below be the last thing done.
        redfish_storage.apply_armed_storage(driver, system)
        changes = {_BIOS_BOOTING: False}
        if isinstance(system.get(BIOS_KEY), dict):
            base = (dict(system[BIOS_KEY]) if system.get(_BIOS_RESET)
                    else _current_bios(system))
            base.update(system.get(_BIOS_PENDING) or {})
            changes.update({_BIOS_CURRENT: base, _BIOS_PENDING: None,
                            _BIOS_RESET: False})
        if system.get(_FIRMWARE_PENDING):
            changes[FIRMWARE_KEY] = dict(system[FIRMWARE_KEY],
                                         bios=system[_FIRMWARE_PENDING])
            changes[_FIRMWARE_PENDING] = None
        driver._update(system, **changes)
    return system


def _waits_for_boot(system):
    """Something applies at the machine's next boot."""
    return bool((isinstance(system.get(BIOS_KEY), dict)
                 and (system.get(_BIOS_PENDING) or system.get(_BIOS_RESET)))
                or system.get(_FIRMWARE_PENDING))


def _current_bios(system):
    current = system.get(_BIOS_CURRENT)
    return dict(system[BIOS_KEY] if current is None else current)


def _pending_bios(system):
    """The settings resource's view: what the next boot will set."""
    base = (dict(system[BIOS_KEY]) if system.get(_BIOS_RESET)
            else _current_bios(system))
    base.update(system.get(_BIOS_PENDING) or {})
    return base


def patch_bios():
    """Give the FakeDriver's systems that define ``bios`` a BIOS: GET
    /BIOS shows the current attributes, a PATCH of /BIOS/Settings (an
    attribute the BIOS does not have: 400) and the ResetBios action are
    pending until the machine boots again (a restart, or a power-on of a
    machine that was off; not a reset the machine ignored), and
    ``get_bios_pending`` gives what the settings resource shows (see
    :func:`patch_bios_settings_view`)."""
    from sushy_tools.emulator.resources.systems import fakedriver
    from sushy_tools import error
    driver = fakedriver.FakeDriver
    original = driver.set_power_state
    if getattr(original, 'ironic_like_bios', False):
        return
    if not callable(getattr(driver, '_update', None)):
        # sushy-tools changed: fail loudly rather than lose the settings.
        raise RuntimeError('sushy-tools FakeDriver._update changed; update '
                           'the BIOS of %s' % __file__)

    def get_bios(self, identity):
        return _current_bios(_bios_system(self, identity))

    def get_bios_pending(self, identity):
        return _pending_bios(_bios_system(self, identity))

    def set_bios(self, identity, attributes):
        system = _bios_system(self, identity)
        if not isinstance(attributes, dict) or not attributes:
            raise error.BadRequest('Attributes must be a non-empty object')
        unknown = sorted(set(attributes) - set(system[BIOS_KEY]))
        if unknown:
            raise error.BadRequest('Unknown BIOS attribute(s): %s'
                                   % ', '.join(unknown))
        pending = dict(system.get(_BIOS_PENDING) or {})
        pending.update(attributes)
        self._update(system, **{_BIOS_PENDING: pending})

    def reset_bios(self, identity):
        system = _bios_system(self, identity)
        self._update(system, **{_BIOS_PENDING: None, _BIOS_RESET: True})

    @functools.wraps(original)
    def set_power_state(self, identity, state):
        uuid = self.uuid(identity)
        result = original(self, identity, state)
        # A boot started when the reset left a power change pending (a
        # power-on of a machine already on, or a reset the machine
        # ignored, leaves none). Read without _get(), which would apply
        # it.
        raw = self._systems[uuid]
        if (raw.get('pending_power')
                and raw['pending_power'].get('power_state') != 'Off'):
            # Storage operations asked for until now apply at this boot,
            # not those asked for while it is under way.
            armed = redfish_storage.arm_storage(self, raw)
            if armed or _waits_for_boot(raw):
                self._update(raw, **{_BIOS_BOOTING: True,
                                     _BOOT_STARTED: time.time()})
        return result

    set_power_state.ironic_like_bios = True
    driver.get_bios = get_bios
    driver.get_bios_pending = get_bios_pending
    driver.set_bios = set_bios
    driver.reset_bios = reset_bios
    driver.set_power_state = set_power_state


def patch_bios_settings_view(app):
    """Make GET /BIOS/Settings show the pending settings (sushy-tools
    shows the current ones there), so that a client sees a change still
    queued."""
    def edit(identity, body):
        body['Attributes'] = app.systems.get_bios_pending(identity)
    views.edit_get_answers(app, 'bios_settings', edit)


# A system's secure boot keys: the manufacturer's ('default', until a
# ResetKeys changes them) or none ('deleted': the firmware in setup mode).
SECURE_BOOT_KEYS = 'secure_boot_keys'
RESET_KEYS_TYPES = {'ResetAllKeysToDefault': 'default',
                    'DeleteAllKeys': 'deleted', 'DeletePK': 'deleted'}
_RESET_KEYS_PATH = ('/redfish/v1/Systems/<identity>/SecureBoot/Actions/'
                    'SecureBoot.ResetKeys')


def patch_secure_boot_keys(app):
    """Give the emulator's SecureBoot resource Redfish's ResetKeys action
    (sushy-tools shows ``"Actions": {}``): its target and allowed values
    on GET, ``SecureBootMode`` ``SetupMode`` once the keys are deleted
    (``DeployedMode`` with the default keys), and the action itself (400
    for another ``ResetKeysType``)."""
    import flask

    if 'ironic_like_reset_keys' in app.view_functions:
        return

    def edit(identity, body):
        body['Actions'] = {'#SecureBoot.ResetKeys': {
            'target': _RESET_KEYS_PATH.replace('<identity>', identity),
            'ResetKeysType@Redfish.AllowableValues': sorted(
                RESET_KEYS_TYPES)}}
        keys = app.systems._get(identity).get(SECURE_BOOT_KEYS, 'default')
        body['SecureBootMode'] = ('DeployedMode' if keys == 'default'
                                  else 'SetupMode')

    def reset_keys(identity):
        wanted = (flask.request.get_json(silent=True) or {}).get(
            'ResetKeysType')
        if wanted not in RESET_KEYS_TYPES:
            return views.error(400, 'ResetKeysType must be one of %s'
                               % ', '.join(sorted(RESET_KEYS_TYPES)))
        driver = app.systems
        system = driver._get(identity)
        driver._update(system, **{SECURE_BOOT_KEYS:
                                  RESET_KEYS_TYPES[wanted]})
        return '', 204

    views.edit_get_answers(app, 'secure_boot', edit)
    app.add_url_rule(_RESET_KEYS_PATH, 'ironic_like_reset_keys', reset_keys,
                     methods=['POST'])


# The first line of a firmware image the emulator flashes:
# "FIRMWARE <component> <version>" (component: bios, bmc or nic:<id>).
FIRMWARE_MAGIC = 'FIRMWARE'
_IMAGE_LIMIT = 1024 * 1024


def firmware_image(component, version):
    """The bytes of an image the emulator flashes as ``component``'s
    ``version``."""
    return ('%s %s %s\n' % (FIRMWARE_MAGIC, component, version)).encode()


def _read_image(url):
    """(component, version) of the image at ``url``; ValueError saying
    why it cannot be flashed."""
    try:
        with requests.get(url, stream=True, timeout=(5, 10)) as resp:
            if resp.status_code != 200:
                raise ValueError('downloading %s failed: HTTP %s'
                                 % (url, resp.status_code))
            data = resp.raw.read(_IMAGE_LIMIT, decode_content=True)
    except requests.RequestException as e:
        raise ValueError('downloading %s failed: %s' % (url, e))
    words = data.split(b'\n', 1)[0].decode('utf-8', 'replace').split()
    if len(words) != 3 or words[0] != FIRMWARE_MAGIC:
        raise ValueError('%s is not a firmware image' % url)
    return words[1], words[2]


def patch_firmware_update(app):
    """Give systems that define ``firmware`` ({'bios': version, 'bmc':
    version}) firmware a client can update: BiosVersion and the
    manager's FirmwareVersion show them, and UpdateService.SimpleUpdate
    (Targets: the system, or its manager; needed with more than one
    system) downloads ImageURI (see :func:`firmware_image`) and answers
    202 with a task monitor. A BMC or NIC image is flashed at once (task
    Completed); a BIOS image is staged (task Pending) and flashed at the
    machine's next boot (then Completed), as BMCs that schedule a BIOS
    update do; an image it cannot read or flash ends the task with
    Exception and a message. Replaces sushy-tools' SimpleUpdate, which
    bumps a BIOS version at once whatever the image."""
    import itertools
    import threading

    import flask
    from sushy_tools.emulator.resources.systems import fakedriver
    from sushy_tools import error

    if 'ironic_like_firmware_task' in app.view_functions:
        return
    driver_cls = fakedriver.FakeDriver
    # task id -> {'system', 'state', 'status', 'messages'}; in memory, as
    # a BMC forgets its tasks when it restarts.
    tasks = {}
    lock = threading.Lock()
    counter = itertools.count(1)

    def get_versions(self, identity):
        system = _applied_at_boot(self, identity)
        if not isinstance(system.get(FIRMWARE_KEY), dict):
            raise error.NotSupportedError('System %s has no firmware'
                                          % identity)
        return {'BiosVersion': system[FIRMWARE_KEY].get('bios')}

    driver_cls.get_versions = get_versions

    def edit_manager(identity, body):
        try:
            system = app.systems._get(identity)
        except Exception:
            return
        firmware = system.get(FIRMWARE_KEY)
        if isinstance(firmware, dict) and firmware.get('bmc'):
            body['FirmwareVersion'] = firmware['bmc']

    views.edit_get_answers(app, 'manager_resource', edit_manager)

    def current(task_id):
        """The task, a staged BIOS image Completed once the machine
        booted with it."""
        task = tasks[task_id]
        if task['state'] == 'Pending':
            system = _applied_at_boot(app.systems, task['system'])
            if not system.get(_FIRMWARE_PENDING):
                task.update(state='Completed', messages=[
                    'bios firmware %s flashed' % system[FIRMWARE_KEY][
                        'bios']])
        return task

    def task_body(task_id):
        task = current(task_id)
        return {'@odata.type': '#Task.v1_4_3.Task', 'Id': task_id,
                'Name': 'Firmware update %s' % task_id,
                '@odata.id': views.TASKS_PATH + task_id,
                'TaskState': task['state'], 'TaskStatus': task['status'],
                'PercentComplete': 100 if task['state'] == 'Completed'
                else 0,
                'Messages': [{'Message': m, 'MessageId': 'Base.1.0.General',
                              'Severity': task['status']}
                             for m in task['messages']]}

    def flash(uuid, url):
        """(TaskState, TaskStatus, message) of flashing ``url``."""
        driver = app.systems
        try:
            component, version = _read_image(url)
        except ValueError as e:
            return 'Exception', 'Critical', str(e)
        system = driver._get(uuid)
        if component == 'bios':
            driver._update(system, **{_FIRMWARE_PENDING: version})
            return ('Pending', 'OK', 'bios firmware %s staged: it is '
                    'flashed at the next boot' % version)
        if component == 'bmc':
            driver._update(system, **{FIRMWARE_KEY: dict(
                system[FIRMWARE_KEY], bmc=version)})
        elif not component.startswith('nic:'):
            return ('Exception', 'Critical', 'unknown firmware component %s'
                    % component)
        return ('Completed', 'OK',
                '%s firmware %s flashed' % (component, version))

    def simple_update():
        body = flask.request.get_json(silent=True) or {}
        url = body.get('ImageURI')
        if not url:
            return views.error(400, 'ImageURI is required')
        systems = app.systems.systems
        targets = body.get('Targets') or []
        if not targets and len(systems) == 1:
            targets = ['/redfish/v1/Systems/%s' % systems[0]]
        if len(targets) != 1:
            return views.error(400, 'Targets must name one system or manager '
                               '(%d systems)' % len(systems))
        identity = targets[0].rstrip('/').rsplit('/', 1)[-1]
        try:
            uuid = app.systems.uuid(identity)
            system = app.systems._get(uuid)
        except Exception:
            return views.error(400, 'No such target: %s' % targets[0])
        if not isinstance(system.get(FIRMWARE_KEY), dict):
            return views.error(400, 'System %s has no updatable firmware'
                               % uuid)
        task_id = 'fw-%d' % next(counter)
        state, status, message = flash(uuid, url)
        if state == 'Exception':
            LOG.warning('Firmware update %s failed: %s', task_id, message)
        with lock:
            tasks[task_id] = {'system': uuid, 'state': state,
                              'status': status, 'messages': [message]}
            return views.answer(202, task_body(task_id),
                                {'Location': views.TASKS_PATH + task_id})

    def task_monitor(task_id):
        with lock:
            if task_id not in tasks:
                return views.error(404, 'No task %s' % task_id)
            body = task_body(task_id)
        running = body['TaskState'] in ('Running', 'Pending')
        return views.answer(202 if running else 200, body)

    endpoint = 'UpdateService.update_service_simple_update'
    if endpoint not in app.view_functions:
        # sushy-tools changed: fail loudly rather than flash nothing.
        raise RuntimeError('sushy-tools has no %s view; update %s'
                           % (endpoint, __file__))
    app.view_functions[endpoint] = simple_update
    app.add_url_rule(views.TASKS_PATH + '<task_id>',
                     'ironic_like_firmware_task', task_monitor,
                     methods=['GET'])


EVENT_SERVICE_PATH = '/redfish/v1/EventService'
SUBSCRIPTIONS_PATH = EVENT_SERVICE_PATH + '/Subscriptions'
EVENT_TYPES = ('Alert', 'StatusChange', 'ResourceAdded', 'ResourceRemoved',
               'ResourceUpdated')
_TEST_EVENT_PATH = EVENT_SERVICE_PATH + '/Actions/EventService.SubmitTestEvent'
# Seconds a BMC waits for an event listener.
_DELIVERY_TIMEOUT = 5


def patch_event_service(app):
    """Give the emulator Redfish's EventService (sushy-tools has none):
    the root links it; its Subscriptions collection takes POST (201 with
    a Location; Destination required, EventTypes among EVENT_TYPES,
    Protocol Redfish), GET, and GET/DELETE of a member (HttpHeaders are
    write-only, as Redfish says); and SubmitTestEvent sends a test event
    (EventType, default Alert) to each subscription of that type, with
    its Context and HttpHeaders. Subscriptions live in the emulator's
    memory."""
    import itertools
    import json
    import threading

    import flask

    if 'ironic_like_subscriptions' in app.view_functions:
        return
    subscriptions = {}
    lock = threading.Lock()
    counter = itertools.count(1)

    def link_root(identity, body):
        body['EventService'] = {'@odata.id': EVENT_SERVICE_PATH}

    views.edit_get_answers(app, 'root_resource', link_root)

    def shown(sub_id):
        sub = subscriptions[sub_id]
        return dict({key: value for key, value in sub.items()
                     if key != 'HttpHeaders'},
                    **{'@odata.type': '#EventDestination.v1_0_0.'
                                      'EventDestination',
                       '@odata.id': '%s/%s' % (SUBSCRIPTIONS_PATH, sub_id),
                       'Id': sub_id, 'Name': 'Subscription %s' % sub_id,
                       'HttpHeaders': []})

    def event_service():
        return views.answer(200, {
            '@odata.type': '#EventService.v1_0_0.EventService',
            '@odata.id': EVENT_SERVICE_PATH, 'Id': 'EventService',
            'Name': 'Event Service', 'ServiceEnabled': True,
            'EventTypesForSubscription': list(EVENT_TYPES),
            'Subscriptions': {'@odata.id': SUBSCRIPTIONS_PATH},
            'Actions': {'#EventService.SubmitTestEvent': {
                'target': _TEST_EVENT_PATH}}})

    def collection():
        if flask.request.method == 'GET':
            with lock:
                members = sorted(subscriptions, key=int)
            return views.answer(200, {
                '@odata.type': '#EventDestinationCollection.'
                               'EventDestinationCollection',
                '@odata.id': SUBSCRIPTIONS_PATH,
                'Name': 'Event Subscriptions',
                'Members@odata.count': len(members),
                'Members': [{'@odata.id': '%s/%s' % (SUBSCRIPTIONS_PATH, m)}
                            for m in members]})
        body = flask.request.get_json(silent=True) or {}
        if not isinstance(body.get('Destination'), str):
            return views.error(400, 'Destination is required')
        types = body.get('EventTypes') or ['Alert']
        if not isinstance(types, list) or not all(
                isinstance(t, str) for t in types):
            return views.error(400, 'EventTypes must be a list of event types')
        unknown = sorted(set(types) - set(EVENT_TYPES))
        if unknown:
            return views.error(400, 'Unknown EventTypes: %s'
                               % ', '.join(unknown))
        if body.get('Protocol', 'Redfish') != 'Redfish':
            return views.error(400, 'Protocol must be Redfish')
        sub_id = str(next(counter))
        with lock:
            subscriptions[sub_id] = {
                'Destination': body['Destination'], 'EventTypes': types,
                'Protocol': 'Redfish', 'Context': body.get('Context', ''),
                'HttpHeaders': body.get('HttpHeaders') or []}
            created = shown(sub_id)
        return views.answer(201, created, {'Location': created['@odata.id']})

    def member(sub_id):
        with lock:
            if sub_id not in subscriptions:
                return views.error(404, 'No subscription %s' % sub_id)
            if flask.request.method == 'DELETE':
                del subscriptions[sub_id]
                return views.answer(204)
            return views.answer(200, shown(sub_id))

    def submit_test_event():
        body = flask.request.get_json(silent=True) or {}
        event_type = body.get('EventType', 'Alert')
        with lock:
            targets = [dict(sub) for sub in subscriptions.values()
                       if event_type in sub['EventTypes']]
        for sub in targets:
            event = {'@odata.type': '#Event.v1_0_0.Event', 'Id': '1',
                     'Name': 'Test event', 'Context': sub['Context'],
                     'Events': [{
                         'EventType': event_type,
                         'EventId': body.get('EventId', 'test-1'),
                         'Message': body.get('Message', 'Test event'),
                         'MessageId': body.get('MessageId',
                                               'Base.1.0.Success'),
                         'Severity': body.get('Severity', 'OK')}]}
            headers = {'Content-Type': 'application/json'}
            for extra in sub['HttpHeaders']:
                if isinstance(extra, dict):
                    headers.update({str(k): str(v)
                                    for k, v in extra.items()})
            try:
                requests.post(sub['Destination'], data=json.dumps(event),
                              headers=headers, timeout=_DELIVERY_TIMEOUT)
            except requests.RequestException as e:
                LOG.warning('Event for %s not delivered: %s',
                            sub['Destination'], e)
        return views.answer(204)

    app.add_url_rule(EVENT_SERVICE_PATH, 'ironic_like_event_service',
                     event_service, methods=['GET'])
    app.add_url_rule(SUBSCRIPTIONS_PATH, 'ironic_like_subscriptions',
                     collection, methods=['GET', 'POST'])
    app.add_url_rule(SUBSCRIPTIONS_PATH + '/<sub_id>',
                     'ironic_like_subscription', member,
                     methods=['GET', 'DELETE'])
    app.add_url_rule(_TEST_EVENT_PATH, 'ironic_like_test_event',
                     submit_test_event, methods=['POST'])


def patch_storage(app):
    """Simulated RAID storage (:func:`redfish_storage.patch_storage`),
    its operations armed by a reset and applied at boot through the BIOS
    patch."""
    patch_bios()
    redfish_storage.patch_storage(app, _applied_at_boot)


def make_system(name, mac, power_state='Off', notify=True, uuid=None,
                storage=None):
    """One FakeDriver system definition.

    ``notify``: the emulator sends the whole system to the notification
    URL on every change (power, pending power, boot device).
    ``storage``: its RAID controllers (see
    :func:`redfish_storage.check_storage`,
    :func:`redfish_storage.make_storage`), kept checked under
    ``redfish_storage.STORAGE_KEY``; ValueError if the definition is
    wrong.
    """
    system = {'uuid': uuid or str(uuidlib.uuid4()), 'name': name,
              'power_state': power_state, 'external_notifier': notify,
              'nics': [{'mac': mac, 'ip': '192.0.2.10'}]}
    if storage is not None:
        system[redfish_storage.STORAGE_KEY] = (
            redfish_storage.check_storage(storage))
    return system


def write_config(path, systems, state_dir, notification_url=None):
    """Write the emulator's config file (Python syntax) for the FakeDriver.

    The systems' own keys (``bios``, ``firmware``, ``storage``) reach the
    patches with them (SUSHY_EMULATOR_FAKE_SYSTEMS).

    The emulator calls ``notification_url`` synchronously, without a
    timeout, and fails the Redfish request when it is down: whatever
    listens there must live as long as the emulator.
    """
    lines = ['SUSHY_EMULATOR_FAKE_DRIVER = True',
             'SUSHY_EMULATOR_FAKE_SYSTEMS = %r' % (list(systems),),
             'SUSHY_EMULATOR_STATE_DIR = %r' % (state_dir,)]
    if notification_url:
        lines.append('EXTERNAL_NOTIFICATION_URL = %r' % (notification_url,))
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')


def patch_state_connections():
    """Make the emulator reuse and close the SQLite connections of its
    state.

    sushy-tools' PersistentDict opens a connection per access inside
    ``with sqlite3.connect(...)``, which commits but never closes it, and
    switches it to WAL each time: with a few hundred systems polled by
    conductors the emulator ran out of file descriptors ("unable to open
    database file") and then answered "database is locked". Here the
    connections are pooled (one per concurrent request), switched to WAL
    once, and wait up to 30 s for a lock.
    """
    import contextlib
    import queue
    import sqlite3

    from sushy_tools.emulator import memoize

    pools = {}

    @contextlib.contextmanager
    def connection(self):
        if not self._dbpath:
            raise TypeError('Dict is not yet persistent')
        pool = pools.setdefault(self._dbpath, queue.LifoQueue())
        try:
            conn = pool.get_nowait()
        except queue.Empty:
            conn = sqlite3.connect(self._dbpath, timeout=30,
                                   check_same_thread=False)
            conn.execute('pragma journal_mode=wal')
        try:
            with conn:
                yield conn.cursor()
        except BaseException:
            conn.close()
            raise
        pool.put(conn)

    memoize.PersistentDict.connection = connection


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument('--power-delay', type=int, default=0)
    parser.add_argument('--post-delay', type=int, default=0)
    ours, rest = parser.parse_known_args(argv)
    patch_power_delay(ours.power_delay)
    _POST[0] = max(0, ours.post_delay)
    patch_power_faults()
    patch_state_connections()
    patch_bios()
    from sushy_tools.emulator import main as emulator_main
    patch_bios_settings_view(emulator_main.app)
    patch_secure_boot_keys(emulator_main.app)
    patch_firmware_update(emulator_main.app)
    patch_event_service(emulator_main.app)
    patch_storage(emulator_main.app)
    sys.argv = ['sushy-emulator'] + rest
    return emulator_main.main()


if __name__ == '__main__':
    sys.exit(main())
