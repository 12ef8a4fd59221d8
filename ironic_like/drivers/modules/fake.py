"""Fake interfaces: they change nothing real but keep state on the node.

The fake power interface remembers the power state in the node's
driver_internal_info and records which conductor acted last, so tests can
prove that the owning conductor executed an action.
"""

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.common import exception
from ironic_like.common import health_states
from ironic_like.common import indicators
from ironic_like.common import states
from ironic_like.conf import CONF
from ironic_like.drivers import base
from ironic_like.drivers import bios_settings
from ironic_like.drivers import raid

LOG = log.getLogger(__name__)

FAKE_POWER_KEY = 'fake_power_state'
LAST_CONDUCTOR_KEY = 'fake_last_power_conductor'


class FakePower(base.PowerInterface):

    def get_power_state(self, task):
        info = task.node.driver_internal_info or {}
        return info.get(FAKE_POWER_KEY, task.node.power_state or
                        states.POWER_OFF)

    def _record(self, task, power_state):
        info = dict(task.node.driver_internal_info or {})
        info[FAKE_POWER_KEY] = power_state
        info[LAST_CONDUCTOR_KEY] = CONF.host
        task.update_node({'driver_internal_info': info})

    def set_power_state(self, task, power_state, timeout=None):
        if power_state not in (states.POWER_ON, states.POWER_OFF):
            raise exception.InvalidParameterValue(
                err='Fake power cannot set power state "%s".' % power_state,
                field='target')
        self._record(task, power_state)

    def reboot(self, task, timeout=None):
        self._record(task, states.POWER_ON)

    def request_power_state(self, task, power_state):
        # Nothing runs on a fake machine to shut down gracefully.
        if power_state == states.SOFT_POWER_OFF:
            power_state = states.POWER_OFF
        self.set_power_state(task, power_state)


class FakeManagement(base.ManagementInterface):
    KEY = 'fake_boot_device'
    NMI_KEY = 'fake_nmi_count'
    # {device type: image URL} of the inserted virtual media.
    VMEDIA_KEY = 'fake_vmedia'

    def attach_virtual_media(self, task, device_type, image_url):
        info = dict(task.node.driver_internal_info or {})
        info[self.VMEDIA_KEY] = dict(info.get(self.VMEDIA_KEY) or {},
                                     **{device_type: image_url})
        task.update_node({'driver_internal_info': info})

    def detach_virtual_media(self, task, device_types):
        info = dict(task.node.driver_internal_info or {})
        media = dict(info.get(self.VMEDIA_KEY) or {})
        for device_type in device_types or list(media):
            media.pop(device_type, None)
        info[self.VMEDIA_KEY] = media
        task.update_node({'driver_internal_info': info})

    # The health the fake BMC reports (API 1.109): driver_info's
    # fake_health (OK, Warning or Critical), else none.
    HEALTH_KEY = 'fake_health'

    def get_node_health(self, task):
        health = (task.node.driver_info or {}).get(self.HEALTH_KEY)
        return health if health in health_states.HEALTH_STATES else None

    # The fake BMC's devices: one per device type, with the Redfish media
    # types a real BMC reports for it.
    VMEDIA_DEVICES = (('cdrom', ['CD', 'DVD']), ('disk', ['USBStick']),
                      ('floppy', ['Floppy']))

    def get_virtual_media(self, task):
        media = (task.node.driver_internal_info or {}).get(
            self.VMEDIA_KEY) or {}
        return [{'media_types': list(types),
                 'inserted': device_type in media,
                 'image': media.get(device_type, '')}
                for device_type, types in self.VMEDIA_DEVICES]
    BOOT_DEVICES = ('bios', 'cdrom', 'disk', 'pxe')

    def get_supported_boot_devices(self, task):
        return list(self.BOOT_DEVICES)

    def inject_nmi(self, task):
        # Counted, so that a test can tell the NMI reached the interface.
        info = dict(task.node.driver_internal_info or {})
        info[self.NMI_KEY] = info.get(self.NMI_KEY, 0) + 1
        task.update_node({'driver_internal_info': info})

    def set_boot_device(self, task, device, persistent=False):
        if device not in self.BOOT_DEVICES:
            raise exception.InvalidParameterValue(
                err='Invalid boot device %s specified; use one of %s.'
                    % (device, ', '.join(self.BOOT_DEVICES)),
                field='boot_device')
        info = dict(task.node.driver_internal_info or {})
        info[self.KEY] = {'boot_device': device, 'persistent': persistent}
        task.update_node({'driver_internal_info': info})

    def get_boot_device(self, task):
        info = task.node.driver_internal_info or {}
        return info.get(self.KEY, {'boot_device': 'disk',
                                   'persistent': True})

    # Boot mode and secure boot, kept in driver_internal_info.
    BOOT_MODE_KEY = 'fake_boot_mode'
    SECURE_BOOT_KEY = 'fake_secure_boot'

    def get_boot_mode(self, task):
        return (task.node.driver_internal_info or {}).get(
            self.BOOT_MODE_KEY, 'uefi')

    def set_boot_mode(self, task, mode):
        self._set_info(task, self.BOOT_MODE_KEY, mode)

    def get_secure_boot_state(self, task):
        return (task.node.driver_internal_info or {}).get(
            self.SECURE_BOOT_KEY, False)

    def set_secure_boot_state(self, task, state):
        self._set_info(task, self.SECURE_BOOT_KEY, bool(state))

    def _set_info(self, task, key, value):
        info = dict(task.node.driver_internal_info or {})
        info[key] = value
        task.update_node({'driver_internal_info': info})

    # Indicators: a read-only chassis LED and a system LED one may set,
    # as Ironic's fake has; states kept in driver_internal_info.
    INDICATORS_KEY = 'fake_indicators'
    INDICATORS = {
        indicators.CHASSIS: {'led-0': {
            'readonly': True, 'states': [indicators.OFF, indicators.ON]}},
        indicators.SYSTEM: {'led': {
            'readonly': False,
            'states': [indicators.BLINKING, indicators.OFF,
                       indicators.ON]}},
    }

    def get_supported_indicators(self, task):
        return self.INDICATORS

    def get_indicator_state(self, task, component, indicator):
        indicators.check(self.INDICATORS, component, indicator)
        states = (task.node.driver_internal_info or {}).get(
            self.INDICATORS_KEY, {})
        return states.get('%s@%s' % (indicator, component), indicators.OFF)

    def set_indicator_state(self, task, component, indicator, state):
        indicators.check(self.INDICATORS, component, indicator, state)
        info = dict(task.node.driver_internal_info or {})
        states = dict(info.get(self.INDICATORS_KEY) or {})
        states['%s@%s' % (indicator, component)] = state
        info[self.INDICATORS_KEY] = states
        task.update_node({'driver_internal_info': info})


