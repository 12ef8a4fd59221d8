"""Out-of-band inspection (the ``redfish`` inspect interface) against
sushy-tools' real Redfish emulator, through a cluster (API + 1
conductor, MariaDB, RabbitMQ).

What the emulator's FakeDriver systems give: their NICs
(EthernetInterfaces), boot mode (UEFI), UUID and manufacturer ("Sushy
Emulator"), and the storage its config gives them (Storage with drives
and volumes, here none). What they lack: the memory size
(MemorySummary.TotalSystemMemoryGiB), processors (no Processors link,
no count), SimpleStorage, PCIe devices and network adapters (no LLDP).
So the node's memory_mb is set beforehand (without it inspection fails,
Ironic's rule, which the second node shows), and cpus/cpu_arch stay
unknown.
"""

from ironic_like.common import states
from ironic_like.tests.functional import redfish_cluster
from ironic_like.tests.functional import sushy_emulator

GiB = 1024 ** 3
NIC1 = '52:54:00:f1:00:01'
NIC2 = '52:54:00:f1:00:02'
NIC3 = '52:54:00:f1:00:03'
RULES_VERSION = {'X-OpenStack-Ironic-API-Version': '1.96'}


def _system(name, macs):
    system = sushy_emulator.make_system(name, mac=macs[0])
    system['nics'] = [{'mac': mac, 'ip': '192.0.2.%d' % (10 + i)}
                      for i, mac in enumerate(macs)]
    return system


class TestRedfishInspect(redfish_cluster.RedfishClusterTestCase):

    TIMEOUT = 180

    def setUp(self):
        super().setUp()
        self.full = _system('inspect-full', [NIC1, NIC2])
        self.bare = _system('inspect-bare', [NIC3])
        uuid = self.full['uuid']
        storage = {
            'SUSHY_EMULATOR_STORAGE': {uuid: [{
                'Id': '1', 'Name': 'Local Storage Controller',
                'StorageControllers': [{'MemberId': '0',
                                        'Name': 'Contoso RAID',
                                        'SpeedGbps': 12}],
                'Drives': ['small', 'root']}]},
            'SUSHY_EMULATOR_DRIVES': {(uuid, '1'): [
                {'Id': 'small', 'Name': 'USB stick',
                 'CapacityBytes': 2 * GiB, 'Protocol': 'USB'},
                {'Id': 'root', 'Name': 'Root disk',
                 'CapacityBytes': 120 * GiB, 'Protocol': 'SAS'}]},
            'SUSHY_EMULATOR_VOLUMES': {(uuid, '1'): []},
        }
        work_dir = self.work_dir()
        self.emulator = self.useFixture(sushy_emulator.SushyEmulator(
            [self.full, self.bare], log_dir=work_dir, extra_config=storage))
        self.watch(self.emulator.process)
        self.cluster = self.start_cluster(
            conductors=1, api_workers=1, work_dir=work_dir,
            conf={'DEFAULT': {
                'enabled_hardware_types': 'fake-hardware,redfish',
                'enabled_inspect_interfaces': 'no-inspect,agent,redfish'}})

    def _create(self, name, system, properties=None):
        uuid = super()._create(name, system, properties,
                               inspect_interface='redfish')
        self.assertEqual('redfish', self._node(uuid)['inspect_interface'])
        return uuid

    def _macs(self, uuid):
        ports = self._call('GET', '/v1/nodes/%s/ports?detail=true' % uuid)
        return {p['address']: p['pxe_enabled'] for p in ports['ports']}

    def test_inspect_through_the_bmc(self):
        self._call('POST', '/v1/inspection_rules', {
            'conditions': [{'op': 'eq', 'args': {'values': [
                '{inventory[system_vendor][manufacturer]}',
                'Sushy Emulator']}}],
            'actions': [
                {'op': 'add-trait', 'args': {'name': 'CUSTOM_EMULATED'}},
                {'op': 'set-attribute', 'args': {
                    'path': '/extra/system_uuid',
                    'value': '{inventory[system_vendor][system_uuid]}'}}]},
            expected=201, headers=RULES_VERSION)
        full = self._create('rf-inspect-full', self.full,
                            {'memory_mb': 8192})
        self._call('POST', '/v1/ports', {'node_uuid': full,
                                         'address': NIC1,
                                         'pxe_enabled': False},
                   expected=201)
        self._provision(full, 'manage', states.MANAGEABLE)
        self.emulator.listener.clear()

        node = self._provision(full, 'inspect', states.MANAGEABLE)
        self.assertIsNone(node['last_error'])
        self.assertIsNotNone(node['inspection_finished_at'])
        # The drives: the smallest of at least 4 GiB, minus one.
        self.assertEqual({'memory_mb': 8192, 'local_gb': 119,
                          'capabilities': 'boot_mode:uefi'},
                         node['properties'])
        # Every NIC has a port; the existing one kept as it was.
        self.assertEqual({NIC1: False, NIC2: True}, self._macs(full))
        # The inspection rules ran on the BMC's inventory.
        self.assertEqual(self.full['uuid'], node['extra']['system_uuid'])
        traits = self._call('GET', '/v1/nodes/%s/traits' % full)
        self.assertEqual(['CUSTOM_EMULATED'], traits['traits'])
        kept = self._call('GET', '/v1/nodes/%s/inventory' % full,
                          headers={'X-OpenStack-Ironic-API-Version':
                                   '1.81'})
        inventory = kept['inventory']
        self.assertEqual([NIC1, NIC2], [i['mac_address']
                                        for i in inventory['interfaces']])
        self.assertEqual({'current_boot_mode': 'uefi'}, inventory['boot'])
        self.assertEqual({'manufacturer': 'Sushy Emulator',
                          'system_uuid': self.full['uuid']},
                         inventory['system_vendor'])
        self.assertEqual([{'name': 'USB stick', 'size': 2 * GiB},
                          {'name': 'Root disk', 'size': 120 * GiB}],
                         inventory['disks'])
        self.assertEqual(['Contoso RAID'], [
            c['name'] for c in
            inventory['storage_controllers'][0]['storage_controllers']])
        # What the emulator lacks: memory and processors.
        self.assertEqual({'count': 0, 'architecture': ''}, inventory['cpu'])
        self.assertNotIn('memory', inventory)
        self.assertEqual([NIC2], kept['plugin_data']['added_ports'])
        # Out-of-band: nothing was powered nor booted.
        self.assertEqual('Off',
                         self.emulator.get_system(
                             self.full['uuid'])['PowerState'])
        self.assertEqual([], self.emulator.listener.notifications(
            self.full['uuid']))

        # Without memory_mb, which the emulator does not report:
        # inspect failed, nothing recorded.
        bare = self._create('rf-inspect-bare', self.bare)
        self._provision(bare, 'manage', states.MANAGEABLE)
        node = self._provision(bare, 'inspect', states.INSPECTFAIL)
        self.assertIn('Failed to discover the following properties: '
                      'memory_mb', node['last_error'])
        self.assertEqual({}, node['properties'])
        self.assertEqual({}, self._macs(bare))
        resp = self.cluster.request(
            'GET', '/v1/nodes/%s/inventory' % bare,
            headers={'X-OpenStack-Ironic-API-Version': '1.81'})
        self.assertEqual(404, resp.status_code, resp.text)
