"""``openstack baremetal runbook ...`` and ``node clean/service
--runbook`` (API 1.92): arguments to requests."""

import io

import fixtures
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import node as node_cmds
from ironic_like.osc.v1 import runbook as rb
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes

UUID = '6be26c0b-03f2-4d2e-ae87-c02d7f33c128'
UUID2 = '7be26c0b-03f2-4d2e-ae87-c02d7f33c129'
STEPS = [{'interface': 'bios', 'step': 'apply_configuration',
          'args': {'settings': []}, 'order': 1}]
STEPS_JSON = ('[{"interface": "bios", "step": "apply_configuration", '
              '"args": {"settings": []}, "order": 1}]')
STEPS_YAML = ('- interface: bios\n  step: apply_configuration\n'
              '  args: {settings: []}\n  order: 1\n')


def runbook(**fields):
    doc = {'uuid': UUID, 'name': 'CUSTOM_FW', 'steps': STEPS,
           'disable_ramdisk': False, 'extra': {}, 'public': False,
           'owner': None, 'created_at': 'c', 'updated_at': None,
           'links': [{'href': 'x', 'rel': 'self'}]}
    doc.update(fields)
    return doc


class RunbookTestCase(base.CommandTestCase):
    """A server of API 1.92, negotiated."""

    MAX_VERSION = '1.92'

    def setUp(self):
        super().setUp()
        # Negotiation never goes above the plugin's LAST_KNOWN_VERSION;
        # these tests must not depend on when that reaches 1.92.
        self.client.last_known = max(http.LAST_KNOWN_VERSION, http.RUNBOOKS)

    def assertVersion(self, version, request=None):
        request = request or self.last()
        self.assertEqual(version, request.headers[http.VERSION_HEADER])

    def steps_file(self, text=STEPS_YAML, name='steps.yaml'):
        path = self.useFixture(fixtures.TempDir()).join(name)
        with open(path, 'w') as f:
            f.write(text)
        return path


