"""What inspection makes of an agent's inventory: properties and ports."""

import copy

from ironic_like.common import exception
from ironic_like.common import inspection
from ironic_like.tests import base

GiB = 1024 ** 3
BOOT_MAC = '52:54:00:aa:bb:01'
ACTIVE_MAC = '52:54:00:aa:bb:02'
IDLE_MAC = '52:54:00:aa:bb:03'

INVENTORY = {
    'cpu': {'count': 8, 'architecture': 'x86_64',
            'model_name': 'Some CPU'},
    'memory': {'total': 16 * GiB - 300 * 1024 ** 2, 'physical_mb': 16384},
    'disks': [
        {'name': '/dev/sdb', 'size': 500 * GiB},
        {'name': '/dev/sdc', 'size': 2 * GiB},        # too small
        {'name': '/dev/sda', 'size': 100 * GiB + 5},  # the root disk
    ],
    'interfaces': [
        {'name': 'lo', 'mac_address': None, 'ipv4_address': '127.0.0.1'},
        {'name': 'eth0', 'mac_address': BOOT_MAC.upper(),
         'ipv4_address': '10.0.0.5'},
        {'name': 'eth1', 'mac_address': ACTIVE_MAC, 'ipv4_address': None,
         'ipv6_address': 'fd00::5'},
        {'name': 'eth2', 'mac_address': IDLE_MAC, 'ipv4_address': None},
        {'name': 'ib0', 'mac_address': 'not-a-mac'},
    ],
    'boot': {'current_boot_mode': 'uefi', 'pxe_interface': BOOT_MAC},
}


def _inventory(**changes):
    inventory = copy.deepcopy(INVENTORY)
    inventory.update(changes)
    return inventory


class PropertiesTestCase(base.TestCase):

    def test_properties(self):
        props = inspection.properties(_inventory())
        self.assertEqual({'cpus': 8, 'cpu_arch': 'x86_64',
                          'memory_mb': 16384, 'local_gb': 99,
                          'capabilities': 'boot_mode:uefi'}, props)

    def test_current_properties_kept_and_capabilities_merged(self):
        props = inspection.properties(_inventory(), {
            'vendor': 'x', 'cpus': 1,
            'capabilities': 'boot_mode:bios,secure_boot:true'})
        self.assertEqual('x', props['vendor'])
        self.assertEqual(8, props['cpus'])
        self.assertEqual({'boot_mode': 'uefi', 'secure_boot': 'true'},
                         inspection.parse_capabilities(
                             props['capabilities']))

    def test_memory_from_total_without_physical_mb(self):
        props = inspection.properties(_inventory(
            memory={'total': 8 * GiB}))
        self.assertEqual(8192, props['memory_mb'])

    def test_no_root_disk_candidate(self):
        props = inspection.properties(_inventory(
            disks=[{'name': '/dev/sdz', 'size': 4 * GiB - 1}]))
        self.assertEqual(0, props['local_gb'])
        self.assertEqual(0, inspection.properties(
            _inventory(disks=[]))['local_gb'])

    def test_smallest_disk_of_4_gib(self):
        disks = [{'name': 'a', 'size': 4 * GiB}, {'name': 'b',
                                                  'size': 8 * GiB}]
        self.assertEqual('a', inspection.root_disk(disks)['name'])
        self.assertEqual(3, inspection.local_gb(disks))

    def test_no_boot_mode_no_capability(self):
        props = inspection.properties(_inventory(boot={}))
        self.assertNotIn('capabilities', props)

    def test_bad_inventories(self):
        bad = [
            'not a dict',
            _inventory(cpu=None),
            _inventory(cpu={'count': 0, 'architecture': 'x86_64'}),
            _inventory(cpu={'count': 'many', 'architecture': 'x86_64'}),
            _inventory(cpu={'count': True, 'architecture': 'x86_64'}),
            _inventory(cpu={'count': 2}),
            _inventory(memory=None),
            _inventory(memory={}),
            _inventory(memory={'physical_mb': -1}),
            _inventory(disks='sda'),
        ]
        for inventory in bad:
            self.assertRaises(exception.InvalidParameterValue,
                              inspection.properties, inventory)


