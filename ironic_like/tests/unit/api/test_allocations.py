"""/v1/allocations and /v1/nodes/{id}/allocation through the real
in-process conductor (seed 004, with Ironic's later additions)."""

from unittest import mock

from oslo_utils import uuidutils

from ironic_like.common import states
from ironic_like.db.sqlalchemy import allocations as allocations_db
from ironic_like.tests import utils as test_utils
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth

V52 = '1.52'


class AllocationAPITestCase(base.APITestCase):

    with_conductor = True

    def free_node(self, **values):
        values.setdefault('provision_state', states.AVAILABLE)
        values.setdefault('resource_class', 'gold')
        return self.create_node(**values)

    def wait_allocation(self, uuid, timeout=4.0, interval=0.02):
        def settled():
            doc = self.get('/v1/allocations/%s' % uuid).json
            return doc['state'] != states.ALLOCATING and doc

        return test_utils.wait_for(
            settled, timeout, interval,
            message='allocation %s still allocating' % uuid)

    def allocate(self, body=None, **kw):
        body = dict(body or {'resource_class': 'gold'})
        doc = self.post('/v1/allocations', body, **kw).json
        return self.wait_allocation(doc['uuid'])


class TestCreate(AllocationAPITestCase):

    def test_create_and_become_active(self):
        node = self.free_node(name='n1')
        r = self.post('/v1/allocations', {'resource_class': 'gold',
                                          'name': 'a1',
                                          'extra': {'k': 'v'}})
        self.assertIn(r.json['state'], (states.ALLOCATING,
                                        states.ALLOCATION_ACTIVE))
        self.assertTrue(r.headers['Location'].endswith(
            '/v1/allocations/%s' % r.json['uuid']))
        doc = self.wait_allocation(r.json['uuid'])
        self.assertEqual(states.ALLOCATION_ACTIVE, doc['state'])
        self.assertEqual(node.uuid, doc['node_uuid'])
        self.assertEqual('a1', doc['name'])
        self.assertEqual({'k': 'v'}, doc['extra'])
        self.assertIsNone(doc['last_error'])
        node_doc = self.get('/v1/nodes/n1').json
        self.assertEqual(doc['uuid'], node_doc['allocation_uuid'])
        self.assertEqual(doc['uuid'], node_doc['instance_uuid'])

    def test_traits_and_candidates_by_name(self):
        self.free_node(name='plain')
        wanted = self.free_node(name='fancy', traits=['CUSTOM_GPU'])
        doc = self.allocate({'resource_class': 'gold',
                             'traits': ['CUSTOM_GPU'],
                             'candidate_nodes': ['fancy', 'plain']})
        self.assertEqual(wanted.uuid, doc['node_uuid'])
        self.assertEqual(['CUSTOM_GPU'], doc['traits'])
        self.assertEqual(sorted([wanted.uuid,
                                 self.db.get_node_by_name('plain').uuid]),
                         sorted(doc['candidate_nodes']))

    def test_no_match_ends_in_error_naming_cause(self):
        self.free_node()
        doc = self.allocate({'resource_class': 'silver'})
        self.assertEqual(states.ALLOCATION_ERROR, doc['state'])
        self.assertIn('no node has resource class silver', doc['last_error'])
        self.assertIsNone(doc['node_uuid'])

    def test_bad_input_is_400_and_changes_nothing(self):
        self.free_node(name='n1')
        cases = [
            ({}, 'resource_class'),
            ({'resource_class': ''}, 'resource_class'),
            ({'resource_class': 'gold', 'traits': ['lower']}, 'traits'),
            ({'resource_class': 'gold', 'traits': 'CUSTOM_A'}, 'traits'),
            ({'resource_class': 'gold', 'candidate_nodes': ['nope']},
             'candidate_nodes'),
            ({'resource_class': 'gold', 'name': 'bad name!'}, 'name'),
            ({'resource_class': 'gold', 'uuid': 'not-a-uuid'}, 'uuid'),
            ({'resource_class': 'gold', 'bogus': 1}, 'bogus'),
        ]
        for body, field in cases:
            r = self.post('/v1/allocations', body, status=400)
            self.assertFault(r, 400, field)
        self.assertEqual([], self.db.get_allocation_list())

    def test_conflicts_409(self):
        self.free_node()
        self.free_node()
        first = self.allocate({'resource_class': 'gold', 'name': 'one'})
        r = self.post('/v1/allocations', {'resource_class': 'gold',
                                          'uuid': first['uuid']},
                      status=409)
        self.assertFault(r, 409, first['uuid'])
        r = self.post('/v1/allocations', {'resource_class': 'gold',
                                          'name': 'one'}, status=409)
        self.assertFault(r, 409, 'one')
        instance = uuidutils.generate_uuid()
        self.create_node(instance_uuid=instance)
        r = self.post('/v1/allocations', {'resource_class': 'gold',
                                          'uuid': instance}, status=409)
        self.assertFault(r, 409, instance)
        self.assertEqual(1, len(self.db.get_allocation_list()))

    def test_instance_uuid_looked_up_only_for_a_given_uuid(self):
        # A uuid the API makes up cannot be a node's instance_uuid: the
        # look-up is saved (one query per POST, issue 14).
        self.free_node()
        self.free_node()
        with mock.patch.object(
                allocations_db, '_refuse_instance_uuid',
                wraps=allocations_db._refuse_instance_uuid) as refuse:
            made_up = self.allocate({'resource_class': 'gold'})
            refuse.assert_not_called()
            given = uuidutils.generate_uuid()
            self.allocate({'resource_class': 'gold', 'uuid': given})
        self.assertEqual(given, refuse.call_args[0][1])
        self.assertNotEqual(given, made_up['uuid'])

    def test_hidden_before_1_52(self):
        self.post('/v1/allocations', {'resource_class': 'gold'},
                  version='1.51', status=404)
        self.get('/v1/allocations', version='1.51', status=404)
        node = self.free_node(name='n1')
        self.assertNotIn('allocation_uuid',
                         self.get('/v1/nodes/n1', version='1.51').json)
        self.get('/v1/nodes/%s/allocation' % node.uuid, version='1.51',
                 status=404)
        self.assertNotIn('allocations', self.get('/v1', version='1.51').json)
        self.assertIn('allocations', self.get('/v1').json)

    def test_backfill(self):
        instance = uuidutils.generate_uuid()
        node = self.create_node(name='deployed', resource_class='gold',
                                provision_state=states.ACTIVE,
                                instance_uuid=instance)
        r = self.post('/v1/allocations', {'node': 'deployed',
                                          'uuid': instance})
        self.assertEqual(states.ALLOCATION_ACTIVE, r.json['state'])
        self.assertEqual(node.uuid, r.json['node_uuid'])
        self.assertEqual('gold', r.json['resource_class'])
        r = self.post('/v1/allocations', {'node': 'deployed'},
                      version='1.57', status=406)
        r = self.post('/v1/allocations', {'node': 'missing'}, status=400)
        self.assertFault(r, 400, 'node')

    def test_owner(self):
        self.free_node(owner='proj')
        r = self.post('/v1/allocations', {'resource_class': 'gold',
                                          'owner': 'proj'},
                      version='1.59', status=406)
        self.assertFault(r, 406, 'owner')
        doc = self.allocate({'resource_class': 'gold', 'owner': 'other'})
        self.assertEqual(states.ALLOCATION_ERROR, doc['state'])
        self.assertIn('owned or leased by project other', doc['last_error'])
        doc = self.allocate({'resource_class': 'gold', 'owner': 'proj'})
        self.assertEqual(states.ALLOCATION_ACTIVE, doc['state'])
        self.assertEqual('proj', doc['owner'])
        self.assertNotIn('owner', self.get('/v1/allocations/%s' % doc['uuid'],
                                           version='1.59').json)


