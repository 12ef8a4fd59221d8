"""The "unhold" provision verb (Ironic 1.85) through the API: its
microversion, and the hold states it leaves."""

from ironic_like.common import agent_info
from ironic_like.common import states
from ironic_like.tests.unit.api import base


class TestUnholdVerb(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        # Held with its agent running: unhold waits for its heartbeat.
        self.node = self.create_node(
            provision_state=states.CLEANHOLD,
            target_provision_state=states.MANAGEABLE,
            deploy_interface='agent', boot_interface='fake',
            driver_internal_info={
                agent_info.AGENT_URL: 'http://127.0.0.1:9999'})
        self.url = '/v1/nodes/%s/states/provision' % self.node.uuid

    def test_needs_1_85(self):
        r = self.put(self.url, {'target': 'unhold'}, version='1.84',
                     status=406)
        self.assertFault(r, 406, 'unhold')
        self.assertEqual(states.CLEANHOLD, self.db.get_node_by_id(
            self.node.id).provision_state)

    def test_unhold(self):
        self.put(self.url, {'target': 'unhold'}, version='1.85')
        node = self.db.get_node_by_id(self.node.id)
        self.assertEqual(states.CLEANWAIT, node.provision_state)
        self.assertEqual(states.MANAGEABLE, node.target_provision_state)
        self.assertEqual(states.CLEANWAIT, self.get(
            '/v1/nodes/%s' % self.node.uuid).json['provision_state'])

    def test_only_on_hold(self):
        self.db.update_node(self.node.id,
                            {'provision_state': states.MANAGEABLE,
                             'target_provision_state': None})
        r = self.put(self.url, {'target': 'unhold'}, version='1.85',
                     status=400)
        self.assertFault(r, 400, 'unhold')

    def test_hold_is_not_a_verb(self):
        r = self.put(self.url, {'target': 'hold'}, version='1.85',
                     status=400)
        self.assertFault(r, 400, 'hold')
