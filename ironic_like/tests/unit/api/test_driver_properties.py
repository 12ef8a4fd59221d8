"""GET /v1/drivers/{name}/properties, .../raid/logical_disk_properties
(1.12) and the interfaces of a driver (1.30)."""

from ironic_like.drivers import raid
from ironic_like.tests.unit.api import base


class TestDriverProperties(base.APITestCase):

    def setUp(self):
        super().setUp()
        self.db.register_conductor('redfish-host', '',
                                   ['fake-hardware', 'redfish'])

    def test_properties_of_the_default_interfaces(self):
        doc = self.get('/v1/drivers/redfish/properties', version='1.1').json
        for key in ('redfish_address', 'redfish_system_id',
                    'redfish_password', 'deploy_kernel', 'deploy_ramdisk'):
            self.assertIn(key, doc)
            self.assertIsInstance(doc[key], str)
        # fake-hardware's fakes read no driver_info.
        self.assertEqual({}, self.get(
            '/v1/drivers/fake-hardware/properties').json)

    def test_flat_network_properties_when_default(self):
        self.config(default_network_interface='flat')
        doc = self.get('/v1/drivers/fake-hardware/properties').json
        self.assertIn('cleaning_network', doc)

    def test_unknown_driver(self):
        r = self.get('/v1/drivers/nope/properties', status=404)
        self.assertFault(r, 404, 'nope')
        self.get('/v1/drivers/nope/raid/logical_disk_properties',
                 status=404)

    def test_logical_disk_properties(self):
        self.config(enabled_raid_interfaces=['fake', 'no-raid'])
        url = '/v1/drivers/fake-hardware/raid/logical_disk_properties'
        doc = self.get(url, version='1.12').json
        self.assertEqual(raid.logical_disk_properties(), doc)
        self.assertIn('Required', doc['raid_level'])
        self.assertIn('size_gb', doc)
        self.get(url, version='1.11', status=406)

    def test_logical_disk_properties_without_raid(self):
        url = '/v1/drivers/redfish/raid/logical_disk_properties'
        r = self.get(url, status=404)
        self.assertFault(r, 404, 'redfish does not support raid')

    def test_driver_interfaces(self):
        self.config(enabled_bios_interfaces=['no-bios', 'redfish'])
        doc = self.get('/v1/drivers/redfish', version='1.40').json
        self.assertEqual('redfish', doc['default_bios_interface'])
        self.assertEqual(['redfish', 'no-bios'],
                         doc['enabled_bios_interfaces'])
        self.assertEqual('noop', doc['default_network_interface'])
        self.assertEqual(['noop', 'flat'], doc['enabled_network_interfaces'])
        self.assertEqual('no-console', doc['default_console_interface'])
        # As Ironic's: the redfish vendor passthru, enabled by default.
        self.assertEqual(['redfish', 'no-vendor'],
                         doc['enabled_vendor_interfaces'])
        self.assertEqual('redfish', doc['default_vendor_interface'])
        # Storage (1.33), rescue (1.38) and bios (1.40) come later.
        older = self.get('/v1/drivers/redfish', version='1.32').json
        for kind in ('storage', 'rescue', 'bios'):
            self.assertNotIn('default_%s_interface' % kind, older)
        self.assertIn('default_raid_interface', older)
        self.assertIn('default_rescue_interface', self.get(
            '/v1/drivers/redfish', version='1.38').json)

    def test_default_interface_option(self):
        self.config(enabled_network_interfaces=['flat', 'noop'],
                    default_network_interface='flat')
        doc = self.get('/v1/drivers/fake-hardware').json
        self.assertEqual('flat', doc['default_network_interface'])


class TestDriverPropertiesPolicy(base.APITestCase):

    auth_strategy = 'keystone'

    def make_app(self, **kwargs):
        return super().make_app(skip_auth_token=True)

    def test_system_reader_only(self):
        project = {'X-Roles': 'admin', 'X-Project-Id': 'p1',
                   'X-User-Id': 'u1'}
        r = self.get('/v1/drivers/fake-hardware/properties',
                     headers=project, status=403)
        self.assertFault(r, 403, 'baremetal:driver:get_properties')
        r = self.get('/v1/drivers/fake-hardware/raid/'
                     'logical_disk_properties', headers=project, status=403)
        self.assertFault(
            r, 403, 'baremetal:driver:get_raid_logical_disk_properties')
        system = {'X-Roles': 'reader', 'OpenStack-System-Scope': 'all',
                  'X-User-Id': 'u1'}
        self.get('/v1/drivers/fake-hardware/properties', headers=system)
