"""Chassis: create, show, list (detail, fields, pages), update, delete;
the nodes of a chassis (/v1/chassis/{uuid}/nodes, a node's chassis_uuid
and the node list's chassis_uuid filter); the errors (a chassis with
nodes cannot be deleted, unknown ones)."""

from tempest.lib.common.utils import data_utils
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base


class ChassisTestBase(base.BaseBaremetalLikeTest):

    # Chassis are as old as the API; 1.52 for the nodes of the tests
    # (names, and the node fields the other node tests use).
    min_microversion = '1.52'

    def create_chassis(self, **fields):
        chassis = self.client.create_chassis(**fields)
        self.addCleanup(self._delete_chassis, chassis['uuid'])
        return chassis

    def _delete_chassis(self, uuid):
        """Delete the chassis, first taking out any node still in it (a
        test failing half-way may leave one; a chassis with nodes cannot
        be deleted)."""
        try:
            nodes = self.client.list_chassis_nodes(uuid)['nodes']
        except lib_exc.NotFound:
            return
        for node in nodes:
            self._ignore_not_found(
                self.client.update_node, node['uuid'],
                [{'op': 'remove', 'path': '/chassis_uuid'}])
        self._ignore_not_found(self.client.delete_chassis, uuid)

    def all_chassis(self, **params):
        """Every chassis, following the pages (other tests may have made
        chassis of their own)."""
        found = []
        marker = None
        while True:
            page = self.client.list_chassis(marker=marker, **params)
            found += page['chassis']
            if not page['chassis'] or not page.get('next'):
                return found
            marker = page['chassis'][-1]['uuid']


class TestChassis(ChassisTestBase):

    @decorators.idempotent_id('a7abfff0-f45b-40d1-a565-893e984aae7d')
    def test_create_show_update_delete(self):
        uuid = data_utils.rand_uuid()
        chassis = self.create_chassis(uuid=uuid, description='rack 1',
                                      extra={'room': 'a'})
        self.assertEqual(uuid, chassis['uuid'])
        self.assertEqual('rack 1', chassis['description'])
        self.assertEqual({'room': 'a'}, chassis['extra'])
        shown = self.client.show_chassis(uuid)
        for field in ('uuid', 'description', 'extra', 'created_at'):
            self.assertEqual(chassis[field], shown[field])
        updated = self.client.update_chassis(uuid, [
            {'op': 'replace', 'path': '/description', 'value': 'rack 2'},
            {'op': 'add', 'path': '/extra/slots', 'value': 8},
            {'op': 'remove', 'path': '/extra/room'}])
        self.assertEqual('rack 2', updated['description'])
        self.assertEqual({'slots': 8}, updated['extra'])
        self.assertEqual(updated['extra'],
                         self.client.show_chassis(uuid)['extra'])
        updated = self.client.update_chassis(uuid, [
            {'op': 'remove', 'path': '/description'}])
        self.assertIsNone(updated['description'])
        self.client.delete_chassis(uuid)
        self.assertRaises(lib_exc.NotFound, self.client.show_chassis, uuid)

    @decorators.idempotent_id('a1674e67-7a4f-4ea5-81a4-a2628f4b6d27')
    def test_list_detail_fields_and_pages(self):
        mine = sorted(self.create_chassis(description='tempest %d' % i,
                                          extra={'n': i})['uuid']
                      for i in range(2))
        listed = {c['uuid']: c for c in self.all_chassis()}
        for uuid in mine:
            self.assertIn(uuid, listed)
            # The short form: no extra.
            self.assertNotIn('extra', listed[uuid])
        detailed = {c['uuid']: c for c in self.all_chassis(detail=True)}
        self.assertIn('extra', detailed[mine[0]])
        self.assertIn('created_at', detailed[mine[0]])
        by_fields = {c['uuid']: c
                     for c in self.all_chassis(fields=['uuid', 'extra'])}
        self.assertIn('extra', by_fields[mine[0]])
        self.assertNotIn('description', by_fields[mine[0]])
        shown = self.client.show_chassis(mine[0], fields=['uuid'])
        self.assertEqual(mine[0], shown['uuid'])
        self.assertNotIn('description', shown)
        # There are at least two chassis: one page of one.
        page = self.client.list_chassis(limit=1)
        self.assertEqual(1, len(page['chassis']))

    @decorators.idempotent_id('14687080-fd58-4dd4-924a-86086edcc4c6')
    def test_nodes_of_a_chassis(self):
        chassis = self.create_chassis(description='tempest nodes')
        # Nodes after the chassis: their clean-ups run first.
        inside = sorted(self.create_node(chassis_uuid=chassis['uuid'])['uuid']
                        for _ in range(2))
        outside = self.create_node()
        self.assertIsNone(outside['chassis_uuid'])
        self.assertEqual(chassis['uuid'],
                         self.client.show_node(inside[0])['chassis_uuid'])
        listed = self.client.list_chassis_nodes(chassis['uuid'])['nodes']
        self.assertEqual(inside, sorted(n['uuid'] for n in listed))
        listed = self.client.list_nodes(chassis_uuid=chassis['uuid'])
        self.assertEqual(inside, sorted(n['uuid'] for n in listed['nodes']))
        # A node moves in by PATCH and out by removing its chassis_uuid.
        self.client.update_node(outside['uuid'], [
            {'op': 'add', 'path': '/chassis_uuid',
             'value': chassis['uuid']}])
        self.client.update_node(inside[0], [
            {'op': 'remove', 'path': '/chassis_uuid'}])
        self.assertIsNone(self.client.show_node(inside[0])['chassis_uuid'])
        listed = self.client.list_chassis_nodes(chassis['uuid'])['nodes']
        self.assertEqual(sorted([inside[1], outside['uuid']]),
                         sorted(n['uuid'] for n in listed))


