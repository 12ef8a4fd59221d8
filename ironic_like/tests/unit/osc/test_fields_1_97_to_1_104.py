"""The CLI options of API 1.97-1.104: a port's description, vendor and
category, the conductor_groups filter of the port and port group lists,
a port group's physical network and category, a node's instance name;
and the node list filters --conductor and --description-contains.

Each option: what it sends (body, JSON patch or query), the version the
request carries, and its refusal below its version before any request
(not even a lookup of a node or port group by name)."""

from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc.v1 import node as node_cmds
from ironic_like.osc.v1 import port as port_cmds
from ironic_like.osc.v1 import portgroup as pg_cmds
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes

PG_UUID = '7be26c0b-03f2-4d2e-ae87-c02d7f33c129'


def add(path, value):
    return {'op': 'add', 'path': path, 'value': value}


def remove(path):
    return {'op': 'remove', 'path': path}


class NewFieldsTestCase(base.CommandTestCase):
    """A server of API 1.104, negotiated; every route the commands use,
    and the node "node-0" and the port group "bond0" to look up by
    name."""

    MAX_VERSION = '1.104'

    def setUp(self):
        super().setUp()
        s = self.session
        s.route('POST', '/v1/ports', fakes.FakeResponse(201, fakes.port()))
        s.route('PATCH', '/v1/ports/p', fakes.FakeResponse(
            200, fakes.port()))
        s.route('GET', '/v1/ports(/detail)?', fakes.FakeResponse(
            200, {'ports': []}))
        s.route('POST', '/v1/portgroups', fakes.FakeResponse(
            201, {'uuid': PG_UUID}))
        s.route('PATCH', '/v1/portgroups/bond0', fakes.FakeResponse(
            200, {'uuid': PG_UUID}))
        s.route('GET', '/v1/portgroups(/detail)?', fakes.FakeResponse(
            200, {'portgroups': []}))
        s.route('GET', '/v1/portgroups/bond0', fakes.FakeResponse(
            200, {'uuid': PG_UUID}))
        s.route('GET', '/v1/nodes/node-0', fakes.FakeResponse(
            200, {'uuid': fakes.NODE_UUID}))
        s.route('POST', '/v1/nodes', fakes.FakeResponse(201, fakes.node()))
        s.route('PATCH', '/v1/nodes/n', fakes.FakeResponse(
            200, fakes.node()))
        s.route('PUT', '/v1/nodes/n/states/raid', fakes.FakeResponse(204))
        s.route('GET', '/v1/nodes(/detail)?', fakes.FakeResponse(
            200, {'nodes': []}))

    def use_version(self, version):
        """Requests from now on carry ``version``, as with
        --os-baremetal-api-version."""
        self.client = self.app.client_manager.baremetal = http.Client(
            self.session, fakes.ENDPOINT, version)

    def assertVersion(self, version, request=None):
        request = request or self.last()
        self.assertEqual(version, request.headers[http.VERSION_HEADER])

    def assertRefused(self, version, command_class, argv, option, needed):
        """At ``version`` the command fails naming ``option`` and the
        version ``needed``, and sends nothing."""
        self.use_version(version)
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              command_class, argv)
        self.assertIn('%s: API version %s or later is needed' % (
            option, needed), str(e))
        self.assertIn('version %s was requested' % http.version_string(
            version), str(e))
        self.assertEqual([], self.requests())
        return e


