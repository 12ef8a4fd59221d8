"""Out-of-band clean and service steps: methods of the node's interfaces
marked as steps (drivers.base.clean_step, service_step), run by the
conductor as Ironic runs them (``method(task, **args)``), here the fake
BIOS's and fake RAID's; with a running conductor and a fake agent."""

from unittest import mock

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import clean
from ironic_like.conductor.flows import interface_steps
from ironic_like.conductor.flows import service
from ironic_like.drivers.modules import fake
from ironic_like.tests.unit.conductor import test_agent_deploy
from ironic_like.tests.unit.db import utils

APPLY = {'interface': 'bios', 'step': 'apply_configuration',
         'args': {'settings': [{'name': 'ProcVirtualization',
                                'value': 'Disabled'}]}}
RESET = {'interface': 'bios', 'step': 'factory_reset', 'args': {}}
ERASE = {'interface': 'deploy', 'step': 'erase_devices', 'args': {}}
ROOT = {'size_gb': 20, 'raid_level': '1', 'is_root_volume': True}


class OutOfBandBase(test_agent_deploy.AgentDeployBase):

    def setUp(self):
        super().setUp()
        self.config(enabled_bios_interfaces=['fake', 'no-bios'])
        self.config(enabled_raid_interfaces=['fake', 'agent', 'no-raid'])

    def _setting(self, node, name):
        return self.db.get_bios_setting(node.id, name).value

    def _agent_steps(self, command):
        return [p['step']['step'] for n, p, q in self.agent.received
                if n == command]


class TestOutOfBandCleanSteps(OutOfBandBase):

    def _manageable(self, **kwargs):
        values = {'provision_state': states.MANAGEABLE,
                  'bios_interface': 'fake'}
        values.update(kwargs)
        return self._node(**values)

    def test_with_the_agent_steps(self):
        node = self._manageable()
        node = self._act(node, 'clean', {'clean_steps': [APPLY, ERASE]})
        # The BIOS step needs the ramdisk (Ironic's default): it boots.
        self.assertEqual(states.CLEANWAIT, node.provision_state)
        node = self._heartbeat(self._give_token(node))  # steps read,
        #                              the BIOS set here, erase started
        self.assertEqual('Disabled',
                         self._setting(node, 'ProcVirtualization'))
        node = self._heartbeat(node)                     # erase over
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        # Only the erase went to the agent.
        self.assertEqual(['erase_devices'],
                         self._agent_steps(clean.EXECUTE_CLEAN_STEP))
        # factory_reset puts the factory settings back.
        node = self._act(node, 'clean', {'clean_steps': [RESET]})
        node = self._heartbeat(self._give_token(node))
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertEqual(fake.FakeBIOS.SETTINGS['ProcVirtualization'],
                         self._setting(node, 'ProcVirtualization'))

    def test_without_node_flows(self):
        # The fake deploy interface: no agent; the conductor runs it.
        node = utils.create_test_node(
            provision_state=states.MANAGEABLE, raid_interface='fake',
            target_raid_config={'logical_disks': [ROOT]})
        node = self._act(node, 'clean', {'clean_steps': [
            {'interface': 'raid', 'step': 'create_configuration'}]})
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual([ROOT], node.raid_config['logical_disks'])
        self.assertEqual(20, node.properties['local_gb'])

    def test_a_failed_step_fails_the_cleaning(self):
        node = self._manageable()
        node = self._act(node, 'clean', {'clean_steps': [dict(
            APPLY, args={'settings': 'all of them'})]})
        node = self._heartbeat(self._give_token(node))
        self.assertEqual(states.CLEANFAIL, node.provision_state)
        self.assertIn('apply_configuration', node.last_error)
        self.assertIn('settings must be a list', node.last_error)

    def _refused(self, node, params):
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.api.do_provisioning_action,
                              self.context, node, 'clean', params)
        self.assertEqual(states.MANAGEABLE, self.db.get_node_by_id(
            node.id).provision_state)
        return e

    def test_hold_after_a_power_off_unheld_at_once(self):
        node = self._manageable()
        node = self._act(node, 'clean', {'clean_steps': [
            {'interface': 'power', 'step': 'power_off'},
            {'interface': 'deploy', 'step': 'hold'}, APPLY,
            {'interface': 'power', 'step': 'power_on'}]})
        node = self._heartbeat(self._give_token(node))
        self.assertEqual(states.CLEANHOLD, node.provision_state)
        self.assertEqual(states.POWER_OFF, self._power(node))
        # The agent is off: no heartbeat would come. The BIOS step and
        # the power_on run at once.
        node = self._act(node, 'unhold')
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual('Disabled',
                         self._setting(node, 'ProcVirtualization'))

    def test_arguments_checked_before_the_node_moves(self):
        node = self._manageable()
        for args, text in (({}, 'missing these required arguments: '
                                'settings'),
                           (dict(APPLY['args'], force=True),
                            'unexpected arguments: force')):
            e = self._refused(node, {'clean_steps': [
                ERASE, dict(APPLY, args=args)]})
            self.assertEqual('clean_steps', e.field)
            self.assertIn(text, str(e))
        self.assertEqual([], self.agent.received)
        # The fake RAID's create needs a target, as the agent's does.
        node = utils.create_test_node(provision_state=states.MANAGEABLE,
                                      raid_interface='fake')
        e = self._refused(node, {'clean_steps': [
            {'interface': 'raid', 'step': 'create_configuration'}]})
        self.assertEqual('target_raid_config', e.field)

    def test_refused_before_the_node_moves(self):
        node = self._manageable()
        # Not a step: a method of the interface all the same.
        e = self._refused(node, {'clean_steps': [dict(
            APPLY, step='get_bios_settings')]})
        self.assertEqual('clean_steps', e.field)
        # Ironic's BIOS steps need the ramdisk: not with disable_ramdisk.
        e = self._refused(node, {'clean_steps': [APPLY],
                                 'disable_ramdisk': True})
        self.assertIn('requires the agent ramdisk', str(e))
        # The no-bios interface has none.
        e = self._refused(self._manageable(bios_interface='no-bios'),
                          {'clean_steps': [APPLY]})
        self.assertIn('bios.apply_configuration', str(e))