class TestChassisErrors(ChassisTestBase):

    @decorators.attr(type='negative')
    @decorators.idempotent_id('bae92137-e695-43af-9240-6c71e7b32eb5')
    def test_delete_not_empty(self):
        chassis = self.create_chassis()
        node = self.create_node(chassis_uuid=chassis['uuid'])
        self.assertRaises(lib_exc.BadRequest, self.client.delete_chassis,
                          chassis['uuid'])
        self.assertEqual(chassis['uuid'],
                         self.client.show_chassis(chassis['uuid'])['uuid'])
        # Empty, it goes.
        self.client.delete_node(node['uuid'])
        self.client.delete_chassis(chassis['uuid'])
        self.assertRaises(lib_exc.NotFound, self.client.show_chassis,
                          chassis['uuid'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('cf3540c3-441d-4446-8d60-a2d51770fa27')
    def test_not_found(self):
        missing = data_utils.rand_uuid()
        self.assertRaises(lib_exc.NotFound, self.client.show_chassis,
                          missing)
        self.assertRaises(lib_exc.NotFound, self.client.update_chassis,
                          missing, [{'op': 'replace',
                                     'path': '/description', 'value': 'x'}])
        self.assertRaises(lib_exc.NotFound, self.client.delete_chassis,
                          missing)
        self.assertRaises(lib_exc.NotFound, self.client.list_chassis_nodes,
                          missing)

    @decorators.attr(type='negative')
    @decorators.idempotent_id('dff12749-42cb-4e38-b926-0804dfc62998')
    def test_node_of_an_unknown_chassis(self):
        missing = data_utils.rand_uuid()
        self.assertRaises(lib_exc.BadRequest, self.client.create_node,
                          driver='fake-hardware', chassis_uuid=missing)
        node = self.create_node()
        self.assertRaises(lib_exc.BadRequest, self.client.update_node,
                          node['uuid'], [{'op': 'add',
                                          'path': '/chassis_uuid',
                                          'value': missing}])
        self.assertIsNone(self.client.show_node(node['uuid'])['chassis_uuid'])
