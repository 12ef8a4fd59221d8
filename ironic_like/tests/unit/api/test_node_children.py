"""Child nodes (Ironic 1.83): the parent_node field, the node list's
include_children and parent_node filters, /v1/nodes/{id}/children."""

from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth

V = '1.83'


def _names(doc):
    return sorted(item['name'] for item in doc['nodes'])


def _set_parent(value):
    return [{'op': 'replace', 'path': '/parent_node', 'value': value}]


class TestParentField(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.parent = self.create_node(name='parent')

    def test_create_by_name_stores_the_uuid(self):
        doc = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                      'name': 'dpu',
                                      'parent_node': 'parent'},
                        version=V).json
        self.assertEqual(self.parent.uuid, doc['parent_node'])
        self.assertEqual(self.parent.uuid,
                         self.db.get_node_by_uuid(doc['uuid']).parent_node)

    def test_patch_set_and_remove(self):
        child = self.create_node(name='dpu')
        doc = self.patch('/v1/nodes/dpu', _set_parent(self.parent.uuid),
                         version=V).json
        self.assertEqual(self.parent.uuid, doc['parent_node'])
        self.patch('/v1/nodes/dpu', [{'op': 'remove',
                                      'path': '/parent_node'}], version=V)
        self.assertIsNone(self.db.get_node_by_id(child.id).parent_node)

    def test_absent_below_1_83(self):
        child = self.create_node(name='dpu', parent_node=self.parent.uuid)
        self.assertNotIn('parent_node',
                         self.get('/v1/nodes/dpu', version='1.82').json)
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'parent_node': 'parent'},
                      version='1.82', status=406)
        self.assertFault(r, 406, 'parent_node')
        r = self.patch('/v1/nodes/dpu', _set_parent(None), version='1.82',
                       status=406)
        self.assertFault(r, 406, 'parent_node')
        self.assertEqual(self.parent.uuid,
                         self.db.get_node_by_id(child.id).parent_node)

    def test_unknown_parent_400_and_nothing_created(self):
        for ident in ('nosuch', '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'):
            r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                        'name': 'orphan',
                                        'parent_node': ident},
                          version=V, status=400)
            self.assertFault(r, 400, 'parent_node')
            self.assertIn("Unable to apply the requested parent_node",
                          r.json['error_message'])
        self.assertEqual(['parent'], _names(self.get(
            '/v1/nodes?include_children=true', version=V).json))

    def test_owner_mismatch_400(self):
        self.create_node(name='theirs', owner='p2')
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'owner': 'p1', 'parent_node': 'theirs'},
                      version=V, status=400)
        self.assertFault(r, 400, 'parent_node')
        # Changing the owner with the parent in one patch checks the
        # owner the node will have.
        child = self.create_node(name='dpu')
        self.patch('/v1/nodes/dpu', _set_parent('theirs') + [
            {'op': 'replace', 'path': '/owner', 'value': 'p2'}], version=V)
        self.assertEqual('p2', self.db.get_node_by_id(child.id).owner)

    def test_no_cycles(self):
        self.create_node(name='dpu', parent_node=self.parent.uuid)
        for ident, parent in (('parent', 'parent'), ('parent', 'dpu')):
            r = self.patch('/v1/nodes/%s' % ident, _set_parent(parent),
                           version=V, status=400)
            self.assertFault(r, 400, 'parent_node')
        self.assertIsNone(
            self.db.get_node_by_id(self.parent.id).parent_node)

    def test_bad_type_400(self):
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'parent_node': 42},
                      version=V, status=400)
        self.assertFault(r, 400, 'parent_node')