class FakeDeploy(base.DeployInterface):

    def deploy(self, task):
        return None

    def tear_down(self, task):
        return None

    def clean(self, task, steps=None):
        return None


class FakeBoot(base.BootInterface):
    KEY = 'fake_os_boot'

    def prepare_ramdisk(self, task):
        return None

    def prepare_os_boot(self, task, kernel, initrd, kernel_parameters):
        info = dict(task.node.driver_internal_info or {})
        info[self.KEY] = {'kernel': kernel, 'initrd': initrd,
                          'kernel_parameters': kernel_parameters}
        task.update_node({'driver_internal_info': info})

    def clean_up_ramdisk(self, task):
        return None


# Ironic's arguments of the BIOS apply_configuration step.
class FakeBIOS(base.BIOSInterface):
    """A BIOS with a few fixed settings (read on manage/verify)."""

    SETTINGS = {
        'BootMode': 'Uefi',
        'ProcVirtualization': 'Enabled',
        'SecureBoot': 'Disabled',
    }

    # Their registry entries (API 1.74), as a BMC's registry gives them.
    REGISTRY = {
        'BootMode': {'attribute_type': 'Enumeration',
                     'allowable_values': ['Bios', 'Uefi'],
                     'read_only': False, 'reset_required': True,
                     'unique': False},
        'ProcVirtualization': {'attribute_type': 'Enumeration',
                               'allowable_values': ['Enabled', 'Disabled'],
                               'read_only': False, 'reset_required': True,
                               'unique': False},
        'SecureBoot': {'attribute_type': 'Enumeration',
                       'allowable_values': ['Enabled', 'Disabled'],
                       'read_only': True, 'reset_required': False,
                       'unique': False},
    }

    # driver_internal_info: the settings its apply_configuration steps
    # set ({name: value}), over SETTINGS.
    APPLIED_KEY = 'fake_bios_settings'

    def get_bios_settings(self, task):
        current = dict(self.SETTINGS, **(
            (task.node.driver_internal_info or {}).get(self.APPLIED_KEY)
            or {}))
        return {name: dict(self.REGISTRY.get(name, {}), value=value)
                for name, value in current.items()}

    # Deploy steps too, as the BIOS steps of Ironic's real drivers are
    # (its fake BIOS has none): a deploy template of Ironic's example
    # (bios.apply_configuration) then deploys on fake-hardware.
    @base.deploy_step(argsinfo=bios_settings.APPLY_ARGSINFO)
    @base.service_step(argsinfo=bios_settings.APPLY_ARGSINFO)
    @base.clean_step(argsinfo=bios_settings.APPLY_ARGSINFO)
    def apply_configuration(self, task, settings):
        """Ironic's BIOS step: set ``settings`` ([{name, value}]), then
        read them back into the node's cached settings."""
        applied = dict((task.node.driver_internal_info or {}).get(
            self.APPLIED_KEY) or {})
        applied.update(bios_settings.parse(settings))
        self._store(task, applied)

    @base.deploy_step()
    @base.service_step()
    @base.clean_step()
    def factory_reset(self, task):
        """Ironic's BIOS step: back to the factory settings."""
        self._store(task, {})

    def _store(self, task, applied):
        info = dict(task.node.driver_internal_info or {})
        if applied:
            info[self.APPLIED_KEY] = applied
        else:
            info.pop(self.APPLIED_KEY, None)
        task.update_node({'driver_internal_info': info})
        self.cache_bios_settings(task)


