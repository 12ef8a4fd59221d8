"""/v1/nodes: create, patch and delete through the real conductor."""

from oslo_utils import uuidutils

from ironic_like.common import states
from ironic_like.tests.unit.api import base


class TestCreateNode(base.APITestCase):

    with_conductor = True

    def test_create(self):
        body = {'driver': 'fake-hardware', 'name': 'n1',
                'driver_info': {'ipmi_password': 'pw', 'ipmi_address': 'a'},
                'properties': {'cpus': 4}, 'extra': {'e': 1},
                'resource_class': 'gold', 'conductor_group': '',
                'owner': 'p1', 'description': 'rack 4',
                'labels': {'role': 'compute'}, 'power_interface': 'fake'}
        r = self.post('/v1/nodes', body)
        doc = r.json
        self.assertTrue(uuidutils.is_uuid_like(doc['uuid']))
        self.assertEqual('http://localhost/v1/nodes/%s' % doc['uuid'],
                         r.headers['Location'])
        self.assertEqual(states.ENROLL, doc['provision_state'])
        self.assertEqual({'ipmi_password': '******', 'ipmi_address': 'a'},
                         doc['driver_info'])
        self.assertEqual('test-conductor', doc['conductor'])
        node = self.db.get_node_by_uuid(doc['uuid'])
        self.assertEqual('n1', node.name)
        self.assertEqual('pw', node.driver_info['ipmi_password'])
        self.assertEqual({'role': 'compute'}, node.labels)
        self.assertEqual('rack 4', node.description)
        self.assertEqual('gold', node.resource_class)

    def test_create_with_uuid(self):
        uuid = uuidutils.generate_uuid()
        doc = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                      'uuid': uuid}).json
        self.assertEqual(uuid, doc['uuid'])
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'uuid': uuid}, status=409)
        self.assertFault(r, 409, uuid)

    def test_old_versions_create_available_nodes(self):
        doc = self.post('/v1/nodes', {'driver': 'fake-hardware'},
                        version='1.10').json
        self.assertEqual(states.AVAILABLE, doc['provision_state'])
        doc = self.post('/v1/nodes', {'driver': 'fake-hardware'},
                        version='1.11').json
        self.assertEqual(states.ENROLL, doc['provision_state'])

    def test_missing_driver(self):
        r = self.post('/v1/nodes', {'name': 'x'}, status=400)
        self.assertFault(r, 400, 'field/attribute driver', 'Mandatory')

    def test_unknown_driver(self):
        r = self.post('/v1/nodes', {'driver': 'no-such-type'}, status=400)
        self.assertFault(r, 400, 'field/attribute driver', 'no-such-type')
        self.assertEqual([], self.db.get_node_list())

    def test_unknown_field(self):
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'colour': 'red'}, status=400)
        self.assertFault(r, 400, 'field/attribute colour')

    def test_read_only_field(self):
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'provision_state': 'active'},
                      status=400)
        self.assertFault(r, 400, 'provision_state')

    def test_field_too_new_for_version(self):
        for field, value, version in [('name', 'n', '1.4'),
                                      ('resource_class', 'x', '1.20'),
                                      ('power_interface', 'fake', '1.30'),
                                      ('conductor_group', 'g', '1.45'),
                                      ('owner', 'o', '1.49'),
                                      ('description', 'd', '1.50')]:
            r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                        field: value},
                          version=version, status=406)
            self.assertFault(r, 406, field)

    def test_schema_violations_name_the_field(self):
        cases = [('name', 'has space'), ('name', uuidutils.generate_uuid()),
                 ('uuid', 'not-a-uuid'), ('driver_info', 'string'),
                 ('instance_uuid', 'nope'), ('resource_class', 'x' * 81),
                 ('conductor_group', 'bad group!'), ('labels', {'k': 1}),
                 ('description', 'x' * 4097), ('extra', [1])]
        for field, value in cases:
            r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                        field: value}, status=400)
            self.assertFault(r, 400, 'field/attribute %s' % field)

    def test_unknown_interface(self):
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'power_interface': 'nope'}, status=400)
        self.assertFault(r, 400, 'power_interface')

    def test_duplicate_name(self):
        self.post('/v1/nodes', {'driver': 'fake-hardware', 'name': 'dup'})
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'name': 'dup'}, status=409)
        self.assertFault(r, 409, 'dup')


