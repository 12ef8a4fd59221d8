"""The steps the conductor runs itself in manual cleaning and servicing
(conductor/flows/reserved_steps.py): the reserved step names power_on,
power_off, reboot and wait, and steps on child nodes
(execute_on_child_nodes, limit_child_node_execution); with a running
conductor, fake power and a fake agent."""

from unittest import mock

from ironic_like.common import agent_info
from ironic_like.common import agent_token
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import clean
from ironic_like.conductor.flows import persistence
from ironic_like.conductor.flows import reserved_steps
from ironic_like.conductor.flows import runner
from ironic_like.conductor.flows import service
from ironic_like.drivers import base as drivers_base
from ironic_like.drivers.modules import fake
from ironic_like.tests.unit.conductor import test_agent_deploy
from ironic_like.tests.unit.conductor import test_hold
from ironic_like.tests.unit.db import utils

FIRMWARE = test_hold.FIRMWARE
BIOS = test_hold.BIOS
HOLD = test_hold.HOLD
# Reserved names are the conductor's whatever interface they name.
POWER_ON = {'interface': 'power', 'step': 'power_on'}
POWER_OFF = {'interface': 'management', 'step': 'power_off'}
REBOOT = {'interface': 'deploy', 'step': 'reboot'}


def _wait(seconds=None):
    args = {} if seconds is None else {'seconds': seconds}
    return {'interface': 'deploy', 'step': 'wait', 'args': args}


def _on_children(step, *limit):
    step = dict(step, execute_on_child_nodes=True)
    if limit:
        step['limit_child_node_execution'] = list(limit)
    return step


class ReservedStepsBase(test_agent_deploy.AgentDeployBase):

    def setUp(self):
        super().setUp()
        # The fake power's calls, in order: (node uuid, call, state).
        self.power_calls = []
        real_set = fake.FakePower.set_power_state
        real_reboot = fake.FakePower.reboot

        def set_power_state(driver, task, power_state, timeout=None):
            self.power_calls.append((task.node.uuid, 'set', power_state))
            return real_set(driver, task, power_state, timeout)

        def reboot(driver, task, timeout=None):
            self.power_calls.append((task.node.uuid, 'reboot', None))
            return real_reboot(driver, task, timeout)

        self.power_mocks = {}
        for name, side_effect in (('set_power_state', set_power_state),
                                  ('reboot', reboot)):
            patcher = mock.patch.object(fake.FakePower, name,
                                        autospec=True,
                                        side_effect=side_effect)
            self.power_mocks[name] = patcher.start()
            self.addCleanup(patcher.stop)
        sleep = mock.patch.object(reserved_steps, '_sleep', autospec=True)
        self.sleep = sleep.start()
        self.addCleanup(sleep.stop)

    def _calls(self, node):
        return [(call, state) for uuid, call, state in self.power_calls
                if uuid == node.uuid]

    def _executed(self, command=clean.EXECUTE_CLEAN_STEP):
        return [p['step']['step'] for n, p, q in self.agent.received
                if n == command]

    def _manageable(self, **kwargs):
        return self._node(provision_state=states.MANAGEABLE, **kwargs)

    def _child(self, parent, **kwargs):
        values = {'parent_node': parent.uuid, 'power_state': states.POWER_ON,
                  'driver_internal_info': {
                      fake.FAKE_POWER_KEY: states.POWER_ON}}
        values.update(kwargs)
        return utils.create_test_node(**values)

    def _node_power(self, node):
        node = self.db.get_node_by_id(node.id)
        return self._power(node) or node.power_state


