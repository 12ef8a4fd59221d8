"""GET /v1/nodes/{id}/validate through the API and the real conductor."""

from ironic_like.tests.unit.api import base


class TestNodeValidate(base.APITestCase):

    with_conductor = True

    def test_fake_node(self):
        node = self.create_node()
        doc = self.get('/v1/nodes/%s/validate' % node.uuid,
                       version='1.1').json
        # Every kind but vendor, as Ironic.
        self.assertEqual(
            {'bios', 'boot', 'console', 'deploy', 'firmware', 'inspect',
             'management', 'network', 'power', 'raid', 'rescue',
             'storage'}, set(doc))
        for kind in ('power', 'management', 'deploy', 'boot', 'network',
                     'storage'):
            self.assertEqual({'result': True}, doc[kind], kind)
        # The no-op interfaces are "not supported": null, with the reason.
        for kind in ('bios', 'console', 'firmware', 'inspect', 'raid',
                     'rescue'):
            self.assertIsNone(doc[kind]['result'], kind)
            self.assertIn('does not support %s' % kind,
                          doc[kind]['reason'])

    def test_invalid_interface_is_false_with_reason(self):
        self.config(deploy_kernel=None, deploy_ramdisk=None,
                    group='conductor')
        node = self.create_node(boot_interface='ipxe',
                                deploy_interface='agent', driver_info={})
        doc = self.get('/v1/nodes/%s/validate' % node.uuid).json
        self.assertIs(False, doc['boot']['result'])
        self.assertIn('deploy_kernel', doc['boot']['reason'])
        # The agent deploy needs the boot interface: invalid too.
        self.assertIs(False, doc['deploy']['result'])
        self.assertIs(True, doc['power']['result'])

    def test_unexpected_error_is_false(self):
        from unittest import mock

        from ironic_like.drivers.modules import fake
        node = self.create_node()
        with mock.patch.object(fake.FakePower, 'validate',
                               side_effect=RuntimeError('boom')):
            doc = self.get('/v1/nodes/%s/validate' % node.uuid).json
        self.assertIs(False, doc['power']['result'])
        self.assertIn('Unexpected exception', doc['power']['reason'])
        self.assertIn('boom', doc['power']['reason'])

    def test_enabled_fakes_are_valid(self):
        self.config(enabled_console_interfaces=['fake', 'no-console'],
                    enabled_raid_interfaces=['fake', 'no-raid'],
                    enabled_bios_interfaces=['fake', 'no-bios'])
        node = self.create_node(console_interface='fake',
                                raid_interface='fake', bios_interface='fake')
        doc = self.get('/v1/nodes/%s/validate' % node.uuid).json
        for kind in ('console', 'raid', 'bios'):
            self.assertEqual({'result': True}, doc[kind], kind)

    def test_flat_network_checks_driver_info(self):
        node = self.create_node(network_interface='flat',
                                driver_info={'cleaning_network': ''})
        doc = self.get('/v1/nodes/%s/validate' % node.uuid).json
        self.assertIs(False, doc['network']['result'])
        self.assertIn('cleaning_network', doc['network']['reason'])

    def test_unknown_node(self):
        r = self.get('/v1/nodes/nope/validate', status=404)
        self.assertFault(r, 404, 'nope')


class TestNodeValidatePolicy(base.APITestCase):

    auth_strategy = 'keystone'

    def make_app(self, **kwargs):
        return super().make_app(skip_auth_token=True)

    def test_policy(self):
        mine = self.create_node(owner='p1')
        theirs = self.create_node(owner='p2')
        reader = {'X-Roles': 'reader', 'X-Project-Id': 'p1',
                  'X-User-Id': 'u1'}
        r = self.get('/v1/nodes/%s/validate' % mine.uuid, headers=reader,
                     status=403)
        self.assertFault(r, 403, 'baremetal:node:validate')
        # Another project's node does not exist for the reader.
        self.get('/v1/nodes/%s/validate' % theirs.uuid, headers=reader,
                 status=404)


class TestInterfaceFields(base.APITestCase):

    with_conductor = True

    def test_fields_appear_at_ironic_versions(self):
        node = self.create_node()
        url = '/v1/nodes/%s' % node.uuid
        gates = [('network_interface', '1.20', 'noop'),
                 ('console_interface', '1.31', 'no-console'),
                 ('inspect_interface', '1.31', 'no-inspect'),
                 ('raid_interface', '1.31', 'no-raid'),
                 ('vendor_interface', '1.31', 'no-vendor'),
                 ('storage_interface', '1.33', 'noop'),
                 ('rescue_interface', '1.38', 'no-rescue'),
                 ('bios_interface', '1.40', 'no-bios')]
        for field, version, value in gates:
            major, minor = version.split('.')
            before = '%s.%d' % (major, int(minor) - 1)
            self.assertNotIn(field, self.get(url, version=before).json)
            self.assertEqual(value, self.get(url, version=version)
                             .json[field])

    def test_set_on_create_and_patch(self):
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'network_interface': 'flat'},
                      version='1.19', status=406)
        self.assertFault(r, 406, 'network_interface')
        doc = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                      'network_interface': 'flat'},
                        version='1.20').json
        self.assertEqual('flat', doc['network_interface'])
        url = '/v1/nodes/%s' % doc['uuid']
        # Supported by fake-hardware, but not enabled by default.
        r = self.patch(url, [{'op': 'replace', 'path': '/console_interface',
                              'value': 'fake'}], status=400)
        self.assertFault(r, 400, 'console_interface', 'not enabled')
        self.config(enabled_console_interfaces=['fake', 'no-console'])
        doc = self.patch(url, [{'op': 'replace',
                                'path': '/console_interface',
                                'value': 'fake'}]).json
        self.assertEqual('fake', doc['console_interface'])
        r = self.patch(url, [{'op': 'replace', 'path': '/rescue_interface',
                              'value': 'agent'}], status=400)
        self.assertFault(r, 400, 'rescue_interface')
        self.patch(url, [{'op': 'replace', 'path': '/bios_interface',
                          'value': 'no-bios'}], version='1.39', status=406)
