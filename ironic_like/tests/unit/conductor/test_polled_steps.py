"""Out-of-band steps that go on outside the conductor (drivers.base.
Polling): the node waits with no worker and no lock held, the periodic
poll (conductor/step_polling.py) carries the work on once the step is
done, or fails it; in cleaning and servicing with the agent and without
it, in the agent deploy, with abort and the agent timeouts. The fake
BIOS's factory_reset is replaced by a step that is polled twice."""

import datetime
from unittest import mock

from ironic_like.common import agent_info
from ironic_like.common import current_steps
from ironic_like.common import deploy_templates
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import agent_timeouts
from ironic_like.conductor import power
from ironic_like.conductor.flows import clean
from ironic_like.conductor.flows import deploy
from ironic_like.conductor.flows import polled_steps
from ironic_like.conductor.flows import runner
from ironic_like.conductor import servicing
from ironic_like.conductor import step_polling
from ironic_like.conductor import takeover
from ironic_like.drivers import base as drivers_base
from ironic_like.drivers.modules import fake
from ironic_like.tests.unit.conductor import test_agent_deploy
from ironic_like.tests.unit.conductor import test_out_of_band_steps
from ironic_like.tests.unit.db import utils

POLLED = {'interface': 'bios', 'step': 'factory_reset', 'args': {}}
ERASE = test_out_of_band_steps.ERASE
POWER_OFF = {'interface': 'power', 'step': 'power_off', 'args': {}}
# Long past any agent timeout.
FAR = datetime.datetime(2999, 1, 1)


class PolledStepsBase(test_out_of_band_steps.OutOfBandBase):

    def setUp(self):
        super().setUp()
        # What the polled step did, and whether its next poll fails.
        self.calls = []
        self.fail_next = False
        test = self

        @drivers_base.deploy_step()
        @drivers_base.service_step(requires_ramdisk=False)
        @drivers_base.clean_step(requires_ramdisk=False)
        def factory_reset(interface, task):
            test.calls.append(('start', task.node.provision_state))
            return drivers_base.Polling({'left': 2})

        def poll_step(interface, task, step, state):
            test.calls.append(('poll', state['left']))
            if test.fail_next:
                raise exception.IronicLikeException('the BMC said no')
            if state['left'] > 1:
                return drivers_base.Polling({'left': state['left'] - 1})
            return None

        def abandon_step(interface, task, step, state):
            test.calls.append(('abandon', state['left']))

        for name, value in (('factory_reset', factory_reset),
                            ('poll_step', poll_step),
                            ('abandon_step', abandon_step)):
            patcher = mock.patch.object(fake.FakeBIOS, name, value,
                                        create=True)
            patcher.start()
            self.addCleanup(patcher.stop)

    def _poll(self, node, expected):
        """One periodic poll of ``node`` (once its lock is free); then
        the node once the work it started is over."""
        utils.wait_for_node(node.uuid, lambda n: True)
        self.assertEqual(expected, step_polling.poll_node(self.context,
                                                          node.id))
        return utils.wait_for_node(
            node.uuid, test_agent_deploy._settled)

    def _waits_polled(self, node, kind, without_agent=False):
        self.assertIn(node.provision_state, step_polling.POLLED_STATES)
        found = polled_steps.record(node)
        self.assertEqual(kind, found['kind'])
        self.assertEqual(POLLED, {k: found['step'][k]
                                  for k in ('interface', 'step', 'args')})
        self.assertEqual(without_agent, found['without_agent'])
        self.assertIsNone(node.reservation)
        if not without_agent:
            self.assertEqual(polled_steps.PHASE, self._phase(node))


