"""The ``redfish`` firmware interface: the versions of the system's BIOS
and of its BMC (API 1.86, read on manage/verify, after inspection and
after an update), and Ironic's ``update(settings)`` step, run out of band:

``settings``
    ``[{"component": "bios" | "bmc" | "nic:<id>", "url": ..., "wait":
    seconds}]``, Ironic's schema, updated in the order given. ``url`` is
    http(s) or file://; ``[redfish]firmware_source`` says whether the BMC
    reads it where it is (``http``: an http(s) URL) or from a copy the
    conductor serves under ``[deploy]http_url`` (``local``, and any
    file:// URL), removed when the step ends.

For each component: the BMC's UpdateService.SimpleUpdate with the image
(Targets: the node's system, when the BMC has several), then its task is
read every ``[redfish]firmware_update_status_interval`` seconds until it
is over; a task that ends other than Completed with status OK or Warning
fails the step with the BMC's messages. Then, as Ironic does:

- ``bios``: the node is rebooted (as soon as the BMC says the task is
  Starting, or once it completed) so that the firmware flashes it, and
  the BIOS version is read until it changed;
- ``bmc``: the BMC's version is read until it changed (the BMC restarts
  itself, unreachable meanwhile); when it has not by then, the node is
  rebooted;
- ``nic:<id>``: the node is rebooted once the task completed.

The version wait is bounded by the entry's ``wait`` (default
``[redfish]firmware_update_reboot_delay``); a version that did not change
by then is logged, not an error (an image of the same version is a
valid re-flash). The whole step is bounded by
``[redfish]firmware_update_overall_timeout`` and holds a conductor worker
and the node's lock meanwhile (Ironic polls from a periodic task
instead). The components are read again at the end (GET
/v1/nodes/{id}/firmware: ``last_version_flashed``).

A clean, service and deploy step at priority 0 (run only when asked for).
Unlike Ironic's, the clean step does not require the ramdisk: it acts
through the BMC only (a ramdisk running for other steps is booted again
by the reboot).
"""

import contextlib
import os
import shutil
import time
from urllib import parse as urlparse

import jsonschema
from oslo_log import log
import sushy

from ironic_like.common import exception
from ironic_like.common import masking
from ironic_like.common import published_files
from ironic_like.conf import CONF
from ironic_like.drivers import base
from ironic_like.drivers.modules import redfish
from ironic_like.drivers.modules import redfish_utils

LOG = log.getLogger(__name__)

BIOS = 'bios'
BMC = 'bmc'
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
# A task in one of these states is not over yet.
_RUNNING = (sushy.TASK_STATE_NEW, sushy.TASK_STATE_STARTING,
            sushy.TASK_STATE_RUNNING, sushy.TASK_STATE_PENDING,
            sushy.TASK_STATE_SUSPENDED, sushy.TASK_STATE_INTERRUPTED,
            sushy.TASK_STATE_SERVICE)
_SUCCEEDED = (sushy.HEALTH_OK, sushy.HEALTH_WARNING)


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
        url = urlparse.urlparse(entry['url'])
        if url.scheme not in _SCHEMES:
            raise _invalid('settings[%d].url: scheme %r is not one of %s'
                           % (index, url.scheme, ', '.join(_SCHEMES)))
        if url.scheme == 'file' and not os.path.isfile(url.path):
            raise _invalid('settings[%d].url: %s is not a file on the '
                           'conductor' % (index, url.path))
        parsed.append(dict(entry))
    return parsed


def _kind(component):
    return 'nic' if component.startswith(NIC_PREFIX) else component


class RedfishFirmware(redfish._RedfishBMC, base.FirmwareInterface):
    """The BIOS version of the Redfish system and the firmware version of
    its first manager (the BMC), as Ironic's redfish firmware interface
    reads them; and its update step."""

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
        if not components:
            raise exception.UnsupportedDriverExtension(
                driver=task.node.driver, extension='firmware (the BMC '
                'reports no BIOS or BMC version)')
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
                _Update(task, index, entry, deadline, staged).run()
        finally:
            for path in staged:
                published_files.remove(path)
        self.cache_firmware_components(task)


def _manager(system):
    managers = list(system.managers or [])
    return managers[0] if managers else None


def _version(system, component):
    """The component's version as the BMC reports it now; None for a
    NIC (not read here) or when not reported."""
    if component == BIOS:
        return system.bios_version
    if component == BMC:
        manager = _manager(system)
        return manager.firmware_version if manager is not None else None
    return None


