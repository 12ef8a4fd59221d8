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
read every ``[redfish]firmware_update_status_interval`` seconds until it
is over; a task that ends other than Completed with status OK or Warning
fails the step with the BMC's messages. As Ironic does:

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
``[redfish]firmware_update_overall_timeout`` and holds a conductor worker
and the node's lock meanwhile (Ironic polls from a periodic task
instead). The components are read again at the end (GET
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
        deadline = time.monotonic() + (
            CONF.redfish.firmware_update_overall_timeout or DEFAULT_TIMEOUT)
        staged = []
        try:
            for index, entry in enumerate(entries):
                _Update(task, index, entry, deadline, staged,
                        last=index == len(entries) - 1).run()
        finally:
            for path in staged:
                try:
                    published_files.remove(path)
                except OSError as e:
                    # Not to hide how the step ended.
                    LOG.warning('Node %s: the staged firmware image %s '
                                'could not be removed: %s', task.node.uuid,
                                path, e)
        try:
            self.cache_firmware_components(task)
        except Exception as e:
            # Flashed all the same; a BMC still restarting after its own
            # update is read again at the next verify.
            LOG.warning('Node %s: firmware updated, but the versions could '
                        'not be read again: %s', task.node.uuid,
                        exception.safe_message(e))


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


class _Update(object):
    """One component's update: SimpleUpdate, its task, the reboots and
    the version wait."""

    def __init__(self, task, index, entry, deadline, staged, last):
        self.task = task
        self.node = task.node
        self.entry = entry
        self.component = entry['component']
        self.kind = _kind(self.component)
        self.index = index
        self.deadline = deadline
        self.staged = staged
        self.last = last
        self.rebooted = False
        self.action = 'updating the %s firmware' % self.component

    def _fail(self, why):
        return exception.IronicLikeException(masking.mask_text(
            'Node %s: firmware update of %s from %s failed: %s'
            % (self.node.uuid, self.component,
               masking.mask_url_password(self.entry['url']), why)))

    def _left(self):
        return self.deadline - time.monotonic()

    def _sleep(self, interval):
        time.sleep(max(1, min(interval, self._left())))

    def run(self):
        if self._left() <= 0:
            raise self._fail('not started: the step ran out of '
                             '[redfish]firmware_update_overall_timeout')
        info, before = self._version_before()
        image_url = self._stage()
        monitor = self._submit(image_url)
        sushy_task = self._wait_task(info, monitor)
        self._check(sushy_task)
        if self.kind == BIOS:
            if not self.rebooted:
                # The BMC staged the image; the BIOS flashes it at boot.
                self._reboot()
                self._settled(self._wait_version(before), before)
            else:
                self._settle()
        elif self.kind == BMC:
            self._after_bmc(before)
        else:
            if not self.rebooted:
                self._reboot()
            self._settle()

    def _settle(self):
        """The entry's ``wait``, Ironic's time for a component to settle
        before the next one starts (for the BMC, and a BIOS whose BMC
        staged the image, it bounds the version wait instead)."""
        if self.entry.get('wait'):
            time.sleep(max(0, min(self.entry['wait'], self._left())))

    def _read_version(self):
        """(parsed driver_info, the component's version as the BMC
        reports it now)."""
        info, system = redfish_utils.get_system(self.node,
                                                action=self.action)
        with redfish_utils.sushy_errors(info, self.action,
                                        exception.IronicLikeException):
            return info, _version(system, self.kind)

    def _version_before(self):
        """(parsed driver_info, the component's version now), read again
        while the BMC does not answer (it may still restart after the
        previous component's update), for at most
        [redfish]firmware_update_reboot_delay."""
        until = time.monotonic() + max(0, min(
            CONF.redfish.firmware_update_reboot_delay, self._left()))
        while True:
            try:
                return self._read_version()
            except (exception.InvalidParameterValue,
                    exception.MissingParameterValue):
                raise
            except exception.IronicLikeException as e:
                if time.monotonic() >= until:
                    raise
                LOG.info('Node %s: reading the %s version failed (read '
                         'again): %s', self.node.uuid, self.component,
                         exception.safe_message(e))
            self._sleep(
                CONF.redfish.firmware_update_bmc_version_check_interval)

    def _after_bmc(self, before):
        after = self._wait_version(before)
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
        a copy published under [deploy]http_root/firmware."""
        url = self.entry['url']
        scheme = urlparse.urlparse(url).scheme
        if scheme != 'file' and CONF.redfish.firmware_source == 'http':
            return url
        base_name = os.path.basename(urlparse.urlparse(url).path)
        name = '%s-%d-%s' % (self.node.uuid, self.index,
                             base_name or 'firmware.bin')
        path = os.path.join(CONF.deploy.http_root, SUBDIR, name)
        self.staged.append(path)
        try:
            with published_files.replaced_whole(
                    path, prefix='.%s.' % name, binary=True) as fileobj:
                if scheme == 'file':
                    # Checked again: the file may have changed since.
                    source = file_urls.local_path(url, 'settings')
                    published_files.copy_bounded(
                        source, fileobj, self.deadline, url)
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
        self.rebooted = True

    def _read_task(self, info, monitor):
        """(still processing, the sushy Task or None); None, None when
        the BMC no longer has the task. _ReadFailed when it could not be
        read now; wrong credentials raise."""
        try:
            with redfish_utils.sushy_errors(
                    info, self.action, exception.IronicLikeException):
                try:
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

    def _wait_task(self, info, monitor):
        """Read the BMC's task until it is over: the sushy Task, or None
        when the BMC no longer has it (taken as done, as Ironic does).
        Reboots the node for a BIOS or NIC task that waits for one."""
        interval = CONF.redfish.firmware_update_status_interval
        starting_since = None
        while True:
            try:
                processing, sushy_task = self._read_task(info, monitor)
            except _ReadFailed as e:
                if self._left() <= 0:
                    raise self._fail('its task could not be read: %s' % e)
                LOG.info('Node %s: reading the %s update task failed '
                         '(read again): %s', self.node.uuid,
                         self.component, e)
                self._sleep(interval)
                continue
            if processing is None:
                LOG.warning('Node %s: the BMC no longer has the task of the '
                            '%s update; taken as done', self.node.uuid,
                            self.component)
                return None
            state = getattr(sushy_task, 'task_state', None)
            # The task's state decides (some BMCs go on answering 202
            # once it ended), as in Ironic; without one, the answer's.
            if (state is not None and state not in _RUNNING) or (
                    state is None and not processing):
                return sushy_task
            if not self.rebooted:
                if self.kind == BIOS and state in _BIOS_REBOOT_STATES:
                    self._reboot()
                elif self.kind == NIC:
                    starting_since = self._nic_starting(state,
                                                        starting_since)
            if self._left() <= 0:
                raise self._fail(
                    'its task is not over after [redfish]'
                    'firmware_update_overall_timeout (state %s)'
                    % _text(state))
            self._sleep(interval)

    def _nic_starting(self, state, since):
        """A NIC task Starting for [redfish]firmware_update_nic_starting_
        wait seconds waits for a reboot: reboot. When it was first seen
        Starting (None once it is not)."""
        if state != sushy.TASK_STATE_STARTING:
            return None
        now = time.monotonic()
        since = now if since is None else since
        if now - since >= CONF.redfish.firmware_update_nic_starting_wait:
            self._reboot()
        return since

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

    def _wait_version(self, before):
        """Read the component's version until it is not ``before``, for
        at most the entry's ``wait``: the version read last, None when
        that read failed (the BMC restarting: what it applied is unknown,
        as Ironic decides at its timeout)."""
        bound = min(self.entry.get('wait') or
                    CONF.redfish.firmware_update_reboot_delay, self._left())
        until = time.monotonic() + max(0, bound)
        interval = CONF.redfish.firmware_update_bmc_version_check_interval
        last = None
        while True:
            try:
                _, now = self._read_version()
                last = now
                if now is not None and now != before:
                    return now
            except exception.IronicLikeException as e:
                last = None
                LOG.info('Node %s: reading the %s version failed (read '
                         'again): %s', self.node.uuid, self.component,
                         exception.safe_message(e))
            if time.monotonic() >= until:
                return last
            self._sleep(interval)


_text = redfish_utils.task_text
_messages = redfish_utils.task_messages
