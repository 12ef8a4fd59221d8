"""The ``redfish`` firmware interface: the versions of the system's BIOS,
of its BMC and of the network adapters of its first chassis
(``nic:<serial number or id>``, from their controllers'
FirmwarePackageVersion, as Ironic; API 1.86, read on manage/verify,
after inspection and after an update), and Ironic's ``update(settings)``
step, run out of band:

``settings``
    ``[{"component": "bios" | "bmc" | "nic:<id>", "url": ..., "wait":
    seconds}]``, Ironic's schema, updated in the order given. ``url`` is
    http(s), or file:// under ``[conductor]file_url_allowed_paths``;
    ``[redfish]firmware_source`` says whether the BMC reads it where it
    is (``http``: an http(s) URL) or from a copy the conductor serves
    under ``[deploy]http_url`` (``local``, and any file:// URL), removed
    when the step ends.

For each component: the BMC's UpdateService.SimpleUpdate with the image
(Targets: the node's system, when the BMC has several), then its task is
read every ``[redfish]firmware_update_status_interval`` seconds (at the
first conductor poll after it) until it is over; a task that ends other
than Completed with status OK or Warning fails the step with the BMC's
messages. As Ironic does:

- ``bios``: the node is rebooted as soon as the task is Starting,
  Running or Pending (BMCs that flash the BIOS at the next boot wait for
  it), else once it completed; in that case (the BMC staged the image)
  the BIOS version is then read until it changed;
- ``bmc``: the BMC's version is read until it changed (it restarts
  itself, unreachable meanwhile); the node is rebooted when the version
  could not be read by then, or when it changed and other components
  follow; an unchanged version it could read needs no reboot;
- ``nic:<id>``: the node is rebooted when the task stays Starting for
  ``[redfish]firmware_update_nic_starting_wait`` seconds, else once it
  completed, then the entry's ``wait`` seconds pass.

The version wait is bounded by the entry's ``wait`` (default
``[redfish]firmware_update_reboot_delay``); a version that did not change
by then is logged, not an error (an image of the same version is a
valid flash). The whole step is bounded by
``[redfish]firmware_update_overall_timeout``. It is polled, as Ironic
polls from a periodic task (drivers.base.Polling): wherever it must wait
(the task, the version, a component's ``wait``), it returns, the node
waits with no conductor worker or lock held, and the poll after the
wait carries it on from the component and phase reached, kept as JSON
in the node's record (so on whichever conductor owns the node then).
The components are read again at the end (GET
/v1/nodes/{id}/firmware: ``last_version_flashed``); a BMC that does not
answer then only delays that to the next verify.

A clean, service and deploy step at priority 0 (run only when asked for).
Unlike Ironic's, the clean step does not require the ramdisk: it acts
through the BMC only (a ramdisk running for other steps is booted again
by the reboot).
"""

import os
import time
from urllib import parse as urlparse

import jsonschema
from oslo_log import log
import sushy

from ironic_like.common import exception
from ironic_like.common import file_urls
from ironic_like.common import masking
from ironic_like.common import published_files
from ironic_like.conf import CONF
from ironic_like.drivers import base
from ironic_like.drivers.modules import redfish
from ironic_like.drivers.modules import redfish_utils

LOG = log.getLogger(__name__)

BIOS = 'bios'
BMC = 'bmc'
NIC = 'nic'
NIC_PREFIX = 'nic:'
SUBDIR = 'firmware'
# The step's bound when [redfish]firmware_update_overall_timeout is 0
# (Ironic: unbounded): its default.
DEFAULT_TIMEOUT = 7200

UPDATE_ARGSINFO = {'settings': {
    'description': 'A list of dicts with firmware components to be '
                   'updated',
    'required': True}}

# One entry of the step's settings, as Ironic's schema says.
_ENTRY_SCHEMA = {
    'type': 'object',
    'required': ['component', 'url'],
    'properties': {
        'component': {'type': 'string', 'anyOf': [
            {'enum': [BIOS, BMC]}, {'pattern': '^%s.+' % NIC_PREFIX}]},
        'url': {'type': 'string', 'minLength': 1},
        'wait': {'type': 'integer', 'minimum': 1},
    },
    'additionalProperties': False,
}
_ENTRY_VALIDATOR = jsonschema.Draft4Validator(_ENTRY_SCHEMA)

