"""The redfish hardware type and interfaces, with sushy mocked."""

import types
from unittest import mock

import fixtures
import sushy
import testtools

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.drivers import base
from ironic_like.drivers import loader
from ironic_like.drivers.modules import redfish
from ironic_like.drivers.modules import redfish_utils
from ironic_like.drivers import redfish_hardware

ADDRESS = 'https://bmc.example.com:8000'
SYSTEM = '/redfish/v1/Systems/abc'


def _info(**changes):
    info = {'redfish_address': ADDRESS, 'redfish_system_id': SYSTEM,
            'redfish_username': 'admin', 'redfish_password': 'secret'}
    info.update(changes)
    return {k: v for k, v in info.items() if v is not None}


def _task(**changes):
    node = types.SimpleNamespace(uuid='node-1', driver_info=_info(**changes))
    return types.SimpleNamespace(node=node)


class TestHardwareType(testtools.TestCase):

    def test_interfaces(self):
        hw = loader.hardware_type('redfish')
        self.assertIsInstance(hw, redfish_hardware.RedfishHardware)
        self.assertEqual('redfish', hw.default('power'))
        self.assertEqual('redfish', hw.default('management'))
        self.assertEqual(['agent', 'fake'], hw.supported('deploy'))
        self.assertEqual(['ipxe', 'fake'], hw.supported('boot'))
        self.assertEqual('agent', hw.default('deploy'))
        self.assertIsInstance(loader.interface('power', 'redfish'),
                              redfish.RedfishPower)
        self.assertIsInstance(loader.interface('management', 'redfish'),
                              redfish.RedfishManagement)


class TestParseDriverInfo(testtools.TestCase):

    def _parse(self, **changes):
        return redfish_utils.parse_driver_info(_task(**changes).node)

    def test_full(self):
        info = self._parse(redfish_verify_ca='false')
        self.assertEqual(
            {'address': ADDRESS, 'system_id': SYSTEM, 'username': 'admin',
             'password': 'secret', 'verify_ca': False, 'auth_type': 'basic',
             'node_uuid': 'node-1'}, info)

    def test_defaults(self):
        info = self._parse(redfish_system_id=None, redfish_username=None,
                           redfish_password=None,
                           redfish_address='bmc.example.com/')
        self.assertEqual('https://bmc.example.com', info['address'])
        self.assertIsNone(info['system_id'])
        self.assertIsNone(info['username'])
        self.assertIs(True, info['verify_ca'])

    def test_verify_ca_values(self):
        self.assertIs(True, self._parse(redfish_verify_ca=True)['verify_ca'])
        self.assertIs(False, self._parse(redfish_verify_ca='no')['verify_ca'])
        path = self.useFixture(fixtures.TempDir()).path
        self.assertEqual(path, self._parse(redfish_verify_ca=path)
                         ['verify_ca'])

    def _invalid(self, field, exc=exception.InvalidParameterValue,
                 **changes):
        e = self.assertRaises(exc, self._parse, **changes)
        self.assertEqual(field, e.field)
        self.assertIn('node-1', str(e))
        return e

    def test_missing_address(self):
        e = self._invalid('redfish_address', exception.MissingParameterValue,
                          redfish_address=None)
        self.assertIn('redfish_address', str(e))

    def test_invalid_address(self):
        for bad in ('ftp://bmc', 'http://', 42, 'http://bmc:port'):
            self._invalid('redfish_address', redfish_address=bad)

    def test_invalid_system_id(self):
        for bad in ('abc', 7, '/redfish/v1/Systems/a b', '/'):
            e = self._invalid('redfish_system_id', redfish_system_id=bad)
            self.assertIn('/redfish/v1/Systems/<id>', str(e))

    def test_invalid_credentials(self):
        self._invalid('redfish_username', redfish_username=1)
        self._invalid('redfish_password', redfish_password=['x'])

    def test_invalid_verify_ca(self):
        self._invalid('redfish_verify_ca',
                      redfish_verify_ca='/no/such/ca.pem')
        self._invalid('redfish_verify_ca', redfish_verify_ca=3)

    def test_invalid_auth_type(self):
        e = self._invalid('redfish_auth_type', redfish_auth_type='digest')
        self.assertIn('basic', str(e))

    def test_validate_of_interfaces(self):
        for iface in (redfish.RedfishPower(), redfish.RedfishManagement()):
            iface.validate(_task())
            e = self.assertRaises(exception.MissingParameterValue,
                                  iface.validate,
                                  _task(redfish_address=None))
            self.assertEqual('redfish_address', e.field)


