"""Deploy templates at deploy time: which steps a deploy gets (the pure
rule of common/deploy_templates.py) and how the agent deploy runs them
(deploy-run-steps)."""

import contextlib
from unittest import mock

from ironic_like.common import agent_info
from ironic_like.common import agent_token
from ironic_like.common import current_steps
from ironic_like.common import deploy_templates as dt
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import clean
from ironic_like.conductor.flows import deploy
from ironic_like.conductor.flows import runner
from ironic_like.drivers import base as drivers_base
from ironic_like.drivers.modules import fake
from ironic_like.tests import base
from ironic_like.tests.unit.conductor import test_agent_deploy
from ironic_like.tests.unit.conductor import test_reserved_steps
from ironic_like.tests.unit.db import utils


class _Step(object):
    def __init__(self, interface, step, priority, args=None):
        self.interface = interface
        self.step = step
        self.priority = priority
        self.args = args or {}


class _Template(object):
    def __init__(self, name, *steps):
        self.name = name
        self.steps = [_Step(*s) for s in steps]


class _Trait(object):
    def __init__(self, trait):
        self.trait = trait


class _Node(object):
    uuid = 'node-1'

    def __init__(self, requested=None, traits=()):
        self.instance_info = {'traits': requested} if requested is not None \
            else {}
        self.traits = [_Trait(t) for t in traits]


BUILT_IN = [{'interface': 'deploy', 'step': 'write_image', 'priority': 80,
             'args': {}},
            {'interface': 'deploy', 'step': 'boot_instance',
             'priority': 20, 'args': {}}]


def _names(steps):
    return [(s['interface'], s['step'], s['priority']) for s in steps]


class TestMatching(base.TestCase):

    def test_templates_named_by_requested_traits(self):
        a = _Template('CUSTOM_A', ('bios', 'x', 10))
        b = _Template('CUSTOM_B', ('raid', 'y', 10))
        c = _Template('CUSTOM_C', ('raid', 'z', 10))
        node = _Node(['CUSTOM_B', 'CUSTOM_A', 'CUSTOM_OTHER'])
        self.assertEqual([b, a], dt.matching_templates(node, [a, b, c]))
        self.assertEqual([], dt.matching_templates(_Node(), [a, b, c]))
        self.assertEqual([], dt.matching_templates(_Node([]), [a]))

    def test_requested_traits_must_be_a_list_of_strings(self):
        for bad in ('CUSTOM_A', ['CUSTOM_A', 1], {'CUSTOM_A': 1}):
            self.assertRaises(exception.InvalidParameterValue,
                              dt.requested_traits, _Node(bad))
        self.assertEqual(['CUSTOM_A'],
                         dt.requested_traits(_Node(['CUSTOM_A'] * 2)))

    def test_requested_traits_must_be_the_nodes(self):
        dt.check_instance_traits(_Node(['CUSTOM_A'], ['CUSTOM_A', 'X']))
        dt.check_instance_traits(_Node(None, ['CUSTOM_A']))
        e = self.assertRaises(exception.InvalidParameterValue,
                              dt.check_instance_traits,
                              _Node(['CUSTOM_A', 'CUSTOM_B'], ['CUSTOM_A']))
        self.assertIn('Cannot deploy: instance traits CUSTOM_B are not in '
                      'the node\'s traits', str(e))
        self.assertEqual(400, e.code)
        # Accelerator traits are the accelerators' (checked on plug).
        dt.check_instance_traits(_Node(['CUSTOM_GPU_NVIDIA_A100']))

    def test_order_priority_descending_and_disabled_left_out(self):
        steps = dt.ordered_steps([
            _Template('CUSTOM_A', ('bios', 'low', 10), ('raid', 'off', 0),
                      ('management', 'high', 90, {'k': 'v'})),
            _Template('CUSTOM_B', ('power', 'mid', 50))], BUILT_IN)
        self.assertEqual([('management', 'high', 90),
                          ('deploy', 'write_image', 80),
                          ('power', 'mid', 50),
                          ('deploy', 'boot_instance', 20),
                          ('bios', 'low', 10)], _names(steps))
        self.assertEqual({'k': 'v'}, steps[0]['args'])

    def test_ties_keep_their_order(self):
        steps = dt.ordered_steps([
            _Template('CUSTOM_A', ('bios', 'one', 80), ('bios', 'two', 80))],
            BUILT_IN)
        self.assertEqual(['write_image', 'one', 'two', 'boot_instance'],
                         [s['step'] for s in steps])

    def test_ties_between_interfaces_in_ironics_order(self):
        # Equal priorities: vendor, power, management, firmware, deploy,
        # bios, raid (Ironic's DEPLOYING_INTERFACE_PRIORITY), whatever
        # the templates' order.
        steps = dt.ordered_steps([
            _Template('CUSTOM_A', ('raid', 'r', 80), ('bios', 'b', 80),
                      ('management', 'm', 80)),
            _Template('CUSTOM_B', ('vendor', 'v', 80),
                      ('firmware', 'f', 80), ('power', 'p', 80))],
            BUILT_IN)
        self.assertEqual(['v', 'p', 'm', 'f', 'write_image', 'b', 'r',
                          'boot_instance'], [s['step'] for s in steps])

    def test_template_step_overrides_builtin(self):
        steps = dt.ordered_steps([_Template(
            'CUSTOM_A', ('deploy', 'boot_instance', 95, {'a': 1}))],
            BUILT_IN)
        self.assertEqual([('deploy', 'boot_instance', 95),
                          ('deploy', 'write_image', 80)], _names(steps))
        self.assertEqual({'a': 1}, steps[0]['args'])
        # Priority 0 disables the built-in step.
        steps = dt.ordered_steps([_Template(
            'CUSTOM_A', ('deploy', 'boot_instance', 0))], BUILT_IN)
        self.assertEqual([('deploy', 'write_image', 80)], _names(steps))

    def test_two_templates_with_one_step_refused(self):
        e = self.assertRaises(
            exception.InvalidParameterValue, dt.ordered_steps,
            [_Template('CUSTOM_A', ('bios', 'x', 10)),
             _Template('CUSTOM_B', ('bios', 'x', 20))])
        self.assertIn('CUSTOM_A and CUSTOM_B', str(e))
        self.assertIn('bios.x', str(e))

    def test_no_templates(self):
        self.assertEqual(_names(BUILT_IN), _names(dt.ordered_steps(
            [], BUILT_IN)))
        self.assertEqual([], dt.ordered_steps([]))


