"""``openstack baremetal port group ...``: arguments to requests and the
versions the commands need."""

from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc.v1 import portgroup as pg_cmds
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes

PG_UUID = '7be26c0b-03f2-4d2e-ae87-c02d7f33c129'


def portgroup(**fields):
    doc = {'uuid': PG_UUID, 'name': 'bond0', 'address': '52:54:00:00:00:0a',
           'node_uuid': fakes.NODE_UUID, 'extra': {}, 'internal_info': {},
           'standalone_ports_supported': True, 'mode': 'active-backup',
           'properties': {}, 'created_at': '2024-01-01T00:00:00+00:00',
           'updated_at': None, 'links': [], 'ports': []}
    doc.update(fields)
    return doc


class VersionedTestCase(base.CommandTestCase):

    def use_version(self, version):
        """Requests from now on carry ``version``, as with
        --os-baremetal-api-version."""
        self.client = self.app.client_manager.baremetal = http.Client(
            self.session, fakes.ENDPOINT, version)


class TestCreatePortGroup(VersionedTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('POST', '/v1/portgroups',
                           fakes.FakeResponse(201, portgroup()))

    def test_all_options(self):
        result = self.run_command(pg_cmds.CreatePortGroup, [
            '--node', fakes.NODE_UUID, '--address', '52:54:00:00:00:0a',
            '--name', 'bond0', '--extra', 'k=1', '--mode', '802.3ad',
            '--property', 'miimon=100', '--property', 'xmit=layer2+3',
            '--unsupport-standalone-ports', '--uuid', PG_UUID])
        self.assertEqual(1, len(self.requests()))
        self.assertRequest(self.last(), 'POST', '/v1/portgroups', body={
            'node_uuid': fakes.NODE_UUID, 'address': '52:54:00:00:00:0a',
            'name': 'bond0', 'extra': {'k': 1}, 'mode': '802.3ad',
            'properties': {'miimon': 100, 'xmit': 'layer2+3'},
            'standalone_ports_supported': False, 'uuid': PG_UUID})
        shown = self.as_dict(result)
        self.assertEqual(PG_UUID, shown['uuid'])
        self.assertNotIn('links', shown)
        self.assertNotIn('ports', shown)

    def test_node_name_is_resolved(self):
        self.session.route('GET', '/v1/nodes/node-0', fakes.FakeResponse(
            200, {'uuid': fakes.NODE_UUID}))
        self.run_command(pg_cmds.CreatePortGroup,
                         ['--node', 'node-0', '--support-standalone-ports'])
        get, post = self.requests()
        self.assertRequest(get, 'GET', '/v1/nodes/node-0',
                           params={'fields': 'uuid'})
        self.assertEqual({'node_uuid': fakes.NODE_UUID,
                          'standalone_ports_supported': True}, post.body)

    def test_node_required_and_flags_exclusive(self):
        self.assertParseFails(pg_cmds.CreatePortGroup, ['--name', 'x'])
        self.assertParseFails(pg_cmds.CreatePortGroup, [
            '--node', 'n', '--support-standalone-ports',
            '--unsupport-standalone-ports'])

    def test_needs_1_23(self):
        self.use_version((1, 22))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              pg_cmds.CreatePortGroup,
                              ['--node', fakes.NODE_UUID])
        self.assertIn('API version 1.23 or later is needed', str(e))
        self.assertEqual([], self.requests())

    def test_server_without_port_groups(self):
        self.session.max_version = '1.22'
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              pg_cmds.CreatePortGroup,
                              ['--node', fakes.NODE_UUID])
        self.assertIn('the server supports versions up to 1.22', str(e))
        self.assertEqual([], self.requests())

    def test_mode_and_property_need_1_26(self):
        self.use_version((1, 25))
        for option in (['--mode', '802.3ad'], ['--property', 'miimon=1']):
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  pg_cmds.CreatePortGroup,
                                  ['--node', fakes.NODE_UUID] + option)
            self.assertIn('--mode and --property: API version 1.26',
                          str(e))
        self.assertEqual([], self.requests())
        self.run_command(pg_cmds.CreatePortGroup,
                         ['--node', fakes.NODE_UUID, '--name', 'b'])
        self.assertEqual('1.25', self.last().headers[http.VERSION_HEADER])


