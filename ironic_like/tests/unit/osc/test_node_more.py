"""``openstack baremetal node ...``: the interface options, validate,
boot device, NMI, console, BIOS, RAID, inspect, rescue and VIFs."""

import io
import json

import fixtures
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc.v1 import node as node_cmds
from ironic_like.osc.v1 import node_management as mgmt_cmds
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes

KINDS = ('bios', 'boot', 'console', 'deploy', 'firmware', 'inspect',
         'management', 'network', 'power', 'raid', 'rescue', 'storage',
         'vendor')
# Those a 1.61 server knows (firmware came with 1.86).
KINDS_1_61 = tuple(kind for kind in KINDS if kind != 'firmware')


def use_version(case, version):
    case.client = case.app.client_manager.baremetal = http.Client(
        case.session, fakes.ENDPOINT, version)


class TestNodeInterfaces(base.CommandTestCase):

    MAX_VERSION = '1.61'

    def setUp(self):
        super().setUp()
        self.session.route('POST', '/v1/nodes',
                           fakes.FakeResponse(201, fakes.node()))
        self.session.route('PATCH', '/v1/nodes/n', fakes.FakeResponse(
            200, fakes.node()))

    def test_kinds(self):
        self.assertEqual(KINDS, node_cmds.INTERFACE_KINDS)

    def test_create_every_interface(self):
        argv = ['--driver', 'd']
        for kind in KINDS_1_61:
            argv += ['--%s-interface' % kind, 'i-' + kind]
        self.run_command(node_cmds.CreateNode, argv)
        expected = {'driver': 'd'}
        expected.update(('%s_interface' % k, 'i-' + k) for k in KINDS_1_61)
        self.assertEqual(expected, self.last().body)
        self.assertEqual('1.61', self.last().headers[http.VERSION_HEADER])

    def test_set_every_interface(self):
        argv = ['n']
        for kind in KINDS_1_61:
            argv += ['--%s-interface' % kind, 'i-' + kind]
        self.run_command(node_cmds.SetNode, argv)
        self.assertEqual([{'op': 'add', 'path': '/%s_interface' % k,
                           'value': 'i-' + k} for k in KINDS_1_61],
                         self.last().body)

    def test_set_reset_interfaces(self):
        self.run_command(node_cmds.SetNode, [
            'n', '--reset-rescue-interface', '--reset-boot-interface',
            '--network-interface', 'flat'])
        self.assertEqual([
            {'op': 'add', 'path': '/network_interface', 'value': 'flat'},
            {'op': 'remove', 'path': '/boot_interface'},
            {'op': 'remove', 'path': '/rescue_interface'}],
            self.last().body)

    def test_set_and_reset_exclusive(self):
        self.assertParseFails(node_cmds.SetNode, [
            'n', '--raid-interface', 'x', '--reset-raid-interface'])

    def test_unset_every_interface(self):
        self.run_command(node_cmds.UnsetNode,
                         ['n'] + ['--%s-interface' % k for k in KINDS_1_61])
        self.assertEqual([{'op': 'remove', 'path': '/%s_interface' % k}
                          for k in KINDS_1_61], self.last().body)

    def test_interface_versions(self):
        for version, kind, needed in (
                ((1, 19), 'network', '1.20'),
                ((1, 30), 'console', '1.31'),
                ((1, 30), 'inspect', '1.31'),
                ((1, 30), 'raid', '1.31'),
                ((1, 30), 'vendor', '1.31'),
                ((1, 32), 'storage', '1.33'),
                ((1, 37), 'rescue', '1.38'),
                ((1, 39), 'bios', '1.40'),
                ((1, 85), 'firmware', '1.86')):
            use_version(self, version)
            option = '--%s-interface' % kind
            for command_class, argv in (
                    (node_cmds.CreateNode, ['--driver', 'd', option, 'x']),
                    (node_cmds.SetNode, ['n', option, 'x']),
                    (node_cmds.SetNode, ['n', '--reset-%s-interface'
                                         % kind]),
                    (node_cmds.UnsetNode, ['n', option])):
                e = self.assertRaises(osc_exc.CommandError,
                                      self.run_command, command_class, argv)
                self.assertIn('API version %s or later is needed' % needed,
                              str(e))
        self.assertEqual([], self.requests())
        use_version(self, (1, 40))
        self.run_command(node_cmds.SetNode, ['n', '--bios-interface', 'x'])
        self.assertEqual('1.40', self.last().headers[http.VERSION_HEADER])

    def test_old_interfaces_need_no_version(self):
        use_version(self, (1, 1))
        self.run_command(node_cmds.CreateNode,
                         ['--driver', 'd', '--boot-interface', 'pxe'])
        self.run_command(node_cmds.UnsetNode, ['n', '--power-interface'])
        self.assertEqual(2, len(self.requests()))

    def test_long_columns(self):
        self.session.route('GET', '/v1/nodes/detail', fakes.FakeResponse(
            200, {'nodes': [fakes.node(**{'%s_interface' % k: k
                                          for k in KINDS})]}))
        titles, rows = self.rows(self.run_command(node_cmds.ListNode,
                                                  ['--long']))
        wanted = ['%s Interface' % k.capitalize() for k in KINDS]
        wanted[KINDS.index('raid')] = 'RAID Interface'
        start = titles.index(wanted[0])
        self.assertEqual(tuple(wanted), titles[start:start + len(KINDS)])
        row = dict(zip(titles, rows[0]))
        self.assertEqual('rescue', row['Rescue Interface'])


