"""Redfish power and management interfaces, through the sushy library.

driver_info keys: see redfish_utils (redfish_address, redfish_system_id,
redfish_username, redfish_password, redfish_verify_ca, redfish_auth_type).
"""

import time

from oslo_log import log
import sushy

from ironic_like.common import exception
from ironic_like.common import health_states
from ironic_like.common import indicators
from ironic_like.common import states
from ironic_like.drivers import base
from ironic_like.drivers.modules import redfish_utils

LOG = log.getLogger(__name__)

# Bound (seconds) of the wait for a power change to show on the BMC when the
# caller gives no timeout. A module constant, not a config option (none may
# be added for this driver yet); callers pass ``timeout`` to override it.
POWER_STATE_TIMEOUT = 60
# Seconds between two reads of the system while waiting.
POWER_STATE_POLL_INTERVAL = 0.5

GET_POWER_STATE_MAP = {
    sushy.PowerState.ON: states.POWER_ON,
    sushy.PowerState.POWERING_OFF: states.POWER_ON,
    sushy.PowerState.OFF: states.POWER_OFF,
    sushy.PowerState.POWERING_ON: states.POWER_OFF,
}

# Our power target -> (reset action, raw state the system ends in).
SET_POWER_STATE_MAP = {
    states.POWER_ON: (sushy.ResetType.ON, sushy.PowerState.ON),
    states.POWER_OFF: (sushy.ResetType.FORCE_OFF, sushy.PowerState.OFF),
    states.SOFT_POWER_OFF: (sushy.ResetType.GRACEFUL_SHUTDOWN,
                            sushy.PowerState.OFF),
}

BOOT_DEVICE_MAP = {
    'pxe': sushy.BootSource.PXE,
    'disk': sushy.BootSource.HDD,
    'cdrom': sushy.BootSource.CD,
    'bios': sushy.BootSource.BIOS_SETUP,
}
BOOT_DEVICE_MAP_REV = {v: k for k, v in BOOT_DEVICE_MAP.items()}

BOOT_MODE_MAP = {'uefi': sushy.BootSourceOverrideMode.UEFI,
                 'bios': sushy.BootSourceOverrideMode.LEGACY}
BOOT_MODE_MAP_REV = {v: k for k, v in BOOT_MODE_MAP.items()}

INDICATOR_MAP = {
    indicators.ON: sushy.IndicatorLED.LIT,
    indicators.OFF: sushy.IndicatorLED.OFF,
    indicators.BLINKING: sushy.IndicatorLED.BLINKING,
}
INDICATOR_MAP_REV = {v: k for k, v in INDICATOR_MAP.items()}


def _raw_power_state(system):
    return system.power_state


def _wait_for_state(task, info, wanted, deadline, target):
    """Re-read the system until its power state is ``wanted``."""
    last = None
    while True:
        _info, system = redfish_utils.get_system(
            task.node, action='reading the power state',
            error_cls=exception.PowerStateFailure)
        last = _raw_power_state(system)
        if last == wanted:
            return
        if time.monotonic() >= deadline:
            raise exception.PowerStateFailure(
                'Node %s: %s did not reach "%s" in time; the BMC reports '
                'power state "%s".' % (info['node_uuid'],
                                       redfish_utils.describe(info), target,
                                       getattr(last, 'value', last)))
        time.sleep(POWER_STATE_POLL_INTERVAL)


def _deadline(timeout):
    return time.monotonic() + (timeout if timeout else POWER_STATE_TIMEOUT)


def _reset(info, system, reset_type, target):
    with redfish_utils.sushy_errors(info, 'reset "%s" (to reach %s)'
                                    % (reset_type.value, target),
                                    exception.PowerStateFailure):
        system.reset_system(reset_type)


class _RedfishBMC(object):
    """What every interface talking to the node's Redfish BMC reads of
    driver_info, and how it checks it."""

    def get_properties(self):
        return dict(redfish_utils.COMMON_PROPERTIES)

    def validate(self, task):
        redfish_utils.parse_driver_info(task.node)


