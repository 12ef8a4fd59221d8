"""Volume connectors and targets changed under their node's lock, with
Ironic's power state rules."""

from unittest import mock

import oslo_messaging as messaging

from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import rpcapi
from ironic_like.conductor import volumes
from ironic_like.tests import base
from ironic_like.tests.unit.conductor import utils as cond_utils
from ironic_like.tests.unit.db import utils


def _connector(**values):
    values.setdefault('type', 'iqn')
    values.setdefault('connector_id', 'iqn.test:1')
    return values


def _target(**values):
    values.setdefault('volume_type', 'iscsi')
    values.setdefault('volume_id', 'vol-1')
    values.setdefault('boot_index', 0)
    return values


class TestVolumesOverRPC(cond_utils.ConductorTestCase):

    def test_connector_create_update_destroy(self):
        node = utils.create_test_node(power_state=states.POWER_OFF)
        uuid = self.api.create_volume_connector(
            self.context, node, _connector(extra={'a': 1}))
        row = self.db.get_volume_connector_by_uuid(uuid)
        self.assertEqual((node.id, {'a': 1}), (row.node_id, row.extra))
        self.api.update_volume_connector(self.context, node, row.id,
                                         {'connector_id': 'iqn.test:2'})
        self.assertEqual('iqn.test:2', self.db.get_volume_connector_by_id(
            row.id).connector_id)
        self.api.destroy_volume_connector(self.context, node, row.id)
        self.assertRaises(exception.VolumeConnectorNotFound,
                          self.db.get_volume_connector_by_id, row.id)
        self.assertIsNone(self.db.get_node_by_id(node.id).reservation)

    def test_target_create_update_destroy(self):
        node = utils.create_test_node(power_state=states.POWER_OFF)
        uuid = self.api.create_volume_target(self.context, node, _target())
        row = self.db.get_volume_target_by_uuid(uuid)
        self.api.update_volume_target(self.context, node, row.id,
                                      {'boot_index': 2})
        self.assertEqual(2, self.db.get_volume_target_by_id(
            row.id).boot_index)
        self.api.destroy_volume_target(self.context, node, row.id)
        self.assertEqual([], self.db.get_volume_target_list())

    def test_errors_cross_rpc(self):
        node = utils.create_test_node(power_state=states.POWER_ON,
                                      provision_state=states.ACTIVE)
        self.api.create_volume_target(self.context, node, _target())
        e = self.assertRaises(exception.VolumeTargetBootIndexAlreadyExists,
                              self.api.create_volume_target, self.context,
                              node, _target(volume_id='vol-2'))
        self.assertEqual(409, e.code)
        row = self.db.get_volume_target_list()[0]
        e = self.assertRaises(exception.InvalidStateRequested,
                              self.api.destroy_volume_target, self.context,
                              node, row.id)
        self.assertEqual(400, e.code)
        self.assertIsNone(self.db.get_node_by_id(node.id).reservation)

    def test_version_cap_below_1_10(self):
        self.config(rpc_version_cap='1.9')
        api = rpcapi.ConductorAPI()
        node = utils.create_test_node()
        e = self.assertRaises(exception.ConductorUnavailable,
                              api.create_volume_connector, self.context,
                              node, _connector())
        self.assertIn('1.10', str(e))


class TestRetriedCreate(base.TestCase):

    def setUp(self):
        super().setUp()
        self.config(rpc_node_call_attempts=2, rpc_node_call_timeout=7)
        for host in ('c1', 'c2'):
            utils.register_conductor(host)
        self.context = ctx.get_admin_context()
        self.api = rpcapi.ConductorAPI()
        self.api.client = mock.Mock()
        self.cctxt = self.api.client.prepare.return_value
        self.node = utils.create_test_node()

    def test_done_by_the_silent_conductor(self):
        # The first owner stored the row but its answer was lost: the
        # retry finding the UUID taken is the success of the call.
        uuid = '2be26c0b-03f2-4d2d-ae87-c02d7f33c126'
        self.cctxt.call.side_effect = [
            messaging.MessagingTimeout('late'),
            exception.VolumeTargetAlreadyExists(uuid=uuid)]
        self.assertEqual(uuid, self.api.create_volume_target(
            self.context, self.node, _target(uuid=uuid)))
        self.assertEqual(2, self.cctxt.call.call_count)

    def test_other_errors_of_a_retry_stay(self):
        self.cctxt.call.side_effect = [
            messaging.MessagingTimeout('late'),
            exception.VolumeConnectorTypeAndIdAlreadyExists(
                type='iqn', connector_id='x')]
        self.assertRaises(exception.VolumeConnectorTypeAndIdAlreadyExists,
                          self.api.create_volume_connector, self.context,
                          self.node, _connector(uuid='u'))

    def test_duplicate_uuid_of_a_first_call_stays(self):
        self.cctxt.call.side_effect = [
            exception.VolumeConnectorAlreadyExists(uuid='u')]
        self.assertRaises(exception.VolumeConnectorAlreadyExists,
                          self.api.create_volume_connector, self.context,
                          self.node, _connector(uuid='u'))


