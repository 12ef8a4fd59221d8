"""Volume connectors and targets in the database."""

from oslo_utils import uuidutils

from ironic_like.common import exception
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils


class TestVolumeConnectors(base.TestCase):

    def setUp(self):
        super().setUp()
        self.node = utils.create_test_node()

    def _create(self, **values):
        values.setdefault('node_id', self.node.id)
        values.setdefault('type', 'iqn')
        values.setdefault('connector_id',
                          'iqn.test:%s' % uuidutils.generate_uuid())
        return self.db.create_volume_connector(values)

    def test_create_defaults_and_get(self):
        c = self._create(connector_id='iqn.test:1', extra=None)
        self.assertTrue(uuidutils.is_uuid_like(c.uuid))
        self.assertEqual({}, c.extra)
        for found in (self.db.get_volume_connector_by_id(c.id),
                      self.db.get_volume_connector_by_uuid(c.uuid)):
            self.assertEqual('iqn.test:1', found.connector_id)
        self.assertEqual([c.id], [
            x.id for x in self.db.get_volume_connectors_by_node_id(
                self.node.id)])

    def test_not_found(self):
        for call, arg in ((self.db.get_volume_connector_by_id, 9),
                          (self.db.get_volume_connector_by_uuid,
                           uuidutils.generate_uuid()),
                          (self.db.destroy_volume_connector, 9)):
            self.assertRaises(exception.VolumeConnectorNotFound, call, arg)
        self.assertRaises(exception.VolumeConnectorNotFound,
                          self.db.update_volume_connector, 9, {'extra': {}})

    def test_duplicates(self):
        c = self._create(connector_id='iqn.test:1')
        other = utils.create_test_node()
        e = self.assertRaises(
            exception.VolumeConnectorTypeAndIdAlreadyExists, self._create,
            node_id=other.id, connector_id='iqn.test:1')
        self.assertIn('type iqn and connector ID iqn.test:1', str(e))
        self.assertEqual(409, e.code)
        self._create(type='ip', connector_id='iqn.test:1')
        self.assertRaises(exception.VolumeConnectorAlreadyExists,
                          self._create, uuid=c.uuid)
        mac = self._create(type='mac', connector_id='52:54:00:00:00:01')
        e = self.assertRaises(
            exception.VolumeConnectorTypeAndIdAlreadyExists,
            self.db.update_volume_connector, mac.id,
            {'type': 'iqn', 'connector_id': 'iqn.test:1'})
        self.assertIn('iqn.test:1', str(e))

    def test_unknown_node(self):
        self.assertRaises(exception.NodeNotFound, self._create,
                          node_id=12345)
        c = self._create()
        self.assertRaises(exception.NodeNotFound,
                          self.db.update_volume_connector, c.id,
                          {'node_id': 12345})

    def test_update_keeps_uuid(self):
        c = self._create()
        updated = self.db.update_volume_connector(
            c.id, {'uuid': uuidutils.generate_uuid(), 'extra': None,
                   'connector_id': 'x'})
        self.assertEqual((c.uuid, {}, 'x'),
                         (updated.uuid, updated.extra, updated.connector_id))

    def test_list_filters_sort_and_pages(self):
        other = utils.create_test_node(owner='p1')
        third = utils.create_test_node(lessee='p1')
        a = self._create(connector_id='b')
        b = self._create(node_id=other.id, connector_id='a')
        c = self._create(node_id=third.id, connector_id='c')
        db = self.db
        self.assertEqual([a.id, b.id, c.id],
                         [x.id for x in db.get_volume_connector_list()])
        self.assertEqual([b.id], [x.id for x in db.get_volume_connector_list(
            filters={'node_id': other.id})])
        self.assertEqual([b.id, a.id, c.id], [
            x.id for x in db.get_volume_connector_list(
                sort_key='connector_id')])
        self.assertEqual([a.id], [x.id for x in db.get_volume_connector_list(
            marker=b.uuid, sort_key='connector_id', limit=1)])
        self.assertEqual([a.id, b.id], [
            x.id for x in db.get_volume_connector_list(
                marker=c.uuid, sort_key='connector_id', sort_dir='desc')])
        # A project sees the connectors of the nodes it owns or leases.
        self.assertEqual([b.id, c.id], [
            x.id for x in db.get_volume_connector_list(project='p1')])
        self.assertEqual([], db.get_volume_connector_list(project='p2'))
        self.assertRaises(exception.InvalidParameterValue,
                          db.get_volume_connector_list, sort_key='extra')
        e = self.assertRaises(exception.InvalidParameterValue,
                              db.get_volume_connector_list,
                              marker=uuidutils.generate_uuid())
        self.assertEqual('marker', e.field)

    def test_destroy(self):
        c = self._create()
        self.db.destroy_volume_connector(c.id)
        self.assertEqual([], self.db.get_volume_connector_list())


