"""Ironic's reserved step names in manual cleaning (power_on, power_off,
wait), run by the conductor itself: a fake-hardware node (fake deploy and
boot interfaces) boots no ramdisk for them and goes back to manageable.
The same names in a deploy's deploy_steps and deploy templates (with
hold), run by the conductor before or after the fake deploy's own step
(deploy.deploy, priority 100) as their priority says, before the
instance is powered on. And the step options for child nodes refused when they
make no sense."""

import time

from tempest.lib.common.utils import data_utils
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

    @decorators.idempotent_id('4b9e2d71-0c3f-4a86-b5d2-7e1f6a0c8d39')
    def test_interface_step_on_child_nodes(self):
        # The fake vendor's log_passthrough is a clean step of the
        # children's interface: it runs on each of them, the parent
        # boots no ramdisk and is manageable again.
        parent = self._manageable_node()
        children = [self.create_node(parent_node=parent['uuid'],
                                     vendor_interface='fake')
                    for _ in range(2)]
        step = {'interface': 'vendor', 'step': 'log_passthrough',
                'args': {}, 'execute_on_child_nodes': True}
        self.client.set_node_provision_state(parent['uuid'], 'clean',
                                             clean_steps=[step])
        done = self.wait_for_provision_state(parent['uuid'], 'manageable')
        self.assertIsNone(done['last_error'])
        for child in children:
            self.assertIsNone(
                self.client.show_node(child['uuid'])['reservation'])
        # A method that is no clean step of theirs: 400, nothing moves.
        self.assertRaises(
            lib_exc.BadRequest, self.client.set_node_provision_state,
            parent['uuid'], 'clean', clean_steps=[dict(
                step, interface='management', step='inject_nmi')])
        shown = self.client.show_node(parent['uuid'])
        self.assertEqual('manageable', shown['provision_state'])
        self.assertIsNone(shown['last_error'])


