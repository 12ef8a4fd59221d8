"""The redfish inspect interface (out-of-band inspection) with sushy
mocked: what it reads of the BMC and what it makes of it."""

import types
from unittest import mock

import fixtures
import sushy
import testtools

from ironic_like.common import exception
from ironic_like.drivers import base
from ironic_like.drivers import loader
from ironic_like.drivers.modules import redfish_inspect
from ironic_like.drivers.modules import redfish_utils
from ironic_like.drivers import redfish_hardware
from ironic_like.tests import base as tests_base

GiB = 1024 ** 3
ADDRESS = 'https://bmc.example.com:8000'
SYSTEM = '/redfish/v1/Systems/abc'
NIC1 = '52:54:00:aa:00:01'
NIC2 = '52:54:00:aa:00:02'
SYSTEM_UUID = '2b6d0f5e-5f34-4f52-9d0e-6ab8b94b3c11'


class Fake(object):
    """A sushy resource (or field) with the attributes given; fail()
    makes reading one raise, as sushy does for a sub-resource it cannot
    read (MissingAttributeError without a link, an HTTP error...)."""

    def __init__(self, **attrs):
        self.__dict__['_raising'] = {}
        self.__dict__.update(attrs)

    def fail(self, name, error):
        self.__dict__.pop(name, None)
        self._raising[name] = error
        return self

    def __getattr__(self, name):
        if name in self._raising:
            raise self._raising[name]
        raise AttributeError(name)


def collection(members, **attrs):
    return Fake(get_members=lambda: list(members), **attrs)


def missing(name):
    return sushy.exceptions.MissingAttributeError(attribute=name,
                                                  resource=SYSTEM)


def _status(state=sushy.State.ENABLED):
    return Fake(health=sushy.Health.OK, state=state, health_rollup=None)


def _drive(ident, name, size, protocol=sushy.Protocol.SAS):
    return Fake(identity=ident, name=name, capacity_bytes=size,
                media_type='SSD', serial_number='SN-' + ident,
                manufacturer='Contoso', model='C123', revision='100A',
                protocol=protocol, status=_status())


def make_system():
    """A system with every part Ironic's redfish inspection reads."""
    processors = [Fake(model='Xeon Gold', max_speed_mhz=2400,
                       total_threads=8,
                       instruction_set=sushy.InstructionSet.X86_64)
                  for _ in range(2)]
    drives = [_drive('d1', 'Drive 1', 100 * GiB),
              _drive('d2', 'Drive 2', 500 * GiB, protocol=None)]
    controller = Fake(member_id='0', name='RAID controller',
                      speed_gbps=12,
                      raid_types=[sushy.RAIDType.RAID1],
                      controller_protocols=[sushy.Protocol.PCIe],
                      device_protocols=[sushy.Protocol.SAS,
                                        sushy.Protocol.SATA],
                      status=_status())
    storage_member = Fake(identity='RAID.1', name='Storage 1',
                          storage_controllers=[controller], drives=drives)
    storage = collection([storage_member],
                         volumes_sizes_bytes=[2 * GiB, 60 * GiB, 200 * GiB],
                         drives_sizes_bytes=[100 * GiB, 500 * GiB])
    simple_storage = collection(
        [Fake(devices=[Fake(name='SATA disk', capacity_bytes=80 * GiB)])],
        disks_sizes_bytes=[1 * GiB, 80 * GiB])
    nics = [Fake(identity='NIC.1', mac_address=NIC1, speed_mbps=25000),
            Fake(identity='NIC.2', mac_address=NIC2.upper(),
                 speed_mbps=None),
            Fake(identity='NIC.3', mac_address='', speed_mbps=None)]
    function = Fake(device_class=sushy.DeviceClass.NETWORK_CONTROLLER,
                    device_id='0x16d7', vendor_id='0x14e4',
                    subsystem_id='0x1402', subsystem_vendor_id=None,
                    revision_id='0x01')
    pcie = collection([Fake(pcie_functions=collection([function])),
                       Fake(pcie_functions=None)])
    lldp = Fake(chassis_id='aa:bb:cc:dd:ee:ff', port_id='Eth1/7',
                system_name='switch-1', system_description=None,
                management_vlan_id=100)
    ports = collection([Fake(identity='NIC.1',
                             ethernet=Fake(lldp_receive=lldp)),
                        Fake(identity='NIC.2',
                             ethernet=Fake(lldp_receive=None))])
    chassis = Fake(network_adapters=collection([Fake(ports=ports)]))
    return Fake(memory_summary=Fake(size_gib=16),
                processors=collection(processors), storage=storage,
                simple_storage=simple_storage,
                ethernet_interfaces=collection(nics), pcie_devices=pcie,
                model='PowerEdge R650', serial_number='SRV-1',
                manufacturer='Dell Inc.', uuid=SYSTEM_UUID,
                boot=Fake(mode=sushy.BootSourceOverrideMode.UEFI),
                chassis=[chassis])