class TestVolumesDirect(base.TestCase):

    def setUp(self):
        super().setUp()
        self.context = ctx.get_admin_context()
        self.node = utils.create_test_node(power_state=states.POWER_OFF)
        self.config(node_locked_retry_attempts=1, group='conductor')

    def _connector(self, node=None, **values):
        values['node_id'] = (node or self.node).id
        return self.db.create_volume_connector(_connector(**values))

    def _target(self, node=None, **values):
        values['node_id'] = (node or self.node).id
        return self.db.create_volume_target(_target(**values))

    def _set(self, **values):
        self.db.update_node(self.node.id, values)

    def test_unknown_field(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              volumes.create_volume_connector, self.context,
                              self.node.id, _connector(properties={}))
        self.assertEqual('properties', e.field)
        e = self.assertRaises(exception.InvalidParameterValue,
                              volumes.update_volume_target, self.context,
                              self.node.id, 1, {'type': 'iqn'})
        self.assertEqual('type', e.field)

    def test_node_id_comes_from_the_call(self):
        other = utils.create_test_node()
        uuid = volumes.create_volume_target(self.context, self.node.id,
                                            _target(node_id=other.id))
        self.assertEqual(self.node.id,
                         self.db.get_volume_target_by_uuid(uuid).node_id)

    def test_create_has_no_state_rule(self):
        self._set(power_state=states.POWER_ON,
                  provision_state=states.ACTIVE)
        volumes.create_volume_connector(self.context, self.node.id,
                                        _connector())

    def test_locked_node(self):
        row = self._connector()
        self.db.reserve_node('other', self.node.id)
        self.assertRaises(exception.NodeLocked,
                          volumes.create_volume_target, self.context,
                          self.node.id, _target())
        self.assertRaises(exception.NodeLocked,
                          volumes.update_volume_connector, self.context,
                          self.node.id, row.id, {'extra': {'a': 1}})
        self.assertRaises(exception.NodeLocked,
                          volumes.destroy_volume_connector, self.context,
                          self.node.id, row.id)
        self.assertEqual(1, len(self.db.get_volume_connector_list()))

    def test_update_needs_power_off(self):
        connector = self._connector()
        target = self._target()
        for state in (states.POWER_ON, None):
            self._set(power_state=state, maintenance=True,
                      provision_state=states.MANAGEABLE)
            e = self.assertRaises(exception.InvalidStateRequested,
                                  volumes.update_volume_connector,
                                  self.context, self.node.id, connector.id,
                                  {'extra': {'a': 1}})
            self.assertIn('volume connector update', str(e))
            self.assertIn(self.node.uuid, str(e))
            e = self.assertRaises(exception.InvalidStateRequested,
                                  volumes.update_volume_target,
                                  self.context, self.node.id, target.id,
                                  {'extra': {'a': 1}})
            self.assertIn('volume target update', str(e))
        self._set(power_state=states.POWER_OFF,
                  provision_state=states.ACTIVE)
        volumes.update_volume_target(self.context, self.node.id, target.id,
                                     {'boot_index': 5})
        self.assertEqual(5, self.db.get_volume_target_by_id(
            target.id).boot_index)
        self.assertIsNone(self.db.get_node_by_id(self.node.id).reservation)

    def test_delete_rule(self):
        self._set(power_state=states.POWER_ON)
        for state in (states.ENROLL, states.MANAGEABLE, states.ADOPTFAIL):
            self._set(provision_state=state)
            volumes.destroy_volume_connector(self.context, self.node.id,
                                             self._connector().id)
            volumes.destroy_volume_target(self.context, self.node.id,
                                          self._target().id)
        for state in (states.AVAILABLE, states.ACTIVE, states.CLEANFAIL,
                      states.DEPLOYING):
            self._set(provision_state=state, maintenance=True)
            row = self._target()
            e = self.assertRaises(exception.InvalidStateRequested,
                                  volumes.destroy_volume_target,
                                  self.context, self.node.id, row.id)
            self.assertIn('volume target deletion', str(e))
            self.assertIn('power on', str(e))
            self._set(power_state=states.POWER_OFF)
            volumes.destroy_volume_target(self.context, self.node.id,
                                          row.id)
            self._set(power_state=states.POWER_ON)

    def test_row_of_another_node_not_found(self):
        other = utils.create_test_node(power_state=states.POWER_OFF)
        connector = self._connector(other)
        target = self._target(other)
        self.assertRaises(exception.VolumeConnectorNotFound,
                          volumes.update_volume_connector, self.context,
                          self.node.id, connector.id, {'extra': {}})
        self.assertRaises(exception.VolumeTargetNotFound,
                          volumes.destroy_volume_target, self.context,
                          self.node.id, target.id)
        self.assertRaises(exception.VolumeTargetNotFound,
                          volumes.destroy_volume_target, self.context,
                          self.node.id, 12345)

    def test_move_locks_and_checks_the_target_node(self):
        other = utils.create_test_node(power_state=states.POWER_ON)
        row = self._connector()
        e = self.assertRaises(exception.InvalidStateRequested,
                              volumes.update_volume_connector, self.context,
                              self.node.id, row.id, {'node_id': other.id})
        self.assertIn(other.uuid, str(e))
        self.db.update_node(other.id, {'power_state': states.POWER_OFF})
        self.db.reserve_node('other', other.id)
        self.assertRaises(exception.NodeLocked,
                          volumes.update_volume_connector, self.context,
                          self.node.id, row.id, {'node_id': other.id})
        self.db.release_node('other', other.id)
        volumes.update_volume_connector(self.context, self.node.id, row.id,
                                        {'node_id': other.id})
        self.assertEqual(other.id,
                         self.db.get_volume_connector_by_id(row.id).node_id)
        for node in (self.node, other):
            self.assertIsNone(self.db.get_node_by_id(node.id).reservation)