class TestOutOfBandServiceSteps(OutOfBandBase):

    def test_bios_settings_of_an_active_node(self):
        node = self._deploy_to_active(self._node(bios_interface='fake'))
        self.assertEqual(states.ACTIVE, node.provision_state)
        node = self._act(node, 'service', {'service_steps': [APPLY]})
        # Ironic's BIOS steps need the ramdisk: it boots.
        self.assertEqual(states.SERVICEWAIT, node.provision_state)
        node = self._heartbeat(self._give_token(node))
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual('Disabled',
                         self._setting(node, 'ProcVirtualization'))
        self.assertEqual([], self._agent_steps(
            service.EXECUTE_SERVICE_STEP))

    def test_raid_steps_of_the_agent_refused(self):
        # Ironic's agent RAID has no such service steps.
        node = self._node(provision_state=states.ACTIVE,
                          raid_interface='agent',
                          target_raid_config={'logical_disks': [ROOT]})
        e = self.assertRaises(
            exception.InvalidParameterValue,
            self.api.do_provisioning_action, self.context, node, 'service',
            {'service_steps': [{'interface': 'raid',
                                'step': 'create_configuration'}]})
        self.assertEqual('service_steps', e.field)
        self.assertEqual(states.ACTIVE, self.db.get_node_by_id(
            node.id).provision_state)


# No arguments: the step has no argsinfo, so any would be refused (as
# Ironic refuses them).
LOG_STEP = {'interface': 'vendor', 'step': 'log_passthrough', 'args': {}}


class TestStepsWithoutTheRamdisk(OutOfBandBase):
    """The fake vendor's log_passthrough, a service step marked as not
    needing the ramdisk and a manual clean step, as Ironic's fake
    vendor's."""

    def setUp(self):
        super().setUp()
        self.config(enabled_vendor_interfaces=['fake', 'no-vendor'])

    def test_servicing_does_not_boot_the_ramdisk(self):
        node = self._deploy_to_active(self._node(vendor_interface='fake'))
        with mock.patch.object(fake, 'LOG') as log:
            node = self._act(node, 'service', {'service_steps': [LOG_STEP]})
        # Done at once: no ramdisk booted, no agent asked.
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        log.info.assert_called_once_with(
            'Node %s: fake vendor log_passthrough: %s', node.uuid, {})
        self.assertEqual([], self._agent_steps(
            service.EXECUTE_SERVICE_STEP))

    def test_arguments_checked_with_disable_ramdisk(self):
        node = self._deploy_to_active(self._node(vendor_interface='fake'))
        e = self.assertRaises(
            exception.InvalidParameterValue,
            self.api.do_provisioning_action, self.context, node, 'service',
            {'service_steps': [dict(LOG_STEP, args={'loud': True})],
             'disable_ramdisk': True})
        self.assertIn('unexpected arguments: loud', str(e))
        self.assertEqual('service_steps', e.kwargs.get('field'))
        self.assertEqual(states.ACTIVE,
                         self.db.get_node_by_id(node.id).provision_state)

    def test_manual_cleaning_with_disable_ramdisk(self):
        # A clean step that needs no ramdisk may run with
        # disable_ramdisk (1.70); Ironic's marks it only for servicing,
        # so cleaning refuses it, as Ironic does.
        node = self._node(provision_state=states.MANAGEABLE,
                          vendor_interface='fake')
        e = self.assertRaises(
            exception.InvalidParameterValue,
            self.api.do_provisioning_action, self.context, node, 'clean',
            {'clean_steps': [LOG_STEP], 'disable_ramdisk': True})
        self.assertIn('requires the agent ramdisk', str(e))
        # With the ramdisk, it runs in its turn.
        with mock.patch.object(fake, 'LOG') as log:
            node = self._act(node, 'clean', {'clean_steps': [LOG_STEP]})
            node = self._heartbeat(self._give_token(node))
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertTrue(log.info.called)