class TestReservedDeploySteps(base.BaseBaremetalLikeTest):

    # 1.85: "unhold" (deploy_steps need 1.69, deploy templates 1.55).
    min_microversion = '1.85'

    def _wait_for_power(self, uuid, power_state):
        return self.wait_for(
            lambda: self.client.show_node(uuid)['power_state'] ==
            power_state, 'node %s to be %s' % (uuid, power_state))

    def _off_available_node(self):
        node = self.make_available_node()
        # Off first: the power_on step then has something to do.
        self.client.set_node_power_state(node['uuid'], 'power off')
        self._wait_for_power(node['uuid'], 'power off')
        return node

    def _create_template(self, **fields):
        template = self.client.create_deploy_template(**fields)
        self.addCleanup(self._ignore_not_found,
                        self.client.delete_deploy_template,
                        template['uuid'])
        return template

    @decorators.idempotent_id('5b0d3c55-8a61-4f0e-9d4b-2f61c7a0e3d2')
    def test_power_wait_and_hold_deploy_steps(self):
        node = self._off_available_node()
        steps = [{'interface': 'bios', 'step': 'power_on', 'args': {},
                  'priority': 90},
                 {'interface': 'deploy', 'step': 'wait',
                  'args': {'seconds': WAIT_SECONDS}, 'priority': 80},
                 {'interface': 'power', 'step': 'power_off', 'args': {},
                  'priority': 70},
                 {'interface': 'deploy', 'step': 'hold', 'args': {},
                  'priority': 60}]
        started = time.monotonic()
        self.client.set_node_provision_state(node['uuid'], 'active',
                                             deploy_steps=steps)
        held = self.wait_for_provision_state(node['uuid'], 'deploy hold')
        # On hold only once the steps before it are over: the wait step
        # took its second, and power_off came after power_on.
        self.assertGreaterEqual(time.monotonic() - started, WAIT_SECONDS)
        self.assertEqual('active', held['target_provision_state'])
        self.assertEqual('power off', held['power_state'])
        self.assertIsNone(held['last_error'])
        self.client.set_node_provision_state(node['uuid'], 'unhold')
        done = self.wait_for_provision_state(node['uuid'], 'active')
        self.assertIsNone(done['last_error'])
        self.assertEqual('power on', done['power_state'])

    @decorators.idempotent_id('0e2b8f0e-5c8d-4d8e-a9a4-7d1f3f4b6c11')
    def test_deploy_template_with_reserved_steps(self):
        trait = 'CUSTOM_' + data_utils.rand_name('CYCLE').upper().replace(
            '-', '_')
        self._create_template(name=trait, steps=[
            {'interface': 'management', 'step': 'reboot', 'args': {},
             'priority': 50},
            {'interface': 'deploy', 'step': 'wait',
             'args': {'seconds': WAIT_SECONDS}, 'priority': 40}])
        node = self._off_available_node()
        self.client.set_node_traits(node['uuid'], [trait])
        self.client.update_node(node['uuid'], [
            {'op': 'add', 'path': '/instance_info/traits',
             'value': [trait]}])
        started = time.monotonic()
        self.client.set_node_provision_state(node['uuid'], 'active')
        done = self.wait_for_provision_state(node['uuid'], 'active')
        self.assertGreaterEqual(time.monotonic() - started, WAIT_SECONDS)
        self.assertIsNone(done['last_error'])
        self.assertEqual('power on', done['power_state'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('c7f4e0a2-3b9e-4f57-8f0d-6a2d9e1b5f48')
    def test_child_node_options_refused(self):
        # Ironic's deploy template steps have no child-node options.
        trait = 'CUSTOM_' + data_utils.rand_name('KIDS').upper().replace(
            '-', '_')
        self.assertRaises(
            lib_exc.BadRequest, self.client.create_deploy_template,
            name=trait, steps=[{'interface': 'power', 'step': 'power_off',
                                'args': {}, 'priority': 50,
                                'execute_on_child_nodes': True}])
        # deploy_steps may send power steps to child nodes, not others.
        node = self.make_available_node()
        self.assertRaises(
            lib_exc.BadRequest, self.client.set_node_provision_state,
            node['uuid'], 'active', deploy_steps=[
                {'interface': 'deploy', 'step': 'hold', 'args': {},
                 'priority': 50, 'execute_on_child_nodes': True}])
        shown = self.client.show_node(node['uuid'])
        self.assertEqual('available', shown['provision_state'])
        self.assertIsNone(shown['target_provision_state'])


class TestDeployStepPlaces(base.BaseBaremetalLikeTest):
    """With the agent deploy, a deploy step runs where its priority puts
    it among the deploy's own steps (deploy.deploy 100, write_image 80,
    prepare_instance_boot 60, tear_down_agent 40, boot_instance 20), as
    in Ironic. The node's boot interface is fake: no ramdisk boots, and
    the node waits for an agent nobody plays."""

    # 1.85: "unhold".
    min_microversion = '1.85'

    def _agent_node(self):
        # Made available with the fake deploy interface (automated
        # cleaning would wait for an agent), then given the agent's.
        node = self.make_available_node(boot_interface='fake')
        self.client.update_node(node['uuid'], [
            {'op': 'replace', 'path': '/deploy_interface',
             'value': 'agent'},
            {'op': 'add', 'path': '/instance_info/image_source',
             'value': 'http://127.0.0.1:9/image.raw'},
            {'op': 'add', 'path': '/instance_info/image_checksum',
             'value': 'sha256:' + 'a' * 64}])
        self.client.set_node_power_state(node['uuid'], 'power on')
        self.wait_for(lambda: self.client.show_node(node['uuid'])[
            'power_state'] == 'power on', 'node %s on' % node['uuid'])
        return node

    @decorators.idempotent_id('3a6f2c1e-7d4b-4e8a-9c5f-1b2d3e4f5a60')
    def test_steps_before_the_ramdisk_boots(self):
        node = self._agent_node()
        self.client.set_node_provision_state(node['uuid'], 'active',
                                             deploy_steps=[
            {'interface': 'power', 'step': 'power_off', 'args': {},
             'priority': 150},
            {'interface': 'deploy', 'step': 'hold', 'args': {},
             'priority': 120}])
        held = self.wait_for_provision_state(node['uuid'], 'deploy hold')
        # Held before the ramdisk was powered on: off, as the first step
        # left it.
        self.assertEqual('power off', held['power_state'])
        self.assertIsNone(held['last_error'])
        info = held['driver_internal_info']
        self.assertEqual(
            ['power_off', 'hold', 'deploy', 'write_image',
             'prepare_instance_boot', 'tear_down_agent', 'boot_instance'],
            [step['step'] for step in info['deploy_steps']])
        self.assertEqual(2, info['deploy_step_index'])
        # No agent heartbeats before the ramdisk: unhold carries on, and
        # the ramdisk is powered on to wait for its agent.
        self.client.set_node_provision_state(node['uuid'], 'unhold')
        waiting = self.wait_for_provision_state(node['uuid'],
                                                'wait call-back')
        self.assertEqual('power on', waiting['power_state'])
        self.assertEqual('active', waiting['target_provision_state'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('8e1d4c7b-2a5f-4b39-8d06-5c7e9f1a2b43')
    def test_agent_step_where_no_agent_runs_refused(self):
        node = self._agent_node()
        for priority in (150, 30):
            self.assertRaises(
                lib_exc.BadRequest, self.client.set_node_provision_state,
                node['uuid'], 'active', deploy_steps=[
                    {'interface': 'deploy', 'step': 'erase_devices',
                     'args': {}, 'priority': priority}])
        shown = self.client.show_node(node['uuid'])
        self.assertEqual('available', shown['provision_state'])
        self.assertIsNone(shown['target_provision_state'])