class TestPolledCleanSteps(PolledStepsBase):

    def _manageable(self, **kwargs):
        values = {'provision_state': states.MANAGEABLE,
                  'bios_interface': 'fake'}
        values.update(kwargs)
        return self._node(**values)

    def test_with_the_agent_then_an_agent_step(self):
        node = self._act(self._manageable(), 'clean',
                         {'clean_steps': [POLLED, ERASE]})
        node = self._heartbeat(self._give_token(node))  # steps read,
        #                                          the polled one started
        self._waits_polled(node, 'clean')
        self.assertEqual(states.CLEANWAIT, node.provision_state)
        self.assertEqual([('start', states.CLEANING)], self.calls)
        # The agent's heartbeats start nothing meanwhile.
        node = self._heartbeat(node)
        self._waits_polled(node, 'clean')
        self.assertEqual([], self._agent_steps(clean.EXECUTE_CLEAN_STEP))
        # Nor do the agent timeouts act on it.
        self.assertFalse(agent_timeouts.is_silent(node, now=FAR))
        self.assertIsNone(agent_timeouts.phase_overdue(node,
                                                       now=FAR))
        node = self._poll(node, 'polling')
        self.assertEqual({'left': 1}, polled_steps.record(node)['state'])
        waiting_since = node.provision_updated_at
        node = self._poll(node, 'done')
        # The heartbeat timeout counts from the step's end: the agent
        # the step's reboot took away has that long to come back.
        self.assertGreater(node.provision_updated_at, waiting_since)
        # The erase is the agent's: its next heartbeat starts it.
        self.assertIsNone(polled_steps.record(node))
        self.assertEqual(states.CLEANWAIT, node.provision_state)
        self.assertEqual(clean.PHASE_NEXT_STEP, self._phase(node))
        self.assertEqual(1, node.driver_internal_info[clean.INDEX])
        node = self._heartbeat(node)                    # erase started
        node = self._heartbeat(node)                    # and over
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual(['erase_devices'],
                         self._agent_steps(clean.EXECUTE_CLEAN_STEP))
        self.assertEqual([('start', states.CLEANING), ('poll', 2),
                          ('poll', 1)], self.calls)

    def test_last_step_done_finishes_at_once(self):
        node = self._act(self._manageable(), 'clean',
                         {'clean_steps': [ERASE, POLLED]})
        node = self._heartbeat(self._give_token(node))  # erase started
        node = self._heartbeat(node)         # over; the polled started
        self._waits_polled(node, 'clean')
        self._poll(node, 'polling')
        node = self._poll(node, 'done')
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertNotIn(polled_steps.KEY, node.driver_internal_info)
        self.assertNotIn(clean.STEPS, node.driver_internal_info)

    def test_a_failed_poll_fails_the_cleaning(self):
        node = self._act(self._manageable(), 'clean',
                         {'clean_steps': [POLLED, ERASE]})
        node = self._heartbeat(self._give_token(node))
        self.fail_next = True
        node = self._poll(node, 'failed')
        self.assertEqual(states.CLEANFAIL, node.provision_state)
        self.assertIn('bios.factory_reset', node.last_error)
        self.assertIn('the BMC said no', node.last_error)
        self.assertIsNone(polled_steps.record(node))
        self.assertEqual(states.POWER_OFF, self._power(node))
        # No longer polled.
        self.assertIsNone(step_polling.poll_node(self.context, node.id))
        self.assertEqual([], self._agent_steps(clean.EXECUTE_CLEAN_STEP))

    def test_a_refused_worker_leaves_the_node_waiting(self):
        node = self._act(self._manageable(), 'clean',
                         {'clean_steps': [ERASE, POLLED]})
        node = self._heartbeat(self._give_token(node))
        node = self._heartbeat(node)
        self._waits_polled(node, 'clean')
        pool = mock.Mock()
        pool.submit.side_effect = RuntimeError('the pool is full')
        node = self._poll(node, 'polling')
        with mock.patch.object(runner, 'executor', return_value=pool):
            # Done, but the carry-on's worker is refused: twice.
            for _ in range(2):
                self.assertIsNone(step_polling.poll_node(self.context,
                                                         node.id))
        # Back in its wait with its record: the next poll carries on.
        node = self.db.get_node_by_id(node.id)
        self._waits_polled(node, 'clean')
        self.assertEqual(1, node.driver_internal_info[clean.INDEX])
        node = self._poll(node, 'done')
        self.assertEqual(states.MANAGEABLE, node.provision_state)

    def test_a_record_of_other_work_is_never_polled(self):
        node = self._act(self._manageable(), 'clean',
                         {'clean_steps': [POLLED, ERASE]})
        node = self._heartbeat(self._give_token(node))
        info = dict(node.driver_internal_info)
        info[polled_steps.KEY] = dict(info[polled_steps.KEY],
                                      kind='deploy')
        self.db.update_node(node.id, {'driver_internal_info': info})
        self.assertIsNone(step_polling.poll_node(self.context, node.id))
        node = self.db.get_node_by_id(node.id)
        self.assertIsNone(polled_steps.record(node))
        # Not polled; what the interface kept for it dropped.
        self.assertEqual([('start', states.CLEANING), ('abandon', 2)],
                         self.calls)

    def test_abort_while_polled(self):
        node = self._act(self._manageable(), 'clean',
                         {'clean_steps': [POLLED, ERASE]})
        node = self._heartbeat(self._give_token(node))
        self._waits_polled(node, 'clean')
        # No worker holds the node: abort works at once.
        node = self._act(node, 'abort')
        self.assertEqual(states.CLEANFAIL, node.provision_state)
        self.assertEqual('Aborted by request.', node.last_error)
        self.assertIsNone(polled_steps.record(node))
        self.assertIsNone(step_polling.poll_node(self.context, node.id))
        # The interface dropped what it kept for the step.
        self.assertEqual([('start', states.CLEANING), ('abandon', 2)],
                         self.calls)

    def test_a_dead_conductor_leaves_the_poll_to_the_next_owner(self):
        # The conductor polling the node died holding its lock (mid
        # poll): the take-over drops the lock and fails nothing (the
        # node waits, its step recorded); the new owner's poll carries
        # on.
        node = self._act(self._manageable(), 'clean',
                         {'clean_steps': [POLLED, ERASE]})
        node = self._heartbeat(self._give_token(node))
        self._waits_polled(node, 'clean')
        self.db.update_node(node.id, {'reservation': 'dead-conductor',
                                      'conductor_affinity':
                                      'dead-conductor'})
        self.assertIsNone(step_polling.poll_node(self.context, node.id))
        self.assertTrue(self.db.release_dead_holder(node.id,
                                                    'dead-conductor'))
        takeover.fail_abandoned_work(self.context, node.id,
                                     'dead-conductor')
        node = self.db.get_node_by_id(node.id)
        self._waits_polled(node, 'clean')
        self.assertIsNone(node.last_error)
        self._poll(node, 'polling')
        node = self._poll(node, 'done')
        node = self._heartbeat(self._heartbeat(node))   # the erase
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)

    def test_without_node_flows(self):
        # The fake deploy interface: no agent. The steps after the polled
        # one run once it is done, as after "unhold".
        node = utils.create_test_node(provision_state=states.MANAGEABLE,
                                      bios_interface='fake',
                                      power_state=states.POWER_ON)
        node = self._act(node, 'clean', {'clean_steps': [
            POLLED, {'interface': 'deploy', 'step': 'hold', 'args': {}},
            POWER_OFF]})
        self._waits_polled(node, 'clean', without_agent=True)
        self.assertEqual(states.CLEANWAIT, node.provision_state)
        info = node.driver_internal_info
        self.assertEqual(['hold', 'power_off'],
                         [s['step'] for s in info[servicing.AFTER_HOLD]])
        # The API's clean_step is the step waited for (no list is kept
        # without the agent).
        self.assertEqual(('bios', 'factory_reset'), tuple(
            current_steps.clean_step(node)[k] for k in ('interface',
                                                        'step')))
        # The power sync leaves it alone (its BMC may be restarting for
        # the step).
        other = utils.create_test_node(provision_state=states.MANAGEABLE)
        with mock.patch.object(power, 'sync_node_power_state') as sync:
            self.service.sync_power_states()
        synced = [c.args[1] for c in sync.call_args_list]
        self.assertIn(other.id, synced)
        self.assertNotIn(node.id, synced)
        # Nothing heartbeats: the agent timeouts leave it alone.
        self.assertFalse(agent_timeouts.is_silent(node, now=FAR))
        self._poll(node, 'polling')
        node = self._poll(node, 'done')
        # On to the hold, then power_off after "unhold".
        self.assertEqual(states.CLEANHOLD, node.provision_state)
        self.assertIsNone(polled_steps.record(node))
        node = self._act(node, 'unhold')
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual(states.POWER_OFF, node.power_state)

    def test_automated_cleaning_without_the_agent(self):
        self.config(clean_step_priority_override=[
            {'bios.factory_reset': '20'}], group='conductor')
        node = utils.create_test_node(provision_state=states.MANAGEABLE,
                                      bios_interface='fake')
        with mock.patch.object(fake.FakeDeploy, 'clean',
                               autospec=True, return_value=None) as own:
            node = self._act(node, 'provide')
            self._waits_polled(node, 'clean', without_agent=True)
            own.assert_not_called()
            self._poll(node, 'polling')
            node = self._poll(node, 'done')
        # The deploy interface's own cleaning last, as without a polled
        # step.
        own.assert_called_once_with(mock.ANY, mock.ANY, None)
        self.assertEqual(states.AVAILABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertNotIn(servicing.AFTER_HOLD, node.driver_internal_info)

    def test_new_work_drops_what_an_earlier_one_left(self):
        node = self._manageable(driver_internal_info={
            servicing.AFTER_HOLD: [POWER_OFF],
            servicing.NO_RAMDISK: True,
            polled_steps.KEY: {'kind': 'clean', 'step': POLLED}})
        node = self._act(node, 'clean', {'clean_steps': [ERASE]})
        info = node.driver_internal_info
        for key in (servicing.AFTER_HOLD, servicing.NO_RAMDISK,
                    polled_steps.KEY):
            self.assertNotIn(key, info)
        # The cleaning is the agent's, as asked.
        self.assertEqual(states.CLEANWAIT, node.provision_state)
        self.assertEqual(clean.PHASE_GET_STEPS, self._phase(node))

    def test_candidates(self):
        self.addCleanup(step_polling._QUEUED.clear)
        node = self._act(self._manageable(), 'clean',
                         {'clean_steps': [POLLED]})
        node = self._heartbeat(self._give_token(node))
        other = self._manageable()
        row = (node.id, node.uuid, 'fake-hardware', '', 'test-conductor',
               None, False, states.CLEANWAIT)
        self.assertEqual([node.id], step_polling.candidates(
            self.db, [row, (other.id,) + row[1:]]))
        # Not polled: in maintenance, locked, in another state.
        for changed in ({5: 'another-conductor'}, {6: True},
                        {7: states.CLEANING}):
            bad = list(row)
            for index, value in changed.items():
                bad[index] = value
            self.assertEqual([], step_polling.candidates(self.db,
                                                         [tuple(bad)]))
        # One pass queues the poll in the pool given.
        pool = mock.Mock()
        self.assertEqual([node.id], step_polling.check_nodes(
            self.context, [row], pool))
        pool.submit.assert_called_once_with(step_polling._poll_queued,
                                            self.context, node.id)
        # Queued already: not again until it ran.
        self.assertEqual([], step_polling.check_nodes(self.context, [row],
                                                      pool))
        step_polling._poll_queued(self.context, node.id)
        self.assertEqual([node.id], step_polling.check_nodes(
            self.context, [row], pool))
        step_polling._QUEUED.clear()


class TestPolledServiceAndDeploySteps(PolledStepsBase):

    def test_servicing_without_the_ramdisk(self):
        node = self._deploy_to_active(self._node(bios_interface='fake'))
        node = self._act(node, 'service', {'service_steps': [POLLED]})
        # The step needs no ramdisk: none boots.
        self._waits_polled(node, 'service', without_agent=True)
        self.assertEqual(states.SERVICEWAIT, node.provision_state)
        self._poll(node, 'polling')
        node = self._poll(node, 'done')
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)

    def test_a_deploy_step(self):
        node = self._act(self._node(bios_interface='fake'), 'deploy',
                         {'deploy_steps': [dict(POLLED, priority=80)]})
        node = self._heartbeat(self._give_token(node))  # write started
        node = self._heartbeat(node)       # written; the step started
        self._waits_polled(node, 'deploy')
        self.assertEqual(states.DEPLOYWAIT, node.provision_state)
        index = polled_steps.record(node)['index']
        self._poll(node, 'polling')
        node = self._poll(node, 'done')
        # The agent runs: its next heartbeat carries the deploy on.
        self.assertEqual(deploy.PHASE_RUN_STEPS, self._phase(node))
        self.assertEqual(index + 1,
                         node.driver_internal_info[deploy_templates.INDEX])
        node = self._heartbeat(node)
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertNotIn(agent_info.PHASE, node.driver_internal_info)
