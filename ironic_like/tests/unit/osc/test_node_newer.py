"""``openstack baremetal node ...`` for Ironic 1.65-1.88: lessee and
network data, boot mode and secure boot, history, inventory, shards,
unhold, firmware, service, port names."""

import io
import json
from unittest import mock

import fixtures
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc.v1 import node as node_cmds
from ironic_like.osc.v1 import node_history as history_cmds
from ironic_like.osc.v1 import node_management as mgmt_cmds
from ironic_like.osc.v1 import port as port_cmds
from ironic_like.osc.v1 import shard as shard_cmds
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes
from ironic_like.tests.unit.osc import test_node_more

NETWORK_DATA = {'links': [{'id': 'eth0', 'type': 'phy'}], 'networks': [],
                'services': []}


def route_node_writes_and_lists(session):
    """Answers for node create (POST), node "n" PATCH and node lists."""
    session.route('POST', '/v1/nodes', fakes.FakeResponse(201, fakes.node()))
    session.route('PATCH', '/v1/nodes/n',
                  fakes.FakeResponse(200, fakes.node()))
    session.route('GET', '/v1/nodes.*', fakes.FakeResponse(200, {'nodes': []}))


class TestLesseeNetworkData(base.CommandTestCase):

    MAX_VERSION = '1.82'

    def setUp(self):
        super().setUp()
        route_node_writes_and_lists(self.session)

    def test_create(self):
        self.run_command(node_cmds.CreateNode, [
            '--driver', 'd', '--lessee', 'p2', '--network-data',
            json.dumps(NETWORK_DATA)])
        self.assertEqual({'driver': 'd', 'lessee': 'p2',
                          'network_data': NETWORK_DATA}, self.last().body)
        self.assertEqual('1.82', self.last().headers[http.VERSION_HEADER])

    def test_set_and_unset(self):
        self.run_command(node_cmds.SetNode, ['n', '--lessee', 'p3',
                                             '--network-data',
                                             json.dumps(NETWORK_DATA)])
        self.assertEqual(
            [{'op': 'add', 'path': '/lessee', 'value': 'p3'},
             {'op': 'add', 'path': '/network_data', 'value': NETWORK_DATA}],
            self.last().body)
        self.run_command(node_cmds.UnsetNode, ['n', '--lessee',
                                               '--network-data'])
        self.assertEqual([{'op': 'remove', 'path': '/lessee'},
                          {'op': 'remove', 'path': '/network_data'}],
                         self.last().body)

    def test_bad_network_data(self):
        self.assertRaises((osc_exc.CommandError, SystemExit),
                          self.run_command, node_cmds.CreateNode,
                          ['--driver', 'd', '--network-data', '[1, 2]'])

    def test_list_lessee(self):
        self.run_command(node_cmds.ListNode, ['--lessee', 'p2'])
        self.assertEqual('p2', self.last().params.get('lessee'))


class TestBootMode(base.CommandTestCase):

    MAX_VERSION = '1.82'

    def setUp(self):
        super().setUp()
        self.session.route('PUT', '/v1/nodes/.*/states/.*',
                           fakes.FakeResponse(202))

    def test_boot_mode_set(self):
        self.run_command(mgmt_cmds.BootModeSetNode, ['a', 'b', 'bios'])
        self.assertEqual(['/v1/nodes/a/states/boot_mode',
                          '/v1/nodes/b/states/boot_mode'],
                         [r.path for r in self.requests()])
        self.assertEqual({'target': 'bios'}, self.last().body)

    def test_secure_boot(self):
        self.run_command(mgmt_cmds.SecureBootOnNode, ['a'])
        self.assertEqual({'target': True}, self.last().body)
        self.run_command(mgmt_cmds.SecureBootOffNode, ['a'])
        self.assertEqual({'target': False}, self.last().body)

    def test_version(self):
        test_node_more.use_version(self, (1, 75))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              mgmt_cmds.BootModeSetNode, ['a', 'uefi'])
        self.assertIn('API version 1.76', str(e))
        self.assertEqual([], self.requests())


class TestHistory(base.CommandTestCase):

    MAX_VERSION = '1.82'
    EVENT = {'uuid': 'e1', 'created_at': '2026-11-24T01:00:00+00:00',
             'severity': 'ERROR', 'event': 'BMC on fire',
             'event_type': 'power', 'conductor': 'c1', 'user': None,
             'links': []}

    def test_list(self):
        self.session.route('GET', '/v1/nodes/n/history',
                           fakes.FakeResponse(200,
                                              {'history': [self.EVENT]}))
        columns, rows = self.run_command(history_cmds.ListNodeHistory,
                                         ['n'])
        self.assertEqual(4, len(columns))
        self.assertEqual('BMC on fire', list(rows)[0][3])
        columns, rows = self.run_command(history_cmds.ListNodeHistory,
                                         ['n', '--long'])
        self.assertEqual(7, len(columns))
        self.assertEqual('True', self.last().params.get('detail'))

    def test_get(self):
        self.session.route('GET', '/v1/nodes/n/history/e1',
                           fakes.FakeResponse(200, self.EVENT))
        names, values = self.run_command(history_cmds.ShowNodeHistory,
                                         ['n', 'e1'])
        self.assertEqual('power', dict(zip(names, values))['event_type'])