EXPECTED_INVENTORY = {
    'memory': {'physical_mb': 16384},
    'cpu': {'count': 16, 'architecture': 'x86_64', 'model_name': 'Xeon Gold',
            'frequency': 2400},
    'disks': [{'name': 'Drive 1', 'size': 100 * GiB},
              {'name': 'Drive 2', 'size': 500 * GiB}],
    'storage_controllers': [{
        'id': 'RAID.1', 'name': 'Storage 1',
        'storage_controllers': [{
            'member_id': '0', 'name': 'RAID controller', 'speed_gbps': 12,
            'raid_types': ['RAID1'], 'controller_protocols': ['PCIe'],
            'device_protocols': ['SAS', 'SATA'],
            'status': {'health': 'OK', 'state': 'Enabled'}}],
        'drives': [
            {'name': 'Drive 1', 'size': 100 * GiB, 'id': 'd1',
             'media_type': 'SSD', 'serial_number': 'SN-d1',
             'manufacturer': 'Contoso', 'model': 'C123',
             'revision': '100A', 'protocol': 'SAS',
             'status': {'health': 'OK', 'state': 'Enabled'}},
            {'name': 'Drive 2', 'size': 500 * GiB, 'id': 'd2',
             'media_type': 'SSD', 'serial_number': 'SN-d2',
             'manufacturer': 'Contoso', 'model': 'C123',
             'revision': '100A',
             'status': {'health': 'OK', 'state': 'Enabled'}}]}],
    'interfaces': [{'mac_address': NIC1, 'name': 'NIC.1',
                    'speed_mbps': 25000},
                   {'mac_address': NIC2, 'name': 'NIC.2'}],
    'pci_devices': [{'class': 'NetworkController', 'product_id': '0x16d7',
                     'vendor_id': '0x14e4', 'subsystem_id': '0x1402',
                     'revision': '0x01'}],
    'system_vendor': {'product_name': 'PowerEdge R650',
                      'serial_number': 'SRV-1', 'manufacturer': 'Dell Inc.',
                      'system_uuid': SYSTEM_UUID},
    'boot': {'current_boot_mode': 'uefi'},
}
EXPECTED_PLUGIN_DATA = {'parsed_lldp': {'NIC.1': {
    'switch_chassis_id': 'aa:bb:cc:dd:ee:ff', 'switch_port_id': 'Eth1/7',
    'switch_system_name': 'switch-1', 'switch_vlan_id': 100}}}
# Volumes (60 GiB) before drives; the smaller of it and the SimpleStorage
# disk (80 GiB): 60 GiB, minus one.
EXPECTED_PROPERTIES = {'memory_mb': 16384, 'cpus': 16, 'cpu_arch': 'x86_64',
                       'local_gb': 59, 'capabilities': 'boot_mode:uefi'}


def driver_info(**changes):
    info = {'redfish_address': ADDRESS, 'redfish_system_id': SYSTEM,
            'redfish_username': 'admin', 'redfish_password': 'secret'}
    info.update(changes)
    return info


class SushyFixture(fixtures.Fixture):
    """sushy.Sushy answering ``system`` (make_system() by default)."""

    def __init__(self, system=None):
        super().__init__()
        self.system = system or make_system()

    def _setUp(self):
        redfish_utils._CACHE.clear()
        self.addCleanup(redfish_utils._CACHE.clear)
        self.conn = mock.Mock()
        self.conn.get_system.side_effect = lambda _path=None: self.system
        self.sushy_cls = self.useFixture(fixtures.MockPatchObject(
            redfish_utils.sushy, 'Sushy', return_value=self.conn)).mock


def _task(properties=None, **info):
    node = types.SimpleNamespace(uuid='node-1', driver='redfish',
                                 driver_info=driver_info(**info),
                                 properties=dict(properties or {}))
    return types.SimpleNamespace(node=node)


