"""NodeChanges: the in-memory node state and its differences."""

import testtools

from ironic_like.common.inspection_rules import engine
from ironic_like.common.inspection_rules import errors
from ironic_like.common.inspection_rules import paths

P1 = '11111111-1111-1111-1111-111111111111'
P2 = '22222222-2222-2222-2222-222222222222'


def _fields(**overrides):
    fields = {'name': 'node-1', 'description': None,
              'properties': {'cpus': 8, 'capabilities': 'a:1,boot_mode:bios'},
              'extra': {}, 'driver_info': {'ipmi_address': '10.0.0.1'},
              'instance_info': {}, 'labels': {}, 'resource_class': None,
              'owner': None, 'lessee': None, 'network_data': {},
              'automated_clean': None, 'retired': False,
              'retired_reason': None, 'shard': None}
    fields.update(overrides)
    return fields


def _ports():
    return [{'uuid': P1, 'address': '52:54:00:AA:BB:01', 'extra': {},
             'pxe_enabled': True, 'local_link_connection': {},
             'physical_network': None, 'is_smartnic': False},
            {'uuid': P2, 'address': '52:54:00:aa:bb:02', 'extra': {'a': 1},
             'pxe_enabled': False, 'local_link_connection': {},
             'physical_network': 'phys', 'is_smartnic': False}]


class TestPaths(testtools.TestCase):

    def test_split(self):
        for path in ('/driver_info/ipmi_address', 'driver_info/ipmi_address',
                     'driver_info.ipmi_address', '/driver_info/ipmi_address/'):
            self.assertEqual(['driver_info', 'ipmi_address'],
                             paths.split(path))
        self.assertEqual(['extra', 'a.b'], paths.split('/extra/a.b'))
        self.assertRaises(errors.OpError, paths.split, 'a//b')
        self.assertRaises(errors.OpError, paths.split, '')
        self.assertRaises(errors.OpError, paths.split, 5)


