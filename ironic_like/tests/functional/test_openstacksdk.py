"""A real client: openstacksdk's baremetal proxy against the clustered
service (API with two workers, two conductors, RabbitMQ, MariaDB)."""

import openstack
from openstack import exceptions as sdk_exc

from ironic_like.tests.functional import base


def connect(url):
    return openstack.connect(
        auth_type='none', baremetal_endpoint_override=url + '/',
        load_yaml_config=False, load_envvars=False)


class TestOpenStackSDK(base.FunctionalTestCase):

    def test_nodes_ports_and_provisioning(self):
        cluster = self.start_cluster(conductors=2, api_workers=2)
        conn = connect(cluster.url)
        self.addCleanup(conn.close)
        bm = conn.baremetal

        # Nodes: create, list, get, update (PATCH), provision, delete.
        node = bm.create_node(driver='fake-hardware', name='sdk-node-1',
                              properties={'cpus': 4})
        self.assertEqual('enroll', node.provision_state)
        other = bm.create_node(driver='fake-hardware', name='sdk-node-2')
        names = {n.name for n in bm.nodes()}
        self.assertEqual({'sdk-node-1', 'sdk-node-2'}, names)
        detailed = {n.id: n for n in bm.nodes(details=True)}
        self.assertEqual('fake-hardware', detailed[node.id].driver)

        fetched = bm.get_node('sdk-node-1')
        self.assertEqual(node.id, fetched.id)
        self.assertEqual({'cpus': 4}, fetched.properties)

        updated = bm.update_node(node, extra={'rack': 'r1'},
                                 description='made by openstacksdk')
        self.assertEqual({'rack': 'r1'}, updated.extra)
        patched = bm.patch_node(node, [{'op': 'add', 'path': '/extra/row',
                                        'value': '7'}])
        self.assertEqual({'rack': 'r1', 'row': '7'}, patched.extra)
        self.assertEqual('made by openstacksdk',
                         bm.get_node(node.id).description)

        # Ports: create, list, get, update, delete.
        port = bm.create_port(node_uuid=node.id,
                              address='52:54:00:aa:bb:01')
        self.assertEqual(node.id, port.node_id)
        bm.create_port(node_uuid=other.id, address='52:54:00:aa:bb:02')
        self.assertEqual({'52:54:00:aa:bb:01', '52:54:00:aa:bb:02'},
                         {p.address for p in bm.ports()})
        self.assertEqual(['52:54:00:aa:bb:01'],
                         [p.address for p in bm.ports(node=node.id)])
        self.assertEqual(port.address, bm.get_port(port.id).address)
        port = bm.update_port(port, extra={'switch': 'sw1'})
        self.assertEqual({'switch': 'sw1'}, bm.get_port(port.id).extra)
        bm.delete_port(port, ignore_missing=False)
        self.assertRaises(sdk_exc.NotFoundException, bm.get_port, port.id)

        # enroll -> manageable -> available, waiting as a client does.
        node = bm.set_node_provision_state(node, 'manage', wait=True,
                                           timeout=60)
        self.assertEqual('manageable', node.provision_state)
        node = bm.set_node_provision_state(node, 'provide', wait=True,
                                           timeout=60)
        self.assertEqual('available', node.provision_state)
        self.assertEqual('available', bm.get_node(node.id).provision_state)

        bm.delete_node(node, ignore_missing=False)
        bm.delete_node(other, ignore_missing=False)
        self.assertRaises(sdk_exc.NotFoundException, bm.get_node, node.id)
        self.assertEqual([], list(bm.nodes()))
        self.assertEqual([], list(bm.ports()))