class TestVersions(NewFieldsTestCase):

    def test_constants(self):
        self.assertEqual((1, 97), http.PORT_DESCRIPTION)
        self.assertEqual((1, 99), http.CONDUCTOR_GROUPS_FILTER)
        self.assertEqual((1, 100), http.PORT_VENDOR)
        self.assertEqual((1, 101), http.PORT_CATEGORY)
        self.assertEqual((1, 102), http.PORTGROUP_PHYSICAL_NETWORK)
        self.assertEqual((1, 103), http.PORTGROUP_CATEGORY)
        self.assertEqual((1, 104), http.INSTANCE_NAME)
        self.assertGreaterEqual(http.LAST_KNOWN_VERSION, (1, 104))

    def test_negotiates_its_last_known_version_at_most(self):
        # The plugin's own cap (no override), versions compared as
        # numbers: 1.104 is above 1.99.
        last = http.version_string(http.LAST_KNOWN_VERSION)
        for server, sent in (('1.104', '1.104'), ('1.250', last),
                             ('1.99', '1.99')):
            self.session = fakes.FakeSession(server)
            self.session.route('GET', '/v1/ports', fakes.FakeResponse(
                200, {'ports': []}))
            self.app.client_manager.baremetal = http.Client(
                self.session, fakes.ENDPOINT)
            self.run_command(port_cmds.ListPort, [])
            self.assertVersion(sent)

    def test_refusal_names_the_server_maximum(self):
        # Negotiated with a 1.96 server: the message says what it speaks.
        self.session.max_version = '1.96'
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              port_cmds.CreatePort,
                              ['52:54:00:00:00:01', '--node', 'node-0',
                               '--description', 'uplink'])
        self.assertEqual('--description: API version 1.97 or later is '
                         'needed, but the server supports versions up to '
                         '1.96.', str(e))
        self.assertEqual([], self.requests())

    def test_every_changed_parser_formats_its_help(self):
        for cls, options in (
                (port_cmds.CreatePort, ['--description', '--vendor',
                                        '--category']),
                (port_cmds.SetPort, ['--description', '--vendor',
                                     '--category']),
                (port_cmds.UnsetPort, ['--description', '--vendor',
                                       '--category']),
                (port_cmds.ListPort, ['--description-contains',
                                      '--conductor-group']),
                (pg_cmds.CreatePortGroup, ['--physical-network',
                                           '--category']),
                (pg_cmds.SetPortGroup, ['--physical-network',
                                        '--category']),
                (pg_cmds.UnsetPortGroup, ['--physical-network',
                                          '--category']),
                (pg_cmds.ListPortGroup, ['--conductor-group']),
                (node_cmds.CreateNode, ['--instance-name']),
                (node_cmds.SetNode, ['--instance-name']),
                (node_cmds.UnsetNode, ['--instance-name']),
                (node_cmds.ListNode, ['--instance-name', '--conductor',
                                      '--description-contains'])):
            parser = self.make(cls).get_parser('openstack baremetal test')
            text = parser.format_help()
            for option in options:
                self.assertIn(option, text, cls.__name__)


class TestPortFields(NewFieldsTestCase):
    """--description (1.97), --vendor (1.100), --category (1.101)."""

    CREATE = ['52:54:00:00:00:01', '--node', 'node-0']

    def test_create(self):
        self.run_command(port_cmds.CreatePort, self.CREATE + [
            '--description', 'uplink to tor1', '--vendor', 'mellanox',
            '--category', 'storage'])
        get, post = self.requests()
        self.assertRequest(get, 'GET', '/v1/nodes/node-0')
        self.assertRequest(post, 'POST', '/v1/ports', body={
            'address': '52:54:00:00:00:01', 'node_uuid': fakes.NODE_UUID,
            'description': 'uplink to tor1', 'vendor': 'mellanox',
            'category': 'storage'})
        self.assertVersion('1.104', post)

    def test_create_each_at_its_version(self):
        for version, option in (((1, 97), '--description'),
                                ((1, 100), '--vendor'),
                                ((1, 101), '--category')):
            self.use_version(version)
            self.run_command(port_cmds.CreatePort,
                             self.CREATE + [option, 'x'])
            self.assertEqual('x', self.last().body[option[2:]])
            self.assertVersion(http.version_string(version))

    def test_create_refused_below(self):
        for version, option, needed in (
                ((1, 96), '--description', '1.97'),
                ((1, 99), '--vendor', '1.100'),
                ((1, 100), '--category', '1.101')):
            self.assertRefused(version, port_cmds.CreatePort,
                               self.CREATE + [option, 'x'], option, needed)

    def test_set(self):
        self.run_command(port_cmds.SetPort, [
            'p', '--description', 'd', '--vendor', 'v', '--category', 'c'])
        self.assertRequest(self.last(), 'PATCH', '/v1/ports/p', body=[
            add('/description', 'd'), add('/vendor', 'v'),
            add('/category', 'c')])
        self.assertVersion('1.104')

    def test_set_refused_below_before_lookups(self):
        for version, option, needed in (
                ((1, 96), '--description', '1.97'),
                ((1, 99), '--vendor', '1.100'),
                ((1, 100), '--category', '1.101')):
            # --node and --port-group by name would be looked up first.
            self.assertRefused(version, port_cmds.SetPort, [
                'p', '--node', 'node-0', '--port-group', 'bond0', option,
                'x'], option, needed)

    def test_unset(self):
        self.run_command(port_cmds.UnsetPort, [
            'p', '--description', '--vendor', '--category'])
        self.assertRequest(self.last(), 'PATCH', '/v1/ports/p', body=[
            remove('/description'), remove('/vendor'), remove('/category')])
        self.assertVersion('1.104')

    def test_unset_refused_below(self):
        for version, option, needed in (
                ((1, 96), '--description', '1.97'),
                ((1, 99), '--vendor', '1.100'),
                ((1, 100), '--category', '1.101')):
            self.assertRefused(version, port_cmds.UnsetPort, ['p', option],
                               option, needed)

    def test_unset_takes_no_value(self):
        self.assertParseFails(port_cmds.UnsetPort,
                              ['p', '--description', 'x'])

    def test_name_still_needs_1_88(self):
        self.assertRefused((1, 87), port_cmds.CreatePort,
                           self.CREATE + ['--name', 'eth0'], '--name',
                           '1.88')
        self.assertRefused((1, 87), port_cmds.UnsetPort, ['p', '--name'],
                           '--name', '1.88')

    def test_long_columns(self):
        self.session.route('GET', '/v1/ports/detail', fakes.FakeResponse(
            200, {'ports': [fakes.port(
                name='eth0', description='d', vendor='v', category='c',
                physical_network='pn')]}))
        titles, rows = self.rows(self.run_command(port_cmds.ListPort,
                                                  ['--long']))
        self.assertEqual(('UUID', 'Address', 'Name', 'Description',
                          'Node UUID', 'PXE boot enabled',
                          'Physical Network', 'Vendor', 'Category',
                          'Extra'), titles)
        self.assertEqual(('d', 'v', 'c'), (rows[0][3], rows[0][7],
                                           rows[0][8]))
        for field in ('description', 'vendor', 'category'):
            self.assertIn(field, port_cmds.LONG_FIELDS)