class TestNodeRaidConfig(base.CommandTestCase):

    RAID = {'logical_disks': [{'size_gb': 100, 'raid_level': '1'}]}

    def setUp(self):
        super().setUp()
        self.session.route('PUT', '/v1/nodes/n/states/raid',
                           fakes.FakeResponse(204))
        self.session.route('PATCH', '/v1/nodes/n', fakes.FakeResponse(
            200, fakes.node()))

    def test_json_string(self):
        self.run_command(node_cmds.SetNode, [
            'n', '--target-raid-config', json.dumps(self.RAID)])
        self.assertEqual(1, len(self.requests()))
        self.assertRequest(self.last(), 'PUT', '/v1/nodes/n/states/raid',
                           body=self.RAID)

    def test_file_and_patch(self):
        path = self.useFixture(fixtures.TempDir()).join('raid.yaml')
        with open(path, 'w') as f:
            f.write('logical_disks:\n- size_gb: 100\n  raid_level: "1"\n')
        self.run_command(node_cmds.SetNode, [
            'n', '--target-raid-config', path, '--name', 'x'])
        first, second = self.requests()
        self.assertRequest(first, 'PUT', '/v1/nodes/n/states/raid',
                           body=self.RAID)
        self.assertRequest(second, 'PATCH', '/v1/nodes/n', body=[
            {'op': 'add', 'path': '/name', 'value': 'x'}])

    def test_stdin(self):
        with fixtures.MonkeyPatch('sys.stdin',
                                  io.StringIO(json.dumps(self.RAID))):
            self.run_command(node_cmds.SetNode,
                             ['n', '--target-raid-config', '-'])
        self.assertEqual(self.RAID, self.last().body)

    def test_invalid(self):
        for value in ('{not json', '[1]'):
            self.assertRaises(osc_exc.CommandError, self.run_command,
                              node_cmds.SetNode,
                              ['n', '--target-raid-config', value])
        self.assertEqual([], self.requests())

    def test_version(self):
        use_version(self, (1, 11))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              node_cmds.SetNode,
                              ['n', '--target-raid-config', '{}'])
        self.assertIn('--target-raid-config: API version 1.12', str(e))
        self.assertEqual([], self.requests())


class TestNodeValidate(base.CommandTestCase):

    def test_validate(self):
        self.session.route('GET', '/v1/nodes/n/validate', fakes.FakeResponse(
            200, {'power': {'result': True},
                  'deploy': {'result': False, 'reason': 'no image'},
                  'boot': {'result': None, 'reason': 'not supported'}}))
        titles, rows = self.rows(self.run_command(mgmt_cmds.ValidateNode,
                                                  ['n']))
        self.assertEqual(('Interface', 'Result', 'Reason'), titles)
        self.assertEqual([('boot', None, 'not supported'),
                          ('deploy', False, 'no image'),
                          ('power', True, None)], rows)