_SCHEMES = ('http', 'https', 'file')
# A task in one of these states is not over (Ironic's list: any other
# state is an end, a failure unless Completed).
_RUNNING = redfish_utils.TASK_RUNNING
# BIOS tasks in these states wait for the host to reboot on some BMCs.
_BIOS_REBOOT_STATES = (sushy.TASK_STATE_STARTING, sushy.TASK_STATE_RUNNING,
                       sushy.TASK_STATE_PENDING)
_SUCCEEDED = redfish_utils.TASK_SUCCEEDED


def _invalid(err):
    return exception.InvalidParameterValue(err=err, field='settings')


def parse_settings(settings):
    """The update step's ``settings`` checked (InvalidParameterValue
    naming ``settings`` and the entry at fault) and copied."""
    if CONF.redfish.firmware_source == 'swift':
        raise _invalid('Firmware updates cannot be staged in Swift here '
                       '(no object store): set [redfish]firmware_source '
                       'to http or local.')
    if not isinstance(settings, list) or not settings:
        raise _invalid('settings must be a non-empty list of {"component", '
                       '"url"[, "wait"]}, got %r' % (settings,))
    parsed = []
    for index, entry in enumerate(settings):
        errors = sorted(_ENTRY_VALIDATOR.iter_errors(entry),
                        key=lambda e: list(e.path))
        if errors:
            where = '.'.join(str(p) for p in errors[0].path)
            raise _invalid('settings[%d]%s: %s' % (
                index, '.' + where if where else '', errors[0].message))
        try:
            scheme = urlparse.urlparse(entry['url']).scheme
        except ValueError as e:
            raise _invalid('settings[%d].url: %s' % (index, e))
        if scheme not in _SCHEMES:
            raise _invalid('settings[%d].url: scheme %r is not one of %s'
                           % (index, scheme, ', '.join(_SCHEMES)))
        if scheme == 'file':
            file_urls.local_path(entry['url'], 'settings')
        parsed.append(dict(entry))
    return parsed


def _kind(component):
    return NIC if component.startswith(NIC_PREFIX) else component


