"""Chassis in the database."""

from unittest import mock

from oslo_utils import uuidutils

from ironic_like.common import exception
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils


class TestChassis(base.TestCase):

    def test_create_defaults_and_get(self):
        chassis = self.db.create_chassis({'description': 'rack 1'})
        self.assertTrue(uuidutils.is_uuid_like(chassis.uuid))
        self.assertEqual({}, chassis.extra)
        self.assertIsNotNone(chassis.created_at)
        for found in (self.db.get_chassis_by_id(chassis.id),
                      self.db.get_chassis_by_uuid(chassis.uuid)):
            self.assertEqual(chassis.id, found.id)
            self.assertEqual('rack 1', found.description)
        given = uuidutils.generate_uuid()
        self.assertEqual(given, self.db.create_chassis(
            {'uuid': given, 'extra': None}).uuid)

    def test_duplicate_uuid(self):
        chassis = self.db.create_chassis({})
        self.assertRaises(exception.ChassisAlreadyExists,
                          self.db.create_chassis, {'uuid': chassis.uuid})

    def test_not_found(self):
        self.assertRaises(exception.ChassisNotFound,
                          self.db.get_chassis_by_id, 9)
        self.assertRaises(exception.ChassisNotFound,
                          self.db.get_chassis_by_uuid,
                          uuidutils.generate_uuid())
        self.assertRaises(exception.ChassisNotFound,
                          self.db.update_chassis, 9, {'extra': {}})
        self.assertRaises(exception.ChassisNotFound,
                          self.db.destroy_chassis, 9)

    def test_update(self):
        chassis = self.db.create_chassis({'description': 'a'})
        updated = self.db.update_chassis(
            chassis.id, {'description': 'b', 'extra': None,
                         'uuid': uuidutils.generate_uuid()})
        self.assertEqual('b', updated.description)
        self.assertEqual({}, updated.extra)
        # The uuid is not changed.
        self.assertEqual(chassis.uuid, updated.uuid)
        self.assertIsNotNone(updated.updated_at)

    def test_list_pagination(self):
        made = [self.db.create_chassis({'description': d})
                for d in ('c', 'a', 'b')]
        self.assertEqual([c.id for c in made],
                         [c.id for c in self.db.get_chassis_list()])
        page = self.db.get_chassis_list(limit=2, sort_key='description')
        self.assertEqual(['a', 'b'], [c.description for c in page])
        rest = self.db.get_chassis_list(limit=2, marker=page[-1].uuid,
                                        sort_key='description')
        self.assertEqual(['c'], [c.description for c in rest])
        desc = self.db.get_chassis_list(sort_dir='desc')
        self.assertEqual([c.id for c in reversed(made)],
                         [c.id for c in desc])
        self.assertRaises(exception.InvalidParameterValue,
                          self.db.get_chassis_list, sort_key='extra')
        self.assertRaises(exception.InvalidParameterValue,
                          self.db.get_chassis_list,
                          marker=uuidutils.generate_uuid())

    def test_uuids_in_one_query(self):
        one = self.db.create_chassis({})
        two = self.db.create_chassis({})
        self.assertEqual({}, self.db.get_chassis_uuids([None]))
        self.assertEqual({one.id: one.uuid, two.id: two.uuid},
                         self.db.get_chassis_uuids([one.id, two.id, None,
                                                    12345]))

    def test_destroy(self):
        chassis = self.db.create_chassis({})
        self.db.destroy_chassis(chassis.id)
        self.assertRaises(exception.ChassisNotFound,
                          self.db.get_chassis_by_id, chassis.id)

    def test_destroy_with_nodes_refused(self):
        chassis = self.db.create_chassis({})
        node = utils.create_test_node(chassis_id=chassis.id)
        e = self.assertRaises(exception.ChassisNotEmpty,
                              self.db.destroy_chassis, chassis.id)
        self.assertIn(chassis.uuid, str(e))
        self.assertEqual(400, e.code)
        # Empty again: the delete goes through.
        self.db.update_node(node.id, {'chassis_id': None})
        self.db.destroy_chassis(chassis.id)

    def test_destroy_refused_by_foreign_key(self):
        # A node that joined after the check: the foreign key refuses the
        # delete, which is the same ChassisNotEmpty.
        chassis = self.db.create_chassis({})
        with mock.patch('ironic_like.db.sqlalchemy.chassis._has_nodes',
                        autospec=True, return_value=False):
            utils.create_test_node(chassis_id=chassis.id)
            self.assertRaises(exception.ChassisNotEmpty,
                              self.db.destroy_chassis, chassis.id)
        self.assertEqual(chassis.id,
                         self.db.get_chassis_by_id(chassis.id).id)

    def test_node_filter(self):
        chassis = self.db.create_chassis({})
        inside = utils.create_test_node(chassis_id=chassis.id)
        utils.create_test_node()
        self.assertEqual([inside.id], [
            n.id for n in self.db.get_node_list(
                filters={'chassis_id': chassis.id})])


class TestNodeOfDeletedChassis(base.TestCase):
    """A chassis deleted between the API's look-up and the node's write:
    a 400 naming chassis_uuid, not a database error."""

    def test_create_and_update(self):
        gone = self.db.create_chassis({})
        self.db.destroy_chassis(gone.id)
        e = self.assertRaises(exception.InvalidParameterValue,
                              utils.create_test_node, chassis_id=gone.id)
        self.assertEqual('chassis_uuid', e.field)
        node = utils.create_test_node()
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.db.update_node, node.id,
                              {'chassis_id': gone.id})
        self.assertEqual('chassis_uuid', e.field)
        self.assertIsNone(self.db.get_node_by_id(node.id).chassis_id)