class _SushyTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        redfish_utils._CACHE.clear()
        self.addCleanup(redfish_utils._CACHE.clear)
        self.system = mock.Mock(power_state=sushy.PowerState.OFF)
        self.system.chassis = []
        self.system.get_allowed_reset_system_values.return_value = {
            sushy.ResetType.ON, sushy.ResetType.FORCE_OFF,
            sushy.ResetType.FORCE_RESTART}
        self.conn = mock.Mock()
        self.conn.get_system.return_value = self.system
        self.sushy_cls = self.useFixture(fixtures.MockPatchObject(
            redfish_utils.sushy, 'Sushy', return_value=self.conn)).mock
        self.useFixture(fixtures.MockPatchObject(
            redfish, 'POWER_STATE_POLL_INTERVAL', 0))
        self.power = redfish.RedfishPower()
        self.management = redfish.RedfishManagement()

    def _apply_resets(self, lag=0):
        """Make the mocked system reach a reset's state after ``lag``
        further reads of the system, as the emulator does."""
        pending = []

        def reset(value):
            ends = {sushy.ResetType.ON: sushy.PowerState.ON,
                    sushy.ResetType.FORCE_RESTART: sushy.PowerState.ON,
                    sushy.ResetType.FORCE_OFF: sushy.PowerState.OFF,
                    sushy.ResetType.GRACEFUL_SHUTDOWN: sushy.PowerState.OFF}
            if value == sushy.ResetType.FORCE_RESTART:
                self.system.power_state = sushy.PowerState.OFF
            pending[:] = [[lag, ends[value]]]

        def get_system(identity):
            if pending:
                if pending[0][0] <= 0:
                    self.system.power_state = pending.pop()[1]
                else:
                    pending[0][0] -= 1
            return self.system
        self.system.reset_system.side_effect = reset
        self.conn.get_system.side_effect = get_system


class TestConnections(_SushyTest):

    def test_connection_cached_with_basic_auth(self):
        task = _task(redfish_verify_ca='false')
        self.power.get_power_state(task)
        self.power.get_power_state(task)
        self.sushy_cls.assert_called_once_with(
            ADDRESS, verify=False, auth=mock.ANY,
            server_side_retries=redfish_utils.SERVER_SIDE_RETRIES,
            server_side_retries_delay=redfish_utils.SERVER_SIDE_RETRIES_DELAY,
            read_timeout=redfish_utils.READ_TIMEOUT,
            connect_timeout=redfish_utils.CONNECT_TIMEOUT)
        auth = self.sushy_cls.call_args.kwargs['auth']
        self.assertIsInstance(auth, sushy.auth.BasicAuth)
        self.assertEqual(2, self.conn.get_system.call_count)
        self.conn.get_system.assert_called_with(SYSTEM)

    def test_cache_keys_and_bound(self):
        cache = redfish_utils.ConnectionCache(max_size=2)
        for index in range(3):
            cache.get(redfish_utils.parse_driver_info(
                _task(redfish_system_id='/redfish/v1/Systems/%d'
                      % index).node))
        self.assertEqual(2, len(cache))
        self.assertEqual(3, self.sushy_cls.call_count)
        # A changed password makes a new connection under the same key.
        cache.get(redfish_utils.parse_driver_info(_task(
            redfish_system_id='/redfish/v1/Systems/2',
            redfish_password='other').node))
        self.assertEqual(4, self.sushy_cls.call_count)
        self.assertEqual(2, len(cache))

    def test_connection_error_drops_cached_connection(self):
        self.conn.get_system.side_effect = sushy.exceptions.ConnectionError(
            url=ADDRESS, error='refused')
        e = self.assertRaises(exception.PowerStateFailure,
                              self.power.get_power_state, _task())
        self.assertIn('node-1', str(e))
        self.assertIn(ADDRESS, str(e))
        self.assertIn('refused', str(e))
        self.assertEqual(0, len(redfish_utils._CACHE))


