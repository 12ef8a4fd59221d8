"""GET /v1/nodes/{id}/inventory (Ironic 1.81)."""

import sqlalchemy as sa

from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.db.sqlalchemy import models
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth

INVENTORY = {'cpu': {'count': 4, 'architecture': 'x86_64'},
             'memory': {'physical_mb': 8192},
             'interfaces': [{'name': 'eth0',
                             'mac_address': '52:54:00:12:34:56'}]}
PLUGIN_DATA = {'properties': {'cpus': 4}, 'added_ports': []}


class TestNodeInventory(base.APITestCase):

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1')

    def url(self, ident='n1'):
        return '/v1/nodes/%s/inventory' % ident

    def test_inventory(self):
        self.db.save_node_inventory(self.node.id, INVENTORY, PLUGIN_DATA)
        doc = self.get(self.url(), version='1.81').json
        self.assertEqual({'inventory': INVENTORY,
                          'plugin_data': PLUGIN_DATA}, doc)
        # By uuid as well; a new inspection replaces it.
        self.db.save_node_inventory(self.node.id, {'cpu': {'count': 8}})
        doc = self.get(self.url(self.node.uuid), version='1.81').json
        self.assertEqual({'inventory': {'cpu': {'count': 8}},
                          'plugin_data': {}}, doc)

    def test_hidden_before_1_81(self):
        self.db.save_node_inventory(self.node.id, INVENTORY)
        self.get(self.url(), version='1.80', status=404)

    def test_never_inspected(self):
        r = self.get(self.url(), version='1.81', status=404)
        self.assertFault(r, 404, 'Node inventory record for node',
                         self.node.uuid)

    def test_unknown_node(self):
        r = self.get(self.url('nope'), version='1.81', status=404)
        self.assertFault(r, 404, 'nope')

    def test_not_kept(self):
        self.db.save_node_inventory(self.node.id, INVENTORY)
        self.config(data_backend='none', group='inventory')
        self.get(self.url(), version='1.81', status=404)

    def test_read_only(self):
        for call in (self.post, self.put):
            call(self.url(), {}, version='1.81', status=405)

    def test_deleted_with_the_node(self):
        self.db.save_node_inventory(self.node.id, INVENTORY)
        self.db.destroy_node(self.node.id)
        with sa_api._reader() as session:
            self.assertEqual([], list(session.scalars(
                sa.select(models.NodeInventory))))


class TestNodeInventoryPolicy(test_auth.KeystoneTestCase):

    def setUp(self):
        super().setUp()
        self.mine = self.create_node(name='mine', owner='p1')
        self.leased = self.create_node(name='leased', owner='p9',
                                       lessee='p1')
        for node in (self.mine, self.leased):
            self.db.save_node_inventory(node.id, INVENTORY)

    def test_owner_reads_lessee_does_not(self):
        headers = self.project('reader')
        self.get('/v1/nodes/mine/inventory', headers=headers,
                 version='1.81')
        r = self.get('/v1/nodes/leased/inventory', headers=headers,
                     version='1.81', status=403)
        self.assertFault(r, 403, 'baremetal:node:inventory:get')
        self.get('/v1/nodes/mine/inventory',
                 headers=self.project('reader', 'p2'), version='1.81',
                 status=404)
        self.get('/v1/nodes/leased/inventory',
                 headers=self.system('reader'), version='1.81')
