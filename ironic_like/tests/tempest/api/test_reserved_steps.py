"""Ironic's reserved step names in manual cleaning (power_on, power_off,
wait), run by the conductor itself: a fake-hardware node (fake deploy and
boot interfaces) boots no ramdisk for them and goes back to manageable.
And the step options for child nodes refused when they make no sense."""

import time

from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base

WAIT_SECONDS = 1
STEPS = [{'interface': 'power', 'step': 'power_off'},
         {'interface': 'power', 'step': 'wait',
          'args': {'seconds': WAIT_SECONDS}},
         {'interface': 'power', 'step': 'power_on'}]


class TestReservedSteps(base.BaseBaremetalLikeTest):

    # 1.83: child nodes (parent_node), for the negative test.
    min_microversion = '1.83'

    def _manageable_node(self, **fields):
        node = self.create_node(**fields)
        self.client.set_node_provision_state(node['uuid'], 'manage')
        self.wait_for_provision_state(node['uuid'], 'manageable')
        return node

    def _wait_for_power(self, uuid, power_state):
        return self.wait_for(
            lambda: self.client.show_node(uuid)['power_state'] ==
            power_state, 'node %s to be %s' % (uuid, power_state))

    @decorators.idempotent_id('70fa2ff0-3d41-4ca7-ba03-c0b0017456e5')
    def test_power_and_wait_steps(self):
        node = self._manageable_node()
        # Off first: "power on" at the end is then the last step's doing.
        self.client.set_node_power_state(node['uuid'], 'power off')
        self._wait_for_power(node['uuid'], 'power off')
        started = time.monotonic()
        self.client.set_node_provision_state(node['uuid'], 'clean',
                                             clean_steps=STEPS)
        done = self.wait_for_provision_state(node['uuid'], 'manageable')
        # Manageable again only once the steps are over: the wait step
        # took its second.
        self.assertGreaterEqual(time.monotonic() - started, WAIT_SECONDS)
        self.assertIsNone(done['last_error'])
        self.assertEqual({}, done['clean_step'])
        self.assertEqual('power on', done['power_state'])
        self.assertIsNone(done['target_power_state'])
        # And power_off, from on, takes the node's power off.
        self.client.set_node_provision_state(
            node['uuid'], 'clean', clean_steps=[STEPS[0]])
        done = self.wait_for_provision_state(node['uuid'], 'manageable')
        self.assertIsNone(done['last_error'])
        self.assertEqual('power off', done['power_state'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('9f1dd9ab-626e-49ce-b29a-439240cd39ae')
    def test_child_limit_without_execute_on_child_nodes(self):
        parent = self._manageable_node()
        child = self.create_node(parent_node=parent['uuid'])
        # Without execute_on_child_nodes the step would run on the parent
        # itself: refused (400) before the node moves.
        steps = [{'interface': 'power', 'step': 'power_off',
                  'limit_child_node_execution': [child['uuid']]}]
        self.assertRaises(lib_exc.BadRequest,
                          self.client.set_node_provision_state,
                          parent['uuid'], 'clean', clean_steps=steps)
        shown = self.client.show_node(parent['uuid'])
        self.assertEqual('manageable', shown['provision_state'])
        self.assertIsNone(shown['target_provision_state'])
