"""Servicing an active node (API 1.87) with a running conductor and a
fake agent: the ramdisk boots, the steps run, the instance boots again."""

from ironic_like.common import current_steps
from ironic_like.common import exception
from ironic_like.common import service_steps
from ironic_like.common import states
from ironic_like.conductor.flows import service
from ironic_like.drivers.modules import fake
from ironic_like.tests.unit.conductor import test_agent_deploy
from ironic_like.tests.unit.conductor import test_hold
from ironic_like.tests.unit.db import utils

FIRMWARE = test_hold.FIRMWARE
BIOS = test_hold.BIOS
HOLD = test_hold.HOLD


class TestServicing(test_agent_deploy.AgentDeployBase):

    def _executed(self):
        return [p['step']['step'] for n, p, q in self.agent.received
                if n == service.EXECUTE_SERVICE_STEP]

    def _active(self):
        node = self._deploy_to_active(self._node())
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.agent.received.clear()
        return node

    def _service(self, node, steps):
        node = self._act(node, 'service', {'service_steps': steps})
        self.assertEqual(states.SERVICEWAIT, node.provision_state)
        self.assertEqual(states.ACTIVE, node.target_provision_state)
        self.assertEqual(service.PHASE_GET_STEPS, self._phase(node))
        return self._give_token(node)

    def test_service_steps_then_active(self):
        node = self._service(self._active(), [FIRMWARE, BIOS])
        node = self._heartbeat(node)   # steps read, firmware started
        self.assertEqual(states.SERVICEWAIT, node.provision_state)
        self.assertEqual('update_firmware',
                         current_steps.service_step(node)['step'])
        node = self._heartbeat(node)   # firmware done, BIOS started
        node = self._heartbeat(node)   # BIOS done: the instance boots
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.target_provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual(['update_firmware', 'apply_bios_settings'],
                         self._executed())
        self.assertEqual(FIRMWARE['args'], [
            p['step']['args'] for n, p, q in self.agent.received
            if n == service.EXECUTE_SERVICE_STEP][0])
        self.assertEqual(states.POWER_ON, self._power(node))
        self.assertEqual({}, current_steps.service_step(node))
        self.assertNotIn(service_steps.STEPS, node.driver_internal_info)

    def test_hold_and_unhold(self):
        node = self._service(self._active(), [HOLD, BIOS])
        node = self._heartbeat(node)
        self.assertEqual(states.SERVICEHOLD, node.provision_state)
        self.assertEqual([], self._executed())
        node = self._act(node, 'unhold')
        self.assertEqual(states.SERVICEWAIT, node.provision_state)
        node = self._heartbeat(node)
        node = self._heartbeat(node)
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertEqual(['apply_bios_settings'], self._executed())

    def test_unknown_step_fails_then_abort_boots_the_instance(self):
        node = self._service(self._active(), [
            {'interface': 'deploy', 'step': 'make_coffee'}])
        node = self._heartbeat(node)
        self.assertEqual(states.SERVICEFAIL, node.provision_state)
        self.assertIn('make_coffee', node.last_error)
        self.assertEqual(states.POWER_OFF, self._power(node))
        node = self._act(node, 'abort')
        node = utils.wait_for_node(
            node.uuid, lambda n: self._power(n) == states.POWER_ON)
        self.assertEqual(states.ACTIVE, node.provision_state)

    def test_failed_step(self):
        self.agent.fail[service.EXECUTE_SERVICE_STEP] = 'disk on fire'
        node = self._service(self._active(), [FIRMWARE])
        node = self._heartbeat(node)
        node = self._heartbeat(node)
        self.assertEqual(states.SERVICEFAIL, node.provision_state)
        self.assertIn('disk on fire', node.last_error)
        self.assertIn('update_firmware', node.last_error)

    def test_only_active_nodes(self):
        node = self._node()
        self.assertRaises(exception.InvalidStateRequested,
                          self.api.do_provisioning_action, self.context,
                          node, 'service', {'service_steps': [FIRMWARE]})


class TestServicingWithoutRamdisk(test_agent_deploy.AgentDeployBase):
    """disable_ramdisk (API 1.108): no agent boots; only "hold" steps."""

    def test_steps_needing_the_agent_refused(self):
        node = utils.create_test_node(provision_state=states.ACTIVE,
                                      deploy_interface='agent',
                                      boot_interface='fake')
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.api.do_provisioning_action, self.context,
                              node, 'service', {'service_steps': [BIOS],
                                                'disable_ramdisk': True})
        self.assertEqual('service_steps', e.field)
        self.assertEqual(states.ACTIVE, self.db.get_node_by_id(
            node.id).provision_state)

    def test_hold_without_ramdisk(self):
        node = utils.create_test_node(
            provision_state=states.ACTIVE, deploy_interface='agent',
            boot_interface='fake', power_state=states.POWER_ON,
            driver_internal_info={fake.FAKE_POWER_KEY: states.POWER_ON})
        node = self._act(node, 'service', {'service_steps': [HOLD, HOLD],
                                           'disable_ramdisk': True})
        self.assertEqual(states.SERVICEHOLD, node.provision_state)
        for _ in range(2):
            node = self._act(node, 'unhold')
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        # Never rebooted into a ramdisk: no agent was asked anything.
        self.assertEqual([], self.agent.received)
        self.assertEqual(states.POWER_ON, self._power(node))


class TestServicingWithoutFlows(test_agent_deploy.AgentDeployBase):

    def test_fake_deploy(self):
        node = utils.create_test_node(provision_state=states.ACTIVE)
        node = self._act(node, 'service', {'service_steps': [HOLD, BIOS]})
        self.assertEqual(states.SERVICEHOLD, node.provision_state)
        node = self._act(node, 'unhold')
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
