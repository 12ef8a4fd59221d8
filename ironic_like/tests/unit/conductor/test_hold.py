"""The "hold" clean and deploy step and the "unhold" verb (API 1.85),
with a running conductor and a fake agent."""

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import clean
from ironic_like.conductor.flows import deploy
from ironic_like.tests.unit.conductor import test_agent_deploy
from ironic_like.tests.unit.db import utils

FIRMWARE = {'interface': 'deploy', 'step': 'update_firmware',
            'args': {'firmware_images': [{'url': 'http://x/fw'}]}}
BIOS = {'interface': 'deploy', 'step': 'apply_bios_settings',
        'args': {'settings': [{'name': 'a', 'value': 'b'}]}}
HOLD = {'interface': 'deploy', 'step': 'hold'}


class TestCleanHold(test_agent_deploy.AgentDeployBase):

    def _executed(self):
        return [p['step']['step'] for n, p, q in self.agent.received
                if n == clean.EXECUTE_CLEAN_STEP]

    def _to_hold(self):
        node = self._node(provision_state=states.MANAGEABLE)
        node = self._act(node, 'clean',
                         {'clean_steps': [FIRMWARE, HOLD, BIOS]})
        node = self._give_token(node)
        node = self._heartbeat(node)   # steps read, firmware started
        node = self._heartbeat(node)   # firmware done: the hold
        self.assertEqual(states.CLEANHOLD, node.provision_state)
        self.assertEqual(states.MANAGEABLE, node.target_provision_state)
        self.assertEqual(['update_firmware'], self._executed())
        return node

    def test_hold_then_unhold(self):
        node = self._to_hold()
        # The agent still heartbeats; nothing moves while on hold.
        node = self._heartbeat(node)
        self.assertEqual(states.CLEANHOLD, node.provision_state)
        self.assertEqual(['update_firmware'], self._executed())
        node = self._act(node, 'unhold')
        self.assertEqual(states.CLEANWAIT, node.provision_state)
        self.assertEqual(clean.PHASE_NEXT_STEP, self._phase(node))
        node = self._heartbeat(node)   # BIOS started
        node = self._heartbeat(node)   # BIOS done: finished
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual(['update_firmware', 'apply_bios_settings'],
                         self._executed())

    def test_abort_on_hold(self):
        node = self._act(self._to_hold(), 'abort')
        node = self._wait_powered_off(node)
        self.assertEqual(states.CLEANFAIL, node.provision_state)
        self.assertEqual('Aborted by request.', node.last_error)
        self.assertEqual(['update_firmware'], self._executed())

    def _wait_powered_off(self, node):
        return utils.wait_for_node(
            node.uuid, lambda n: self._power(n) == states.POWER_OFF)

    def test_unhold_needs_a_hold(self):
        node = self._node(provision_state=states.MANAGEABLE)
        self.assertRaises(exception.InvalidStateRequested,
                          self.api.do_provisioning_action, self.context,
                          node, 'unhold', {})
        # "hold" itself is the conductor's, never an operator's.
        self.assertRaises(exception.InvalidStateRequested,
                          self.api.do_provisioning_action, self.context,
                          self._to_hold(), 'hold', {})


class TestDeployHold(test_agent_deploy.AgentDeployBase):

    def test_hold_then_unhold(self):
        node = self._node()
        node = self._act(node, 'deploy', {'deploy_steps': [
            dict(HOLD, args={}, priority=70)]})
        node = self._give_token(node)
        node = self._heartbeat(node)   # image write started
        node = self._heartbeat(node)   # image written: the hold
        self.assertEqual(states.DEPLOYHOLD, node.provision_state)
        self.assertEqual(states.ACTIVE, node.target_provision_state)
        # Still in the ramdisk: not booted from disk, not rebooted.
        self.assertEqual(states.POWER_ON, self._power(node))
        self.assertIsNone(self._phase(node))
        node = self._heartbeat(node)
        self.assertEqual(states.DEPLOYHOLD, node.provision_state)
        node = self._act(node, 'unhold')
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        self.assertEqual(deploy.PHASE_RUN_STEPS, self._phase(node))
        node = self._heartbeat(node)
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertNotIn(deploy.EXECUTE_DEPLOY_STEP, self.agent.names())

    def test_abort_on_hold(self):
        node = self._node()
        node = self._act(node, 'deploy', {'deploy_steps': [
            dict(HOLD, args={}, priority=70)]})
        node = self._heartbeat(self._give_token(node))
        node = self._heartbeat(node)
        self.assertEqual(states.DEPLOYHOLD, node.provision_state)
        node = self._act(node, 'abort')
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)


class TestHoldWithoutFlows(test_agent_deploy.AgentDeployBase):
    """The fake deploy interface runs no node flows and nothing
    heartbeats: unhold carries on at once."""

    def test_hold_then_unhold(self):
        node = utils.create_test_node(provision_state=states.MANAGEABLE)
        node = self._act(node, 'clean', {'clean_steps': [HOLD, BIOS]})
        self.assertEqual(states.CLEANHOLD, node.provision_state)
        self.assertEqual(states.MANAGEABLE, node.target_provision_state)
        node = self._act(node, 'unhold')
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.target_provision_state)
        self.assertNotIn('steps_after_hold',
                         node.driver_internal_info)

    def test_abort_on_hold(self):
        node = utils.create_test_node(provision_state=states.MANAGEABLE)
        node = self._act(node, 'clean', {'clean_steps': [HOLD]})
        node = self._act(node, 'abort')
        self.assertEqual(states.CLEANFAIL, node.provision_state)
        self.assertNotIn('steps_after_hold',
                         node.driver_internal_info)
