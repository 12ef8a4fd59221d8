"""PATCH /v1/nodes/{ident}: Ironic's per-field rules (node_patch_policy)."""

from ironic_like.api.controllers.v1 import node_patch_policy as npp
from ironic_like.common import states
from ironic_like.tests import base as test_base
from ironic_like.tests.unit.api import test_auth


class TestRulesFor(test_base.TestCase):

    def rules(self, *paths, value='x', op='add'):
        return npp.rules_for([{'op': op, 'path': p, 'value': value}
                              for p in paths])

    def test_field_rules(self):
        self.assertEqual(['baremetal:node:update_extra'],
                         self.rules('/extra/a'))
        self.assertEqual(['baremetal:node:update:retired'],
                         self.rules('/retired', '/retired_reason'))
        self.assertEqual(['baremetal:node:update:driver_interfaces'],
                         self.rules('/driver', '/power_interface',
                                    '/network_interface'))
        self.assertEqual(['baremetal:node:update:name',
                          'baremetal:node:update:owner'],
                         self.rules('/name', '/owner'))

    def test_other_fields_need_the_generic_rule(self):
        self.assertEqual(['baremetal:node:update_extra',
                          'baremetal:node:update'],
                         self.rules('/extra/a', '/description'))
        self.assertEqual(['baremetal:node:update'], npp.rules_for([]))

    def test_turning_cleaning_off(self):
        self.assertEqual(['baremetal:node:disable_cleaning'],
                         self.rules('/automated_clean', value=False))
        self.assertEqual(['baremetal:node:disable_cleaning'],
                         self.rules('/automated_clean', value='false',
                                    op='replace'))
        self.assertEqual(['baremetal:node:update'],
                         self.rules('/automated_clean', value=True))
        self.assertEqual(['baremetal:node:update'],
                         self.rules('/automated_clean', op='remove'))


class TestPatchPolicy(test_auth.KeystoneTestCase):

    def setUp(self):
        super().setUp()
        self.mine = self.create_node(name='mine', owner='p1')
        self.leased = self.create_node(name='leased', owner='p9',
                                       lessee='p1')

    def node(self, node):
        return self.db.get_node_by_uuid(node.uuid)

    def change(self, headers, *ops, status=200, node='mine'):
        return self.patch('/v1/nodes/%s' % node, list(ops), status=status,
                          headers=headers)

    @staticmethod
    def add(path, value):
        return {'op': 'add', 'path': path, 'value': value}

    def test_owner_member(self):
        headers = self.project('member')
        self.change(headers, self.add('/name', 'renamed'),
                    self.add('/extra/a', 1),
                    self.add('/driver_info/ipmi_address', '192.0.2.1'),
                    self.add('/properties/cpus', 4),
                    self.add('/lessee', 'p3'),
                    self.add('/description', 'mine'))
        node = self.node(self.mine)
        self.assertEqual(('renamed', {'a': 1}, 'p3', 'mine'),
                         (node.name, node.extra, node.lessee,
                          node.description))
        for path, value, rule in (
                ('/driver', 'fake-hardware', 'update:driver_interfaces'),
                ('/power_interface', 'fake', 'update:driver_interfaces'),
                ('/owner', 'p2', 'update:owner'),
                ('/conductor_group', 'g1', 'update:conductor_group'),
                ('/automated_clean', False, 'disable_cleaning')):
            r = self.change(headers, self.add(path, value), status=403,
                            node='renamed')
            self.assertFault(r, 403, 'baremetal:node:' + rule)

    def test_one_refused_field_refuses_the_whole_patch(self):
        r = self.change(self.project('member'), self.add('/name', 'x'),
                        self.add('/owner', 'p2'), status=403)
        self.assertFault(r, 403, 'baremetal:node:update:owner')
        node = self.node(self.mine)
        self.assertEqual(('mine', 'p1'), (node.name, node.owner))

    def test_owner_admin_changes_interfaces(self):
        self.change(self.project('admin'),
                    self.add('/power_interface', 'fake'))
        self.assertEqual('fake', self.node(self.mine).power_interface)

    def test_lessee(self):
        member = self.project('member')
        self.change(member, self.add('/extra/b', 2), node='leased')
        self.assertEqual({'b': 2}, self.node(self.leased).extra)
        for path in ('/name', '/instance_info/image_source',
                     '/driver_info/x'):
            self.change(member, self.add(path, 'v'), status=403,
                        node='leased')
        # The lessee's admin fills in its instance's deploy data.
        self.change(self.project('admin'),
                    self.add('/instance_info/image_source', 'img'),
                    node='leased')
        self.assertEqual({'image_source': 'img'},
                         self.node(self.leased).instance_info)

    def test_other_project_sees_nothing(self):
        self.change(self.project('member', 'p2'), self.add('/extra/a', 1),
                    status=404)

    def test_system_member_is_not_admin(self):
        chassis = self.db.create_chassis({'uuid': 'e3d0c3c1-1b1e-4e8c-'
                                                  '8a43-6c7a8b9d0e1f'})
        member = self.system('member')
        self.change(member, self.add('/chassis_uuid', chassis.uuid),
                    status=403)
        self.change(member, self.add('/automated_clean', False),
                    status=403)
        self.change(member, self.add('/automated_clean', True))
        admin = self.system('admin')
        self.change(admin, self.add('/chassis_uuid', chassis.uuid))
        self.change(admin, self.add('/automated_clean', False))
        node = self.node(self.mine)
        self.assertEqual((chassis.id, False),
                         (node.chassis_id, node.automated_clean))

    def test_owner_of_a_deployed_node(self):
        active = self.create_node(name='active', owner='p1',
                                  provision_state=states.ACTIVE)
        r = self.change(self.system('member'), self.add('/owner', 'p2'),
                        status=409, node='active')
        self.assertFault(r, 409, 'while it is in state "active"')
        self.assertEqual('p1', self.node(active).owner)
        self.change(self.system('admin'), self.add('/owner', 'p2'),
                    node='active')
        self.assertEqual('p2', self.node(active).owner)

    def test_owner_of_a_node_allocated_to_a_project(self):
        allocation = self.db.create_allocation(
            {'owner': 'p1', 'node_id': self.mine.id,
             'state': states.ACTIVE})
        self.db.update_node(self.mine.id, {'allocation_id': allocation.id})
        r = self.change(self.system('admin'), self.add('/owner', 'p2'),
                        status=409)
        self.assertFault(r, 409, 'allocation with an owner')
        self.assertEqual('p1', self.node(self.mine).owner)
        # Other fields still change.
        self.change(self.system('admin'), self.add('/extra/a', 1))