class TestNodeManagement(base.CommandTestCase):

    def test_boot_device_show(self):
        self.session.route('GET', '/v1/nodes/n/management/boot_device',
                           fakes.FakeResponse(200, {'boot_device': 'pxe',
                                                    'persistent': False}))
        shown = self.as_dict(self.run_command(mgmt_cmds.BootdeviceShowNode,
                                              ['n']))
        self.assertEqual({'boot_device': 'pxe', 'persistent': False}, shown)

    def test_boot_device_supported(self):
        self.session.route(
            'GET', '/v1/nodes/n/management/boot_device/supported',
            fakes.FakeResponse(200, {'supported_boot_devices': ['pxe',
                                                                'disk']}))
        shown = self.as_dict(self.run_command(
            mgmt_cmds.BootdeviceShowNode, ['n', '--supported']))
        self.assertEqual({'supported_boot_devices': 'pxe, disk'}, shown)

    def test_boot_device_set(self):
        self.session.route('PUT', '/v1/nodes/.*/management/boot_device',
                           fakes.FakeResponse(204))
        self.run_command(mgmt_cmds.BootdeviceSetNode,
                         ['a', 'b', 'disk', '--persistent'])
        self.assertEqual(
            [('/v1/nodes/a/management/boot_device',
              {'boot_device': 'disk', 'persistent': True}),
             ('/v1/nodes/b/management/boot_device',
              {'boot_device': 'disk', 'persistent': True})],
            [(r.path, r.body) for r in self.requests()])
        self.run_command(mgmt_cmds.BootdeviceSetNode, ['a', 'pxe'])
        self.assertEqual({'boot_device': 'pxe', 'persistent': False},
                         self.last().body)

    def test_boot_device_choices(self):
        self.assertParseFails(mgmt_cmds.BootdeviceSetNode, ['a', 'floppy'])

    def test_boot_device_partial_failure(self):
        self.session.route('PUT', '/v1/nodes/a/management/boot_device',
                           fakes.FakeResponse(204))
        self.session.route('PUT', '/v1/nodes/b/management/boot_device',
                           fakes.fault(404, 'Node b could not be found.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              mgmt_cmds.BootdeviceSetNode, ['b', 'a', 'pxe'])
        self.assertIn('node b: Node b could not be found.', str(e))
        self.assertEqual(2, len(self.requests()))

    def test_inject_nmi(self):
        self.session.route('PUT', '/v1/nodes/.*/management/inject_nmi',
                           fakes.FakeResponse(204))
        self.run_command(mgmt_cmds.InjectNmiNode, ['a', 'b'])
        self.assertEqual(['/v1/nodes/a/management/inject_nmi',
                          '/v1/nodes/b/management/inject_nmi'],
                         [r.path for r in self.requests()])
        self.assertEqual({}, self.last().body)

    def test_inject_nmi_version(self):
        use_version(self, (1, 28))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              mgmt_cmds.InjectNmiNode, ['a'])
        self.assertIn('API version 1.29', str(e))
        self.assertEqual([], self.requests())


class TestNodeConsole(base.CommandTestCase):

    def test_show(self):
        self.session.route('GET', '/v1/nodes/n/states/console',
                           fakes.FakeResponse(200, {'console_enabled': True,
                                                    'console_info': None}))
        shown = self.as_dict(self.run_command(mgmt_cmds.ConsoleShowNode,
                                              ['n']))
        self.assertEqual({'console_enabled': True, 'console_info': None},
                         shown)

    def test_enable_disable(self):
        self.session.route('PUT', '/v1/nodes/.*/states/console',
                           fakes.FakeResponse(202))
        self.run_command(mgmt_cmds.ConsoleEnableNode, ['a', 'b'])
        self.run_command(mgmt_cmds.ConsoleDisableNode, ['a'])
        self.assertEqual(
            [('/v1/nodes/a/states/console', {'enabled': True}),
             ('/v1/nodes/b/states/console', {'enabled': True}),
             ('/v1/nodes/a/states/console', {'enabled': False})],
            [(r.path, r.body) for r in self.requests()])


class TestNodeBios(base.CommandTestCase):

    def test_list(self):
        self.session.route('GET', '/v1/nodes/n/bios', fakes.FakeResponse(
            200, {'bios': [{'name': 'Boot', 'value': 'uefi',
                            'links': []}]}))
        titles, rows = self.rows(self.run_command(
            mgmt_cmds.ListBIOSSettingNode, ['n']))
        self.assertEqual(('BIOS setting name', 'BIOS setting value'),
                         titles)
        self.assertEqual([('Boot', 'uefi')], rows)
        self.assertEqual('1.60', self.last().headers[http.VERSION_HEADER])

    def test_show(self):
        self.session.route('GET', '/v1/nodes/n/bios/Boot%20Mode',
                           fakes.FakeResponse(200, {'Boot Mode': {
                               'name': 'Boot Mode', 'value': 'uefi',
                               'links': []}}))
        shown = self.as_dict(self.run_command(
            mgmt_cmds.ShowBIOSSettingNode, ['n', 'Boot Mode']))
        self.assertEqual({'name': 'Boot Mode', 'value': 'uefi'}, shown)

    def test_version(self):
        use_version(self, (1, 39))
        for command_class, argv in (
                (mgmt_cmds.ListBIOSSettingNode, ['n']),
                (mgmt_cmds.ShowBIOSSettingNode, ['n', 'x'])):
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  command_class, argv)
            self.assertIn('API version 1.40', str(e))
        self.assertEqual([], self.requests())