class TestReservedStepsWithTheAgent(ReservedStepsBase):
    """Manual cleaning through the agent's flows."""

    def _to_first_step(self, node, steps):
        node = self._act(node, 'clean', {'clean_steps': steps})
        self.assertEqual(states.CLEANWAIT, node.provision_state)
        self.power_calls.clear()
        node = self._give_token(node)
        return self._heartbeat(node)   # steps read, the first ones run

    def test_reboot_then_the_rebooted_agent_runs_the_next_step(self):
        node = self._to_first_step(self._manageable(),
                                   [FIRMWARE, REBOOT, BIOS])
        node = self._heartbeat(node)   # firmware done: the reboot
        self.assertEqual([('reboot', None)], self._calls(node))
        # The rebooted agent must look up again: token and URL gone, and
        # its first heartbeat starts the BIOS step.
        self.assertEqual(states.CLEANWAIT, node.provision_state)
        self.assertEqual(clean.PHASE_NEXT_STEP, self._phase(node))
        info = node.driver_internal_info
        self.assertFalse(agent_token.is_present(info))
        self.assertNotIn(agent_info.AGENT_URL, info)
        self.assertEqual(['update_firmware'], self._executed())
        self.assertEqual(2, info[clean.INDEX])
        node = self._heartbeat(self._give_token(node))   # BIOS started
        node = self._heartbeat(node)                     # BIOS done
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual(['update_firmware', 'apply_bios_settings'],
                         self._executed())

    def test_power_off_then_on_runs_at_once(self):
        node = self._to_first_step(self._manageable(),
                                   [FIRMWARE, POWER_OFF, POWER_ON, BIOS])
        node = self._heartbeat(node)   # firmware done: off, then on
        self.assertEqual([('set', states.POWER_OFF),
                          ('set', states.POWER_ON)], self._calls(node))
        self.assertEqual(states.POWER_ON, self._power(node))
        self.assertEqual(states.POWER_ON, node.power_state)
        # BIOS waits for the agent booted by power_on.
        self.assertEqual(states.CLEANWAIT, node.provision_state)
        self.assertEqual(clean.PHASE_NEXT_STEP, self._phase(node))
        self.assertEqual(3, node.driver_internal_info[clean.INDEX])
        node = self._heartbeat(self._give_token(node))
        node = self._heartbeat(node)
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertEqual(['update_firmware', 'apply_bios_settings'],
                         self._executed())

    def test_power_on_of_a_node_that_is_on_changes_nothing(self):
        node = self._to_first_step(self._manageable(),
                                   [POWER_ON, FIRMWARE])
        # The node is on (the ramdisk runs): nothing done, and the agent,
        # still there, is sent the firmware step at once.
        self.assertEqual([], self._calls(node))
        self.assertEqual(['update_firmware'], self._executed())
        self.assertEqual(clean.PHASE_STEP_RUNNING, self._phase(node))
        node = self._heartbeat(node)
        self.assertEqual(states.MANAGEABLE, node.provision_state)

    def test_wait_with_seconds_pauses_then_carries_on(self):
        node = self._to_first_step(self._manageable(),
                                   [_wait(5), FIRMWARE])
        self.sleep.assert_called_once_with(5)
        self.assertEqual(['update_firmware'], self._executed())
        node = self._heartbeat(node)
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)

    def test_wait_longer_than_allowed_is_cut_and_journaled(self):
        self.config(max_conductor_wait_step_seconds=7, group='conductor')
        node = self._to_first_step(self._manageable(),
                                   [_wait('600'), FIRMWARE])
        self.sleep.assert_called_once_with(7)
        events = [e.event for e in self.db.get_node_history_list(node.id)]
        self.assertTrue(any('600 seconds' in e for e in events), events)
        self.assertEqual(['update_firmware'], self._executed())

    def test_wait_without_seconds_waits_for_the_next_heartbeat(self):
        node = self._to_first_step(self._manageable(),
                                   [FIRMWARE, _wait(), BIOS])
        node = self._heartbeat(node)   # firmware done: the wait
        self.assertEqual(states.CLEANWAIT, node.provision_state)
        self.assertEqual(clean.PHASE_NEXT_STEP, self._phase(node))
        self.assertEqual(['update_firmware'], self._executed())
        self.sleep.assert_not_called()
        node = self._heartbeat(node)   # BIOS started (same agent)
        self.assertEqual(['update_firmware', 'apply_bios_settings'],
                         self._executed())
        node = self._heartbeat(node)
        self.assertEqual(states.MANAGEABLE, node.provision_state)

    def test_hold_is_run_by_the_conductor_step_flow(self):
        node = self._to_first_step(self._manageable(),
                                   [HOLD, FIRMWARE])
        self.assertEqual(states.CLEANHOLD, node.provision_state)
        self.assertEqual([], self._executed())
        node = self._act(node, 'unhold')
        node = self._heartbeat(node)
        node = self._heartbeat(node)
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertEqual(['update_firmware'], self._executed())

    def test_failed_power_step_fails_the_cleaning(self):
        node = self._to_first_step(self._manageable(),
                                   [FIRMWARE, REBOOT, BIOS])
        self.power_mocks['reboot'].side_effect = RuntimeError('BMC gone')
        node = self._heartbeat(node)
        self.assertEqual(states.CLEANFAIL, node.provision_state)
        self.assertIn('clean step reboot', node.last_error)
        self.assertIn('BMC gone', node.last_error)
        self.assertEqual(['update_firmware'], self._executed())

    def test_steps_on_children_with_the_agent(self):
        parent = self._manageable()
        first, second = self._child(parent), self._child(parent)
        node = self._to_first_step(
            parent, [_on_children(POWER_OFF, second.uuid), FIRMWARE])
        # Only the child listed; the parent keeps running its agent.
        self.assertEqual(states.POWER_ON, self._node_power(first))
        self.assertEqual(states.POWER_OFF, self._node_power(second))
        self.assertEqual(states.POWER_OFF, self.db.get_node_by_id(
            second.id).power_state)
        self.assertEqual([], self._calls(node))
        self.assertEqual(['update_firmware'], self._executed())
        self.assertIsNone(self.db.get_node_by_id(second.id).reservation)
        node = self._heartbeat(node)
        self.assertEqual(states.MANAGEABLE, node.provision_state)

    def test_servicing_reboot_and_wait(self):
        node = self._deploy_to_active(self._node())
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.agent.received.clear()
        node = self._act(node, 'service', {'service_steps': [
            FIRMWARE, REBOOT, _wait(3), BIOS]})
        node = self._heartbeat(self._give_token(node))  # firmware started
        self.power_calls.clear()
        node = self._heartbeat(node)   # firmware done: reboot, wait 3
        self.assertEqual([('reboot', None)], self._calls(node))
        self.sleep.assert_called_once_with(3)
        self.assertEqual(states.SERVICEWAIT, node.provision_state)
        self.assertEqual(service.PHASE_NEXT_STEP, self._phase(node))
        node = self._heartbeat(self._give_token(node))   # BIOS started
        node = self._heartbeat(node)                     # BIOS done
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual(['update_firmware', 'apply_bios_settings'],
                         self._executed(service.EXECUTE_SERVICE_STEP))


