"""Nodes in the database: create, look up, list, update, destroy."""

import datetime

from oslo_utils import timeutils
from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils


class TestNodeCreateGet(base.TestCase):

    def test_create_defaults(self):
        node = utils.create_test_node(traits=['CUSTOM_B', 'CUSTOM_A'])
        self.assertIsNotNone(node.id)
        self.assertTrue(uuidutils.is_uuid_like(node.uuid))
        self.assertFalse(node.maintenance)
        self.assertEqual('', node.conductor_group)
        for key in ('driver_info', 'driver_internal_info', 'instance_info',
                    'properties', 'extra', 'labels'):
            self.assertEqual({}, getattr(node, key), key)
        self.assertIsNotNone(node.created_at)
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual(['CUSTOM_A', 'CUSTOM_B'],
                         [t.trait for t in stored.traits])

    def test_one_node_read_in_one_query_with_ordered_traits(self):
        node = utils.create_test_node(traits=['CUSTOM_B', 'CUSTOM_A'])
        statements = []
        engine = sa_api.get_engine()

        def record(conn, cursor, statement, *args):
            statements.append(statement)
        sa.event.listen(engine, 'before_cursor_execute', record)
        try:
            stored = self.db.get_node_by_id(node.id)
        finally:
            sa.event.remove(engine, 'before_cursor_execute', record)
        selects = [s for s in statements if s.lstrip().startswith('SELECT')]
        self.assertEqual(1, len(selects), selects)
        self.assertEqual(['CUSTOM_A', 'CUSTOM_B'],
                         [t.trait for t in stored.traits])
        bare = utils.create_test_node()
        self.assertEqual([], self.db.get_node_by_id(bare.id).traits)

    def test_route_by_uuid_and_name(self):
        node = utils.create_test_node(name='route-me', conductor_group='g1')
        for column, value in (('uuid', node.uuid), ('name', 'route-me')):
            route = self.db.get_node_route(column, value)
            self.assertEqual(
                (node.id, node.uuid, 'route-me', node.driver, 'g1'),
                (route.id, route.uuid, route.name, route.driver,
                 route.conductor_group))
        self.assertRaises(exception.NodeNotFound, self.db.get_node_route,
                          'name', 'nobody')

    def test_uuid_generated_when_missing(self):
        node = self.db.create_node({'driver': utils.FAKE_HW})
        self.assertTrue(uuidutils.is_uuid_like(node.uuid))

    def test_get_by_id_uuid_name(self):
        node = utils.create_test_node(name='n1', driver_info={'a': 1})
        for found in (self.db.get_node_by_id(node.id),
                      self.db.get_node_by_uuid(node.uuid),
                      self.db.get_node_by_name('n1'),
                      self.db.get_node('n1'),
                      self.db.get_node(node.uuid)):
            self.assertEqual(node.id, found.id)
            self.assertEqual({'a': 1}, found.driver_info)

    def test_not_found(self):
        self.assertRaises(exception.NodeNotFound, self.db.get_node_by_id, 42)
        self.assertRaises(exception.NodeNotFound, self.db.get_node_by_uuid,
                          uuidutils.generate_uuid())
        self.assertRaises(exception.NodeNotFound, self.db.get_node_by_name,
                          'nope')
        self.assertRaises(exception.NodeNotFound, self.db.get_node, 'nope')

    def test_duplicate_uuid(self):
        node = utils.create_test_node()
        e = self.assertRaises(exception.NodeAlreadyExists,
                              utils.create_test_node, uuid=node.uuid)
        self.assertIn(node.uuid, str(e))
        self.assertEqual(409, e.code)

    def test_duplicate_name(self):
        utils.create_test_node(name='dup')
        e = self.assertRaises(exception.DuplicateName,
                              utils.create_test_node, name='dup')
        self.assertIn('dup', str(e))

    def test_duplicate_instance_uuid(self):
        instance = uuidutils.generate_uuid()
        utils.create_test_node(instance_uuid=instance)
        e = self.assertRaises(exception.InstanceAssociated,
                              utils.create_test_node,
                              instance_uuid=instance)
        self.assertIn(instance, str(e))
        self.assertIsInstance(e, exception.Conflict)

    def test_nameless_nodes_do_not_conflict(self):
        utils.create_test_node()
        utils.create_test_node()
        self.assertEqual(2, len(self.db.get_node_list()))