class TestNodeInspectRescue(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('PUT', '/v1/nodes/n/states/provision',
                           fakes.FakeResponse(202))

    def test_inspect(self):
        self.run_command(node_cmds.InspectNode, ['n'])
        self.assertRequest(self.last(), 'PUT', '/v1/nodes/n/states/provision',
                           body={'target': 'inspect'})

    def test_inspect_wait(self):
        self.session.route('GET', '/v1/nodes/n', fakes.FakeResponse(
            200, fakes.node(provision_state='manageable')))
        self.run_command(node_cmds.InspectNode, ['n', '--wait', '10'])
        self.assertRequest(self.last(), 'GET', '/v1/nodes/n')

    def test_rescue(self):
        self.run_command(node_cmds.RescueNode,
                         ['n', '--rescue-password', 's3cret'])
        self.assertRequest(self.last(), 'PUT', '/v1/nodes/n/states/provision',
                           body={'target': 'rescue',
                                 'rescue_password': 's3cret'})

    def test_rescue_wait(self):
        self.session.route('GET', '/v1/nodes/n', fakes.FakeResponse(
            200, fakes.node(provision_state='rescue')))
        self.run_command(node_cmds.RescueNode,
                         ['n', '--rescue-password', 'p', '--wait'])
        self.assertEqual('GET', self.last().method)

    def test_rescue_password_required(self):
        self.assertParseFails(node_cmds.RescueNode, ['n'])
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          node_cmds.RescueNode,
                          ['n', '--rescue-password', '  '])
        self.assertEqual([], self.requests())

    def test_unrescue(self):
        self.session.route('GET', '/v1/nodes/n', fakes.FakeResponse(
            200, fakes.node(provision_state='active')))
        self.run_command(node_cmds.UnrescueNode, ['n', '--wait'])
        put = self.requests()[0]
        self.assertRequest(put, 'PUT', '/v1/nodes/n/states/provision',
                           body={'target': 'unrescue'})

    def test_versions(self):
        use_version(self, (1, 5))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              node_cmds.InspectNode, ['n'])
        self.assertIn('API version 1.6', str(e))
        use_version(self, (1, 37))
        for command_class, argv in (
                (node_cmds.RescueNode, ['n', '--rescue-password', 'p']),
                (node_cmds.UnrescueNode, ['n'])):
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  command_class, argv)
            self.assertIn('API version 1.38', str(e))
        self.assertEqual([], self.requests())


class TestNodeVifs(base.CommandTestCase):

    def test_list(self):
        self.session.route('GET', '/v1/nodes/n/vifs', fakes.FakeResponse(
            200, {'vifs': [{'id': 'v1'}, {'id': 'v2'}]}))
        titles, rows = self.rows(self.run_command(mgmt_cmds.VifListNode,
                                                  ['n']))
        self.assertEqual(('ID',), titles)
        self.assertEqual([('v1',), ('v2',)], rows)

    def test_attach(self):
        self.session.route('POST', '/v1/nodes/n/vifs',
                           fakes.FakeResponse(204))
        self.run_command(mgmt_cmds.VifAttachNode, [
            'n', 'v1', '--port-uuid', fakes.PORT_UUID,
            '--vif-info', 'a=b'])
        self.assertRequest(self.last(), 'POST', '/v1/nodes/n/vifs', body={
            'id': 'v1', 'port_uuid': fakes.PORT_UUID, 'a': 'b'})
        self.run_command(mgmt_cmds.VifAttachNode,
                         ['n', 'v2', '--portgroup-uuid', 'pg'])
        self.assertEqual({'id': 'v2', 'portgroup_uuid': 'pg'},
                         self.last().body)

    def test_attach_id_in_vif_info(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          mgmt_cmds.VifAttachNode,
                          ['n', 'v1', '--vif-info', 'id=x'])
        self.assertEqual([], self.requests())

    def test_detach(self):
        self.session.route('DELETE', '/v1/nodes/n/vifs/v1',
                           fakes.FakeResponse(204))
        self.run_command(mgmt_cmds.VifDetachNode, ['n', 'v1'])
        self.assertRequest(self.last(), 'DELETE', '/v1/nodes/n/vifs/v1')

    def test_version(self):
        use_version(self, (1, 27))
        for command_class, argv in (
                (mgmt_cmds.VifListNode, ['n']),
                (mgmt_cmds.VifAttachNode, ['n', 'v']),
                (mgmt_cmds.VifDetachNode, ['n', 'v'])):
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  command_class, argv)
            self.assertIn('Node VIF commands: API version 1.28', str(e))
        self.assertEqual([], self.requests())
