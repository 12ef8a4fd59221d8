"""The ``openstack baremetal`` commands, run for real.

One embedded service (``ironic-like-all``: API and conductor in one
process, SQLite, in-process messaging) per test class; every command is
the virtualenv's real ``openstack`` CLI (its shell, in one Python per
test; the ``openstack`` executable itself where a test checks what a
user's shell sees), talking to the service with ``--os-auth-type none
--os-endpoint URL`` (and once through OS_* variables and once through
clouds.yaml), so the plugin's entry points, option parsing, output
formatting and exit codes are all exercised as a user sees them.
"""

import json
import os
import subprocess
import sys

import fixtures
import requests

from ironic_like.tests.functional import base
from ironic_like.tests.functional import openstack_cli

OPENSTACK = os.path.join(os.path.dirname(sys.executable), 'openstack')
# Bound of one CLI command (the executable's start-up alone takes about
# a second).
CLI_TIMEOUT = 60
ALLOCATIONS_VERSION = (1, 52)


class CLIResult(object):

    def __init__(self, argv, proc):
        self.argv = argv
        self.code = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def json(self):
        return json.loads(self.out)

    def __str__(self):
        return ('openstack %s -> exit %s\nstdout: %s\nstderr: %s'
                % (' '.join(self.argv), self.code, self.out, self.err))