class TestCreate(RunbookTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('POST', '/v1/runbooks',
                           fakes.FakeResponse(201, runbook()))

    def test_create_minimal(self):
        shown = self.as_dict(self.run_command(rb.CreateRunbook, [
            '--name', 'CUSTOM_FW', '--steps', STEPS_JSON]))
        self.assertRequest(self.last(), 'POST', '/v1/runbooks',
                           body={'name': 'CUSTOM_FW', 'steps': STEPS})
        self.assertVersion('1.92')
        self.assertEqual('CUSTOM_FW', shown['name'])
        self.assertEqual(UUID, shown['uuid'])
        self.assertNotIn('links', shown)

    def test_create_every_option(self):
        self.run_command(rb.CreateRunbook, [
            '--name', 'CUSTOM_FW', '--steps', STEPS_JSON, '--uuid', UUID,
            '--public', 'true', '--owner', 'proj', '--extra', 'a=1',
            '--extra', 'b=text', '--disable-ramdisk'])
        self.assertRequest(self.last(), 'POST', '/v1/runbooks', body={
            'name': 'CUSTOM_FW', 'steps': STEPS, 'uuid': UUID,
            'public': True, 'owner': 'proj',
            'extra': {'a': 1, 'b': 'text'}, 'disable_ramdisk': True})

    def test_create_public_values(self):
        for argv, public in ((['--public'], True),
                             (['--public', 'false'], False),
                             (['--public', 'False'], False),
                             (['--public', 'yes'], True)):
            self.run_command(rb.CreateRunbook, [
                '--name', 'CUSTOM_FW', '--steps', STEPS_JSON] + argv)
            self.assertIs(public, self.last().body['public'], argv)

    def test_create_invalid_public(self):
        self.assertParseFails(rb.CreateRunbook, [
            '--name', 'CUSTOM_FW', '--steps', '[]', '--public', 'maybe'])

    def test_create_disable_ramdisk_is_a_flag(self):
        self.assertParseFails(rb.CreateRunbook, [
            '--name', 'CUSTOM_FW', '--steps', '[]', '--disable-ramdisk',
            'true'])

    def test_create_steps_from_file(self):
        self.run_command(rb.CreateRunbook, [
            '--name', 'CUSTOM_FW', '--steps', self.steps_file()])
        self.assertEqual(STEPS, self.last().body['steps'])

    def test_create_steps_from_json_file(self):
        self.run_command(rb.CreateRunbook, [
            '--name', 'CUSTOM_FW', '--steps',
            self.steps_file(STEPS_JSON, 'steps.json')])
        self.assertEqual(STEPS, self.last().body['steps'])

    def test_create_steps_from_stdin(self):
        self.app.stdin = io.StringIO(STEPS_YAML)
        self.run_command(rb.CreateRunbook,
                         ['--name', 'CUSTOM_FW', '--steps', '-'])
        self.assertEqual(STEPS, self.last().body['steps'])

    def test_create_needs_name_and_steps(self):
        self.assertParseFails(rb.CreateRunbook, ['--steps', '[]'])
        self.assertParseFails(rb.CreateRunbook, ['--name', 'CUSTOM_FW'])
        # The name is an option, not an argument.
        self.assertParseFails(rb.CreateRunbook,
                              ['CUSTOM_FW', '--steps', '[]'])

    def test_create_bad_steps_no_request(self):
        for steps in ('{"a": 1}', 'not json', '"text"'):
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  rb.CreateRunbook,
                                  ['--name', 'CUSTOM_X', '--steps', steps])
            self.assertIn('steps', str(e))
        self.assertEqual([], self.session.requests)

    def test_create_bad_extra(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          rb.CreateRunbook, ['--name', 'CUSTOM_X',
                                             '--steps', '[]',
                                             '--extra', 'novalue'])
        self.assertEqual([], self.requests())

    def test_create_server_error(self):
        self.session.route('POST', '/v1/runbooks', fakes.fault(
            400, 'Invalid trait name: lowercase'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              rb.CreateRunbook,
                              ['--name', 'lowercase', '--steps', '[]'])
        self.assertEqual('Invalid trait name: lowercase (HTTP 400)', str(e))


class TestList(RunbookTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('GET', '/v1/runbooks', fakes.FakeResponse(
            200, {'runbooks': [runbook()]}))

    def test_list(self):
        titles, rows = self.rows(self.run_command(rb.ListRunbook, []))
        self.assertEqual(('UUID', 'Name'), titles)
        self.assertEqual([(UUID, 'CUSTOM_FW')], rows)
        self.assertRequest(self.last(), 'GET', '/v1/runbooks', params={})
        self.assertVersion('1.92')

    def test_list_long_and_paging(self):
        titles, rows = self.rows(self.run_command(rb.ListRunbook, [
            '--long', '--limit', '2', '--marker', UUID,
            '--sort', 'name:desc']))
        self.assertRequest(self.last(), 'GET', '/v1/runbooks',
                           params={'detail': 'True', 'limit': 2,
                                   'marker': UUID, 'sort_key': 'name',
                                   'sort_dir': 'desc'})
        self.assertEqual(('UUID', 'Name', 'Disable Ramdisk', 'Owner',
                          'Public', 'Steps', 'Extra', 'Created At',
                          'Updated At'), titles)
        self.assertEqual(UUID, rows[0][0])
        self.assertEqual(STEPS, rows[0][5])

    def test_list_fields(self):
        titles, _rows = self.rows(self.run_command(
            rb.ListRunbook, ['--fields', 'uuid,public', '--fields',
                             'owner']))
        self.assertEqual({'fields': 'uuid,public,owner'}, self.last().params)
        self.assertEqual(('UUID', 'Public', 'Owner'), titles)

    def test_list_long_or_fields(self):
        self.assertParseFails(rb.ListRunbook,
                              ['--long', '--fields', 'uuid'])

    def test_list_bad_sort_and_limit(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          rb.ListRunbook, ['--sort', 'name:up'])
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          rb.ListRunbook, ['--limit', '-1'])
        self.assertParseFails(rb.ListRunbook, ['--limit', 'x'])
        self.assertEqual([], self.requests())

    def test_list_follows_pages(self):
        self.session.route('GET', '/v1/runbooks', fakes.FakeResponse(
            200, {'runbooks': [runbook()],
                  'next': fakes.ENDPOINT + '/v1/runbooks?marker=' + UUID}),
            fakes.FakeResponse(200, {'runbooks': [
                runbook(uuid=UUID2, name='CUSTOM_B')]}))
        _titles, rows = self.rows(self.run_command(rb.ListRunbook, []))
        self.assertEqual([(UUID, 'CUSTOM_FW'), (UUID2, 'CUSTOM_B')], rows)
        self.assertEqual([{}, {'marker': UUID}],
                         [r.params for r in self.requests()])


class TestShowSetUnsetDelete(RunbookTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('GET', '/v1/runbooks/CUSTOM_FW',
                           fakes.FakeResponse(200, runbook()))
        self.session.route('PATCH', '/v1/runbooks/CUSTOM_FW',
                           fakes.FakeResponse(200, runbook()))
        self.session.route('DELETE', '/v1/runbooks/.*',
                           fakes.FakeResponse(204))

    def test_show(self):
        shown = self.as_dict(self.run_command(rb.ShowRunbook,
                                              ['CUSTOM_FW']))
        self.assertEqual(UUID, shown['uuid'])
        self.assertNotIn('links', shown)
        self.assertEqual(['created_at', 'disable_ramdisk', 'extra', 'name',
                          'owner', 'public', 'steps', 'updated_at',
                          'uuid'], sorted(shown))
        self.assertRequest(self.last(), 'GET', '/v1/runbooks/CUSTOM_FW',
                           params={})
        self.assertVersion('1.92')

    def test_steps_readable_in_a_table(self):
        # A list of objects: readable, and unchanged in json/yaml.
        shown = self.as_dict(self.run_command(rb.ShowRunbook,
                                              ['CUSTOM_FW']))
        self.assertEqual(STEPS, shown['steps'].machine_readable())
        self.assertEqual(STEPS_JSON[1:-1], shown['steps'].human_readable())
        self.session.route('GET', '/v1/runbooks', fakes.FakeResponse(
            200, {'runbooks': [runbook()]}))
        titles, rows = self.run_command(rb.ListRunbook, ['--long'])
        steps = list(rows)[0][titles.index('Steps')]
        self.assertEqual(STEPS_JSON[1:-1], steps.human_readable())
        self.session.route('POST', '/v1/runbooks',
                           fakes.FakeResponse(201, runbook()))
        shown = self.as_dict(self.run_command(rb.CreateRunbook, [
            '--name', 'CUSTOM_FW', '--steps', STEPS_JSON]))
        self.assertEqual(STEPS_JSON[1:-1], shown['steps'].human_readable())
        self.assertEqual('', common.JsonLinesColumn([]).human_readable())
        self.assertEqual('{"step": "a"}\n{"step": "b"}',
                         common.JsonLinesColumn([{'step': 'a'},
                                                 {'step': 'b'}])
                         .human_readable())

    def test_show_fields(self):
        self.session.route('GET', '/v1/runbooks/CUSTOM_FW',
                           fakes.FakeResponse(200, {'uuid': UUID,
                                                    'steps': STEPS}))
        shown = self.as_dict(self.run_command(rb.ShowRunbook, [
            'CUSTOM_FW', '--fields', 'uuid', 'steps']))
        self.assertEqual({'fields': 'uuid,steps'}, self.last().params)
        self.assertEqual(['steps', 'uuid'], sorted(shown))

    def test_show_quotes_ident(self):
        self.session.route('GET', '/v1/runbooks/a%2Fb',
                           fakes.FakeResponse(200, runbook()))
        self.run_command(rb.ShowRunbook, ['a/b'])
        self.assertEqual('/v1/runbooks/a%2Fb', self.last().path)

    def test_show_not_found(self):
        self.session.route('GET', '/v1/runbooks/nope', fakes.fault(
            404, 'Runbook nope could not be found.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              rb.ShowRunbook, ['nope'])
        self.assertIn('Runbook nope could not be found. (HTTP 404)', str(e))

    def test_set_every_option(self):
        self.run_command(rb.SetRunbook, [
            'CUSTOM_FW', '--name', 'CUSTOM_FW2', '--public', 'true',
            '--owner', 'proj', '--steps', STEPS_JSON, '--extra', 'k=v',
            '--extra', 'n=2', '--disable-ramdisk'])
        self.assertRequest(self.last(), 'PATCH', '/v1/runbooks/CUSTOM_FW',
                           body=[
                               {'op': 'add', 'path': '/name',
                                'value': 'CUSTOM_FW2'},
                               {'op': 'add', 'path': '/owner',
                                'value': 'proj'},
                               {'op': 'add', 'path': '/public',
                                'value': True},
                               {'op': 'add', 'path': '/extra/k',
                                'value': 'v'},
                               {'op': 'add', 'path': '/extra/n',
                                'value': 2},
                               {'op': 'add', 'path': '/disable_ramdisk',
                                'value': True},
                               {'op': 'add', 'path': '/steps',
                                'value': STEPS}])
        self.assertVersion('1.92')

    def test_set_booleans(self):
        for argv, path, value in (
                (['--public'], '/public', True),
                (['--public', 'false'], '/public', False),
                (['--disable-ramdisk', 'false'], '/disable_ramdisk', False),
                (['--disable-ramdisk', 'true'], '/disable_ramdisk', True)):
            self.run_command(rb.SetRunbook, ['CUSTOM_FW'] + argv)
            self.assertEqual([{'op': 'add', 'path': path, 'value': value}],
                             self.last().body, argv)
        self.assertParseFails(rb.SetRunbook,
                              ['CUSTOM_FW', '--disable-ramdisk', 'maybe'])
        self.assertParseFails(rb.SetRunbook,
                              ['CUSTOM_FW', '--public', 'maybe'])

    def test_set_steps_from_file(self):
        self.run_command(rb.SetRunbook,
                         ['CUSTOM_FW', '--steps', self.steps_file()])
        self.assertEqual([{'op': 'add', 'path': '/steps', 'value': STEPS}],
                         self.last().body)

    def test_set_bad_steps_or_nothing(self):
        for argv in ([], ['--steps', '{}'], ['--steps', 'not json']):
            self.assertRaises(osc_exc.CommandError, self.run_command,
                              rb.SetRunbook, ['CUSTOM_FW'] + argv)
        self.assertEqual([], self.session.requests)
        self.assertParseFails(rb.SetRunbook, [])

    def test_unset(self):
        self.run_command(rb.UnsetRunbook, [
            'CUSTOM_FW', '--extra', 'k', '--extra', 'j', '--owner',
            '--public', '--disable-ramdisk'])
        self.assertRequest(self.last(), 'PATCH', '/v1/runbooks/CUSTOM_FW',
                           body=[
                               {'op': 'remove', 'path': '/owner'},
                               {'op': 'remove', 'path': '/public'},
                               {'op': 'remove', 'path': '/disable_ramdisk'},
                               {'op': 'remove', 'path': '/extra/k'},
                               {'op': 'remove', 'path': '/extra/j'}])
        self.assertVersion('1.92')

    def test_unset_nothing(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          rb.UnsetRunbook, ['CUSTOM_FW'])
        self.assertEqual([], self.session.requests)
        # Flags, not values.
        self.assertParseFails(rb.UnsetRunbook,
                              ['CUSTOM_FW', '--owner', 'proj'])

    def test_delete(self):
        self.run_command(rb.DeleteRunbook, ['CUSTOM_FW', UUID])
        self.assertEqual([('DELETE', '/v1/runbooks/CUSTOM_FW'),
                          ('DELETE', '/v1/runbooks/' + UUID)],
                         [(r.method, r.path) for r in self.requests()])
        self.assertVersion('1.92')
        self.assertEqual('Deleted runbook CUSTOM_FW\nDeleted runbook %s\n'
                         % UUID, self.app.stdout.getvalue())

    def test_delete_reports_each_failure(self):
        self.session.route('DELETE', '/v1/runbooks/(bad1|bad2)',
                           fakes.fault(404, 'Runbook not found.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              rb.DeleteRunbook, ['bad1', 'CUSTOM_FW',
                                                 'bad2'])
        # Every runbook was tried; the good one went.
        self.assertEqual(3, len(self.requests()))
        self.assertEqual('Deleted runbook CUSTOM_FW\n',
                         self.app.stdout.getvalue())
        self.assertIn('runbook bad1: Runbook not found. (HTTP 404)', str(e))
        self.assertIn('runbook bad2: Runbook not found. (HTTP 404)', str(e))

    def test_delete_needs_one(self):
        self.assertParseFails(rb.DeleteRunbook, [])


def _every_command():
    return ((rb.CreateRunbook, ['--name', 'CUSTOM_X', '--steps', '[]']),
            (rb.ListRunbook, []),
            (rb.ShowRunbook, ['x']),
            (rb.SetRunbook, ['x', '--name', 'CUSTOM_Y']),
            (rb.UnsetRunbook, ['x', '--extra', 'k']),
            (rb.DeleteRunbook, ['x']))


class TestOldServer(RunbookTestCase):

    MAX_VERSION = '1.91'

    def test_refused(self):
        for command_class, argv in _every_command():
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  command_class, argv)
            self.assertIn('Runbook commands: API version 1.92 or later is '
                          'needed, but the server supports versions up to '
                          '1.91', str(e))
        self.assertEqual([], self.requests())

    def test_node_clean_runbook_refused(self):
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              node_cmds.CleanNode, ['n', '--runbook', 'rb'])
        self.assertIn('--runbook: API version 1.92', str(e))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              node_cmds.ServiceNode,
                              ['n', '--runbook', 'rb'])
        self.assertIn('--runbook: API version 1.92', str(e))
        self.assertEqual([], self.requests())


class TestRequestedVersion(base.CommandTestCase):
    """--os-baremetal-api-version: sent as asked, no negotiation."""

    MAX_VERSION = '1.92'
    REQUESTED_VERSION = (1, 92)

    def test_sent(self):
        self.session.route('GET', '/v1/runbooks', fakes.FakeResponse(
            200, {'runbooks': []}))
        self.run_command(rb.ListRunbook, [])
        self.assertEqual(['1.92'], [r.headers[http.VERSION_HEADER]
                                    for r in self.session.requests])

    def test_older_refused(self):
        self.client = http.Client(self.session, fakes.ENDPOINT, (1, 91))
        self.app = fakes.FakeApp(self.client)
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              rb.ShowRunbook, ['x'])
        self.assertIn('version 1.91 was requested', str(e))
        self.assertEqual([], self.session.requests)


