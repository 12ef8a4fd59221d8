"""The redfish hardware type against sushy-tools' real Redfish emulator.

(a) RedfishPower/RedfishManagement driven directly against the emulator:
    the emulator's own view of the system and the external notifications it
    sends must follow. (b) A cluster (API + 1 conductor, MariaDB, RabbitMQ)
    with the redfish hardware type enabled: power a node on and off through
    the API; a node whose redfish_system_id names no system ends with a
    last_error naming it.
"""

import functools
import http.server
import os
import threading
import time
import types

import fixtures
import requests
import testtools

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.drivers.modules import redfish
from ironic_like.drivers.modules import redfish_firmware
from ironic_like.drivers.modules import redfish_utils
from ironic_like.tests.functional import base
from ironic_like.tests.functional import sushy_emulator

# Bound of a power change seen through the API (the emulator's delay is 0;
# the conductor then records the state).
POWER_BOUND = 20
VERSION = 'X-OpenStack-Ironic-API-Version'


def _task(driver_info, uuid='direct-node'):
    node = types.SimpleNamespace(uuid=uuid, driver_info=driver_info)
    return types.SimpleNamespace(node=node)


def _serve_iso(test):
    """The URL of a small ISO served on loopback for ``test``'s life
    (the emulator's virtual media fetches it)."""
    root = test.useFixture(fixtures.TempDir()).path
    with open(os.path.join(root, 'boot.iso'), 'wb') as f:
        f.write(b'\0' * 4096)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler,
                                directory=root)
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    test.addCleanup(server.server_close)
    test.addCleanup(server.shutdown)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return 'http://127.0.0.1:%d/boot.iso' % server.server_address[1]


class TestRedfishDirect(testtools.TestCase):
    """The interfaces in this process against the emulator (no services)."""

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.Timeout(60, gentle=True))
        redfish_utils._CACHE.clear()
        self.addCleanup(redfish_utils._CACHE.clear)
        self.systems = [sushy_emulator.make_system('direct-1'),
                        sushy_emulator.make_system('direct-2',
                                                   power_state='On')]
        self.emulator = self.useFixture(
            sushy_emulator.SushyEmulator(self.systems))
        self.uuid = self.systems[0]['uuid']
        self.task = _task(self.emulator.driver_info(self.uuid))
        self.power = redfish.RedfishPower()
        self.management = redfish.RedfishManagement()

    def _emulator_power(self, uuid=None):
        return self.emulator.get_system(uuid or self.uuid)['PowerState']

    def test_power_on_off_reboot(self):
        listener = self.emulator.listener
        self.assertEqual(states.POWER_OFF,
                         self.power.get_power_state(self.task))
        started = time.monotonic()
        self.power.set_power_state(self.task, states.POWER_ON, timeout=10)
        self.assertLess(time.monotonic() - started, 5,
                        'the emulator power delay was not patched')
        self.assertEqual('On', self._emulator_power())
        self.assertEqual(states.POWER_ON,
                         self.power.get_power_state(self.task))
        # Notified at reset time (pending) and when it applied.
        notes = listener.notifications(self.uuid)
        self.assertEqual('On', notes[-1]['body']['power_state'])
        self.assertIsNone(notes[-1]['body'].get('pending_power'))
        self.assertEqual('On',
                         notes[-2]['body']['pending_power']['power_state'])
        self.assertEqual('PUT', notes[-1]['method'])

        listener.clear()
        self.power.reboot(self.task, timeout=10)
        self.assertEqual('On', self._emulator_power())
        notes = listener.notifications(self.uuid)
        # ForceRestart: seen off, then on again.
        self.assertEqual(['Off', 'On'],
                         [n['body']['power_state'] for n in notes])
        self.assertEqual('ForceRestart',
                         notes[0]['body']['pending_power']['power_state'])

        listener.clear()
        self.power.set_power_state(self.task, states.POWER_OFF, timeout=10)
        self.assertEqual('Off', self._emulator_power())
        self.assertEqual('Off', listener.notifications(
            self.uuid)[-1]['body']['power_state'])
        # The other system was not touched.
        self.assertEqual('On', self._emulator_power(self.systems[1]['uuid']))
        self.assertEqual([], listener.notifications(self.systems[1]['uuid']))

    def test_firmware_versions(self):
        # API 1.86: the emulator's manager reports its firmware version;
        # its FakeDriver systems have no BiosVersion, so no "bios".
        components = redfish_firmware.RedfishFirmware().get_components(
            self.task)
        self.assertEqual(['bmc'], [c['component'] for c in components])
        self.assertTrue(components[0]['current_version'], components)

    def test_virtual_media(self):
        # API 1.89: the emulator's virtual CD fetches the image and
        # shows it inserted.
        url = _serve_iso(self)
        self.management.attach_virtual_media(self.task, 'cdrom', url)
        system = redfish_utils.get_system(self.task.node)[1]
        cds = [d for d in redfish._virtual_media(system)
               if 'cdrom' in [k for k, v in redfish.VMEDIA_TYPES.items()
                              if v & set(d.media_types or ())]]
        self.assertTrue(cds)
        self.assertEqual((True, url), (cds[0].inserted, cds[0].image))
        # API 1.93: the devices as the BMC shows them.
        listed = self.management.get_virtual_media(self.task)
        self.assertIn({'media_types': sorted(
            t.value for t in cds[0].media_types), 'inserted': True,
            'image': url}, listed)
        self.management.detach_virtual_media(self.task, None)
        cds[0].refresh()
        self.assertFalse(cds[0].inserted)

    def test_boot_device(self):
        self.assertEqual('disk', self.management.get_boot_device(
            self.task)['boot_device'])
        for device, source in [('pxe', 'Pxe'), ('cdrom', 'Cd'),
                               ('disk', 'Hdd')]:
            self.emulator.listener.clear()
            self.management.set_boot_device(self.task, device,
                                            persistent=True)
            self.assertEqual(source, self.emulator.get_system(
                self.uuid)['Boot']['BootSourceOverrideTarget'])
            self.assertEqual(device, self.management.get_boot_device(
                self.task)['boot_device'])
            notes = self.emulator.listener.notifications(self.uuid)
            self.assertEqual(source, notes[-1]['body']['boot_device'])
        # A device the emulator does not offer is refused before any change.
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.management.set_boot_device, self.task,
                              'bios')
        self.assertEqual('boot_device', e.field)

    def test_errors(self):
        task = _task(self.emulator.driver_info('no-such-system'))
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.power.set_power_state, task,
                              states.POWER_ON)
        self.assertEqual('redfish_system_id', e.field)
        self.assertIn('/redfish/v1/Systems/no-such-system', str(e))
        # Two systems: redfish_system_id cannot be left out.
        info = self.emulator.driver_info(self.uuid)
        del info['redfish_system_id']
        e = self.assertRaises(exception.MissingParameterValue,
                              self.power.get_power_state, _task(info))
        self.assertEqual('redfish_system_id', e.field)