class TestPatchNode(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(
            name='n1', driver_info={'ipmi_address': 'a',
                                    'ipmi_password': 'secret'},
            extra={'keep': 1})
        self.url = '/v1/nodes/%s' % self.node.uuid

    def test_replace_and_add(self):
        doc = self.patch(self.url, [
            {'op': 'replace', 'path': '/name', 'value': 'n2'},
            {'op': 'add', 'path': '/driver_info/ipmi_username',
             'value': 'admin'},
            {'op': 'add', 'path': '/labels/rack', 'value': 'r1'},
            {'op': 'add', 'path': '/properties/cpus', 'value': 8}]).json
        self.assertEqual('n2', doc['name'])
        self.assertEqual('******', doc['driver_info']['ipmi_password'])
        node = self.db.get_node_by_uuid(self.node.uuid)
        self.assertEqual('n2', node.name)
        # The masked value in the answer was not written back.
        self.assertEqual({'ipmi_address': 'a', 'ipmi_password': 'secret',
                          'ipmi_username': 'admin'}, node.driver_info)
        self.assertEqual({'rack': 'r1'}, node.labels)
        self.assertEqual({'cpus': 8}, node.properties)

    def test_patch_by_name(self):
        self.patch('/v1/nodes/n1', [{'op': 'add', 'path': '/extra/x',
                                     'value': 'y'}])
        node = self.db.get_node_by_uuid(self.node.uuid)
        self.assertEqual({'keep': 1, 'x': 'y'}, node.extra)

    def test_remove_nested_and_top_level(self):
        self.patch(self.url, [
            {'op': 'remove', 'path': '/driver_info/ipmi_password'},
            {'op': 'remove', 'path': '/extra'},
            {'op': 'remove', 'path': '/name'}])
        node = self.db.get_node_by_uuid(self.node.uuid)
        self.assertEqual({'ipmi_address': 'a'}, node.driver_info)
        self.assertEqual({}, node.extra)
        self.assertIsNone(node.name)

    def test_read_only_paths(self):
        for path in ('/uuid', '/provision_state', '/power_state',
                     '/reservation', '/created_at', '/updated_at',
                     '/traits', '/maintenance', '/conductor', '/links',
                     '/driver_internal_info/x'):
            r = self.patch(self.url, [{'op': 'replace', 'path': path,
                                       'value': 'x'}], status=400)
            field = path.split('/')[1]
            self.assertFault(r, 400, 'field/attribute %s' % field,
                             'internal attribute')

    def test_unknown_path(self):
        r = self.patch(self.url, [{'op': 'add', 'path': '/colour',
                                   'value': 'red'}], status=400)
        self.assertFault(r, 400, 'field/attribute colour')

    def test_path_too_new_for_version(self):
        r = self.patch(self.url, [{'op': 'add', 'path': '/owner',
                                   'value': 'p'}], version='1.49',
                       status=406)
        self.assertFault(r, 406, 'owner')

    def test_remove_driver_refused(self):
        r = self.patch(self.url, [{'op': 'remove', 'path': '/driver'}],
                       status=400)
        self.assertFault(r, 400, 'mandatory')

    def test_bad_patch_documents(self):
        for ops in ([{'op': 'move', 'path': '/name', 'from': '/extra'}],
                    [{'op': 'add', 'path': '/name'}],
                    [{'path': '/name', 'value': 'x'}],
                    [{'op': 'add', 'path': 'name', 'value': 'x'}],
                    {'op': 'add'}):
            r = self.patch(self.url, ops, status=400)
            self.assertFault(r, 400)

    def test_patch_that_does_not_apply(self):
        r = self.patch(self.url, [{'op': 'remove',
                                   'path': '/extra/missing'}], status=400)
        self.assertFault(r, 400, "Couldn't apply patch")

    def test_invalid_new_value_names_field(self):
        r = self.patch(self.url, [{'op': 'replace', 'path': '/name',
                                   'value': 'bad name'}], status=400)
        self.assertFault(r, 400, 'field/attribute name')
        r = self.patch(self.url, [{'op': 'replace', 'path': '/driver_info',
                                   'value': 'x'}], status=400)
        self.assertFault(r, 400, 'field/attribute driver_info')

    def test_unknown_driver(self):
        r = self.patch(self.url, [{'op': 'replace', 'path': '/driver',
                                   'value': 'nope'}], status=400)
        self.assertFault(r, 400, 'nope')

    def test_empty_patch_changes_nothing(self):
        doc = self.patch(self.url, []).json
        self.assertEqual('n1', doc['name'])

    def test_reset_interfaces(self):
        r = self.patch(self.url + '?reset_interfaces=true', [
            {'op': 'add', 'path': '/extra/x', 'value': 1}], status=400)
        self.assertFault(r, 400, 'reset_interfaces')
        self.patch(self.url + '?reset_interfaces=true', [
            {'op': 'add', 'path': '/extra/x', 'value': 1}],
            version='1.44', status=406)
        self.patch(self.url + '?reset_interfaces=maybe', [], status=400)
        # The same driver again is no driver change.
        self.patch(self.url + '?reset_interfaces=true', [
            {'op': 'replace', 'path': '/driver', 'value': 'fake-hardware'},
        ], status=400)
        doc = self.patch(self.url + '?reset_interfaces=false', [
            {'op': 'add', 'path': '/extra/x', 'value': 1}]).json
        self.assertEqual({'keep': 1, 'x': 1}, doc['extra'])

    def test_not_found(self):
        self.patch('/v1/nodes/%s' % uuidutils.generate_uuid(), [],
                   status=404)

    def test_locked_node_409(self):
        self.db.reserve_node('other-host', self.node.id)
        r = self.patch(self.url, [{'op': 'add', 'path': '/extra/x',
                                   'value': 1}], status=409)
        self.assertFault(r, 409, 'locked', 'other-host')
        node = self.db.get_node_by_uuid(self.node.uuid)
        self.assertEqual({'keep': 1}, node.extra)


class TestDeleteNode(base.APITestCase):

    with_conductor = True

    def test_delete(self):
        node = self.create_node(name='gone')
        port = self.create_port(node)
        r = self.delete('/v1/nodes/gone')
        self.assertEqual(b'', r.body)
        self.get('/v1/nodes/%s' % node.uuid, status=404)
        self.get('/v1/ports/%s' % port.uuid, status=404)

    def test_delete_not_found(self):
        r = self.delete('/v1/nodes/%s' % uuidutils.generate_uuid(),
                        status=404)
        self.assertFault(r, 404)

    def test_delete_active_node_refused(self):
        node = self.create_node(provision_state=states.ACTIVE)
        r = self.delete('/v1/nodes/%s' % node.uuid, status=409)
        self.assertFault(r, 409, 'active')
        self.db.get_node_by_uuid(node.uuid)

    def test_delete_locked_node_409(self):
        node = self.create_node()
        self.db.reserve_node('other-host', node.id)
        self.delete('/v1/nodes/%s' % node.uuid, status=409)
