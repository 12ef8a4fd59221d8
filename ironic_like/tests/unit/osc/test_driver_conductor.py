"""``openstack baremetal driver ...`` and ``... conductor ...``."""

from osc_lib import exceptions as osc_exc

from ironic_like.osc.v1 import conductor as conductor_cmds
from ironic_like.osc.v1 import driver as driver_cmds
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes

DRIVER = {'name': 'fake-hardware', 'hosts': ['c1', 'c2'],
          'type': 'dynamic', 'links': [], 'properties': [],
          'default_power_interface': 'fake',
          'enabled_power_interfaces': ['fake']}
CONDUCTOR = {'hostname': 'c1', 'conductor_group': '', 'alive': True,
             'drivers': ['fake-hardware'], 'created_at': 'then',
             'updated_at': 'now', 'links': []}


class TestDriver(base.CommandTestCase):

    def test_list(self):
        self.session.route('GET', '/v1/drivers', fakes.FakeResponse(
            200, {'drivers': [DRIVER]}))
        titles, rows = self.rows(self.run_command(driver_cmds.ListDriver,
                                                  []))
        self.assertEqual(('Supported driver(s)', 'Active host(s)'), titles)
        self.assertEqual([('fake-hardware', ['c1', 'c2'])], rows)
        self.assertEqual({}, self.last().params)

    def test_list_long(self):
        self.session.route('GET', '/v1/drivers', fakes.FakeResponse(
            200, {'drivers': [DRIVER]}))
        titles, _rows = self.rows(self.run_command(driver_cmds.ListDriver,
                                                   ['--long']))
        self.assertEqual({'detail': 'True'}, self.last().params)
        self.assertEqual(('Supported driver(s)', 'Type', 'Active host(s)',
                          'Default Power Interface',
                          'Enabled Power Interfaces'), titles)

    def test_show(self):
        self.session.route('GET', '/v1/drivers/fake-hardware',
                           fakes.FakeResponse(200, DRIVER))
        shown = self.as_dict(self.run_command(driver_cmds.ShowDriver,
                                              ['fake-hardware']))
        self.assertEqual('fake-hardware', shown['name'])
        self.assertNotIn('properties', shown)
        self.assertNotIn('links', shown)

    def test_show_unknown(self):
        self.session.route('GET', '/v1/drivers/nope', fakes.fault(
            404, 'Could not find the following driver(s) or hardware '
                 'type(s): nope.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              driver_cmds.ShowDriver, ['nope'])
        self.assertIn('nope. (HTTP 404)', str(e))


class TestConductor(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('GET', '/v1/conductors', fakes.FakeResponse(
            200, {'conductors': [CONDUCTOR]}))
        self.session.route('GET', '/v1/conductors/c1',
                           fakes.FakeResponse(200, CONDUCTOR))

    def test_list(self):
        titles, rows = self.rows(self.run_command(
            conductor_cmds.ListConductor, []))
        self.assertEqual(('Hostname', 'Conductor Group', 'Alive'), titles)
        self.assertEqual([('c1', '', True)], rows)

    def test_list_long(self):
        titles, _rows = self.rows(self.run_command(
            conductor_cmds.ListConductor, ['--long']))
        self.assertEqual({'detail': 'True'}, self.last().params)
        self.assertEqual(('Hostname', 'Conductor Group', 'Alive', 'Drivers',
                          'Created At', 'Updated At'), titles)

    def test_show(self):
        shown = self.as_dict(self.run_command(conductor_cmds.ShowConductor,
                                              ['c1']))
        self.assertTrue(shown['alive'])
        self.assertNotIn('links', shown)


class TestConductorOldServer(base.CommandTestCase):
    MAX_VERSION = '1.48'

    def test_refused_with_reason(self):
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              conductor_cmds.ListConductor, [])
        self.assertEqual('Conductor commands: API version 1.49 or later is '
                         'needed, but the server supports versions up to '
                         '1.48.', str(e))
        self.assertEqual([], self.requests())