class TestPower(_SushyTest):

    def test_power_state_mapping(self):
        task = _task()
        for raw, ours in [(sushy.PowerState.ON, states.POWER_ON),
                          (sushy.PowerState.POWERING_OFF, states.POWER_ON),
                          (sushy.PowerState.OFF, states.POWER_OFF),
                          (sushy.PowerState.POWERING_ON, states.POWER_OFF),
                          (sushy.PowerState.PAUSED, states.ERROR),
                          (None, states.ERROR)]:
            self.system.power_state = raw
            self.assertEqual(ours, self.power.get_power_state(task), raw)

    def test_supported_states(self):
        self.assertEqual([states.POWER_ON, states.POWER_OFF, states.REBOOT],
                         self.power.get_supported_power_states(_task()))

    def test_power_on_waits_for_state(self):
        self._apply_resets(lag=2)
        self.power.set_power_state(_task(), states.POWER_ON)
        self.system.reset_system.assert_called_once_with(
            sushy.ResetType.ON)
        self.assertEqual(sushy.PowerState.ON, self.system.power_state)
        # First read, then re-reads until the state showed.
        self.assertEqual(4, self.conn.get_system.call_count)

    def test_power_off_and_soft_off(self):
        self.system.power_state = sushy.PowerState.ON
        self._apply_resets()
        self.power.set_power_state(_task(), states.POWER_OFF)
        self.system.reset_system.assert_called_once_with(
            sushy.ResetType.FORCE_OFF)
        self.system.power_state = sushy.PowerState.ON
        self.system.reset_system.reset_mock()
        self.power.set_power_state(_task(), states.SOFT_POWER_OFF)
        self.system.reset_system.assert_called_once_with(
            sushy.ResetType.GRACEFUL_SHUTDOWN)

    def test_already_in_state_no_reset(self):
        self.power.set_power_state(_task(), states.POWER_OFF)
        self.system.reset_system.assert_not_called()

    def test_invalid_target(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.power.set_power_state, _task(), 'sleep')
        self.assertEqual('target', e.field)

    def test_timeout(self):
        # The reset is accepted but the state never changes.
        e = self.assertRaises(exception.PowerStateFailure,
                              self.power.set_power_state, _task(),
                              states.POWER_ON, timeout=0.05)
        self.assertIn('did not reach "power on"', str(e))
        self.assertIn('"Off"', str(e))

    def test_reset_error_wrapped(self):
        self.system.reset_system.side_effect = (
            sushy.exceptions.BadRequestError(
                method='POST', url=ADDRESS + SYSTEM, response=mock.Mock(
                    status_code=400, json=mock.Mock(return_value={}))))
        e = self.assertRaises(exception.PowerStateFailure,
                              self.power.set_power_state, _task(),
                              states.POWER_ON)
        self.assertIn('reset "On"', str(e))
        self.assertIn(SYSTEM, str(e))

    def test_system_not_found(self):
        self.conn.get_system.side_effect = (
            sushy.exceptions.ResourceNotFoundError(
                method='GET', url=ADDRESS + SYSTEM, response=mock.Mock(
                    status_code=404, json=mock.Mock(return_value={}))))
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.power.set_power_state, _task(),
                              states.POWER_ON)
        self.assertEqual('redfish_system_id', e.field)
        self.assertIn('no such system', str(e))

    def test_no_default_system(self):
        self.conn.get_system.side_effect = (
            sushy.exceptions.UnknownDefaultError(entity='ComputerSystem',
                                                 error='2 systems'))
        e = self.assertRaises(exception.MissingParameterValue,
                              self.power.get_power_state,
                              _task(redfish_system_id=None))
        self.assertEqual('redfish_system_id', e.field)
        self.conn.get_system.assert_called_with(None)

    def test_access_denied(self):
        self.sushy_cls.side_effect = sushy.exceptions.AccessError(
            method='GET', url=ADDRESS, response=mock.Mock(
                status_code=401, json=mock.Mock(return_value={})))
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.power.get_power_state, _task())
        self.assertEqual('redfish_username', e.field)

    def test_invalid_driver_info_before_any_request(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.power.set_power_state,
                              _task(redfish_system_id='abc'),
                              states.POWER_ON)
        self.assertEqual('redfish_system_id', e.field)
        self.sushy_cls.assert_not_called()

    def test_reboot_force_restart(self):
        self.system.power_state = sushy.PowerState.ON
        self._apply_resets(lag=1)
        self.power.reboot(_task())
        self.system.reset_system.assert_called_once_with(
            sushy.ResetType.FORCE_RESTART)
        self.assertEqual(sushy.PowerState.ON, self.system.power_state)

    def test_reboot_via_set_power_state(self):
        self.system.power_state = sushy.PowerState.ON
        self._apply_resets()
        self.power.set_power_state(_task(), states.REBOOT)
        self.system.reset_system.assert_called_once_with(
            sushy.ResetType.FORCE_RESTART)

    def test_reboot_off_and_on_without_force_restart(self):
        self.system.power_state = sushy.PowerState.ON
        self.system.get_allowed_reset_system_values.return_value = {
            sushy.ResetType.ON, sushy.ResetType.FORCE_OFF}
        self._apply_resets()
        self.power.reboot(_task())
        self.assertEqual([mock.call(sushy.ResetType.FORCE_OFF),
                          mock.call(sushy.ResetType.ON)],
                         self.system.reset_system.call_args_list)
        self.assertEqual(sushy.PowerState.ON, self.system.power_state)

    def test_reboot_when_off_powers_on(self):
        self._apply_resets()
        self.power.reboot(_task())
        self.system.reset_system.assert_called_once_with(
            sushy.ResetType.ON)