# Reserved names are the conductor's whatever interface they name.
POWER_ON = test_reserved_steps.POWER_ON
POWER_OFF = test_reserved_steps.POWER_OFF
REBOOT = test_reserved_steps.REBOOT
HOLD = test_reserved_steps.HOLD

# An agent step after the image write (80), before prepare_instance_boot
# (60); an interface step after it, before the agent's tear-down (40).
HT_ON = {'interface': 'deploy', 'step': 'burn_in',
         'args': {'minutes': 1}, 'priority': 70}
NMI = {'interface': 'management', 'step': 'inject_nmi', 'args': {'n': 2},
       'priority': 45}


@contextlib.contextmanager
def marked_step(name, *args, priority=0):
    """A deploy step ``name`` of the fake management interface, marked
    as Ironic's drivers mark theirs (drivers.base.deploy_step: no other
    method may be a deploy step) and taking ``args``; yields the mock it
    calls with (task, **args)."""
    calls = mock.Mock()

    @drivers_base.deploy_step(priority=priority,
                              argsinfo={a: {'description': a} for a in args})
    def step(interface, task, **kwargs):
        return calls(task, **kwargs)
    with mock.patch.object(fake.FakeManagement, name, step, create=True):
        yield calls


class TestDeployWithTemplates(test_agent_deploy.AgentDeployBase):

    def _template(self, name, *steps):
        return self.db.create_deploy_template({'name': name,
                                               'steps': list(steps)})

    def _node_with_traits(self, requested, traits):
        node = self._node()
        self.db.set_node_traits(node.id, traits)
        info = dict(node.instance_info, traits=requested)
        return self.db.update_node(node.id, {'instance_info': info})

    def test_steps_recorded_and_run(self):
        self._template('CUSTOM_BURN', HT_ON, NMI)
        self._template('CUSTOM_UNUSED', dict(HT_ON, step='never'))
        node = self._node_with_traits(['CUSTOM_BURN'],
                                      ['CUSTOM_BURN', 'CUSTOM_UNUSED'])
        with marked_step('inject_nmi', 'n') as nmi:
            node = self._deploy_to_active(node)
            # The agent's step started; its end comes with a heartbeat.
            self.assertEqual(states.DEPLOYWAIT, node.provision_state)
            self.assertEqual(deploy.PHASE_STEP_RUNNING, self._phase(node))
            self.assertFalse(nmi.called)
            node = self._heartbeat(node)
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        nmi.assert_called_once_with(mock.ANY, n=2)
        self.assertEqual(node.uuid, nmi.call_args[0][0].node.uuid)
        info = node.driver_internal_info
        self.assertEqual(
            ['deploy', 'write_image', 'burn_in', 'prepare_instance_boot',
             'inject_nmi', 'tear_down_agent', 'boot_instance'],
            [s['step'] for s in info[dt.STEPS]])
        # Every step done, the built-in ones included.
        self.assertEqual(7, info[dt.INDEX])
        sent = [r for r in self.agent.received
                if r[0] == deploy.EXECUTE_DEPLOY_STEP]
        self.assertEqual(1, len(sent))
        params = sent[0][1]
        self.assertEqual(HT_ON, params['step'])
        self.assertEqual({'uuid': node.uuid}, params['node'])
        self.assertEqual({}, params['deploy_version'])
        self.assertEqual(1, len(params['ports']))
        # After the image was written, before the node left the ramdisk.
        names = self.agent.names()
        self.assertLess(names.index('standby.prepare_image'),
                        names.index(deploy.EXECUTE_DEPLOY_STEP))

    def test_without_templates_only_builtin_steps(self):
        node = self._deploy_to_active(self._node())
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertEqual(['deploy', 'write_image', 'prepare_instance_boot',
                          'tear_down_agent', 'boot_instance'],
                         [s['step'] for s in
                          node.driver_internal_info[dt.STEPS]])
        self.assertNotIn(deploy.EXECUTE_DEPLOY_STEP, self.agent.names())

    def test_trait_not_on_node_refused(self):
        self._template('CUSTOM_BURN', HT_ON)
        node = self._node_with_traits(['CUSTOM_BURN', 'CUSTOM_GONE'],
                                      ['CUSTOM_BURN'])
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.api.do_provisioning_action,
                              self.context, node, 'deploy', None)
        self.assertIn('CUSTOM_GONE', str(e))
        node = self.db.get_node_by_id(node.id)
        self.assertEqual(states.AVAILABLE, node.provision_state)

    def test_disabling_a_builtin_step_refused(self):
        self._template('CUSTOM_NOWRITE', dict(HT_ON, step='write_image',
                                              priority=0))
        node = self._node_with_traits(['CUSTOM_NOWRITE'],
                                      ['CUSTOM_NOWRITE'])
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.api.do_provisioning_action,
                              self.context, node, 'deploy', None)
        self.assertIn('deploy.write_image', str(e))

    def test_failed_agent_step_fails_the_deploy(self):
        self._template('CUSTOM_BURN', HT_ON)
        node = self._node_with_traits(['CUSTOM_BURN'], ['CUSTOM_BURN'])
        self.agent.fail[deploy.EXECUTE_DEPLOY_STEP] = 'disk on fire'
        node = self._heartbeat(self._deploy_to_active(node))
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)
        self.assertIn('deploy step deploy.burn_in', node.last_error)
        self.assertIn('disk on fire', node.last_error)

    def test_step_the_driver_lacks_is_refused(self):
        # Ironic's rule: only methods marked as deploy steps. The node's
        # management interface has inject_nmi, not as a deploy step.
        self._template('CUSTOM_NMI', NMI)
        node = self._node_with_traits(['CUSTOM_NMI'], ['CUSTOM_NMI'])
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.api.do_provisioning_action,
                              self.context, node, 'deploy', None)
        self.assertIn('management.inject_nmi', str(e))
        self.assertEqual('instance_info/traits', e.kwargs.get('field'))
        node = self.db.get_node_by_id(node.id)
        self.assertEqual(states.AVAILABLE, node.provision_state)
        self.assertIsNone(node.reservation)
        self.assertEqual([], self.agent.names())

    def test_step_arguments_checked_against_its_mark(self):
        self._template('CUSTOM_NMI', dict(NMI, args={'n': 2, 'm': 1}))
        node = self._node_with_traits(['CUSTOM_NMI'], ['CUSTOM_NMI'])
        with marked_step('inject_nmi', 'n'):
            e = self.assertRaises(exception.InvalidParameterValue,
                                  self.api.do_provisioning_action,
                                  self.context, node, 'deploy', None)
        self.assertIn('unexpected arguments: m', str(e))
        self.assertEqual(states.AVAILABLE,
                         self.db.get_node_by_id(node.id).provision_state)

    def test_running_step_is_awaited(self):
        self._template('CUSTOM_BURN', HT_ON)
        node = self._node_with_traits(['CUSTOM_BURN'], ['CUSTOM_BURN'])
        self.agent.hold.add(deploy.EXECUTE_DEPLOY_STEP)
        node = self._heartbeat(self._deploy_to_active(node))
        # Still running: the node waits on, nothing started twice.
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        self.assertEqual(deploy.PHASE_STEP_RUNNING, self._phase(node))
        # The API's deploy_step shows it.
        self.assertEqual('burn_in', current_steps.deploy_step(node)['step'])
        self.agent.finish(deploy.EXECUTE_DEPLOY_STEP)
        node = self._heartbeat(node)
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertEqual(1, self.agent.names().count(
            deploy.EXECUTE_DEPLOY_STEP))

    def test_step_the_agent_forgot_is_started_again(self):
        self._template('CUSTOM_BURN', HT_ON)
        node = self._node_with_traits(['CUSTOM_BURN'], ['CUSTOM_BURN'])
        self.agent.hold.add(deploy.EXECUTE_DEPLOY_STEP)
        node = self._deploy_to_active(node)
        # The agent rebooted and knows no command any more.
        with self.agent.lock:
            self.agent.commands.clear()
        self.agent.hold.clear()
        node = self._heartbeat(node)     # lost: started again
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        node = self._heartbeat(node)
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertEqual(2, self.agent.names().count(
            deploy.EXECUTE_DEPLOY_STEP))