class TestNodeList(base.TestCase):

    def setUp(self):
        super().setUp()
        self.n1 = utils.create_test_node(
            name='n1', provision_state='available', resource_class='gold',
            conductor_group='g1', owner='p1',
            instance_uuid=uuidutils.generate_uuid())
        self.n2 = utils.create_test_node(
            name='n2', provision_state='manageable', resource_class='silver',
            maintenance=True, owner='p2', lessee='p1')
        self.n3 = utils.create_test_node(
            name='n3', provision_state='available', driver='other-hw',
            resource_class='gold')

    def _uuids(self, **filters):
        return sorted(n.uuid for n in self.db.get_node_list(filters=filters))

    def _expect(self, *nodes):
        return sorted(n.uuid for n in nodes)

    def test_no_filter(self):
        self.assertEqual(self._expect(self.n1, self.n2, self.n3),
                         self._uuids())

    def test_filters(self):
        cases = [
            ({'provision_state': 'available'}, [self.n1, self.n3]),
            ({'provision_state': ['manageable', 'enroll']}, [self.n2]),
            ({'maintenance': True}, [self.n2]),
            ({'maintenance': False}, [self.n1, self.n3]),
            ({'driver': 'other-hw'}, [self.n3]),
            ({'resource_class': 'gold'}, [self.n1, self.n3]),
            ({'conductor_group': 'g1'}, [self.n1]),
            ({'conductor_group': ''}, [self.n2, self.n3]),
            ({'associated': True}, [self.n1]),
            ({'associated': False}, [self.n2, self.n3]),
            ({'owner': 'p2'}, [self.n2]),
            ({'project': 'p1'}, [self.n1, self.n2]),
            ({'project': 'p2'}, [self.n2]),
            ({'instance_uuid': self.n1.instance_uuid}, [self.n1]),
            ({'uuid_in': [self.n1.uuid, self.n3.uuid]}, [self.n1, self.n3]),
            ({'provision_state': 'available', 'resource_class': 'gold',
              'driver': utils.FAKE_HW}, [self.n1]),
        ]
        for filters, expected in cases:
            self.assertEqual(self._expect(*expected), self._uuids(**filters),
                             filters)

    def test_reserved_filter(self):
        self.db.reserve_node('host-a', self.n2.id)
        self.assertEqual(self._expect(self.n2), self._uuids(reserved=True))
        self.assertEqual(self._expect(self.n1, self.n3),
                         self._uuids(reserved=False))
        self.assertEqual(self._expect(self.n2),
                         self._uuids(reservation='host-a'))

    def test_columns_load_only(self):
        self.db.set_node_traits(self.n1.id, ['CUSTOM_X'])
        nodes = self.db.get_node_list(columns=['uuid', 'name'])
        node = [n for n in nodes if n.uuid == self.n1.uuid][0]
        self.assertEqual('n1', node.name)
        self.assertEqual(self.n1.id, node.id)  # always there
        self.assertFalse(hasattr(node, 'driver_info'))
        # Traits are not loaded unless asked for.
        self.assertFalse(hasattr(node, 'traits'))
        self.assertEqual({'uuid', 'name', 'id'}, set(node.as_dict()))

        nodes = self.db.get_node_list(columns=['uuid', 'traits'])
        node = [n for n in nodes if n.uuid == self.n1.uuid][0]
        self.assertEqual(['CUSTOM_X'], [t.trait for t in node.traits])
        node = [n for n in nodes if n.uuid == self.n2.uuid][0]
        self.assertEqual([], node.traits)

    def test_full_rows_have_traits(self):
        self.db.set_node_traits(self.n1.id, ['CUSTOM_X'])
        node = self.db.get_node_list(filters={'uuid_in': [self.n1.uuid]})[0]
        self.assertEqual(['CUSTOM_X'], [t.trait for t in node.traits])

    def test_ownership_list(self):
        rows = self.db.get_node_ownership_list(
            filters={'driver': [utils.FAKE_HW]})
        self.assertEqual(sorted([self.n1.uuid, self.n2.uuid]),
                         sorted(r[1] for r in rows))
        row = [r for r in rows if r[1] == self.n2.uuid][0]
        self.assertEqual((self.n2.id, self.n2.uuid, utils.FAKE_HW, '', None,
                          None, True, 'manageable'), row)


