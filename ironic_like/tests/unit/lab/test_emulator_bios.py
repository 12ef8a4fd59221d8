"""The Redfish emulator wrapper's BIOS (ironic_like_lab.redfish_emulator
.patch_bios): sushy-tools' FakeDriver in this process, systems without a
simulator behind them (no notifications)."""

import logging
import os

from unittest import mock

import fixtures
import testtools

from ironic_like_lab import redfish_emulator

FACTORY = {'BootMode': 'Uefi', 'ProcTurboMode': 'Enabled', 'NumCores': 8}


class TestEmulatorBIOS(testtools.TestCase):

    def setUp(self):
        super().setUp()
        from sushy_tools.emulator.resources.systems import fakedriver
        self.fakedriver = fakedriver
        # The patches change sushy-tools' module: undo them afterwards.
        for name in ('set_power_state', 'get_bios', 'set_bios',
                     'reset_bios', 'get_bios_pending'):
            self.addCleanup(self._restore, name,
                            fakedriver.FakeDriver.__dict__.get(name))
        self.useFixture(fixtures.MockPatchObject(
            fakedriver, 'random', fakedriver.random))
        redfish_emulator.patch_power_delay(0)
        redfish_emulator.patch_bios()
        self.tmp = self.useFixture(fixtures.TempDir()).path
        with_bios = redfish_emulator.make_system(
            'bios-1', '52:54:00:00:00:01', uuid='b1', notify=False)
        with_bios[redfish_emulator.BIOS_KEY] = dict(FACTORY)
        without = redfish_emulator.make_system(
            'plain-1', '52:54:00:00:00:02', uuid='p1', notify=False)
        config = {'SUSHY_EMULATOR_FAKE_SYSTEMS': [with_bios, without],
                  'SUSHY_EMULATOR_STATE_DIR': os.path.join(self.tmp, 's')}
        self.driver = fakedriver.FakeDriver.initialize(
            config, logging.getLogger(__name__))()

    def _restore(self, name, original):
        if original is None:
            delattr(self.fakedriver.FakeDriver, name)
        else:
            setattr(self.fakedriver.FakeDriver, name, original)

    def test_settings_apply_at_the_next_boot(self):
        self.assertEqual(FACTORY, self.driver.get_bios('b1'))
        self.driver.set_bios('b1', {'ProcTurboMode': 'Disabled'})
        self.driver.set_bios('b1', {'NumCores': 4})
        # Pending until the machine boots: a power-on of a machine that
        # is off. The settings resource shows them meanwhile.
        self.assertEqual(FACTORY, self.driver.get_bios('b1'))
        self.assertEqual(dict(FACTORY, ProcTurboMode='Disabled', NumCores=4),
                         self.driver.get_bios_pending('b1'))
        self.driver.set_power_state('b1', 'On')
        applied = dict(FACTORY, ProcTurboMode='Disabled', NumCores=4)
        self.assertEqual(applied, self.driver.get_bios('b1'))
        # A power-on of a machine already on boots nothing.
        self.driver.set_bios('b1', {'BootMode': 'Bios'})
        self.driver.set_power_state('b1', 'On')
        self.assertEqual(applied, self.driver.get_bios('b1'))
        self.driver.set_power_state('b1', 'ForceRestart')
        self.assertEqual(dict(applied, BootMode='Bios'),
                         self.driver.get_bios('b1'))

    def test_not_before_the_machine_is_on(self):
        # A power change the emulator has not applied yet (its power
        # delay): the boot has not happened, the settings stay pending.
        self.driver.set_bios('b1', {'NumCores': 2})
        with mock.patch.object(self.fakedriver.random, 'randint',
                               return_value=3600, create=True):
            self.driver.set_power_state('b1', 'On')
        self.assertEqual(FACTORY, self.driver.get_bios('b1'))
        self.assertEqual('Off', self.driver.get_power_state('b1'))

    def test_reset_to_factory_at_the_next_boot(self):
        self.driver.set_bios('b1', {'ProcTurboMode': 'Disabled'})
        self.driver.set_power_state('b1', 'On')
        self.driver.reset_bios('b1')
        self.assertEqual('Disabled',
                         self.driver.get_bios('b1')['ProcTurboMode'])
        self.driver.set_power_state('b1', 'GracefulRestart')
        self.assertEqual(FACTORY, self.driver.get_bios('b1'))

    def test_refused(self):
        from sushy_tools import error
        exc = self.assertRaises(error.BadRequest, self.driver.set_bios,
                                'b1', {'NoSuchThing': '1'})
        self.assertIn('NoSuchThing', str(exc))
        self.assertRaises(error.BadRequest, self.driver.set_bios, 'b1', {})
        # A system defined without a BIOS has none, as before the patch.
        for call in (lambda: self.driver.get_bios('p1'),
                     lambda: self.driver.set_bios('p1', {'BootMode': 'x'}),
                     lambda: self.driver.reset_bios('p1')):
            self.assertRaises(error.NotSupportedError, call)
        # The plain system's power still works.
        self.driver.set_power_state('p1', 'On')
        self.assertEqual('On', self.driver.get_power_state('p1'))

    def test_patch_is_idempotent(self):
        patched = self.fakedriver.FakeDriver.set_power_state
        redfish_emulator.patch_bios()
        self.assertIs(patched, self.fakedriver.FakeDriver.set_power_state)

    def test_bios_firmware_flashed_at_the_next_boot(self):
        # What patch_firmware_update's SimpleUpdate leaves for a BIOS
        # image: the version pending until the machine boots.
        system = self.driver._get('p1')
        self.driver._update(system, **{
            redfish_emulator.FIRMWARE_KEY: {'bios': '1.0', 'bmc': '1.00'},
            redfish_emulator._FIRMWARE_PENDING: '1.1'})
        self.driver.set_power_state('p1', 'On')
        system = redfish_emulator._applied_at_boot(self.driver, 'p1')
        self.assertEqual({'bios': '1.1', 'bmc': '1.00'},
                         system[redfish_emulator.FIRMWARE_KEY])
        self.assertIsNone(system[redfish_emulator._FIRMWARE_PENDING])
        # A power-on of a machine already on flashes nothing.
        self.driver._update(system, **{
            redfish_emulator._FIRMWARE_PENDING: '1.2'})
        self.driver.set_power_state('p1', 'On')
        system = redfish_emulator._applied_at_boot(self.driver, 'p1')
        self.assertEqual('1.1', system[redfish_emulator.FIRMWARE_KEY]['bios'])
        # The BIOS settings of the other system are not touched.
        self.assertEqual(FACTORY, self.driver.get_bios('b1'))


class _Image(object):

    def __init__(self, status, data):
        self.status_code = status
        self.raw = mock.Mock()
        self.raw.read.return_value = data

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class TestFirmwareImages(testtools.TestCase):

    def _read(self, status=200, data=b''):
        with mock.patch.object(redfish_emulator.requests, 'get',
                               return_value=_Image(status, data)):
            return redfish_emulator._read_image('http://h/i.bin')

    def test_image_names_its_component_and_version(self):
        self.assertEqual(('bmc', '2.00'), self._read(
            data=redfish_emulator.firmware_image('bmc', '2.00')))

    def test_refused_images(self):
        for status, data, message in (
                (404, b'', 'HTTP 404'),
                (200, b'MZ\x90\x00 binary', 'is not a firmware image'),
                (200, b'FIRMWARE bios\n', 'is not a firmware image')):
            e = self.assertRaises(ValueError, self._read, status, data)
            self.assertIn(message, str(e))