class TestStartAgentStep(base.TestCase):
    """clean.start_agent_step, which deploy-run-steps shares with the
    clean steps."""

    def setUp(self):
        super().setUp()
        node = utils.create_test_node(driver_internal_info={
            'agent_command': 'prepare-id'})
        self.task = mock.Mock(node=node, ports=[])

        def set_info(**changes):
            info = dict(self.task.node.driver_internal_info)
            info.update(changes)
            self.task.node.driver_internal_info = info
        self.task.update_node.side_effect = lambda values: set_info(
            **values['driver_internal_info'])

    @mock.patch.object(clean.agent_client, 'start_command', autospec=True)
    @mock.patch.object(clean.agent_client, 'last_command', autospec=True)
    @mock.patch.object(clean.agent_client, 'find_command', autospec=True)
    def test_another_commands_id_is_not_the_steps(self, find, last, start):
        find.return_value = {'id': 'prepare-id',
                             'command_name': 'standby.prepare_image'}
        last.return_value = None
        start.return_value = {'id': 'step-id'}
        self.assertEqual('step-id', clean.start_agent_step(
            self.task, deploy.EXECUTE_DEPLOY_STEP, HT_ON, 'deploy_version'))
        self.assertEqual('step-id',
                         self.task.node.driver_internal_info[
                             'agent_command'])

    @mock.patch.object(clean.agent_client, 'start_command', autospec=True)
    @mock.patch.object(clean.agent_client, 'find_command', autospec=True)
    def test_known_step_followed(self, find, start):
        find.return_value = {'id': 'prepare-id',
                             'command_name': deploy.EXECUTE_DEPLOY_STEP}
        self.assertEqual('prepare-id', clean.start_agent_step(
            self.task, deploy.EXECUTE_DEPLOY_STEP, HT_ON, 'deploy_version'))
        self.assertFalse(start.called)

    @mock.patch.object(clean.agent_client, 'start_command', autospec=True)
    @mock.patch.object(clean.agent_client, 'last_command', autospec=True)
    @mock.patch.object(clean.agent_client, 'find_command', autospec=True)
    def test_running_step_adopted(self, find, last, start):
        find.return_value = None
        last.return_value = {'id': 'running-id',
                             'command_status': 'RUNNING'}
        self.assertEqual('running-id', clean.start_agent_step(
            self.task, deploy.EXECUTE_DEPLOY_STEP, HT_ON, 'deploy_version'))
        self.assertFalse(start.called)


