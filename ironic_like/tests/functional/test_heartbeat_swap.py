"""The API's compare-and-swap of an idle heartbeat on MariaDB and
PostgreSQL (db/sqlalchemy/node_heartbeats.py): it writes only over the
exact driver_internal_info text it read, on an unlocked node whose state
and maintenance did not change, whatever the database's collation."""

import sqlalchemy as sa

from ironic_like.common import states
from ironic_like.tests.functional import base


class _HeartbeatSwap(object):

    SERVICES = ()

    def setUp(self):
        super().setUp()
        self.db, self.engine = self.in_process_db()
        self.node = self.db.create_node({
            'name': 'hb-node', 'driver': 'fake-hardware',
            'provision_state': states.DEPLOYING,
            'driver_internal_info': {'agent_secret_token': 'Token-A'}})

    def row(self):
        return self.db.get_node_heartbeat_row('uuid', self.node.uuid)

    def info(self):
        return self.db.get_node_by_id(self.node.id).driver_internal_info

    def test_swap_over_what_was_read(self):
        seen = self.row()
        self.assertEqual('hb-node',
                         self.db.get_node_heartbeat_row('name',
                                                        'hb-node').name)
        self.assertTrue(self.db.record_unlocked_heartbeat(
            seen, {'agent_secret_token': 'Token-A', 'agent_url': 'x'}))
        self.assertEqual('x', self.info()['agent_url'])
        # The same read again is stale now.
        self.assertFalse(self.db.record_unlocked_heartbeat(
            seen, {'agent_secret_token': 'Token-A', 'agent_url': 'y'}))
        self.assertEqual('x', self.info()['agent_url'])

    def test_text_differing_in_case_only_is_a_change(self):
        # A case-insensitive collation would take 'token-a' for 'Token-A'.
        seen = self.row()
        self.db.update_node(self.node.id, {
            'driver_internal_info': {'agent_secret_token': 'token-a'}})
        self.assertFalse(self.db.record_unlocked_heartbeat(
            seen, {'agent_secret_token': 'Token-A', 'agent_url': 'x'}))
        self.assertEqual({'agent_secret_token': 'token-a'}, self.info())

    def test_locked_moved_or_in_maintenance_is_not_written(self):
        for values in ({'reservation': 'a-conductor'},
                       {'provision_state': states.DEPLOYWAIT},
                       {'maintenance': True}):
            seen = self.row()
            self.db.update_node(self.node.id, values)
            self.assertFalse(self.db.record_unlocked_heartbeat(
                seen, {'agent_url': 'x'}), values)
            self.assertNotIn('agent_url', self.info(), values)
            self.db.update_node(self.node.id, {
                'reservation': None, 'maintenance': False,
                'provision_state': states.DEPLOYING})

    def test_null_info(self):
        # oslo.db writes None as '{}'; a row written by other means may
        # hold NULL.
        with self.engine.begin() as conn:
            conn.execute(sa.text(
                'UPDATE nodes SET driver_internal_info = NULL '
                'WHERE id = :id'), {'id': self.node.id})
        seen = self.row()
        self.assertIsNone(seen.info_text)
        self.assertTrue(self.db.record_unlocked_heartbeat(
            seen, {'agent_url': 'x'}))
        self.assertEqual({'agent_url': 'x'}, self.info())


class TestHeartbeatSwapMySQL(_HeartbeatSwap, base.FunctionalTestCase):
    BACKEND = base.MYSQL


class TestHeartbeatSwapPostgreSQL(_HeartbeatSwap, base.FunctionalTestCase):
    BACKEND = base.POSTGRESQL
