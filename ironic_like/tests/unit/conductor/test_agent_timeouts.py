"""Silent agents (seed 003): reboot up to N times, then maintenance."""

import datetime
from unittest import mock

from oslo_utils import timeutils

from ironic_like.common import agent_info
from ironic_like.common import agent_token
from ironic_like.common import context as ctx
from ironic_like.common import states
from ironic_like.conductor import agent_timeouts
from ironic_like.conductor import hash_ring
from ironic_like.conductor import takeover
from ironic_like.drivers.modules import fake
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils


def _ago(seconds):
    return (timeutils.utcnow() -
            datetime.timedelta(seconds=seconds)).isoformat()


class TestAgentTimeouts(base.TestCase):

    def setUp(self):
        super().setUp()
        self.config(heartbeat_timeout=60, heartbeat_timeout_reboots=2,
                    group='agent')
        self.config(node_locked_retry_attempts=1, group='conductor')
        self.context = ctx.get_admin_context()

    def waiting_node(self, last_heartbeat_age=120, **kw):
        values = {'provision_state': states.DEPLOYWAIT,
                  'power_state': states.POWER_ON,
                  'driver_internal_info': {
                      agent_info.LAST_HEARTBEAT:
                          _ago(last_heartbeat_age)}}
        values.update(kw)
        node = utils.create_test_node(**values)
        # Entered the wait state long ago, too.
        old = timeutils.utcnow() - datetime.timedelta(seconds=600)
        with mock.patch.object(timeutils, 'utcnow', return_value=old):
            self.db.update_node(node.id, {'provision_state':
                                          values['provision_state']})
        return self.db.get_node_by_id(node.id)

    def test_silence_rules(self):
        silent = self.waiting_node()
        self.assertTrue(agent_timeouts.is_silent(silent))
        fresh = self.waiting_node(last_heartbeat_age=5)
        self.assertFalse(agent_timeouts.is_silent(fresh))
        off = self.waiting_node(power_state=states.POWER_OFF)
        self.assertFalse(agent_timeouts.is_silent(off))
        maint = self.waiting_node(maintenance=True)
        self.assertFalse(agent_timeouts.is_silent(maint))
        active = self.waiting_node(provision_state=states.ACTIVE)
        self.assertFalse(agent_timeouts.is_silent(active))

    def test_just_entered_wait_state_is_not_silent(self):
        node = utils.create_test_node(
            provision_state=states.CLEANWAIT, power_state=states.POWER_ON,
            driver_internal_info={agent_info.LAST_HEARTBEAT:
                                  _ago(3600)})
        # provision_updated_at is now: the wait just began.
        node = self.db.update_node(node.id,
                                   {'provision_state': states.CLEANWAIT})
        self.assertFalse(agent_timeouts.is_silent(node))

    def test_reboots_then_maintenance(self):
        node = self.waiting_node()
        with mock.patch.object(fake.FakePower, 'reboot') as reboot:
            self.assertEqual('rebooted', agent_timeouts.act_on_silent_node(
                self.context, node.id))
            # Just rebooted: silent again only after the timeout.
            self.assertIsNone(agent_timeouts.act_on_silent_node(
                self.context, node.id))
            self.assertEqual(1, reboot.call_count)
            info = self.db.get_node_by_id(node.id).driver_internal_info
            self.assertEqual(1, info[agent_timeouts.REBOOTS])
            later = timeutils.utcnow() + datetime.timedelta(seconds=120)
            with mock.patch.object(timeutils, 'utcnow', return_value=later):
                self.assertEqual('rebooted',
                                 agent_timeouts.act_on_silent_node(
                                     self.context, node.id))
            later = later + datetime.timedelta(seconds=120)
            with mock.patch.object(timeutils, 'utcnow', return_value=later):
                self.assertEqual('maintenance',
                                 agent_timeouts.act_on_silent_node(
                                     self.context, node.id))
            self.assertEqual(2, reboot.call_count)
        node = self.db.get_node_by_id(node.id)
        self.assertTrue(node.maintenance)
        self.assertIn('No heartbeat from the agent', node.maintenance_reason)
        self.assertIn('gave up after 2 reboots', node.maintenance_reason)
        self.assertEqual(node.maintenance_reason, node.last_error)
        self.assertIsNone(node.reservation)

    def test_reboot_wipes_the_token(self):
        # The rebooted ramdisk finds no token in its network boot script:
        # its lookup must hand out a new one, so the old one goes.
        node = self.waiting_node()
        info = dict(agent_token.with_new_token(node.driver_internal_info),
                    agent_url='http://10.0.0.5:9999', kept='yes')
        node = self.db.update_node(node.id, {'driver_internal_info': info})
        with mock.patch.object(fake.FakePower, 'reboot'):
            self.assertEqual('rebooted', agent_timeouts.act_on_silent_node(
                self.context, node.id))
        info = self.db.get_node_by_id(node.id).driver_internal_info
        self.assertFalse(agent_token.is_present(info))
        self.assertNotIn('agent_url', info)
        self.assertEqual('yes', info['kept'])
        self.assertEqual(1, info[agent_timeouts.REBOOTS])

    def test_maintenance_action(self):
        self.config(heartbeat_timeout_action='maintenance', group='agent')
        node = self.waiting_node()
        with mock.patch.object(fake.FakePower, 'reboot') as reboot:
            self.assertEqual('maintenance', agent_timeouts.act_on_silent_node(
                self.context, node.id))
        reboot.assert_not_called()
        self.assertTrue(self.db.get_node_by_id(node.id).maintenance)

    def test_locked_node_is_left_for_next_time(self):
        node = self.waiting_node()
        self.db.reserve_node('other-host', node.id)
        self.assertIsNone(agent_timeouts.act_on_silent_node(
            self.context, node.id))
        self.assertFalse(self.db.get_node_by_id(node.id).maintenance)

    def test_heartbeat_resets_the_reboot_count(self):
        info = agent_info.with_heartbeat(
            {agent_timeouts.REBOOTS: 2, agent_timeouts.REBOOTED_AT: _ago(1)},
            'http://agent/', None, None, None)
        self.assertNotIn(agent_timeouts.REBOOTS, info)
        self.assertNotIn(agent_timeouts.REBOOTED_AT, info)
        self.assertIn(agent_info.LAST_HEARTBEAT, info)

    def test_check_nodes_over_owned_rows(self):
        self.db.register_conductor('test-conductor', '', ['fake-hardware'])
        silent = self.waiting_node()
        self.waiting_node(last_heartbeat_age=1)
        utils.create_test_node(provision_state=states.ACTIVE,
                               power_state=states.POWER_ON)
        rows = takeover.owned_node_rows(
            hash_ring.HashRingManager(), 'test-conductor',
            provision_states=agent_timeouts.WAITING_STATES)
        self.assertEqual(2, len(rows))
        with mock.patch.object(fake.FakePower, 'reboot'):
            done = agent_timeouts.check_nodes(self.context, rows)
        self.assertEqual({silent.uuid: 'rebooted'}, done)


