"""Firmware interfaces (API 1.86): fake, no-firmware, redfish."""

from unittest import mock

from ironic_like.common import exception
from ironic_like.drivers.modules import fake
from ironic_like.drivers.modules import noop
from ironic_like.drivers.modules import redfish_firmware
from ironic_like.tests.unit.drivers import test_redfish


def _task(**changes):
    task = test_redfish._task(**changes)
    task.node.driver = 'redfish'
    return task


class TestFakeAndNoFirmware(test_redfish._SushyTest):

    def test_fake_versions(self):
        task = _task()
        task.node.driver_info = {'fake_bios_version': '2.1',
                                 'fake_bmc_model': 'FakeBMC 1'}
        none = {'vendor': None, 'model': None, 'serial_number': None}
        self.assertEqual(
            [dict(none, component='bios', current_version='2.1'),
             dict(none, component='bmc', current_version='1.0.0',
                  model='FakeBMC 1')],
            fake.FakeFirmware().get_components(task))

    def test_no_firmware_refuses(self):
        task = _task()
        iface = noop.NoFirmware()
        self.assertRaises(exception.UnsupportedDriverExtension,
                          iface.validate, task)
        self.assertRaises(exception.UnsupportedDriverExtension,
                          iface.get_components, task)


class TestRedfishFirmware(test_redfish._SushyTest):

    def setUp(self):
        super().setUp()
        self.iface = redfish_firmware.RedfishFirmware()

    def test_bios_and_bmc(self):
        self.system.bios_version = 'U46 v1.20'
        self.system.managers = [mock.Mock(firmware_version='iLO 5 2.72',
                                          model='iLO 5')]
        # API 1.114: the BMC's model too.
        self.assertEqual(
            [{'component': 'bios', 'current_version': 'U46 v1.20'},
             {'component': 'bmc', 'current_version': 'iLO 5 2.72',
              'model': 'iLO 5'}],
            self.iface.get_components(_task()))

    def test_bios_only(self):
        self.system.bios_version = '1.0'
        self.system.managers = []
        self.assertEqual(
            [{'component': 'bios', 'current_version': '1.0'}],
            self.iface.get_components(_task()))

    def test_nothing_reported_is_unsupported(self):
        self.system.bios_version = None
        self.system.managers = [mock.Mock(firmware_version=None)]
        self.assertRaises(exception.UnsupportedDriverExtension,
                          self.iface.get_components, _task())

    def test_validate_needs_the_bmc_address(self):
        self.iface.validate(_task())
        self.assertRaises(exception.MissingParameterValue,
                          self.iface.validate,
                          _task(redfish_address=None))