class TestNegotiatedByThePlugin(base.CommandTestCase):
    """Without the test's override: the plugin's own LAST_KNOWN_VERSION."""

    MAX_VERSION = '1.99'

    def test_negotiates_runbooks(self):
        if http.LAST_KNOWN_VERSION < http.RUNBOOKS:
            self.skipTest('LAST_KNOWN_VERSION is not 1.92 yet')
        self.session.route('GET', '/v1/runbooks', fakes.FakeResponse(
            200, {'runbooks': []}))
        self.run_command(rb.ListRunbook, [])
        self.assertGreaterEqual(http.parse_version(
            self.last().headers[http.VERSION_HEADER]), http.RUNBOOKS)


class TestNodeRunbook(RunbookTestCase):
    """node clean / node service --runbook."""

    def setUp(self):
        super().setUp()
        self.session.route('PUT', '/v1/nodes/n/states/provision',
                           fakes.FakeResponse(202))

    def test_clean_runbook(self):
        self.run_command(node_cmds.CleanNode, ['n', '--runbook',
                                               'CUSTOM_FW'])
        self.assertRequest(self.last(), 'PUT',
                           '/v1/nodes/n/states/provision',
                           body={'target': 'clean', 'runbook': 'CUSTOM_FW'})
        self.assertVersion('1.92')

    def test_service_runbook(self):
        self.run_command(node_cmds.ServiceNode, ['n', '--runbook', UUID])
        self.assertRequest(self.last(), 'PUT',
                           '/v1/nodes/n/states/provision',
                           body={'target': 'service', 'runbook': UUID})
        self.assertVersion('1.92')

    def test_clean_runbook_wait(self):
        self.session.route('GET', '/v1/nodes/n', fakes.FakeResponse(
            200, fakes.node(provision_state='manageable')))
        self.run_command(node_cmds.CleanNode, ['n', '--runbook',
                                               'CUSTOM_FW', '--wait', '5'])
        self.assertEqual(['PUT', 'GET'],
                         [r.method for r in self.requests()])
        self.assertEqual({'target': 'clean', 'runbook': 'CUSTOM_FW'},
                         self.requests()[0].body)

    def test_steps_or_runbook(self):
        for command_class, steps in ((node_cmds.CleanNode, '--clean-steps'),
                                     (node_cmds.ServiceNode,
                                      '--service-steps')):
            self.assertParseFails(command_class, ['n', steps, '[]',
                                                  '--runbook', 'CUSTOM_FW'])
            self.assertParseFails(command_class, ['n'])
            self.assertParseFails(command_class, ['n', '--runbook'])

    def test_clean_runbook_not_with_disable_ramdisk(self):
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              node_cmds.CleanNode,
                              ['n', '--runbook', 'CUSTOM_FW',
                               '--disable-ramdisk'])
        self.assertIn('--runbook and --disable-ramdisk', str(e))
        self.assertEqual([], self.session.requests)

    def test_clean_steps_disable_ramdisk(self):
        self.run_command(node_cmds.CleanNode, [
            'n', '--clean-steps', '[{"interface": "bios", "step": "x"}]',
            '--disable-ramdisk'])
        self.assertEqual({'target': 'clean', 'disable_ramdisk': True,
                          'clean_steps': [{'interface': 'bios',
                                           'step': 'x'}]},
                         self.last().body)

    def test_service_disable_ramdisk_needs_1_108(self):
        # The API takes disable_ramdisk with servicing from 1.108.
        self.app.client_manager.baremetal = http.Client(
            self.session, fakes.ENDPOINT, (1, 107))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              node_cmds.ServiceNode,
                              ['n', '--service-steps', '[]',
                               '--disable-ramdisk'])
        self.assertIn('1.108', str(e))
        self.assertEqual([], self.session.requests)

    def test_empty_runbook(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          node_cmds.CleanNode, ['n', '--runbook', ' '])
        self.assertEqual([], self.session.requests)

    def test_steps_still_sent_without_runbook(self):
        self.run_command(node_cmds.ServiceNode, [
            'n', '--service-steps', '[{"interface": "bios", "step": "x"}]'])
        self.assertEqual({'target': 'service', 'service_steps': [
            {'interface': 'bios', 'step': 'x'}]}, self.last().body)
        self.assertNotIn('runbook', self.last().body)
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          node_cmds.ServiceNode,
                          ['n', '--service-steps', '{}'])


class TestCleanDisableRamdiskOldServer(base.CommandTestCase):

    MAX_VERSION = '1.69'

    def test_refused(self):
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              node_cmds.CleanNode,
                              ['n', '--clean-steps', '[]',
                               '--disable-ramdisk'])
        self.assertIn('--disable-ramdisk: API version 1.70', str(e))
        self.assertEqual([], self.requests())
