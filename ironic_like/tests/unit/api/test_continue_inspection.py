"""POST /v1/continue_inspection (Ironic 1.84): the inventory an
inspecting agent posts, with a running conductor and fake power and
boot."""

from ironic_like.api.middleware import public_routes
from ironic_like.common import agent_token
from ironic_like.common import states
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.conductor import test_inspection

URL = '/v1/continue_inspection'
V = '1.84'
BOOT_MAC = test_inspection.BOOT_MAC
INVENTORY = test_inspection.INVENTORY


def _settled(node):
    return node.provision_state not in states.TRANSIENT_STATES


class TestContinueInspection(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.config(lookup_failures_per_minute=0, group='agent')
        self.node = self.create_node(
            provision_state=states.MANAGEABLE, deploy_interface='agent',
            boot_interface='fake', inspect_interface='agent',
            driver_info={'redfish_address': 'https://10.1.2.3:8000'})
        self.create_port(self.node, address=BOOT_MAC)
        self.put('/v1/nodes/%s/states/provision' % self.node.uuid,
                 {'target': 'inspect'})
        self.wait_for(self.node.uuid,
                      lambda n: n.provision_state == states.INSPECTWAIT)

    def _finished(self):
        return self.wait_for(self.node.uuid, _settled)

    def test_post_at_1_84(self):
        doc = self.post(URL, {'inventory': INVENTORY, 'extra': 'data'},
                        version=V, status=202).json
        # A lookup's answer: the agent heartbeats with this token next.
        self.assertEqual(self.node.uuid, doc['node']['uuid'])
        token = doc['config']['agent_token']
        self.assertTrue(doc['config']['agent_token_required'])
        node = self._finished()
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertEqual(4, node.properties['cpus'])
        kept = self.get('/v1/nodes/%s/inventory' % self.node.uuid,
                        version=V).json
        self.assertEqual(INVENTORY, kept['inventory'])
        self.assertEqual('data', kept['plugin_data']['extra'])
        self.assertNotEqual(agent_token.MASK, token)

    def test_post_at_1_1_answers_as_inspector(self):
        doc = self.post(URL, {'inventory': INVENTORY}, version='1.1',
                        status=202).json
        self.assertEqual({'uuid': self.node.uuid}, doc)
        self.assertEqual(states.MANAGEABLE, self._finished().provision_state)

    def test_by_node_uuid(self):
        inventory = dict(INVENTORY, interfaces=[
            {'name': 'eth9', 'mac_address': '52:54:00:99:99:99'}])
        self.post(URL + '?node_uuid=%s' % self.node.uuid,
                  {'inventory': inventory}, version=V, status=202)
        self.assertEqual(states.MANAGEABLE, self._finished().provision_state)

    def test_by_bmc_address(self):
        inventory = dict(INVENTORY, bmc_address='10.1.2.3', interfaces=[
            {'name': 'eth9', 'mac_address': '52:54:00:99:99:99'}])
        self.post(URL, {'inventory': inventory}, version=V, status=202)
        self.assertEqual(states.MANAGEABLE, self._finished().provision_state)

    def test_other_versions_404(self):
        for version in ('1.2', '1.83'):
            self.post(URL, {'inventory': INVENTORY}, version=version,
                      status=404)
        # node_uuid came with 1.84.
        self.post(URL + '?node_uuid=%s' % self.node.uuid,
                  {'inventory': INVENTORY}, version='1.1', status=404)
        self.assertEqual(states.INSPECTWAIT, self.db.get_node_by_id(
            self.node.id).provision_state)

    def test_bad_bodies_400(self):
        for body, field in (({}, 'inventory'),
                            ({'inventory': {'interfaces': []}},
                             'non-empty'),
                            ({'inventory': {'interfaces': [{}]}},
                             'mac_address'),
                            ({'inventory': {'interfaces': [
                                {'mac_address': 'nonsense'}]}},
                             'inventory.interfaces')):
            r = self.post(URL, body, version=V, status=400)
            self.assertFault(r, 400, field)
        r = self.post(URL + '?node_uuid=nope', {'inventory': INVENTORY},
                      version=V, status=400)
        self.assertFault(r, 400, 'node_uuid')
        self.assertEqual(states.INSPECTWAIT, self.db.get_node_by_id(
            self.node.id).provision_state)

    def test_no_matching_node_404(self):
        inventory = dict(INVENTORY, interfaces=[
            {'name': 'eth9', 'mac_address': '52:54:00:99:99:99'}])
        r = self.post(URL, {'inventory': inventory}, version=V, status=404)
        self.assertIn('No node is waiting', r.json['error_message'])
        # A MAC of one node and the BMC of another: neither is updated.
        other = self.create_node(provision_state=states.INSPECTWAIT,
                                 driver_info={'ipmi_address': '10.9.9.9'})
        self.post(URL, {'inventory': dict(INVENTORY,
                                          bmc_address='10.9.9.9')},
                  version=V, status=404)
        self.assertEqual(states.INSPECTWAIT, self.db.get_node_by_id(
            other.id).provision_state)

    def test_node_not_waiting_404(self):
        self.put('/v1/nodes/%s/states/provision' % self.node.uuid,
                 {'target': 'abort'})
        self.wait_for(self.node.uuid,
                      lambda n: n.provision_state == states.INSPECTFAIL)
        self.post(URL, {'inventory': INVENTORY}, version=V, status=404)
        self.assertEqual({}, {k: v for k, v in self.db.get_node_by_id(
            self.node.id).properties.items() if k == 'cpus'})

    def test_public_route(self):
        self.assertTrue(public_routes.is_public(URL))