class TestStepsOnChildNodes(ReservedStepsBase):
    """Steps that are all the conductor's need no agent: the parent's
    ramdisk is not booted (as Ironic decides from requires_ramdisk)."""

    def setUp(self):
        super().setUp()
        self.parent = self._manageable(power_state=states.POWER_OFF)
        self.first = self._child(self.parent)
        self.second = self._child(self.parent)
        # Its own power supply: it would not follow its parent's power.
        self.third = self._child(self.parent, driver_info={
            'has_dedicated_power_supply': 'true'})
        self.stranger = utils.create_test_node(
            power_state=states.POWER_ON,
            driver_internal_info={fake.FAKE_POWER_KEY: states.POWER_ON})

    def _clean(self, steps):
        return self._act(self.parent, 'clean', {'clean_steps': steps})

    def test_all_children(self):
        node = self._clean([_on_children(POWER_OFF)])
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        for child in (self.first, self.second, self.third):
            self.assertEqual(states.POWER_OFF, self._node_power(child))
        self.assertEqual(states.POWER_ON, self._node_power(self.stranger))
        # No ramdisk booted: the parent was never powered on.
        self.assertEqual([], self._calls(self.parent))
        self.assertEqual([], self.agent.received)

    def test_limit_list(self):
        node = self._clean([_on_children(REBOOT, self.first.uuid.upper(),
                                         self.third.uuid)])
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertEqual([('reboot', None)], self._calls(self.first))
        self.assertEqual([('reboot', None)], self._calls(self.third))
        self.assertEqual([], self._calls(self.second))

    def _children_off(self):
        for child in (self.first, self.second):
            self.db.update_node(child.id, {
                'power_state': states.POWER_OFF, 'driver_internal_info': {
                    fake.FAKE_POWER_KEY: states.POWER_OFF}})

    def test_child_power_on_needs_its_parent_on(self):
        # A child draws its parent's power, and the parent's cleaning
        # holds the parent's lock: the parent is not powered on behind
        # it (as Ironic's ParentNodeLocked), the step fails naming it.
        self._children_off()
        node = self._clean([_on_children(POWER_ON, self.first.uuid)])
        self.assertEqual(states.CLEANFAIL, node.provision_state)
        self.assertIn('parent node %s' % self.parent.uuid, node.last_error)
        self.assertEqual(states.POWER_OFF, self._node_power(self.first))

    def test_parent_powered_on_first_then_its_child(self):
        # What the operator asks instead: the parent on, then the child
        # (whose power action needs no lock of a parent that is on).
        self._children_off()
        node = self._clean([POWER_ON, _on_children(POWER_ON,
                                                   self.first.uuid)])
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual(states.POWER_ON, self._node_power(self.parent))
        self.assertEqual(states.POWER_ON, self._node_power(self.first))
        self.assertEqual(states.POWER_OFF, self._node_power(self.second))

    def test_locked_child_fails_the_cleaning(self):
        self.config(node_locked_retry_attempts=1, group='conductor')
        self.db.reserve_node('other-host', self.second.id)
        node = self._clean([_on_children(POWER_OFF)])
        self.assertEqual(states.CLEANFAIL, node.provision_state)
        self.assertIn('power_off', node.last_error)
        self.assertIn('child node %s' % self.second.uuid, node.last_error)
        self.assertEqual('other-host', self.db.get_node_by_id(
            self.second.id).reservation)

    def test_child_that_may_not_be_powered_off(self):
        self.db.update_node(self.first.id, {'disable_power_off': True})
        node = self._clean([_on_children(POWER_OFF, self.first.uuid)])
        self.assertEqual(states.CLEANFAIL, node.provision_state)
        self.assertIn('disable_power_off', node.last_error)
        self.assertEqual(states.POWER_ON, self._node_power(self.first))

    def _probe(self, mark):
        """A ``probe`` step of the fake management interface, marked with
        ``mark`` (drivers.base.clean_step or service_step), taking
        ``level``; returns the (node uuid, args) of its runs."""
        runs = []

        @mark(argsinfo={'level': {'description': 'how hard'}})
        def probe(interface, task, **args):
            runs.append((task.node.uuid, args))
        patcher = mock.patch.object(fake.FakeManagement, 'probe', probe,
                                    create=True)
        patcher.start()
        self.addCleanup(patcher.stop)
        return runs

    def test_interface_step_on_children(self):
        runs = self._probe(drivers_base.clean_step)
        step = _on_children({'interface': 'management', 'step': 'probe',
                             'args': {'level': 2}}, self.first.uuid,
                            self.second.uuid)
        node = self._clean([step])
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        # One child after another, in the order they were enrolled.
        self.assertEqual([(self.first.uuid, {'level': 2}),
                          (self.second.uuid, {'level': 2})], runs)
        # Nothing booted, each child unlocked again.
        self.assertEqual([], self.agent.received)
        for child in (self.first, self.second):
            self.assertIsNone(self.db.get_node_by_id(child.id).reservation)

    def test_interface_step_on_children_checked_first(self):
        runs = self._probe(drivers_base.service_step)
        for step, why in (
                # A service step only: not a clean step of the children.
                ({'interface': 'management', 'step': 'probe'},
                 'not a clean step'),
                # A method that is no step at all.
                ({'interface': 'management', 'step': 'inject_nmi'},
                 'not a clean step')):
            e = self.assertRaises(
                exception.InvalidParameterValue,
                self.api.do_provisioning_action, self.context, self.parent,
                'clean', {'clean_steps': [_on_children(step)]})
            self.assertIn(why, str(e))
            self.assertEqual('clean_steps', e.kwargs.get('field'))
        runs = self._probe(drivers_base.clean_step)
        e = self.assertRaises(
            exception.InvalidParameterValue, self.api.do_provisioning_action,
            self.context, self.parent, 'clean', {'clean_steps': [
                _on_children({'interface': 'management', 'step': 'probe',
                              'args': {'force': True}})]})
        self.assertIn('unexpected arguments: force', str(e))
        self.assertIn('Child node %s' % self.first.uuid, str(e))
        self.assertEqual([], runs)
        self.assertEqual(states.MANAGEABLE,
                         self.db.get_node_by_id(self.parent.id)
                         .provision_state)

    def test_interface_check_of_each_child(self):
        # The fake RAID's create_configuration needs a target: checked on
        # the child before the parent moves, as on the node itself.
        self.config(enabled_raid_interfaces=['fake', 'no-raid'])
        self.db.update_node(self.first.id, {'raid_interface': 'fake'})
        e = self.assertRaises(
            exception.InvalidParameterValue,
            self.api.do_provisioning_action, self.context, self.parent,
            'clean', {'clean_steps': [_on_children(
                {'interface': 'raid', 'step': 'create_configuration'},
                self.first.uuid)]})
        self.assertIn('Child node %s' % self.first.uuid, str(e))
        self.assertIn('no target RAID configuration', str(e))
        self.assertEqual('target_raid_config', e.kwargs.get('field'))
        self.assertEqual(states.MANAGEABLE,
                         self.db.get_node_by_id(self.parent.id)
                         .provision_state)

    def test_no_child_is_nothing_to_do(self):
        lonely = self._manageable()
        node = self._act(lonely, 'clean',
                         {'clean_steps': [_on_children(POWER_OFF)]})
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)

    def test_hold_between_steps_without_the_agent(self):
        node = self._clean([_on_children(POWER_OFF, self.first.uuid),
                            HOLD, POWER_ON])
        self.assertEqual(states.CLEANHOLD, node.provision_state)
        self.assertEqual(states.POWER_OFF, self._node_power(self.first))
        self.assertEqual(states.POWER_OFF, self._node_power(self.parent))
        # Nothing heartbeats: unhold carries on at once.
        node = self._act(node, 'unhold')
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertEqual(states.POWER_ON, self._node_power(self.parent))
        self.assertNotIn('service_without_ramdisk',
                         node.driver_internal_info)
        self.assertEqual([], self.agent.received)

    def test_abort_on_hold_forgets_the_work_without_the_agent(self):
        node = self._clean([_on_children(POWER_OFF), HOLD, POWER_ON])
        self.assertEqual(states.CLEANHOLD, node.provision_state)
        self.assertTrue(node.driver_internal_info.get(
            'service_without_ramdisk'))
        node = self._act(node, 'abort')
        self.assertEqual(states.CLEANFAIL, node.provision_state)
        # Left over, it would release a later hold without the agent.
        for key in ('service_without_ramdisk', 'steps_after_hold'):
            self.assertNotIn(key, node.driver_internal_info)

    def test_failed_child_step_fails_the_servicing(self):
        self.db.update_node(self.parent.id,
                            {'provision_state': states.ACTIVE})
        self.db.update_node(self.first.id, {'disable_power_off': True})
        node = self._act(self.parent, 'service', {'service_steps': [
            _on_children(POWER_OFF)]})
        self.assertEqual(states.SERVICEFAIL, node.provision_state)
        self.assertIn('step power_off', node.last_error)
        self.assertIn('child node %s' % self.first.uuid, node.last_error)

    def test_servicing_without_the_agent(self):
        self.db.update_node(self.parent.id, {
            'provision_state': states.ACTIVE,
            'instance_uuid': None})
        node = self._act(self.parent, 'service', {'service_steps': [
            _on_children(POWER_OFF, self.second.uuid), _wait(2)]})
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual(states.POWER_OFF, self._node_power(self.second))
        self.assertEqual(states.POWER_ON, self._node_power(self.first))
        self.sleep.assert_called_once_with(2)
        self.assertEqual([], self.agent.received)


