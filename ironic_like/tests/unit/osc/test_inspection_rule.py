"""``openstack baremetal inspection rule ...`` (API 1.96): arguments to
requests, and the output of rules in a table."""

from http import server as http_server
import io
import json
import os
import subprocess
import sys
import threading

import fixtures
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import inspection_rule as ir
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes

UUID = '6be26c0b-03f2-4d2e-ae87-c02d7f33c128'
UUID2 = '7be26c0b-03f2-4d2e-ae87-c02d7f33c129'
UUID3 = '8be26c0b-03f2-4d2e-ae87-c02d7f33c12a'
ACTIONS = [{'op': 'set-attribute',
            'args': {'path': '/properties/cpu_arch', 'value': 'x86_64'}},
           {'op': 'add-trait', 'args': ['CUSTOM_GPU'],
            'loop': ['a', 'b']}]
CONDITIONS = [{'op': 'eq', 'args': ['{inventory[cpu][architecture]}',
                                    'x86_64']},
              {'op': '!is-empty', 'args': ['{item}'], 'loop': [1, 2],
               'multiple': 'all'}]
ACTIONS_JSON = json.dumps(ACTIONS)
CONDITIONS_JSON = json.dumps(CONDITIONS)
ACTIONS_YAML = """\
# Set the architecture, add a trait per item.
- op: set-attribute
  args:
    path: /properties/cpu_arch
    value: x86_64
- op: add-trait
  args: [CUSTOM_GPU]
  loop: [a, b]
"""
CONDITIONS_YAML = """\
- op: eq
  args: ['{inventory[cpu][architecture]}', x86_64]
- {op: '!is-empty', args: ['{item}'], loop: [1, 2], multiple: all}
"""
OPENSTACK = os.path.join(os.path.dirname(sys.executable), 'openstack')


def rule(**fields):
    doc = {'uuid': UUID, 'description': 'arch', 'priority': 10,
           'sensitive': False, 'phase': 'main', 'conditions': CONDITIONS,
           'actions': ACTIONS, 'created_at': 'c', 'updated_at': None,
           'links': [{'href': 'x', 'rel': 'self'}]}
    doc.update(fields)
    return doc


def short(doc):
    return {k: doc[k] for k in ('uuid', 'priority', 'phase', 'description',
                                'links')}


class RuleTestCase(base.CommandTestCase):
    """A server of API 1.96, negotiated."""

    MAX_VERSION = '1.96'

    def assertVersion(self, version, request=None):
        request = request or self.last()
        self.assertEqual(version, request.headers[http.VERSION_HEADER])

    def write(self, text, name):
        path = self.useFixture(fixtures.TempDir()).join(name)
        with open(path, 'w') as f:
            f.write(text)
        return path

    def assertFailsUnsent(self, command_class, argv, *messages):
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              command_class, argv)
        for message in messages:
            self.assertIn(message, str(e))
        self.assertEqual([], self.requests())
        return e


class TestVersion(base.CommandTestCase):

    def test_constants(self):
        self.assertEqual((1, 96), http.INSPECTION_RULES)
        self.assertGreaterEqual(http.LAST_KNOWN_VERSION, (1, 96))

    def test_negotiated_by_the_plugin(self):
        # Without any override: the plugin's own LAST_KNOWN_VERSION.
        self.session = fakes.FakeSession('1.999')
        self.client = http.Client(self.session, fakes.ENDPOINT)
        self.app = fakes.FakeApp(self.client)
        self.session.route('GET', '/v1/inspection_rules', fakes.FakeResponse(
            200, {'inspection_rules': []}))
        self.run_command(ir.ListInspectionRule, [])
        self.assertEqual(http.version_string(http.LAST_KNOWN_VERSION),
                         self.last().headers[http.VERSION_HEADER])


