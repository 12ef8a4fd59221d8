"""The stock clients, unchanged, against the embedded and the clustered
service: openstacksdk's baremetal proxy, and python-ironicclient's
``openstack baremetal`` CLI from a virtualenv of its own (our plugin
claims the same commands, so the two never share one; installed by
tools/install-ironicclient.sh into .tox/ironicclient). Its commands run
one after another in one Python of that virtualenv, as its console
script runs them (openstack_cli.py), without a start-up each.

Each resource of doc/ironic-api.md marked done is driven through both:
chassis, nodes in a chassis, port groups with a port, and the node flags
(retired refusing provide, protected refusing undeploy checked in the
unit tests where a node can be active without an agent).
"""

import json
import os

import openstack
from openstack import exceptions as sdk_exc
import requests

from ironic_like.tests.functional import base
from ironic_like.tests.functional import openstack_cli

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
VENV = (os.environ.get('IRONIC_LIKE_IRONICCLIENT_VENV')
        or os.path.join(REPO, '.tox', 'ironicclient'))
STOCK_OPENSTACK = os.path.join(VENV, 'bin', 'openstack')
STOCK_PYTHON = os.path.join(VENV, 'bin', 'python')
# The fake vendor passthru methods, for a node that asks for them.
VENDOR_CONF = {'DEFAULT': {'enabled_vendor_interfaces': 'redfish,no-vendor,'
                                                        'fake',
                           'default_vendor_interface': 'no-vendor'}}
# Bound of one CLI command.
CLI_TIMEOUT = 90
WAIT = 60


def require_stock_cli(test):
    """Skip ``test`` (fail it when CI=true) without the stock CLI."""
    if os.path.exists(STOCK_OPENSTACK):
        return
    message = ('python-ironicclient is not installed in %s: run '
               'tools/install-ironicclient.sh' % VENV)
    if base.CI:
        test.fail('CI=true and ' + message)
    test.skipTest(message)


class StockCLI(object):
    """Runs python-ironicclient's commands against ``url``."""

    def __init__(self, test, url):
        self.test = test
        self.url = url
        # Its own clouds.yaml lookups must find nothing of the machine's.
        self.home = test.work_dir()
        # One interpreter of the stock virtualenv runs every command of
        # the test (openstack_cli_server.py), as its console script does.
        self.server = getattr(test, '_stock_cli_server', None)
        if self.server is None:
            self.server = openstack_cli.OpenStackCLI(STOCK_PYTHON)
            test._stock_cli_server = self.server
            test.addCleanup(self.server.stop)

    def run(self, *argv, expect_ok=True):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith('OS_')}
        env['HOME'] = self.home
        proc = self.server.run(
            ['--os-auth-type', 'none', '--os-endpoint', self.url]
            + list(argv), env, self.home, CLI_TIMEOUT)
        text = 'openstack %s -> %s\n%s\n%s' % (' '.join(argv),
                                               proc.returncode,
                                               proc.stdout, proc.stderr)
        if expect_ok:
            self.test.assertEqual(0, proc.returncode, text)
        else:
            self.test.assertNotEqual(0, proc.returncode, text)
        return proc

    def json(self, *argv):
        return json.loads(self.run(*(list(argv) + ['-f', 'json'])).stdout)


def _uuids(rows):
    """The UUIDs of a stock CLI list in JSON (its column is "UUID" or
    "uuid", depending on the command)."""
    return [row.get('UUID', row.get('uuid')) for row in rows]


def _connect(url, **config):
    return openstack.connect(
        auth_type='none', baremetal_endpoint_override=url + '/',
        load_yaml_config=False, load_envvars=False, **config)


