"""POST /v1/nodes/{id}/vifs with port_uuid or portgroup_uuid (1.67):
the VIF goes where the request says, or nowhere."""

from oslo_utils import uuidutils

from ironic_like.common import states
from ironic_like.conductor import vifs
from ironic_like.tests.unit.api import base

VIF1 = '6d6b0e3f-6e1c-4c55-8a7e-3f1f6c1f2a01'


class TestVifAttachPort(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1', network_interface='flat',
                                     provision_state=states.ACTIVE)
        self.url = '/v1/nodes/n1/vifs'
        # Without a choice the group (then a PXE port) would be taken.
        self.group = self.db.create_portgroup({'node_id': self.node.id,
                                               'name': 'bond0'})
        self.member = self.create_port(self.node, portgroup_id=self.group.id,
                                       address='52:54:00:00:00:01')
        self.pxe = self.create_port(self.node, address='52:54:00:00:00:02',
                                    pxe_enabled=True)
        self.plain = self.create_port(self.node, address='52:54:00:00:00:03',
                                      pxe_enabled=False)

    def vif_of(self, port):
        return vifs.attached_vif(self.db.get_port_by_id(port.id))

    def test_port_uuid_chooses_the_port(self):
        self.post(self.url, {'id': VIF1, 'port_uuid': self.plain.uuid},
                  version='1.67', status=204)
        self.assertEqual(VIF1, self.vif_of(self.plain))
        self.assertIsNone(self.vif_of(self.pxe))
        self.assertIsNone(vifs.attached_vif(
            self.db.get_portgroup_by_id(self.group.id)))

    def test_portgroup_uuid_chooses_the_group(self):
        self.post(self.url, {'id': VIF1, 'portgroup_uuid': self.group.uuid},
                  version='1.67', status=204)
        self.assertEqual(VIF1, vifs.attached_vif(
            self.db.get_portgroup_by_id(self.group.id)))

    def test_port_in_a_group_or_unknown_port_is_not_free(self):
        for uuid in (self.member.uuid, uuidutils.generate_uuid()):
            r = self.post(self.url, {'id': VIF1, 'port_uuid': uuid},
                          version='1.67', status=400)
            self.assertFault(r, 400, VIF1)
        self.assertEqual({'vifs': []}, self.get(self.url).json)

    def test_both_is_400(self):
        r = self.post(self.url, {'id': VIF1, 'port_uuid': self.plain.uuid,
                                 'portgroup_uuid': self.group.uuid},
                      version='1.67', status=400)
        self.assertFault(r, 400, 'Cannot specify both')
        self.assertEqual({'vifs': []}, self.get(self.url).json)

    def test_not_a_uuid_is_400(self):
        r = self.post(self.url, {'id': VIF1, 'port_uuid': 'eth0'},
                      version='1.67', status=400)
        self.assertFault(r, 400, 'port_uuid')

    def test_ignored_below_1_67(self):
        self.post(self.url, {'id': VIF1, 'port_uuid': self.plain.uuid},
                  version='1.66', status=204)
        # Ironic's own choice: the group first.
        self.assertIsNone(self.vif_of(self.plain))
        self.assertEqual(VIF1, vifs.attached_vif(
            self.db.get_portgroup_by_id(self.group.id)))
