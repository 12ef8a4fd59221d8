"""The optional interface kinds: no-op and fake implementations, the
RAID schema, redfish BIOS and NMI, enabled/default options."""

import types
from unittest import mock

import sushy

from ironic_like.common import exception
from ironic_like.drivers import base
from ironic_like.drivers import fake_hardware
from ironic_like.drivers import loader
from ironic_like.drivers.modules import fake
from ironic_like.drivers.modules import network
from ironic_like.drivers.modules import noop
from ironic_like.drivers.modules import redfish_bios
from ironic_like.drivers import raid
from ironic_like.drivers import redfish_hardware
from ironic_like.tests import base as tests_base
from ironic_like.tests.unit.drivers import test_redfish


def _task(driver='fake-hardware', **node):
    node.setdefault('uuid', 'node-1')
    node.setdefault('driver_info', {})
    return types.SimpleNamespace(node=types.SimpleNamespace(driver=driver,
                                                            **node))


class TestNoop(tests_base.TestCase):

    def test_refusing_interfaces(self):
        task = _task()
        for cls, kind in ((noop.NoBIOS, 'bios'),
                          (noop.NoConsole, 'console'),
                          (noop.NoInspect, 'inspect'),
                          (noop.NoRAID, 'raid'),
                          (noop.NoRescue, 'rescue'),
                          (noop.NoVendor, 'vendor')):
            iface = cls()
            e = self.assertRaises(exception.UnsupportedDriverExtension,
                                  iface.validate, task)
            self.assertEqual(400, e.code)
            self.assertIn('fake-hardware does not support %s' % kind,
                          str(e))
            self.assertEqual({}, iface.get_properties())
        self.assertRaises(exception.UnsupportedDriverExtension,
                          noop.NoConsole().start_console, task)
        self.assertRaises(exception.UnsupportedDriverExtension,
                          noop.NoBIOS().cache_bios_settings, task)
        self.assertRaises(exception.UnsupportedDriverExtension,
                          noop.NoRAID().get_logical_disk_properties)
        self.assertRaises(exception.UnsupportedDriverExtension,
                          noop.NoRescue().rescue, task)

    def test_noop_network_and_storage_are_valid(self):
        task = _task()
        noop.NoopNetwork().validate(task)
        noop.NoopStorage().validate(task)
        self.assertTrue(noop.NoopStorage().should_write_image(task))

    def test_flat_network(self):
        flat = network.FlatNetwork()
        flat.validate(_task(driver_info={'cleaning_network': 'net-1'}))
        e = self.assertRaises(exception.InvalidParameterValue,
                              flat.validate,
                              _task(driver_info={'provisioning_network': 3}))
        self.assertEqual('provisioning_network', e.field)
        self.assertIn('cleaning_network', flat.get_properties())

    def test_management_base_refuses_nmi(self):
        e = self.assertRaises(exception.UnsupportedDriverExtension,
                              base.ManagementInterface.inject_nmi, None,
                              _task())
        self.assertIn('inject_nmi', str(e))


class TestFakes(tests_base.TestCase):

    def _task(self, **node):
        task = _task(**node)
        task.update_node = lambda values: [
            setattr(task.node, k, v) for k, v in values.items()]
        return task

    def test_fake_management(self):
        task = self._task(driver_internal_info={})
        mgmt = fake.FakeManagement()
        self.assertEqual(['bios', 'cdrom', 'disk', 'pxe'],
                         mgmt.get_supported_boot_devices(task))
        mgmt.set_boot_device(task, 'pxe', persistent=True)
        self.assertEqual({'boot_device': 'pxe', 'persistent': True},
                         mgmt.get_boot_device(task))
        e = self.assertRaises(exception.InvalidParameterValue,
                              mgmt.set_boot_device, task, 'usb')
        self.assertEqual('boot_device', e.field)
        mgmt.inject_nmi(task)
        self.assertEqual(1, task.node.driver_internal_info['fake_nmi_count'])

    def test_fake_bios_console_raid(self):
        disk = {'size_gb': 1, 'raid_level': '0'}
        task = self._task(target_raid_config={'logical_disks': [disk]},
                          driver_internal_info={}, properties={})
        boot_mode = fake.FakeBIOS().get_bios_settings(task)['BootMode']
        self.assertEqual(('Uefi', ['Bios', 'Uefi']),
                         (boot_mode['value'],
                          boot_mode['allowable_values']))
        console = fake.FakeConsole()
        console.start_console(task)
        self.assertIn('node-1', console.get_console(task)['url'])
        fake_raid = fake.FakeRAID()
        fake_raid.validate_raid_config(
            task, {'logical_disks': [{'size_gb': 1, 'raid_level': '0'}]})
        self.assertEqual(raid.logical_disk_properties(),
                         fake_raid.get_logical_disk_properties())
        fake_raid.create_configuration(task)
        self.assertEqual([disk], task.node.raid_config['logical_disks'])
        fake_raid.delete_configuration(task)
        self.assertEqual({}, task.node.raid_config)

    def test_fake_bios_cache_writes_the_table(self):
        node = self.db.create_node({'driver': 'fake-hardware',
                                    'uuid': 'a' * 8 + '-1111-2222-3333-' +
                                    'b' * 12})
        task = types.SimpleNamespace(node=node)
        fake.FakeBIOS().cache_bios_settings(task)
        self.assertEqual(
            sorted(fake.FakeBIOS.SETTINGS),
            [s.name for s in self.db.get_bios_settings(node.id)])
        self.db.replace_bios_settings(node.id, {'Only': '1'})
        self.assertEqual('1', self.db.get_bios_setting(node.id,
                                                       'Only').value)
        self.assertRaises(exception.BIOSSettingNotFound,
                          self.db.get_bios_setting, node.id, 'BootMode')
        self.db.destroy_node(node.id)
        self.assertEqual([], self.db.get_bios_settings(node.id))