class TestRunStepsResume(base.TestCase):

    def test_resumed_run_skips_finished_steps(self):
        steps = [deploy.BUILT_IN_STEPS[0], deploy.BUILT_IN_STEPS[1],
                 dict(NMI, step='first', priority=75),
                 dict(NMI, step='second', priority=65),
                 deploy.BUILT_IN_STEPS[2]]
        # Deploying: the steps run in no other state (a node put on hold
        # or to wait is carried on by the next heartbeat).
        node = utils.create_test_node(
            provision_state=states.DEPLOYING,
            driver_internal_info={dt.STEPS: steps, dt.INDEX: 3})
        task = mock.Mock(node=node)

        def update_node(values):
            task.node.driver_internal_info = values['driver_internal_info']
        task.update_node.side_effect = update_node
        with marked_step('first', 'n'), marked_step('second', 'n'):
            deploy.RunSteps(deploy.RUN_STEPS).execute(task)
        self.assertFalse(task.driver.management.first.called)
        task.driver.management.second.assert_called_once_with(task, n=2)
        # Built-in steps are the flow's own atoms: not called here.
        self.assertFalse(task.driver.deploy.prepare_instance_boot.called)
        # Up to the built-in step, which its own atom does next.
        self.assertEqual(4, task.node.driver_internal_info[dt.INDEX])

    def test_nothing_runs_unless_deploying(self):
        # A flow resumed after a step put the node on hold or to wait
        # (its conductor died before the flow's end was recorded): the
        # heartbeat after "unhold" or the wait carries on instead.
        for state in (states.DEPLOYWAIT, states.DEPLOYHOLD):
            node = utils.create_test_node(
                provision_state=state, driver_internal_info={
                    dt.STEPS: [NMI, POWER_OFF], dt.INDEX: 0})
            task = mock.Mock(node=node)
            deploy.RunSteps(deploy.RUN_STEPS).execute(task)
            self.assertFalse(task.driver.management.inject_nmi.called)
            self.assertFalse(task.update_node.called)
            deploy.BootFromDisk(deploy.BOOT_FROM_DISK).execute(task)
            deploy.RebootToInstance(deploy.REBOOT_TO_INSTANCE).execute(task)
            self.assertEqual([], task.driver.method_calls)

    def test_step_at_a_builtin_priority_placed_by_interface(self):
        # management ranks above deploy: at 100 it runs before the
        # ramdisk boots; bios ranks below: at 80, after the image write.
        steps = dt.ordered_steps([], deploy.BUILT_IN_STEPS, [
            dict(NMI, step='m', priority=100),
            {'interface': 'bios', 'step': 'b', 'priority': 80, 'args': {}}])
        self.assertEqual(['m', 'deploy', 'write_image', 'b'],
                         [s['step'] for s in steps[:4]])
        self.assertEqual(deploy.BEFORE_RAMDISK, deploy.part_of(steps, 0))
        self.assertEqual(deploy.AFTER_IMAGE, deploy.part_of(steps, 3))

    def test_restart_point_of_the_steps(self):
        # Its conductor died between the heartbeat that started the steps
        # again (after "unhold", a "wait" or a reboot step) and the
        # flow's start: the steps carry on; the image is not written
        # again.
        steps = dt.ordered_steps([], deploy.BUILT_IN_STEPS, [
            dict(NMI, step='a', priority=150),
            dict(NMI, step='b', priority=90), NMI,
            dict(NMI, step='c', priority=10)])
        self.assertEqual(['a', 'deploy', 'b', 'write_image'],
                         [s['step'] for s in steps[:4]])
        node = utils.create_test_node(
            provision_state=states.DEPLOYING,
            target_provision_state=states.ACTIVE,
            driver_internal_info={dt.STEPS: steps, dt.INDEX: 0,
                                  agent_info.PHASE: deploy.PHASE_RUN_STEPS})
        # Each step carried on by the flow of its part: before the
        # ramdisk boots (and at deploy.deploy), before the image write
        # (and at it), the rest after it.
        for index, flow in enumerate([
                deploy.BOOT_RAMDISK, deploy.BOOT_RAMDISK,
                deploy.WRITE_IMAGE, deploy.WRITE_IMAGE] +
                [deploy.FINISH] * (len(steps) - 3)):
            node.driver_internal_info[dt.INDEX] = index
            self.assertEqual(flow, runner.restart_point(node), index)
        # Without a phase (tear_down_agent took it, or the ramdisk's boot
        # was cut short) the index says where: the image is not written
        # again once it was.
        del node.driver_internal_info[agent_info.PHASE]
        node.driver_internal_info[dt.INDEX] = len(steps) - 1
        self.assertEqual(deploy.FINISH, runner.restart_point(node))
        node.driver_internal_info[dt.INDEX] = 0
        self.assertEqual(deploy.BOOT_RAMDISK, runner.restart_point(node))


class TestUserDeploySteps(TestDeployWithTemplates):
    """deploy_steps of the request (API 1.69) over the templates'."""

    def test_user_steps_merged_and_win(self):
        self._template('CUSTOM_BURN', HT_ON)
        node = self._node_with_traits(['CUSTOM_BURN'], ['CUSTOM_BURN'])
        mine = dict(HT_ON, args={'minutes': 5}, priority=65)
        node = self.db.get_node_by_id(node.id)
        with marked_step('inject_nmi', 'n'):
            node = self._act(node, 'deploy', {'deploy_steps': [mine, NMI]})
        steps = node.driver_internal_info[dt.STEPS]
        self.assertEqual(
            ['deploy', 'write_image', 'burn_in', 'prepare_instance_boot',
             'inject_nmi', 'tear_down_agent', 'boot_instance'],
            [s['step'] for s in steps])
        burn = [s for s in steps if s['step'] == 'burn_in'][0]
        self.assertEqual(({'minutes': 5}, 65),
                         (burn['args'], burn['priority']))

    def test_user_step_disabling_a_builtin_refused(self):
        node = self._node()
        e = self.assertRaises(
            exception.InvalidParameterValue,
            self.api.do_provisioning_action, self.context, node, 'deploy',
            {'deploy_steps': [dict(HT_ON, step='write_image',
                                   priority=0)]})
        self.assertEqual('deploy_steps', e.field)
        self.assertEqual(states.AVAILABLE,
                         self.db.get_node_by_id(node.id).provision_state)

    def test_ordered_steps_user_over_template(self):
        steps = dt.ordered_steps(
            [_Template('CUSTOM_A', ('bios', 'x', 10, {'a': 1}))], BUILT_IN,
            [{'interface': 'bios', 'step': 'x', 'priority': 90,
              'args': {'a': 2}}])
        self.assertEqual(('bios', 'x', 90), _names(steps)[0])
        self.assertEqual({'a': 2}, steps[0]['args'])


def _deploy_step(step, priority, **args):
    """A reserved step (test_reserved_steps) as a deploy step: args and
    priority required."""
    step = dict(step, priority=priority)
    step['args'] = dict(step.get('args') or {}, **args)
    return step