class FakeFirmware(base.FirmwareInterface):
    """A BIOS and a BMC whose versions driver_info may set
    (``fake_bios_version``, ``fake_bmc_version``; and, API 1.114, their
    ``fake_<component>_vendor``, ``_model``, ``_serial_number``), read on
    manage/verify and after inspection."""

    DEFAULT_VERSION = '1.0.0'

    def get_components(self, task):
        info = task.node.driver_info or {}
        return [dict({'component': name,
                      'current_version': str(info.get(
                          'fake_%s_version' % name) or self.DEFAULT_VERSION)},
                     # API 1.114: fake_bmc_model and the like.
                     **{key: info.get('fake_%s_%s' % (name, key))
                        for key in ('vendor', 'model', 'serial_number')})
                for name in ('bios', 'bmc')]


class FakeConsole(base.ConsoleInterface):
    """A console that is only a flag: console_enabled, which the conductor
    sets once start_console/stop_console returned."""

    def start_console(self, task):
        return None

    def stop_console(self, task):
        return None

    def get_console(self, task):
        return {'type': 'shellinabox',
                'url': 'http://localhost:4201/%s' % task.node.uuid}


class FakeInspect(base.InspectInterface):
    """Ironic's fake inspection: over at once, the node unchanged."""

    def inspect_hardware(self, task):
        return states.MANAGEABLE


class FakeRAID(base.RAIDInterface):
    """Accepts any valid target RAID configuration; creating it copies it
    to raid_config."""

    def validate_raid_config(self, task, raid_config):
        raid.validate_configuration(raid_config)

    def get_logical_disk_properties(self):
        return raid.logical_disk_properties()

    def check_step(self, task, step):
        """Before cleaning starts: a create_configuration needs a target
        to build (MissingParameterValue naming target_raid_config)."""
        if step.get('step') == 'create_configuration':
            args = step.get('args') or {}
            raid.filter_target(task.node,
                               args.get('create_root_volume', True),
                               args.get('create_nonroot_volumes', True))

    @base.clean_step(argsinfo=raid.CREATE_ARGSINFO)
    def create_configuration(self, task, create_root_volume=True,
                             create_nonroot_volumes=True):
        """A RAID clean step as Ironic's RAID interfaces have: "builds"
        the node's target (filtered as the arguments say) and records it
        as a real one would."""
        built = raid.filter_target(task.node, create_root_volume,
                                   create_nonroot_volumes)
        task.update_node(raid.built_values(task.node, built,
                                           timeutils.utcnow()))

    @base.clean_step()
    def delete_configuration(self, task):
        task.update_node(raid.deleted_values(task.node))


class FakeVendor(base.VendorInterface):
    """Ironic's ``fake`` vendor interface of fake-hardware: passthru
    methods that test the API's paths without a BMC. The ``bar`` methods
    answer whether ``bar`` is their word; log_passthrough logs its
    arguments, and is also a clean step (priority 1) and a service step
    that needs no ramdisk, as Ironic's is. ``echo`` is a driver passthru
    method (ours: Ironic's fake has none, and the driver path deserves a
    test too)."""

    _WANTS_BAR = ('second_method', 'third_method_sync',
                  'fourth_method_shared_lock')

    def validate(self, task, method=None, **kwargs):
        if method in self._WANTS_BAR and not kwargs.get('bar'):
            raise exception.MissingParameterValue(
                "Parameter 'bar' not passed to method '%s'." % method,
                field='bar')

    @base.passthru(['POST'], description='Logs whether bar is "kazoo" '
                   '(asynchronous: the answer is 202).')
    def second_method(self, task, http_method, bar):
        LOG.info('Node %s: fake vendor second_method: %s', task.node.uuid,
                 bar == 'kazoo')
        return bar == 'kazoo'

    @base.passthru(['POST'], async_call=False,
                   description='Whether bar is "meow".')
    def third_method_sync(self, task, http_method, bar):
        return bar == 'meow'

    @base.passthru(['POST'], require_exclusive_lock=False,
                   description='Logs whether bar is "woof", under a '
                               'shared lock (asynchronous).')
    def fourth_method_shared_lock(self, task, http_method, bar):
        LOG.info('Node %s: fake vendor fourth_method_shared_lock: %s',
                 task.node.uuid, bar == 'woof')
        return bar == 'woof'

    # Asynchronous and returning nothing, as Ironic's: a step called
    # through the API has no value to answer with.
    @base.service_step(requires_ramdisk=False)
    @base.clean_step(priority=1)
    @base.passthru(['POST'], description='Logs its arguments '
                   '(asynchronous).')
    def log_passthrough(self, task, **kwargs):
        LOG.info('Node %s: fake vendor log_passthrough: %s',
                 task.node.uuid, kwargs)

    @base.driver_passthru(['GET', 'POST'], async_call=False,
                          description='Returns its arguments (the HTTP '
                                      'method among them).')
    def echo(self, context, **kwargs):
        return kwargs