class TestAgentPhaseDeadline(base.TestCase):
    """An agent that heartbeats but never finishes its phase."""

    def setUp(self):
        super().setUp()
        self.config(heartbeat_timeout=60, phase_timeout=1800, group='agent')
        self.config(node_locked_retry_attempts=1, group='conductor')
        self.context = ctx.get_admin_context()

    def _node(self, phase_age, state=states.DEPLOYWAIT, **kw):
        return utils.create_test_node(
            provision_state=state, power_state=states.POWER_ON,
            driver_internal_info={
                agent_info.LAST_HEARTBEAT: _ago(5),
                agent_info.PHASE: 'deploy-image-running',
                agent_info.PHASE_STARTED: _ago(phase_age),
                agent_info.COMMAND: 'cmd-1'}, **kw)

    def _check(self, node):
        return agent_timeouts.check_nodes(self.context, [
            (node.id, node.uuid, node.driver, '', None, None,
             node.maintenance, node.provision_state)])

    def test_overdue_phase_fails_the_deploy(self):
        node = self._node(phase_age=1900)
        self.assertFalse(agent_timeouts.is_silent(node))
        self.assertEqual({node.uuid: 'failed'}, self._check(node))
        node = self.db.get_node_by_id(node.id)
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)
        self.assertEqual(states.POWER_OFF, node.power_state)
        self.assertIn('Agent phase "deploy-image-running" did not end '
                      'within 1800 seconds', node.last_error)
        self.assertIn('cmd-1', node.last_error)
        self.assertNotIn(agent_info.PHASE_STARTED,
                         node.driver_internal_info)

    def test_clean_step_overdue_fails_the_cleaning(self):
        node = self._node(phase_age=1900, state=states.CLEANWAIT)
        self.assertEqual({node.uuid: 'failed'}, self._check(node))
        self.assertEqual(states.CLEANFAIL,
                         self.db.get_node_by_id(node.id).provision_state)

    def test_within_deadline_or_disabled_or_maintenance(self):
        node = self._node(phase_age=600)
        self.assertEqual({}, self._check(node))
        late = self._node(phase_age=1900)
        self.config(phase_timeout=0, group='agent')
        self.assertEqual({}, self._check(late))
        self.config(phase_timeout=1800, group='agent')
        maint = self._node(phase_age=1900, maintenance=True)
        self.assertEqual({}, self._check(maint))
        for n in (node, late, maint):
            self.assertEqual(states.DEPLOYWAIT,
                             self.db.get_node_by_id(n.id).provision_state)

    def test_await_agent_starts_the_deadline(self):
        from ironic_like.conductor.flows import node_steps
        from ironic_like.conductor import locks
        node = utils.create_test_node(provision_state=states.DEPLOYING)
        now = datetime.datetime(2026, 1, 2, 3, 4, 5)
        with locks.acquire(self.context, node.id) as task:
            with mock.patch.object(node_steps.timeutils, 'utcnow',
                                   return_value=now):
                node_steps.AwaitAgent('t-await',
                                      'deploy-write-image').execute(task)
        info = self.db.get_node_by_id(node.id).driver_internal_info
        self.assertEqual(now.isoformat(), info[agent_info.PHASE_STARTED])
        self.assertEqual('deploy-write-image', info[agent_info.PHASE])