class TestListPortGroup(VersionedTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('GET', '/v1/portgroups(/detail)?',
                           fakes.FakeResponse(200, {'portgroups': [
                               portgroup()]}))

    def test_default(self):
        titles, rows = self.rows(self.run_command(pg_cmds.ListPortGroup,
                                                  []))
        self.assertEqual(('UUID', 'Address', 'Name'), titles)
        self.assertEqual([(PG_UUID, '52:54:00:00:00:0a', 'bond0')], rows)
        self.assertRequest(self.last(), 'GET', '/v1/portgroups', params={})

    def test_filters_and_paging(self):
        self.run_command(pg_cmds.ListPortGroup, [
            '--node', 'node-0', '--limit', '2', '--marker', PG_UUID,
            '--sort', 'name:desc'])
        self.assertEqual({'node': 'node-0', 'limit': 2, 'marker': PG_UUID,
                          'sort_key': 'name', 'sort_dir': 'desc'},
                         self.last().params)
        self.run_command(pg_cmds.ListPortGroup,
                         ['--address', '52:54:00:00:00:0a'])
        self.assertEqual({'address': '52:54:00:00:00:0a'},
                         self.last().params)

    def test_node_and_address_exclusive(self):
        # The API refuses the two together.
        self.assertParseFails(pg_cmds.ListPortGroup,
                              ['--node', 'n', '--address', 'a'])
        self.assertParseFails(pg_cmds.ListPortGroup,
                              ['--long', '--fields', 'uuid'])

    def test_long(self):
        titles, _rows = self.rows(self.run_command(pg_cmds.ListPortGroup,
                                                   ['--long']))
        self.assertRequest(self.last(), 'GET', '/v1/portgroups/detail')
        self.assertEqual(('UUID', 'Address', 'Created At', 'Extra',
                          'Standalone Ports Supported', 'Node UUID', 'Name',
                          'Updated At', 'Internal Info', 'Mode',
                          'Properties'), titles)

    def test_fields(self):
        titles, _rows = self.rows(self.run_command(
            pg_cmds.ListPortGroup, ['--fields', 'uuid', 'mode']))
        self.assertEqual({'fields': 'uuid,mode'}, self.last().params)
        self.assertEqual(('UUID', 'Mode'), titles)

    def test_needs_1_23(self):
        self.use_version((1, 22))
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          pg_cmds.ListPortGroup, [])
        self.assertEqual([], self.requests())


class TestShowPortGroup(VersionedTestCase):

    def test_by_name(self):
        self.session.route('GET', '/v1/portgroups/bond0',
                           fakes.FakeResponse(200, portgroup()))
        shown = self.as_dict(self.run_command(pg_cmds.ShowPortGroup,
                                              ['bond0']))
        self.assertEqual(PG_UUID, shown['uuid'])
        self.assertNotIn('ports', shown)
        self.assertEqual({}, self.last().params)

    def test_by_address(self):
        self.session.route('GET', '/v1/portgroups/detail',
                           fakes.FakeResponse(200, {'portgroups': [
                               portgroup()]}))
        shown = self.as_dict(self.run_command(
            pg_cmds.ShowPortGroup, ['52:54:00:00:00:0a', '--address']))
        self.assertRequest(self.last(), 'GET', '/v1/portgroups/detail',
                           params={'address': '52:54:00:00:00:0a'})
        self.assertEqual('bond0', shown['name'])

    def test_by_address_with_fields(self):
        self.session.route('GET', '/v1/portgroups', fakes.FakeResponse(
            200, {'portgroups': [{'uuid': PG_UUID}]}))
        self.run_command(pg_cmds.ShowPortGroup, [
            '52:54:00:00:00:0a', '--address', '--fields', 'uuid'])
        self.assertRequest(self.last(), 'GET', '/v1/portgroups', params={
            'address': '52:54:00:00:00:0a', 'fields': 'uuid'})

    def test_by_address_not_found(self):
        self.session.route('GET', '/v1/portgroups/detail',
                           fakes.FakeResponse(200, {'portgroups': []}))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              pg_cmds.ShowPortGroup,
                              ['aa:bb:cc:dd:ee:ff', '--address'])
        self.assertEqual('Port group with address aa:bb:cc:dd:ee:ff could '
                         'not be found.', str(e))

    def test_needs_1_23(self):
        self.use_version((1, 22))
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          pg_cmds.ShowPortGroup, ['bond0'])
        self.assertEqual([], self.requests())


