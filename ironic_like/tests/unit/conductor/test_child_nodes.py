"""Power of parent and child nodes (conductor/child_nodes.py)."""

from ironic_like.common import states
from ironic_like.drivers.modules import fake
from ironic_like.tests.unit.conductor import utils as cond_utils
from ironic_like.tests.unit.db import utils


def _settled(node):
    return node.target_power_state is None


def _power(node):
    return (node.driver_internal_info or {}).get(fake.FAKE_POWER_KEY,
                                                 node.power_state)


class TestChildNodePower(cond_utils.ConductorTestCase):

    def setUp(self):
        super().setUp()
        self.parent = utils.create_test_node(power_state=states.POWER_OFF)
        self.child = utils.create_test_node(
            power_state=states.POWER_OFF, parent_node=self.parent.uuid)
        self.own_supply = utils.create_test_node(
            power_state=states.POWER_OFF, parent_node=self.parent.uuid,
            driver_info={'has_dedicated_power_supply': 'true'})

    def _act(self, node, target):
        self.api.change_node_power_state(self.context, node, target)
        return utils.wait_for_node(node.uuid, _settled)

    def _state(self, node):
        return _power(self.db.get_node_by_id(node.id))

    def test_child_on_powers_the_parent_on(self):
        child = self._act(self.child, states.POWER_ON)
        self.assertEqual(states.POWER_ON, child.power_state)
        self.assertIsNone(child.last_error)
        parent = self.db.get_node_by_id(self.parent.id)
        self.assertEqual(states.POWER_ON, parent.power_state)
        self.assertIsNone(parent.reservation)

    def test_dedicated_supply_leaves_the_parent_alone(self):
        self._act(self.own_supply, states.POWER_ON)
        self.assertEqual(states.POWER_ON, self._state(self.own_supply))
        self.assertEqual(states.POWER_OFF, self._state(self.parent))

    def test_parent_off_powers_its_children_off(self):
        for node in (self.parent, self.child, self.own_supply):
            self._act(node, states.POWER_ON)
        parent = self._act(self.parent, states.POWER_OFF)
        self.assertEqual(states.POWER_OFF, parent.power_state)
        child = self.db.get_node_by_id(self.child.id)
        self.assertEqual(states.POWER_OFF, child.power_state)
        self.assertIsNone(child.reservation)
        # Its own power supply keeps it on.
        self.assertEqual(states.POWER_ON, self._state(self.own_supply))

    def test_locked_parent_fails_the_child_cleanly(self):
        self.db.reserve_node('other-host', self.parent.id)
        child = self._act(self.child, states.POWER_ON)
        self.assertEqual(states.POWER_OFF, _power(child))
        self.assertIn('parent node %s' % self.parent.uuid, child.last_error)
        self.assertIsNone(child.reservation)
        self.assertEqual('other-host',
                         self.db.get_node_by_id(self.parent.id).reservation)

    def test_locked_child_leaves_the_parent_on(self):
        for node in (self.parent, self.child):
            self._act(node, states.POWER_ON)
        self.db.reserve_node('other-host', self.child.id)
        parent = self._act(self.parent, states.POWER_OFF)
        self.assertEqual(states.POWER_ON, _power(parent))
        self.assertIn('child node %s' % self.child.uuid, parent.last_error)
        self.assertIsNone(parent.reservation)
        self.assertEqual(states.POWER_ON, self._state(self.child))

    def test_child_that_may_not_be_powered_off_keeps_the_parent_on(self):
        # API 1.95: the child's disable_power_off refuses the parent's
        # power off, and nothing is powered.
        for node in (self.parent, self.child):
            self._act(node, states.POWER_ON)
        self.db.update_node(self.child.id, {'disable_power_off': True})
        parent = self._act(self.parent, states.POWER_OFF)
        self.assertEqual(states.POWER_ON, _power(parent))
        self.assertIn('disable_power_off', parent.last_error)
        self.assertEqual(states.POWER_ON, self._state(self.child))
        self.assertIsNone(self.db.get_node_by_id(self.child.id).reservation)