class PortsTestCase(base.TestCase):

    def _macs(self, ports):
        return [p['address'] for p in ports]

    def test_pxe(self):
        ports = inspection.ports_to_add(_inventory(), 'pxe')
        self.assertEqual([{'address': BOOT_MAC, 'pxe_enabled': True}],
                         ports)

    def test_pxe_in_bootif_form(self):
        inventory = _inventory(boot={
            'pxe_interface': '01-' + BOOT_MAC.replace(':', '-')})
        self.assertEqual([BOOT_MAC], self._macs(
            inspection.ports_to_add(inventory, 'pxe')))

    def test_pxe_without_boot_interface_takes_active(self):
        inventory = _inventory(boot={'current_boot_mode': 'bios'})
        ports = inspection.ports_to_add(inventory, 'pxe')
        self.assertEqual([BOOT_MAC, ACTIVE_MAC], self._macs(ports))
        # The boot NIC unknown: all may boot from the network.
        self.assertTrue(all(p['pxe_enabled'] for p in ports))

    def test_active(self):
        ports = inspection.ports_to_add(_inventory(), 'active')
        self.assertEqual([{'address': BOOT_MAC, 'pxe_enabled': True},
                          {'address': ACTIVE_MAC, 'pxe_enabled': False}],
                         ports)

    def test_all(self):
        ports = inspection.ports_to_add(_inventory(), 'all')
        self.assertEqual([BOOT_MAC, ACTIVE_MAC, IDLE_MAC],
                         self._macs(ports))

    def test_disabled(self):
        self.assertEqual([], inspection.ports_to_add(_inventory(),
                                                     'disabled'))

    def test_existing_ports_kept(self):
        ports = inspection.ports_to_add(_inventory(), 'all',
                                        existing=[BOOT_MAC.upper(),
                                                  IDLE_MAC])
        self.assertEqual([ACTIVE_MAC], self._macs(ports))

    def test_duplicate_macs_once(self):
        inventory = _inventory(interfaces=[
            {'name': 'eth0', 'mac_address': IDLE_MAC},
            {'name': 'eth0.10', 'mac_address': IDLE_MAC}])
        self.assertEqual([IDLE_MAC], self._macs(
            inspection.ports_to_add(inventory, 'all')))

    def test_unknown_choice(self):
        self.assertRaises(exception.InvalidParameterValue,
                          inspection.ports_to_add, _inventory(), 'some')

    def test_bad_inventories(self):
        for inventory in ('x', _inventory(interfaces=None),
                          _inventory(interfaces={'eth0': {}})):
            self.assertRaises(exception.InvalidParameterValue,
                              inspection.ports_to_add, inventory, 'all')


