"""Bounds of requests: the body size (oslo.middleware's sizelimit, 413),
string lengths, JSON field sizes, list lengths, JSON patch operations and
nesting (400 naming the field). A refused request changes nothing."""

import io
import json
import os

from oslo_utils import uuidutils
import webob

from ironic_like.api.middleware import version as version_mw
from ironic_like.api import versions
from ironic_like.api.schemas import allocation as allocation_schema
from ironic_like.api.schemas import node as node_schema
from ironic_like.api import validation
from ironic_like.common import states
from ironic_like.conf import api as api_conf
from ironic_like.tests.unit.api import base


class TestBodySize(base.APITestCase):

    def _check_413(self, response):
        self.assertFault(response, 413, 'max_request_body_size')
        # The error went through the version layer like any other.
        self.assertEqual(versions.MAX_VERSION_STRING,
                         response.headers[version_mw.LEGACY_HEADER])
        self.assertIn(version_mw.MAX_HEADER, response.headers)

    def test_default_is_one_mebibyte(self):
        self.assertEqual(1024 * 1024, api_conf.MAX_REQUEST_BODY_SIZE)
        from ironic_like.conf import CONF
        self.assertEqual(api_conf.MAX_REQUEST_BODY_SIZE,
                         CONF.oslo_middleware.max_request_body_size)

    def test_option_is_in_the_sample_config(self):
        sample = os.path.join(os.path.dirname(__file__), '..', '..', '..',
                              '..', 'etc', 'ironic_like',
                              'ironic_like.conf.sample')
        with open(sample) as f:
            text = f.read()
        section = text.split('\n[oslo_middleware]\n', 1)[1].split('\n[')[0]
        self.assertIn('\n#max_request_body_size = 1048576\n', section)

    def test_oversized_body_is_413_in_ironic_format(self):
        self.config(max_request_body_size=2048, group='oslo_middleware')
        body = json.dumps({'driver': 'fake-hardware',
                           'description': 'x' * 3000}).encode()
        r = self.raw('POST', '/v1/nodes', body, status=413)
        self._check_413(r)
        self.assertIn('2048', base.fault(r)['faultstring'])
        self.assertEqual([], self.db.get_node_list())

    def test_default_limit_applies(self):
        body = b'{"driver": "fake-hardware", "extra": {"a": "%s"}}' % (
            b'x' * (1024 * 1024))
        r = self.raw('POST', '/v1/nodes', body, status=413)
        self._check_413(r)
        self.assertEqual([], self.db.get_node_list())

    def test_chunked_body_without_length_is_cut(self):
        self.config(max_request_body_size=2048, group='oslo_middleware')
        body = json.dumps({'driver': 'fake-hardware',
                           'description': 'x' * 3000}).encode()
        request = webob.Request.blank('/v1/nodes', method='POST')
        request.environ.pop('CONTENT_LENGTH', None)
        request.environ['wsgi.input'] = io.BytesIO(body)
        request.environ['HTTP_TRANSFER_ENCODING'] = 'chunked'
        request.environ['wsgi.input_terminated'] = True
        request.headers['Content-Type'] = 'application/json'
        request.headers.update(base.LATEST)
        r = request.get_response(self.app.app)
        self.assertEqual(413, r.status_int)
        doc = json.loads(json.loads(r.body)['error_message'])
        self.assertEqual('Client', doc['faultcode'])
        self.assertEqual(versions.MAX_VERSION_STRING,
                         r.headers[version_mw.LEGACY_HEADER])
        self.assertEqual([], self.db.get_node_list())