class TestVolumeTargets(base.TestCase):

    def setUp(self):
        super().setUp()
        self.node = utils.create_test_node()

    def _create(self, **values):
        values.setdefault('node_id', self.node.id)
        values.setdefault('volume_type', 'iscsi')
        values.setdefault('volume_id', uuidutils.generate_uuid())
        values.setdefault('boot_index', 0)
        return self.db.create_volume_target(values)

    def test_create_defaults_and_get(self):
        t = self._create(properties=None)
        self.assertEqual(({}, {}), (t.properties, t.extra))
        for found in (self.db.get_volume_target_by_id(t.id),
                      self.db.get_volume_target_by_uuid(t.uuid)):
            self.assertEqual(t.volume_id, found.volume_id)
        self.assertEqual([t.id], [
            x.id for x in self.db.get_volume_targets_by_node_id(
                self.node.id)])

    def test_not_found(self):
        self.assertRaises(exception.VolumeTargetNotFound,
                          self.db.get_volume_target_by_id, 9)
        self.assertRaises(exception.VolumeTargetNotFound,
                          self.db.get_volume_target_by_uuid,
                          uuidutils.generate_uuid())
        self.assertRaises(exception.VolumeTargetNotFound,
                          self.db.update_volume_target, 9,
                          {'boot_index': 1})
        self.assertRaises(exception.VolumeTargetNotFound,
                          self.db.destroy_volume_target, 9)

    def test_boot_index_unique_per_node(self):
        t = self._create()
        e = self.assertRaises(exception.VolumeTargetBootIndexAlreadyExists,
                              self._create)
        self.assertIn("boot index '0'", str(e))
        self.assertEqual(409, e.code)
        other = utils.create_test_node()
        moved = self._create(node_id=other.id)
        self.assertRaises(exception.VolumeTargetBootIndexAlreadyExists,
                          self.db.update_volume_target, moved.id,
                          {'node_id': self.node.id})
        self.assertRaises(exception.VolumeTargetAlreadyExists,
                          self._create, uuid=t.uuid, boot_index=1)
        second = self._create(boot_index=1)
        e = self.assertRaises(exception.VolumeTargetBootIndexAlreadyExists,
                              self.db.update_volume_target, second.id,
                              {'boot_index': 0})
        self.assertIn("'0'", str(e))

    def test_list(self):
        owned = utils.create_test_node(owner='p1')
        a = self._create(boot_index=1)
        b = self._create(boot_index=0)
        c = self._create(node_id=owned.id)
        db = self.db
        self.assertEqual([b.id, c.id, a.id], [
            x.id for x in db.get_volume_target_list(sort_key='boot_index')])
        self.assertEqual([a.id, b.id], [
            x.id for x in db.get_volume_target_list(
                filters={'node_id': self.node.id})])
        self.assertEqual([c.id], [
            x.id for x in db.get_volume_target_list(project='p1')])
        self.assertEqual([b.id, c.id], [
            x.id for x in db.get_volume_target_list(marker=a.uuid)])
        self.assertEqual([a.id], [
            x.id for x in db.get_volume_target_list(limit=1)])
        self.assertRaises(exception.InvalidParameterValue,
                          db.get_volume_target_list, sort_key='properties')

    def test_node_destroy_takes_volumes(self):
        self._create()
        self.db.create_volume_connector({'node_id': self.node.id,
                                         'type': 'iqn',
                                         'connector_id': 'iqn.test:1'})
        other = utils.create_test_node()
        kept = self._create(node_id=other.id)
        self.db.destroy_node(self.node.id)
        self.assertEqual([kept.id],
                         [x.id for x in self.db.get_volume_target_list()])
        self.assertEqual([], self.db.get_volume_connector_list())