class TestSetUnsetDeletePortGroup(VersionedTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('PATCH', '/v1/portgroups/bond0',
                           fakes.FakeResponse(200, portgroup()))

    def test_set(self):
        self.run_command(pg_cmds.SetPortGroup, [
            'bond0', '--node', fakes.NODE_UUID2, '--address',
            'aa:bb:cc:dd:ee:ff', '--name', 'bond1', '--extra', 'k=v',
            '--mode', 'balance-rr', '--property', 'miimon=100',
            '--support-standalone-ports'])
        self.assertRequest(self.last(), 'PATCH', '/v1/portgroups/bond0',
                           body=[
            {'op': 'add', 'path': '/node_uuid', 'value': fakes.NODE_UUID2},
            {'op': 'add', 'path': '/address', 'value': 'aa:bb:cc:dd:ee:ff'},
            {'op': 'add', 'path': '/name', 'value': 'bond1'},
            {'op': 'add', 'path': '/mode', 'value': 'balance-rr'},
            {'op': 'add', 'path': '/extra/k', 'value': 'v'},
            {'op': 'add', 'path': '/properties/miimon', 'value': 100},
            {'op': 'add', 'path': '/standalone_ports_supported',
             'value': True}])

    def test_set_unsupport_standalone_ports(self):
        self.run_command(pg_cmds.SetPortGroup,
                         ['bond0', '--unsupport-standalone-ports'])
        self.assertEqual([{'op': 'add',
                           'path': '/standalone_ports_supported',
                           'value': False}], self.last().body)

    def test_set_nothing(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          pg_cmds.SetPortGroup, ['bond0'])
        self.assertEqual([], self.requests())

    def test_set_mode_needs_1_26(self):
        self.use_version((1, 25))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              pg_cmds.SetPortGroup,
                              ['bond0', '--mode', '802.3ad'])
        self.assertIn('API version 1.26', str(e))
        self.assertEqual([], self.requests())
        self.run_command(pg_cmds.SetPortGroup, ['bond0', '--name', 'b'])
        self.assertEqual('1.25', self.last().headers[http.VERSION_HEADER])

    def test_unset(self):
        self.run_command(pg_cmds.UnsetPortGroup, [
            'bond0', '--name', '--address', '--extra', 'k',
            '--property', 'miimon'])
        self.assertEqual([
            {'op': 'remove', 'path': '/name'},
            {'op': 'remove', 'path': '/address'},
            {'op': 'remove', 'path': '/extra/k'},
            {'op': 'remove', 'path': '/properties/miimon'}],
            self.last().body)

    def test_unset_property_needs_1_26(self):
        self.use_version((1, 25))
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          pg_cmds.UnsetPortGroup,
                          ['bond0', '--property', 'miimon'])
        self.assertEqual([], self.requests())

    def test_delete(self):
        self.session.route('DELETE', '/v1/portgroups/.*',
                           fakes.FakeResponse(204))
        self.run_command(pg_cmds.DeletePortGroup, ['bond0', PG_UUID])
        self.assertEqual(['/v1/portgroups/bond0', '/v1/portgroups/' + PG_UUID],
                         [r.path for r in self.requests()])
        self.assertEqual('Deleted port group bond0\nDeleted port group '
                         '%s\n' % PG_UUID, self.app.stdout.getvalue())

    def test_delete_needs_1_23(self):
        self.use_version((1, 22))
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          pg_cmds.DeletePortGroup, ['bond0'])
        self.assertEqual([], self.requests())

    def test_every_parser_has_help(self):
        for cls in (pg_cmds.CreatePortGroup, pg_cmds.ListPortGroup,
                    pg_cmds.ShowPortGroup, pg_cmds.SetPortGroup,
                    pg_cmds.UnsetPortGroup, pg_cmds.DeletePortGroup):
            parser = self.make(cls).get_parser('openstack baremetal test')
            self.assertIn('usage:', parser.format_help())


class TestPortgroupUUID(VersionedTestCase):

    def test_uuid_as_is_name_resolved(self):
        self.assertEqual(PG_UUID, pg_cmds.portgroup_uuid(self.client,
                                                         PG_UUID))
        self.assertEqual([], self.requests())
        self.session.route('GET', '/v1/portgroups/bond0',
                           fakes.FakeResponse(200, {'uuid': PG_UUID}))
        self.assertEqual(PG_UUID, pg_cmds.portgroup_uuid(self.client,
                                                         'bond0'))
        self.assertRequest(self.last(), 'GET', '/v1/portgroups/bond0',
                           params={'fields': 'uuid'})