class TestInventory(base.CommandTestCase):

    MAX_VERSION = '1.82'
    DOC = {'inventory': {'cpu': {'count': 4}}, 'plugin_data': {}}

    def setUp(self):
        super().setUp()
        self.session.route('GET', '/v1/nodes/n/inventory',
                           fakes.FakeResponse(200, self.DOC))

    def test_save_to_file(self):
        path = self.useFixture(fixtures.TempDir()).path + '/inv.json'
        self.run_command(history_cmds.SaveNodeInventory,
                         ['n', '--file', path])
        with open(path) as f:
            self.assertEqual(self.DOC, json.load(f))
        self.assertEqual('1.82', self.last().headers[http.VERSION_HEADER])

    def test_save_to_stdout(self):
        out = io.StringIO()
        with mock.patch('sys.stdout', out):
            self.run_command(history_cmds.SaveNodeInventory, ['n'])
        self.assertEqual(self.DOC, json.loads(out.getvalue()))


class TestInventoryOldServer(base.CommandTestCase):

    MAX_VERSION = '1.80'

    def test_refused(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          history_cmds.SaveNodeInventory, ['n'])


class TestShards(base.CommandTestCase):

    MAX_VERSION = '1.82'

    def setUp(self):
        super().setUp()
        route_node_writes_and_lists(self.session)
        self.session.route('GET', '/v1/ports.*', fakes.FakeResponse(
            200, {'ports': []}))
        self.session.route('GET', '/v1/shards', fakes.FakeResponse(
            200, {'shards': [{'name': 's1', 'count': 2},
                             {'name': 'None', 'count': 1}]}))

    def test_create_set_unset(self):
        self.run_command(node_cmds.CreateNode,
                         ['--driver', 'fake-hardware', '--shard', 's1'])
        self.assertEqual('s1', self.last().body['shard'])
        self.run_command(node_cmds.SetNode, ['n', '--shard', 's2'])
        self.assertEqual([{'op': 'add', 'path': '/shard', 'value': 's2'}],
                         self.last().body)
        self.run_command(node_cmds.UnsetNode, ['n', '--shard'])
        self.assertEqual([{'op': 'remove', 'path': '/shard'}],
                         self.last().body)

    def test_list_filters(self):
        self.run_command(node_cmds.ListNode, ['--shards', 's1', 's2'])
        self.assertEqual('s1,s2', self.last().params['shard'])
        self.run_command(node_cmds.ListNode, ['--unsharded'])
        self.assertEqual('False', self.last().params['sharded'])
        self.run_command(port_cmds.ListPort, ['--shards', 's1'])
        self.assertEqual('s1', self.last().params['shard'])

    def test_shard_list(self):
        columns, rows = self.run_command(shard_cmds.ListShard, [])
        self.assertEqual(('name', 'count'), columns)
        self.assertEqual([('s1', 2), ('None', 1)], list(rows))


class TestShardsOldServer(base.CommandTestCase):

    MAX_VERSION = '1.81'

    def test_refused(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          shard_cmds.ListShard, [])
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          node_cmds.ListNode, ['--sharded'])


class TestUnhold(base.CommandTestCase):

    MAX_VERSION = '1.85'

    def test_unhold(self):
        self.session.route('PUT', '/v1/nodes/n/states/provision',
                           fakes.FakeResponse(202))
        self.run_command(node_cmds.UnholdNode, ['n'])
        self.assertRequest(self.last(), 'PUT',
                           '/v1/nodes/n/states/provision',
                           body={'target': 'unhold'})


class TestUnholdOldServer(base.CommandTestCase):

    MAX_VERSION = '1.84'

    def test_refused(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          node_cmds.UnholdNode, ['n'])


