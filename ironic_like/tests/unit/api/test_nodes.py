"""/v1/nodes: reading (list, detail, fields, filters, pagination, show)."""

import urllib.parse

from oslo_utils import uuidutils

from ironic_like.common import states
from ironic_like.tests.unit.api import base

SHORT = {'uuid', 'name', 'instance_uuid', 'power_state', 'provision_state',
         'maintenance', 'links'}


class TestListNodes(base.APITestCase):

    def test_empty(self):
        self.assertEqual({'nodes': []}, self.get('/v1/nodes').json)

    def test_short_form(self):
        node = self.create_node(name='n1', driver_info={'a': 1})
        nodes = self.get('/v1/nodes').json['nodes']
        self.assertEqual(1, len(nodes))
        self.assertEqual(SHORT, set(nodes[0]))
        self.assertEqual(node.uuid, nodes[0]['uuid'])
        self.assertEqual('n1', nodes[0]['name'])
        self.assertEqual(states.POWER_OFF, nodes[0]['power_state'])
        self.assertEqual(
            [{'href': 'http://localhost/v1/nodes/%s' % node.uuid,
              'rel': 'self'},
             {'href': 'http://localhost/nodes/%s' % node.uuid,
              'rel': 'bookmark'}], nodes[0]['links'])

    def test_short_form_before_1_5_has_no_name(self):
        self.create_node(name='n1')
        nodes = self.get('/v1/nodes', version='1.4').json['nodes']
        self.assertEqual(SHORT - {'name'}, set(nodes[0]))

    def test_detail(self):
        node = self.create_node(name='n1', traits=['CUSTOM_X'],
                                driver_info={'ipmi_password': 'secret',
                                             'ipmi_address': '1.2.3.4'},
                                owner='p1', description='d')
        for url in ('/v1/nodes/detail', '/v1/nodes?detail=True'):
            doc = self.get(url).json['nodes'][0]
            self.assertEqual(node.uuid, doc['uuid'])
            self.assertEqual(['CUSTOM_X'], doc['traits'])
            self.assertEqual({'ipmi_password': '******',
                              'ipmi_address': '1.2.3.4'},
                             doc['driver_info'])
            self.assertEqual('p1', doc['owner'])
            self.assertEqual('d', doc['description'])
            self.assertEqual('test-conductor', doc['conductor'])
            self.assertEqual('fake', doc['power_interface'])
            self.assertTrue(doc['created_at'].endswith('+00:00'))
            self.assertEqual('http://localhost/v1/nodes/%s/ports'
                             % node.uuid, doc['ports'][0]['href'])
            self.assertEqual('http://localhost/v1/nodes/%s/states'
                             % node.uuid, doc['states'][0]['href'])

    def test_detail_fields_follow_version(self):
        self.create_node(name='n1')
        gates = [('name', '1.5'), ('resource_class', '1.21'),
                 ('power_interface', '1.31'), ('traits', '1.37'),
                 ('conductor_group', '1.46'), ('conductor', '1.49'),
                 ('owner', '1.50'), ('description', '1.51')]
        for field, version in gates:
            major, minor = version.split('.')
            before = '%s.%d' % (major, int(minor) - 1)
            doc = self.get('/v1/nodes/detail',
                           version=before).json['nodes'][0]
            self.assertNotIn(field, doc, before)
            doc = self.get('/v1/nodes/detail',
                           version=version).json['nodes'][0]
            self.assertIn(field, doc, version)

    def test_detail_param_needs_1_43(self):
        r = self.get('/v1/nodes?detail=True', version='1.42', status=406)
        self.assertFault(r, 406, 'detail')

    def test_detail_param_false_is_short(self):
        self.create_node()
        doc = self.get('/v1/nodes?detail=false').json['nodes'][0]
        self.assertEqual(SHORT, set(doc))

    def test_detail_param_invalid(self):
        r = self.get('/v1/nodes?detail=maybe', status=400)
        self.assertFault(r, 400, 'detail')

    def test_detail_param_on_detail_path(self):
        self.get('/v1/nodes/detail?detail=True', status=400)

    def test_detail_and_fields(self):
        r = self.get('/v1/nodes?detail=True&fields=uuid', status=400)
        self.assertFault(r, 400, 'detail', 'fields')

    def test_fields(self):
        node = self.create_node(name='n1', extra={'a': 'b'})
        doc = self.get('/v1/nodes?fields=uuid,extra').json['nodes'][0]
        self.assertEqual({'uuid', 'extra', 'links'}, set(doc))
        self.assertEqual({'a': 'b'}, doc['extra'])
        self.assertEqual(node.uuid, doc['uuid'])

    def test_fields_with_traits_and_conductor(self):
        self.create_node(traits=['CUSTOM_T'])
        doc = self.get('/v1/nodes?fields=traits,conductor,power_interface'
                       ).json['nodes'][0]
        self.assertEqual(['CUSTOM_T'], doc['traits'])
        self.assertEqual('test-conductor', doc['conductor'])
        self.assertEqual('fake', doc['power_interface'])

    def test_fields_unknown_field(self):
        r = self.get('/v1/nodes?fields=uuid,colour', status=400)
        self.assertFault(r, 400, 'colour', 'field/attribute fields')

    def test_fields_too_new_for_version(self):
        r = self.get('/v1/nodes?fields=owner', version='1.49', status=406)
        self.assertFault(r, 406, 'owner')

    def test_fields_needs_1_8(self):
        self.get('/v1/nodes?fields=uuid', version='1.7', status=406)

    def test_fields_on_detail_path(self):
        self.get('/v1/nodes/detail?fields=uuid', status=400)


