"""/v1/nodes/{id}/vifs (Ironic 1.28), through the real conductor."""

from ironic_like.common import states
from ironic_like.conductor import vifs
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth

VIF1 = '6d6b0e3f-6e1c-4c55-8a7e-3f1f6c1f2a01'
VIF2 = '6d6b0e3f-6e1c-4c55-8a7e-3f1f6c1f2a02'


class TestNodeVifs(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1', network_interface='flat',
                                     provision_state=states.ACTIVE)
        self.url = '/v1/nodes/n1/vifs'

    def _vif_of_port(self, port):
        return vifs.attached_vif(self.db.get_port_by_id(port.id))

    def test_below_1_28_is_404(self):
        self.create_port(self.node)
        self.get(self.url, version='1.27', status=404)
        self.post(self.url, {'id': VIF1}, version='1.27', status=404)
        self.delete(self.url + '/' + VIF1, version='1.27', status=404)
        self.assertEqual([], self.get(self.url, version='1.28').json['vifs'])

    def test_attach_list_detach(self):
        port = self.create_port(self.node)
        self.assertEqual({'vifs': []}, self.get(self.url).json)
        r = self.post(self.url, {'id': VIF1}, status=204)
        self.assertEqual(b'', r.body)
        self.assertEqual({'vifs': [{'id': VIF1}]},
                         self.get(self.url, version='1.28').json)
        self.assertEqual(VIF1, self._vif_of_port(port))
        # The port shows it in its internal_info (1.18 on).
        doc = self.get('/v1/ports/%s' % port.uuid, version='1.18').json
        self.assertEqual({vifs.VIF_KEY: VIF1}, doc['internal_info'])
        self.assertNotIn('internal_info',
                         self.get('/v1/ports/%s' % port.uuid,
                                  version='1.17').json)
        r = self.delete(self.url + '/' + VIF1)
        self.assertEqual(b'', r.body)
        self.assertEqual({'vifs': []}, self.get(self.url).json)
        self.assertIsNone(self._vif_of_port(port))

    def test_group_shows_its_vif(self):
        group = self.db.create_portgroup({'node_id': self.node.id,
                                          'name': 'bond0'})
        self.create_port(self.node, portgroup_id=group.id)
        self.post(self.url, {'id': VIF1}, status=204)
        doc = self.get('/v1/portgroups/bond0').json
        self.assertEqual({vifs.VIF_KEY: VIF1}, doc['internal_info'])

    def test_by_uuid_and_logical_vif_names(self):
        self.create_port(self.node)
        self.create_port(self.node)
        self.post('/v1/nodes/%s/vifs' % self.node.uuid,
                  {'id': 'my-vif', 'other': {'kept': True}}, status=204)
        self.post(self.url, {'id': VIF1}, status=204)
        self.assertEqual({'my-vif', VIF1},
                         {v['id'] for v in self.get(self.url).json['vifs']})
        self.delete(self.url + '/my-vif')

    def test_twice_is_409(self):
        self.create_port(self.node)
        self.create_port(self.node)
        self.post(self.url, {'id': VIF1}, status=204)
        r = self.post(self.url, {'id': VIF1}, status=409)
        self.assertFault(r, 409, 'VIF %s is already attached' % VIF1)

    def test_no_free_port_is_400(self):
        r = self.post(self.url, {'id': VIF1}, status=400)
        self.assertFault(r, 400, 'Unable to attach VIF %s, not enough free '
                                 'physical ports.' % VIF1)

    def test_detach_unknown_is_400(self):
        r = self.delete(self.url + '/' + VIF2, status=400)
        self.assertFault(r, 400, 'Unable to detach VIF %s from node %s '
                                 'because it is not attached to it.'
                         % (VIF2, self.node.uuid))

    def test_locked_node_is_409(self):
        self.create_port(self.node)
        self.db.reserve_node('other-conductor', self.node.id)
        r = self.post(self.url, {'id': VIF1}, status=409)
        self.assertFault(r, 409, 'locked')
        self.delete(self.url + '/' + VIF1, status=409)
        self.get(self.url)

    def test_noop_interface(self):
        self.create_node(name='n2', network_interface='noop')
        self.post('/v1/nodes/n2/vifs', {'id': VIF1}, status=204)
        self.assertEqual({'vifs': []}, self.get('/v1/nodes/n2/vifs').json)
        self.delete('/v1/nodes/n2/vifs/' + VIF1)

    def test_bad_bodies(self):
        for body, field in (({}, 'id'), ({'id': 5}, 'id'),
                            ({'id': 'a b'}, 'id'), ({'id': ''}, 'id')):
            r = self.post(self.url, body, status=400)
            self.assertFault(r, 400, field)
        r = self.post(self.url, ['x'], status=400)
        self.assertFault(r, 400, 'JSON object')

    def test_bad_vif_id_in_path(self):
        r = self.delete(self.url + '/a%20b', status=400)
        self.assertFault(r, 400, 'vif_id')

    def test_methods(self):
        self.app.put_json(self.url, {'id': VIF1},
                          headers=base.LATEST, status=405)
        self.app.get(self.url + '/' + VIF1, headers=base.LATEST,
                     status=405)
        self.get('/v1/nodes/missing/vifs', status=404)
        r = self.get(self.url + '?zz=1', status=400)
        self.assertFault(r, 400, 'zz')