class TestNodePagination(base.TestCase):

    def setUp(self):
        super().setUp()
        self.nodes = [utils.create_test_node(name='node-%d' % i)
                      for i in range(5)]

    def test_limit_and_marker_by_id(self):
        page1 = self.db.get_node_list(limit=2)
        self.assertEqual([n.id for n in self.nodes[:2]],
                         [n.id for n in page1])
        page2 = self.db.get_node_list(limit=2, marker=page1[-1].uuid)
        self.assertEqual([n.id for n in self.nodes[2:4]],
                         [n.id for n in page2])
        page3 = self.db.get_node_list(limit=2, marker=page2[-1].uuid)
        self.assertEqual([self.nodes[4].id], [n.id for n in page3])

    def test_sort_key_and_dir(self):
        names = [n.name for n in self.db.get_node_list(sort_key='name',
                                                       sort_dir='desc')]
        self.assertEqual(sorted(names, reverse=True), names)
        page = self.db.get_node_list(sort_key='name', sort_dir='desc',
                                     limit=2, marker=self.nodes[3].uuid)
        self.assertEqual(['node-2', 'node-1'], [n.name for n in page])

    def _walk(self, **kwargs):
        seen = []
        marker = None
        for _ in range(20):
            page = self.db.get_node_list(limit=3, marker=marker, **kwargs)
            if not page:
                break
            seen.extend(n.uuid for n in page)
            marker = page[-1].uuid
        return seen

    def test_walk_all_pages_with_null_sort_values(self):
        # Nameless nodes must neither vanish nor repeat across pages, in
        # either direction, and NULL sorts as the smallest value.
        extra = [utils.create_test_node() for _ in range(3)]
        everything = self.db.get_node_list(sort_key='name')
        self.assertEqual([e.uuid for e in extra],
                         [n.uuid for n in everything[:3]])
        for sort_dir in ('asc', 'desc'):
            seen = self._walk(sort_key='name', sort_dir=sort_dir)
            full = [n.uuid for n in self.db.get_node_list(
                sort_key='name', sort_dir=sort_dir)]
            self.assertEqual(full, seen, sort_dir)
            self.assertEqual(sorted(n.uuid for n in self.nodes + extra),
                             sorted(seen))

    def test_walk_pages_by_boolean(self):
        for node in self.nodes[1::2]:
            self.db.update_node(node.id, {'maintenance': True})
        for sort_dir in ('asc', 'desc'):
            seen = self._walk(sort_key='maintenance', sort_dir=sort_dir)
            full = [n.uuid for n in self.db.get_node_list(
                sort_key='maintenance', sort_dir=sort_dir)]
            self.assertEqual(full, seen)
            self.assertEqual(len(self.nodes), len(seen))

    def test_invalid_sort_key(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.db.get_node_list, sort_key='nonsense')
        self.assertEqual('sort_key', e.field)
        self.assertIn('nonsense', str(e))

    def test_sort_key_not_sortable(self):
        # A column that exists but is not one the API may sort by (a JSON
        # blob) is refused as well.
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.db.get_node_list, sort_key='driver_info')
        self.assertEqual('sort_key', e.field)

    def test_invalid_sort_dir(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.db.get_node_list, sort_dir='sideways')
        self.assertEqual('sort_dir', e.field)

    def test_invalid_marker(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.db.get_node_list,
                              marker=uuidutils.generate_uuid())
        self.assertEqual('marker', e.field)