class TestRequestChecks(ReservedStepsBase):
    """What the conductor refuses before the node moves (its RPC callers
    other than the API get the same 400s)."""

    def _refused(self, node, event, params,
                 error=exception.InvalidParameterValue):
        e = self.assertRaises(error, self.api.do_provisioning_action,
                              self.context, node, event, params)
        self.assertEqual(node.provision_state, self.db.get_node_by_id(
            node.id).provision_state)
        return e

    def test_power_off_of_a_node_that_may_not_be(self):
        node = self._manageable(disable_power_off=True)
        self._refused(node, 'clean', {'clean_steps': [POWER_OFF]},
                      exception.PowerOffDisabled)
        # Its children's power is theirs: accepted.
        self._child(node)
        self._act(node, 'clean',
                  {'clean_steps': [_on_children(POWER_OFF)]})

    def test_wait_for_a_heartbeat_without_the_ramdisk(self):
        node = self._manageable()
        e = self._refused(node, 'clean', {'clean_steps': [_wait()],
                                          'disable_ramdisk': True})
        self.assertEqual('clean_steps', e.field)
        self.assertIn('seconds', str(e))

    def test_child_options_named(self):
        node = self._node(provision_state=states.ACTIVE)
        # The agent's firmware step is no step of the child's interfaces.
        self._child(node)
        for step, name in (
                (_on_children(FIRMWARE), 'execute_on_child_nodes'),
                (_on_children(HOLD), 'execute_on_child_nodes'),
                (dict(POWER_OFF, limit_child_node_execution=[
                    node.uuid]), 'limit_child_node_execution'),
                (_on_children(POWER_OFF, 'not-a-uuid'),
                 'limit_child_node_execution')):
            e = self._refused(node, 'service', {'service_steps': [step]})
            self.assertEqual('service_steps', e.field)
            self.assertIn(name, str(e))

    def test_conductor_steps_allowed_without_the_ramdisk(self):
        node = self._manageable(power_state=states.POWER_OFF)
        node = self._act(node, 'clean', {'disable_ramdisk': True,
                                         'clean_steps': [POWER_ON,
                                                         _wait(0)]})
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertEqual(states.POWER_ON, self._power(node))
        self.sleep.assert_called_once_with(0)