class TestManagement(_SushyTest):

    def setUp(self):
        super().setUp()
        self.system.boot = mock.Mock(
            target=sushy.BootSource.HDD,
            enabled=sushy.BootSourceOverrideEnabled.CONTINUOUS,
            allowed_values=['Pxe', 'Hdd', 'Cd', 'BiosSetup'])

    def test_get_boot_device(self):
        self.assertEqual({'boot_device': 'disk', 'persistent': True},
                         self.management.get_boot_device(_task()))
        self.system.boot.target = sushy.BootSource.PXE
        self.system.boot.enabled = sushy.BootSourceOverrideEnabled.ONCE
        self.assertEqual({'boot_device': 'pxe', 'persistent': False},
                         self.management.get_boot_device(_task()))
        self.system.boot.target = sushy.BootSource.USB
        self.assertIsNone(
            self.management.get_boot_device(_task())['boot_device'])

    def test_set_boot_device(self):
        for device, source in [('pxe', sushy.BootSource.PXE),
                               ('disk', sushy.BootSource.HDD),
                               ('cdrom', sushy.BootSource.CD),
                               ('bios', sushy.BootSource.BIOS_SETUP)]:
            self.system.set_system_boot_options.reset_mock()
            self.management.set_boot_device(_task(), device)
            self.system.set_system_boot_options.assert_called_once_with(
                target=source,
                enabled=sushy.BootSourceOverrideEnabled.ONCE)
        self.management.set_boot_device(_task(), 'pxe', persistent=True)
        self.system.set_system_boot_options.assert_called_with(
            target=sushy.BootSource.PXE,
            enabled=sushy.BootSourceOverrideEnabled.CONTINUOUS)

    def test_set_unknown_boot_device(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.management.set_boot_device, _task(),
                              'floppy')
        self.assertEqual('boot_device', e.field)
        self.sushy_cls.assert_not_called()

    def test_set_boot_device_not_allowed_by_bmc(self):
        self.system.boot.allowed_values = ['Hdd']
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.management.set_boot_device, _task(),
                              'pxe')
        self.assertEqual('boot_device', e.field)
        self.assertIn('Hdd', str(e))
        self.system.set_system_boot_options.assert_not_called()

    def test_set_boot_device_error_wrapped(self):
        self.system.set_system_boot_options.side_effect = (
            sushy.exceptions.ServerSideError(
                method='PATCH', url=ADDRESS + SYSTEM, response=mock.Mock(
                    status_code=500, json=mock.Mock(return_value={}))))
        e = self.assertRaises(exception.IronicLikeException,
                              self.management.set_boot_device, _task(),
                              'pxe')
        self.assertIn('setting the boot device to pxe failed', str(e))

    def test_supported_boot_devices(self):
        self.assertEqual(['bios', 'cdrom', 'disk', 'pxe'],
                         self.management.get_supported_boot_devices())


