"""Ironic's self-owned nodes ([api]project_admin_can_manage_own_nodes,
marked by API 1.80): a project's admin enrols nodes its project owns and
deletes them; nobody else gains anything."""

from ironic_like.tests.unit.api import test_auth


class TestSelfOwnedNodes(test_auth.KeystoneTestCase):

    def count(self):
        return len(self.db.get_node_list())

    def test_project_admin_creates_a_node_its_project_owns(self):
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'name': 'own'},
                      headers=self.project('admin'), version='1.80')
        self.assertEqual('p1', r.json['owner'])
        self.assertEqual('p1', self.db.get_node_by_uuid(
            r.json['uuid']).owner)
        # Its project's readers see it.
        self.get('/v1/nodes/own', headers=self.project('reader'))

    def test_own_project_as_owner_is_accepted(self):
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'owner': 'p1'},
                      headers=self.project('admin'))
        self.assertEqual('p1', self.db.get_node_by_uuid(
            r.json['uuid']).owner)

    def test_another_owner_is_refused_and_nothing_created(self):
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'owner': 'p2'},
                      headers=self.project('admin'), status=400)
        self.assertFault(r, 400, 'owner other than your own project')
        self.assertEqual(0, self.count())

    def test_service_user_creates_a_node_of_its_project(self):
        r = self.post('/v1/nodes', {'driver': 'fake-hardware'},
                      headers=self.project('service', 'svc'))
        self.assertEqual('svc', self.db.get_node_by_uuid(
            r.json['uuid']).owner)

    def test_project_member_may_not_create(self):
        self.post('/v1/nodes', {'driver': 'fake-hardware'},
                  headers=self.project('member'), status=403)
        self.assertEqual(0, self.count())

    def test_option_off_refuses_project_admin(self):
        self.config(project_admin_can_manage_own_nodes=False, group='api')
        self.post('/v1/nodes', {'driver': 'fake-hardware'},
                  headers=self.project('admin'), status=403)
        self.assertEqual(0, self.count())

    def test_system_admin_node_keeps_the_owner_asked(self):
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'owner': 'p7'},
                      headers=self.system('admin'))
        self.assertEqual('p7', r.json['owner'])
        r = self.post('/v1/nodes', {'driver': 'fake-hardware'},
                      headers=self.system('admin'))
        self.assertIsNone(r.json['owner'])

    def test_project_admin_deletes_its_own_node_only(self):
        mine = self.create_node(name='mine', owner='p1')
        self.create_node(name='theirs', owner='p2')
        leased = self.create_node(name='leased', owner='p9', lessee='p1')
        admin = self.project('admin')
        # Another project's node: not even seen.
        self.delete('/v1/nodes/theirs', headers=admin, status=404)
        # Leased, not owned: seen but not deleted.
        self.delete('/v1/nodes/leased', headers=admin, status=403)
        self.db.get_node_by_uuid(leased.uuid)
        self.delete('/v1/nodes/mine', headers=self.project('member'),
                    status=403)
        self.delete('/v1/nodes/mine', headers=admin)
        self.assertEqual(['leased', 'theirs'],
                         sorted(n.name for n in self.db.get_node_list()))
        self.assertNotIn(mine.uuid,
                         [n.uuid for n in self.db.get_node_list()])

    def test_option_off_refuses_project_admin_delete(self):
        self.config(project_admin_can_manage_own_nodes=False, group='api')
        self.create_node(name='mine', owner='p1')
        self.delete('/v1/nodes/mine', headers=self.project('admin'),
                    status=403)
        self.assertEqual(1, self.count())
