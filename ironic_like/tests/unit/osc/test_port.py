"""``openstack baremetal port ...``: arguments to requests."""

from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc.v1 import port as port_cmds
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes


class TestCreatePort(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('POST', '/v1/ports',
                           fakes.FakeResponse(201, fakes.port()))

    def test_with_node_uuid(self):
        result = self.run_command(port_cmds.CreatePort, [
            '52:54:00:00:00:01', '--node', fakes.NODE_UUID,
            '--extra', 'vif=1', '--pxe-enabled', 'false',
            '--local-link-connection', 'switch_id=0a:1b:2c:3d:4e:5f',
            '--local-link-connection', 'port_id=Ethernet3/1',
            '--physical-network', 'physnet1', '--uuid', fakes.PORT_UUID])
        self.assertEqual(1, len(self.requests()))
        self.assertRequest(self.last(), 'POST', '/v1/ports', body={
            'address': '52:54:00:00:00:01', 'node_uuid': fakes.NODE_UUID,
            'uuid': fakes.PORT_UUID, 'extra': {'vif': 1},
            'pxe_enabled': False,
            'local_link_connection': {'switch_id': '0a:1b:2c:3d:4e:5f',
                                      'port_id': 'Ethernet3/1'},
            'physical_network': 'physnet1'})
        self.assertEqual(fakes.PORT_UUID, self.as_dict(result)['uuid'])

    def test_node_name_is_resolved(self):
        self.session.route('GET', '/v1/nodes/node-0', fakes.FakeResponse(
            200, {'uuid': fakes.NODE_UUID}))
        self.run_command(port_cmds.CreatePort,
                         ['52:54:00:00:00:01', '--node', 'node-0'])
        get, post = self.requests()
        self.assertRequest(get, 'GET', '/v1/nodes/node-0',
                           params={'fields': 'uuid'})
        self.assertEqual({'address': '52:54:00:00:00:01',
                          'node_uuid': fakes.NODE_UUID}, post.body)

    def test_node_name_resolved_without_fields_before_1_8(self):
        self.client = self.app.client_manager.baremetal = type(
            self.client)(self.session, fakes.ENDPOINT, (1, 6))
        self.session.route('GET', '/v1/nodes/node-0', fakes.FakeResponse(
            200, fakes.node()))
        self.run_command(port_cmds.CreatePort,
                         ['52:54:00:00:00:01', '--node', 'node-0'])
        self.assertEqual({}, self.requests()[0].params)
        self.assertEqual(fakes.NODE_UUID, self.last().body['node_uuid'])

    def test_node_required_and_boolean_checked(self):
        self.assertParseFails(port_cmds.CreatePort, ['52:54:00:00:00:01'])
        self.assertParseFails(port_cmds.CreatePort, [
            '52:54:00:00:00:01', '--node', 'n', '--pxe-enabled', 'maybe'])


class TestListPort(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('GET', '/v1/ports(/detail)?', fakes.FakeResponse(
            200, {'ports': [fakes.port()]}))

    def test_default(self):
        titles, rows = self.rows(self.run_command(port_cmds.ListPort, []))
        self.assertEqual(('UUID', 'Address'), titles)
        self.assertEqual([(fakes.PORT_UUID, '52:54:00:00:00:01')], rows)
        self.assertRequest(self.last(), 'GET', '/v1/ports', params={})

    def test_filters(self):
        self.run_command(port_cmds.ListPort, [
            '--node', 'node-0', '--address', '52:54:00:00:00:01',
            '--sort', 'address'])
        self.assertEqual({'node': 'node-0', 'address': '52:54:00:00:00:01',
                          'sort_key': 'address'}, self.last().params)

    def test_long(self):
        titles, _rows = self.rows(self.run_command(port_cmds.ListPort,
                                                   ['--long']))
        self.assertRequest(self.last(), 'GET', '/v1/ports/detail')
        self.assertEqual(('UUID', 'Address', 'Node UUID',
                          'PXE boot enabled', 'Extra'), titles)

    def test_fields(self):
        self.run_command(port_cmds.ListPort, ['--fields', 'uuid',
                                              'node_uuid'])
        self.assertEqual({'fields': 'uuid,node_uuid'}, self.last().params)


class TestShowPort(base.CommandTestCase):

    def test_by_uuid(self):
        self.session.route('GET', '/v1/ports/' + fakes.PORT_UUID,
                           fakes.FakeResponse(200, fakes.port()))
        shown = self.as_dict(self.run_command(port_cmds.ShowPort,
                                              [fakes.PORT_UUID]))
        self.assertEqual('52:54:00:00:00:01', shown['address'])
        self.assertNotIn('links', shown)

    def test_by_address(self):
        self.session.route('GET', '/v1/ports/detail', fakes.FakeResponse(
            200, {'ports': [fakes.port()]}))
        shown = self.as_dict(self.run_command(
            port_cmds.ShowPort, ['52:54:00:00:00:01', '--address']))
        self.assertEqual({'address': '52:54:00:00:00:01'},
                         self.last().params)
        self.assertEqual(fakes.PORT_UUID, shown['uuid'])

    def test_by_address_not_found(self):
        self.session.route('GET', '/v1/ports/detail', fakes.FakeResponse(
            200, {'ports': []}))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              port_cmds.ShowPort, ['aa:bb:cc:dd:ee:ff',
                                                   '--address'])
        self.assertEqual('Port with address aa:bb:cc:dd:ee:ff could not be '
                         'found.', str(e))


class TestSetUnsetDeletePort(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('PATCH', '/v1/ports/p', fakes.FakeResponse(
            200, fakes.port()))

    def test_set(self):
        self.run_command(port_cmds.SetPort, [
            'p', '--node', fakes.NODE_UUID2, '--address', 'aa:bb:cc:dd:ee:ff',
            '--extra', 'k=v', '--pxe-enabled', '--physical-network', 'pn',
            '--local-link-connection', 'port_id=1'])
        self.assertEqual([
            {'op': 'add', 'path': '/node_uuid', 'value': fakes.NODE_UUID2},
            {'op': 'add', 'path': '/address', 'value': 'aa:bb:cc:dd:ee:ff'},
            {'op': 'add', 'path': '/physical_network', 'value': 'pn'},
            {'op': 'add', 'path': '/pxe_enabled', 'value': True},
            {'op': 'add', 'path': '/extra/k', 'value': 'v'},
            {'op': 'add', 'path': '/local_link_connection/port_id',
             'value': '1'}], self.last().body)

    def test_set_pxe_values(self):
        for argv, value in ((['--pxe-enabled', 'false'], False),
                            (['--pxe-disabled'], False),
                            (['--pxe-enabled', 'true'], True)):
            self.run_command(port_cmds.SetPort, ['p'] + argv)
            self.assertEqual([{'op': 'add', 'path': '/pxe_enabled',
                               'value': value}], self.last().body)
        self.assertParseFails(port_cmds.SetPort,
                              ['p', '--pxe-enabled', '--pxe-disabled'])

    def test_set_nothing(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          port_cmds.SetPort, ['p'])

    def test_unset(self):
        self.run_command(port_cmds.UnsetPort, [
            'p', '--extra', 'k', '--physical-network',
            '--local-link-connection', 'port_id'])
        self.assertEqual([
            {'op': 'remove', 'path': '/extra/k'},
            {'op': 'remove', 'path': '/local_link_connection/port_id'},
            {'op': 'remove', 'path': '/physical_network'}],
            self.last().body)

    def test_delete(self):
        self.session.route('DELETE', '/v1/ports/.*', fakes.FakeResponse(204))
        self.run_command(port_cmds.DeletePort, ['p1', 'p2'])
        self.assertEqual(['/v1/ports/p1', '/v1/ports/p2'],
                         [r.path for r in self.requests()])
        self.assertEqual('Deleted port p1\nDeleted port p2\n',
                         self.app.stdout.getvalue())


class TestPortGroupOption(base.CommandTestCase):
    """--port-group of the port commands: the port's portgroup_uuid
    (1.24), a group given by name or UUID."""

    PG_UUID = '7be26c0b-03f2-4d2e-ae87-c02d7f33c129'

    def setUp(self):
        super().setUp()
        self.session.route('POST', '/v1/ports',
                           fakes.FakeResponse(201, fakes.port()))
        self.session.route('PATCH', '/v1/ports/p', fakes.FakeResponse(
            200, fakes.port()))
        self.session.route('GET', '/v1/ports', fakes.FakeResponse(
            200, {'ports': []}))
        self.session.route('GET', '/v1/portgroups/bond0', fakes.FakeResponse(
            200, {'uuid': self.PG_UUID}))

    def use_version(self, version):
        self.client = self.app.client_manager.baremetal = http.Client(
            self.session, fakes.ENDPOINT, version)

    def test_create_with_group_uuid(self):
        self.run_command(port_cmds.CreatePort, [
            '52:54:00:00:00:01', '--node', fakes.NODE_UUID,
            '--port-group', self.PG_UUID])
        self.assertEqual(1, len(self.requests()))
        self.assertEqual({'address': '52:54:00:00:00:01',
                          'node_uuid': fakes.NODE_UUID,
                          'portgroup_uuid': self.PG_UUID}, self.last().body)

    def test_create_with_group_name(self):
        self.run_command(port_cmds.CreatePort, [
            '52:54:00:00:00:01', '--node', fakes.NODE_UUID,
            '--port-group', 'bond0'])
        get, post = self.requests()
        self.assertRequest(get, 'GET', '/v1/portgroups/bond0',
                           params={'fields': 'uuid'})
        self.assertEqual(self.PG_UUID, post.body['portgroup_uuid'])

    def test_set_and_unset(self):
        self.run_command(port_cmds.SetPort, ['p', '--port-group', 'bond0',
                                             '--extra', 'k=v'])
        self.assertEqual([
            {'op': 'add', 'path': '/extra/k', 'value': 'v'},
            {'op': 'add', 'path': '/portgroup_uuid', 'value': self.PG_UUID}],
            self.last().body)
        self.run_command(port_cmds.UnsetPort, ['p', '--port-group'])
        self.assertEqual([{'op': 'remove', 'path': '/portgroup_uuid'}],
                         self.last().body)

    def test_list(self):
        self.run_command(port_cmds.ListPort, ['--port-group', 'bond0'])
        self.assertRequest(self.last(), 'GET', '/v1/ports',
                           params={'portgroup': 'bond0'})

    def test_needs_1_24(self):
        self.use_version((1, 23))
        for command_class, argv in (
                (port_cmds.CreatePort, ['52:54:00:00:00:01', '--node',
                                        fakes.NODE_UUID, '--port-group',
                                        self.PG_UUID]),
                (port_cmds.SetPort, ['p', '--port-group', 'bond0']),
                (port_cmds.UnsetPort, ['p', '--port-group']),
                (port_cmds.ListPort, ['--port-group', 'bond0'])):
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  command_class, argv)
            self.assertIn('--port-group: API version 1.24 or later is '
                          'needed', str(e))
        self.assertEqual([], self.requests())
        # Without the option, 1.23 is fine.
        self.run_command(port_cmds.ListPort, [])
        self.assertEqual('1.23', self.last().headers[http.VERSION_HEADER])
