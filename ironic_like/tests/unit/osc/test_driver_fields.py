"""``openstack baremetal driver list/show --fields`` (API 1.77)."""

from osc_lib import exceptions as osc_exc

from ironic_like.osc.v1 import driver as driver_cmds
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes


class TestDriverFields(base.CommandTestCase):

    MAX_VERSION = '1.82'

    def test_list_fields(self):
        self.session.route('GET', '/v1/drivers', fakes.FakeResponse(
            200, {'drivers': [{'name': 'fake-hardware', 'type': 'dynamic',
                               'links': []}]}))
        titles, rows = self.rows(self.run_command(
            driver_cmds.ListDriver, ['--fields', 'name', 'type']))
        self.assertEqual({'fields': 'name,type'}, self.last().params)
        self.assertEqual(('Supported driver(s)', 'Type'), titles)
        self.assertEqual([('fake-hardware', 'dynamic')], rows)

    def test_list_fields_and_long_exclusive(self):
        self.assertParseFails(driver_cmds.ListDriver,
                              ['--long', '--fields', 'name'])

    def test_show_fields(self):
        self.session.route('GET', '/v1/drivers/fake-hardware',
                           fakes.FakeResponse(200, {
                               'name': 'fake-hardware',
                               'properties': [{'href': 'x'}],
                               'links': []}))
        shown = self.as_dict(self.run_command(
            driver_cmds.ShowDriver,
            ['fake-hardware', '--fields', 'name,properties']))
        self.assertEqual({'fields': 'name,properties'}, self.last().params)
        self.assertEqual({'name', 'properties'}, set(shown))


class TestDriverFieldsOldServer(base.CommandTestCase):

    MAX_VERSION = '1.76'

    def test_refused_below_1_77(self):
        for cmd, argv in ((driver_cmds.ListDriver, ['--fields', 'name']),
                          (driver_cmds.ShowDriver,
                           ['fake-hardware', '--fields', 'name'])):
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  cmd, argv)
            self.assertIn('1.77', str(e))
        self.assertEqual([], self.requests())