class TestRaidSchema(tests_base.TestCase):

    def test_valid(self):
        raid.validate_configuration({})
        raid.validate_configuration({'logical_disks': [
            {'size_gb': 'MAX', 'raid_level': '5+0', 'disk_type': 'ssd',
             'interface_type': 'sas', 'number_of_physical_disks': 4,
             'volume_name': 'root', 'is_root_volume': True,
             'share_physical_disks': False, 'controller': 'RAID.1',
             'physical_disks': ['disk1', {'id': 2}]}]})

    def test_invalid(self):
        for config in ({'logical_disks': [{'size_gb': -1,
                                           'raid_level': '1'}]},
                       {'logical_disks': [{'size_gb': 1,
                                           'raid_level': 1}]},
                       {'logical_disks': [{'size_gb': 1, 'raid_level': '1',
                                           'disk_type': 'tape'}]},
                       {'logical_disks': 'all'}):
            e = self.assertRaises(exception.InvalidParameterValue,
                                  raid.validate_configuration, config)
            self.assertIn('RAID config validation error', str(e))
            self.assertEqual('target_raid_config', e.field)

    def test_properties(self):
        props = raid.logical_disk_properties()
        self.assertIn('Required', props['size_gb'])
        self.assertIn('Optional', props['volume_name'])


class TestHardwareTypes(tests_base.TestCase):

    def test_fake_hardware_defaults_follow_options(self):
        hw = fake_hardware.FakeHardware()
        self.assertEqual('no-bios', hw.default('bios'))
        self.assertEqual(['no-bios'], hw.enabled('bios'))
        self.config(enabled_bios_interfaces=['no-bios', 'fake'])
        self.assertEqual('fake', hw.default('bios'))
        self.assertEqual(['fake', 'no-bios'], hw.enabled('bios'))
        self.config(default_bios_interface='no-bios')
        self.assertEqual('no-bios', hw.default('bios'))
        # A default the type does not support falls back to the first.
        self.config(default_bios_interface='redfish')
        self.assertEqual('fake', hw.default('bios'))
        self.assertEqual(['no-inspect', 'agent'], hw.enabled('inspect'))
        # Ironic's fake inspection: fake-hardware's default once enabled.
        self.assertEqual('no-inspect', hw.default('inspect'))
        self.config(enabled_inspect_interfaces=['no-inspect', 'fake'])
        self.assertEqual('fake', hw.default('inspect'))

    def test_no_valid_default(self):
        # Ironic's vendor interface, which no hardware type here supports.
        self.config(enabled_vendor_interfaces=['ipmitool'])
        e = self.assertRaises(exception.InvalidParameterValue,
                              loader.interface_names,
                              {'driver': 'fake-hardware'})
        self.assertEqual('vendor_interface', e.field)
        self.assertIn('enabled_vendor_interfaces', str(e))

    def test_redfish(self):
        hw = redfish_hardware.RedfishHardware()
        self.assertEqual(['redfish', 'no-bios'], hw.supported('bios'))
        self.assertEqual('no-bios', hw.default('bios'))
        self.assertEqual(['no-console'], hw.supported('console'))
        self.assertIsInstance(loader.interface('bios', 'redfish'),
                              redfish_bios.RedfishBIOS)


class TestRedfishBiosAndNmi(test_redfish._SushyTest):

    def test_bios_settings(self):
        self.system.bios.attributes = {'BootMode': 'Uefi', 'Cores': 8,
                                       'Unset': None}
        bios = redfish_bios.RedfishBIOS()
        task = test_redfish._task()
        bios.validate(task)
        self.system.bios.get_attribute_registry.return_value = None
        self.assertEqual({'BootMode': {'value': 'Uefi'},
                          'Cores': {'value': '8'}, 'Unset': {'value': None}},
                         bios.get_bios_settings(task))
        self.assertIn('redfish_address', bios.get_properties())

    def test_inject_nmi(self):
        self.management.inject_nmi(test_redfish._task())
        self.system.reset_system.assert_called_once_with(
            sushy.ResetType.NMI)

    def test_inject_nmi_error(self):
        self.system.reset_system.side_effect = (
            sushy.exceptions.BadRequestError(
                method='POST', url='/x', response=mock.Mock(
                    status_code=400, json=mock.Mock(return_value={}))))
        self.assertRaises(exception.IronicLikeException,
                          self.management.inject_nmi, test_redfish._task())