class TestNodeUpdate(base.TestCase):

    def setUp(self):
        super().setUp()
        self.node = utils.create_test_node(name='n1', traits=['CUSTOM_A'])

    def test_update_values(self):
        node = self.db.update_node(self.node.id, {'name': 'renamed',
                                                  'extra': {'k': 'v'}})
        self.assertEqual('renamed', node.name)
        self.assertEqual({'k': 'v'}, node.extra)
        self.assertIsNotNone(node.updated_at)
        self.assertEqual('renamed', self.db.get_node_by_id(node.id).name)

    def test_provision_state_stamps_provision_updated_at(self):
        self.assertIsNone(self.node.provision_updated_at)
        node = self.db.update_node(self.node.id,
                                   {'provision_state': 'manageable'})
        self.assertIsNotNone(node.provision_updated_at)
        delta = timeutils.utcnow() - node.provision_updated_at
        self.assertLess(abs(delta), datetime.timedelta(seconds=60))

    def test_immutable_fields(self):
        for field, value in (('id', 99), ('uuid', uuidutils.generate_uuid()),
                             ('created_at', timeutils.utcnow())):
            e = self.assertRaises(exception.InvalidParameterValue,
                                  self.db.update_node, self.node.id,
                                  {field: value})
            self.assertEqual(field, e.field)
        self.assertEqual(self.node.uuid,
                         self.db.get_node_by_id(self.node.id).uuid)

    def test_not_found(self):
        self.assertRaises(exception.NodeNotFound, self.db.update_node, 999,
                          {'name': 'x'})

    def test_expected_matches(self):
        node = self.db.update_node(
            self.node.id, {'provision_state': 'manageable'},
            expected={'provision_state': 'enroll'})
        self.assertEqual('manageable', node.provision_state)

    def test_expected_mismatch_changes_nothing(self):
        e = self.assertRaises(
            exception.InvalidState, self.db.update_node, self.node.id,
            {'provision_state': 'manageable', 'name': 'other'},
            expected={'provision_state': 'available'})
        self.assertIn('provision_state', str(e))
        node = self.db.get_node_by_id(self.node.id)
        self.assertEqual('enroll', node.provision_state)
        self.assertEqual('n1', node.name)

    def test_traits_replace(self):
        node = self.db.update_node(
            self.node.id, {'traits': ['CUSTOM_C', 'CUSTOM_B', 'CUSTOM_C']})
        self.assertEqual(['CUSTOM_B', 'CUSTOM_C'],
                         [t.trait for t in node.traits])
        stored = self.db.get_node_by_id(self.node.id)
        self.assertEqual(['CUSTOM_B', 'CUSTOM_C'],
                         [t.trait for t in stored.traits])
        node = self.db.update_node(self.node.id, {'traits': []})
        self.assertEqual([], node.traits)

    def test_traits_untouched_when_absent(self):
        node = self.db.update_node(self.node.id, {'name': 'x'})
        self.assertEqual(['CUSTOM_A'], [t.trait for t in node.traits])

    def test_duplicate_name(self):
        other = utils.create_test_node(name='n2')
        self.assertRaises(exception.DuplicateName, self.db.update_node,
                          other.id, {'name': 'n1'})

    def test_instance_uuid_conflicts(self):
        instance = uuidutils.generate_uuid()
        other = utils.create_test_node(instance_uuid=instance)
        self.assertRaises(exception.InstanceAssociated, self.db.update_node,
                          self.node.id, {'instance_uuid': instance})
        # Re-associating an associated node with another instance.
        self.assertRaises(exception.NodeAssociated, self.db.update_node,
                          other.id,
                          {'instance_uuid': uuidutils.generate_uuid()})
        # Clearing it is fine.
        node = self.db.update_node(other.id, {'instance_uuid': None})
        self.assertIsNone(node.instance_uuid)

    def test_trait_helpers(self):
        self.db.add_node_trait(self.node.id, 'CUSTOM_Z')
        self.db.add_node_trait(self.node.id, 'CUSTOM_Z')  # idempotent
        traits = self.db.get_node_by_id(self.node.id).traits
        self.assertEqual(['CUSTOM_A', 'CUSTOM_Z'], [t.trait for t in traits])
        self.db.delete_node_trait(self.node.id, 'CUSTOM_A')
        self.assertRaises(exception.NodeTraitNotFound,
                          self.db.delete_node_trait, self.node.id,
                          'CUSTOM_A')
        self.assertRaises(exception.NodeNotFound, self.db.add_node_trait,
                          999, 'CUSTOM_Q')
        self.assertEqual(['CUSTOM_Z'], [
            t.trait for t in self.db.get_node_by_id(self.node.id).traits])
        self.assertEqual(['CUSTOM_Q'], [
            t.trait for t in self.db.set_node_traits(self.node.id,
                                                     ['CUSTOM_Q'])])


class TestNodeDestroy(base.TestCase):

    def test_destroy_removes_ports_and_traits(self):
        node = utils.create_test_node(traits=['CUSTOM_A', 'CUSTOM_B'])
        other = utils.create_test_node(traits=['CUSTOM_A'])
        port = utils.create_test_port(node.id)
        other_port = utils.create_test_port(other.id)
        self.db.destroy_node(node.id)
        self.assertRaises(exception.NodeNotFound, self.db.get_node_by_id,
                          node.id)
        self.assertRaises(exception.PortNotFound, self.db.get_port_by_id,
                          port.id)
        from ironic_like.db.sqlalchemy import api as sa_api
        from ironic_like.db.sqlalchemy import models
        with sa_api._reader() as session:
            left = session.scalars(sa.select(models.NodeTrait)).all()
            self.assertEqual([(other.id, 'CUSTOM_A')],
                             [(t.node_id, t.trait) for t in left])
        self.assertEqual(other_port.id,
                         self.db.get_port_by_id(other_port.id).id)

    def test_destroy_missing(self):
        self.assertRaises(exception.NodeNotFound, self.db.destroy_node, 999)
