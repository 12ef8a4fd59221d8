"""RAID built by the agent (the "agent" raid interface): the clean steps
raid.create_configuration and raid.delete_configuration sent to the
agent with the node's target, and what the node records after them,
with a running conductor and a fake agent."""

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import clean
from ironic_like.conductor.flows import deploy
from ironic_like.conductor.flows import service
from ironic_like.tests.unit.conductor import test_agent_deploy
from ironic_like.tests.unit.conductor import fake_agent

ROOT = {'size_gb': 50, 'raid_level': '1', 'is_root_volume': True,
        'controller': 'software'}
DATA = {'size_gb': 'MAX', 'raid_level': '0', 'controller': 'software'}
CREATE = {'interface': 'raid', 'step': 'create_configuration', 'args': {}}
DELETE = {'interface': 'raid', 'step': 'delete_configuration', 'args': {}}


class TestAgentRAID(test_agent_deploy.AgentDeployBase):

    def _raid_node(self, **kwargs):
        values = {'provision_state': states.MANAGEABLE,
                  'raid_interface': 'agent',
                  'target_raid_config': {'logical_disks': [ROOT, DATA]},
                  'properties': {'local_gb': 400}}
        values.update(kwargs)
        return self._node(**values)

    def _clean(self, node, steps):
        node = self._act(node, 'clean', {'clean_steps': steps})
        node = self._heartbeat(self._give_token(node))  # steps read
        for _ in steps:
            node = self._heartbeat(node)               # a step over
        return node

    def _sent(self):
        return [p for n, p, q in self.agent.received
                if n == clean.EXECUTE_CLEAN_STEP]

    def test_create_configuration(self):
        node = self._clean(self._raid_node(), [CREATE])
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        sent = self._sent()
        self.assertEqual(['create_configuration'],
                         [p['step']['step'] for p in sent])
        # The agent is sent the node's target with the step.
        self.assertEqual({'logical_disks': [ROOT, DATA]},
                         sent[0]['node']['target_raid_config'])
        self.assertEqual(node.uuid, sent[0]['node']['uuid'])
        # What it reports built is recorded, as Ironic records it.
        self.assertEqual([ROOT, DATA],
                         node.raid_config['logical_disks'])
        self.assertIn('last_updated', node.raid_config)
        self.assertEqual(50, node.properties['local_gb'])
        self.assertEqual('raid_level:1', node.properties['capabilities'])

    def test_create_without_root_volume(self):
        node = self._clean(self._raid_node(), [dict(
            CREATE, args={'create_root_volume': False})])
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertEqual({'logical_disks': [DATA]},
                         self._sent()[0]['node']['target_raid_config'])
        # No root volume built: the disk size stays as it was.
        self.assertEqual(400, node.properties['local_gb'])

    def test_delete_configuration(self):
        node = self._raid_node(
            raid_config={'logical_disks': [ROOT]},
            properties={'local_gb': 50, 'root_device': {'name': '/dev/md0'}})
        node = self._clean(node, [DELETE])
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertEqual({}, node.raid_config)
        self.assertEqual({'local_gb': 50}, node.properties)
        self.assertNotIn('target_raid_config', self._sent()[0]['node'])

    def _refused(self, node, steps):
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.api.do_provisioning_action,
                              self.context, node, 'clean',
                              {'clean_steps': steps})
        node = self.db.get_node_by_id(node.id)
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.target_provision_state)
        self.assertEqual([], self.agent.received)
        return e

    def test_create_without_target_refused(self):
        e = self._refused(self._raid_node(target_raid_config={}), [CREATE])
        self.assertEqual('target_raid_config', e.field)
        self.assertIn('has no target RAID configuration', str(e))

    def test_raid_steps_need_a_raid_interface_that_has_them(self):
        # no-raid has no RAID step (fake has its own: test_out_of_band).
        e = self._refused(self._raid_node(raid_interface='no-raid'),
                          [CREATE])
        self.assertEqual('clean_steps', e.field)
        self.assertIn('raid.create_configuration', str(e))
        # Another interface's step is no agent step either.
        e = self._refused(self._raid_node(), [dict(
            CREATE, interface='bios', step='apply_configuration')])
        self.assertEqual('clean_steps', e.field)

    def test_unusable_report_fails_the_cleaning(self):
        two_roots = {'logical_disks': [ROOT, ROOT]}
        node = self._raid_node()
        real = fake_agent._step_result
        self.addCleanup(setattr, fake_agent, '_step_result', real)
        fake_agent._step_result = lambda name, params: {
            'clean_result': two_roots, 'clean_step': params.get('step')}
        node = self._clean(node, [CREATE])
        self.assertEqual(states.CLEANFAIL, node.provision_state)
        self.assertIn('create_configuration', node.last_error)
        self.assertIn('2 root volumes', node.last_error)
        self.assertEqual({}, node.raid_config)


