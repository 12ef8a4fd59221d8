"""The ``redfish`` raid interface against the lab's Redfish emulator
(sushy-tools' with simulated RAID controllers), through a cluster (API +
1 conductor, MariaDB, RabbitMQ).

Two machines, each with a RAID controller of four 100 GiB drives: one
whose controller applies volume changes at once (``Immediate``), one
whose controller applies them at the next boot only (``OnReset``, one
operation at a time per controller, as real BMCs queue jobs: the
conductor reboots the node for each). On each, through the API: a target RAID
configuration is set, manual cleaning runs ``raid.create_configuration``
and the BMC then has the volumes planned (levels, sizes, drives) and the
node records them (raid_config, the root volume, local_gb); cleaning
with ``raid.delete_configuration`` removes them. A configuration the
interface cannot build is refused before the node moves; one that does
not fit the drives fails the cleaning naming the logical disk, and
nothing is written. (The nodes use the fake deploy and boot interfaces:
the steps need the ramdisk, as Ironic marks them, and no agent runs
here.)
"""

import requests

from ironic_like.common import states
from ironic_like.tests.functional import redfish_cluster
from ironic_like.tests.functional import sushy_emulator
from ironic_like_lab import redfish_storage

VERSION = {'X-OpenStack-Ironic-API-Version': '1.87'}
GiB = 1024 ** 3
TARGET = {'logical_disks': [
    {'raid_level': '1', 'size_gb': 40, 'is_root_volume': True,
     'volume_name': 'os'},
    {'raid_level': '0', 'size_gb': 'MAX', 'number_of_physical_disks': 2}]}


def _clean(step, **args):
    return {'clean_steps': [{'interface': 'raid', 'step': step,
                             'args': args}]}


class TestRedfishRAID(redfish_cluster.RedfishClusterTestCase):

    TIMEOUT = 180

    def setUp(self):
        super().setUp()
        self.systems = {}
        for name, apply_times in (('raid-now', ['Immediate']),
                                  ('raid-boot', ['OnReset'])):
            system = sushy_emulator.make_system(name)
            system[redfish_storage.STORAGE_KEY] = (
                redfish_storage.make_storage(drives=4, capacity_bytes=100 *
                                             GiB, apply_times=apply_times))
            self.systems[name] = system
        work_dir = self.work_dir()
        self.emulator = self.useFixture(sushy_emulator.SushyEmulator(
            list(self.systems.values()), log_dir=work_dir))
        self.watch(self.emulator.process)
        self.cluster = self.start_cluster(
            conductors=1, api_workers=1, work_dir=work_dir,
            conf={'DEFAULT': {
                'enabled_hardware_types': 'fake-hardware,redfish',
                'enabled_raid_interfaces': 'agent,no-raid,redfish'}})

    def _enrol(self, name):
        uuid = self._create(name, self.systems[name], headers=VERSION,
                            raid_interface='redfish',
                            deploy_interface='fake', boot_interface='fake')
        self._provision(uuid, 'manage', states.MANAGEABLE)
        return uuid

    def _bmc_volumes(self, name):
        """{volume name: (RAIDType, GiB, [drive ids])} as the BMC shows
        them."""
        base = (self.emulator.url +
                self.emulator.system_path(self.systems[name]['uuid']) +
                '/Storage/RAID.1/Volumes')
        listed = requests.get(base, timeout=10)
        listed.raise_for_status()
        volumes = {}
        for member in listed.json()['Members']:
            volume = requests.get(self.emulator.url + member['@odata.id'],
                                  timeout=10).json()
            volumes[volume['Name']] = (
                volume['RAIDType'], volume['CapacityBytes'] // GiB,
                [d['@odata.id'].rsplit('/', 1)[1]
                 for d in volume['Links']['Drives']])
        return volumes

    def _build_and_delete(self, name):
        uuid = self._enrol(name)
        self._call('PUT', '/v1/nodes/%s/states/raid' % uuid, TARGET,
                   expected=204, headers=VERSION)
        node = self._provision(uuid, 'clean', states.MANAGEABLE,
                               body=_clean('create_configuration'),
                               bound=120)
        self.assertIsNone(node['last_error'])
        volumes = self._bmc_volumes(name)
        self.assertEqual(('RAID1', 40, ['Disk.0', 'Disk.1']), volumes['os'])
        (other,) = [v for n, v in volumes.items() if n != 'os']
        # MAX on the two drives left: the controller's size, 200 GiB.
        self.assertEqual(('RAID0', 200, ['Disk.2', 'Disk.3']), other)
        node = self._call('GET', '/v1/nodes/%s' % uuid, headers=VERSION)
        disks = node['raid_config']['logical_disks']
        root = [d for d in disks if d.get('is_root_volume')]
        self.assertEqual([('os', '1', 40, ['Disk.0', 'Disk.1'], 'RAID.1')],
                         [(d['name'], d['raid_level'], d['size_gb'],
                           d['physical_disks'], d['controller'])
                          for d in root])
        self.assertEqual(40, node['properties']['local_gb'])
        self.assertEqual(2, len(disks))

        node = self._provision(uuid, 'clean', states.MANAGEABLE,
                               body=_clean('delete_configuration'),
                               bound=120)
        self.assertIsNone(node['last_error'])
        self.assertEqual({}, self._bmc_volumes(name))
        self.assertEqual([], node['raid_config']['logical_disks'])
        return uuid

    def test_immediate(self):
        self._build_and_delete('raid-now')

    def test_on_reset_reboots(self):
        uuid = self._build_and_delete('raid-boot')
        # The reboots left the machine on, as reboot_to_apply leaves it.
        self.assertEqual(states.POWER_ON, self._node(uuid)['power_state'])

    def test_refused_and_not_fitting(self):
        uuid = self._enrol('raid-now')
        # RAID 2: the interface has no such level (400 before anything).
        resp = self.cluster.request(
            'PUT', '/v1/nodes/%s/states/raid' % uuid, headers=VERSION,
            json={'logical_disks': [{'raid_level': '2', 'size_gb': 10}]})
        self.assertEqual(400, resp.status_code, resp.text)
        self.assertIn('RAID level 2 is not supported', resp.text)
        # No target: cleaning with create_configuration is refused.
        resp = self.cluster.request(
            'PUT', '/v1/nodes/%s/states/provision' % uuid, headers=VERSION,
            json=dict(_clean('create_configuration'), target='clean'))
        self.assertEqual(400, resp.status_code, resp.text)
        self.assertIn('target_raid_config', resp.text)
        self.assertEqual(states.MANAGEABLE,
                         self._node(uuid)['provision_state'])
        # 500 GiB of RAID 5 on four 100 GiB drives does not fit.
        self._call('PUT', '/v1/nodes/%s/states/raid' % uuid,
                   {'logical_disks': [{'raid_level': '5',
                                       'size_gb': 500}]},
                   expected=204, headers=VERSION)
        node = self._provision(uuid, 'clean', states.CLEANFAIL,
                               body=_clean('create_configuration'),
                               bound=120)
        self.assertIn('logical disk 0 (RAID 5, 500 GiB) does not fit',
                      node['last_error'])
        self.assertEqual({}, self._bmc_volumes('raid-now'))