class _Update(object):
    """One component's update: SimpleUpdate, its task, the reboot and
    the version wait."""

    def __init__(self, task, index, entry, deadline, staged):
        self.task = task
        self.node = task.node
        self.entry = entry
        self.component = entry['component']
        self.kind = _kind(self.component)
        self.index = index
        self.deadline = deadline
        self.staged = staged
        self.rebooted = False
        self.action = 'updating the %s firmware' % self.component

    def _fail(self, why):
        return exception.IronicLikeException(masking.mask_text(
            'Node %s: firmware update of %s from %s failed: %s'
            % (self.node.uuid, self.component,
               masking.mask_url_password(self.entry['url']), why)))

    def _left(self):
        return self.deadline - time.monotonic()

    def run(self):
        info, system = redfish_utils.get_system(self.node,
                                                action=self.action)
        with redfish_utils.sushy_errors(info, self.action,
                                        exception.IronicLikeException):
            before = _version(system, self.kind)
        image_url = self._stage()
        info, service, systems = redfish_utils.get_update_service(
            self.node, self.action)
        targets = [info['system_id']] if systems > 1 else None
        with redfish_utils.sushy_errors(info, self.action,
                                        exception.IronicLikeException):
            monitor = service.simple_update(image_url, targets=targets)
        LOG.info('Node %s: firmware update of %s from %s started (BMC '
                 'task %s)', self.node.uuid, self.component,
                 masking.mask_url_password(image_url),
                 monitor.task_monitor_uri)
        self._check(self._wait_task(info, monitor))
        if self.kind in (BIOS, 'nic') and not self.rebooted:
            self._reboot()
        if self.kind in (BIOS, BMC):
            after = self._wait_version(info, before)
            if after == before:
                LOG.warning('Node %s: the %s version is still %s after its '
                            'update from %s (an image of the same '
                            'version, or the BMC applies it later)',
                            self.node.uuid, self.component, before,
                            masking.mask_url_password(self.entry['url']))
                if self.kind == BMC:
                    # As Ironic: a BMC update that did not show by then
                    # is finished by rebooting the host.
                    self._reboot()
            else:
                LOG.info('Node %s: %s firmware updated from %s to %s',
                         self.node.uuid, self.component, before, after)

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
        with published_files.replaced_whole(path, prefix='.%s.' % name,
                                            binary=True) as fileobj:
            if scheme == 'file':
                try:
                    with open(urlparse.urlparse(url).path, 'rb') as source:
                        shutil.copyfileobj(source, fileobj)
                except OSError as e:
                    raise self._fail('reading the image: %s' % e)
            else:
                published_files.download(url, fileobj, 'a firmware update')
        return '%s/%s/%s' % (CONF.deploy.http_url.rstrip('/'), SUBDIR,
                             urlparse.quote(name))

    def _reboot(self):
        LOG.info('Node %s: rebooting so that the %s firmware is applied',
                 self.node.uuid, self.component)
        redfish_utils.reboot_to_apply(self.task)
        self.rebooted = True

    def _sleep(self, interval):
        time.sleep(max(1, min(interval, self._left())))

    def _wait_task(self, info, monitor):
        """Read the BMC's task until it is over: the sushy Task, or None
        when the BMC no longer has it (taken as done, as Ironic does). A
        BIOS task the BMC says is Starting is waiting for the reboot."""
        interval = CONF.redfish.firmware_update_status_interval
        while True:
            try:
                with redfish_utils.sushy_errors(
                        info, self.action, exception.IronicLikeException):
                    try:
                        processing = monitor.check_is_processing
                        sushy_task = (monitor.task if processing
                                      else monitor.get_task())
                    except sushy.exceptions.ResourceNotFoundError:
                        LOG.warning('Node %s: the BMC no longer has the '
                                    'task of the %s update; taken as '
                                    'done', self.node.uuid, self.component)
                        return None
            except exception.IronicLikeException as e:
                # A BMC flashing itself may not answer for a while.
                if self._left() <= 0:
                    raise self._fail('its task could not be read: %s' % e)
                LOG.info('Node %s: reading the %s update task failed '
                         '(read again): %s', self.node.uuid,
                         self.component, exception.safe_message(e))
                self._sleep(interval)
                continue
            state = getattr(sushy_task, 'task_state', None)
            if not processing and state not in _RUNNING:
                return sushy_task
            if (self.kind == BIOS and not self.rebooted
                    and state == sushy.TASK_STATE_STARTING):
                self._reboot()
            if self._left() <= 0:
                raise self._fail(
                    'its task is not over after [redfish]'
                    'firmware_update_overall_timeout (state %s)'
                    % _text(state))
            self._sleep(interval)

    def _check(self, sushy_task):
        if sushy_task is None:
            return
        state = sushy_task.task_state
        status = sushy_task.task_status
        if state == sushy.TASK_STATE_COMPLETED and status in _SUCCEEDED + (
                None,):
            return
        raise self._fail('the BMC\'s task ended %s (status %s): %s' % (
            _text(state), _text(status),
            '; '.join(_messages(sushy_task)) or 'no message'))

    def _wait_version(self, info, before):
        """Read the component's version until it is not ``before``, for
        at most the entry's ``wait``; the version last read (``before``
        when it never changed or could not be read)."""
        bound = min(self.entry.get('wait') or
                    CONF.redfish.firmware_update_reboot_delay, self._left())
        until = time.monotonic() + max(0, bound)
        interval = CONF.redfish.firmware_update_bmc_version_check_interval
        while True:
            try:
                _, system = redfish_utils.get_system(self.node,
                                                     action=self.action)
                with redfish_utils.sushy_errors(
                        info, self.action, exception.IronicLikeException):
                    now = _version(system, self.kind)
                if now is not None and now != before:
                    return now
            except exception.IronicLikeException as e:
                LOG.info('Node %s: reading the %s version failed (read '
                         'again): %s', self.node.uuid, self.component,
                         exception.safe_message(e))
            if time.monotonic() >= until:
                return before
            self._sleep(interval)


def _text(value):
    """A sushy enum member as the BMC wrote it."""
    return getattr(value, 'value', value)


def _messages(sushy_task):
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