class TestReadUpdateDelete(AllocationAPITestCase):

    def setUp(self):
        super().setUp()
        self.nodes = [self.free_node(name='n%d' % i) for i in range(3)]
        self.docs = [self.allocate({'resource_class': 'gold',
                                    'name': 'a%d' % i}) for i in range(3)]
        self.failed = self.allocate({'resource_class': 'none'})

    def test_list_filters_fields_pagination(self):
        r = self.get('/v1/allocations').json
        self.assertEqual(4, len(r['allocations']))
        r = self.get('/v1/allocations?state=error').json
        self.assertEqual([self.failed['uuid']],
                         [a['uuid'] for a in r['allocations']])
        r = self.get('/v1/allocations?resource_class=gold').json
        self.assertEqual(3, len(r['allocations']))
        node_uuid = self.docs[1]['node_uuid']
        r = self.get('/v1/allocations?node=%s' % node_uuid).json
        self.assertEqual([self.docs[1]['uuid']],
                         [a['uuid'] for a in r['allocations']])
        r = self.get('/v1/allocations?fields=uuid,state').json
        self.assertEqual({'uuid', 'state', 'links'},
                         set(r['allocations'][0]))
        r = self.get('/v1/allocations?limit=2').json
        self.assertEqual(2, len(r['allocations']))
        self.assertIn('marker=%s' % r['allocations'][-1]['uuid'], r['next'])
        rest = self.get('/v1' + r['next'].split('/v1', 1)[1]).json
        self.assertEqual(2, len(rest['allocations']))

    def test_list_errors(self):
        for url, field in [('/v1/allocations?state=bogus', 'state'),
                           ('/v1/allocations?node=missing', 'node'),
                           ('/v1/allocations?fields=bogus', 'fields'),
                           ('/v1/allocations?sort_key=extra', 'sort_key'),
                           ('/v1/allocations?wat=1', 'wat')]:
            r = self.get(url, status=400)
            self.assertFault(r, 400, field)

    def test_get_by_uuid_and_name(self):
        doc = self.get('/v1/allocations/a1').json
        self.assertEqual(self.docs[1]['uuid'], doc['uuid'])
        self.get('/v1/allocations/%s' % uuidutils.generate_uuid(),
                 status=404)
        self.get('/v1/allocations/nope', status=404)

    def test_patch_name_and_extra(self):
        url = '/v1/allocations/%s' % self.docs[0]['uuid']
        doc = self.patch(url, [{'op': 'replace', 'path': '/name',
                                'value': 'renamed'},
                               {'op': 'add', 'path': '/extra/x',
                                'value': 1}]).json
        self.assertEqual('renamed', doc['name'])
        self.assertEqual({'x': 1}, doc['extra'])
        doc = self.patch(url, [{'op': 'remove', 'path': '/extra'}]).json
        self.assertEqual({}, doc['extra'])
        r = self.patch(url, [{'op': 'replace', 'path': '/resource_class',
                              'value': 'x'}], status=400)
        self.assertFault(r, 400, 'resource_class')
        r = self.patch(url, [{'op': 'replace', 'path': '/name',
                              'value': 'a2'}], status=409)
        self.patch(url, [{'op': 'replace', 'path': '/name', 'value': 'z'}],
                   version='1.56', status=405)
        self.assertEqual('renamed', self.get(url).json['name'])

    def test_delete_frees_node(self):
        doc = self.docs[0]
        self.delete('/v1/allocations/%s' % doc['uuid'])
        node = self.db.get_node_by_uuid(doc['node_uuid'])
        self.assertIsNone(node.instance_uuid)
        self.assertIsNone(node.allocation_id)
        self.get('/v1/allocations/%s' % doc['uuid'], status=404)
        self.delete('/v1/allocations/%s' % self.failed['uuid'])

    def test_delete_of_active_node_conflicts(self):
        doc = self.docs[0]
        node = self.db.get_node_by_uuid(doc['node_uuid'])
        self.db.update_node(node.id, {'provision_state': states.ACTIVE})
        r = self.delete('/v1/allocations/%s' % doc['uuid'], status=409)
        self.assertFault(r, 409, 'active')
        self.assertEqual(doc['uuid'],
                         self.db.get_node_by_id(node.id).instance_uuid)

    def test_node_allocation_subresource(self):
        doc = self.docs[2]
        url = '/v1/nodes/%s/allocation' % doc['node_uuid']
        self.assertEqual(doc['uuid'], self.get(url).json['uuid'])
        self.assertEqual({'uuid', 'links'},
                         set(self.get(url + '?fields=uuid').json))
        self.delete(url)
        self.get(url, status=404)
        free = self.free_node(name='other',
                              instance_uuid=uuidutils.generate_uuid())
        r = self.get('/v1/nodes/other/allocation', status=400)
        self.assertFault(r, 400, free.instance_uuid)

    def test_node_allocation_uuid_is_read_only(self):
        doc = self.docs[0]
        r = self.patch('/v1/nodes/%s' % doc['node_uuid'],
                       [{'op': 'replace', 'path': '/allocation_uuid',
                         'value': uuidutils.generate_uuid()}], status=400)
        self.assertFault(r, 400, 'allocation_uuid')
        nodes = self.get('/v1/nodes/detail').json['nodes']
        self.assertEqual(
            {d['node_uuid']: d['uuid'] for d in self.docs},
            {n['uuid']: n['allocation_uuid'] for n in nodes
             if n['allocation_uuid']})

    def test_unsetting_instance_uuid_deletes_allocation(self):
        doc = self.docs[0]
        self.patch('/v1/nodes/%s' % doc['node_uuid'],
                   [{'op': 'remove', 'path': '/instance_uuid'}])
        self.get('/v1/allocations/%s' % doc['uuid'], status=404)
        node = self.get('/v1/nodes/%s' % doc['node_uuid']).json
        self.assertIsNone(node['allocation_uuid'])
        self.assertIsNone(node['instance_uuid'])


