"""``openstack baremetal boot template|options|applystaged``: arguments
to requests, output and exit status; what every boot command shares."""

import configparser
import io
import json
import os

import fixtures
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc.v1 import boot
from ironic_like.osc.v1 import boot_template as tmpl
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes

SETUP_CFG = os.path.join(os.path.dirname(__file__), '..', '..', '..', '..',
                         'setup.cfg')


def template(**fields):
    doc = {'name': 'compute', 'tenant': None, 'description': 'Compute',
           'enable_cfs': True, 'cfs': {'configuration': 'cfg-1'},
           'boot_sets': {'compute': {
               'name': 'compute', 'kernel': 'http://img/k',
               'initrd': 'http://img/i', 'node_groups': ['compute']}},
           'links': [{'rel': 'self', 'href': 'x'}]}
    doc.update(fields)
    return doc


class TestBootRequests(base.CommandTestCase):
    """The /v1/boot paths take no Ironic microversion."""

    def test_no_version_header_and_no_negotiation(self):
        self.session.route('GET', '/v1/boot/sessiontemplates',
                           fakes.FakeResponse(200, [template()]))
        self.run_command(tmpl.ListBootTemplate, [])
        self.assertEqual(['/v1/boot/sessiontemplates'],
                         [r.path for r in self.session.requests])
        self.assertNotIn(http.VERSION_HEADER, self.last().headers)
        self.assertEqual('application/json', self.last().headers['Accept'])

    def test_error_message_of_the_boot_api(self):
        self.session.route('GET', '/v1/boot/sessiontemplates/nope',
                           fakes.FakeResponse(404, {
                               'error_message': 'Session template nope '
                                                'could not be found.'}))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              tmpl.ShowBootTemplate, ['nope'])
        self.assertEqual('Session template nope could not be found. '
                         '(HTTP 404)', str(e))

    def test_names_are_quoted(self):
        self.session.route('GET', '/v1/boot/sessiontemplates/a%2Fb',
                           fakes.FakeResponse(200, template(name='a/b')))
        self.run_command(tmpl.ShowBootTemplate, ['a/b'])
        self.assertEqual('/v1/boot/sessiontemplates/a%2Fb', self.last().path)

    def test_list_of_a_wrapped_answer(self):
        api = boot.BootAPI(self.client)
        self.session.route('GET', '/v1/boot/x', fakes.FakeResponse(
            200, {'things': [{'a': 1}]}))
        self.assertEqual([{'a': 1}], api.list('x'))
        self.session.route('GET', '/v1/boot/y', fakes.FakeResponse(204))
        self.assertEqual([], api.list('y'))

    def test_params_without_none(self):
        api = boot.BootAPI(self.client)
        self.session.route('GET', '/v1/boot/x', fakes.FakeResponse(200, []))
        api.list('x', {'a': None, 'b': 'c'})
        self.assertEqual({'b': 'c'}, self.last().params)


class TestTemplateList(base.CommandTestCase):

    def test_list(self):
        self.session.route('GET', '/v1/boot/sessiontemplates',
                           fakes.FakeResponse(200, [
                               template(),
                               template(name='uan', description=None,
                                        enable_cfs=False, cfs={},
                                        boot_sets={'b': {}, 'a': {}})]))
        titles, rows = self.rows(self.run_command(tmpl.ListBootTemplate,
                                                  []))
        self.assertEqual(('Name', 'Description', 'Enable CFS',
                          'Configuration', 'Boot Sets'), titles)
        self.assertEqual([('compute', 'Compute', True, 'cfg-1', ['compute']),
                          ('uan', None, False, None, ['a', 'b'])], rows)

    def test_empty(self):
        self.session.route('GET', '/v1/boot/sessiontemplates',
                           fakes.FakeResponse(200, []))
        _titles, rows = self.rows(self.run_command(tmpl.ListBootTemplate,
                                                   []))
        self.assertEqual([], rows)