class TestAutomatedOutOfBandSteps(OutOfBandBase):
    """Automated cleaning runs the out-of-band clean steps of the node's
    interfaces whose priority is above 0, by their mark (the fake
    vendor's log_passthrough: 1) or by [conductor]
    clean_step_priority_override, among the agent's, in Ironic's
    order."""

    def setUp(self):
        super().setUp()
        self.config(enabled_vendor_interfaces=['fake', 'no-vendor'])

    def test_steps_chosen_and_ordered(self):
        node = self._node(vendor_interface='fake', bios_interface='fake')
        out_of_band = interface_steps.automated_out_of_band(node)
        self.assertEqual({('bios', 'apply_configuration', 0),
                          ('bios', 'factory_reset', 0),
                          ('raid', 'create_configuration', 0),
                          ('raid', 'delete_configuration', 0),
                          ('vendor', 'log_passthrough', 1)},
                         {(s['interface'], s['step'], s['priority'])
                          for s in out_of_band})
        offered = [dict(ERASE, priority=10)]
        self.assertEqual(
            [('deploy', 'erase_devices', 10),
             ('vendor', 'log_passthrough', 1)],
            [(s['interface'], s['step'], s['priority']) for s in
             clean.automated_steps(offered, False, out_of_band)])
        # Overrides: in-band and out-of-band, 0 leaves a step out, a
        # priority that is no number is ignored.
        self.config(clean_step_priority_override=[
            {'bios.factory_reset': '10', 'deploy.erase_devices': '0'},
            {'vendor.log_passthrough': 'high'}], group='conductor')
        self.assertEqual(
            [('bios', 'factory_reset', 10),
             ('vendor', 'log_passthrough', 1)],
            [(s['interface'], s['step'], s['priority']) for s in
             clean.automated_steps(offered, False, out_of_band)])

    def test_automated_cleaning_runs_them(self):
        self.config(clean_step_priority_override=[
            {'bios.factory_reset': '20'}], group='conductor')
        node = self._node(provision_state=states.MANAGEABLE,
                          vendor_interface='fake', bios_interface='fake')
        with mock.patch.object(fake, 'LOG') as log:
            node = self._act(node, 'provide')
            node = self._heartbeat(self._give_token(node))  # steps read,
            #                 factory_reset run here, erase started
            self.assertEqual(states.CLEANWAIT, node.provision_state)
            node = self._heartbeat(node)  # erase over, log_passthrough
        self.assertEqual(states.AVAILABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertTrue(any('log_passthrough' in c.args[0]
                            for c in log.info.call_args_list))
        self.assertEqual(fake.FakeBIOS.SETTINGS['ProcVirtualization'],
                         self._setting(node, 'ProcVirtualization'))
        # Only the erase went to the agent.
        self.assertEqual(['erase_devices'],
                         self._agent_steps(clean.EXECUTE_CLEAN_STEP))

    def test_without_the_agent(self):
        # The fake deploy interface (no agent, no flows): the conductor
        # runs them all the same, in the provisioning worker.
        node = utils.create_test_node(provision_state=states.MANAGEABLE,
                                      vendor_interface='fake')
        with mock.patch.object(fake, 'LOG') as log:
            node = self._act(node, 'provide')
        self.assertEqual(states.AVAILABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        log.info.assert_called_once_with(
            'Node %s: fake vendor log_passthrough: %s', node.uuid, {})
        # Priority 0 by override: not run.
        self.config(clean_step_priority_override=[
            {'vendor.log_passthrough': '0'}], group='conductor')
        node = self._act(node, 'manage')
        with mock.patch.object(fake, 'LOG') as log:
            node = self._act(node, 'provide')
        self.assertEqual(states.AVAILABLE, node.provision_state)
        self.assertFalse(log.info.called)
