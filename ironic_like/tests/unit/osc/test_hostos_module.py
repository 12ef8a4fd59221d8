"""``openstack baremetal hostos module ...``: arguments to requests, the
--wait for the verification, errors."""

import io

from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import hostos_module as hm
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes

SHA = 'AB' * 32
MODULE_PATH = '/v1/hostos/modules/sysctl/1.2.0'


def module(**fields):
    doc = {'uuid': 'u1', 'name': 'sysctl', 'version': '1.2.0',
           'url': 'https://files.test/sysctl-1.2.0.tgz',
           'sha256sum': SHA.lower(), 'description': None,
           'state': 'verifying', 'error': None, 'deprecated_by': None,
           'playbook': None, 'values_schema': None, 'archive_size': None,
           'used_by': [], 'created_at': '2024-05-01T10:00:00',
           'updated_at': None, 'links': [{'rel': 'self', 'href': 'x'}]}
    doc.update(fields)
    return doc


class HostosTestCase(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.clock = fakes.FakeClock()
        self.app.stderr = io.StringIO()

    def run_command(self, command_class, argv):
        cmd, parsed = self.parse(command_class, argv)
        cmd.clock = self.clock.monotonic
        cmd.sleep = self.clock.sleep
        return cmd.take_action(parsed)

    def assertNoVersionHeader(self):
        # /v1/hostos takes no Ironic microversion: nothing negotiated,
        # nothing sent.
        self.assertEqual([], [r for r in self.session.requests
                              if r.path == '/'])
        for request in self.requests():
            self.assertNotIn(http.VERSION_HEADER, request.headers)


class TestCreateModule(HostosTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('POST', '/v1/hostos/modules',
                           fakes.FakeResponse(202, module()))

    def test_create(self):
        shown = self.as_dict(self.run_command(hm.CreateHostosModule, [
            'sysctl', '1.2.0', '--url', 'https://files.test/sysctl-1.2.0.tgz',
            '--sha256sum', SHA, '--description', 'sysctl settings']))
        self.assertRequest(self.last(), 'POST', '/v1/hostos/modules', body={
            'name': 'sysctl', 'version': '1.2.0',
            'url': 'https://files.test/sysctl-1.2.0.tgz',
            'sha256sum': SHA.lower(), 'description': 'sysctl settings'})
        self.assertEqual('verifying', shown['state'])
        self.assertNotIn('links', shown)
        self.assertEqual(1, len(self.requests()))
        self.assertNoVersionHeader()

    def test_without_description(self):
        self.run_command(hm.CreateHostosModule, [
            'sysctl', '1.2.0', '--url', 'http://u', '--sha256sum', SHA])
        self.assertNotIn('description', self.last().body)

    def test_bad_sha256_sends_nothing(self):
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hm.CreateHostosModule,
                              ['sysctl', '1.2.0', '--url', 'http://u',
                               '--sha256sum', 'abc'])
        self.assertIn('64 hexadecimal digits', str(e))
        self.assertEqual([], self.requests())

    def test_required_arguments(self):
        self.assertParseFails(hm.CreateHostosModule,
                              ['sysctl', '--url', 'u', '--sha256sum', SHA])
        self.assertParseFails(hm.CreateHostosModule,
                              ['sysctl', '1.2.0', '--sha256sum', SHA])
        self.assertParseFails(hm.CreateHostosModule,
                              ['sysctl', '1.2.0', '--url', 'u'])

    def test_api_error(self):
        self.session.route('POST', '/v1/hostos/modules', fakes.fault(
            409, 'Module sysctl version 1.2.0 already exists.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hm.CreateHostosModule,
                              ['sysctl', '1.2.0', '--url', 'http://u',
                               '--sha256sum', SHA])
        self.assertEqual('Module sysctl version 1.2.0 already exists. '
                         '(HTTP 409)', str(e))

    def test_wait_until_available(self):
        self.session.route('GET', MODULE_PATH, *[
            fakes.FakeResponse(200, module()),
            fakes.FakeResponse(200, module()),
            fakes.FakeResponse(200, module(state='available',
                                           playbook='main.yaml'))])
        shown = self.as_dict(self.run_command(hm.CreateHostosModule, [
            'sysctl', '1.2.0', '--url', 'http://u', '--sha256sum', SHA,
            '--wait']))
        self.assertEqual('available', shown['state'])
        self.assertEqual('main.yaml', shown['playbook'])
        self.assertEqual(['/v1/hostos/modules'] + [MODULE_PATH] * 3,
                         [r.path for r in self.requests()])
        self.assertEqual([0.5, 1.0], self.clock.sleeps)
        # Not a terminal: nothing on stderr.
        self.assertEqual('', self.app.stderr.getvalue())

    def test_wait_error_shows_its_text(self):
        error = ('hashes are not the same: got \'%s\' want \'%s\''
                 % ('0' * 64, SHA.lower()))
        self.session.route('GET', MODULE_PATH, *[
            fakes.FakeResponse(200, module()),
            fakes.FakeResponse(200, module(state='error', error=error))])
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hm.CreateHostosModule,
                              ['sysctl', '1.2.0', '--url', 'http://u',
                               '--sha256sum', SHA, '--wait', '60'])
        self.assertEqual('Module sysctl version 1.2.0 failed verification: '
                         + error, str(e))

    def test_wait_deprecated_is_usable(self):
        self.session.route('GET', MODULE_PATH, fakes.FakeResponse(
            200, module(state='deprecated', deprecated_by='1.3.0')))
        shown = self.as_dict(self.run_command(hm.CreateHostosModule, [
            'sysctl', '1.2.0', '--url', 'http://u', '--sha256sum', SHA,
            '--wait']))
        self.assertEqual('1.3.0', shown['deprecated_by'])

    def test_wait_timeout(self):
        self.session.route('GET', MODULE_PATH,
                           fakes.FakeResponse(200, module()))
        e = self.assertRaises(common.WaitTimeout, self.run_command,
                              hm.CreateHostosModule,
                              ['sysctl', '1.2.0', '--url', 'http://u',
                               '--sha256sum', SHA, '--wait', '3'])
        self.assertEqual('Timed out after 3 seconds: Waiting for the '
                         'verification of module sysctl version 1.2.0: it is '
                         'verifying.', str(e))


class TestListShowSetModule(HostosTestCase):

    def test_list(self):
        self.session.route('GET', '/v1/hostos/modules', fakes.FakeResponse(
            200, {'modules': [
                module(state='available', used_by=['c1', 'c2']),
                module(version='1.1.0', state='deprecated',
                       deprecated_by='1.2.0')]}))
        titles, rows = self.rows(self.run_command(
            hm.ListHostosModule, ['--name', 'sysctl', '--state',
                                  'available']))
        self.assertRequest(self.last(), 'GET', '/v1/hostos/modules',
                           params={'name': 'sysctl', 'state': 'available'})
        self.assertEqual(('Name', 'Version', 'State', 'Deprecated By',
                          'Used By', 'Description'), titles)
        self.assertEqual([('sysctl', '1.2.0', 'available', None,
                           ['c1', 'c2'], None),
                          ('sysctl', '1.1.0', 'deprecated', '1.2.0', [],
                           None)], rows)
        self.assertNoVersionHeader()

    def test_list_long_follows_pages(self):
        self.session.route('GET', '/v1/hostos/modules', *[
            fakes.FakeResponse(200, {
                'modules': [module()],
                'next': 'http://elsewhere/v1/hostos/modules?marker=u1'}),
            fakes.FakeResponse(200, {'modules': [module(uuid='u2')]})])
        titles, rows = self.rows(self.run_command(hm.ListHostosModule,
                                                  ['--long']))
        self.assertEqual({}, self.requests()[0].params)
        self.assertEqual({'marker': 'u1'}, self.last().params)
        self.assertEqual(2, len(rows))
        for title in ('URL', 'SHA256', 'Error', 'UUID', 'Archive Size'):
            self.assertIn(title, titles)
        self.assertNotIn('Links', titles)

    def test_list_bad_state(self):
        self.assertParseFails(hm.ListHostosModule, ['--state', 'broken'])

    def test_show(self):
        self.session.route('GET', '/v1/hostos/modules/sysctl/1.2.0%2Bb1',
                           fakes.FakeResponse(200, module(
                               version='1.2.0+b1', state='error',
                               error='failed to perform request to fetch '
                                     'the module archive: Get "u": '
                                     'Forbidden')))
        shown = self.as_dict(self.run_command(hm.ShowHostosModule,
                                              ['sysctl', '1.2.0+b1']))
        self.assertEqual('error', shown['state'])
        self.assertIn('Forbidden', shown['error'])

    def test_show_not_found(self):
        self.session.route('GET', MODULE_PATH, fakes.fault(
            404, 'Module sysctl version 1.2.0 could not be found.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hm.ShowHostosModule, ['sysctl', '1.2.0'])
        self.assertIn('could not be found. (HTTP 404)', str(e))

    def test_show_needs_version(self):
        self.assertParseFails(hm.ShowHostosModule, ['sysctl'])

    def test_set_description(self):
        self.session.route('PATCH', MODULE_PATH,
                           fakes.FakeResponse(200, module()))
        self.run_command(hm.SetHostosModule,
                         ['sysctl', '1.2.0', '--description', 'new'])
        self.assertRequest(self.last(), 'PATCH', MODULE_PATH, body=[
            {'op': 'add', 'path': '/description', 'value': 'new'}])

    def test_set_needs_description(self):
        self.assertParseFails(hm.SetHostosModule, ['sysctl', '1.2.0'])


class TestDeleteModule(HostosTestCase):

    def test_delete_pairs(self):
        self.session.route('DELETE', '/v1/hostos/modules/.*',
                           fakes.FakeResponse(204))
        self.run_command(hm.DeleteHostosModule,
                         ['sysctl', '1.1.0', 'package', '1.4.0'])
        self.assertEqual([('DELETE', '/v1/hostos/modules/sysctl/1.1.0'),
                          ('DELETE', '/v1/hostos/modules/package/1.4.0')],
                         [(r.method, r.path) for r in self.requests()])
        self.assertEqual('Deleted module sysctl 1.1.0\n'
                         'Deleted module package 1.4.0\n',
                         self.app.stdout.getvalue())

    def test_odd_arguments(self):
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hm.DeleteHostosModule,
                              ['sysctl', '1.1.0', 'package'])
        self.assertIn('"package" has no version', str(e))
        self.assertEqual([], self.requests())

    def test_in_use_shows_the_configurations(self):
        self.session.route('DELETE', '/v1/hostos/modules/sysctl/1.1.0',
                           fakes.fault(409, 'Module sysctl version 1.1.0 is '
                                            'used by configurations: c1, '
                                            'c2.'))
        self.session.route('DELETE', '/v1/hostos/modules/package/1.4.0',
                           fakes.FakeResponse(204))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hm.DeleteHostosModule,
                              ['sysctl', '1.1.0', 'package', '1.4.0'])
        self.assertEqual('Failed to delete module sysctl 1.1.0: Module '
                         'sysctl version 1.1.0 is used by configurations: '
                         'c1, c2. (HTTP 409)', str(e))
        self.assertEqual('Deleted module package 1.4.0\n',
                         self.app.stdout.getvalue())
