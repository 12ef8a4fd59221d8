"""The agent deploy interface and its flows, end to end in one process: a
running conductor, fake power and boot, and a fake agent on loopback."""

import hashlib
import threading
from unittest import mock

import fixtures

from ironic_like.common import agent_info
from ironic_like.common import agent_token
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import clean
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor.flows import persistence
from ironic_like.conductor import locks
from ironic_like.conductor import provisioning
from ironic_like.drivers.modules import agent_client
from ironic_like.drivers.modules import fake
from ironic_like.tests.unit.conductor import fake_agent
from ironic_like.tests.unit.conductor import utils as cond_utils
from ironic_like.tests.unit.db import utils

IMAGE = 'http://127.0.0.1:9/images/disk.img'
CHECKSUM = hashlib.sha256(b'image').hexdigest()


def _settled(node):
    return node.provision_state not in states.TRANSIENT_STATES


class AgentDeployBase(cond_utils.ConductorTestCase):
    """A running conductor, a fake agent, and the steps of a deploy."""

    def setUp(self):
        super().setUp()
        self.agent = self.useFixture(fake_agent.FakeAgent())

    def _node(self, **kwargs):
        values = {'provision_state': states.AVAILABLE,
                  'deploy_interface': 'agent', 'boot_interface': 'fake',
                  'instance_info': {'image_source': IMAGE,
                                    'image_checksum': CHECKSUM,
                                    'root_gb': 10}}
        values.update(kwargs)
        node = utils.create_test_node(**values)
        utils.create_test_port(node.id)
        return node

    def _act(self, node, event, params=None):
        self.api.do_provisioning_action(self.context, node, event, params)
        return utils.wait_for_node(node.uuid, _settled)

    def _give_token(self, node):
        # The ipxe boot interface would have handed out a token; the fake
        # one does not, so the agent gets one as on lookup.
        return self.db.update_node(node.id, {
            'driver_internal_info': agent_token.with_new_token(
                node.driver_internal_info)})

    def _heartbeat(self, node, token=None):
        node = self.db.get_node_by_uuid(node.uuid)
        token = token or agent_token.get(node.driver_internal_info)
        self.api.heartbeat(self.context, node, self.agent.url,
                           agent_version='10.0', agent_token=token)
        return utils.wait_for_node(node.uuid, _settled)

    def _phase(self, node):
        return (node.driver_internal_info or {}).get(agent_info.PHASE)

    def _power(self, node):
        return (node.driver_internal_info or {}).get(fake.FAKE_POWER_KEY)

    def _deploy_to_active(self, node):
        node = self._act(node, 'deploy')
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        self.assertEqual('deploy-write-image', self._phase(node))
        self.assertEqual(states.POWER_ON, self._power(node))
        node = self._give_token(node)
        self.token = agent_token.get(node.driver_internal_info)
        node = self._heartbeat(node)
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        self.assertEqual('deploy-image-running', self._phase(node))
        return self._heartbeat(node)