class TestReservedDeploySteps(test_reserved_steps.ReservedStepsBase):
    """Ironic's reserved step names and steps on child nodes in a deploy
    (from templates and from deploy_steps), run by the conductor in
    deploy-run-steps as cleaning runs them (reserved_steps.run_listed):
    after the image is written, before the node boots from disk."""

    def _executed(self):
        return super()._executed(deploy.EXECUTE_DEPLOY_STEP)

    def _to_steps(self, node, params=None):
        """Deploy up to the image written; the heartbeat that finds it
        written runs the steps. The power calls are those of the steps
        (and of the reboot into the instance)."""
        node = self._act(node, 'deploy', params)
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        node = self._heartbeat(self._give_token(node))  # write started
        self.power_calls.clear()
        return self._heartbeat(node)                    # write done

    def _waits_for_agent(self, node, index):
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        self.assertEqual(states.ACTIVE, node.target_provision_state)
        self.assertEqual(deploy.PHASE_RUN_STEPS, self._phase(node))
        self.assertEqual(index, node.driver_internal_info[dt.INDEX])

    def _agent_gone(self, node):
        info = node.driver_internal_info
        self.assertFalse(agent_token.is_present(info))
        self.assertNotIn(agent_info.AGENT_URL, info)

    def test_power_off_and_on_then_the_agent_step_waits_for_the_agent(self):
        node = self._to_steps(self._node(), {'deploy_steps': [
            _deploy_step(POWER_OFF, 78), _deploy_step(POWER_ON, 76),
            HT_ON]})
        self.assertEqual([('set', states.POWER_OFF),
                          ('set', states.POWER_ON)], self._calls(node))
        # burn_in (index 4, after the built-in deploy and write_image
        # steps and the two power steps) needs the agent booted again.
        self._waits_for_agent(node, 4)
        self._agent_gone(node)
        self.assertEqual([], self._executed())
        node = self._heartbeat(self._give_token(node))   # burn_in starts
        self.assertEqual(['burn_in'], self._executed())
        node = self._heartbeat(node)                     # and is over
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual(['burn_in'], self._executed())
        # Then powered off with the agent's tear-down, and on into the
        # instance.
        self.assertEqual([('set', states.POWER_OFF), ('set', states.POWER_ON)],
                         self._calls(node)[-2:])

    def test_template_reboot_then_the_rebooted_agent_runs_the_next_step(
            self):
        self.db.create_deploy_template({'name': 'CUSTOM_CYCLE', 'steps': [
            _deploy_step(REBOOT, 78), HT_ON]})
        node = self._node()
        self.db.set_node_traits(node.id, ['CUSTOM_CYCLE'])
        node = self.db.update_node(node.id, {'instance_info': dict(
            node.instance_info, traits=['CUSTOM_CYCLE'])})
        node = self._to_steps(node)
        self.assertEqual([('reboot', None)], self._calls(node))
        self._waits_for_agent(node, 3)
        self._agent_gone(node)
        node = self._heartbeat(self._heartbeat(self._give_token(node)))
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertEqual(['burn_in'], self._executed())

    def test_power_off_last_the_instance_still_boots(self):
        node = self._to_steps(self._node(), {'deploy_steps': [
            _deploy_step(POWER_OFF, 50)]})
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        # No agent step after it: nothing waits; the instance boots.
        self.assertEqual([('set', states.POWER_OFF),
                          ('set', states.POWER_ON)], self._calls(node))
        self.assertEqual(states.POWER_ON, self._power(node))

    def test_interface_step_after_a_reboot_runs_at_once(self):
        # Only the agent's steps wait for the agent booted again.
        with marked_step('inject_nmi', 'n') as nmi:
            node = self._to_steps(self._node(), {'deploy_steps': [
                _deploy_step(REBOOT, 78), dict(NMI, priority=75), HT_ON]})
            nmi.assert_called_once_with(mock.ANY, n=2)
        self._waits_for_agent(node, 4)
        node = self._heartbeat(self._heartbeat(self._give_token(node)))
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertEqual(['burn_in'], self._executed())

    def test_wait_with_seconds_pauses_then_carries_on(self):
        node = self._to_steps(self._node(), {'deploy_steps': [
            _deploy_step(test_reserved_steps._wait(5), 75), HT_ON]})
        self.sleep.assert_called_once_with(5)
        node = self._heartbeat(node)     # burn_in over
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertEqual(['burn_in'], self._executed())

    def test_wait_without_seconds_waits_for_the_next_heartbeat(self):
        with marked_step('inject_nmi', 'n') as nmi:
            node = self._to_steps(self._node(), {'deploy_steps': [
                dict(HT_ON, priority=75),
                _deploy_step(test_reserved_steps._wait(), 72),
                dict(NMI, priority=65)]})
            node = self._heartbeat(node)     # burn_in over: the wait
            self._waits_for_agent(node, 4)
            self.assertEqual(['burn_in'], self._executed())
            self.assertFalse(nmi.called)
            self.sleep.assert_not_called()
            # Still in the ramdisk: not booted from disk.
            self.assertEqual([], self._calls(node))
            node = self._heartbeat(node)    # the same agent: no new token
            nmi.assert_called_once_with(mock.ANY, n=2)
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)

    def test_steps_on_child_nodes(self):
        parent = self._node()
        first, second = self._child(parent), self._child(parent)
        node = self._to_steps(parent, {'deploy_steps': [
            _deploy_step(test_reserved_steps._on_children(
                POWER_OFF, second.uuid), 78), HT_ON]})
        node = self._heartbeat(node)     # burn_in over
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual(states.POWER_OFF, self._node_power(second))
        self.assertEqual(states.POWER_ON, self._node_power(first))
        self.assertIsNone(self.db.get_node_by_id(second.id).reservation)
        # The parent kept its agent: the agent step ran at once, and its
        # own power only went off with the agent's tear-down and on into
        # the instance.
        self.assertEqual(['burn_in'], self._executed())
        self.assertEqual([('set', states.POWER_OFF), ('set', states.POWER_ON)],
                         self._calls(node))
        recorded = [s for s in node.driver_internal_info[dt.STEPS]
                    if s['step'] == 'power_off'][0]
        self.assertTrue(recorded['execute_on_child_nodes'])
        self.assertEqual([second.uuid],
                         recorded['limit_child_node_execution'])

    def test_failed_power_step_fails_the_deploy(self):
        self.power_mocks['reboot'].side_effect = RuntimeError('BMC gone')
        node = self._to_steps(self._node(), {'deploy_steps': [
            _deploy_step(REBOOT, 78), HT_ON]})
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)
        self.assertIn('deploy-run-steps', node.last_error)
        self.assertIn('deploy step reboot', node.last_error)
        self.assertIn('BMC gone', node.last_error)
        self.assertEqual([], self._executed())

    def test_failed_child_step_fails_the_deploy(self):
        parent = self._node()
        child = self._child(parent, disable_power_off=True)
        node = self._to_steps(parent, {'deploy_steps': [
            _deploy_step(test_reserved_steps._on_children(POWER_OFF), 50)]})
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)
        self.assertIn('child node %s' % child.uuid, node.last_error)
        self.assertEqual(states.POWER_ON, self._node_power(child))

    def _refused(self, node, params, error=exception.InvalidParameterValue):
        e = self.assertRaises(error, self.api.do_provisioning_action,
                              self.context, node, 'deploy', params)
        self.assertEqual(states.AVAILABLE, self.db.get_node_by_id(
            node.id).provision_state)
        return e

    def test_power_off_of_a_node_that_may_not_be_refused(self):
        node = self._node(disable_power_off=True)
        self._refused(node, {'deploy_steps': [_deploy_step(POWER_OFF, 50)]},
                      exception.PowerOffDisabled)
        # Its children's power is theirs: accepted.
        self._child(node)
        node = self._act(node, 'deploy', {'deploy_steps': [_deploy_step(
            test_reserved_steps._on_children(POWER_OFF), 50)]})
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)

    def test_conductor_checks_the_steps_before_the_node_moves(self):
        # For RPC callers other than the API (which checks the same).
        node = self._node()
        e = self._refused(node, {'deploy_steps': [
            test_reserved_steps._on_children(HT_ON)]})
        self.assertEqual('deploy_steps', e.field)
        self.assertIn('execute_on_child_nodes', str(e))
        # A template written before these rules: named by the traits.
        self.db.create_deploy_template({'name': 'CUSTOM_SOON', 'steps': [
            _deploy_step(test_reserved_steps._wait('soon'), 50)]})
        self.db.set_node_traits(node.id, ['CUSTOM_SOON'])
        node = self.db.update_node(node.id, {'instance_info': dict(
            node.instance_info, traits=['CUSTOM_SOON'])})
        e = self._refused(node, None)
        self.assertEqual('instance_info/traits', e.field)
        self.assertIn('seconds', str(e))