class TestAutomatedRAIDSteps(test_agent_deploy.AgentDeployBase):
    """The agent's RAID steps in automated cleaning: only for the agent
    raid interface, at [deploy]create_configuration_priority and
    delete_configuration_priority (the agent's 0 otherwise)."""

    def _offered(self):
        return [dict(s) for s in fake_agent.CLEAN_STEPS]

    def test_priorities(self):
        self.assertEqual(['erase_devices'], [s['step'] for s in
                                             clean.automated_steps(
                                                 self._offered(), True)])
        self.config(create_configuration_priority=60,
                    delete_configuration_priority=70, group='deploy')
        chosen = clean.automated_steps(self._offered(), True)
        self.assertEqual([('raid', 'delete_configuration', 70),
                          ('raid', 'create_configuration', 60),
                          ('deploy', 'erase_devices', 10)],
                         [(s['interface'], s['step'], s['priority'])
                          for s in chosen])
        # At one priority the deploy interface's step runs before the
        # raid interface's, as in Ironic.
        self.config(create_configuration_priority=10, group='deploy')
        self.assertEqual(['erase_devices', 'create_configuration'],
                         [s['step'] for s in clean.automated_steps(
                             self._offered(), True)][1:])
        # Another raid interface: the agent's RAID steps are not run.
        self.assertEqual(['erase_devices'], [s['step'] for s in
                                             clean.automated_steps(
                                                 self._offered(), False)])

    def test_automated_cleaning_builds_the_target(self):
        self.config(create_configuration_priority=60, group='deploy')
        node = self._node(provision_state=states.MANAGEABLE,
                          raid_interface='agent',
                          target_raid_config={'logical_disks': [ROOT]})
        node = self._act(node, 'provide')
        node = self._heartbeat(self._give_token(node))   # steps read
        node = self._heartbeat(node)                     # RAID built
        node = self._heartbeat(node)                     # disks erased
        self.assertEqual(states.AVAILABLE, node.provision_state)
        self.assertEqual([ROOT], node.raid_config['logical_disks'])


APPLY = {'interface': 'raid', 'step': 'apply_configuration',
         'args': {'raid_config': {'logical_disks': [ROOT]}},
         'priority': 90}