class AgentDeployTestCase(AgentDeployBase):

    def test_deploy(self):
        node = self._node()
        node = self._deploy_to_active(node)
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.target_provision_state)
        self.assertIsNone(node.last_error)
        name, params, query = self.agent.received[0]
        self.assertEqual('standby.prepare_image', name)
        self.assertEqual({'id': 'disk.img', 'urls': [IMAGE],
                          'os_hash_algo': 'sha256',
                          'os_hash_value': CHECKSUM, 'disk_format': 'raw',
                          'root_gb': 10}, params['image_info'])
        # The token travels in a header, and in the query, where
        # ironic-python-agent reads it ([agent]command_token_in_query).
        self.assertEqual({'wait': 'false', 'agent_token': self.token},
                         query)
        self.assertTrue(self.agent.tokens)
        self.assertEqual({self.token}, set(self.agent.tokens))
        info = node.driver_internal_info
        # Out of the ramdisk: token, agent URL and phase are gone; the
        # flow's progress too.
        self.assertFalse(agent_token.is_present(info))
        self.assertNotIn(agent_info.AGENT_URL, info)
        self.assertNotIn(agent_info.PHASE, info)
        self.assertIsNone(persistence.recorded(node))
        self.assertEqual({'boot_device': 'disk', 'persistent': True},
                         info[fake.FakeManagement.KEY])
        self.assertEqual(states.POWER_ON, self._power(node))

    def test_disable_power_off_reboots_instead(self):
        # API 1.95: the node is never powered off, by the deploy nor by a
        # failed clean; its boots are reboots.
        node = self._node(disable_power_off=True,
                          power_state=states.POWER_ON,
                          driver_internal_info={
                              fake.FAKE_POWER_KEY: states.POWER_ON})
        real = fake.FakePower.set_power_state
        with mock.patch.object(fake.FakePower, 'set_power_state',
                               autospec=True, side_effect=real) as power, \
                mock.patch.object(fake.FakePower, 'reboot', autospec=True,
                                  side_effect=fake.FakePower.reboot) as boot:
            node = self._deploy_to_active(node)
            self.assertEqual(states.ACTIVE, node.provision_state)
            self.assertTrue(boot.called)
            node = self.db.update_node(node.id, {
                'provision_state': states.CLEANING,
                'target_provision_state': states.AVAILABLE})
            with locks.acquire(self.context, node.id) as task:
                node_steps.fail_node(task, 'cleaning failed')
        self.assertNotIn(states.POWER_OFF,
                         [c.args[2] for c in power.call_args_list])
        node = self.db.get_node_by_id(node.id)
        self.assertEqual(states.CLEANFAIL, node.provision_state)
        self.assertEqual(states.POWER_ON, self._power(node))

    def test_token_of_an_earlier_agent_dropped(self):
        # E.g. the flow resumed at power-on after its agent looked up: the
        # agent booted now must get a new token from its lookup.
        node = self._node(driver_internal_info=agent_token.with_new_token(
            {'kept': 'yes'}))
        node = self._act(node, 'deploy')
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        self.assertFalse(agent_token.is_present(node.driver_internal_info))
        self.assertEqual('yes', node.driver_internal_info['kept'])

    def test_configdrive_is_written(self):
        node = self._node()
        self.api.do_provisioning_action(self.context, node, 'deploy',
                                        {'configdrive': {'meta_data': {}}})
        node = utils.wait_for_node(node.uuid, _settled)
        self.assertEqual({'meta_data': {}},
                         node.instance_info['configdrive'])

    def test_heartbeat_while_image_is_written_changes_nothing(self):
        self.agent.hold.add('standby.prepare_image')
        node = self._node()
        node = self._act(node, 'deploy')
        node = self._give_token(node)
        node = self._heartbeat(node)
        node = self._heartbeat(node)
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        self.assertEqual(['standby.prepare_image'], self.agent.names())
        self.agent.finish('standby.prepare_image')
        node = self._heartbeat(node)
        self.assertEqual(states.ACTIVE, node.provision_state)

    def test_agent_that_forgot_the_write_starts_again(self):
        # E.g. rebooted by the heartbeat timeout while writing.
        self.agent.hold.add('standby.prepare_image')
        node = self._node()
        node = self._act(node, 'deploy')
        node = self._give_token(node)
        node = self._heartbeat(node)
        with self.agent.lock:
            del self.agent.commands[:]
        self.agent.hold.clear()
        node = self._heartbeat(node)   # lost: the write starts again
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        self.assertEqual(['standby.prepare_image'] * 2, self.agent.names())
        node = self._heartbeat(node)
        self.assertEqual(states.ACTIVE, node.provision_state)

    def test_write_sent_by_a_dead_conductor_is_followed(self):
        # The conductor that sent standby.prepare_image died before it
        # recorded the command's id: the resumed step must not send a
        # second one (the agent would answer 409 busy).
        self.agent.hold.add('standby.prepare_image')
        node = self._give_token(self._act(self._node(), 'deploy'))
        node = self.db.get_node_by_uuid(node.uuid)
        info = dict(node.driver_internal_info)
        info[agent_info.AGENT_URL] = self.agent.url
        node = self.db.update_node(node.id, {'driver_internal_info': info})
        agent_client.start_command(node, 'standby.prepare_image', {})
        node = self._heartbeat(node)
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        self.assertEqual(['standby.prepare_image'], self.agent.names())
        self.agent.finish('standby.prepare_image')
        node = self._heartbeat(node)
        self.assertEqual(states.ACTIVE, node.provision_state)

    def _left_by_dead_conductor(self, record):
        node = self._give_token(self._act(self._node(), 'deploy'))
        info = dict(node.driver_internal_info)
        info[agent_info.AGENT_URL] = self.agent.url
        if record:
            info[persistence.RECORD_KEY] = record
        node = self.db.update_node(node.id, {
            'driver_internal_info': info,
            'provision_state': states.DEPLOYING})
        with locks.acquire(self.context, node.id) as task:
            self.assertTrue(provisioning.fail_interrupted(task, 'dead'))
        return utils.wait_for_node(
            node.uuid, lambda n: n.provision_state != states.DEPLOYING)

    def test_take_over_without_flow_record_carries_on(self):
        # Died between "resume" (wait call-back -> deploying) and the
        # start of deploy-write-image: that flow runs now.
        node = self._left_by_dead_conductor(None)
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        self.assertEqual('deploy-image-running', self._phase(node))
        self.assertEqual(['standby.prepare_image'], self.agent.names())

    def test_take_over_with_lost_progress_carries_on(self):
        node = self._left_by_dead_conductor({
            'name': 'deploy-write-image', 'book': 'f' * 32,
            'detail': 'e' * 32})
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        self.assertEqual(['standby.prepare_image'], self.agent.names())

    def test_bad_checksum_fails_deploy(self):
        self.agent.fail['standby.prepare_image'] = (
            'Image checksum mismatch: expected abc, got def')
        node = self._node()
        node = self._act(node, 'deploy')
        node = self._give_token(node)
        node = self._heartbeat(node)
        node = self._heartbeat(node)
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)
        self.assertIn('deploy-write-image', node.last_error)
        self.assertIn('checksum mismatch', node.last_error)
        self.assertEqual(states.POWER_OFF, self._power(node))
        self.assertFalse(agent_token.is_present(node.driver_internal_info))

    def test_missing_image_fails_at_validate(self):
        node = self._node(instance_info={'image_checksum': CHECKSUM})
        node = self._act(node, 'deploy')
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)
        self.assertIn('step deploy-validate', node.last_error)
        self.assertIn('image_source', node.last_error)
        self.assertEqual(states.POWER_OFF, self._power(node))
        self.assertIsNone(persistence.recorded(node))

    def test_bad_checksum_format_fails_at_validate(self):
        node = self._node(instance_info={'image_source': IMAGE,
                                         'image_checksum': 'abc'})
        node = self._act(node, 'deploy')
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)
        self.assertIn('image_checksum', node.last_error)

    def test_undeploy_cleans(self):
        node = self._deploy_to_active(self._node())
        node = self._act(node, 'deleted')
        self.assertEqual(states.CLEANWAIT, node.provision_state)
        self.assertEqual(states.AVAILABLE, node.target_provision_state)
        self.assertEqual({}, node.instance_info)
        node = self._give_token(node)
        node = self._heartbeat(node)   # steps read, erase started
        self.assertEqual(states.CLEANWAIT, node.provision_state)
        self.assertEqual('clean-step-running', self._phase(node))
        node = self._heartbeat(node)   # erase done -> finish
        self.assertEqual(states.AVAILABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        executed = [p['step']['step'] for n, p, q in self.agent.received
                    if n == 'clean.execute_clean_step']
        self.assertEqual(['erase_devices'], executed)
        self.assertEqual(states.POWER_OFF, self._power(node))
        self.assertNotIn(clean.STEPS, node.driver_internal_info)

    def test_automated_clean_without_steps(self):
        self.config(erase_devices_priority=0, group='deploy')
        node = self._node(provision_state=states.MANAGEABLE)
        node = self._act(node, 'provide')
        node = self._give_token(node)
        node = self._heartbeat(node)
        self.assertEqual(states.AVAILABLE, node.provision_state)
        self.assertNotIn('clean.execute_clean_step', self.agent.names())

    def test_manual_clean(self):
        node = self._node(provision_state=states.MANAGEABLE)
        steps = [{'interface': 'deploy', 'step': 'update_firmware',
                  'args': {'firmware_images': [{'url': 'http://x/fw'}]}},
                 {'interface': 'deploy', 'step': 'apply_bios_settings',
                  'args': {'settings': [{'name': 'a', 'value': 'b'}]}}]
        node = self._act(node, 'clean', {'clean_steps': steps})
        node = self._give_token(node)
        node = self._heartbeat(node)
        node = self._heartbeat(node)
        node = self._heartbeat(node)
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.target_provision_state)
        executed = [p['step'] for n, p, q in self.agent.received
                    if n == 'clean.execute_clean_step']
        self.assertEqual(['update_firmware', 'apply_bios_settings'],
                         [s['step'] for s in executed])
        self.assertEqual(steps[1]['args'], executed[1]['args'])

    def test_manual_clean_unknown_step(self):
        node = self._node(provision_state=states.MANAGEABLE)
        node = self._act(node, 'clean', {'clean_steps': [
            {'interface': 'deploy', 'step': 'make_coffee'}]})
        node = self._give_token(node)
        node = self._heartbeat(node)
        self.assertEqual(states.CLEANFAIL, node.provision_state)
        self.assertIn('make_coffee', node.last_error)
        self.assertIn('clean-get-steps', node.last_error)

    def test_clean_step_failure(self):
        self.agent.fail['clean.execute_clean_step'] = 'disk on fire'
        node = self._node(provision_state=states.MANAGEABLE)
        node = self._act(node, 'provide')
        node = self._give_token(node)
        node = self._heartbeat(node)
        node = self._heartbeat(node)
        self.assertEqual(states.CLEANFAIL, node.provision_state)
        self.assertIn('erase_devices', node.last_error)
        self.assertIn('disk on fire', node.last_error)

    def _block_ramdisk_preparation(self):
        """The next flow that prepares the ramdisk stops there until the
        returned event is set (bounded: 10 s); ``entered`` is set once it
        got there."""
        entered, release = threading.Event(), threading.Event()
        real = fake.FakeBoot.prepare_ramdisk

        def blocked(boot, task):
            entered.set()
            release.wait(10)
            return real(boot, task)
        self.useFixture(fixtures.MockPatchObject(
            fake.FakeBoot, 'prepare_ramdisk', blocked))
        self.addCleanup(release.set)
        return entered, release

    def _abort_while_working(self, node, event, failed_state):
        entered, release = self._block_ramdisk_preparation()
        self.api.do_provisioning_action(self.context, node, event, None)
        self.assertTrue(entered.wait(10))
        working = self.db.get_node_by_id(node.id)
        self.assertIn(working.provision_state, (states.DEPLOYING,
                                                states.CLEANING))
        self.assertIsNotNone(working.reservation)
        # Accepted although the node is locked by the work: it stops at
        # the end of the current step.
        self.api.do_provisioning_action(self.context, working, 'abort',
                                        None)
        release.set()
        node = utils.wait_for_node(
            node.uuid, lambda n: n.provision_state == failed_state and
            n.reservation is None and self._power(n) == states.POWER_OFF)
        self.assertEqual('Aborted by request.', node.last_error)
        self.assertNotIn(agent_info.PHASE, node.driver_internal_info)
        self.assertIsNone(persistence.recorded(node))
        return node

    def test_abort_while_deploying(self):
        self._abort_while_working(self._node(), 'deploy', states.DEPLOYFAIL)

    def test_abort_while_cleaning(self):
        self._abort_while_working(
            self._node(provision_state=states.MANAGEABLE), 'provide',
            states.CLEANFAIL)

    def test_abort_refused_where_unsafe(self):
        node = self._node(provision_state=states.DELETING)
        self.assertRaises(exception.InvalidStateRequested,
                          self.api.do_provisioning_action, self.context,
                          node, 'abort', None)
        self.assertEqual(states.DELETING,
                         self.db.get_node_by_id(node.id).provision_state)

    def test_abort_of_orphaned_deploying_node(self):
        # Nobody works on it (its worker was killed): aborted at once.
        node = self._node(provision_state=states.DEPLOYING,
                          target_provision_state=states.ACTIVE)
        node = self._act(node, 'abort')
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)
        self.assertEqual('Aborted by request.', node.last_error)

    def test_abort_wait_powers_off(self):
        node = self._act(self._node(), 'deploy')
        node = self._act(node, 'abort')
        node = utils.wait_for_node(
            node.uuid, lambda n: self._power(n) == states.POWER_OFF)
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)
        self.assertNotIn(agent_info.PHASE, node.driver_internal_info)
