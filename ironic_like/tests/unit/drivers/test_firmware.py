"""Firmware interfaces (API 1.86): fake, no-firmware, redfish."""

from unittest import mock

import sushy

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

    def _adapter(self, ident, serial, *versions):
        return mock.Mock(identity=ident, serial_number=serial,
                         manufacturer='Intel', model='E810', controllers=[
                             mock.Mock(firmware_package_version=v)
                             for v in versions])

    def test_network_adapters(self):
        # As Ironic: nic:<serial number>, else nic:<Redfish id>; an
        # adapter whose controllers report no version is left out.
        self.system.bios_version = None
        self.system.managers = []
        first, second = mock.Mock(), mock.Mock()
        first.network_adapters.get_members.return_value = [
            self._adapter('NIC.Slot.1', 'SN123', None, '4.40'),
            self._adapter('NIC.Slot.2', None, '4.20', '4.30'),
            self._adapter('NIC.Slot.3', None, None)]
        # A second chassis (a blade's enclosure) is not read, as Ironic.
        second.network_adapters.get_members.return_value = [
            self._adapter('NIC.Shared.1', 'SN-SHARED', '9.9')]
        self.system.chassis = [first, second]
        nic = {'vendor': 'Intel', 'model': 'E810'}
        self.assertEqual(
            [dict(nic, component='nic:SN123', current_version='4.40',
                  serial_number='SN123'),
             dict(nic, component='nic:NIC.Slot.2', current_version='4.20',
                  serial_number=None)],
            self.iface.get_components(_task()))

    def test_network_adapters_missing_or_failing_are_left_out(self):
        # (HPE BMCs answer 400 to NetworkAdapters while the OS boots.)
        self.system.bios_version = '1.0'
        self.system.managers = []
        for error in (
                sushy.exceptions.MissingAttributeError(
                    attribute='NetworkAdapters', resource='/Chassis/1'),
                sushy.exceptions.BadRequestError(
                    method='GET', url='/Chassis/1/NetworkAdapters',
                    response=mock.Mock(status_code=400, json=lambda: {}))):
            chassis = mock.Mock()
            chassis.network_adapters.get_members.side_effect = error
            self.system.chassis = [chassis]
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
