"""Silent agents (seed 003): reboot up to N times, then maintenance."""

import datetime
from unittest import mock

from oslo_utils import timeutils

from ironic_like.common import context as ctx
from ironic_like.common import hash_ring
from ironic_like.common import states
from ironic_like.conductor import agent_heartbeat
from ironic_like.conductor import agent_timeouts
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
                      agent_heartbeat.LAST_HEARTBEAT:
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
            driver_internal_info={agent_heartbeat.LAST_HEARTBEAT:
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
        info = agent_heartbeat._recorded(
            {agent_timeouts.REBOOTS: 2, agent_timeouts.REBOOTED_AT: _ago(1)},
            'http://agent/', None, None, None)
        self.assertNotIn(agent_timeouts.REBOOTS, info)
        self.assertNotIn(agent_timeouts.REBOOTED_AT, info)
        self.assertIn(agent_heartbeat.LAST_HEARTBEAT, info)

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