class TestRedfishInspect(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.sushy = self.useFixture(SushyFixture())
        self.system = self.sushy.system
        self.iface = redfish_inspect.RedfishInspect()

    def _inspect(self, properties=None):
        found = self.iface.inspect_hardware(_task(properties))
        self.assertIsInstance(found, base.InspectedHardware)
        return found

    def test_every_field_mapped(self):
        found = self._inspect({'vendor': 'kept', 'cpus': 1})
        self.assertEqual(EXPECTED_INVENTORY, found.inventory)
        self.assertEqual(EXPECTED_PLUGIN_DATA, found.plugin_data)
        self.assertEqual(dict(EXPECTED_PROPERTIES, vendor='kept'),
                         found.properties)
        self.sushy.conn.get_system.assert_called_once_with(SYSTEM)
        args, kwargs = self.sushy.sushy_cls.call_args
        self.assertEqual((ADDRESS,), args)

    def test_validate_and_properties(self):
        self.assertEqual(redfish_utils.COMMON_PROPERTIES,
                         self.iface.get_properties())
        task = _task()
        del task.node.driver_info['redfish_address']
        e = self.assertRaises(exception.MissingParameterValue,
                              self.iface.validate, task)
        self.assertEqual('redfish_address', e.field)

    def test_boot_mode_capability_of_the_operator_is_kept(self):
        found = self._inspect({'capabilities': 'boot_mode:bios,x:1'})
        self.assertEqual('boot_mode:bios,x:1',
                         found.properties['capabilities'])
        self.assertEqual({'current_boot_mode': 'uefi'},
                         found.inventory['boot'])
        found = self._inspect({'capabilities': 'x:1'})
        self.assertEqual('x:1,boot_mode:uefi',
                         found.properties['capabilities'])

    def test_legacy_boot_mode(self):
        self.system.boot = Fake(mode=sushy.BootSourceOverrideMode.LEGACY)
        found = self._inspect()
        self.assertEqual('boot_mode:bios', found.properties['capabilities'])
        self.assertEqual('bios', found.inventory['boot']['current_boot_mode'])

    def test_no_boot_mode(self):
        self.system.boot = Fake(mode=None)
        found = self._inspect()
        self.assertNotIn('boot', found.inventory)
        self.assertNotIn('capabilities', found.properties)

    def test_no_processors(self):
        # No Processors link (the sushy-tools emulator's FakeDriver): the
        # agent's default keys, the node's own values kept.
        self.system.fail('processors', missing('Processors'))
        found = self._inspect({'cpu_arch': 'aarch64', 'cpus': 4})
        self.assertEqual({'count': 0, 'architecture': ''},
                         found.inventory['cpu'])
        self.assertEqual('aarch64', found.properties['cpu_arch'])
        self.assertEqual(4, found.properties['cpus'])
        found = self._inspect()
        self.assertNotIn('cpu_arch', found.properties)
        self.assertNotIn('cpus', found.properties)

    def test_unknown_instruction_set_and_missing_cpu_details(self):
        self.system.processors = collection([
            Fake(model=None, max_speed_mhz=None, total_threads=None,
                 instruction_set=sushy.InstructionSet.OEM),
            Fake(model=None, max_speed_mhz=None, total_threads=4,
                 instruction_set=sushy.InstructionSet.ARM_A64)])
        found = self._inspect()
        self.assertEqual({'count': 4, 'architecture': 'aarch64'},
                         found.inventory['cpu'])
        self.system.processors = collection([
            Fake(model=None, max_speed_mhz=None, total_threads=None,
                 instruction_set=None)])
        found = self._inspect({'cpus': 2})
        self.assertEqual({'count': 0, 'architecture': ''},
                         found.inventory['cpu'])
        self.assertEqual(2, found.properties['cpus'])

    def test_no_memory(self):
        self.system.memory_summary = None
        e = self.assertRaises(exception.HardwareInspectionFailure,
                              self.iface.inspect_hardware, _task())
        self.assertIn('memory_mb', str(e))
        self.assertIn('node-1', str(e))
        # The node's own value is kept (Ironic's rule).
        found = self._inspect({'memory_mb': 4096})
        self.assertEqual(4096, found.properties['memory_mb'])
        self.assertNotIn('memory', found.inventory)
        self.system.memory_summary = Fake(size_gib=None)
        self.assertEqual(4096, self._inspect(
            {'memory_mb': 4096}).properties['memory_mb'])

    def test_local_gb_sources(self):
        # No volumes: the drives; the SimpleStorage disk is bigger.
        self.system.storage.volumes_sizes_bytes = []
        self.assertEqual(79, self._inspect().properties['local_gb'])
        self.system.simple_storage.disks_sizes_bytes = [300 * GiB]
        self.assertEqual(99, self._inspect().properties['local_gb'])
        # Only small disks: 0.
        self.system.storage.drives_sizes_bytes = [2 * GiB]
        self.system.simple_storage.disks_sizes_bytes = [1 * GiB]
        self.assertEqual(0, self._inspect().properties['local_gb'])

    def test_volume_errors_fall_back_to_drives(self):
        self.system.storage.fail('volumes_sizes_bytes',
                                 sushy.exceptions.SushyError('no volumes'))
        self.system.fail('simple_storage', missing('SimpleStorage'))
        found = self._inspect()
        self.assertEqual(99, found.properties['local_gb'])
        self.assertEqual(EXPECTED_INVENTORY['disks'],
                         found.inventory['disks'])

    def test_no_storage(self):
        self.system.fail('storage', missing('Storage'))
        self.system.fail('simple_storage', missing('SimpleStorage'))
        found = self._inspect({'local_gb': 500})
        # Ironic's: a disk-less node.
        self.assertEqual(0, found.properties['local_gb'])
        self.assertNotIn('disks', found.inventory)
        self.assertNotIn('storage_controllers', found.inventory)

    def test_simple_storage_only(self):
        self.system.fail('storage', missing('Storage'))
        found = self._inspect()
        self.assertEqual([{'name': 'SATA disk', 'size': 80 * GiB}],
                         found.inventory['disks'])
        self.assertEqual(79, found.properties['local_gb'])

    def test_storage_error_is_left_out(self):
        error = sushy.exceptions.ConnectionError(url=ADDRESS + '/Storage',
                                                 error='reset')
        self.system.fail('storage', error)
        found = self._inspect()
        # The SimpleStorage disks stand in.
        self.assertEqual([{'name': 'SATA disk', 'size': 80 * GiB}],
                         found.inventory['disks'])
        self.assertEqual(79, found.properties['local_gb'])

    def test_nics(self):
        found = self._inspect()
        # Normalised, invalid MAC address left out.
        self.assertEqual([NIC1, NIC2], [i['mac_address'] for i in
                                        found.inventory['interfaces']])
        self.system.fail('ethernet_interfaces',
                         missing('EthernetInterfaces'))
        self.assertEqual([], self._inspect().inventory['interfaces'])

    def test_optional_parts_missing_or_failing(self):
        self.system.pcie_devices = collection([])
        self.system.fail('chassis', sushy.exceptions.SushyError('no'))
        for attr in ('model', 'serial_number', 'manufacturer', 'uuid'):
            setattr(self.system, attr, None)
        found = self._inspect()
        self.assertNotIn('pci_devices', found.inventory)
        self.assertNotIn('system_vendor', found.inventory)
        self.assertEqual({}, found.plugin_data)
        self.system.pcie_devices = None
        self.system.chassis = [Fake().fail('network_adapters',
                                           missing('NetworkAdapters'))]
        found = self._inspect()
        self.assertNotIn('pci_devices', found.inventory)
        self.assertEqual({}, found.plugin_data)

    def _bmc_error(self, error_cls):
        e = self.assertRaises(error_cls, self.iface.inspect_hardware,
                              _task())
        self.assertNotIn('secret', str(e))
        return str(e)

    def test_bmc_unreachable(self):
        self.sushy.sushy_cls.side_effect = sushy.exceptions.ConnectionError(
            url=ADDRESS, error='Connection refused')
        message = self._bmc_error(exception.HardwareInspectionFailure)
        self.assertIn('Redfish system %s at %s' % (SYSTEM, ADDRESS),
                      message)
        self.assertIn('reading the system for inspection failed', message)
        self.assertIn('Connection refused', message)

    def test_bmc_refuses_credentials(self):
        self.sushy.conn.get_system.side_effect = (
            sushy.exceptions.AccessError(
                'GET', ADDRESS + SYSTEM,
                mock.Mock(status_code=401, json=mock.Mock(
                    return_value={'error': {'message': 'Unauthorized'}}))))
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.iface.inspect_hardware, _task())
        self.assertEqual('redfish_username', e.field)
        self.assertIn('access denied', str(e))

    def test_processor_or_nic_errors_fail(self):
        for part, what in (('processors', 'the processors'),
                           ('ethernet_interfaces',
                            'the network interfaces')):
            self.useFixture(fixtures.MockPatchObject(
                self.sushy, 'system', make_system()))
            self.system = self.sushy.system
            self.system.fail(part, sushy.exceptions.ConnectionError(
                url=ADDRESS + '/x', error='timed out'))
            message = self._bmc_error(exception.HardwareInspectionFailure)
            self.assertIn('reading %s failed' % what, message)
            self.assertIn('timed out', message)
            self.assertIn(ADDRESS, message)


class TestRedfishHardwareInspect(tests_base.TestCase):

    def test_supported_and_default(self):
        hw = redfish_hardware.RedfishHardware()
        self.assertEqual(['redfish', 'agent', 'no-inspect'],
                         hw.supported('inspect'))
        # Ironic's default enabled list has no redfish: the agent.
        self.assertEqual('agent', hw.default('inspect'))
        self.config(enabled_inspect_interfaces=['no-inspect', 'agent',
                                                'redfish'])
        self.assertEqual('redfish', hw.default('inspect'))
        self.config(default_inspect_interface='agent')
        self.assertEqual('agent', hw.default('inspect'))
        self.assertIsInstance(loader.interface('inspect', 'redfish'),
                              redfish_inspect.RedfishInspect)