class TestCreate(RuleTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('POST', '/v1/inspection_rules',
                           fakes.FakeResponse(201, rule()))

    def test_create_minimal(self):
        shown = self.as_dict(self.run_command(ir.CreateInspectionRule, [
            '--actions', ACTIONS_JSON]))
        self.assertRequest(self.last(), 'POST', '/v1/inspection_rules',
                           body={'actions': ACTIONS})
        self.assertVersion('1.96')
        self.assertEqual(['actions', 'conditions', 'created_at',
                          'description', 'phase', 'priority', 'sensitive',
                          'updated_at', 'uuid'], sorted(shown))
        self.assertEqual(UUID, shown['uuid'])
        self.assertEqual(ACTIONS, shown['actions'].machine_readable())

    def test_create_every_option(self):
        self.run_command(ir.CreateInspectionRule, [
            '--uuid', UUID, '--description', 'arch', '--priority', '10',
            '--sensitive', '--phase', 'main', '--conditions',
            CONDITIONS_JSON, '--actions', ACTIONS_JSON])
        self.assertRequest(self.last(), 'POST', '/v1/inspection_rules',
                           body={'uuid': UUID, 'description': 'arch',
                                 'priority': 10, 'sensitive': True,
                                 'phase': 'main', 'conditions': CONDITIONS,
                                 'actions': ACTIONS})

    def test_create_sensitive_values(self):
        for argv, sensitive in ((['--sensitive'], True),
                                (['--sensitive', 'true'], True),
                                (['--sensitive', 'True'], True),
                                (['--sensitive', 'false'], False),
                                (['--sensitive', 'no'], False)):
            self.run_command(ir.CreateInspectionRule,
                             argv + ['--actions', ACTIONS_JSON])
            self.assertIs(sensitive, self.last().body['sensitive'], argv)
        self.run_command(ir.CreateInspectionRule, ['--actions', '[{}]'])
        self.assertNotIn('sensitive', self.last().body)
        self.assertParseFails(ir.CreateInspectionRule, [
            '--actions', ACTIONS_JSON, '--sensitive', 'maybe'])

    def test_create_priority(self):
        for value in ('0', '9999', '42'):
            self.run_command(ir.CreateInspectionRule, [
                '--actions', ACTIONS_JSON, '--priority', value])
            self.assertEqual(int(value), self.last().body['priority'])
        for value in ('-1', '10000', 'high', '1.5', ''):
            self.assertParseFails(ir.CreateInspectionRule, [
                '--actions', ACTIONS_JSON, '--priority', value])

    def test_create_needs_actions(self):
        self.assertParseFails(ir.CreateInspectionRule, [])
        self.assertParseFails(ir.CreateInspectionRule,
                              ['--conditions', CONDITIONS_JSON])
        # No positional argument.
        self.assertParseFails(ir.CreateInspectionRule,
                              [UUID, '--actions', ACTIONS_JSON])

    def test_create_from_yaml_files(self):
        self.run_command(ir.CreateInspectionRule, [
            '--actions', self.write(ACTIONS_YAML, 'actions.yaml'),
            '--conditions', self.write(CONDITIONS_YAML, 'conditions.yml')])
        self.assertEqual({'actions': ACTIONS, 'conditions': CONDITIONS},
                         self.last().body)

    def test_create_from_json_files(self):
        self.run_command(ir.CreateInspectionRule, [
            '--actions', self.write(ACTIONS_JSON, 'actions.json'),
            '--conditions', self.write(CONDITIONS_JSON, 'conditions')])
        self.assertEqual({'actions': ACTIONS, 'conditions': CONDITIONS},
                         self.last().body)

    def test_create_from_stdin(self):
        self.app.stdin = io.StringIO(ACTIONS_YAML)
        self.run_command(ir.CreateInspectionRule, [
            '--actions', '-', '--conditions', CONDITIONS_JSON])
        self.assertEqual({'actions': ACTIONS, 'conditions': CONDITIONS},
                         self.last().body)
        self.app.stdin = io.StringIO(CONDITIONS_JSON)
        self.run_command(ir.CreateInspectionRule, [
            '--actions', ACTIONS_JSON, '--conditions', '-'])
        self.assertEqual({'actions': ACTIONS, 'conditions': CONDITIONS},
                         self.last().body)

    def test_create_only_one_from_stdin(self):
        self.app.stdin = io.StringIO(ACTIONS_YAML)
        self.assertFailsUnsent(ir.CreateInspectionRule,
                               ['--actions', '-', '--conditions', '-'],
                               'Only one of --conditions and --actions')

    def test_create_bad_operations_unsent(self):
        for argv, message in (
                (['--actions', '{"op": "x"}'], '--actions must be a list'),
                (['--actions', '"text"'], '--actions must be a list'),
                (['--actions', '[1, 2]'], '--actions must be a list'),
                (['--actions', '[]'], 'at least one action'),
                (['--actions', 'not json'], 'neither a file nor JSON'),
                (['--actions', ACTIONS_JSON, '--conditions', '{}'],
                 '--conditions must be a list'),
                (['--actions', ACTIONS_JSON, '--conditions', '[['],
                 'Invalid rule conditions'),
                (['--actions', self.write('- [unclosed', 'bad.yaml')],
                 'Invalid rule actions in')):
            self.assertFailsUnsent(ir.CreateInspectionRule, argv, message)

    def test_create_empty_conditions(self):
        self.run_command(ir.CreateInspectionRule, [
            '--actions', ACTIONS_JSON, '--conditions', '[]'])
        self.assertEqual([], self.last().body['conditions'])

    def test_create_bad_uuid_unsent(self):
        self.assertFailsUnsent(ir.CreateInspectionRule,
                               ['--uuid', 'my-rule', '--actions',
                                ACTIONS_JSON],
                               'rules are named by UUID only')

    def test_create_server_error(self):
        self.session.route('POST', '/v1/inspection_rules', fakes.fault(
            400, 'Unknown action "frobnicate" (action 1).'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              ir.CreateInspectionRule,
                              ['--actions', '[{"op": "frobnicate"}]'])
        self.assertEqual('Unknown action "frobnicate" (action 1). '
                         '(HTTP 400)', str(e))

    def test_create_sensitive_shows_null(self):
        self.session.route('POST', '/v1/inspection_rules',
                           fakes.FakeResponse(201, rule(
                               sensitive=True, conditions=None,
                               actions=None)))
        shown = self.as_dict(self.run_command(ir.CreateInspectionRule, [
            '--sensitive', '--actions', ACTIONS_JSON]))
        self.assertIsNone(shown['actions'])
        self.assertIsNone(shown['conditions'])
        self.assertIs(True, shown['sensitive'])


class TestList(RuleTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('GET', '/v1/inspection_rules', fakes.FakeResponse(
            200, {'inspection_rules': [short(rule())]}))

    def test_list(self):
        titles, rows = self.rows(self.run_command(ir.ListInspectionRule,
                                                  []))
        self.assertEqual(('UUID', 'Description'), titles)
        self.assertEqual([(UUID, 'arch')], rows)
        self.assertRequest(self.last(), 'GET', '/v1/inspection_rules',
                           params={})
        self.assertVersion('1.96')

    def test_list_long(self):
        self.session.route('GET', '/v1/inspection_rules', fakes.FakeResponse(
            200, {'inspection_rules': [rule(), rule(
                uuid=UUID2, sensitive=True, conditions=None,
                actions=None)]}))
        titles, rows = self.rows(self.run_command(ir.ListInspectionRule,
                                                  ['--long']))
        self.assertEqual({'detail': 'True'}, self.last().params)
        self.assertEqual(('UUID', 'Description', 'Priority', 'Sensitive',
                          'Phase', 'Actions', 'Conditions', 'Created At',
                          'Updated At'), titles)
        self.assertEqual((UUID, 'arch', 10, False, 'main', ACTIONS,
                          CONDITIONS, 'c', None), rows[0])
        self.assertEqual((None, None), rows[1][5:7])

    def test_list_long_no_rules(self):
        self.session.route('GET', '/v1/inspection_rules', fakes.FakeResponse(
            200, {'inspection_rules': []}))
        titles, rows = self.rows(self.run_command(ir.ListInspectionRule,
                                                  ['--long']))
        self.assertEqual('UUID', titles[0])
        self.assertEqual([], rows)

    def test_list_fields(self):
        titles, rows = self.rows(self.run_command(ir.ListInspectionRule, [
            '--fields', 'uuid', 'priority', '--fields', 'phase']))
        self.assertEqual({'fields': 'uuid,priority,phase'},
                         self.last().params)
        self.assertEqual(('UUID', 'Priority', 'Phase'), titles)
        self.assertEqual([(UUID, 10, 'main')], rows)

    def test_list_paging_and_sort(self):
        self.run_command(ir.ListInspectionRule, [
            '--limit', '5', '--marker', UUID2, '--sort', 'priority:desc'])
        self.assertEqual({'limit': 5, 'marker': UUID2,
                          'sort_key': 'priority', 'sort_dir': 'desc'},
                         self.last().params)

    def test_list_follows_next(self):
        self.session.route('GET', '/v1/inspection_rules', fakes.FakeResponse(
            200, {'inspection_rules': [short(rule())],
                  'next': fakes.ENDPOINT + '/v1/inspection_rules?marker='
                  + UUID}), fakes.FakeResponse(
            200, {'inspection_rules': [short(rule(uuid=UUID2))]}))
        _titles, rows = self.rows(self.run_command(ir.ListInspectionRule,
                                                   []))
        self.assertEqual([UUID, UUID2], [r[0] for r in rows])
        self.assertEqual({'marker': UUID}, self.last().params)

    def test_list_argument_errors(self):
        self.assertParseFails(ir.ListInspectionRule,
                              ['--long', '--fields', 'uuid'])
        self.assertParseFails(ir.ListInspectionRule, ['--limit', 'x'])
        # Only the stock client's options.
        self.assertParseFails(ir.ListInspectionRule, ['--phase', 'main'])
        self.assertFailsUnsent(ir.ListInspectionRule, ['--limit', '-1'],
                               '--limit must be 0 or more')
        self.assertFailsUnsent(ir.ListInspectionRule,
                               ['--sort', 'priority:up'],
                               'Invalid sort direction')


class TestTableOutput(RuleTestCase):
    """Lists of objects (actions, conditions) in the table format."""

    def run_formatted(self, command_class, argv):
        cmd = self.make(command_class)
        parsed = cmd.get_parser('openstack baremetal test').parse_args(argv)
        self.assertEqual(0, cmd.run(parsed))
        return self.app.stdout.getvalue()

    def test_list_long_table(self):
        self.session.route('GET', '/v1/inspection_rules', fakes.FakeResponse(
            200, {'inspection_rules': [rule(), rule(
                uuid=UUID2, sensitive=True, conditions=None,
                actions=None)]}))
        out = self.run_formatted(ir.ListInspectionRule,
                                 ['--long', '-f', 'table'])
        for op in ACTIONS + CONDITIONS:
            self.assertIn(json.dumps(op), out)
        self.assertIn(UUID2, out)
        self.assertEqual(
            '{"op": "set-attribute", "args": {"path": '
            '"/properties/cpu_arch", "value": "x86_64"}}\n'
            '{"op": "add-trait", "args": ["CUSTOM_GPU"], "loop": '
            '["a", "b"]}', common.formatted(ACTIONS).human_readable())

    def test_list_long_json_unchanged(self):
        self.session.route('GET', '/v1/inspection_rules', fakes.FakeResponse(
            200, {'inspection_rules': [rule()]}))
        out = json.loads(self.run_formatted(ir.ListInspectionRule,
                                            ['--long', '-f', 'json']))
        self.assertEqual(ACTIONS, out[0]['Actions'])
        self.assertEqual(CONDITIONS, out[0]['Conditions'])

    def test_show_table(self):
        self.session.route('GET', '/v1/inspection_rules/' + UUID,
                           fakes.FakeResponse(200, rule()))
        out = self.run_formatted(ir.ShowInspectionRule, [UUID])
        for op in ACTIONS + CONDITIONS:
            self.assertIn(json.dumps(op), out)

    def test_openstack_list_long_table(self):
        """The real ``openstack`` executable against a local server."""
        if not os.path.exists(OPENSTACK):
            self.skipTest('%s not found' % OPENSTACK)
        body = json.dumps({'inspection_rules': [
            rule(), rule(uuid=UUID2, sensitive=True, conditions=None,
                         actions=None)]}).encode()
        seen = []

        class Handler(http_server.BaseHTTPRequestHandler):
            def do_GET(self):
                seen.append((self.path,
                             self.headers.get(http.VERSION_HEADER)))
                self.send_response(200)
                self.send_header(http.MAX_VERSION_HEADER, '1.96')
                self.send_header(http.MIN_VERSION_HEADER, '1.1')
                self.send_header('Content-Type', 'application/json')
                data = body if 'inspection_rules' in self.path else b'{}'
                self.send_header('Content-Length', str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        server = http_server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        self.addCleanup(thread.join, 10)
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        home = self.useFixture(fixtures.TempDir()).path
        env = {k: v for k, v in os.environ.items()
               if not k.startswith('OS_') and k != 'XDG_CONFIG_HOME'}
        env['HOME'] = home
        proc = subprocess.run(
            [OPENSTACK, '--os-auth-type', 'none', '--os-endpoint',
             'http://127.0.0.1:%d' % server.server_address[1],
             'baremetal', 'inspection', 'rule', 'list', '--long'],
            capture_output=True, text=True, timeout=120, env=env, cwd=home,
            stdin=subprocess.DEVNULL)
        self.assertEqual(0, proc.returncode, proc.stderr)
        self.assertNotIn('Traceback', proc.stderr)
        self.assertIn('| UUID', proc.stdout)
        self.assertIn('"op": "set-attribute"', proc.stdout)
        self.assertIn('"op": "!is-empty"', proc.stdout)
        self.assertIn(UUID2, proc.stdout)
        self.assertIn(('/v1/inspection_rules?detail=True', '1.96'), seen)


class TestShow(RuleTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('GET', '/v1/inspection_rules/' + UUID,
                           fakes.FakeResponse(200, rule()))

    def test_show(self):
        shown = self.as_dict(self.run_command(ir.ShowInspectionRule,
                                              [UUID]))
        self.assertRequest(self.last(), 'GET', '/v1/inspection_rules/'
                           + UUID, params={})
        self.assertVersion('1.96')
        self.assertNotIn('links', shown)
        self.assertEqual(['actions', 'conditions', 'created_at',
                          'description', 'phase', 'priority', 'sensitive',
                          'updated_at', 'uuid'], sorted(shown))
        self.assertEqual(CONDITIONS, shown['conditions'].machine_readable())

    def test_show_fields(self):
        self.session.route('GET', '/v1/inspection_rules/' + UUID,
                           fakes.FakeResponse(200, {'uuid': UUID,
                                                    'actions': ACTIONS}))
        shown = self.as_dict(self.run_command(ir.ShowInspectionRule, [
            UUID, '--fields', 'uuid', 'actions']))
        self.assertEqual({'fields': 'uuid,actions'}, self.last().params)
        self.assertEqual(['actions', 'uuid'], sorted(shown))

    def test_show_sensitive(self):
        self.session.route('GET', '/v1/inspection_rules/' + UUID,
                           fakes.FakeResponse(200, rule(
                               sensitive=True, conditions=None,
                               actions=None)))
        shown = self.as_dict(self.run_command(ir.ShowInspectionRule,
                                              [UUID]))
        self.assertIsNone(shown['actions'])

    def test_show_not_a_uuid(self):
        self.assertFailsUnsent(ir.ShowInspectionRule, ['my-rule'],
                               'Invalid inspection rule "my-rule": rules '
                               'are named by UUID only.')
        self.assertParseFails(ir.ShowInspectionRule, [])

    def test_show_not_found(self):
        self.session.route('GET', '/v1/inspection_rules/' + UUID2,
                           fakes.fault(404, 'Inspection rule %s could not '
                                       'be found.' % UUID2))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              ir.ShowInspectionRule, [UUID2])
        self.assertIn('could not be found. (HTTP 404)', str(e))


class TestSetUnset(RuleTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('PATCH', '/v1/inspection_rules/' + UUID,
                           fakes.FakeResponse(200, rule()))

    def test_set_every_option(self):
        self.run_command(ir.SetInspectionRule, [
            UUID, '--description', 'new', '--priority', '20', '--phase',
            'main', '--conditions', CONDITIONS_JSON, '--actions',
            ACTIONS_JSON])
        self.assertRequest(self.last(), 'PATCH',
                           '/v1/inspection_rules/' + UUID, body=[
                               {'op': 'add', 'path': '/description',
                                'value': 'new'},
                               {'op': 'add', 'path': '/priority',
                                'value': 20},
                               {'op': 'add', 'path': '/phase',
                                'value': 'main'},
                               {'op': 'add', 'path': '/actions',
                                'value': ACTIONS},
                               {'op': 'add', 'path': '/conditions',
                                'value': CONDITIONS}])
        self.assertVersion('1.96')

    def test_set_strings_stay_strings(self):
        self.run_command(ir.SetInspectionRule,
                         [UUID, '--description', '123'])
        self.assertEqual([{'op': 'add', 'path': '/description',
                           'value': '123'}], self.last().body)

    def test_set_from_files_and_stdin(self):
        self.run_command(ir.SetInspectionRule, [
            UUID, '--actions', self.write(ACTIONS_YAML, 'a.yaml'),
            '--conditions', self.write(CONDITIONS_JSON, 'c.json')])
        self.assertEqual([{'op': 'add', 'path': '/actions',
                           'value': ACTIONS},
                          {'op': 'add', 'path': '/conditions',
                           'value': CONDITIONS}], self.last().body)
        self.app.stdin = io.StringIO(CONDITIONS_YAML)
        self.run_command(ir.SetInspectionRule, [UUID, '--conditions', '-'])
        self.assertEqual([{'op': 'add', 'path': '/conditions',
                           'value': CONDITIONS}], self.last().body)
        self.run_command(ir.SetInspectionRule, [UUID, '--conditions', '[]'])
        self.assertEqual([{'op': 'add', 'path': '/conditions',
                           'value': []}], self.last().body)

    def test_set_errors_unsent(self):
        for argv, message in (([], 'Nothing to set'),
                              (['--actions', '[]'], 'at least one action'),
                              (['--conditions', '{}'], 'must be a list'),
                              (['--actions', '-', '--conditions', '-'],
                               'Only one of')):
            self.assertFailsUnsent(ir.SetInspectionRule, [UUID] + argv,
                                   message)
        self.assertFailsUnsent(ir.SetInspectionRule,
                               ['name', '--description', 'x'],
                               'named by UUID only')
        self.assertParseFails(ir.SetInspectionRule, [])
        self.assertParseFails(ir.SetInspectionRule,
                              [UUID, '--priority', '10000'])
        # Only the stock client's options: no --sensitive.
        self.assertParseFails(ir.SetInspectionRule, [UUID, '--sensitive'])

    def test_unset(self):
        self.run_command(ir.UnsetInspectionRule, [
            UUID, '--description', '--priority', '--phase'])
        self.assertRequest(self.last(), 'PATCH',
                           '/v1/inspection_rules/' + UUID, body=[
                               {'op': 'remove', 'path': '/description'},
                               {'op': 'remove', 'path': '/priority'},
                               {'op': 'remove', 'path': '/phase'}])
        self.assertVersion('1.96')

    def test_unset_conditions_and_actions_by_index(self):
        self.run_command(ir.UnsetInspectionRule, [
            UUID, '--condition', '0', '--condition', '2', '--action', '1',
            '--condition', '2'])
        # Highest first, each once: the indexes are those of the rule as
        # shown.
        self.assertEqual([{'op': 'remove', 'path': '/conditions/2'},
                          {'op': 'remove', 'path': '/conditions/0'},
                          {'op': 'remove', 'path': '/actions/1'}],
                         self.last().body)

    def test_unset_errors(self):
        self.assertFailsUnsent(ir.UnsetInspectionRule, [UUID],
                               'Nothing to unset')
        self.assertFailsUnsent(ir.UnsetInspectionRule,
                               ['x', '--description'], 'named by UUID')
        for argv in (['--condition', '-1'], ['--action', 'first'],
                     ['--condition'], ['--description', 'text'],
                     ['--sensitive']):
            self.assertParseFails(ir.UnsetInspectionRule, [UUID] + argv)

    def test_set_server_error(self):
        self.session.route('PATCH', '/v1/inspection_rules/' + UUID,
                           fakes.fault(400, 'Invalid priority'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              ir.SetInspectionRule,
                              [UUID, '--priority', '1'])
        self.assertEqual('Invalid priority (HTTP 400)', str(e))


class TestDelete(RuleTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('DELETE', '/v1/inspection_rules/.*',
                           fakes.FakeResponse(204))

    def test_delete(self):
        self.run_command(ir.DeleteInspectionRule, [UUID, UUID2])
        self.assertEqual([('DELETE', '/v1/inspection_rules/' + UUID),
                          ('DELETE', '/v1/inspection_rules/' + UUID2)],
                         [(r.method, r.path) for r in self.requests()])
        self.assertVersion('1.96')
        self.assertEqual('Deleted rule %s\nDeleted rule %s\n'
                         % (UUID, UUID2), self.app.stdout.getvalue())

    def test_delete_reports_each_failure(self):
        self.session.route('DELETE', '/v1/inspection_rules/' + UUID2,
                           fakes.fault(404, 'Inspection rule not found.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              ir.DeleteInspectionRule,
                              [UUID2, 'my-rule', UUID, UUID3])
        # Every UUID was tried, the others went; the name was never sent.
        self.assertEqual(['/v1/inspection_rules/' + u
                          for u in (UUID2, UUID, UUID3)],
                         [r.path for r in self.requests()])
        self.assertEqual('Deleted rule %s\nDeleted rule %s\n'
                         % (UUID, UUID3), self.app.stdout.getvalue())
        self.assertIn('rule %s: Inspection rule not found. (HTTP 404)'
                      % UUID2, str(e))
        self.assertIn('rule my-rule: Invalid inspection rule "my-rule": '
                      'rules are named by UUID only.', str(e))
        self.assertTrue(str(e).startswith('Failed to delete '))

    def test_delete_needs_one(self):
        self.assertParseFails(ir.DeleteInspectionRule, [])
        # python-ironicclient 6.3.0 has no --all.
        self.assertParseFails(ir.DeleteInspectionRule, ['--all'])


def _every_command():
    return ((ir.CreateInspectionRule, ['--actions', ACTIONS_JSON]),
            (ir.ListInspectionRule, []),
            (ir.ListInspectionRule, ['--long']),
            (ir.ShowInspectionRule, [UUID]),
            (ir.SetInspectionRule, [UUID, '--priority', '1']),
            (ir.UnsetInspectionRule, [UUID, '--description']),
            (ir.DeleteInspectionRule, [UUID]))


class TestOldServer(RuleTestCase):

    MAX_VERSION = '1.95'

    def test_refused(self):
        for command_class, argv in _every_command():
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  command_class, argv)
            self.assertIn('Inspection rule commands: API version 1.96 or '
                          'later is needed, but the server supports '
                          'versions up to 1.95', str(e))
        # Only the version negotiation (GET /), once.
        self.assertEqual([], self.requests())
        self.assertEqual(['/'], [r.path for r in self.session.requests])


class TestRequestedVersion(RuleTestCase):
    """--os-baremetal-api-version: sent as asked, no negotiation."""

    REQUESTED_VERSION = (1, 96)

    def test_sent(self):
        self.session.route('GET', '/v1/inspection_rules', fakes.FakeResponse(
            200, {'inspection_rules': []}))
        self.run_command(ir.ListInspectionRule, [])
        self.assertEqual(['1.96'], [r.headers[http.VERSION_HEADER]
                                    for r in self.session.requests])

    def test_older_refused(self):
        self.client = http.Client(self.session, fakes.ENDPOINT, (1, 95))
        self.app = fakes.FakeApp(self.client)
        for command_class, argv in _every_command():
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  command_class, argv)
            self.assertIn('version 1.95 was requested', str(e))
        self.assertEqual([], self.session.requests)