class TestTemplateShowDelete(base.CommandTestCase):

    def test_show(self):
        self.session.route('GET', '/v1/boot/sessiontemplates/compute',
                           fakes.FakeResponse(200, template()))
        shown = self.as_dict(self.run_command(tmpl.ShowBootTemplate,
                                              ['compute']))
        self.assertEqual(['boot_sets', 'cfs', 'description', 'enable_cfs',
                          'name', 'tenant'], sorted(shown))
        self.assertEqual('compute', shown['name'])
        self.assertEqual(template()['boot_sets'], shown['boot_sets']._value)

    def test_delete(self):
        self.session.route('DELETE', '/v1/boot/sessiontemplates/.*',
                           fakes.FakeResponse(204))
        self.session.route('DELETE', '/v1/boot/sessiontemplates/gone',
                           fakes.FakeResponse(404, {
                               'error_message': 'Not found.'}))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              tmpl.DeleteBootTemplate, ['a', 'gone', 'b'])
        self.assertEqual(['/v1/boot/sessiontemplates/a',
                          '/v1/boot/sessiontemplates/gone',
                          '/v1/boot/sessiontemplates/b'],
                         [r.path for r in self.requests()])
        self.assertEqual('Deleted session template a\n'
                         'Deleted session template b\n',
                         self.app.stdout.getvalue())
        self.assertIn('gone: Not found. (HTTP 404)', str(e))


class TestTemplateCreate(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('PUT', '/v1/boot/sessiontemplates/.*',
                           lambda r: fakes.FakeResponse(200, dict(
                               r.body, name=r.path.rsplit('/', 1)[1],
                               links=[])))

    def write(self, doc):
        path = self.useFixture(fixtures.TempDir()).join('t.json')
        with open(path, 'w') as f:
            f.write(doc if isinstance(doc, str) else json.dumps(doc))
        return path

    def test_boot_sets_from_options(self):
        result = self.run_command(tmpl.CreateBootTemplate, [
            'compute', '--description', 'Compute nodes', '--disable-cfs',
            '--configuration', 'cfg-2',
            '--boot-set', 'name=compute,kernel=http://img/k,'
                          'initrd=http://img/i,kernel-parameters='
                          'console=ttyS0,115200 quiet,node-group=compute,'
                          'node-group=gpu,role=Compute_Worker,arch=ARM',
            '--boot-set', 'name=uan,path=http://img/manifest.json,'
                          'type=http,node=n1,node=n2,configuration=uan'])
        self.assertRequest(self.last(), 'PUT',
                           '/v1/boot/sessiontemplates/compute', body={
                               'description': 'Compute nodes',
                               'enable_cfs': False,
                               'cfs': {'configuration': 'cfg-2'},
                               'boot_sets': {
                                   'compute': {
                                       'name': 'compute',
                                       'kernel': 'http://img/k',
                                       'initrd': 'http://img/i',
                                       'kernel_parameters':
                                           'console=ttyS0,115200 quiet',
                                       'node_groups': ['compute', 'gpu'],
                                       'node_roles_groups':
                                           ['Compute_Worker'],
                                       'arch': 'ARM'},
                                   'uan': {
                                       'name': 'uan',
                                       'path': 'http://img/manifest.json',
                                       'type': 'http',
                                       'node_list': ['n1', 'n2'],
                                       'cfs': {'configuration': 'uan'}}}})
        shown = self.as_dict(result)
        self.assertEqual('compute', shown['name'])
        self.assertNotIn('links', shown)

    def test_file_drops_read_only_fields_and_options_override(self):
        doc = template(description='from file')
        path = self.write(doc)
        self.run_command(tmpl.CreateBootTemplate,
                         ['--file', path, '--description', 'new',
                          '--enable-cfs'])
        # The name comes from the file; name, tenant and links are not
        # sent.
        self.assertRequest(self.last(), 'PUT',
                           '/v1/boot/sessiontemplates/compute', body={
                               'description': 'new', 'enable_cfs': True,
                               'cfs': {'configuration': 'cfg-1'},
                               'boot_sets': doc['boot_sets']})

    def test_name_argument_wins_over_file(self):
        path = self.write(template())
        self.run_command(tmpl.CreateBootTemplate, ['other', '--file', path])
        self.assertEqual('/v1/boot/sessiontemplates/other', self.last().path)

    def test_file_from_stdin(self):
        stdin = io.StringIO(json.dumps(template()))
        self.useFixture(fixtures.MonkeyPatch('sys.stdin', stdin))
        self.run_command(tmpl.CreateBootTemplate, ['--file', '-'])
        self.assertEqual('/v1/boot/sessiontemplates/compute', self.last().path)
        self.assertEqual(1, len(self.requests()))

    def test_local_errors_send_nothing(self):
        bad_json = self.write('{nope')
        not_object = self.write('[1]')
        for argv, message in [
                (['t'], 'needs boot sets'),
                (['--boot-set', 'name=a,kernel=k'], 'name of the template'),
                (['t', '--boot-set', 'kernel=k'], 'needs name=<name>'),
                (['t', '--boot-set', 'name=a,colour=red'],
                 'Invalid --boot-set item "colour=red"'),
                (['t', '--file', bad_json], 'is not valid JSON'),
                (['t', '--file', not_object], 'must hold a JSON object'),
                (['t', '--file', '/nonexistent/x.json'], 'Cannot read')]:
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  tmpl.CreateBootTemplate, argv)
            self.assertIn(message, str(e))
        self.assertEqual([], self.requests())

    def test_boot_set_keys_with_underscores(self):
        self.assertEqual(
            {'name': 'a', 'kernel_parameters': 'x=1,y', 'node_list': ['n']},
            tmpl.parse_boot_set('name=a,kernel_parameters=x=1,y,node_list=n'))

    def test_kernel_parameters_keep_commas_and_unknown_keys(self):
        self.assertEqual(
            {'name': 'a', 'kernel_parameters':
                'console=ttyS0,115200,ip=dhcp rd.x=1,y', 'arch': 'X86'},
            tmpl.parse_boot_set('kernel-parameters=console=ttyS0,115200,'
                                'ip=dhcp rd.x=1,y,name=a,arch=X86'))