class TestNodeChanges(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.given = _fields()
        self.changes = engine.NodeChanges(self.given, ['CUSTOM_A'], _ports())

    def test_nothing_changed(self):
        self.assertEqual({}, self.changes.changed_fields())
        self.assertFalse(self.changes.traits_changed())
        self.assertEqual({}, self.changes.changed_ports())

    def test_deep_copies(self):
        self.changes.set_attribute('/driver_info/ipmi_address', '10.0.0.2')
        self.assertEqual('10.0.0.1', self.given['driver_info']['ipmi_address'])
        self.assertEqual({'driver_info': {'ipmi_address': '10.0.0.2'}},
                         self.changes.changed_fields())

    def test_only_writable_fields_accepted(self):
        self.assertRaises(ValueError, engine.NodeChanges,
                          {'driver': 'ipmi'}, [], [])

    def test_set_attribute(self):
        self.changes.set_attribute('driver_info.ipmi_username', 'admin')
        self.changes.set_attribute('/extra/a/b', 1)
        self.changes.set_attribute('name', 'node-2')
        self.changes.set_attribute('/retired', 'true')
        self.changes.set_attribute('resource_class', 5)
        self.assertEqual({
            'driver_info': {'ipmi_address': '10.0.0.1',
                            'ipmi_username': 'admin'},
            'extra': {'a': {'b': 1}}, 'name': 'node-2', 'retired': True,
            'resource_class': '5'}, self.changes.changed_fields())

    def test_set_back_is_no_change(self):
        self.changes.set_attribute('/name', 'other')
        self.changes.set_attribute('/name', 'node-1')
        self.assertEqual({}, self.changes.changed_fields())

    def test_not_writable(self):
        for path in ('/driver', 'provision_state', 'conductor_group.x'):
            exc = self.assertRaises(errors.OpError,
                                    self.changes.set_attribute, path, 'x')
            self.assertIn(path, str(exc))
            self.assertIn('writable fields: automated_clean, description, '
                          'driver_info, extra', str(exc))

    def test_subset_of_fields(self):
        changes = engine.NodeChanges({'extra': {}})
        exc = self.assertRaises(errors.OpError, changes.set_attribute,
                                '/name', 'x')
        self.assertIn('writable fields: extra', str(exc))

    def test_type_checks(self):
        for path, value in (('/properties', 'x'), ('/retired', 'maybe'),
                            ('/name', {'a': 1}), ('/name/x', 1),
                            ('/extra/a/b', 1)):
            if path == '/extra/a/b':
                self.changes.set_attribute('/extra/a', 'string')
            self.assertRaises(errors.OpError, self.changes.set_attribute,
                              path, value)
        self.changes.set_attribute('/automated_clean', None)

    def test_extend_attribute(self):
        self.changes.extend_attribute('/extra/tags', 'a')
        self.changes.extend_attribute('/extra/tags', 'a')
        self.changes.extend_attribute('/extra/tags', 'a', unique=True)
        self.changes.extend_attribute('extra.tags', 'b', unique=True)
        self.assertEqual({'extra': {'tags': ['a', 'a', 'b']}},
                         self.changes.changed_fields())

    def test_extend_non_list(self):
        exc = self.assertRaises(errors.OpError,
                                self.changes.extend_attribute,
                                '/driver_info/ipmi_address', 'x')
        self.assertIn('not a list', str(exc))
        self.assertRaises(errors.OpError, self.changes.extend_attribute,
                          '/name', 'x')

    def test_del_attribute(self):
        self.changes.del_attribute('/driver_info/ipmi_address')
        self.changes.del_attribute('/driver_info/missing')
        self.changes.del_attribute('/extra/a/b')
        self.changes.del_attribute('/owner/x')
        self.changes.del_attribute('/name')
        self.changes.del_attribute('/labels')
        self.changes.del_attribute('/retired')
        self.assertEqual({'driver_info': {}, 'name': None},
                         self.changes.changed_fields())
        self.assertRaises(errors.OpError, self.changes.del_attribute,
                          '/driver')

    def test_capabilities(self):
        self.changes.set_capability('boot_mode', 'uefi')
        self.changes.set_capability('secure_boot', True)
        self.changes.set_capability('n', 3)
        self.assertEqual('a:1,boot_mode:uefi,secure_boot:true,n:3',
                         self.changes.fields['properties']['capabilities'])
        self.changes.unset_capability('a')
        self.changes.unset_capability('absent')
        self.assertEqual('boot_mode:uefi,secure_boot:true,n:3',
                         self.changes.fields['properties']['capabilities'])
        self.assertEqual(['properties'],
                         list(self.changes.changed_fields()))

    def test_capabilities_edge_cases(self):
        changes = engine.NodeChanges({'properties': {
            'capabilities': 'x:1,,y,x:2'}})
        changes.set_capability('x', '3')
        self.assertEqual('x:3,y', changes.fields['properties']['capabilities'])
        changes.unset_capability('y')
        changes.unset_capability('x')
        self.assertEqual('', changes.fields['properties']['capabilities'])
        changes = engine.NodeChanges({'properties': None})
        changes.unset_capability('x')
        changes.set_capability('x', 'y')
        self.assertEqual({'capabilities': 'x:y'},
                         changes.fields['properties'])
        changes = engine.NodeChanges({'properties': {
            'capabilities': {'a': '1'}}})
        changes.set_capability('b', '2')
        changes.unset_capability('a')
        self.assertEqual({'b': '2'},
                         changes.fields['properties']['capabilities'])

    def test_capability_errors(self):
        for name, value in (('a,b', 'x'), ('a:b', 'x'), ('', 'x'),
                            ('a', 'x,y')):
            self.assertRaises(errors.OpError, self.changes.set_capability,
                              name, value)
        changes = engine.NodeChanges({'extra': {}})
        self.assertRaises(errors.OpError, changes.set_capability, 'a', 'b')

    def test_traits(self):
        self.changes.add_trait('CUSTOM_B')
        self.changes.add_trait('CUSTOM_B')
        self.changes.remove_trait('CUSTOM_ABSENT')
        self.assertEqual(['CUSTOM_A', 'CUSTOM_B'], self.changes.traits)
        self.assertTrue(self.changes.traits_changed())
        self.changes.remove_trait('CUSTOM_B')
        self.assertFalse(self.changes.traits_changed())
        self.changes.remove_trait('CUSTOM_A')
        self.assertEqual([], self.changes.traits)
        self.assertTrue(self.changes.traits_changed())
        self.assertRaises(errors.OpError, self.changes.add_trait, '')
        self.assertRaises(errors.OpError, self.changes.add_trait, 'X' * 256)

    def test_find_port(self):
        self.assertEqual(P1, self.changes.find_port(P1)['uuid'])
        self.assertEqual(P1, self.changes.find_port(
            '52:54:00:aa:bb:01')['uuid'])
        self.assertEqual(P2, self.changes.find_port(
            '52:54:00:AA:BB:02')['uuid'])
        exc = self.assertRaises(errors.OpError, self.changes.find_port,
                                '52:54:00:aa:bb:03')
        self.assertIn("port '52:54:00:aa:bb:03' not found", str(exc))

    def test_port_attributes(self):
        self.changes.set_port_attribute(P1, '/physical_network', 'physnet1')
        self.changes.set_port_attribute('52:54:00:aa:bb:01',
                                        'local_link_connection.switch_id',
                                        'sw1')
        self.changes.set_port_attribute(P2, 'pxe_enabled', 'yes')
        self.changes.extend_port_attribute(P2, '/extra/vlans', 10)
        self.changes.extend_port_attribute(P2, '/extra/vlans', 10,
                                           unique=True)
        self.changes.del_port_attribute(P2, '/extra/a')
        self.changes.del_port_attribute(P2, '/extra/nothing')
        self.assertEqual({
            P1: {'physical_network': 'physnet1',
                 'local_link_connection': {'switch_id': 'sw1'}},
            P2: {'pxe_enabled': True, 'extra': {'vlans': [10]}},
        }, self.changes.changed_ports())
        self.assertEqual({}, self.changes.changed_fields())

    def test_port_errors(self):
        exc = self.assertRaises(errors.OpError,
                                self.changes.set_port_attribute, P1,
                                '/address', 'x')
        self.assertIn("'address' is not a writable port field; writable "
                      "fields: extra, is_smartnic", str(exc))
        self.assertRaises(errors.OpError, self.changes.set_port_attribute,
                          P1, '/pxe_enabled', 'perhaps')
        self.assertRaises(errors.OpError, self.changes.extend_port_attribute,
                          P2, '/physical_network', 'x')
        self.assertRaises(errors.OpError, self.changes.set_port_attribute,
                          'nope', '/extra/a', 1)
        self.changes.del_port_attribute(P2, '/physical_network')
        self.assertEqual({P2: {'physical_network': None}},
                         self.changes.changed_ports())