class RedfishPower(_RedfishBMC, base.PowerInterface):

    def get_power_state(self, task):
        info, system = redfish_utils.get_system(
            task.node, action='reading the power state',
            error_cls=exception.PowerStateFailure)
        raw = _raw_power_state(system)
        state = GET_POWER_STATE_MAP.get(raw)
        if state is None:
            LOG.warning('Node %s: %s reports unexpected power state %r',
                        info['node_uuid'], redfish_utils.describe(info), raw)
            return states.ERROR
        return state

    def set_power_state(self, task, power_state, timeout=None):
        if power_state in (states.REBOOT, states.SOFT_REBOOT):
            return self.reboot(task, timeout=timeout)
        if power_state not in SET_POWER_STATE_MAP:
            raise exception.InvalidParameterValue(
                err='Redfish power cannot set power state "%s"; it can set: '
                    '%s.' % (power_state, ', '.join(sorted(
                        list(SET_POWER_STATE_MAP) + [states.REBOOT]))),
                field='target')
        deadline = _deadline(timeout)
        info = self._reset_unless_there(task, power_state)
        _wait_for_state(task, info, SET_POWER_STATE_MAP[power_state][1],
                        deadline, power_state)

    def request_power_state(self, task, power_state):
        if power_state not in SET_POWER_STATE_MAP:
            return self.set_power_state(task, power_state)
        self._reset_unless_there(task, power_state)

    @staticmethod
    def _reset_unless_there(task, power_state):
        """Send the reset that leads to ``power_state`` unless the system
        is in it already; return the driver info."""
        reset_type, wanted = SET_POWER_STATE_MAP[power_state]
        info, system = redfish_utils.get_system(
            task.node, action='reading the power state',
            error_cls=exception.PowerStateFailure)
        if _raw_power_state(system) != wanted:
            _reset(info, system, reset_type, power_state)
        return info

    def reboot(self, task, timeout=None):
        deadline = _deadline(timeout)
        info, system = redfish_utils.get_system(
            task.node, action='reading the power state',
            error_cls=exception.PowerStateFailure)
        current = _raw_power_state(system)
        if current in (sushy.PowerState.OFF, sushy.PowerState.POWERING_OFF):
            # Nothing to restart: switch it on.
            if current == sushy.PowerState.POWERING_OFF:
                _wait_for_state(task, info, sushy.PowerState.OFF, deadline,
                                states.POWER_OFF)
            _reset(info, system, sushy.ResetType.ON, states.REBOOT)
        else:
            try:
                allowed = system.get_allowed_reset_system_values()
            except Exception:
                allowed = None  # unknown: try ForceRestart anyway
            if not allowed or sushy.ResetType.FORCE_RESTART in allowed:
                _reset(info, system, sushy.ResetType.FORCE_RESTART,
                       states.REBOOT)
            else:
                _reset(info, system, sushy.ResetType.FORCE_OFF,
                       states.REBOOT)
                _wait_for_state(task, info, sushy.PowerState.OFF, deadline,
                                states.POWER_OFF)
                _reset(info, system, sushy.ResetType.ON, states.REBOOT)
        _wait_for_state(task, info, sushy.PowerState.ON, deadline,
                        states.POWER_ON)


# The Redfish media types of each virtual media device type (Ironic's).
VMEDIA_TYPES = {
    'cdrom': {sushy.VirtualMediaType.CD, sushy.VirtualMediaType.DVD},
    'floppy': {sushy.VirtualMediaType.FLOPPY},
    'disk': {sushy.VirtualMediaType.USB_STICK},
}


def _virtual_media(system):
    """The virtual media devices of the system's managers."""
    for manager in system.managers or []:
        for device in manager.virtual_media.get_members():
            yield device