class TestSecretsInMessages(_SushyTest):
    """The address may carry the BMC password: log lines and errors (which
    become last_error and API answers) show it masked."""

    ADDRESS = 'https://admin:hunter2@bmc.example.com:8000'

    def test_warning_log_line_is_masked(self):
        import logging
        logs = self.useFixture(fixtures.FakeLogger(
            name=redfish.__name__, level=logging.WARNING))
        self.system.power_state = None
        self.assertEqual(states.ERROR, self.power.get_power_state(
            _task(redfish_address=self.ADDRESS)))
        self.assertIn('unexpected power state', logs.output)
        self.assertIn('admin:******@bmc.example.com', logs.output)
        self.assertNotIn('hunter2', logs.output)

    def test_errors_are_masked(self):
        self.conn.get_system.side_effect = sushy.exceptions.ConnectionError(
            url=self.ADDRESS + '/redfish/v1/Systems/abc', error='refused')
        e = self.assertRaises(exception.PowerStateFailure,
                              self.power.get_power_state,
                              _task(redfish_address=self.ADDRESS))
        self.assertIn('refused', str(e))
        self.assertNotIn('hunter2', str(e))
        e = self.assertRaises(
            exception.InvalidParameterValue,
            redfish_utils.parse_driver_info,
            _task(redfish_address='ftp://admin:hunter2@bmc').node)
        self.assertEqual('redfish_address', e.field)
        self.assertNotIn('hunter2', str(e))