class TestFieldBounds(base.APITestCase):

    with_conductor = True

    def assertRefused(self, response, field, *fragments):
        self.assertFault(response, 400, 'field/attribute %s' % field,
                         *fragments)

    def test_name_and_description_lengths(self):
        for field, length in [('name', 256), ('description', 4097),
                              ('resource_class', 81), ('owner', 256),
                              ('conductor_group', 256),
                              ('power_interface', 256)]:
            r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                        field: 'a' * length}, status=400)
            self.assertRefused(r, field, 'too long')
            # The value is shown cut, not echoed whole.
            self.assertLess(len(base.fault(r)['faultstring']), 600)
        self.assertEqual([], self.db.get_node_list())
        doc = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                      'name': 'n' * 255,
                                      'description': 'd' * 4096}).json
        self.assertEqual('n' * 255, doc['name'])

    def test_json_field_size_on_create(self):
        self.config(max_json_field_size=2048, group='api')
        for field in ('driver_info', 'properties', 'extra', 'instance_info',
                      'labels'):
            r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                        field: {'k': 'v' * 2100}},
                          status=400)
            self.assertRefused(r, field, 'max_json_field_size', '2048')
        self.assertEqual([], self.db.get_node_list())
        # Just under the limit is fine.
        doc = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                      'extra': {'k': 'v' * 2000}}).json
        self.assertEqual('v' * 2000, doc['extra']['k'])

    def test_json_field_size_default(self):
        self.assertEqual(65535, validation.CONF.api.max_json_field_size)
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'properties': {'k': 'v' * 70000}},
                      status=400)
        self.assertRefused(r, 'properties', '65535')

    def test_json_field_size_on_patch(self):
        self.config(max_json_field_size=2048, group='api')
        node = self.create_node(extra={'a': 1})
        r = self.patch('/v1/nodes/%s' % node.uuid,
                       [{'op': 'add', 'path': '/extra/big',
                         'value': 'x' * 3000}], status=400)
        self.assertRefused(r, 'extra', 'max_json_field_size')
        self.assertEqual({'a': 1}, self.db.get_node_by_id(node.id).extra)

    def test_json_field_size_of_port_and_allocation_extra(self):
        self.config(max_json_field_size=2048, group='api')
        node = self.create_node()
        r = self.post('/v1/ports', {'node_uuid': node.uuid,
                                    'address': '52:54:00:00:00:01',
                                    'extra': {'k': 'v' * 3000}},
                      status=400)
        self.assertRefused(r, 'extra', 'max_json_field_size')
        self.assertEqual([], self.db.get_port_list())
        r = self.post('/v1/allocations', {'resource_class': 'gold',
                                          'extra': {'k': 'v' * 3000}},
                      status=400)
        self.assertRefused(r, 'extra', 'max_json_field_size')
        self.assertEqual([], self.db.get_allocation_list())

    def test_too_many_patch_operations(self):
        self.config(max_patch_operations=5, group='api')
        node = self.create_node(extra={})
        ops = [{'op': 'add', 'path': '/extra/k%d' % i, 'value': i}
               for i in range(6)]
        r = self.patch('/v1/nodes/%s' % node.uuid, ops, status=400)
        self.assertFault(r, 400, 'max_patch_operations', '6', '5')
        self.assertEqual({}, self.db.get_node_by_id(node.id).extra)
        port = self.create_port(node)
        r = self.patch('/v1/ports/%s' % port.uuid, ops, status=400)
        self.assertFault(r, 400, 'max_patch_operations')
        # At the limit the patch applies.
        doc = self.patch('/v1/nodes/%s' % node.uuid, ops[:5]).json
        self.assertEqual({'k%d' % i: i for i in range(5)}, doc['extra'])

    def test_patch_operations_default(self):
        node = self.create_node(extra={})
        ops = [{'op': 'add', 'path': '/extra/k%d' % i, 'value': i}
               for i in range(101)]
        r = self.patch('/v1/nodes/%s' % node.uuid, ops, status=400)
        self.assertFault(r, 400, 'max_patch_operations')
        self.assertEqual({}, self.db.get_node_by_id(node.id).extra)

    def test_patch_path_length(self):
        node = self.create_node(extra={})
        r = self.patch('/v1/nodes/%s' % node.uuid,
                       [{'op': 'add', 'path': '/extra/' + 'k' * 1100,
                         'value': 1}], status=400)
        self.assertFault(r, 400, 'too long')
        self.assertEqual({}, self.db.get_node_by_id(node.id).extra)

    def test_maintenance_reason_length(self):
        node = self.create_node()
        url = '/v1/nodes/%s/maintenance' % node.uuid
        r = self.put(url, {'reason': 'r' * 4097}, status=400)
        self.assertRefused(r, 'reason', 'too long')
        r = self.put(url + '?reason=' + 'r' * 4097, status=400)
        self.assertRefused(r, 'reason', 'too long')
        r = self.patch('/v1/nodes/%s' % node.uuid,
                       [{'op': 'add', 'path': '/maintenance_reason',
                         'value': 'r' * 4097}], status=400)
        self.assertRefused(r, 'maintenance_reason', 'too long')
        stored = self.db.get_node_by_id(node.id)
        self.assertFalse(stored.maintenance)
        self.assertIsNone(stored.maintenance_reason)

    def test_clean_steps_count(self):
        node = self.create_node(provision_state=states.MANAGEABLE)
        url = '/v1/nodes/%s/states/provision' % node.uuid
        steps = [{'interface': 'deploy', 'step': 'erase_devices'}] * (
            node_schema.MAX_CLEAN_STEPS + 1)
        r = self.put(url, {'target': 'clean', 'clean_steps': steps},
                     status=400)
        self.assertRefused(r, 'clean_steps', 'too long')
        r = self.put(url, {'target': 'clean', 'clean_steps': [
            {'interface': 'deploy', 'step': 's' * 256}]}, status=400)
        self.assertRefused(r, 'clean_steps')
        self.assertEqual(states.MANAGEABLE,
                         self.db.get_node_by_id(node.id).provision_state)

    def test_state_targets_length(self):
        node = self.create_node()
        for path in ('power', 'provision'):
            r = self.put('/v1/nodes/%s/states/%s' % (node.uuid, path),
                         {'target': 'x' * 256}, status=400)
            self.assertRefused(r, 'target', 'too long')

    def test_allocation_list_bounds(self):
        too_many = [uuidutils.generate_uuid() for _ in range(
            allocation_schema.MAX_CANDIDATE_NODES + 1)]
        r = self.post('/v1/allocations', {'resource_class': 'gold',
                                          'candidate_nodes': too_many},
                      status=400)
        self.assertRefused(r, 'candidate_nodes', 'too long')
        traits = ['CUSTOM_%d' % i for i in range(node_schema.MAX_TRAITS + 1)]
        r = self.post('/v1/allocations', {'resource_class': 'gold',
                                          'traits': traits}, status=400)
        self.assertRefused(r, 'traits')
        self.assertEqual([], self.db.get_allocation_list())

    def test_deep_nesting_is_400_not_500(self):
        for depth in (validation.MAX_BODY_DEPTH + 1, 5000):
            body = ('{"driver": "fake-hardware", "extra": '
                    + '{"a": ' * depth + '1' + '}' * depth + '}')
            r = self.raw('POST', '/v1/nodes', body.encode(), status=400)
            self.assertFault(r, 400, 'nests')
        r = self.raw('POST', '/v1/nodes', b'[' * 100000, status=400)
        self.assertFault(r, 400, 'nests')
        self.assertEqual([], self.db.get_node_list())
        # Ordinary nesting is fine.
        body = {'driver': 'fake-hardware',
                'properties': {'capabilities': {'a': {'b': {'c': [1]}}}}}
        self.post('/v1/nodes', body)


class TestHeartbeatBounds(base.APITestCase):

    def test_heartbeat_strings_are_bounded(self):
        node = self.create_node(provision_state=states.DEPLOYWAIT)
        url = '/v1/heartbeat/%s' % node.uuid
        for field, length in [('agent_version', 256),
                              ('agent_token', 256),
                              ('callback_url', 1025),
                              ('agent_status_message', 4097)]:
            body = {'callback_url': 'http://10.0.0.5:9999'}
            body[field] = (
                'http://10.0.0.5:9999/' + 'p' * length
                if field == 'callback_url' else 'x' * length)
            r = self.post(url, body, status=400)
            self.assertFault(r, 400, 'field/attribute %s' % field,
                             'longer than')
