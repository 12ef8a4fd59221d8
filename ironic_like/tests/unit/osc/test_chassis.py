"""``openstack baremetal chassis ...``: arguments to requests."""

from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc.v1 import chassis as chassis_cmds
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes

CHASSIS_UUID = '5be26c0b-03f2-4d2e-ae87-c02d7f33c127'
CHASSIS_UUID2 = '6be26c0b-03f2-4d2e-ae87-c02d7f33c128'


def chassis(**fields):
    doc = {'uuid': CHASSIS_UUID, 'description': 'rack 1', 'extra': {},
           'created_at': '2024-01-01T00:00:00+00:00', 'updated_at': None,
           'links': [{'href': 'x', 'rel': 'self'}],
           'nodes': [{'href': 'y', 'rel': 'self'}]}
    doc.update(fields)
    return doc


class TestCreateChassis(base.CommandTestCase):

    MAX_VERSION = '1.62'

    def setUp(self):
        super().setUp()
        self.session.route('POST', '/v1/chassis',
                           fakes.FakeResponse(201, chassis()))

    def test_all_options(self):
        result = self.run_command(chassis_cmds.CreateChassis, [
            '--description', 'rack 1', '--extra', 'room=a',
            '--extra', 'slots=8', '--uuid', CHASSIS_UUID])
        self.assertEqual(1, len(self.requests()))
        self.assertRequest(self.last(), 'POST', '/v1/chassis', body={
            'description': 'rack 1', 'extra': {'room': 'a', 'slots': 8},
            'uuid': CHASSIS_UUID})
        shown = self.as_dict(result)
        self.assertEqual(CHASSIS_UUID, shown['uuid'])
        self.assertNotIn('links', shown)

    def test_minimal(self):
        self.run_command(chassis_cmds.CreateChassis, [])
        self.assertEqual({}, self.last().body)
        # Chassis are in every version: the negotiated version is sent
        # (the highest this plugin knows, below the server's).
        self.assertEqual('1.62', self.last().headers[http.VERSION_HEADER])

    def test_empty_uuid_is_generated(self):
        self.run_command(chassis_cmds.CreateChassis, ['--uuid', ''])
        self.assertEqual({}, self.last().body)

    def test_bad_extra(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          chassis_cmds.CreateChassis, ['--extra', 'novalue'])
        self.assertEqual([], self.requests())


class TestListChassis(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('GET', '/v1/chassis(/detail)?',
                           fakes.FakeResponse(200, {'chassis': [
                               chassis(), chassis(uuid=CHASSIS_UUID2,
                                                  description=None)]}))

    def test_default(self):
        titles, rows = self.rows(self.run_command(chassis_cmds.ListChassis,
                                                  []))
        self.assertEqual(('UUID', 'Description'), titles)
        self.assertEqual([(CHASSIS_UUID, 'rack 1'), (CHASSIS_UUID2, None)],
                         rows)
        self.assertRequest(self.last(), 'GET', '/v1/chassis', params={})

    def test_long(self):
        titles, rows = self.rows(self.run_command(chassis_cmds.ListChassis,
                                                  ['--long']))
        self.assertRequest(self.last(), 'GET', '/v1/chassis/detail')
        # Link fields (links, nodes) stay out of the columns.
        self.assertEqual(('UUID', 'Description', 'Created At', 'Updated At',
                          'Extra'), titles)
        self.assertEqual((CHASSIS_UUID, 'rack 1',
                          '2024-01-01T00:00:00+00:00', None, {}),
                         rows[0])

    def test_paging_and_fields(self):
        self.run_command(chassis_cmds.ListChassis, [
            '--limit', '1', '--marker', CHASSIS_UUID,
            '--sort', 'created_at:desc', '--fields', 'uuid', 'extra'])
        self.assertEqual({'limit': 1, 'marker': CHASSIS_UUID,
                          'sort_key': 'created_at', 'sort_dir': 'desc',
                          'fields': 'uuid,extra'}, self.last().params)

    def test_long_and_fields_exclusive(self):
        self.assertParseFails(chassis_cmds.ListChassis,
                              ['--long', '--fields', 'uuid'])

    def test_negative_limit(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          chassis_cmds.ListChassis, ['--limit', '-1'])


class TestShowChassis(base.CommandTestCase):

    def test_show(self):
        self.session.route('GET', '/v1/chassis/' + CHASSIS_UUID,
                           fakes.FakeResponse(200, chassis()))
        shown = self.as_dict(self.run_command(chassis_cmds.ShowChassis,
                                              [CHASSIS_UUID]))
        self.assertEqual('rack 1', shown['description'])
        self.assertNotIn('links', shown)
        self.assertNotIn('nodes', shown)
        self.assertEqual({}, self.last().params)

    def test_fields(self):
        self.session.route('GET', '/v1/chassis/c', fakes.FakeResponse(
            200, {'uuid': CHASSIS_UUID, 'nodes': []}))
        shown = self.as_dict(self.run_command(
            chassis_cmds.ShowChassis, ['c', '--fields', 'uuid,nodes']))
        self.assertEqual({'fields': 'uuid,nodes'}, self.last().params)
        self.assertEqual(['nodes', 'uuid'], sorted(shown))

    def test_not_found(self):
        self.session.route('GET', '/v1/chassis/nope', fakes.fault(
            404, 'Chassis nope could not be found.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              chassis_cmds.ShowChassis, ['nope'])
        self.assertEqual('Chassis nope could not be found. (HTTP 404)',
                         str(e))


class TestSetUnsetDeleteChassis(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('PATCH', '/v1/chassis/c', fakes.FakeResponse(
            200, chassis()))

    def test_set(self):
        self.run_command(chassis_cmds.SetChassis, [
            'c', '--description', 'rack 2', '--extra', 'room=b'])
        self.assertRequest(self.last(), 'PATCH', '/v1/chassis/c', body=[
            {'op': 'add', 'path': '/description', 'value': 'rack 2'},
            {'op': 'add', 'path': '/extra/room', 'value': 'b'}])

    def test_set_nothing(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          chassis_cmds.SetChassis, ['c'])
        self.assertEqual([], self.requests())

    def test_unset(self):
        self.run_command(chassis_cmds.UnsetChassis, [
            'c', '--description', '--extra', 'room', '--extra', 'slots'])
        self.assertEqual([
            {'op': 'remove', 'path': '/description'},
            {'op': 'remove', 'path': '/extra/room'},
            {'op': 'remove', 'path': '/extra/slots'}], self.last().body)

    def test_unset_nothing(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          chassis_cmds.UnsetChassis, ['c'])

    def test_delete(self):
        self.session.route('DELETE', '/v1/chassis/c1', fakes.FakeResponse(
            204))
        self.session.route('DELETE', '/v1/chassis/c2', fakes.fault(
            400, 'Chassis c2 contains nodes.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              chassis_cmds.DeleteChassis, ['c1', 'c2'])
        self.assertEqual(['/v1/chassis/c1', '/v1/chassis/c2'],
                         [r.path for r in self.requests()])
        self.assertEqual('Deleted chassis c1\n', self.app.stdout.getvalue())
        self.assertIn('chassis c2: Chassis c2 contains nodes.', str(e))

    def test_every_parser_has_help(self):
        for cls in (chassis_cmds.CreateChassis, chassis_cmds.ListChassis,
                    chassis_cmds.ShowChassis, chassis_cmds.SetChassis,
                    chassis_cmds.UnsetChassis, chassis_cmds.DeleteChassis):
            parser = self.make(cls).get_parser('openstack baremetal test')
            self.assertIn('usage:', parser.format_help())