class TestStepPlaces(test_reserved_steps.ReservedStepsBase):
    """Each deploy step runs where its priority puts it among the agent
    deploy's own (deploy.deploy 100, write_image 80,
    prepare_instance_boot 60, tear_down_agent 40, boot_instance 20), as
    in Ironic."""

    def setUp(self):
        super().setUp()
        # What had happened when each management step ran: the agent's
        # commands so far, the node's power calls so far, and whether it
        # still had an agent token.
        self.seen = {}

        def step(name):
            def run(interface, task, **args):
                self.seen[name] = (
                    list(self.agent.names()), self._calls(task.node),
                    agent_token.is_present(task.node.driver_internal_info))
            return run

        for name in ('early', 'before_write', 'after_write',
                     'before_tear_down', 'after_tear_down', 'late'):
            patcher = mock.patch.object(
                fake.FakeManagement, name, create=True,
                new=drivers_base.deploy_step()(step(name)))
            patcher.start()
            self.addCleanup(patcher.stop)

    def _step(self, name, priority):
        return {'interface': 'management', 'step': name, 'args': {},
                'priority': priority}

    def test_each_step_in_its_place(self):
        node = self._node(power_state=states.POWER_OFF)
        node = self._act(node, 'deploy', {'deploy_steps': [
            self._step('early', 150), self._step('before_write', 90),
            self._step('after_write', 70),
            self._step('before_tear_down', 50),
            self._step('after_tear_down', 30), self._step('late', 10)]})
        # Before the ramdisk boots: no agent, the node not powered on.
        self.assertEqual(([], [], False), self.seen['early'])
        self.assertEqual(['early'], list(self.seen))
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        node = self._heartbeat(self._give_token(node))
        # The agent is up; the image not yet written.
        names, calls, token = self.seen['before_write']
        self.assertNotIn(deploy.PREPARE_IMAGE, names)
        self.assertEqual([('set', states.POWER_ON)], calls)
        self.assertTrue(token)
        self.assertNotIn('after_write', self.seen)
        node = self._heartbeat(node)     # the image written: the rest
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertIn(deploy.PREPARE_IMAGE, self.seen['after_write'][0])
        # The agent's token goes with tear_down_agent, which powers the
        # node off, as Ironic's; boot_instance powers it on into the
        # instance before the steps below 20.
        self.assertTrue(self.seen['before_tear_down'][2])
        self.assertFalse(self.seen['after_tear_down'][2])
        for name in ('after_write', 'before_tear_down'):
            self.assertEqual([('set', states.POWER_ON)], self.seen[name][1])
        self.assertEqual([('set', states.POWER_ON), ('set', states.POWER_OFF)],
                         self.seen['after_tear_down'][1])
        self.assertEqual([('set', states.POWER_ON), ('set', states.POWER_OFF),
                          ('set', states.POWER_ON)], self.seen['late'][1])
        self.assertEqual(len(node.driver_internal_info[dt.STEPS]),
                         node.driver_internal_info[dt.INDEX])

    def test_agent_steps_only_where_the_agent_runs(self):
        node = self._node()
        for steps in ([dict(HT_ON, priority=150)],
                      [dict(HT_ON, priority=30)],
                      [_deploy_step(test_reserved_steps._wait(), 10)]):
            e = self.assertRaises(
                exception.InvalidParameterValue,
                self.api.do_provisioning_action, self.context, node,
                'deploy', {'deploy_steps': steps})
            self.assertEqual('deploy_steps', e.field)
            self.assertIn('needs the agent', str(e))
            self.assertIn('100 to 41', str(e))
        self.assertEqual(states.AVAILABLE,
                         self.db.get_node_by_id(node.id).provision_state)
        # At the bounds: with the agent.
        node = self._act(node, 'deploy', {'deploy_steps': [
            dict(HT_ON, priority=100), dict(HT_ON, step='x', priority=41)]})
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)

    def test_built_in_steps_keep_their_order(self):
        node = self._node()
        e = self.assertRaises(
            exception.InvalidParameterValue,
            self.api.do_provisioning_action, self.context, node, 'deploy',
            {'deploy_steps': [{'interface': 'deploy',
                               'step': 'prepare_instance_boot', 'args': {},
                               'priority': 90}]})
        self.assertEqual('deploy_steps', e.field)
        self.assertIn('keep their order', str(e))
        # Moved within their order: accepted.
        node = self._act(node, 'deploy', {'deploy_steps': [
            {'interface': 'deploy', 'step': 'write_image', 'args': {},
             'priority': 90}]})
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)

    def test_hold_before_the_ramdisk_unheld_at_once(self):
        node = self._node(power_state=states.POWER_OFF)
        node = self._act(node, 'deploy', {'deploy_steps': [
            _deploy_step(HOLD, 150), self._step('early', 120)]})
        self.assertEqual(states.DEPLOYHOLD, node.provision_state)
        self.assertEqual([], self._calls(node))
        # Nothing heartbeats before the ramdisk boots: unhold carries on.
        node = self._act(node, 'unhold')
        self.assertIn('early', self.seen)
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        self.assertEqual(deploy.PHASE_WRITE_IMAGE, self._phase(node))
        self.assertEqual([('set', states.POWER_ON)], self._calls(node))
        node = self._heartbeat(self._give_token(node))
        node = self._heartbeat(node)
        self.assertEqual(states.ACTIVE, node.provision_state)

    def test_hold_after_the_agent_unheld_at_once(self):
        node = self._to_hold_at(30)
        self.assertNotIn('late', self.seen)
        # The agent is gone: unhold carries on without a heartbeat.
        node = self._act(node, 'unhold')
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertIn('late', self.seen)
        # Powered off with the agent's tear-down (before the hold), and
        # on into the instance once.
        self.assertEqual([('set', states.POWER_ON), ('set', states.POWER_OFF),
                          ('set', states.POWER_ON)], self._calls(node))

    def test_hold_after_a_power_off_unheld_at_once(self):
        node = self._node(power_state=states.POWER_OFF)
        node = self._act(node, 'deploy', {'deploy_steps': [
            _deploy_step(POWER_OFF, 75), _deploy_step(HOLD, 70),
            self._step('after_write', 65)]})
        node = self._heartbeat(self._give_token(node))
        node = self._heartbeat(node)
        self.assertEqual(states.DEPLOYHOLD, node.provision_state)
        self._agent_gone(node)
        # The powered off agent sends no heartbeat: unhold carries on.
        node = self._act(node, 'unhold')
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIn('after_write', self.seen)
        self.assertEqual([('set', states.POWER_ON), ('set', states.POWER_OFF),
                          ('set', states.POWER_ON)], self._calls(node))

    def test_hold_before_the_write_after_a_power_off_unheld_at_once(self):
        node = self._node()
        node = self._act(node, 'deploy', {'deploy_steps': [
            _deploy_step(POWER_OFF, 95), _deploy_step(HOLD, 90),
            _deploy_step(POWER_ON, 85)]})
        node = self._heartbeat(self._give_token(node))
        self.assertEqual(states.DEPLOYHOLD, node.provision_state)
        self._agent_gone(node)
        # Off, nothing heartbeats: unhold carries on, powers the node
        # on, and the image write waits for the agent booted again.
        node = self._act(node, 'unhold')
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        self.assertEqual(deploy.PHASE_RUN_STEPS, self._phase(node))
        self.assertEqual(states.POWER_ON, self._power(node))
        self._written_once_the_agent_is_back(node)

    def _to_hold_at(self, priority):
        node = self._node(power_state=states.POWER_OFF)
        node = self._act(node, 'deploy', {'deploy_steps': [
            _deploy_step(HOLD, priority), self._step('late', 10)]})
        node = self._heartbeat(self._give_token(node))
        node = self._heartbeat(node)
        self.assertEqual(states.DEPLOYHOLD, node.provision_state)
        return node

    def test_hold_before_the_write_waits_for_the_agent(self):
        node = self._node()
        node = self._act(node, 'deploy', {'deploy_steps': [
            _deploy_step(HOLD, 90)]})
        node = self._heartbeat(self._give_token(node))
        self.assertEqual(states.DEPLOYHOLD, node.provision_state)
        self.assertNotIn(deploy.PREPARE_IMAGE, self.agent.names())
        node = self._act(node, 'unhold')
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        self.assertEqual(deploy.PHASE_RUN_STEPS, self._phase(node))
        node = self._heartbeat(node)     # the write starts
        self.assertIn(deploy.PREPARE_IMAGE, self.agent.names())
        node = self._heartbeat(node)
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertEqual(1, self.agent.names().count(deploy.PREPARE_IMAGE))

    def test_reboot_before_the_write_waits_for_the_rebooted_agent(self):
        node = self._node()
        node = self._act(node, 'deploy', {'deploy_steps': [
            _deploy_step(REBOOT, 90)]})
        node = self._heartbeat(self._give_token(node))
        # The write needs the agent, which the reboot took away.
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        self.assertEqual(deploy.PHASE_RUN_STEPS, self._phase(node))
        self._agent_gone(node)
        self._written_once_the_agent_is_back(node)

    def _written_once_the_agent_is_back(self, node):
        """The node waits for its agent booted again; its first
        heartbeat starts the image write, the next finds it written."""
        self.assertNotIn(deploy.PREPARE_IMAGE, self.agent.names())
        node = self._heartbeat(self._give_token(node))
        self.assertIn(deploy.PREPARE_IMAGE, self.agent.names())
        node = self._heartbeat(node)
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)

    def _agent_gone(self, node):
        info = node.driver_internal_info
        self.assertFalse(agent_token.is_present(info))
        self.assertNotIn(agent_info.AGENT_URL, info)