class RedfishFirmware(redfish._RedfishBMC, base.FirmwareInterface):
    """The BIOS version of the Redfish system, the firmware version of
    its first manager (the BMC) and those of its network adapters, as
    Ironic's redfish firmware interface reads them; and its update
    step."""

    def get_components(self, task):
        action = 'reading the firmware versions'
        info, system = redfish_utils.get_system(task.node, action=action)
        components = []
        with redfish_utils.sushy_errors(info, action,
                                        exception.IronicLikeException):
            if system.bios_version:
                components.append({'component': BIOS,
                                   'current_version': system.bios_version})
            manager = _manager(system)
            if manager is not None and manager.firmware_version:
                # API 1.114: the BMC's model (Manager.Model), as Ironic
                # reports it; its vendor and serial number are unknown.
                components.append(
                    {'component': BMC,
                     'current_version': manager.firmware_version,
                     'model': getattr(manager, 'model', None)})
        components.extend(_nics(task.node.uuid, system))
        if not components:
            raise exception.UnsupportedDriverExtension(
                driver=task.node.driver, extension='firmware (the BMC '
                'reports no BIOS, BMC or network adapter version)')
        return components

    def check_step(self, task, step):
        """Before the node moves: the update's settings (400 naming
        ``settings``)."""
        if step.get('step') == 'update':
            parse_settings((step.get('args') or {}).get('settings'))

    @base.deploy_step(argsinfo=UPDATE_ARGSINFO)
    @base.service_step(argsinfo=UPDATE_ARGSINFO, requires_ramdisk=False)
    @base.clean_step(argsinfo=UPDATE_ARGSINFO, requires_ramdisk=False)
    def update(self, task, settings):
        entries = parse_settings(settings)
        state = {'entries': entries, 'index': 0, 'staged': [],
                 'deadline': time.time() + (
                     CONF.redfish.firmware_update_overall_timeout or
                     DEFAULT_TIMEOUT)}
        _start_component(state)
        return self._carry_on(task, state)

    def poll_step(self, task, step, state):
        """The update carried on from where the last poll left it
        (``state``: what _carry_on kept): nothing before the time it
        named (the [redfish] intervals and waits); Polling while a
        component is not over, None once the last one is."""
        if time.time() < state.get('next_at', 0):
            return base.Polling(state)
        return self._carry_on(task, dict(state))

    def abandon_step(self, task, step, state):
        """The node was aborted while the update waited: the images
        this conductor staged go (the BMC may still be reading one: its
        task then fails there)."""
        _remove_staged(task, state)

    def _carry_on(self, task, state):
        """Run the update as far as it goes without waiting: Polling
        (with the time of its next look) where it must wait for the BMC,
        the reboot or a component to settle; None once every component
        is over (the staged images removed, the versions read again).
        A failure removes the staged images and raises."""
        try:
            while state['index'] < len(state['entries']):
                wait = _Update(task, state).step()
                if wait is not None:
                    state['next_at'] = time.time() + wait
                    return base.Polling(state)
                if state['comp'].get('over'):
                    state['index'] += 1
                    if state['index'] < len(state['entries']):
                        _start_component(state)
        except Exception:
            _remove_staged(task, state)
            raise
        _remove_staged(task, state)
        try:
            self.cache_firmware_components(task)
        except Exception as e:
            # Flashed all the same; a BMC still restarting after its own
            # update is read again at the next verify.
            LOG.warning('Node %s: firmware updated, but the versions could '
                        'not be read again: %s', task.node.uuid,
                        exception.safe_message(e))
        return None


def _start_component(state):
    """The component at state['index'] starts: its version is read
    first."""
    state['comp'] = {'phase': _BEFORE, 'rebooted': False}


def _remove_staged(task, state):
    for path in state.get('staged') or ():
        try:
            published_files.remove(path)
        except OSError as e:
            # Not to hide how the step ended.
            LOG.warning('Node %s: the staged firmware image %s could not '
                        'be removed: %s', task.node.uuid, path, e)
    state['staged'] = []


def _nics(node_uuid, system):
    """Ironic's ``nic:<id>`` components: the firmware package version of
    each network adapter of the system's first chassis (its first
    controller that reports one), the adapter named by its serial
    number, else its Redfish id, as Ironic names them. A BMC without
    network adapters, or that fails to list them, gives none
    (logged)."""
    found = {}
    for adapter in redfish_utils.network_adapters(node_uuid, system,
                                                  first_chassis_only=True):
        name = adapter.serial_number or adapter.identity
        versions = [c.firmware_package_version
                    for c in (adapter.controllers or ())
                    if c.firmware_package_version]
        if not name or not versions or NIC_PREFIX + name in found:
            continue
        found[NIC_PREFIX + name] = {
            'component': NIC_PREFIX + name, 'current_version': versions[0],
            'vendor': adapter.manufacturer, 'model': adapter.model,
            'serial_number': adapter.serial_number}
    return list(found.values())


def _manager(system):
    managers = list(system.managers or [])
    return managers[0] if managers else None


def _version(system, kind):
    """The component's version as the BMC reports it now; None for a
    NIC (not read here) or when not reported."""
    if kind == BIOS:
        return system.bios_version
    if kind == BMC:
        manager = _manager(system)
        return manager.firmware_version if manager is not None else None
    return None


class _ReadFailed(Exception):
    """A read of the BMC that may succeed later (it is busy, restarting,
    or answered something unreadable)."""


# The phases of a component's update, in their order (a component skips
# those it does not need).
_BEFORE = 'before'      # its version read before the update
_TASK = 'task'          # SimpleUpdate asked for; its task followed
_VERSION = 'version'    # its new version awaited
_SETTLE = 'settle'      # the entry's wait before the next component


