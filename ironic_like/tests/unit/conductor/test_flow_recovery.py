"""Where a node's work carries on when its conductor died between a state
change and the start of the flow it announced (no flow record)."""

import types

import testtools

from ironic_like.common import agent_info
from ironic_like.common import states
from ironic_like.conductor.flows import clean
from ironic_like.conductor.flows import deploy
from ironic_like.conductor.flows import runner
from ironic_like.conductor.flows import service


def _node(state, target=None, **info):
    return types.SimpleNamespace(provision_state=state,
                                 target_provision_state=target,
                                 driver_internal_info=info)


class TestRestartPoint(testtools.TestCase):

    def test_deploy(self):
        phase = agent_info.PHASE
        self.assertEqual(deploy.BOOT_RAMDISK,
                         runner.restart_point(_node(states.DEPLOYING)))
        self.assertEqual(deploy.WRITE_IMAGE, runner.restart_point(_node(
            states.DEPLOYING, **{phase: deploy.PHASE_WRITE_IMAGE})))
        self.assertEqual(runner.WAIT_AGAIN, runner.restart_point(_node(
            states.DEPLOYING, **{phase: deploy.PHASE_IMAGE_RUNNING})))

    def test_tear_down(self):
        self.assertEqual(clean.TEARDOWN,
                         runner.restart_point(_node(states.DELETING)))

    def test_clean(self):
        phase, cmd = agent_info.PHASE, agent_info.COMMAND
        steps = [{'step': 'erase_devices'}]
        self.assertEqual(clean.BOOT_RAMDISK, runner.restart_point(
            _node(states.CLEANING, states.AVAILABLE)))
        self.assertEqual(clean.START_STEPS, runner.restart_point(_node(
            states.CLEANING, states.AVAILABLE,
            **{phase: clean.PHASE_GET_STEPS})))
        # Steps chosen, the first not started yet.
        self.assertEqual(clean.NEXT_STEP, runner.restart_point(_node(
            states.CLEANING, states.AVAILABLE,
            **{phase: clean.PHASE_GET_STEPS, clean.STEPS: steps,
               clean.INDEX: 0})))
        # A step running on the agent: wait for the next heartbeat.
        self.assertEqual(runner.WAIT_AGAIN, runner.restart_point(_node(
            states.CLEANING, states.AVAILABLE,
            **{phase: clean.PHASE_STEP_RUNNING, clean.STEPS: steps,
               clean.INDEX: 0, cmd: 'abc'})))
        # The last step done: finish.
        self.assertEqual(clean.FINISH, runner.restart_point(_node(
            states.CLEANING, states.AVAILABLE,
            **{phase: clean.PHASE_STEP_RUNNING, clean.STEPS: steps,
               clean.INDEX: 1})))

    def test_manual_clean_without_its_steps_cannot_go_on(self):
        self.assertIsNone(runner.restart_point(
            _node(states.CLEANING, states.MANAGEABLE)))
        self.assertEqual(clean.BOOT_RAMDISK, runner.restart_point(_node(
            states.CLEANING, states.MANAGEABLE,
            **{clean.REQUESTED: [{'step': 'update_firmware'}]})))

    def test_service(self):
        phase, cmd = agent_info.PHASE, agent_info.COMMAND
        steps = [{'step': 'update_firmware'}]
        requested = {service.REQUESTED: steps}
        # The requested steps never reached the node: nothing to go on.
        self.assertIsNone(runner.restart_point(_node(states.SERVICING)))
        self.assertEqual(service.BOOT_RAMDISK, runner.restart_point(
            _node(states.SERVICING, **requested)))
        self.assertEqual(service.START_STEPS, runner.restart_point(_node(
            states.SERVICING, **dict(requested,
                                     **{phase: service.PHASE_GET_STEPS}))))
        self.assertEqual(runner.WAIT_AGAIN, runner.restart_point(_node(
            states.SERVICING, **{phase: service.PHASE_STEP_RUNNING,
                                 service.STEPS: steps, service.INDEX: 0,
                                 cmd: 'abc'})))
        self.assertEqual(service.FINISH, runner.restart_point(_node(
            states.SERVICING, **{phase: service.PHASE_STEP_RUNNING,
                                 service.STEPS: steps, service.INDEX: 1})))

    def test_other_states(self):
        self.assertIsNone(runner.restart_point(_node(states.VERIFYING)))