class BMCPortsTestCase(base.TestCase):
    """An inventory read from the BMC (out-of-band inspection): no IP
    addresses, no boot NIC."""

    INVENTORY = {'interfaces': [
        {'name': 'NIC.1', 'mac_address': BOOT_MAC, 'speed_mbps': 25000},
        {'name': 'NIC.2', 'mac_address': IDLE_MAC.upper()},
        {'name': 'NIC.3', 'mac_address': 'not-a-mac'}]}

    def _ports(self, add_ports, inventory=None, existing=()):
        return inspection.ports_to_add(inventory or self.INVENTORY,
                                       add_ports, existing, from_bmc=True)

    def test_pxe_and_all_take_every_nic(self):
        for add_ports in ('pxe', 'all'):
            self.assertEqual(
                [{'address': BOOT_MAC, 'pxe_enabled': True},
                 {'address': IDLE_MAC, 'pxe_enabled': True}],
                self._ports(add_ports))
        # A boot NIC named (an interface that knows it): that one only.
        inventory = dict(self.INVENTORY, boot={'pxe_interface': IDLE_MAC})
        self.assertEqual([{'address': IDLE_MAC, 'pxe_enabled': True}],
                         self._ports('pxe', inventory))

    def test_existing_kept_and_disabled(self):
        self.assertEqual([IDLE_MAC], [p['address'] for p in self._ports(
            'pxe', existing=[BOOT_MAC.upper()])])
        self.assertEqual([], self._ports('disabled'))

    def test_active_fails(self):
        e = self.assertRaises(exception.HardwareInspectionFailure,
                              self._ports, 'active')
        self.assertIn('add_ports = active', str(e))

    def test_no_valid_nic_fails(self):
        for interfaces in ([], [{'name': 'x', 'mac_address': None}]):
            e = self.assertRaises(exception.HardwareInspectionFailure,
                                  self._ports, 'disabled',
                                  {'interfaces': interfaces})
            self.assertIn('no network interface', str(e))
        # In-band, the agent's inventory without NICs adds nothing.
        self.assertEqual([], inspection.ports_to_add({'interfaces': []},
                                                     'pxe'))


STALE_MAC = '52:54:00:aa:bb:99'


class _Port(object):
    def __init__(self, address, pxe_enabled=True):
        self.address = address
        self.pxe_enabled = pxe_enabled


class PortChangesTestCase(base.TestCase):
    """[inspector]keep_ports and update_pxe_enabled, as Ironic's ports
    hook applies them."""

    def _changes(self, ports, keep, update=True, add='pxe', **kwargs):
        deleted, pxe = inspection.port_changes(
            kwargs.pop('inventory', _inventory()), ports, add, keep,
            update, **kwargs)
        return [p.address for p in deleted], pxe

    def test_keep_all_deletes_nothing(self):
        ports = [_Port(BOOT_MAC), _Port(STALE_MAC, False)]
        self.assertEqual(([], {}), self._changes(ports, 'all'))

    def test_keep_present(self):
        ports = [_Port(BOOT_MAC), _Port(IDLE_MAC, False),
                 _Port(STALE_MAC)]
        self.assertEqual(([STALE_MAC], {}), self._changes(ports,
                                                          'present'))

    def test_keep_added(self):
        # Ironic's validate-interfaces hook: pxe keeps the boot NIC when
        # it is known; active those with an IP address; the others (and
        # pxe without a known boot NIC) every NIC.
        ports = [_Port(BOOT_MAC), _Port(IDLE_MAC, False),
                 _Port(STALE_MAC, False)]
        self.assertEqual(([IDLE_MAC, STALE_MAC], {}),
                         self._changes(ports, 'added'))
        self.assertEqual(([IDLE_MAC, STALE_MAC], {}),
                         self._changes(ports, 'added', add='active'))
        for add in ('all', 'disabled'):
            self.assertEqual(([STALE_MAC], {}),
                             self._changes(ports, 'added', add=add))
        self.assertEqual(([STALE_MAC], {}), self._changes(
            ports, 'added', inventory=_inventory(boot={})))
        # Nothing to keep (no NIC with a valid MAC): nothing deleted.
        self.assertEqual(([], {}), self._changes(
            ports, 'added', inventory=_inventory(interfaces=[])))

    def test_update_pxe_enabled(self):
        ports = [_Port(BOOT_MAC.upper(), False), _Port(IDLE_MAC, True)]
        self.assertEqual(([], {BOOT_MAC.upper(): True, IDLE_MAC: False}),
                         self._changes(ports, 'all'))
        self.assertEqual(([], {}), self._changes(ports, 'all',
                                                 update=False))
        # The boot NIC unknown, or a BMC's inventory: left alone.
        self.assertEqual(([], {}), self._changes(
            ports, 'all', inventory=_inventory(boot={})))
        self.assertEqual(([], {}), self._changes(ports, 'all',
                                                 from_bmc=True))