class TestChildFilters(base.APITestCase):

    def setUp(self):
        super().setUp()
        self.parent = self.create_node(name='parent')
        self.other = self.create_node(name='other')
        self.create_node(name='dpu1', parent_node=self.parent.uuid)
        self.create_node(name='dpu2', parent_node=self.parent.uuid)
        self.create_node(name='nic', parent_node=self.other.uuid)

    def test_children_hidden_by_default(self):
        for version in ('1.5', '1.82', V):
            self.assertEqual(['other', 'parent'], _names(self.get(
                '/v1/nodes/detail', version=version).json))

    def test_include_children(self):
        self.assertEqual(
            ['dpu1', 'dpu2', 'nic', 'other', 'parent'],
            _names(self.get('/v1/nodes/detail?include_children=True',
                            version=V).json))
        self.assertEqual(['other', 'parent'], _names(self.get(
            '/v1/nodes/detail?include_children=false', version=V).json))

    def test_parent_filter_by_uuid_or_name(self):
        for ident in (self.parent.uuid, 'parent'):
            self.assertEqual(['dpu1', 'dpu2'], _names(self.get(
                '/v1/nodes/detail?parent_node=%s' % ident,
                version=V).json))
        self.assertEqual([], _names(self.get(
            '/v1/nodes/detail?parent_node=nosuch', version=V).json))

    def test_filters_refused(self):
        for query in ('include_children=true', 'parent_node=parent'):
            self.get('/v1/nodes?' + query, version='1.82', status=406)
        r = self.get('/v1/nodes?include_children=maybe', version=V,
                     status=400)
        self.assertFault(r, 400, 'include_children')

    def test_children_endpoint(self):
        doc = self.get('/v1/nodes/parent/children', version=V).json
        children = sorted(self.db.get_node_by_name(name).uuid
                          for name in ('dpu1', 'dpu2'))
        self.assertEqual(children, sorted(doc['children']))
        self.assertEqual('children', doc['links']['rel'])
        self.assertTrue(doc['links']['href'].endswith(
            '/v1/nodes?parent_node=%s' % self.parent.uuid))
        self.assertEqual([], self.get('/v1/nodes/dpu1/children',
                                      version=V).json['children'])
        self.get('/v1/nodes/parent/children', version='1.82', status=404)
        self.get('/v1/nodes/nosuch/children', version=V, status=404)

    def test_child_nodes_are_not_allocated(self):
        for node in self.db.get_node_list(filters={}):
            self.db.update_node(node.id, {'provision_state': 'available',
                                          'power_state': 'power off',
                                          'resource_class': 'rc'})
        ids = self.db.allocation_candidates('rc', limit=10)
        self.assertEqual(sorted([self.parent.id, self.other.id]),
                         sorted(ids))


class TestChildPolicy(test_auth.KeystoneTestCase):

    def setUp(self):
        super().setUp()
        self.parent = self.create_node(name='mine', owner='p1')
        self.create_node(name='dpu', owner='p1',
                         parent_node=self.parent.uuid)
        self.create_node(name='hidden-dpu', owner='p2',
                         parent_node=self.parent.uuid)
        self.create_node(name='theirs', owner='p2')

    def test_setting_a_parent_needs_a_system_member(self):
        patch = _set_parent(None)
        r = self.patch('/v1/nodes/dpu', patch, headers=self.project('admin'),
                       version=V, status=403)
        self.assertFault(r, 403, 'baremetal:node:update:parent_node')
        self.patch('/v1/nodes/dpu', patch, headers=self.system('member'),
                   version=V)

    def test_project_sees_its_own_children_only(self):
        doc = self.get('/v1/nodes/mine/children',
                       headers=self.project('reader'), version=V).json
        self.assertEqual([self.db.get_node_by_name('dpu').uuid],
                         doc['children'])
        # Another project's parent does not exist for it.
        self.get('/v1/nodes/theirs/children',
                 headers=self.project('reader'), version=V, status=404)

    def test_parent_of_another_project_400(self):
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'parent_node': 'theirs'},
                      headers=self.project('admin'), version=V,
                      status=400)
        self.assertFault(r, 400, 'parent_node')
