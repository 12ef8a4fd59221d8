"""Deploy templates at deploy time: which steps a deploy gets (the pure
rule of common/deploy_templates.py) and how the agent deploy runs them
(deploy-run-steps)."""

from unittest import mock

from ironic_like.common import deploy_templates as dt
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import clean
from ironic_like.conductor.flows import deploy
from ironic_like.drivers.modules import fake
from ironic_like.tests import base
from ironic_like.tests.unit.conductor import test_agent_deploy
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


HT_ON = {'interface': 'deploy', 'step': 'burn_in',
         'args': {'minutes': 1}, 'priority': 30}
NMI = {'interface': 'management', 'step': 'inject_nmi', 'args': {'n': 2},
       'priority': 40}


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
        with mock.patch.object(fake.FakeManagement, 'inject_nmi',
                               create=True) as nmi:
            node = self._deploy_to_active(node)
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        nmi.assert_called_once_with(mock.ANY, n=2)
        self.assertEqual(node.uuid, nmi.call_args[0][0].node.uuid)
        info = node.driver_internal_info
        self.assertEqual(
            ['write_image', 'prepare_instance_boot', 'inject_nmi',
             'burn_in', 'boot_instance'],
            [s['step'] for s in info[dt.STEPS]])
        self.assertEqual(4, info[dt.INDEX])
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
        self.assertEqual(['write_image', 'prepare_instance_boot',
                          'boot_instance'],
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
        node = self._deploy_to_active(node)
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)
        self.assertIn('deploy-run-steps', node.last_error)
        self.assertIn('deploy.burn_in', node.last_error)
        self.assertIn('disk on fire', node.last_error)

    def test_step_the_driver_lacks_fails_the_deploy(self):
        self._template('CUSTOM_BIOS', dict(HT_ON, interface='bios',
                                           step='apply_configuration'))
        node = self._node_with_traits(['CUSTOM_BIOS'], ['CUSTOM_BIOS'])
        node = self._deploy_to_active(node)
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)
        self.assertIn('bios.apply_configuration', node.last_error)
        self.assertNotIn(deploy.EXECUTE_DEPLOY_STEP, self.agent.names())

    def test_running_step_is_awaited(self):
        self._template('CUSTOM_BURN', HT_ON)
        node = self._node_with_traits(['CUSTOM_BURN'], ['CUSTOM_BURN'])
        self.agent.hold.add(deploy.EXECUTE_DEPLOY_STEP)
        real = deploy.agent_client.find_command
        seen_running = []

        def find(node, command_id):
            # The run step sees it running once; then the agent ends it.
            doc = real(node, command_id)
            if doc and doc['command_name'] == deploy.EXECUTE_DEPLOY_STEP \
                    and doc['command_status'] == 'RUNNING':
                seen_running.append(command_id)
                self.agent.finish(deploy.EXECUTE_DEPLOY_STEP)
            return doc

        with mock.patch.object(deploy, 'STEP_POLL_INTERVAL', 0.01), \
                mock.patch.object(deploy.agent_client, 'find_command',
                                  side_effect=find):
            node = self._deploy_to_active(node)
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertEqual(1, len(seen_running))
        self.assertEqual(1, self.agent.names().count(
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
        steps = [dict(NMI, step='first', priority=50),
                 dict(NMI, step='second', priority=45),
                 deploy.BUILT_IN_STEPS[1]]
        node = utils.create_test_node(driver_internal_info={
            dt.STEPS: steps, dt.INDEX: 1})
        task = mock.Mock(node=node)

        def update_node(values):
            task.node.driver_internal_info = values['driver_internal_info']
        task.update_node.side_effect = update_node
        deploy.RunSteps(deploy.RUN_STEPS).execute(task)
        self.assertFalse(task.driver.management.first.called)
        task.driver.management.second.assert_called_once_with(task, n=2)
        # Built-in steps are the flow's own atoms: not called here.
        self.assertFalse(task.driver.deploy.prepare_instance_boot.called)
        self.assertEqual(2, task.node.driver_internal_info[dt.INDEX])


class TestUserDeploySteps(TestDeployWithTemplates):
    """deploy_steps of the request (API 1.69) over the templates'."""

    def test_user_steps_merged_and_win(self):
        self._template('CUSTOM_BURN', HT_ON)
        node = self._node_with_traits(['CUSTOM_BURN'], ['CUSTOM_BURN'])
        mine = dict(HT_ON, args={'minutes': 5}, priority=35)
        node = self.db.get_node_by_id(node.id)
        node = self._act(node, 'deploy', {'deploy_steps': [mine, NMI]})
        steps = node.driver_internal_info[dt.STEPS]
        self.assertEqual(
            ['write_image', 'prepare_instance_boot', 'inject_nmi',
             'burn_in', 'boot_instance'], [s['step'] for s in steps])
        burn = [s for s in steps if s['step'] == 'burn_in'][0]
        self.assertEqual(({'minutes': 5}, 35),
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