class _Update(object):
    """One component's update: SimpleUpdate, its task, the reboots and
    the version wait, as a machine of phases whose progress is kept in
    ``state['comp']`` (JSON: the step is polled, maybe by another
    conductor). step() does what can be done now and says how long to
    wait before the next look."""

    def __init__(self, task, state):
        self.task = task
        self.node = task.node
        self.state = state
        self.comp = state['comp']
        self.entry = state['entries'][state['index']]
        self.component = self.entry['component']
        self.kind = _kind(self.component)
        self.index = state['index']
        self.last = self.index == len(state['entries']) - 1
        self.action = 'updating the %s firmware' % self.component

    def _fail(self, why):
        return exception.IronicLikeException(masking.mask_text(
            'Node %s: firmware update of %s from %s failed: %s'
            % (self.node.uuid, self.component,
               masking.mask_url_password(self.entry['url']), why)))

    def _left(self):
        return self.state['deadline'] - time.time()

    def _interval(self, interval):
        """The wait before the next look: ``interval``, at least 1 s and
        at most what the step has left."""
        return max(1, min(interval, self._left()))

    def step(self):
        """Seconds to wait before the next look, or None: the phase
        moved on (the component may be over: comp['over'])."""
        phase = self.comp['phase']
        if phase == _BEFORE:
            return self._before()
        if phase == _TASK:
            return self._follow_task()
        if phase == _VERSION:
            return self._await_version()
        return self._settling()

    def _over(self):
        self.comp['over'] = True

    def _before(self):
        """The component's version before the update, read again while
        the BMC does not answer (it may still restart after the previous
        component's update), for at most [redfish]
        firmware_update_reboot_delay; then the image staged and
        SimpleUpdate asked for."""
        if 'until' not in self.comp:
            if self._left() <= 0:
                raise self._fail('not started: the step ran out of '
                                 '[redfish]firmware_update_overall_timeout')
            self.comp['until'] = time.time() + max(0, min(
                CONF.redfish.firmware_update_reboot_delay, self._left()))
        try:
            self.comp['before'] = self._read_version()
        except (exception.InvalidParameterValue,
                exception.MissingParameterValue):
            raise
        except exception.IronicLikeException as e:
            if time.time() >= self.comp['until']:
                raise
            LOG.info('Node %s: reading the %s version failed (read again): '
                     '%s', self.node.uuid, self.component,
                     exception.safe_message(e))
            return self._interval(
                CONF.redfish.firmware_update_bmc_version_check_interval)
        monitor = self._submit(self._stage())
        self.comp.update({'phase': _TASK,
                          'monitor': monitor.task_monitor_uri})
        return None

    def _read_version(self):
        """The component's version as the BMC reports it now."""
        info, system = redfish_utils.get_system(self.node,
                                                action=self.action)
        with redfish_utils.sushy_errors(info, self.action,
                                        exception.IronicLikeException):
            return _version(system, self.kind)

    def _follow_task(self):
        """One read of the BMC's task: the reboot a BIOS or NIC task
        waits for; once it is over (or gone: taken as done, as Ironic
        does), what the component needs next."""
        interval = CONF.redfish.firmware_update_status_interval
        try:
            processing, sushy_task = self._read_task()
        except _ReadFailed as e:
            if self._left() <= 0:
                raise self._fail('its task could not be read: %s' % e)
            LOG.info('Node %s: reading the %s update task failed (read '
                     'again): %s', self.node.uuid, self.component, e)
            return self._interval(interval)
        if processing is None:
            LOG.warning('Node %s: the BMC no longer has the task of the '
                        '%s update; taken as done', self.node.uuid,
                        self.component)
            return self._task_over(None)
        state = getattr(sushy_task, 'task_state', None)
        # The task's state decides (some BMCs go on answering 202 once
        # it ended), as in Ironic; without one, the answer's.
        if (state is not None and state not in _RUNNING) or (
                state is None and not processing):
            return self._task_over(sushy_task)
        if not self.comp['rebooted']:
            if self.kind == BIOS and state in _BIOS_REBOOT_STATES:
                self._reboot()
            elif self.kind == NIC:
                self._nic_starting(state)
        if self._left() <= 0:
            raise self._fail(
                'its task is not over after [redfish]'
                'firmware_update_overall_timeout (state %s)'
                % _text(state))
        return self._interval(interval)

    def _task_over(self, sushy_task):
        self._check(sushy_task)
        if self.kind == BIOS:
            if not self.comp['rebooted']:
                # The BMC staged the image; the BIOS flashes it at boot.
                self._reboot()
                self._await(_VERSION)
            else:
                self._await(_SETTLE)
        elif self.kind == BMC:
            self._await(_VERSION)
        else:
            if not self.comp['rebooted']:
                self._reboot()
            self._await(_SETTLE)
        return None

    def _await(self, phase):
        """The version wait (bounded by the entry's ``wait``, default
        [redfish]firmware_update_reboot_delay) or the settling (the
        entry's ``wait``, Ironic's time for a component to settle before
        the next one starts) starts now."""
        if phase == _VERSION:
            bound = self.entry.get('wait') or \
                CONF.redfish.firmware_update_reboot_delay
        else:
            bound = self.entry.get('wait') or 0
        self.comp.update({'phase': phase, 'until': time.time() + max(
            0, min(bound, self._left()))})

    def _await_version(self):
        """One read of the component's version: over when it is not the
        one before, or at the end of the wait (the version read last,
        None when that read failed: the BMC restarting, what it applied
        is unknown, as Ironic decides at its timeout)."""
        before = self.comp.get('before')
        try:
            now = self._read_version()
        except exception.IronicLikeException as e:
            now = None
            LOG.info('Node %s: reading the %s version failed (read again): '
                     '%s', self.node.uuid, self.component,
                     exception.safe_message(e))
        if (now is None or now == before) and \
                time.time() < self.comp['until']:
            return self._interval(
                CONF.redfish.firmware_update_bmc_version_check_interval)
        if self.kind == BMC:
            self._after_bmc(now, before)
        else:
            self._settled(now, before)
        self._over()
        return None

    def _after_bmc(self, after, before):
        if after is None:
            # As Ironic: the BMC could not be read (still restarting);
            # a host reboot finishes what it applies.
            LOG.warning('Node %s: the BMC version could not be read after '
                        'its update; rebooting the node', self.node.uuid)
            self._reboot()
            return
        self._settled(after, before)
        if after != before and not self.last:
            # As Ironic: some components after a BMC update are only
            # flashed once the host rebooted.
            self._reboot()

    def _settling(self):
        left = self.comp['until'] - time.time()
        if left > 0:
            return left
        self._over()
        return None

    def _settled(self, after, before):
        if after is None:
            LOG.warning('Node %s: the %s version could not be read after '
                        'its update from %s', self.node.uuid,
                        self.component,
                        masking.mask_url_password(self.entry['url']))
        elif after != before:
            LOG.info('Node %s: %s firmware updated from %s to %s',
                     self.node.uuid, self.component, before, after)
        else:
            LOG.warning('Node %s: the %s version is still %s after its '
                        'update from %s (an image of the same version, '
                        'or one the BMC applies later)', self.node.uuid,
                        self.component, before,
                        masking.mask_url_password(self.entry['url']))

    def _stage(self):
        """The URL the BMC reads the image from: the entry's, or that of
        a copy published under [deploy]http_root/firmware (removed when
        the step ends, by the conductor that ends it)."""
        url = self.entry['url']
        scheme = urlparse.urlparse(url).scheme
        if scheme != 'file' and CONF.redfish.firmware_source == 'http':
            return url
        base_name = os.path.basename(urlparse.urlparse(url).path)
        name = '%s-%d-%s' % (self.node.uuid, self.index,
                             base_name or 'firmware.bin')
        path = os.path.join(CONF.deploy.http_root, SUBDIR, name)
        self.state['staged'].append(path)
        try:
            with published_files.replaced_whole(
                    path, prefix='.%s.' % name, binary=True) as fileobj:
                if scheme == 'file':
                    # Checked again: the file may have changed since.
                    source = file_urls.local_path(url, 'settings')
                    published_files.copy_bounded(
                        source, fileobj, time.monotonic() + self._left(),
                        url)
                else:
                    published_files.download(
                        url, fileobj, 'the %s firmware update of node %s'
                        % (self.component, self.node.uuid),
                        bound=max(1, self._left()))
        except OSError as e:
            raise self._fail('staging the image in %s: %s'
                             % (os.path.dirname(path), e))
        return '%s/%s/%s' % (CONF.deploy.http_url.rstrip('/'), SUBDIR,
                             urlparse.quote(name))

    def _submit(self, image_url):
        info, service, systems = redfish_utils.get_update_service(
            self.node, self.action)
        targets = [info['system_id']] if systems > 1 else None
        with redfish_utils.sushy_errors(info, self.action,
                                        exception.IronicLikeException):
            try:
                monitor = service.simple_update(image_url, targets=targets)
            except (sushy.exceptions.ResourceNotFoundError,
                    sushy.exceptions.MissingAttributeError) as e:
                # Not the system's 404 (what sushy_errors says of one).
                raise self._fail('the BMC has no SimpleUpdate action: %s'
                                 % e)
            except ValueError as e:
                raise self._fail('the BMC answered SimpleUpdate with '
                                 'something unreadable: %s' % e)
        LOG.info('Node %s: firmware update of %s from %s started (BMC '
                 'task %s)', self.node.uuid, self.component,
                 masking.mask_url_password(image_url),
                 monitor.task_monitor_uri)
        return monitor

    def _reboot(self):
        LOG.info('Node %s: rebooting so that the %s firmware is applied',
                 self.node.uuid, self.component)
        redfish_utils.reboot_to_apply(self.task)
        self.comp['rebooted'] = True

    def _read_task(self):
        """(still processing, the sushy Task or None); None, None when
        the BMC no longer has the task (a 404). _ReadFailed when it could
        not be read now (read again at the next look); refused
        credentials raise (InvalidParameterValue), as before anything
        is read."""
        info = redfish_utils.parse_driver_info(self.node)
        try:
            with redfish_utils.sushy_errors(
                    info, self.action, exception.IronicLikeException):
                try:
                    # Made anew from its URI at each look (the step is
                    # polled); sushy reads the task as it makes it.
                    monitor = redfish_utils.connection(info) \
                        .get_task_monitor(self.comp['monitor'])
                    processing = monitor.check_is_processing
                    return processing, (monitor.task if processing
                                        else monitor.get_task())
                except sushy.exceptions.ResourceNotFoundError:
                    return None, None
                except ValueError as e:
                    # A body that is no JSON (requests' JSONDecodeError).
                    raise _ReadFailed('unreadable answer: %s' % e)
        except (exception.InvalidParameterValue,
                exception.MissingParameterValue):
            raise
        except exception.IronicLikeException as e:
            raise _ReadFailed(exception.safe_message(e))

    def _nic_starting(self, state):
        """A NIC task Starting for [redfish]firmware_update_nic_starting_
        wait seconds waits for a reboot: reboot. comp['starting_since']:
        when it was first seen Starting (None once it is not)."""
        if state != sushy.TASK_STATE_STARTING:
            self.comp['starting_since'] = None
            return
        now = time.time()
        since = self.comp.get('starting_since')
        if since is None:
            since = self.comp['starting_since'] = now
        if now - since >= CONF.redfish.firmware_update_nic_starting_wait:
            self._reboot()

    def _check(self, sushy_task):
        if sushy_task is None:
            return
        state = sushy_task.task_state
        status = sushy_task.task_status
        if state == sushy.TASK_STATE_COMPLETED and status in _SUCCEEDED:
            return
        raise self._fail('the BMC\'s task ended %s (status %s): %s' % (
            _text(state), _text(status),
            '; '.join(_messages(sushy_task)) or 'no message'))


_text = redfish_utils.task_text
_messages = redfish_utils.task_messages