class TestNodeVifsPolicy(test_auth.KeystoneTestCase):

    def setUp(self):
        super().setUp()
        self.mine = self.create_node(name='mine', owner='p1',
                                     network_interface='flat')
        self.leased = self.create_node(name='leased', owner='p9',
                                       lessee='p1',
                                       network_interface='flat')
        self.theirs = self.create_node(name='theirs', owner='p2',
                                       network_interface='flat')
        for node in (self.mine, self.leased, self.theirs):
            self.create_port(node)

    def test_owner_member(self):
        headers = self.project('member')
        self.get('/v1/nodes/mine/vifs', headers=headers)
        self.post('/v1/nodes/mine/vifs', {'id': VIF1}, headers=headers,
                  status=204)
        self.delete('/v1/nodes/mine/vifs/' + VIF1, headers=headers)
        # Another project's node does not exist for this user.
        self.get('/v1/nodes/theirs/vifs', headers=headers, status=404)
        self.post('/v1/nodes/theirs/vifs', {'id': VIF1}, headers=headers,
                  status=404)

    def test_lessee(self):
        # A lessee member may list, not attach; its admin may attach.
        r = self.post('/v1/nodes/leased/vifs', {'id': VIF1},
                      headers=self.project('member'), status=403)
        self.assertFault(r, 403, 'baremetal:node:vif:attach')
        self.get('/v1/nodes/leased/vifs', headers=self.project('reader'))
        self.post('/v1/nodes/leased/vifs', {'id': VIF1},
                  headers=self.project('admin'), status=204)
        self.delete('/v1/nodes/leased/vifs/' + VIF1,
                    headers=self.project('manager'))

    def test_readers(self):
        for headers in (self.project('reader'), self.system('reader')):
            self.get('/v1/nodes/mine/vifs', headers=headers)
            r = self.post('/v1/nodes/mine/vifs', {'id': VIF1},
                          headers=headers, status=403)
            self.assertFault(r, 403, 'baremetal:node:vif:attach')
            self.delete('/v1/nodes/mine/vifs/' + VIF1, headers=headers,
                        status=403)

    def test_system_member(self):
        headers = self.system('member')
        self.post('/v1/nodes/theirs/vifs', {'id': VIF1}, headers=headers,
                  status=204)
        self.assertEqual([{'id': VIF1}], self.get(
            '/v1/nodes/theirs/vifs', headers=headers).json['vifs'])