class TestCLI(base.FunctionalTestCase):
    SERVICES = ()  # SQLite and fake:// only
    TIMEOUT = 600

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.tmp = fixtures.TempDir()
        cls.tmp.setUp()
        cls.addClassCleanup(cls.tmp.cleanUp)
        port = base.free_port()
        cls.url = 'http://127.0.0.1:%d' % port
        config = base.write_config(os.path.join(cls.tmp.path, 'all.conf'), {
            'DEFAULT': {'host': 'cli-test'},
            'api': {'host_ip': '127.0.0.1', 'port': port},
            'database': {'connection': 'sqlite:///%s' % os.path.join(
                cls.tmp.path, 'db.sqlite')},
        })
        argv = base.console_script('ironic-like-all') + ['--config-file',
                                                         config]
        cls.service = base.ServiceProcess('ironic-like-all', argv,
                                          cls.tmp.path)
        cls.service.setUp()
        # Always stopped: SIGTERM, then SIGKILL of its group after a bound.
        cls.addClassCleanup(cls.service.cleanUp)
        cls.max_version = None
        cls.start_error = None

        def answers():
            cls.service.check_running()
            resp = requests.get(cls.url + '/v1', timeout=5)
            if resp.status_code != 200:
                return False
            root = requests.get(cls.url + '/', timeout=5)
            text = root.headers.get(
                'X-OpenStack-Ironic-API-Maximum-Version', '1.1')
            cls.max_version = tuple(int(p) for p in text.split('.'))
            return True
        try:
            base.wait_for(answers, base.START_TIMEOUT,
                          message='ironic-like-all did not answer GET /v1')
        except AssertionError as e:
            cls.start_error = str(e)

    def setUp(self):
        super().setUp()
        if not os.path.exists(OPENSTACK):
            message = ('%s not found: install python-openstackclient '
                       '(test-requirements.txt)' % OPENSTACK)
            if base.CI:
                self.fail(message)
            self.skipTest(message)
        self.watch(self.service)
        if self.start_error:
            self.fail(self.start_error)
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith('OS_')}
        # No clouds.yaml of the user running the tests (openstack also
        # reads one in its working directory).
        self.home = self.useFixture(fixtures.TempDir()).path
        self.env['HOME'] = self.home
        self.env.pop('XDG_CONFIG_HOME', None)
        self.counter = 0
        # Commands run one after another in one Python of the virtualenv,
        # as the console script runs them (openstack_cli.py), without a
        # start-up each; a test of what a user's shell sees (exit codes,
        # one-line errors, OS_* variables, clouds.yaml) sets ``fresh``:
        # each command is then the ``openstack`` executable itself.
        self.fresh = False
        self.server = openstack_cli.OpenStackCLI(sys.executable)
        self.addCleanup(self.server.stop)

    # -- helpers -----------------------------------------------------------

    def cli(self, *args, env=None, auth=True):
        """Run ``openstack [auth options] args``; a CLIResult."""
        argv = []
        if auth:
            argv = ['--os-auth-type', 'none', '--os-endpoint', self.url]
        argv += [str(a) for a in args]
        try:
            if self.fresh:
                proc = subprocess.run(
                    [OPENSTACK] + argv, capture_output=True, text=True,
                    timeout=CLI_TIMEOUT, env=env or self.env, cwd=self.home,
                    stdin=subprocess.DEVNULL)
            else:
                proc = self.server.run(argv, env or self.env, self.home,
                                       CLI_TIMEOUT)
        except subprocess.TimeoutExpired as e:
            self.fail('openstack %s ran for more than %s s: %s'
                      % (' '.join(argv), CLI_TIMEOUT, e.output or ''))
        return CLIResult(argv, proc)

    def ok(self, *args, **kwargs):
        result = self.cli(*args, **kwargs)
        self.assertEqual(0, result.code, result)
        return result

    def ok_json(self, *args, **kwargs):
        return self.ok(*(args + ('-f', 'json')), **kwargs).json()

    def fails(self, *args, **kwargs):
        """Exit code 1 and the error on exactly one line of stderr."""
        result = self.cli(*args, **kwargs)
        self.assertEqual(1, result.code, result)
        lines = result.err.strip().splitlines()
        self.assertEqual(1, len(lines), result)
        return lines[0]

    def name(self, prefix):
        self.counter += 1
        return '%s-%s-%d' % (prefix, self.id().rsplit('.', 1)[-1][5:],
                             self.counter)

    def create_node(self, *extra):
        name = self.name('node')
        node = self.ok_json('baremetal', 'node', 'create', '--driver',
                            'fake-hardware', '--name', name, *extra)
        self.addCleanup(self.cli, 'baremetal', 'node', 'delete',
                        node['uuid'])
        return node

    def show(self, node, *fields):
        args = []
        for field in fields:
            args += ['-c', field]
        return self.ok_json('baremetal', 'node', 'show', node, *args)

    def api_node(self, ident):
        """The node straight from the API (quicker than a CLI run for
        the polls that wait for asynchronous changes)."""
        resp = requests.get('%s/v1/nodes/%s' % (self.url, ident),
                            headers={'X-OpenStack-Ironic-API-Version':
                                     '1.51'}, timeout=10)
        self.assertEqual(200, resp.status_code, resp.text)
        return resp.json()

    def eventually(self, predicate, timeout, message):
        self.assertEventually(predicate, timeout, message=message,
                              interval=0.5)

    # -- nodes -------------------------------------------------------------

    def test_node_create_list_show_set_unset_delete(self):
        node = self.create_node('--property', 'cpus=4', '--extra',
                                'rack=r1', '--driver-info', 'addr=10.0.0.1',
                                '--resource-class', 'cli-gold',
                                '--description', 'made by test_cli')
        self.assertEqual('enroll', node['provision_state'])
        self.assertEqual({'cpus': 4}, node['properties'])
        self.assertEqual({'rack': 'r1'}, node['extra'])
        self.assertEqual('cli-gold', node['resource_class'])
        self.assertNotIn('links', node)
        other = self.create_node()

        listed = self.ok_json('baremetal', 'node', 'list')
        by_uuid = {n['UUID']: n for n in listed}
        self.assertIn(node['uuid'], by_uuid)
        self.assertIn(other['uuid'], by_uuid)
        self.assertEqual(['Instance UUID', 'Maintenance', 'Name',
                          'Power State', 'Provisioning State', 'UUID'],
                         sorted(by_uuid[node['uuid']]))
        self.assertEqual('enroll',
                         by_uuid[node['uuid']]['Provisioning State'])

        # Filters, --long, --fields, value output, paging with --limit.
        listed = self.ok_json('baremetal', 'node', 'list',
                              '--resource-class', 'cli-gold', '--long')
        self.assertEqual([node['uuid']], [n['UUID'] for n in listed])
        self.assertEqual({'cpus': 4}, listed[0]['Properties'])
        listed = self.ok_json('baremetal', 'node', 'list', '--fields',
                              'uuid', 'driver')
        self.assertEqual({'UUID', 'Driver'}, set(listed[0]))
        names = self.ok('baremetal', 'node', 'list', '-f', 'value', '-c',
                        'Name', '--sort', 'name:asc').out.split()
        self.assertEqual(sorted(names), names)
        self.assertIn(node['name'], names)
        self.assertEqual(1, len(self.ok_json('baremetal', 'node', 'list',
                                             '--limit', '1')))

        # show -c, -f value, --fields.
        self.assertEqual(
            'enroll\n', self.ok('baremetal', 'node', 'show', node['name'],
                                '-c', 'provision_state', '-f',
                                'value').out)
        shown = self.ok_json('baremetal', 'node', 'show', node['uuid'],
                             '--fields', 'uuid', 'extra')
        self.assertEqual({'uuid': node['uuid'], 'extra': {'rack': 'r1'}},
                         shown)

        # set (JSON patch add) and unset (remove).
        self.ok('baremetal', 'node', 'set', node['name'], '--property',
                'memory_mb=2048', '--extra', 'owner_team=ops',
                '--owner', 'project-a', '--description', 'changed')
        shown = self.show(node['uuid'], 'properties', 'extra', 'owner',
                          'description')
        self.assertEqual({'cpus': 4, 'memory_mb': 2048},
                         shown['properties'])
        self.assertEqual({'rack': 'r1', 'owner_team': 'ops'},
                         shown['extra'])
        self.assertEqual('project-a', shown['owner'])
        self.assertEqual('changed', shown['description'])
        self.ok('baremetal', 'node', 'unset', node['uuid'], '--property',
                'cpus', '--extra', 'rack', '--owner', '--description')
        shown = self.show(node['uuid'], 'properties', 'extra', 'owner',
                          'description')
        self.assertEqual({'properties': {'memory_mb': 2048},
                          'extra': {'owner_team': 'ops'}, 'owner': None,
                          'description': None}, shown)
        listed = self.ok_json('baremetal', 'node', 'list', '--owner',
                              'project-a')
        self.assertEqual([], listed)

        # Rename, then delete by the new name.
        self.ok('baremetal', 'node', 'set', other['uuid'], '--name',
                'renamed-' + other['name'])
        result = self.ok('baremetal', 'node', 'delete',
                         'renamed-' + other['name'])
        self.assertIn('Deleted node renamed-%s' % other['name'], result.out)
        line = self.fails('baremetal', 'node', 'show', other['uuid'])
        self.assertIn('could not be found', line)

    def test_manage_provide_wait_power_maintenance_traits(self):
        node = self.create_node()
        uuid = node['uuid']
        result = self.ok('baremetal', 'node', 'manage', uuid, '--wait',
                         '60')
        # Not a terminal: no progress line, nothing printed.
        self.assertEqual('', result.out + result.err)
        self.assertEqual('manageable',
                         self.show(uuid)['provision_state'])
        self.ok('baremetal', 'node', 'provide', node['name'], '--wait',
                '60')
        shown = self.show(uuid, 'provision_state', 'target_provision_state')
        self.assertEqual({'provision_state': 'available',
                          'target_provision_state': None}, shown)
        # Back to manageable at once (no transient state) with --wait.
        self.ok('baremetal', 'node', 'manage', uuid, '--wait')
        self.assertEqual('manageable', self.show(uuid)['provision_state'])
        self.ok('baremetal', 'node', 'provide', uuid, '--wait', '60')
        # An action the state machine forbids: one line, exit 1.
        line = self.fails('baremetal', 'node', 'provide', uuid, '--wait')
        self.assertIn('provide', line)
        self.assertIn('available', line)

        # Power.
        self.ok('baremetal', 'node', 'power', 'on', uuid)
        self.eventually(
            lambda: self.api_node(uuid)['power_state'] == 'power on',
            30, 'node %s not powered on' % uuid)
        self.ok('baremetal', 'node', 'power', 'off', uuid,
                '--power-timeout', '10')
        self.eventually(
            lambda: self.api_node(uuid)['power_state'] == 'power off',
            30, 'node %s not powered off' % uuid)
        self.ok('baremetal', 'node', 'reboot', uuid)
        self.eventually(
            lambda: self.api_node(uuid)['power_state'] == 'power on',
            30, 'node %s not on after reboot' % uuid)

        # Maintenance.
        self.ok('baremetal', 'node', 'maintenance', 'set', uuid,
                '--reason', 'fan replaced')
        self.eventually(lambda: self.api_node(uuid)['maintenance'], 30,
                        'node %s not in maintenance' % uuid)
        self.assertEqual('fan replaced', self.show(
            uuid, 'maintenance_reason')['maintenance_reason'])
        listed = self.ok_json('baremetal', 'node', 'list', '--maintenance')
        self.assertIn(uuid, [n['UUID'] for n in listed])
        self.ok('baremetal', 'node', 'maintenance', 'unset', uuid)
        self.eventually(lambda: not self.api_node(uuid)['maintenance'],
                        30, 'node %s still in maintenance' % uuid)
        listed = self.ok_json('baremetal', 'node', 'list', '--maintenance')
        self.assertNotIn(uuid, [n['UUID'] for n in listed])

        # Traits.
        self.ok('baremetal', 'node', 'add', 'trait', uuid, 'CUSTOM_GPU',
                'CUSTOM_FAST')
        traits = self.ok_json('baremetal', 'node', 'trait', 'list', uuid)
        self.assertEqual({'CUSTOM_FAST', 'CUSTOM_GPU'},
                         {t['Traits'] for t in traits})
        self.ok('baremetal', 'node', 'remove', 'trait', uuid, 'CUSTOM_GPU')
        self.assertEqual(['CUSTOM_FAST'], self.show(uuid)['traits'])
        line = self.fails('baremetal', 'node', 'remove', 'trait', uuid,
                          'CUSTOM_NOPE')
        self.assertIn('CUSTOM_NOPE', line)
        self.ok('baremetal', 'node', 'remove', 'trait', uuid, '--all')
        self.assertEqual([], self.show(uuid)['traits'])

    def test_deploy_rebuild_undeploy_clean(self):
        node = self.create_node()
        uuid = node['uuid']
        self.ok('baremetal', 'node', 'manage', uuid, '--wait', '60')
        steps = '[{"interface": "deploy", "step": "erase_devices"}]'
        self.ok('baremetal', 'node', 'clean', uuid, '--clean-steps', steps,
                '--wait', '60')
        self.assertEqual('manageable',
                         self.api_node(uuid)['provision_state'])
        if self.max_version >= (1, 85):
            # A hold step pauses cleaning until "unhold" (API 1.85); the
            # agent carries on with the step after it.
            steps = ('[{"interface": "deploy", "step": "hold"}, '
                     '{"interface": "deploy", "step": "erase_devices"}]')
            self.ok('baremetal', 'node', 'clean', uuid, '--clean-steps',
                    steps)
            self.eventually(
                lambda: self.api_node(uuid)['provision_state'] ==
                'clean hold', 60, 'node %s never held' % uuid)
            self.ok('baremetal', 'node', 'unhold', uuid)
            self.eventually(
                lambda: self.api_node(uuid)['provision_state'] ==
                'manageable', 60, 'node %s never finished cleaning' % uuid)
        self.ok('baremetal', 'node', 'provide', uuid, '--wait', '60')
        self.ok('baremetal', 'node', 'deploy', uuid, '--wait', '60')
        self.assertEqual('active', self.api_node(uuid)['provision_state'])
        line = self.fails('baremetal', 'node', 'abort', uuid)
        self.assertIn('abort', line)

        if self.max_version >= (1, 58):
            # Backfill: an allocation for a node that is already active.
            allocation = self.ok_json('baremetal', 'allocation', 'create',
                                      '--node', node['name'], '--wait',
                                      '30')
            self.assertEqual(('active', uuid), (allocation['state'],
                                                allocation['node_uuid']))
            # Refused while the node is active: one line naming the cause.
            line = self.fails('baremetal', 'allocation', 'delete',
                              allocation['uuid'])
            self.assertIn('active', line)

        self.ok('baremetal', 'node', 'rebuild', uuid, '--wait', '60')
        self.assertEqual('active', self.api_node(uuid)['provision_state'])
        self.ok('baremetal', 'node', 'undeploy', uuid, '--wait', '60')
        self.assertEqual('available',
                         self.api_node(uuid)['provision_state'])
        if self.max_version >= (1, 58):
            # Tearing the node down deleted its allocation.
            line = self.fails('baremetal', 'allocation', 'show',
                              allocation['uuid'])
            self.assertIn('could not be found', line)

    # -- ports -------------------------------------------------------------

    def test_ports(self):
        node = self.create_node()
        other = self.create_node()
        port = self.ok_json('baremetal', 'port', 'create',
                            '52:54:00:12:34:01', '--node', node['name'],
                            '--extra', 'vif=a', '--pxe-enabled', 'false',
                            '--local-link-connection', 'port_id=Eth1/1',
                            '--local-link-connection', 'switch_id='
                            '0a:1b:2c:3d:4e:5f')
        self.addCleanup(self.cli, 'baremetal', 'port', 'delete',
                        port['uuid'])
        self.assertEqual(node['uuid'], port['node_uuid'])
        self.assertFalse(port['pxe_enabled'])
        self.assertEqual({'vif': 'a'}, port['extra'])
        self.assertEqual('Eth1/1', port['local_link_connection']['port_id'])

        listed = self.ok_json('baremetal', 'port', 'list', '--node',
                              node['uuid'])
        self.assertEqual([{'UUID': port['uuid'],
                           'Address': '52:54:00:12:34:01'}], listed)
        self.assertEqual([], self.ok_json('baremetal', 'port', 'list',
                                          '--node', other['name']))
        listed = self.ok_json('baremetal', 'port', 'list', '--long',
                              '--address', '52:54:00:12:34:01')
        self.assertEqual(node['uuid'], listed[0]['Node UUID'])
        self.assertFalse(listed[0]['PXE boot enabled'])

        shown = self.ok_json('baremetal', 'port', 'show', '--address',
                             '52:54:00:12:34:01')
        self.assertEqual(port['uuid'], shown['uuid'])
        self.ok('baremetal', 'port', 'set', port['uuid'], '--node',
                other['name'], '--extra', 'k=v', '--pxe-enabled')
        shown = self.ok_json('baremetal', 'port', 'show', port['uuid'],
                             '-c', 'node_uuid', '-c', 'extra', '-c',
                             'pxe_enabled')
        self.assertEqual({'node_uuid': other['uuid'],
                          'extra': {'vif': 'a', 'k': 'v'},
                          'pxe_enabled': True}, shown)
        self.ok('baremetal', 'port', 'unset', port['uuid'], '--extra',
                'vif')
        self.assertEqual({'k': 'v'}, self.ok_json(
            'baremetal', 'port', 'show', port['uuid'])['extra'])

        line = self.fails('baremetal', 'port', 'create', '52:54:00:12:34:01',
                          '--node', node['uuid'])
        self.assertIn('52:54:00:12:34:01', line)
        result = self.ok('baremetal', 'port', 'delete', port['uuid'])
        self.assertIn('Deleted port %s' % port['uuid'], result.out)
        self.assertEqual([], self.ok_json('baremetal', 'port', 'list',
                                          '--node', other['uuid']))

    # -- drivers and conductors --------------------------------------------

    def test_drivers_and_conductors(self):
        drivers = self.ok_json('baremetal', 'driver', 'list')
        self.assertIn({'Supported driver(s)': 'fake-hardware',
                       'Active host(s)': ['cli-test']}, drivers)
        drivers = self.ok_json('baremetal', 'driver', 'list', '--long')
        fake = [d for d in drivers
                if d['Supported driver(s)'] == 'fake-hardware'][0]
        self.assertEqual('fake', fake['Default Power Interface'])
        shown = self.ok_json('baremetal', 'driver', 'show', 'fake-hardware')
        self.assertEqual(['cli-test'], shown['hosts'])
        line = self.fails('baremetal', 'driver', 'show', 'no-such-driver')
        self.assertIn('no-such-driver', line)

        conductors = self.ok_json('baremetal', 'conductor', 'list')
        self.assertIn({'Hostname': 'cli-test', 'Conductor Group': '',
                       'Alive': True}, conductors)
        conductors = self.ok_json('baremetal', 'conductor', 'list', '--long')
        self.assertEqual(['fake-hardware'], conductors[0]['Drivers'])
        shown = self.ok_json('baremetal', 'conductor', 'show', 'cli-test')
        self.assertTrue(shown['alive'])
        line = self.fails('baremetal', 'conductor', 'show', 'nobody')
        self.assertIn('nobody', line)

    # -- errors, versions, configuration -----------------------------------

    def test_errors_are_one_line(self):
        self.fresh = True
        line = self.fails('baremetal', 'node', 'show', 'no-such-node')
        self.assertEqual('Node no-such-node could not be found. (HTTP 404)',
                         line)
        result = self.cli('baremetal', 'node', 'show', 'no-such-node')
        self.assertEqual('', result.out)
        line = self.fails('baremetal', 'node', 'create', '--driver',
                          'no-such-driver')
        self.assertIn('no-such-driver', line)
        line = self.fails('baremetal', 'node', 'delete', 'no-such-node')
        self.assertIn('no-such-node', line)
        line = self.fails('baremetal', 'node', 'set', 'x', '--property',
                          'novalue')
        self.assertEqual('Expected KEY=VALUE, not "novalue".', line)
        # Nobody listens there.
        dead = 'http://127.0.0.1:%d' % base.free_port()
        line = self.fails('--os-auth-type', 'none', '--os-endpoint', dead,
                          'baremetal', 'node', 'list', auth=False)
        self.assertIn('Unable to connect', line)
        self.assertIn(dead, line)
        # A usage error is argparse's (exit 2).
        result = self.cli('baremetal', 'node', 'create')
        self.assertEqual(2, result.code, result)

    def test_api_version_option(self):
        # Versions from options and OS_BAREMETAL_API_VERSION, as a
        # user's shell gives them.
        self.fresh = True
        node = self.create_node('--owner', 'p1')
        shown = self.ok_json('--os-baremetal-api-version', '1.46',
                             'baremetal', 'node', 'show', node['uuid'])
        self.assertNotIn('owner', shown)
        self.assertIn('conductor_group', shown)
        line = self.fails('--os-baremetal-api-version', '1.40', 'baremetal',
                          'conductor', 'list')
        self.assertIn('1.49', line)
        self.assertIn('1.40 was requested', line)
        self.assertEqual('p1', self.ok_json(
            '--os-baremetal-api-version', 'latest', 'baremetal', 'node',
            'show', node['uuid'])['owner'])
        env = dict(self.env, OS_BAREMETAL_API_VERSION='1.46')
        shown = self.ok_json('baremetal', 'node', 'show', node['uuid'],
                             env=env)
        self.assertNotIn('owner', shown)

    def test_os_environment_and_clouds_yaml(self):
        self.fresh = True
        node = self.create_node()
        env = dict(self.env, OS_AUTH_TYPE='none', OS_ENDPOINT=self.url)
        listed = self.ok_json('baremetal', 'node', 'list', env=env,
                              auth=False)
        self.assertIn(node['uuid'], [n['UUID'] for n in listed])

        clouds = os.path.join(self.home, 'clouds.yaml')
        with open(clouds, 'w') as f:
            f.write('clouds:\n'
                    '  cli-test:\n'
                    '    auth_type: none\n'
                    '    auth:\n'
                    '      endpoint: %s\n'
                    '    baremetal_api_version: "1.46"\n' % self.url)
        env = dict(self.env, OS_CLIENT_CONFIG_FILE=clouds)
        shown = self.ok_json('--os-cloud', 'cli-test', 'baremetal', 'node',
                             'show', node['uuid'], env=env, auth=False)
        self.assertEqual(node['uuid'], shown['uuid'])
        self.assertNotIn('owner', shown)  # 1.46 from clouds.yaml

    # -- allocations -------------------------------------------------------

    def _available_node(self, resource_class, *traits):
        node = self.create_node('--resource-class', resource_class)
        if traits:
            self.ok('baremetal', 'node', 'add', 'trait', node['uuid'],
                    *traits)
        self.ok('baremetal', 'node', 'manage', node['uuid'], '--wait', '60')
        self.ok('baremetal', 'node', 'provide', node['uuid'], '--wait',
                '60')
        return node

    def test_allocations(self):
        if self.max_version < ALLOCATIONS_VERSION:
            self.skipTest('The service speaks API versions up to %d.%d; '
                          'allocations need 1.52 (the allocation API is not '
                          'enabled in the service yet).' % self.max_version)
        rc = self.name('cli-rc').upper().replace('-', '_')
        node = self._available_node(rc, 'CUSTOM_CLI_GPU')
        allocation = self.ok_json(
            'baremetal', 'allocation', 'create', '--resource-class', rc,
            '--trait', 'CUSTOM_CLI_GPU', '--name', 'cli-alloc-1',
            '--extra', 'purpose=test', '--wait', '60')
        self.addCleanup(self.cli, 'baremetal', 'allocation', 'delete',
                        allocation['uuid'])
        self.assertEqual('active', allocation['state'])
        self.assertEqual(node['uuid'], allocation['node_uuid'])
        self.assertEqual(['CUSTOM_CLI_GPU'], allocation['traits'])
        self.assertEqual({'purpose': 'test'}, allocation['extra'])
        shown = self.show(node['uuid'], 'instance_uuid', 'allocation_uuid')
        self.assertEqual({'instance_uuid': allocation['uuid'],
                          'allocation_uuid': allocation['uuid']}, shown)

        listed = self.ok_json('baremetal', 'allocation', 'list', '--state',
                              'active', '--resource-class', rc)
        self.assertEqual([{'UUID': allocation['uuid'],
                           'Name': 'cli-alloc-1', 'Resource Class': rc,
                           'State': 'active', 'Node UUID': node['uuid']}],
                         listed)
        listed = self.ok_json('baremetal', 'allocation', 'list', '--node',
                              node['name'], '--long')
        self.assertEqual([allocation['uuid']], [a['UUID'] for a in listed])
        listed = self.ok_json('baremetal', 'allocation', 'list', '--fields',
                              'uuid', 'state', '--resource-class', rc)
        self.assertEqual([{'UUID': allocation['uuid'], 'State': 'active'}],
                         listed)
        shown = self.ok_json('baremetal', 'allocation', 'show',
                             'cli-alloc-1', '--fields', 'uuid', 'node_uuid')
        self.assertEqual({'uuid': allocation['uuid'],
                          'node_uuid': node['uuid']}, shown)

        self.ok('baremetal', 'allocation', 'set', allocation['uuid'],
                '--name', 'cli-alloc-renamed', '--extra', 'k=v')
        shown = self.ok_json('baremetal', 'allocation', 'show',
                             'cli-alloc-renamed')
        self.assertEqual({'purpose': 'test', 'k': 'v'}, shown['extra'])
        self.ok('baremetal', 'allocation', 'unset', allocation['uuid'],
                '--name', '--extra', 'purpose')
        shown = self.ok_json('baremetal', 'allocation', 'show',
                             allocation['uuid'])
        self.assertIsNone(shown['name'])
        self.assertEqual({'k': 'v'}, shown['extra'])

        # Nothing matches: --wait ends in error, exit 1 with last_error.
        line = self.fails('baremetal', 'allocation', 'create',
                          '--resource-class', rc + '_NONE', '--name',
                          'cli-alloc-doomed', '--wait', '60')
        self.assertIn('failed', line)
        self.assertIn(rc + '_NONE', line)
        failed = self.ok_json('baremetal', 'allocation', 'show',
                              'cli-alloc-doomed')
        self.assertEqual('error', failed['state'])
        self.assertTrue(failed['last_error'])

        result = self.ok('baremetal', 'allocation', 'delete',
                         allocation['uuid'], 'cli-alloc-doomed')
        self.assertIn('Deleted allocation %s' % allocation['uuid'],
                      result.out)
        self.assertIn('Deleted allocation cli-alloc-doomed', result.out)
        shown = self.show(node['uuid'], 'instance_uuid', 'allocation_uuid')
        self.assertEqual({'instance_uuid': None, 'allocation_uuid': None},
                         shown)
        line = self.fails('baremetal', 'allocation', 'show',
                          allocation['uuid'])
        self.assertIn(allocation['uuid'], line)