class TestFirmware(base.CommandTestCase):

    MAX_VERSION = '1.86'

    def test_firmware_list(self):
        self.session.route('GET', '/v1/nodes/n/firmware', fakes.FakeResponse(
            200, {'firmware': [{'component': 'bios',
                                'initial_version': '1.0',
                                'current_version': '1.1',
                                'last_version_flashed': None,
                                'created_at': '2026-11-26T00:00:00+00:00',
                                'updated_at': None}]}))
        columns, rows = self.run_command(mgmt_cmds.ListFirmwareNode, ['n'])
        self.assertEqual(('component', 'initial_version', 'current_version',
                          'last_version_flashed', 'created_at',
                          'updated_at'), columns)
        self.assertEqual([('bios', '1.0', '1.1', None,
                           '2026-11-26T00:00:00+00:00', None)], list(rows))

    def test_firmware_interface_option(self):
        route_node_writes_and_lists(self.session)
        self.run_command(node_cmds.CreateNode, [
            '--driver', 'd', '--firmware-interface', 'fake'])
        self.assertEqual('fake', self.last().body['firmware_interface'])


class TestFirmwareOldServer(base.CommandTestCase):

    MAX_VERSION = '1.85'

    def test_refused(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          mgmt_cmds.ListFirmwareNode, ['n'])


class TestService(base.CommandTestCase):

    MAX_VERSION = '1.87'

    def test_service(self):
        self.session.route('PUT', '/v1/nodes/n/states/provision',
                           fakes.FakeResponse(202))
        self.run_command(node_cmds.ServiceNode, [
            'n', '--service-steps',
            '[{"interface": "deploy", "step": "update_firmware"}]'])
        self.assertRequest(self.last(), 'PUT',
                           '/v1/nodes/n/states/provision',
                           body={'target': 'service', 'service_steps': [
                               {'interface': 'deploy',
                                'step': 'update_firmware'}]})
        self.assertParseFails(node_cmds.ServiceNode, ['n'])


class TestPortName(base.CommandTestCase):

    MAX_VERSION = '1.88'

    def test_create_set_unset(self):
        self.session.route('GET', '/v1/nodes/n.*', fakes.FakeResponse(
            200, fakes.node()))
        self.session.route('POST', '/v1/ports', fakes.FakeResponse(
            201, {'uuid': 'p', 'name': 'eth0'}))
        self.session.route('PATCH', '/v1/ports/eth0', fakes.FakeResponse(
            200, {'uuid': 'p'}))
        self.run_command(port_cmds.CreatePort, [
            '52:54:00:00:00:01', '--node', 'n', '--name', 'eth0'])
        self.assertEqual('eth0', self.last().body['name'])
        self.run_command(port_cmds.SetPort, ['eth0', '--name', 'nic0'])
        self.assertEqual([{'op': 'add', 'path': '/name', 'value': 'nic0'}],
                         self.last().body)
        self.run_command(port_cmds.UnsetPort, ['eth0', '--name'])
        self.assertEqual([{'op': 'remove', 'path': '/name'}],
                         self.last().body)


class TestPortNameOldServer(base.CommandTestCase):

    MAX_VERSION = '1.87'

    def test_refused(self):
        self.session.route('GET', '/v1/nodes/n.*', fakes.FakeResponse(
            200, fakes.node()))
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          port_cmds.CreatePort,
                          ['52:54:00:00:00:01', '--node', 'n', '--name',
                           'eth0'])


class TestNodeDisablePowerOff(base.CommandTestCase):
    """--disable-power-off / --enable-power-off (API 1.95)."""

    MAX_VERSION = '1.95'

    def setUp(self):
        super().setUp()
        self.session.route('PATCH', '/v1/nodes/n', fakes.FakeResponse(
            200, fakes.node()))
        self.session.route('POST', '/v1/nodes',
                           fakes.FakeResponse(201, fakes.node()))

    def test_create_and_set(self):
        self.run_command(node_cmds.CreateNode, ['--driver', 'd',
                                                '--disable-power-off'])
        self.assertEqual({'driver': 'd', 'disable_power_off': True},
                         self.last().body)
        self.run_command(node_cmds.SetNode, ['n', '--enable-power-off'])
        self.assertEqual([{'op': 'add', 'path': '/disable_power_off',
                           'value': False}], self.last().body)
        self.run_command(node_cmds.SetNode, ['n', '--disable-power-off'])
        self.assertEqual([{'op': 'add', 'path': '/disable_power_off',
                           'value': True}], self.last().body)
        self.assertParseFails(node_cmds.SetNode, [
            'n', '--disable-power-off', '--enable-power-off'])

    def test_needs_1_95(self):
        self.app.client_manager.baremetal = http.Client(
            self.session, fakes.ENDPOINT, (1, 94))
        for command_class, argv in (
                (node_cmds.CreateNode, ['--driver', 'd',
                                        '--disable-power-off']),
                (node_cmds.SetNode, ['n', '--enable-power-off'])):
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  command_class, argv)
            self.assertIn('API version 1.95 or later is needed', str(e))
        self.assertEqual([], self.requests())