class TestFilters(base.APITestCase):

    def setUp(self):
        super().setUp()
        self.a = self.create_node(name='a', provision_state='available',
                                  maintenance=True, resource_class='gold',
                                  conductor_group='', owner='p1',
                                  instance_uuid=uuidutils.generate_uuid())
        self.b = self.create_node(name='b', provision_state='manageable',
                                  resource_class='silver', owner='p2')

    def names(self, query, version=None):
        nodes = self.get('/v1/nodes?' + query, version=version).json['nodes']
        return sorted(n['name'] for n in nodes)

    def test_provision_state(self):
        self.assertEqual(['a'], self.names('provision_state=available'))

    def test_maintenance(self):
        self.assertEqual(['a'], self.names('maintenance=true'))
        self.assertEqual(['b'], self.names('maintenance=False'))
        self.get('/v1/nodes?maintenance=perhaps', status=400)

    def test_associated(self):
        self.assertEqual(['a'], self.names('associated=True'))
        self.assertEqual(['b'], self.names('associated=false'))

    def test_instance_uuid(self):
        self.assertEqual(['a'], self.names(
            'instance_uuid=%s' % self.a.instance_uuid))
        r = self.get('/v1/nodes?instance_uuid=nope', status=400)
        self.assertFault(r, 400, 'instance_uuid')

    def test_driver(self):
        self.assertEqual(['a', 'b'], self.names('driver=fake-hardware'))
        self.assertEqual([], self.names('driver=other'))
        self.get('/v1/nodes?driver=fake-hardware', version='1.15',
                 status=406)

    def test_resource_class(self):
        self.assertEqual(['b'], self.names('resource_class=silver'))
        self.get('/v1/nodes?resource_class=gold', version='1.20',
                 status=406)

    def test_conductor_group(self):
        self.assertEqual(['a', 'b'], self.names('conductor_group='))
        self.assertEqual([], self.names('conductor_group=other'))
        self.get('/v1/nodes?conductor_group=x', version='1.45', status=406)

    def test_owner(self):
        self.assertEqual(['b'], self.names('owner=p2'))
        self.get('/v1/nodes?owner=p2', version='1.49', status=406)

    def test_combined(self):
        self.assertEqual([], self.names('owner=p1&maintenance=false'))


