"""The simulated agent's inventory is one in-band inspection can use:
cpu, memory, disks, interfaces and the boot NIC (the machine's MAC)."""

import testtools

from ironic_like_lab import virtual

from ironic_like.common import inspection
from ironic_like.tests.unit.lab.test_simulator import mac


class TestInventoryForInspection(testtools.TestCase):

    def _inventory(self, macs):
        options = dict(virtual.DEFAULT_OPTIONS)
        return options, virtual.make_inventory('a1', macs, options)

    def test_sections(self):
        options, inventory = self._inventory([mac(1), mac(2)])
        self.assertEqual(int(options['cpus']), inventory['cpu']['count'])
        self.assertTrue(inventory['cpu']['architecture'])
        self.assertEqual(int(options['memory_mb']),
                         inventory['memory']['physical_mb'])
        self.assertEqual(int(options['disk_size_gb']) * 1024 ** 3,
                         inventory['disks'][0]['size'])
        self.assertEqual([mac(1).lower(), mac(2).lower()],
                         [i['mac_address'] for i in
                          inventory['interfaces']])
        # The machine boots from its first NIC.
        self.assertEqual(mac(1).lower(), inventory['boot']['pxe_interface'])

    def test_inspection_reads_it(self):
        options, inventory = self._inventory([mac(3)])
        props = inspection.properties(inventory)
        self.assertEqual(int(options['cpus']), props['cpus'])
        self.assertEqual(int(options['memory_mb']), props['memory_mb'])
        self.assertEqual(int(options['disk_size_gb']) - 1,
                         props['local_gb'])
        self.assertEqual('boot_mode:uefi', props['capabilities'])
        self.assertEqual([mac(3).lower()], [
            p['address'] for p in inspection.ports_to_add(inventory,
                                                          'pxe')])