class TestTemplateSet(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('PATCH', '/v1/boot/sessiontemplates/compute',
                           fakes.FakeResponse(200, template()))

    def test_options(self):
        self.run_command(tmpl.SetBootTemplate, [
            'compute', '--description', 'd', '--disable-cfs',
            '--configuration', 'c2'])
        self.assertRequest(self.last(), 'PATCH',
                           '/v1/boot/sessiontemplates/compute', body={
                               'description': 'd', 'enable_cfs': False,
                               'cfs': {'configuration': 'c2'}})
        self.assertEqual('', self.app.stdout.getvalue())

    def test_file(self):
        path = self.useFixture(fixtures.TempDir()).join('p.json')
        with open(path, 'w') as f:
            json.dump({'name': 'x', 'boot_sets': {'a': {'name': 'a'}}}, f)
        self.run_command(tmpl.SetBootTemplate,
                         ['compute', '--file', path, '--enable-cfs'])
        self.assertEqual({'boot_sets': {'a': {'name': 'a'}},
                          'enable_cfs': True}, self.last().body)

    def test_nothing(self):
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              tmpl.SetBootTemplate, ['compute'])
        self.assertIn('Nothing to set', str(e))
        self.assertEqual([], self.requests())

    def test_enable_and_disable_exclusive(self):
        self.assertParseFails(tmpl.SetBootTemplate,
                              ['c', '--enable-cfs', '--disable-cfs'])


class TestTemplateValidate(base.CommandTestCase):

    def run_validate(self, answer):
        self.session.route('GET', '/v1/boot/sessiontemplatesvalid/compute',
                           fakes.FakeResponse(200, answer))
        cmd, parsed = self.parse(tmpl.ValidateBootTemplate, ['compute'])
        return cmd.run(parsed)

    def test_valid(self):
        self.assertEqual(0, self.run_validate('Valid'))
        self.assertRequest(self.last(), 'GET',
                           '/v1/boot/sessiontemplatesvalid/compute')
        self.assertEqual('Valid\n', self.app.stdout.getvalue())

    def test_invalid_exits_1_with_the_messages(self):
        text = ('boot_sets.compute: kernel must be an http(s) URL; '
                'boot_sets.compute: no node_list, node_groups or '
                'node_roles_groups')
        self.assertEqual(1, self.run_validate(text))
        self.assertEqual(text + '\n', self.app.stdout.getvalue())