class TestWithoutNodeFlows(ReservedStepsBase):
    """The fake deploy interface runs no node flows: the conductor runs
    its steps and hands the others to the interface, in order."""

    def test_steps_in_order(self):
        node = utils.create_test_node(provision_state=states.MANAGEABLE,
                                      power_state=states.POWER_OFF)
        order = []
        self.power_calls = order

        def clean_steps(driver, task, steps):
            order.append((task.node.uuid, 'clean',
                          [s['step'] for s in steps]))

        with mock.patch.object(fake.FakeDeploy, 'clean', autospec=True,
                               side_effect=clean_steps):
            node = self._act(node, 'clean', {'clean_steps': [
                POWER_ON, FIRMWARE, BIOS, REBOOT, _wait()]})
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual([('set', states.POWER_ON),
                          ('clean', ['update_firmware',
                                     'apply_bios_settings']),
                          ('reboot', None)],
                         [c[1:] for c in order])


class TestFlowChoice(ReservedStepsBase):

    def test_next_flow(self):
        node = utils.create_test_node(driver_internal_info={
            clean.STEPS: [FIRMWARE, REBOOT, _on_children(POWER_ON)],
            clean.INDEX: 0})
        flows = []
        for index in range(4):
            info = dict(node.driver_internal_info, **{clean.INDEX: index})
            node = self.db.update_node(node.id,
                                       {'driver_internal_info': info})
            flows.append(reserved_steps.next_flow(node, clean))
        self.assertEqual([clean.NEXT_STEP, clean.CONDUCTOR_STEP,
                          clean.CONDUCTOR_STEP, clean.FINISH], flows)

    def test_restart_point_of_a_conductor_step(self):
        # The conductor died between two steps: the next one is the
        # conductor's, and runs in its flow.
        node = utils.create_test_node(
            provision_state=states.CLEANING,
            target_provision_state=states.MANAGEABLE,
            driver_internal_info={clean.STEPS: [FIRMWARE, POWER_OFF],
                                  clean.INDEX: 1})
        self.assertEqual(clean.CONDUCTOR_STEP, runner.restart_point(node))

    def test_conductor_step_flow_shapes(self):
        # Atom names are a persisted schema (test_flow_shapes has the
        # other flows'); like every node flow's tasks, these need only
        # the node task.
        for flows, atoms in (
                (clean, ['clean-fail-on-revert',
                         'clean-run-conductor-step']),
                (service, ['service-fail-on-revert',
                           'service-run-conductor-step'])):
            flow = persistence._FACTORIES[flows.CONDUCTOR_STEP]()
            self.assertEqual(atoms, [a.name for a in flow])
            self.assertEqual({persistence.NODE_TASK}, set(flow.requires))
            self.assertEqual(set(), set(flow.provides))