class TestAllocationPolicy(test_auth.KeystoneTestCase, AllocationAPITestCase):

    def setUp(self):
        super().setUp()
        self.free_node(owner='p1')
        self.free_node(owner='p2')

    def test_member_allocates_for_own_project(self):
        headers = self.project('member')
        doc = self.post('/v1/allocations', {'resource_class': 'gold'},
                        headers=headers).json
        self.assertEqual('p1', doc['owner'])
        doc = self.wait_allocation(doc['uuid'])
        node = self.db.get_node_by_uuid(doc['node_uuid'])
        self.assertEqual('p1', node.owner)
        r = self.post('/v1/allocations', {'resource_class': 'gold',
                                          'owner': 'p2'}, headers=headers,
                      status=403)
        self.assertFault(r, 403)

    def test_reader_cannot_create_and_sees_only_own(self):
        self.post('/v1/allocations', {'resource_class': 'gold'},
                  headers=self.project('reader'), status=403)
        mine = self.allocate({'resource_class': 'gold', 'owner': 'p1'},
                             headers=self.system('admin'))
        theirs = self.allocate({'resource_class': 'gold', 'owner': 'p2'},
                               headers=self.system('admin'))
        listed = self.get('/v1/allocations',
                          headers=self.project('reader')).json
        self.assertEqual([mine['uuid']],
                         [a['uuid'] for a in listed['allocations']])
        self.get('/v1/allocations/%s' % theirs['uuid'],
                 headers=self.project('reader'), status=404)
        self.delete('/v1/allocations/%s' % mine['uuid'],
                    headers=self.project('reader'), status=403)
        self.delete('/v1/allocations/%s' % mine['uuid'],
                    headers=self.project('member'))

    def get(self, url, status=200, headers=None, version=None):
        return super().get(url, status=status,
                           headers=headers or self.system('admin'),
                           version=version)