class TestReservedDeployStepsWithoutFlows(
        test_reserved_steps.ReservedStepsBase):
    """The fake deploy interface runs no node flows and has no agent:
    the conductor runs its own deploy steps (as for manual cleaning)
    and the interfaces' marked ones before or after the driver's deploy
    (deploy.deploy, priority 100) as their priority says, then powers
    the instance on; a "hold" is released by "unhold" at once."""

    def _deploy(self, steps, **fields):
        node = utils.create_test_node(provision_state=states.AVAILABLE,
                                      power_state=states.POWER_OFF,
                                      **fields)
        return self._act(node, 'deploy', {'deploy_steps': steps})

    def test_steps_in_order(self):
        node = self._deploy([
            _deploy_step(POWER_ON, 90), dict(HT_ON, priority=80),
            _deploy_step(REBOOT, 70),
            _deploy_step(test_reserved_steps._wait(), 60),
            _deploy_step(test_reserved_steps._wait(2), 50)])
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        # The agent step has nothing to run it; a "wait" for a heartbeat
        # is over at once; then the instance is powered on.
        self.assertEqual([('set', states.POWER_ON), ('reboot', None),
                          ('set', states.POWER_ON)], self._calls(node))
        self.sleep.assert_called_once_with(2)
        self.assertEqual([], self.agent.received)

    def test_interface_deploy_steps_run(self):
        self.config(enabled_bios_interfaces=['fake', 'no-bios'])
        settings = [{'name': 'ProcVirtualization', 'value': 'Disabled'}]
        node = self._deploy([
            {'interface': 'bios', 'step': 'apply_configuration',
             'args': {'settings': settings}, 'priority': 70},
            _deploy_step(HOLD, 40),
            {'interface': 'bios', 'step': 'factory_reset', 'args': {},
             'priority': 30}], bios_interface='fake')
        self.assertEqual(states.DEPLOYHOLD, node.provision_state)
        self.assertEqual({'ProcVirtualization': 'Disabled'},
                         node.driver_internal_info['fake_bios_settings'])
        node = self._act(node, 'unhold')
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertNotIn('fake_bios_settings', node.driver_internal_info)

    def test_marked_priority_runs_in_every_deploy(self):
        # As Ironic: a step its interface marks above priority 0 is in
        # every deploy; a template or the request may disable it (0).
        with marked_step('firmware_check', priority=50) as check:
            node = self._deploy([])
            self.assertEqual(states.ACTIVE, node.provision_state)
            self.assertEqual(1, check.call_count)
            self.assertEqual(
                ['deploy', 'firmware_check'],
                [s['step'] for s in node.driver_internal_info[dt.STEPS]])
            node = self._deploy([{'interface': 'management',
                                  'step': 'firmware_check', 'args': {},
                                  'priority': 0}])
            self.assertEqual(states.ACTIVE, node.provision_state)
            self.assertEqual(1, check.call_count)

    def test_the_drivers_deploy_runs_at_its_priority(self):
        # As Ironic's fake deploy: deploy.deploy is a step of priority
        # 100; a step above it runs first, one below it after, then the
        # instance is powered on.
        order = []
        with marked_step('early_check', priority=150) as early, \
                marked_step('late_check', priority=50) as late, \
                mock.patch.object(fake.FakeDeploy, 'deploy', autospec=True,
                                  side_effect=lambda *a: order.append(
                                      'deploy')):
            early.side_effect = lambda *a, **k: order.append('early')
            late.side_effect = lambda *a, **k: order.append('late')
            node = self._deploy([])
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertEqual(['early', 'deploy', 'late'], order)
        self.assertEqual(
            ['early_check', 'deploy', 'late_check'],
            [s['step'] for s in node.driver_internal_info[dt.STEPS]])
        self.assertEqual(states.POWER_ON, node.power_state)

    def test_the_drivers_deploy_failing_is_named(self):
        with mock.patch.object(fake.FakeDeploy, 'deploy', autospec=True,
                               side_effect=RuntimeError('no disk')):
            node = self._deploy([])
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)
        self.assertIn('step deploy: no disk', node.last_error)

    def test_the_drivers_deploy_cannot_be_disabled(self):
        node = utils.create_test_node(provision_state=states.AVAILABLE)
        e = self.assertRaises(
            exception.InvalidParameterValue, self.api.do_provisioning_action,
            self.context, node, 'deploy', {'deploy_steps': [
                {'interface': 'deploy', 'step': 'deploy', 'args': {},
                 'priority': 0}]})
        self.assertIn('disables the deploy step deploy.deploy, which the '
                      "node's deploy interface always runs", str(e))

    def test_unmarked_interface_step_refused(self):
        node = utils.create_test_node(provision_state=states.AVAILABLE)
        e = self.assertRaises(
            exception.InvalidParameterValue, self.api.do_provisioning_action,
            self.context, node, 'deploy', {'deploy_steps': [
                {'interface': 'bios', 'step': 'cache_bios_settings',
                 'args': {}, 'priority': 70}]})
        self.assertEqual('deploy_steps', e.kwargs.get('field'))
        self.assertEqual(states.AVAILABLE,
                         self.db.get_node_by_id(node.id).provision_state)

    def test_hold_then_unhold(self):
        node = self._deploy([_deploy_step(POWER_ON, 50),
                             _deploy_step(HOLD, 40),
                             _deploy_step(POWER_OFF, 30)])
        self.assertEqual(states.DEPLOYHOLD, node.provision_state)
        self.assertEqual(states.ACTIVE, node.target_provision_state)
        self.assertEqual([('set', states.POWER_ON)], self._calls(node))
        self.assertEqual('hold', current_steps.deploy_step(node)['step'])
        node = self._act(node, 'unhold')
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.target_provision_state)
        self.assertEqual([('set', states.POWER_ON), ('set', states.POWER_OFF),
                          ('set', states.POWER_ON)], self._calls(node))
        self.assertNotIn('steps_after_hold', node.driver_internal_info)

    def test_abort_on_hold(self):
        node = self._deploy([_deploy_step(HOLD, 40),
                             _deploy_step(POWER_ON, 30)])
        node = self._act(node, 'abort')
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)
        self.assertNotIn('steps_after_hold', node.driver_internal_info)
        self.assertEqual([], self._calls(node))

    def test_failed_step_fails_the_deploy(self):
        self.power_mocks['reboot'].side_effect = RuntimeError('BMC gone')
        node = self._deploy([_deploy_step(REBOOT, 50)])
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)
        self.assertIn('step reboot', node.last_error)
        self.assertIn('BMC gone', node.last_error)