class TestAgentRAIDDeployStep(test_agent_deploy.AgentDeployBase):
    """raid.apply_configuration as a deploy step (a deploy template's or
    the request's): sent to the agent before the image write at 90, the
    configuration recorded once the agent reports it."""

    def _executed(self):
        return [p['step'] for n, p, q in self.agent.received
                if n == deploy.EXECUTE_DEPLOY_STEP]

    def test_apply_configuration(self):
        node = self._node(raid_interface='agent')
        node = self._act(node, 'deploy', {'deploy_steps': [APPLY]})
        node = self._heartbeat(self._give_token(node))  # step started
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        self.assertEqual([APPLY], self._executed())
        self.assertNotIn(deploy.PREPARE_IMAGE, self.agent.names())
        node = self._heartbeat(node)    # built: recorded; write started
        self.assertEqual([ROOT], node.raid_config['logical_disks'])
        self.assertEqual(50, node.properties['local_gb'])
        node = self._heartbeat(node)    # written
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertLess(self.agent.names().index(deploy.EXECUTE_DEPLOY_STEP),
                        self.agent.names().index(deploy.PREPARE_IMAGE))

    def _refused(self, node, steps):
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.api.do_provisioning_action,
                              self.context, node, 'deploy',
                              {'deploy_steps': steps})
        self.assertEqual('deploy_steps', e.field)
        self.assertEqual(states.AVAILABLE, self.db.get_node_by_id(
            node.id).provision_state)
        return e

    def test_bad_arguments_refused(self):
        node = self._node(raid_interface='agent')
        for args, text in (({}, 'requires args.raid_config'),
                           ({'raid_config': {'logical_disks': [
                               dict(ROOT, raid_level='7')]}},
                            'RAID config validation error'),
                           ({'raid_config': APPLY['args']['raid_config'],
                             'delete_existing': 'perhaps'},
                            'delete_existing')):
            e = self._refused(node, [dict(APPLY, args=args)])
            self.assertIn(text, str(e))
        # Not the agent's RAID deploy step; nor where no agent runs.
        self.assertIn('apply_configuration only', str(self._refused(
            node, [dict(APPLY, step='create_configuration')])))
        self.assertIn('needs the agent', str(self._refused(
            node, [dict(APPLY, priority=150)])))

    def test_unusable_report_fails_the_deploy(self):
        node = self._node(raid_interface='agent')
        real = fake_agent._step_result
        self.addCleanup(setattr, fake_agent, '_step_result', real)
        fake_agent._step_result = lambda name, params: {
            'deploy_result': 'done', 'deploy_step': params.get('step')}
        node = self._act(node, 'deploy', {'deploy_steps': [APPLY]})
        node = self._heartbeat(self._heartbeat(self._give_token(node)))
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)
        self.assertIn('deploy step raid.apply_configuration',
                      node.last_error)
        self.assertIn('no RAID configuration', node.last_error)


class TestAgentRAIDServiceStep(test_agent_deploy.AgentDeployBase):
    """raid.apply_configuration as a service step (Ironic's AgentRAID
    marks it one): sent to the agent in servicing, the configuration it
    reports recorded, the node active again."""

    def _active(self):
        node = self._deploy_to_active(self._node(raid_interface='agent'))
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.agent.received.clear()
        return node

    def test_apply_configuration(self):
        node = self._act(self._active(), 'service',
                         {'service_steps': [dict(APPLY, priority=None)]})
        node = self._heartbeat(self._give_token(node))  # step started
        sent = [p['step'] for n, p, q in self.agent.received
                if n == service.EXECUTE_SERVICE_STEP]
        self.assertEqual(['apply_configuration'], [s['step'] for s in sent])
        self.assertEqual(APPLY['args'], sent[0]['args'])
        node = self._heartbeat(node)    # built: recorded, instance booted
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual([ROOT], node.raid_config['logical_disks'])
        self.assertEqual(50, node.properties['local_gb'])

    def test_refused_before_the_node_moves(self):
        node = self._active()
        for step, text in (
                (dict(APPLY, args={}), 'Service step '
                 'raid.apply_configuration requires args.raid_config'),
                (CREATE, 'the service step raid.apply_configuration '
                 'only'),
                (dict(APPLY, args=dict(APPLY['args'], raid_level='1')),
                 'unexpected arguments: raid_level')):
            e = self.assertRaises(exception.InvalidParameterValue,
                                  self.api.do_provisioning_action,
                                  self.context, node, 'service',
                                  {'service_steps': [step]})
            self.assertEqual('service_steps', e.field)
            self.assertIn(text, str(e))
            self.assertEqual(states.ACTIVE, self.db.get_node_by_id(
                node.id).provision_state)