class StockClientsMixin(object):

    def _sdk(self, url):
        conn = _connect(url)
        self.addCleanup(conn.close)
        bm = conn.baremetal

        chassis = bm.create_chassis(description='rack 1',
                                    extra={'row': 'a'})
        self.assertEqual('rack 1', bm.get_chassis(chassis.id).description)
        self.assertIn(chassis.id, [c.id for c in bm.chassis()])
        chassis = bm.update_chassis(chassis, description='rack 2')
        self.assertEqual('rack 2', bm.get_chassis(chassis.id).description)

        node = bm.create_node(driver='fake-hardware', name='sdk-stock',
                              chassis_id=chassis.id)
        self.assertEqual(chassis.id, bm.get_node(node.id).chassis_id)
        # A chassis holding a node is not deleted (400).
        self.assertRaises(sdk_exc.BadRequestException, bm.delete_chassis,
                          chassis, ignore_missing=False)

        group = bm.create_port_group(node_id=node.id, name='sdk-bond0',
                                     address='52:54:00:cc:00:01',
                                     mode='802.3ad',
                                     properties={'miimon': '100'})
        self.assertEqual('802.3ad', bm.get_port_group(group.id).mode)
        self.assertEqual([group.id],
                         [g.id for g in bm.port_groups(node=node.id)])
        port = bm.create_port(node_uuid=node.id,
                              address='52:54:00:cc:00:02',
                              port_group_id=group.id)
        self.assertEqual(group.id, bm.get_port(port.id).port_group_id)
        # A group holding a port is not deleted (400).
        self.assertRaises(sdk_exc.BadRequestException,
                          bm.delete_port_group, group,
                          ignore_missing=False)

        node = bm.set_node_provision_state(node, 'manage', wait=True,
                                           timeout=WAIT)
        node = bm.update_node(node, is_retired=True, retired_reason='EOL')
        self.assertTrue(bm.get_node(node.id).is_retired)
        self.assertRaises(sdk_exc.BadRequestException,
                          bm.set_node_provision_state, node, 'provide')
        self.assertEqual('manageable', bm.get_node(node.id).provision_state)
        # Protected only in active: 409. (The SDK tries a 409 again five
        # times over 15 s by default, since a locked node answers it.)
        once = _connect(url, baremetal_status_code_retries=0)
        self.addCleanup(once.close)
        self.assertRaises(sdk_exc.ConflictException,
                          once.baremetal.update_node, node,
                          is_protected=True)

        bm.delete_port(port, ignore_missing=False)
        bm.delete_port_group(group, ignore_missing=False)
        bm.delete_node(node, ignore_missing=False)
        bm.delete_chassis(chassis, ignore_missing=False)
        self.assertRaises(sdk_exc.NotFoundException, bm.get_chassis,
                          chassis.id)

    def _stock_cli(self, url):
        cli = StockCLI(self, url)
        chassis = cli.json('baremetal', 'chassis', 'create',
                           '--description', 'cli rack', '--extra', 'a=1')
        self.assertEqual('cli rack', chassis['description'])
        listed = cli.json('baremetal', 'chassis', 'list')
        self.assertIn(chassis['uuid'], [c['uuid'] for c in listed])
        cli.run('baremetal', 'chassis', 'set', chassis['uuid'], '--extra',
                'b=2')
        shown = cli.json('baremetal', 'chassis', 'show', chassis['uuid'])
        # The stock client sends values that parse as JSON as JSON.
        self.assertEqual({'a': 1, 'b': 2}, shown['extra'])

        node = cli.json('baremetal', 'node', 'create', '--driver',
                        'fake-hardware', '--name', 'cli-stock',
                        '--chassis-uuid', chassis['uuid'])
        self.assertEqual(chassis['uuid'], node['chassis_uuid'])
        in_chassis = cli.json('baremetal', 'node', 'list', '--chassis',
                              chassis['uuid'])
        self.assertEqual([node['uuid']], [n['uuid'] for n in in_chassis])

        group = cli.json('baremetal', 'port', 'group', 'create', '--node',
                         node['uuid'], '--name', 'cli-bond0', '--address',
                         '52:54:00:dd:00:01', '--mode', 'balance-rr')
        self.assertEqual('balance-rr', group['mode'])
        groups = cli.json('baremetal', 'port', 'group', 'list', '--node',
                          node['uuid'])
        self.assertEqual([group['uuid']], [g['uuid'] for g in groups])
        port = cli.json('baremetal', 'port', 'create', '52:54:00:dd:00:02',
                        '--node', node['uuid'], '--port-group',
                        group['uuid'])
        self.assertEqual(group['uuid'], port['portgroup_uuid'])
        failed = cli.run('baremetal', 'port', 'group', 'delete',
                         group['uuid'], expect_ok=False)
        self.assertIn('port', failed.stderr.lower())

        cli.run('baremetal', 'node', 'manage', node['uuid'], '--wait',
                str(WAIT))
        cli.run('baremetal', 'node', 'set', node['uuid'], '--retired',
                '--retired-reason', 'end of warranty')
        shown = cli.json('baremetal', 'node', 'show', node['uuid'],
                         '--fields', 'retired', 'retired_reason',
                         'provision_state')
        self.assertEqual((True, 'end of warranty', 'manageable'),
                         (shown['retired'], shown['retired_reason'],
                          shown['provision_state']))
        failed = cli.run('baremetal', 'node', 'provide', node['uuid'],
                         expect_ok=False)
        self.assertIn('retired', failed.stderr)

        cli.run('baremetal', 'port', 'delete', port['uuid'])
        cli.run('baremetal', 'port', 'group', 'delete', group['uuid'])
        cli.run('baremetal', 'node', 'delete', node['uuid'])
        cli.run('baremetal', 'chassis', 'delete', chassis['uuid'])
        self.assertEqual([], cli.json('baremetal', 'chassis', 'list'))

    def _stock_cli_newer(self, url):
        """Volume connectors and targets (1.32), deploy templates (1.55),
        and beyond 1.62: lessee (1.65), network_data (1.66), boot mode
        and secure boot (1.76), history (1.78), inventory (1.81), shards
        (1.82), child nodes (1.83), firmware (1.86), port names (1.88),
        runbooks (1.92), disable_power_off (1.95), inspection rules
        (1.96), with the stock CLI (it negotiates our maximum)."""
        cli = StockCLI(self, url)
        network_data = {'links': [{'id': 'eth0', 'type': 'phy',
                                   'ethernet_mac_address':
                                       '52:54:00:ee:00:01'}],
                        'networks': [{'id': 'prov', 'type': 'ipv4_dhcp',
                                      'link': 'eth0',
                                      'network_id': 'prov'}],
                        'services': []}
        node = cli.json('baremetal', 'node', 'create', '--driver',
                        'fake-hardware', '--name', 'cli-newer', '--lessee',
                        'p-lessee', '--network-data',
                        json.dumps(network_data))
        self.assertEqual(('p-lessee', network_data),
                         (node['lessee'], node['network_data']))
        leased = cli.json('baremetal', 'node', 'list', '--lessee',
                          'p-lessee')
        self.assertEqual([node['uuid']], _uuids(leased))
        cli.run('baremetal', 'node', 'unset', node['uuid'], '--lessee')
        self.assertIsNone(cli.json('baremetal', 'node', 'show',
                                   node['uuid'])['lessee'])

        # Boot mode and secure boot (1.76) through the fake management.
        # A conductor worker makes each change after the 202 (as Ironic).
        def field_of(field):
            return cli.json('baremetal', 'node', 'show', node['uuid'],
                            '--fields', field)[field]
        cli.run('baremetal', 'node', 'boot', 'mode', 'set', node['uuid'],
                'bios')
        base.wait_for(lambda: field_of("boot_mode") == "bios", WAIT,
                      message='the boot mode never changed')
        cli.run('baremetal', 'node', 'secure', 'boot', 'on', node['uuid'])
        base.wait_for(lambda: field_of("secure_boot") is True, WAIT,
                      message='secure boot never turned on')
        # Its history (1.78): nothing went wrong.
        self.assertEqual([], cli.json('baremetal', 'node', 'history',
                                      'list', node['uuid']))
        # Its inventory (1.81): none, never inspected through its agent.
        proc = cli.run('baremetal', 'node', 'inventory', 'save',
                       node['uuid'], expect_ok=False)
        self.assertIn('Node inventory record for node %s could not be '
                      'found' % node['uuid'], proc.stdout + proc.stderr)
        # Its shard (1.82): set, listed, counted.
        cli.run('baremetal', 'node', 'set', node['uuid'], '--shard',
                'cli-shard')
        self.assertEqual([node['uuid']], _uuids(cli.json(
            'baremetal', 'node', 'list', '--shards', 'cli-shard')))
        self.assertIn({'name': 'cli-shard', 'count': 1},
                      cli.json('baremetal', 'shard', 'list'))
        # A child node (1.83): hidden from the plain list, listed with
        # --include-children and as its parent's child.
        child = cli.json('baremetal', 'node', 'create', '--driver',
                         'fake-hardware', '--name', 'cli-child',
                         '--parent-node', 'cli-newer')
        self.assertEqual(node['uuid'], child['parent_node'])
        self.assertNotIn(child['uuid'], _uuids(cli.json(
            'baremetal', 'node', 'list')))
        self.assertIn(child['uuid'], _uuids(cli.json(
            'baremetal', 'node', 'list', '--include-children')))
        self.assertEqual({'children': [child['uuid']]}, cli.json(
            'baremetal', 'node', 'children', 'list', node['uuid']))
        cli.run('baremetal', 'node', 'delete', child['uuid'])
        # Firmware (1.86): the interface shown, no components read by
        # no-firmware (the default).
        self.assertEqual('no-firmware', cli.json(
            'baremetal', 'node', 'show', node['uuid'], '--fields',
            'firmware_interface')['firmware_interface'])
        self.assertEqual([], cli.json('baremetal', 'node', 'firmware',
                                      'list', node['uuid']))
        # A named port (1.88), found by its name, with its free texts
        # (1.97, 1.100, 1.101).
        named = cli.json('baremetal', 'port', 'create', '52:54:00:ee:00:09',
                         '--node', node['uuid'], '--name', 'cli-eth9',
                         '--description', 'uplink', '--vendor', 'intel',
                         '--category', 'storage')
        # (6.3.0 sends --description but does not show it.)
        self.assertEqual(('cli-eth9', 'intel', 'storage'),
                         (named['name'], named['vendor'], named['category']))
        # A port group's network and category (1.102, 1.103).
        group = cli.json('baremetal', 'port', 'group', 'create', '--node',
                         node['uuid'], '--physical-network', 'prov',
                         '--category', 'bond')
        self.assertEqual(('prov', 'bond'), (group['physical_network'],
                                            group['category']))
        cli.run('baremetal', 'port', 'group', 'delete', group['uuid'])
        # The instance's name (1.104).
        cli.run('baremetal', 'node', 'set', node['uuid'], '--instance-name',
                'cli-vm')
        self.assertEqual([node['uuid']], _uuids(cli.json(
            'baremetal', 'node', 'list', '--instance-name', 'cli-vm')))
        cli.run('baremetal', 'node', 'unset', node['uuid'],
                '--instance-name')
        self.assertEqual(named['uuid'], cli.json(
            'baremetal', 'port', 'show', 'cli-eth9')['uuid'])
        cli.run('baremetal', 'port', 'delete', 'cli-eth9')
        # Power off disabled (1.95), then allowed again.
        cli.run('baremetal', 'node', 'set', node['uuid'],
                '--disable-power-off')
        self.assertIs(True, field_of('disable_power_off'))
        proc = cli.run('baremetal', 'node', 'power', 'off', node['uuid'],
                       expect_ok=False)
        self.assertIn('disable_power_off', proc.stdout + proc.stderr)
        cli.run('baremetal', 'node', 'set', node['uuid'],
                '--enable-power-off')
        self.assertIs(False, field_of('disable_power_off'))

        connector = cli.json('baremetal', 'volume', 'connector', 'create',
                             '--node', node['uuid'], '--type', 'iqn',
                             '--connector-id',
                             'iqn.2026-11.org.example:cli-newer')
        target = cli.json('baremetal', 'volume', 'target', 'create',
                          '--node', node['uuid'], '--type', 'iscsi',
                          '--boot-index', '0', '--volume-id',
                          'f5a1b2c3-0000-4000-8000-000000000001')
        self.assertEqual(
            [connector['uuid']],
            _uuids(cli.json('baremetal', 'volume', 'connector', 'list',
                            '--node', node['uuid'])))
        self.assertEqual(
            [target['uuid']],
            _uuids(cli.json('baremetal', 'volume', 'target', 'list',
                            '--node', node['uuid'])))
        cli.run('baremetal', 'volume', 'target', 'delete', target['uuid'])
        cli.run('baremetal', 'volume', 'connector', 'delete',
                connector['uuid'])

        steps = [{'interface': 'bios', 'step': 'apply_configuration',
                  'args': {'settings': [{'name': 'LogicalProc',
                                         'value': 'Enabled'}]},
                  'priority': 150}]
        template = cli.json('baremetal', 'deploy', 'template', 'create',
                            'CUSTOM_CLI_NEWER', '--steps',
                            json.dumps(steps))
        self.assertEqual('CUSTOM_CLI_NEWER', template['name'])
        shown = cli.json('baremetal', 'deploy', 'template', 'show',
                         'CUSTOM_CLI_NEWER')
        self.assertEqual(['apply_configuration'],
                         [st['step'] for st in shown['steps']])
        cli.run('baremetal', 'deploy', 'template', 'delete',
                'CUSTOM_CLI_NEWER')
        self._stock_cli_runbook(cli, node)
        self._stock_cli_inspection_rule(cli)

        cli.run('baremetal', 'node', 'delete', node['uuid'])

    def _stock_cli_inspection_rule(self, cli):
        """An inspection rule (1.96) created, shown, listed, changed and
        deleted with the stock CLI."""
        actions = [{'op': 'add-trait', 'args': {'name': 'CUSTOM_CLI'}}]
        conditions = [{'op': 'is-true', 'args': {'value': '{inventory['
                                                          'cpu][count]}'}}]
        rule = cli.json('baremetal', 'inspection', 'rule', 'create',
                        '--description', 'cli rule', '--priority', '7',
                        '--actions', json.dumps(actions),
                        '--conditions', json.dumps(conditions))
        self.assertEqual((7, actions), (rule['priority'], rule['actions']))
        self.assertIn(rule['uuid'], _uuids(cli.json(
            'baremetal', 'inspection', 'rule', 'list')))
        cli.run('baremetal', 'inspection', 'rule', 'set', rule['uuid'],
                '--description', 'changed')
        self.assertEqual('changed', cli.json(
            'baremetal', 'inspection', 'rule', 'show',
            rule['uuid'])['description'])
        proc = cli.run('baremetal', 'inspection', 'rule', 'create',
                       '--actions', '[{"op": "add-trait", "args": {}}]',
                       expect_ok=False)
        self.assertIn('name', proc.stdout + proc.stderr)
        cli.run('baremetal', 'inspection', 'rule', 'delete', rule['uuid'])
        self.assertNotIn(rule['uuid'], _uuids(cli.json(
            'baremetal', 'inspection', 'rule', 'list')))

    def _stock_cli_runbook(self, cli, node):
        """A runbook (1.92) created, shown, listed and changed, and the
        node (which gets the runbook's trait) cleaned with it."""
        steps = [{'interface': 'deploy', 'step': 'erase_devices_metadata',
                  'args': {}, 'order': 1}]
        runbook = cli.json('baremetal', 'runbook', 'create', '--name',
                           'CUSTOM_CLI_RUNBOOK', '--steps',
                           json.dumps(steps))
        self.assertEqual('CUSTOM_CLI_RUNBOOK', runbook['name'])
        self.assertEqual(['erase_devices_metadata'], [
            st['step'] for st in cli.json('baremetal', 'runbook', 'show',
                                          'CUSTOM_CLI_RUNBOOK')['steps']])
        self.assertIn(runbook['uuid'], _uuids(cli.json(
            'baremetal', 'runbook', 'list')))
        cli.run('baremetal', 'runbook', 'set', 'CUSTOM_CLI_RUNBOOK',
                '--extra', 'team=cli')
        self.assertEqual({'team': 'cli'}, cli.json(
            'baremetal', 'runbook', 'show', 'CUSTOM_CLI_RUNBOOK')['extra'])
        # From 1.112 a runbook is approved for the traits it is given
        # (the stock client negotiates our maximum).
        cli.run('baremetal', 'runbook', 'trait', 'add',
                'CUSTOM_CLI_RUNBOOK', 'CUSTOM_CLI_RUNBOOK')
        self.assertEqual([{'traits': 'CUSTOM_CLI_RUNBOOK'}], cli.json(
            'baremetal', 'runbook', 'trait', 'list', 'CUSTOM_CLI_RUNBOOK'))
        cli.run('baremetal', 'node', 'manage', node['uuid'], '--wait',
                str(WAIT))
        cli.run('baremetal', 'node', 'add', 'trait', node['uuid'],
                'CUSTOM_CLI_RUNBOOK')
        cli.run('baremetal', 'node', 'clean', node['uuid'], '--runbook',
                'CUSTOM_CLI_RUNBOOK', '--wait', str(WAIT))
        shown = cli.json('baremetal', 'node', 'show', node['uuid'])
        self.assertEqual(('manageable', None),
                         (shown['provision_state'], shown['last_error']))
        cli.run('baremetal', 'runbook', 'delete', 'CUSTOM_CLI_RUNBOOK')

    def _vendor_passthru(self, url):
        """A fake-hardware node's fake vendor methods through
        openstacksdk and the stock CLI (the service enables the fake
        vendor interface: VENDOR_CONF)."""
        conn = _connect(url)
        self.addCleanup(conn.close)
        bm = conn.baremetal
        node = bm.create_node(driver='fake-hardware', name='vendor-stock',
                              vendor_interface='fake')
        self.addCleanup(bm.delete_node, node, ignore_missing=True)
        methods = bm.list_node_vendor_passthru(node)
        self.assertIn('third_method_sync', methods)
        response = bm.call_node_vendor_passthru(
            node, 'POST', 'third_method_sync', {'bar': 'meow'})
        self.assertEqual((200, True), (response.status_code,
                                       response.json()))
        response = bm.call_node_vendor_passthru(
            node, 'POST', 'second_method', {'bar': 'kazoo'})
        self.assertEqual(202, response.status_code)
        self.assertRaises(sdk_exc.BadRequestException,
                          bm.call_node_vendor_passthru, node, 'POST',
                          'no_such_method')
        self.assertEqual({}, bm.list_driver_vendor_passthru('fake-hardware'))

        cli = StockCLI(self, url)
        rows = cli.json('baremetal', 'node', 'passthru', 'list',
                        node.id)
        self.assertIn('log_passthrough', [row['Name'] for row in rows])
        # Asynchronous (202): nothing to print.
        proc = cli.run('baremetal', 'node', 'passthru', 'call', node.id,
                       'log_passthrough', '--arg', 'colour=blue')
        self.assertEqual('', proc.stdout.strip())
        cli.run('baremetal', 'node', 'passthru', 'call', node.id,
                'third_method_sync', expect_ok=False)