class TestIndicators(_SushyTest):
    """The LEDs of the system, its chassis and drives as Ironic's redfish
    driver names them (1.63)."""

    LED = {'readonly': False, 'states': ['BLINKING', 'OFF', 'ON']}

    def setUp(self):
        super().setUp()
        self.system.uuid = 'sys-uuid'
        self.system.indicator_led = sushy.IndicatorLED.BLINKING
        self.chassis = mock.Mock(uuid='ch-uuid',
                                 indicator_led=sushy.IndicatorLED.OFF)
        self.system.chassis = [self.chassis]
        self.drive = mock.Mock(identity='d1',
                               indicator_led=sushy.IndicatorLED.LIT)
        dark = mock.Mock(identity='d2', indicator_led=None)
        storage = mock.Mock(identity='s1', drives=[self.drive, dark])
        self.system.storage.get_members.return_value = [storage]

    def test_supported(self):
        self.assertEqual(
            {'system': {'sys-uuid': self.LED},
             'chassis': {'ch-uuid': self.LED},
             'disk': {'s1:d1': self.LED}},
            self.management.get_supported_indicators(_task()))

    def test_states(self):
        for component, ident, expected in (('system', 'sys-uuid',
                                            'BLINKING'),
                                           ('chassis', 'ch-uuid', 'OFF'),
                                           ('disk', 's1:d1', 'ON')):
            self.assertEqual(expected, self.management.get_indicator_state(
                _task(), component, ident))
        self.system.indicator_led = sushy.IndicatorLED.UNKNOWN
        self.assertEqual('UNKNOWN', self.management.get_indicator_state(
            _task(), 'system', 'sys-uuid'))

    def test_failing_part_left_out(self):
        self.system.indicator_led = None
        type(self.system).storage = mock.PropertyMock(
            side_effect=sushy.exceptions.MissingAttributeError(
                attribute='Storage', resource='System'))
        self.assertEqual({'chassis': {'ch-uuid': self.LED}},
                         self.management.get_supported_indicators(_task()))
        self.assertRaises(exception.InvalidParameterValue,
                          self.management.get_indicator_state, _task(),
                          'system', 'sys-uuid')

    def test_set(self):
        self.management.set_indicator_state(_task(), 'chassis', 'ch-uuid',
                                            'BLINKING')
        self.chassis.set_indicator_led.assert_called_once_with(
            sushy.IndicatorLED.BLINKING)
        self.management.set_indicator_state(_task(), 'disk', 's1:d1', 'OFF')
        self.drive.set_indicator_led.assert_called_once_with(
            sushy.IndicatorLED.OFF)
        self.management.set_indicator_state(_task(), 'system', 'sys-uuid',
                                            'ON')
        self.system.set_indicator_led.assert_called_once_with(
            sushy.IndicatorLED.LIT)

    def test_set_refused(self):
        for args in (('chassis', 'nope', 'ON'), ('rack', 'sys-uuid', 'ON'),
                     ('system', 'sys-uuid', 'UNKNOWN')):
            self.assertRaises(exception.InvalidParameterValue,
                              self.management.set_indicator_state, _task(),
                              *args)
        self.system.set_indicator_led.assert_not_called()

    def test_bmc_error(self):
        self.system.set_indicator_led.side_effect = (
            sushy.exceptions.BadRequestError(
                method='PATCH', url='/redfish/v1/Systems/1',
                response=mock.Mock(status_code=400, json=lambda: {})))
        self.assertRaises(exception.IronicLikeException,
                          self.management.set_indicator_state, _task(),
                          'system', 'sys-uuid', 'ON')


class TestUnsupportedIndicators(testtools.TestCase):

    def test_base_interface_refuses(self):
        class Bare(base.ManagementInterface):
            def set_boot_device(self, task, device, persistent=False):
                pass

            def get_boot_device(self, task):
                return {}
        task = types.SimpleNamespace(node=types.SimpleNamespace(
            uuid='node-1', driver='bare'))
        for call, args in ((Bare().get_supported_indicators, ()),
                           (Bare().get_indicator_state, ('system', 'led')),
                           (Bare().set_indicator_state,
                            ('system', 'led', 'ON'))):
            self.assertRaises(exception.UnsupportedDriverExtension, call,
                              task, *args)


class TestBootModeAndSecureBoot(_SushyTest):

    def test_boot_mode(self):
        self.system.boot = mock.Mock(mode=sushy.BootSourceOverrideMode.UEFI)
        self.assertEqual('uefi', self.management.get_boot_mode(_task()))
        self.management.set_boot_mode(_task(), 'bios')
        self.system.set_system_boot_options.assert_called_once_with(
            mode=sushy.BootSourceOverrideMode.LEGACY)

    def test_secure_boot(self):
        self.system.secure_boot = mock.Mock(enabled=True)
        self.assertIs(True, self.management.get_secure_boot_state(_task()))
        self.management.set_secure_boot_state(_task(), False)
        self.system.secure_boot.set_enabled.assert_called_once_with(False)

    def test_no_secure_boot_resource_is_unsupported(self):
        type(self.system).secure_boot = mock.PropertyMock(
            side_effect=sushy.exceptions.MissingAttributeError(
                attribute='SecureBoot', resource='System'))
        task = types.SimpleNamespace(node=types.SimpleNamespace(
            uuid='node-1', driver='redfish',
            driver_info=_task().node.driver_info))
        self.assertRaises(exception.UnsupportedDriverExtension,
                          self.management.get_secure_boot_state, task)