class TestPagination(base.APITestCase):

    def setUp(self):
        super().setUp()
        self.uuids = sorted(self.create_node(name='n%d' % i).uuid
                            for i in range(5))

    def test_next_link_when_page_full(self):
        doc = self.get('/v1/nodes?limit=2&sort_key=uuid').json
        self.assertEqual(self.uuids[:2], [n['uuid'] for n in doc['nodes']])
        url = urllib.parse.urlsplit(doc['next'])
        self.assertEqual('/v1/nodes', url.path)
        query = urllib.parse.parse_qs(url.query)
        self.assertEqual({'limit': ['2'], 'marker': [self.uuids[1]],
                          'sort_key': ['uuid']}, query)

    def test_following_next_links_visits_all(self):
        seen = []
        url = '/v1/nodes/detail?limit=2&sort_key=uuid'
        for _ in range(10):
            doc = self.get(url).json
            seen.extend(n['uuid'] for n in doc['nodes'])
            if 'next' not in doc:
                break
            url = doc['next'].replace('http://localhost', '')
            self.assertTrue(url.startswith('/v1/nodes/detail?'))
        self.assertEqual(self.uuids, seen)

    def test_no_next_link_on_last_page(self):
        doc = self.get('/v1/nodes?limit=10').json
        self.assertEqual(5, len(doc['nodes']))
        self.assertNotIn('next', doc)

    def test_default_limit_is_max_limit(self):
        self.config(max_limit=3, group='api')
        doc = self.get('/v1/nodes').json
        self.assertEqual(3, len(doc['nodes']))
        self.assertIn('limit=3', doc['next'])
        doc = self.get('/v1/nodes?limit=100').json
        self.assertEqual(3, len(doc['nodes']))

    def test_sort_dir(self):
        doc = self.get('/v1/nodes?sort_key=uuid&sort_dir=desc').json
        self.assertEqual(self.uuids[::-1], [n['uuid'] for n in doc['nodes']])

    def test_sort_by_name(self):
        doc = self.get('/v1/nodes?sort_key=name&sort_dir=desc').json
        self.assertEqual(['n4', 'n3', 'n2', 'n1', 'n0'],
                         [n['name'] for n in doc['nodes']])

    def test_next_keeps_fields(self):
        doc = self.get('/v1/nodes?limit=1&fields=uuid,name').json
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(
            doc['next']).query)
        self.assertEqual(['uuid,name'], query['fields'])

    def test_bad_paging_parameters(self):
        for query, field in [('limit=0', 'limit'), ('limit=-1', 'limit'),
                             ('limit=x', 'limit'),
                             ('sort_dir=up', 'sort_dir'),
                             ('sort_key=driver_info', 'sort_key'),
                             ('sort_key=nope', 'sort_key'),
                             ('marker=not-a-uuid', 'marker'),
                             ('marker=%s' % uuidutils.generate_uuid(),
                              'marker')]:
            r = self.get('/v1/nodes?' + query, status=400)
            self.assertFault(r, 400, field)


class TestGetNode(base.APITestCase):

    def test_by_uuid_and_name(self):
        node = self.create_node(name='n1')
        for ident in (node.uuid, 'n1'):
            doc = self.get('/v1/nodes/%s' % ident).json
            self.assertEqual(node.uuid, doc['uuid'])
            self.assertIn('driver_info', doc)

    def test_name_with_json_extension(self):
        node = self.create_node(name='n1.json')
        doc = self.get('/v1/nodes/n1.json').json
        self.assertEqual(node.uuid, doc['uuid'])
        self.assertEqual('application/json',
                         self.get('/v1/nodes/n1.json').content_type)
        states_doc = self.get('/v1/nodes/n1.json/states').json
        self.assertEqual(states.POWER_OFF, states_doc['power_state'])

    def test_by_name_needs_1_5(self):
        self.create_node(name='n1')
        r = self.get('/v1/nodes/n1', version='1.4', status=400)
        self.assertFault(r, 400, 'UUID')

    def test_invalid_name(self):
        r = self.get('/v1/nodes/bad%20name', status=400)
        self.assertFault(r, 400, 'bad name')

    def test_not_found(self):
        ident = uuidutils.generate_uuid()
        r = self.get('/v1/nodes/%s' % ident, status=404)
        self.assertFault(r, 404, ident)
        self.get('/v1/nodes/nobody', status=404)

    def test_fields(self):
        node = self.create_node(name='n1')
        doc = self.get('/v1/nodes/%s?fields=name,provision_state'
                       % node.uuid).json
        self.assertEqual({'name', 'provision_state', 'links'}, set(doc))
        self.get('/v1/nodes/%s?fields=bogus' % node.uuid, status=400)

    def test_old_version_hides_new_fields(self):
        node = self.create_node(name='n1', owner='p')
        doc = self.get('/v1/nodes/%s' % node.uuid, version='1.1').json
        for field in ('name', 'owner', 'traits', 'conductor',
                      'power_interface', 'resource_class'):
            self.assertNotIn(field, doc)
        self.assertEqual(node.uuid, doc['uuid'])