class TestRedfishCluster(base.FunctionalTestCase):

    TIMEOUT = 120

    def setUp(self):
        super().setUp()
        self.systems = [sushy_emulator.make_system('cluster-1')]
        work_dir = self.work_dir()
        self.emulator = self.useFixture(sushy_emulator.SushyEmulator(
            self.systems, log_dir=work_dir))
        self.watch(self.emulator.process)
        # The conductor serves its http_root itself: the virtual media
        # it downloads ("local") reach the emulator from there.
        self.http_root = os.path.join(self.useFixture(
            fixtures.TempDir()).path, 'httpboot')
        port = base.free_port()
        self.cluster = self.start_cluster(
            conductors=1, api_workers=1, work_dir=work_dir,
            conf={'DEFAULT': {
                'enabled_hardware_types': 'fake-hardware,redfish'},
                'deploy': {'http_root': self.http_root,
                           'http_server_port': port,
                           'http_url': 'http://127.0.0.1:%d' % port}})

    def _create(self, name, driver_info):
        resp = self.cluster.request('POST', '/v1/nodes', json={
            'driver': 'redfish', 'name': name, 'driver_info': driver_info})
        self.assertEqual(201, resp.status_code, resp.text)
        body = resp.json()
        self.assertEqual('redfish', body['power_interface'])
        self.assertEqual('redfish', body['management_interface'])
        return body['uuid']

    def _set_power(self, uuid, target):
        for _ in range(10):
            resp = self.cluster.request(
                'PUT', '/v1/nodes/%s/states/power' % uuid,
                json={'target': target})
            if resp.status_code != 409:  # briefly locked by a power sync
                break
            time.sleep(0.5)
        self.assertEqual(202, resp.status_code, resp.text)

    def _node(self, uuid):
        resp = self.cluster.request('GET', '/v1/nodes/%s' % uuid)
        self.assertEqual(200, resp.status_code, resp.text)
        return resp.json()

    def _wait_power(self, uuid, wanted):
        def reached():
            node = self._node(uuid)
            self.assertIsNone(node['last_error'])
            return (node['power_state'] == wanted
                    and node['target_power_state'] is None)
        self.assertEventually(
            reached, POWER_BOUND, interval=0.25,
            message=lambda: 'node %s not in %s: %s'
            % (uuid, wanted, self._node(uuid)))

    def _cd(self, uuid):
        resp = self.cluster.request('GET', '/v1/nodes/%s/vmedia' % uuid,
                                    headers={VERSION: '1.93'})
        self.assertEqual(200, resp.status_code, resp.text)
        return [d for d in resp.json() if 'CD' in d['media_types']][0]

    def _cd_inserted(self, uuid):
        return self._cd(uuid)['inserted'] is True

    def test_vmedia_served_by_the_conductor(self):
        # Ironic's default image_download_source, "local": the conductor
        # downloads the image and the BMC reads it from the conductor's
        # boot file server.
        uuid = self._create('rf-local', self.emulator.driver_info(
            self.systems[0]['uuid']))
        resp = self.cluster.request(
            'POST', '/v1/nodes/%s/vmedia' % uuid, headers={VERSION: '1.89'},
            json={'device_type': 'cdrom', 'image_url': _serve_iso(self)})
        self.assertEqual(204, resp.status_code, resp.text)
        self.assertEventually(lambda: self._cd_inserted(uuid), POWER_BOUND,
                              interval=0.25, message=lambda: 'CD not '
                              'inserted: %s' % self._node(uuid)['last_error'])
        served = os.path.join(self.http_root, 'vmedia',
                              'cdrom-%s.iso' % uuid)
        with open(served, 'rb') as f:
            self.assertEqual(b'\0' * 4096, f.read())
        self.assertEqual(
            self.cluster_http_url() + '/vmedia/cdrom-%s.iso' % uuid,
            self._cd(uuid)['image'])
        resp = self.cluster.request('DELETE', '/v1/nodes/%s/vmedia' % uuid,
                                    headers={VERSION: '1.89'})
        self.assertEqual(204, resp.status_code, resp.text)
        self.assertEventually(lambda: not self._cd_inserted(uuid),
                              POWER_BOUND, interval=0.25,
                              message='CD not ejected')
        self.assertEventually(lambda: not os.path.exists(served),
                              POWER_BOUND, interval=0.25,
                              message='served image not removed')
        self.assertIsNone(self._node(uuid)['last_error'])

    def cluster_http_url(self):
        return self.cluster.conf['deploy']['http_url']

    def test_eject_vmedia_by_vendor_passthru(self):
        # Ironic's redfish vendor method, the redfish nodes' default
        # vendor interface: the emulator's CD is ejected.
        uuid = self._create('rf-vendor', self.emulator.driver_info(
            self.systems[0]['uuid']))
        resp = self.cluster.request(
            'GET', '/v1/nodes/%s/vendor_passthru/methods' % uuid)
        self.assertIn('eject_vmedia', resp.json(), resp.text)
        resp = self.cluster.request(
            'POST', '/v1/nodes/%s/vmedia' % uuid, headers={VERSION: '1.89'},
            json={'device_type': 'cdrom', 'image_url': _serve_iso(self),
                  'image_download_source': 'http'})
        self.assertEqual(204, resp.status_code, resp.text)
        self.assertEventually(lambda: self._cd_inserted(uuid), POWER_BOUND,
                              interval=0.25, message='CD not inserted')
        resp = self.cluster.request(
            'POST', '/v1/nodes/%s/vendor_passthru?method=eject_vmedia'
            % uuid, json={'boot_device': 'floppy_disk'})
        self.assertEqual(400, resp.status_code, resp.text)
        self.assertTrue(self._cd_inserted(uuid))
        resp = self.cluster.request(
            'POST', '/v1/nodes/%s/vendor_passthru?method=eject_vmedia'
            % uuid, json={'boot_device': 'cd'})
        self.assertEqual(202, resp.status_code, resp.text)
        self.assertEventually(lambda: not self._cd_inserted(uuid),
                              POWER_BOUND, interval=0.25,
                              message='CD not ejected')
        self.assertIsNone(self._node(uuid)['last_error'])

    def _passthru(self, uuid, http_method, method, body=None,
                  expected=200):
        resp = self.cluster.request(
            http_method, '/v1/nodes/%s/vendor_passthru?method=%s'
            % (uuid, method), json=body)
        self.assertEqual(expected, resp.status_code, resp.text)
        return resp.json() if resp.content else None

    def test_event_subscriptions_by_vendor_passthru(self):
        # Ironic's redfish vendor methods against the lab emulator's
        # EventService; its test event reaches the subscriber.
        uuid = self._create('rf-events', self.emulator.driver_info(
            self.systems[0]['uuid']))
        listener = self.useFixture(sushy_emulator.NotificationListener())
        destination = 'http://127.0.0.1:%d/events' % listener.port
        methods = self.cluster.request(
            'GET', '/v1/nodes/%s/vendor_passthru/methods' % uuid).json()
        self.assertEqual(['GET'], methods['get_all_subscriptions'][
            'http_methods'])
        created = self._passthru(uuid, 'POST', 'create_subscription', {
            'Destination': destination, 'Context': 'rack-4',
            'EventTypes': ['Alert', 'StatusChange'],
            'HttpHeaders': [{'X-Token': 'secret'}]})
        self.assertEqual({'Id', 'Destination', 'Context', 'Protocol',
                          'EventTypes'}, set(created))
        self.assertEqual((destination, 'rack-4', 'Redfish'),
                         (created['Destination'], created['Context'],
                          created['Protocol']))
        sub_id = created['Id']
        listed = self._passthru(uuid, 'GET', 'get_all_subscriptions')
        self.assertEqual(1, listed['Members@odata.count'])
        self.assertEqual(created, self._passthru(
            uuid, 'GET', 'get_subscription', {'id': sub_id}))

        # The BMC sends its events to the subscriber.
        resp = requests.post(
            self.emulator.url + '/redfish/v1/EventService/Actions/'
            'EventService.SubmitTestEvent', json={'EventType': 'Alert'},
            timeout=10)
        self.assertEqual(204, resp.status_code, resp.text)
        received = listener.notifications()
        self.assertEqual(['/events'], [r['path'] for r in received])
        self.assertEqual('rack-4', received[0]['body']['Context'])
        self.assertEqual('Alert',
                         received[0]['body']['Events'][0]['EventType'])

        # Refused before the BMC is asked: an event type it does not
        # offer, a Destination that is no URI.
        for body, field in (
                ({'Destination': destination,
                  'EventTypes': ['MetricReport']}, 'EventTypes'),
                ({'Destination': 'events'}, 'Destination')):
            error = self._passthru(uuid, 'POST', 'create_subscription',
                                   body, expected=400)
            self.assertIn(field, str(error))
        self._passthru(uuid, 'DELETE', 'delete_subscription',
                       {'id': sub_id})
        error = self._passthru(uuid, 'GET', 'get_subscription',
                               {'id': sub_id}, expected=404)
        self.assertIn('the BMC has no event subscription', str(error))
        self.assertEqual(0, self._passthru(
            uuid, 'GET', 'get_all_subscriptions')['Members@odata.count'])

    def test_power_through_api(self):
        system = self.systems[0]['uuid']
        good = self._create('rf-good', self.emulator.driver_info(system))
        bad = self._create('rf-bad', self.emulator.driver_info('nope-42'))

        self._set_power(good, states.POWER_ON)
        self._wait_power(good, states.POWER_ON)
        self.assertEqual('On', self.emulator.get_system(system)['PowerState'])

        self._set_power(good, states.POWER_OFF)
        self._wait_power(good, states.POWER_OFF)
        self.assertEqual('Off',
                         self.emulator.get_system(system)['PowerState'])
        powers = [n['body']['power_state'] for n in
                  self.emulator.listener.notifications(system)]
        self.assertEqual(['Off', 'On', 'On', 'Off'], powers)

        self._set_power(bad, states.POWER_ON)

        def failed():
            node = self._node(bad)
            return node['target_power_state'] is None and node['last_error']
        error = self.assertEventually(
            failed, POWER_BOUND, interval=0.25,
            message=lambda: 'no last_error on %s' % self._node(bad))
        self.assertIn('/redfish/v1/Systems/nope-42', error)
        self.assertIn('no such system', error)
        self.assertIn('redfish_system_id', error)
