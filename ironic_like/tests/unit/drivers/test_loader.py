"""Loading hardware types and interfaces through entry points."""

import types

import testtools

from ironic_like.common import exception
from ironic_like.drivers import base
from ironic_like.drivers import fake_hardware
from ironic_like.drivers import loader
from ironic_like.drivers.modules import fake


class TestLoader(testtools.TestCase):

    def test_hardware_type(self):
        hw = loader.hardware_type('fake-hardware')
        self.assertIsInstance(hw, fake_hardware.FakeHardware)
        # Loaded once, shared.
        self.assertIs(hw, loader.hardware_type('fake-hardware'))

    def test_unknown_hardware_type(self):
        e = self.assertRaises(exception.DriverNotFound,
                              loader.hardware_type, 'no-such-hw')
        self.assertEqual('driver', e.field)
        self.assertIn('no-such-hw', str(e))
        # A miss is not cached as a hit.
        self.assertRaises(exception.DriverNotFound, loader.hardware_type,
                          'no-such-hw')

    def test_interfaces(self):
        expected = {'power': fake.FakePower,
                    'management': fake.FakeManagement,
                    'deploy': fake.FakeDeploy, 'boot': fake.FakeBoot}
        for kind, cls in expected.items():
            iface = loader.interface(kind, 'fake')
            self.assertIsInstance(iface, cls)
            self.assertIs(iface, loader.interface(kind, 'fake'))

    def test_unknown_interface(self):
        e = self.assertRaises(exception.InterfaceNotFoundInEntrypoint,
                              loader.interface, 'power', 'ipmitool')
        self.assertEqual('power_interface', e.field)
        self.assertIn('ipmitool', str(e))
        self.assertEqual(400, e.code)

    def test_interface_names_defaults(self):
        # The optional kinds default to Ironic's no-op interfaces, the
        # only ones their enabled_<kind>_interfaces options enable.
        expected = {'power': 'fake', 'management': 'fake', 'deploy': 'fake',
                    'boot': 'fake', 'bios': 'no-bios',
                    'console': 'no-console', 'firmware': 'no-firmware',
                    'inspect': 'no-inspect',
                    'network': 'noop', 'raid': 'no-raid',
                    'rescue': 'no-rescue', 'storage': 'noop',
                    'vendor': 'no-vendor'}
        self.assertEqual(
            expected, loader.interface_names({'driver': 'fake-hardware'}))
        self.assertEqual(
            expected,
            loader.interface_names({'driver': 'fake-hardware',
                                    'power_interface': None,
                                    'boot_interface': 'fake'}))

    def test_interface_names_unsupported(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              loader.interface_names,
                              {'driver': 'fake-hardware',
                               'boot_interface': 'pxe'})
        self.assertEqual('boot_interface', e.field)
        self.assertIn('fake', str(e))

    def test_interface_names_unknown_driver(self):
        self.assertRaises(exception.DriverNotFound, loader.interface_names,
                          {'driver': 'nope'})

    def test_build_driver(self):
        node = types.SimpleNamespace(driver='fake-hardware',
                                     power_interface=None,
                                     management_interface='fake',
                                     deploy_interface=None,
                                     boot_interface=None)
        driver = loader.build_driver(node)
        self.assertEqual('fake-hardware', driver.name)
        self.assertIsInstance(driver.hardware_type,
                              fake_hardware.FakeHardware)
        self.assertIsInstance(driver.power, fake.FakePower)
        self.assertIsInstance(driver.management, fake.FakeManagement)
        self.assertIsInstance(driver.deploy, fake.FakeDeploy)
        self.assertIsInstance(driver.boot, fake.FakeBoot)


class TestBase(testtools.TestCase):

    def test_hardware_type_supported_and_default(self):
        hw = fake_hardware.FakeHardware()
        for kind in ('power', 'management', 'deploy', 'boot'):
            self.assertEqual('fake', hw.default(kind))
        for kind in base.CONFIGURED_KINDS:
            self.assertIsNotNone(hw.default(kind))
        self.assertEqual(['fake'], hw.supported('power'))
        self.assertEqual(['fake', 'agent'], hw.supported('deploy'))
        self.assertEqual(['fake', 'ipxe'], hw.supported('boot'))

        class Empty(base.HardwareType):
            supported_power_interfaces = ('a', 'b')

        self.assertEqual('a', Empty().default('power'))
        self.assertIsNone(Empty().default('boot'))
        self.assertEqual([], Empty().supported('boot'))

    def test_interfaces_are_abstract(self):
        for cls in (base.PowerInterface, base.ManagementInterface,
                    base.DeployInterface, base.BootInterface):
            self.assertRaises(TypeError, cls)

    def test_default_supported_power_states(self):
        from ironic_like.common import states
        self.assertEqual([states.POWER_ON, states.POWER_OFF, states.REBOOT],
                         fake.FakePower().get_supported_power_states(None))
