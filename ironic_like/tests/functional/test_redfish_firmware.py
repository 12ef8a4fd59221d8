"""The ``redfish`` firmware interface's update step against sushy-tools'
real Redfish emulator, through a cluster (API + 1 conductor, MariaDB,
RabbitMQ) that serves its own http_root.

The lab's emulator gives systems that define ``firmware`` BIOS and BMC
versions and a SimpleUpdate that downloads the image it is given and
answers with a task the step follows: a BMC image is in force at once, a
BIOS image is staged (the task Pending) and flashed at the machine's
next boot, as BMCs that schedule BIOS updates do. Two systems on the
BMC: the update names its target.

Manual cleaning with firmware.update of the BMC (an http URL, read by
the BMC where it is) and the BIOS (a file:// URL under
[conductor]file_url_allowed_paths, which the conductor copies under its
http_root and serves): both versions change (GET
/v1/nodes/{id}/firmware, last_version_flashed), the node was rebooted
for the BIOS, no staged copy is left. An image the BMC cannot flash
fails the cleaning with the BMC's message; bad settings get 400 before
the node moves.
"""

import os

import requests

from ironic_like.common import states
from ironic_like.tests.functional import base
from ironic_like.tests.functional import redfish_cluster
from ironic_like.tests.functional import sushy_emulator
from ironic_like_lab import redfish_emulator

VERSION = {'X-OpenStack-Ironic-API-Version': '1.86'}


def _update(*settings):
    return {'clean_steps': [{'interface': 'firmware', 'step': 'update',
                             'args': {'settings': list(settings)}}]}


class TestRedfishFirmwareUpdate(redfish_cluster.RedfishClusterTestCase):

    TIMEOUT = 180

    def setUp(self):
        super().setUp()
        self.system = sushy_emulator.make_system(
            'fw-1', mac='52:54:00:f2:01:01')
        self.system[redfish_emulator.FIRMWARE_KEY] = {'bios': '1.0.0',
                                                      'bmc': '1.00'}
        other = sushy_emulator.make_system('fw-2', mac='52:54:00:f2:01:02')
        work_dir = self.work_dir()
        self.emulator = self.useFixture(sushy_emulator.SushyEmulator(
            [self.system, other], log_dir=work_dir))
        self.watch(self.emulator.process)
        self.http_root = os.path.join(work_dir, 'httpboot')
        self.images = os.path.join(work_dir, 'images')
        os.makedirs(self.images)
        port = base.free_port()
        self.http_url = 'http://127.0.0.1:%d' % port
        self.cluster = self.start_cluster(
            conductors=1, api_workers=1, work_dir=work_dir,
            conf={'DEFAULT': {
                'enabled_hardware_types': 'fake-hardware,redfish',
                'enabled_firmware_interfaces': 'no-firmware,redfish'},
                'deploy': {'http_root': self.http_root,
                           'http_server_port': port,
                           'http_url': self.http_url},
                'conductor': {'file_url_allowed_paths': self.images},
                'redfish': {'firmware_update_status_interval': 1,
                            'firmware_update_bmc_version_check_interval': 1,
                            'firmware_update_reboot_delay': 30}})

    def _image(self, name, content):
        path = os.path.join(self.images, name)
        with open(path, 'wb') as f:
            f.write(content)
        return path

    def _published(self, name, content):
        """An image the conductor's boot file server serves: a plain
        http URL the BMC reads as it is."""
        os.makedirs(os.path.join(self.http_root, 'images'), exist_ok=True)
        with open(os.path.join(self.http_root, 'images', name), 'wb') as f:
            f.write(content)
        return '%s/images/%s' % (self.http_url, name)

    def _firmware(self, uuid):
        found = self._call('GET', '/v1/nodes/%s/firmware' % uuid,
                           headers=VERSION)['firmware']
        return {c['component']: c for c in found}

    def _bmc_versions(self):
        system = self.emulator.get_system(self.system['uuid'])
        manager = requests.get(
            self.emulator.url + system['Links']['ManagedBy'][0]['@odata.id'],
            timeout=10)
        manager.raise_for_status()
        return system['BiosVersion'], manager.json()['FirmwareVersion']

    def test_update_bios_and_bmc_by_manual_cleaning(self):
        uuid = self._create('rf-firmware', self.system,
                            firmware_interface='redfish', headers=VERSION)
        self._provision(uuid, 'manage', states.MANAGEABLE)
        firmware = self._firmware(uuid)
        self.assertEqual('1.0.0', firmware['bios']['current_version'])
        self.assertEqual('1.00', firmware['bmc']['current_version'])

        bmc_url = self._published(
            'bmc.bin', redfish_emulator.firmware_image('bmc', '2.00'))
        bios_path = self._image(
            'bios.bin', redfish_emulator.firmware_image('bios', '1.1.0'))
        node = self._provision(uuid, 'clean', states.MANAGEABLE, body=_update(
            {'component': 'bmc', 'url': bmc_url},
            {'component': 'bios', 'url': 'file://' + bios_path}),
            bound=120)
        self.assertIsNone(node['last_error'])
        self.assertEqual(('1.1.0', '2.00'), self._bmc_versions())
        firmware = self._firmware(uuid)
        self.assertEqual('1.1.0', firmware['bios']['current_version'])
        self.assertEqual('1.1.0', firmware['bios']['last_version_flashed'])
        self.assertEqual('1.0.0', firmware['bios']['initial_version'])
        self.assertEqual('2.00', firmware['bmc']['current_version'])
        # The BIOS applied at a boot: the node was rebooted, and is on.
        self.assertEqual(states.POWER_ON, node['power_state'])
        # The conductor's copy of the file:// image is gone.
        self.assertEqual([], os.listdir(os.path.join(self.http_root,
                                                     'firmware')))

        # An image the BMC cannot flash: the cleaning fails with its
        # message, the versions stay.
        bad_url = self._published('bad.bin', b'not firmware\n')
        node = self._provision(uuid, 'clean', states.CLEANFAIL,
                               body=_update({'component': 'bios',
                                             'url': bad_url}), bound=120)
        self.assertIn('firmware update of bios from %s failed' % bad_url,
                      node['last_error'])
        self.assertIn('is not a firmware image', node['last_error'])
        self.assertEqual(('1.1.0', '2.00'), self._bmc_versions())

    def test_bad_settings_refused_before_the_node_moves(self):
        uuid = self._create('rf-firmware-refused', self.system,
                            firmware_interface='redfish', headers=VERSION)
        self._provision(uuid, 'manage', states.MANAGEABLE)
        for settings, message in (
                ([{'component': 'cpld', 'url': 'http://h/i'}],
                 'settings[0].component'),
                # Outside [conductor]file_url_allowed_paths.
                ([{'component': 'bios', 'url': 'file:///etc/hostname'}],
                 'file:// URLs are only taken for files under'),
                ([{'component': 'bios',
                   'url': 'file://%s/none.bin' % self.images}],
                 'no such file on the conductor'),
                ([], 'non-empty list')):
            resp = self.cluster.request(
                'PUT', '/v1/nodes/%s/states/provision' % uuid,
                json=dict(_update(*settings), target='clean'))
            self.assertEqual(400, resp.status_code, resp.text)
            self.assertIn(message, resp.text)
        node = self._node(uuid)
        self.assertEqual(states.MANAGEABLE, node['provision_state'])
        self.assertIsNone(node['last_error'])
        self.assertEqual(('1.0.0', '1.00'), self._bmc_versions())