class TestPortListFilters(NewFieldsTestCase):
    """--description-contains (1.97) and --conductor-group (1.99)."""

    def test_description_contains(self):
        self.run_command(port_cmds.ListPort,
                         ['--description-contains', 'tor 1'])
        self.assertRequest(self.last(), 'GET', '/v1/ports',
                           params={'description_contains': 'tor 1'})
        self.assertVersion('1.104')
        self.use_version((1, 97))
        self.run_command(port_cmds.ListPort,
                         ['--description-contains', 'tor'])
        self.assertVersion('1.97')

    def test_description_contains_refused_below(self):
        self.assertRefused((1, 96), port_cmds.ListPort,
                           ['--description-contains', 'tor'],
                           '--description-contains', '1.97')

    def test_conductor_groups_repeated_and_comma_separated(self):
        self.run_command(port_cmds.ListPort, [
            '--conductor-group', 'rack1,rack2', '--conductor-group',
            ' rack3 ', '--conductor-group', 'rack1', '--long'])
        self.assertRequest(self.last(), 'GET', '/v1/ports/detail',
                           params={'conductor_groups': 'rack1,rack2,rack3'})
        self.assertVersion('1.104')

    def test_conductor_groups_at_1_99_and_refused_below(self):
        self.use_version((1, 99))
        self.run_command(port_cmds.ListPort, ['--conductor-group', 'g'])
        self.assertEqual({'conductor_groups': 'g'}, self.last().params)
        self.assertVersion('1.99')
        self.session.requests = []
        self.assertRefused((1, 98), port_cmds.ListPort,
                           ['--conductor-group', 'g'], '--conductor-group',
                           '1.99')

    def test_conductor_group_empty(self):
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              port_cmds.ListPort, ['--conductor-group', ','])
        self.assertIn('--conductor-group needs', str(e))
        self.assertEqual([], self.requests())

    def test_conductor_groups_with_node_refused_by_the_server(self):
        # Not checked here (neither does python-ironicclient): the
        # server's 400 is the message.
        self.session.route('GET', '/v1/ports', fakes.fault(
            400, 'Filtering by conductor_groups cannot be combined with '
                 'the node filter.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              port_cmds.ListPort,
                              ['--conductor-group', 'g', '--node', 'n'])
        self.assertIn('cannot be combined with the node filter', str(e))
        self.assertEqual({'conductor_groups': 'g', 'node': 'n'},
                         self.last().params)


class TestPortGroupFields(NewFieldsTestCase):
    """--physical-network (1.102) and --category (1.103)."""

    def test_create(self):
        self.run_command(pg_cmds.CreatePortGroup, [
            '--node', fakes.NODE_UUID, '--physical-network', 'physnet1',
            '--category', 'bond'])
        self.assertRequest(self.last(), 'POST', '/v1/portgroups', body={
            'node_uuid': fakes.NODE_UUID, 'physical_network': 'physnet1',
            'category': 'bond'})
        self.assertVersion('1.104')

    def test_create_each_at_its_version(self):
        for version, option in (((1, 102), '--physical-network'),
                                ((1, 103), '--category')):
            self.use_version(version)
            self.run_command(pg_cmds.CreatePortGroup,
                             ['--node', fakes.NODE_UUID, option, 'x'])
            self.assertEqual('x', self.last().body[
                option[2:].replace('-', '_')])
            self.assertVersion(http.version_string(version))

    def test_create_refused_below_before_the_node_lookup(self):
        for version, option, needed in (
                ((1, 101), '--physical-network', '1.102'),
                ((1, 102), '--category', '1.103')):
            self.assertRefused(version, pg_cmds.CreatePortGroup,
                               ['--node', 'node-0', option, 'x'], option,
                               needed)

    def test_set(self):
        self.run_command(pg_cmds.SetPortGroup, [
            'bond0', '--physical-network', 'physnet2', '--category', 'c'])
        self.assertRequest(self.last(), 'PATCH', '/v1/portgroups/bond0',
                           body=[add('/physical_network', 'physnet2'),
                                 add('/category', 'c')])
        self.assertVersion('1.104')

    def test_set_refused_below_before_the_node_lookup(self):
        for version, option, needed in (
                ((1, 101), '--physical-network', '1.102'),
                ((1, 102), '--category', '1.103')):
            self.assertRefused(version, pg_cmds.SetPortGroup,
                               ['bond0', '--node', 'node-0', option, 'x'],
                               option, needed)

    def test_set_mode_refused_before_the_node_lookup(self):
        self.assertRefused((1, 25), pg_cmds.SetPortGroup,
                           ['bond0', '--node', 'node-0', '--mode', 'x'],
                           '--mode and --property', '1.26')

    def test_unset(self):
        self.run_command(pg_cmds.UnsetPortGroup, [
            'bond0', '--physical-network', '--category'])
        self.assertRequest(self.last(), 'PATCH', '/v1/portgroups/bond0',
                           body=[remove('/physical_network'),
                                 remove('/category')])
        self.assertVersion('1.104')

    def test_unset_refused_below(self):
        for version, option, needed in (
                ((1, 101), '--physical-network', '1.102'),
                ((1, 102), '--category', '1.103')):
            self.assertRefused(version, pg_cmds.UnsetPortGroup,
                               ['bond0', option], option, needed)

    def test_conductor_groups(self):
        self.run_command(pg_cmds.ListPortGroup, [
            '--conductor-group', 'a', '--conductor-group', 'b,c'])
        self.assertRequest(self.last(), 'GET', '/v1/portgroups',
                           params={'conductor_groups': 'a,b,c'})
        self.assertVersion('1.104')
        self.session.requests = []
        self.assertRefused((1, 98), pg_cmds.ListPortGroup,
                           ['--conductor-group', 'a'], '--conductor-group',
                           '1.99')

    def test_long_columns(self):
        self.session.route('GET', '/v1/portgroups/detail',
                           fakes.FakeResponse(200, {'portgroups': [{
                               'uuid': PG_UUID, 'address': None,
                               'name': 'bond0', 'mode': 'active-backup',
                               'properties': {},
                               'physical_network': 'physnet1',
                               'category': 'c'}]}))
        titles, rows = self.rows(self.run_command(pg_cmds.ListPortGroup,
                                                  ['--long']))
        self.assertEqual(('UUID', 'Address', 'Name', 'Mode', 'Properties',
                          'Physical Network', 'Category'), titles)
        self.assertEqual(('physnet1', 'c'), rows[0][5:])


class TestNodeInstanceName(NewFieldsTestCase):
    """--instance-name (1.104) on create, set, unset and list."""

    def test_create(self):
        self.run_command(node_cmds.CreateNode, [
            '--driver', 'fake-hardware', '--instance-name', 'web-1'])
        self.assertRequest(self.last(), 'POST', '/v1/nodes', body={
            'driver': 'fake-hardware', 'instance_name': 'web-1'})
        self.assertVersion('1.104')

    def test_set_and_unset(self):
        self.run_command(node_cmds.SetNode, ['n', '--instance-name',
                                             'web-1'])
        self.assertRequest(self.last(), 'PATCH', '/v1/nodes/n',
                           body=[add('/instance_name', 'web-1')])
        self.assertVersion('1.104')
        self.run_command(node_cmds.UnsetNode, ['n', '--instance-name'])
        self.assertRequest(self.last(), 'PATCH', '/v1/nodes/n',
                           body=[remove('/instance_name')])
        self.assertVersion('1.104')

    def test_list(self):
        self.run_command(node_cmds.ListNode, ['--instance-name', 'web-1'])
        self.assertRequest(self.last(), 'GET', '/v1/nodes',
                           params={'instance_name': 'web-1'})
        self.assertVersion('1.104')

    def test_refused_below_1_104(self):
        for command_class, argv in (
                (node_cmds.CreateNode, ['--driver', 'd', '--instance-name',
                                        'web-1']),
                (node_cmds.SetNode, ['n', '--instance-name', 'web-1']),
                # Not even --target-raid-config's PUT goes first.
                (node_cmds.SetNode, ['n', '--instance-name', 'web-1',
                                     '--target-raid-config', '{}']),
                (node_cmds.UnsetNode, ['n', '--instance-name']),
                (node_cmds.ListNode, ['--instance-name', 'web-1'])):
            self.assertRefused((1, 103), command_class, argv,
                               '--instance-name', '1.104')

    def test_other_options_still_work_at_1_103(self):
        self.use_version((1, 103))
        self.run_command(node_cmds.SetNode, ['n', '--instance-uuid', 'i'])
        self.assertEqual([add('/instance_uuid', 'i')], self.last().body)
        self.assertVersion('1.103')

    def test_long_column(self):
        self.session.route('GET', '/v1/nodes/detail', fakes.FakeResponse(
            200, {'nodes': [fakes.node(instance_uuid='i',
                                       instance_name='web-1')]}))
        titles, rows = self.rows(self.run_command(node_cmds.ListNode,
                                                  ['--long']))
        index = titles.index('Instance Name')
        self.assertEqual('Instance UUID', titles[index - 1])
        self.assertEqual('web-1', rows[0][index])


class TestNodeListFilters(NewFieldsTestCase):
    """--description-contains (no version of its own) and --conductor
    (1.49)."""

    def test_description_contains_at_any_version(self):
        self.use_version((1, 1))
        self.run_command(node_cmds.ListNode,
                         ['--description-contains', 'rack 4'])
        self.assertRequest(self.last(), 'GET', '/v1/nodes',
                           params={'description_contains': 'rack 4'})
        self.assertVersion('1.1')

    def test_conductor(self):
        self.run_command(node_cmds.ListNode, [
            '--conductor', 'cond-1.example.com', '--description-contains',
            'x', '--instance-name', 'y'])
        self.assertEqual({'conductor': 'cond-1.example.com',
                          'description_contains': 'x',
                          'instance_name': 'y'}, self.last().params)
        self.assertVersion('1.104')
        self.use_version((1, 49))
        self.run_command(node_cmds.ListNode, ['--conductor', 'c'])
        self.assertEqual({'conductor': 'c'}, self.last().params)
        self.assertVersion('1.49')

    def test_conductor_refused_below_1_49(self):
        self.assertRefused((1, 48), node_cmds.ListNode, ['--conductor',
                                                         'c'],
                           '--conductor', '1.49')


class TestPortgroupShards(base.CommandTestCase):
    """port group list --shards (API 1.106)."""

    MAX_VERSION = '1.106'

    def test_shards(self):
        self.session.route('GET', '/v1/portgroups', fakes.FakeResponse(
            200, {'portgroups': []}))
        self.run_command(pg_cmds.ListPortGroup,
                         ['--shards', 'a', 'b'])
        self.assertEqual('a,b', self.last().params['shard'])
        self.app.client_manager.baremetal = http.Client(
            self.session, fakes.ENDPOINT, (1, 105))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              pg_cmds.ListPortGroup,
                              ['--shards', 'a'])
        self.assertIn('1.106', str(e))
