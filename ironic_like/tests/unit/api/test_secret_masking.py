"""Secrets stay out of API answers and out of the API's log lines."""

import logging

import fixtures

from ironic_like.api import hooks
from ironic_like.tests.unit.api import base

SECRET = 'hunter2'
DRIVER_INFO = {'redfish_address': 'https://admin:%s@bmc.example:8000'
                                  % SECRET,
               'redfish_username': 'admin',
               'redfish_password': SECRET,
               'ipmi_passwd': SECRET,
               'oem': {'auth': {'api_token': SECRET, 'region': 'r1'}}}
MASKED = {'redfish_address': 'https://admin:******@bmc.example:8000',
          'redfish_username': 'admin',
          'redfish_password': '******',
          'ipmi_passwd': '******',
          'oem': {'auth': {'api_token': '******', 'region': 'r1'}}}


class TestNodeOutput(base.APITestCase):

    with_conductor = True

    def test_driver_info_and_instance_info_are_masked(self):
        doc = self.post('/v1/nodes', {
            'driver': 'fake-hardware', 'driver_info': DRIVER_INFO,
            'instance_info': {
                'image_source': 'https://u:%s@images/img.qcow2' % SECRET,
                'image_checksum': 'abc'}}).json
        self.assertEqual(MASKED, doc['driver_info'])
        self.assertEqual('https://u:******@images/img.qcow2',
                         doc['instance_info']['image_source'])
        for url in ('/v1/nodes/%s' % doc['uuid'], '/v1/nodes/detail'):
            text = self.get(url).text
            self.assertNotIn(SECRET, text)
            self.assertIn('https://admin:******@bmc.example:8000', text)
        # Stored as sent: only the views mask.
        node = self.db.get_node_by_uuid(doc['uuid'])
        self.assertEqual(DRIVER_INFO, node.driver_info)

    def test_patch_answer_is_masked_and_secrets_survive(self):
        node = self.create_node(driver_info=DRIVER_INFO)
        doc = self.patch('/v1/nodes/%s' % node.uuid, [
            {'op': 'add', 'path': '/driver_info/deploy_kernel',
             'value': 'http://x/k'}]).json
        self.assertEqual(dict(MASKED, deploy_kernel='http://x/k'),
                         doc['driver_info'])
        stored = self.db.get_node_by_id(node.id).driver_info
        self.assertEqual(dict(DRIVER_INFO, deploy_kernel='http://x/k'),
                         stored)


class TestErrorsAndLogs(base.APITestCase):
    """A refused request's error text is logged (debug): it must not
    carry the secrets the request held."""

    def setUp(self):
        super().setUp()
        self.logs = self.useFixture(fixtures.FakeLogger(
            name=hooks.__name__, level=logging.DEBUG))

    def test_failed_patch_of_a_password(self):
        node = self.create_node(driver_info={'redfish_address': 'x'})
        r = self.patch('/v1/nodes/%s' % node.uuid, [
            {'op': 'replace', 'path': '/driver_info/redfish_password',
             'value': SECRET}], status=400)
        self.assertFault(r, 400, "Couldn't apply patch", 'redfish_password')
        self.assertNotIn(SECRET, r.text)
        self.assertIn("Couldn't apply patch", self.logs.output)
        self.assertNotIn(SECRET, self.logs.output)
        self.assertEqual({'redfish_address': 'x'},
                         self.db.get_node_by_id(node.id).driver_info)

    def test_refused_driver_info_is_masked_in_error_and_log(self):
        self.config(max_json_field_size=1024, group='api')
        info = dict(DRIVER_INFO, padding='x' * 2000)
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'driver_info': info}, status=400)
        self.assertFault(r, 400, 'field/attribute driver_info')
        self.assertNotIn(SECRET, r.text)
        self.assertIn('field/attribute driver_info', self.logs.output)
        self.assertNotIn(SECRET, self.logs.output)
        self.assertEqual([], self.db.get_node_list())

    def test_bad_value_quoted_in_error_is_masked(self):
        r = self.post('/v1/nodes', {
            'driver': 'fake-hardware',
            'driver_info': 'https://admin:%s@bmc' % SECRET}, status=400)
        self.assertFault(r, 400, 'field/attribute driver_info')
        self.assertNotIn(SECRET, r.text)
        self.assertNotIn(SECRET, self.logs.output)
