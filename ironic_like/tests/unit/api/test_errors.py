"""Ironic's error shape on every failure path."""

import json

import fixtures

from ironic_like.tests.unit.api import base


class TestErrorShape(base.APITestCase):

    def test_body_is_double_encoded(self):
        r = self.get('/v1/nodes/does-not-exist', status=404)
        self.assertEqual(['error_message'], list(r.json))
        self.assertIsInstance(r.json['error_message'], str)
        inner = json.loads(r.json['error_message'])
        self.assertEqual({'faultstring', 'faultcode', 'debuginfo'},
                         set(inner))
        self.assertEqual('Node does-not-exist could not be found.',
                         inner['faultstring'])

    def test_unknown_path_404(self):
        r = self.get('/v1/nosuchthing', status=404)
        self.assertFault(r, 404)
        r = self.app.get('/nosuchthing', status=404)
        self.assertFault(r, 404)

    def test_unknown_method_405(self):
        node = self.create_node()
        r = self.app.post_json('/v1/nodes/%s/states' % node.uuid, {},
                               status=405)
        self.assertFault(r, 405, 'POST')

    def test_item_method_on_collection_405(self):
        # Found by test_openapi: pecan called these without the resource's
        # identifier, a TypeError (500).
        for method, url in (('PATCH', '/v1/nodes'), ('DELETE', '/v1/nodes'),
                            ('PATCH', '/v1/ports'), ('DELETE', '/v1/ports'),
                            ('PATCH', '/v1/allocations'),
                            ('DELETE', '/v1/allocations'),
                            ('POST', '/v1/heartbeat')):
            r = self.raw(method, url, b'[]', 405)
            self.assertFault(r, 405, 'Method %s is not allowed' % method)

    def test_bad_json_400(self):
        r = self.raw('POST', '/v1/nodes', b'{"driver": ', 400)
        self.assertFault(r, 400, 'not valid JSON')

    def test_body_not_utf8_400(self):
        # Found by the fuzz test: pecan decoded such a body while routing,
        # logged a traceback at ERROR level and answered a generic 400.
        logger = self.useFixture(fixtures.FakeLogger(level='DEBUG'))
        for method in ('POST', 'PATCH'):
            url = ('/v1/nodes' if method == 'POST'
                   else '/v1/nodes/%s' % self.create_node().uuid)
            r = self.raw(method, url, b'{"driver": "\xca\xfe"}', 400)
            self.assertFault(r, 400, 'not valid JSON', 'UTF-8')
        self.assertNotIn('Traceback', logger.output)

    def test_empty_body_400(self):
        r = self.raw('POST', '/v1/nodes', b'', 400)
        self.assertFault(r, 400, 'empty')

    def test_body_of_wrong_type_400(self):
        r = self.raw('POST', '/v1/nodes', b'[1, 2]', 400)
        self.assertFault(r, 400, 'JSON object')

    def test_unknown_query_parameter_400(self):
        r = self.get('/v1/nodes?colour=blue', status=400)
        self.assertFault(r, 400, 'Unknown argument: "colour"',
                         'field/attribute colour')

    def test_unexpected_error_is_500_without_internals(self):
        self.useFixture(fixtures.MockPatchObject(
            self.db, 'get_node_list',
            side_effect=RuntimeError('secret internal detail')))
        r = self.get('/v1/nodes', status=500)
        text = self.assertFault(r, 500)
        self.assertEqual('Internal Server Error', text)
        self.assertNotIn(b'secret internal detail', r.body)
        self.assertNotIn(b'Traceback', r.body)