class TestOptions(base.CommandTestCase):

    def test_show(self):
        self.session.route('GET', '/v1/boot/options', fakes.FakeResponse(
            200, {'polling_frequency': 15, 'default_retry_policy': 3,
                  'logging_level': 'INFO'}))
        shown = self.as_dict(self.run_command(boot.ShowBootOptions, []))
        self.assertEqual({'polling_frequency': 15, 'default_retry_policy': 3,
                          'logging_level': 'INFO'}, shown)

    def test_set_values_json_or_string(self):
        self.session.route('PATCH', '/v1/boot/options',
                           fakes.FakeResponse(200, {}))
        self.run_command(boot.SetBootOptions, [
            '--option', 'default_retry_policy=5',
            '--option', 'session_limit_required=true',
            '--option', 'logging_level=DEBUG',
            '--option', 'cleanup_completed_session_ttl=2d'])
        self.assertRequest(self.last(), 'PATCH', '/v1/boot/options', body={
            'default_retry_policy': 5, 'session_limit_required': True,
            'logging_level': 'DEBUG', 'cleanup_completed_session_ttl': '2d'})

    def test_set_needs_an_option(self):
        self.assertParseFails(boot.SetBootOptions, [])

    def test_set_error_names_the_option(self):
        self.session.route('PATCH', '/v1/boot/options', fakes.FakeResponse(
            400, {'error_message': 'polling_frequency: must be an integer '
                                   'of at least 0'}))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              boot.SetBootOptions,
                              ['--option', 'polling_frequency=-1'])
        self.assertIn('polling_frequency: must be', str(e))
        self.assertIn('HTTP 400', str(e))


class TestApplyStaged(base.CommandTestCase):

    def test_apply(self):
        self.session.route('POST', '/v1/boot/applystaged', fakes.FakeResponse(
            200, {'succeeded': ['n1'], 'failed': ['n2'], 'ignored': []}))
        result = self.run_command(boot.ApplyStagedBoot, ['n1', 'n2,n3'])
        self.assertRequest(self.last(), 'POST', '/v1/boot/applystaged',
                           body={'xnames': ['n1', 'n2', 'n3']})
        names, values = result
        self.assertEqual(('succeeded', 'failed', 'ignored'), names)
        self.assertEqual([['n1'], ['n2'], []], [v._value for v in values])

    def test_table_output(self):
        self.session.route('POST', '/v1/boot/applystaged', fakes.FakeResponse(
            200, {'succeeded': ['n1', 'n2'], 'failed': [], 'ignored': ['n3']}))
        cmd, parsed = self.parse(boot.ApplyStagedBoot,
                                 ['n1', 'n2', 'n3', '-f', 'json'])
        self.assertEqual(0, cmd.run(parsed))
        self.assertEqual({'succeeded': ['n1', 'n2'], 'failed': [],
                          'ignored': ['n3']},
                         json.loads(self.app.stdout.getvalue()))


class TestEntryPoints(base.CommandTestCase):

    def test_every_boot_command_is_registered(self):
        parser = configparser.ConfigParser()
        parser.read(SETUP_CFG)
        lines = parser.get('entry_points',
                           'openstack.baremetal.v1').strip().splitlines()
        commands = dict(line.replace(' ', '').split('=', 1)
                        for line in lines)
        expected = {
            'template_list': 'boot_template:ListBootTemplate',
            'template_show': 'boot_template:ShowBootTemplate',
            'template_create': 'boot_template:CreateBootTemplate',
            'template_set': 'boot_template:SetBootTemplate',
            'template_delete': 'boot_template:DeleteBootTemplate',
            'template_validate': 'boot_template:ValidateBootTemplate',
            'session_create': 'boot_session:CreateBootSession',
            'session_list': 'boot_session:ListBootSession',
            'session_show': 'boot_session:ShowBootSession',
            'session_delete': 'boot_session:DeleteBootSession',
            'session_abort': 'boot_session:AbortBootSession',
            'session_status': 'boot_session:StatusBootSession',
            'component_list': 'boot_component:ListBootComponent',
            'component_show': 'boot_component:ShowBootComponent',
            'component_set': 'boot_component:SetBootComponent',
            'options_show': 'boot:ShowBootOptions',
            'options_set': 'boot:SetBootOptions',
            'applystaged': 'boot:ApplyStagedBoot'}
        registered = {k[len('baremetal_boot_'):]: v[len('ironic_like.osc.'
                                                        'v1.'):]
                      for k, v in commands.items()
                      if k.startswith('baremetal_boot_')}
        self.assertEqual(expected, registered)