class RedfishManagement(_RedfishBMC, base.ManagementInterface):

    def attach_virtual_media(self, task, device_type, image_url):
        action = 'inserting virtual media (%s)' % device_type
        info, system = redfish_utils.get_system(task.node, action=action)
        wanted = VMEDIA_TYPES[device_type]
        with redfish_utils.sushy_errors(info, action,
                                        exception.IronicLikeException):
            for device in _virtual_media(system):
                if wanted & set(device.media_types or ()):
                    if device.inserted:
                        device.eject_media()
                    device.insert_media(image_url, inserted=True,
                                        write_protected=True)
                    return
        raise exception.InvalidParameterValue(
            err='Node %s: its BMC has no virtual media device for %s.'
                % (task.node.uuid, device_type), field='device_type')

    def detach_virtual_media(self, task, device_types):
        action = 'ejecting virtual media'
        info, system = redfish_utils.get_system(task.node, action=action)
        wanted = set()
        for device_type in device_types or VMEDIA_TYPES:
            wanted |= VMEDIA_TYPES[device_type]
        with redfish_utils.sushy_errors(info, action,
                                        exception.IronicLikeException):
            for device in _virtual_media(system):
                if device.inserted and wanted & set(device.media_types or ()):
                    device.eject_media()

    def get_node_health(self, task):
        # The system's Status.Health: its components rolled up by the BMC.
        info, system = redfish_utils.get_system(task.node,
                                                action='reading health')
        status = getattr(system, 'status', None)
        health = getattr(status, 'health', None)
        value = getattr(health, 'value', health)
        return value if value in health_states.HEALTH_STATES else None

    def get_virtual_media(self, task):
        action = 'reading virtual media'
        info, system = redfish_utils.get_system(task.node, action=action)
        with redfish_utils.sushy_errors(info, action,
                                        exception.IronicLikeException):
            return [{'media_types': sorted(
                         getattr(t, 'value', t)
                         for t in device.media_types or ()),
                     'inserted': bool(device.inserted),
                     'image': device.image or ''}
                    for device in _virtual_media(system)]

    def get_supported_boot_devices(self, task=None):
        return sorted(BOOT_DEVICE_MAP)

    def set_boot_device(self, task, device, persistent=False):
        if device not in BOOT_DEVICE_MAP:
            raise exception.InvalidParameterValue(
                err='Redfish management cannot set boot device "%s"; '
                    'supported: %s.' % (device,
                                        ', '.join(sorted(BOOT_DEVICE_MAP))),
                field='boot_device')
        action = 'setting the boot device to %s' % device
        info, system = redfish_utils.get_system(task.node, action=action)
        target = BOOT_DEVICE_MAP[device]
        # sushy gives the raw strings of the BMC here.
        allowed = [getattr(v, 'value', v) for v in
                   (getattr(system.boot, 'allowed_values', None) or ())]
        if allowed and target.value not in allowed:
            raise exception.InvalidParameterValue(
                err='Node %s: %s does not allow boot device "%s" (%s); it '
                    'allows: %s.' % (info['node_uuid'],
                                     redfish_utils.describe(info), device,
                                     target.value,
                                     ', '.join(sorted(allowed))),
                field='boot_device')
        enabled = (sushy.BootSourceOverrideEnabled.CONTINUOUS if persistent
                   else sushy.BootSourceOverrideEnabled.ONCE)
        with redfish_utils.sushy_errors(info, action,
                                        exception.IronicLikeException):
            system.set_system_boot_options(target=target, enabled=enabled)

    def get_boot_device(self, task):
        info, system = redfish_utils.get_system(
            task.node, action='reading the boot device')
        boot = system.boot
        return {'boot_device': BOOT_DEVICE_MAP_REV.get(boot.target),
                'persistent': (boot.enabled ==
                               sushy.BootSourceOverrideEnabled.CONTINUOUS)}

    def inject_nmi(self, task):
        action = 'injecting an NMI'
        info, system = redfish_utils.get_system(task.node, action=action)
        with redfish_utils.sushy_errors(info, action,
                                        exception.IronicLikeException):
            system.reset_system(sushy.ResetType.NMI)

    # Boot mode (the system's BootSourceOverrideMode) and secure boot
    # (its SecureBoot resource).
    def get_boot_mode(self, task):
        info, system = redfish_utils.get_system(
            task.node, action='reading the boot mode')
        return BOOT_MODE_MAP_REV.get(system.boot.mode)

    def set_boot_mode(self, task, mode):
        action = 'setting the boot mode to %s' % mode
        info, system = redfish_utils.get_system(task.node, action=action)
        with redfish_utils.sushy_errors(info, action,
                                        exception.IronicLikeException):
            system.set_system_boot_options(mode=BOOT_MODE_MAP[mode])

    def get_secure_boot_state(self, task):
        info, system = redfish_utils.get_system(
            task.node, action='reading the secure boot state')
        try:
            return bool(system.secure_boot.enabled)
        except sushy.exceptions.MissingAttributeError:
            raise base.unsupported(task, 'get_secure_boot_state')

    def set_secure_boot_state(self, task, state):
        action = 'turning secure boot %s' % ('on' if state else 'off')
        info, system = redfish_utils.get_system(task.node, action=action)
        with redfish_utils.sushy_errors(info, action,
                                        exception.IronicLikeException):
            system.secure_boot.set_enabled(bool(state))

    # Secure boot keys, as Ironic's redfish management resets them (its
    # steps need the ramdisk, Ironic's default; here they need none: they
    # act on the BMC alone, and the ramdisk may not boot with the keys
    # just deleted).
    @base.deploy_step()
    @base.clean_step(requires_ramdisk=False)
    def reset_secure_boot_keys_to_default(self, task):
        """Put the manufacturer's secure boot keys back."""
        self._reset_keys(task, sushy.SECURE_BOOT_RESET_KEYS_TO_DEFAULT,
                         'resetting the secure boot keys to their defaults')

    @base.deploy_step()
    @base.clean_step(requires_ramdisk=False)
    def clear_secure_boot_keys(self, task):
        """Delete every secure boot key (the platform key too: the
        firmware is in setup mode after it)."""
        self._reset_keys(task, sushy.SECURE_BOOT_RESET_KEYS_DELETE_ALL,
                         'deleting the secure boot keys')

    def _reset_keys(self, task, reset_type, action):
        info, system = redfish_utils.get_system(task.node, action=action)
        try:
            secure_boot = system.secure_boot
        except sushy.exceptions.MissingAttributeError:
            raise base.unsupported(task, 'secure boot keys (the BMC has no '
                                         'SecureBoot resource)')
        with redfish_utils.sushy_errors(info, action,
                                        exception.IronicLikeException):
            secure_boot.reset_keys(reset_type)
        LOG.info('Node %s: %s done', task.node.uuid, action)

    # Indicators, named as Ironic's redfish driver names them: the
    # system's LED by the system's UUID, each chassis' by its UUID, each
    # drive's by "<storage id>:<drive id>". Redfish has no read-only flag
    # for a LED: all may be set.
    _LED = {'readonly': False,
            'states': [indicators.BLINKING, indicators.OFF, indicators.ON]}

    def _leds(self, system, uuid):
        """{component: {indicator id: sushy resource}} of the resources
        having a LED; a part the BMC fails to describe is left out."""
        found = {}

        def add(component, ident, resource):
            if resource.indicator_led:
                found.setdefault(component, {})[ident] = resource

        parts = (
            (indicators.SYSTEM, lambda: [(system.uuid, system)]),
            (indicators.CHASSIS,
             lambda: [(c.uuid, c) for c in (system.chassis or [])]),
            (indicators.DISK,
             lambda: [('%s:%s' % (st.identity, d.identity), d)
                      for st in (system.storage.get_members()
                                 if system.storage else [])
                      for d in st.drives]),
        )
        for component, members in parts:
            try:
                for ident, resource in members():
                    add(component, ident, resource)
            except sushy.exceptions.SushyError as e:
                LOG.debug('Node %s: no %s indicator: %s', uuid, component, e)
        return found

    def get_supported_indicators(self, task):
        info, system = redfish_utils.get_system(
            task.node, action='reading the indicators')
        return {component: {ident: dict(self._LED) for ident in leds}
                for component, leds in self._leds(
                    system, task.node.uuid).items()}

    def _led(self, task, component, indicator, state, action):
        info, system = redfish_utils.get_system(task.node, action=action)
        leds = self._leds(system, task.node.uuid)
        indicators.check({c: {i: self._LED for i in found}
                          for c, found in leds.items()},
                         component, indicator, state)
        return info, leds[component][indicator]

    def get_indicator_state(self, task, component, indicator):
        info, resource = self._led(task, component, indicator, None,
                                   'reading the indicator')
        return INDICATOR_MAP_REV.get(resource.indicator_led,
                                     indicators.UNKNOWN)

    def set_indicator_state(self, task, component, indicator, state):
        action = 'setting indicator %s@%s to %s' % (indicator, component,
                                                    state)
        info, resource = self._led(task, component, indicator, state,
                                   action)
        with redfish_utils.sushy_errors(info, action,
                                        exception.IronicLikeException):
            resource.set_indicator_led(INDICATOR_MAP[state])


# The entry points of an installation made before the firmware and vendor
# interfaces got modules of their own name them here: found lazily (they
# import this module).
_MOVED = {'RedfishFirmware': 'redfish_firmware',
          'RedfishVendor': 'redfish_vendor'}


def __getattr__(name):
    if name in _MOVED:
        import importlib
        module = importlib.import_module(
            'ironic_like.drivers.modules.' + _MOVED[name])
        return getattr(module, name)
    raise AttributeError(name)