class TestStockClientsCluster(StockClientsMixin, base.FunctionalTestCase):
    """API, two conductors, RabbitMQ, MariaDB."""

    def test_sdk_and_cli(self):
        require_stock_cli(self)
        cluster = self.start_cluster(conductors=2, api_workers=1,
                                     conf=VENDOR_CONF)
        self._sdk(cluster.url)
        self._stock_cli(cluster.url)
        self._stock_cli_newer(cluster.url)
        self._vendor_passthru(cluster.url)


class TestStockClientsEmbedded(StockClientsMixin, base.FunctionalTestCase):
    """ironic-like-all: one process, SQLite, in-process messaging."""
    SERVICES = ()

    def test_sdk_and_cli(self):
        require_stock_cli(self)
        tmp = self.work_dir()
        port = base.free_port()
        url = 'http://127.0.0.1:%d' % port
        config = base.write_config(os.path.join(tmp, 'all.conf'), {
            'DEFAULT': dict(VENDOR_CONF['DEFAULT'],
                            host='ft-stock-%s' % base.random_suffix()),
            'api': {'host_ip': '127.0.0.1', 'port': port},
            'database': {'connection': 'sqlite:///%s'
                         % os.path.join(tmp, 'ironic_like.sqlite')},
        })
        proc = base.ServiceProcess(
            'ironic-like-all',
            base.console_script('ironic-like-all') + ['--config-file',
                                                      config], tmp)
        self.watch(proc)
        self.useFixture(proc)

        def answers():
            proc.check_running()
            return requests.get(url + '/v1', timeout=5).ok
        self.assertEventually(answers, base.START_TIMEOUT,
                              message='ironic-like-all did not answer')
        self._sdk(url)
        self._stock_cli(url)
        self._stock_cli_newer(url)
        self._vendor_passthru(url)
