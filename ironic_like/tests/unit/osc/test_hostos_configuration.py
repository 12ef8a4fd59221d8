"""``openstack baremetal hostos configuration ...``: arguments to
requests, selectors, secret values, the --wait of a rollout (progress on a
terminal and elsewhere, failures, pause, time-out) and of a deletion."""

import io
import json
import os

import fixtures
from osc_lib import exceptions as osc_exc

from ironic_like.osc import common
from ironic_like.osc.v1 import hostos_configuration as hc
from ironic_like.osc.v1 import hostos_selector as selectors
from ironic_like.osc.v1 import hostos_status as hs
from ironic_like.tests.unit.osc import fakes
from ironic_like.tests.unit.osc import test_hostos_module

CONFIG_PATH = '/v1/hostos/configurations/c1'
NODES_PATH = CONFIG_PATH + '/nodes'
ITEM = 'host-os-c1-sysctl-1.2.0-reconfigure'
DOWNLOAD = 'host-os-download-c1-sysctl-1.2.0-reconfigure'


class TtyStream(io.StringIO):
    def isatty(self):
        return True


def counts(selected=4, waiting=0, pending=0, running=0, ok=0, failed=0):
    return {'selected': selected, 'waiting': waiting, 'pending': pending,
            'running': running, 'ok': ok, 'failed': failed}


def configuration(status='active', nodes=None, **fields):
    doc = {'uuid': 'cu1', 'name': 'c1', 'status': status,
           'status_reason': None,
           'machine_selector': {'match_labels': {'env': 'prod'},
                                'match_expressions': [
                                    {'key': 'tier', 'operator': 'In',
                                     'values': ['web', 'db']}]},
           'configs': [{'module': 'sysctl', 'module_version': '1.2.0',
                        'values': {'options': {'vm.swappiness': 10}},
                        'secret_values': {'token': '******'}, 'order': 1,
                        'description': None, 'phase': 'reconfigure'}],
           'order': None, 'max_concurrent': None, 'failure_threshold': None,
           'nodes': nodes if nodes is not None else counts(pending=4),
           'created_at': '2024-05-01T10:00:00', 'updated_at': None,
           'links': [{'rel': 'self', 'href': 'x'}]}
    doc.update(fields)
    return doc


def answers(*docs):
    return [fakes.FakeResponse(200, d) for d in docs]


def node_status(*entries):
    """GET .../nodes: per node, its items."""
    return {'nodes': [
        {'node': 'uuid-%s' % name, 'node_name': name, 'items': items}
        for name, items in entries]}


def item(name, state, exit_code=None, attempt=1, output=None):
    return {'name': name, 'state': state, 'exit_code': exit_code,
            'attempt': attempt, 'hash': 'h', 'started_at': 's',
            'finished_at': 'f' if state in ('ok', 'failed') else None,
            'output': output}


class ConfigurationTestCase(test_hostos_module.HostosTestCase):

    def setUp(self):
        super().setUp()
        self.tmp = self.useFixture(fixtures.TempDir()).path

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, 'w') as f:
            f.write(text)
        return path

    def run_command(self, command_class, argv, width=80):
        cmd, parsed = self.parse(command_class, argv)
        cmd.clock = self.clock.monotonic
        cmd.sleep = self.clock.sleep
        cmd.progress_width = width
        return cmd.take_action(parsed)

    def record_logging(self):
        """[(method, whether keystoneauth logs it)] of the requests to
        come."""
        logged = []
        original = self.session.request

        def request(url, method, **kwargs):
            logged.append((method, kwargs.get('log', True)))
            return original(url, method, **kwargs)
        self.session.request = request
        return logged

    def text(self, result):
        names, values = result
        return dict(zip(names, [getattr(v, 'human_readable', lambda: v)()
                                for v in values]))


# -- parsing ----------------------------------------------------------------

class TestParsing(ConfigurationTestCase):

    def test_config(self):
        self.assertEqual(
            {'module': 'sysctl', 'module_version': '1.2.0', 'order': 2,
             'values': {'options': {'a': 1, 'b': 2}},
             'description': 'tune, a bit', 'phase': 'reconfigure'},
            hc.parse_config('module=sysctl,version=1.2.0,order=2,'
                            'values={"options": {"a": 1, "b": 2}},'
                            'description=tune, a bit,phase=reconfigure'))

    def test_config_commas_and_equals_in_values(self):
        self.assertEqual(
            {'module': 'm', 'module_version': '1',
             'values': {'cmd': 'a,b=c', 'x': 1},
             'description': 'x=1,y=2'},
            hc.parse_config('module=m,version=1,values={"cmd": "a,b=c", '
                            '"x": 1},description=x=1,y=2'))

    def test_config_files(self):
        values = self.write('v.yaml', 'options:\n  vm.swappiness: 10\n')
        secrets = self.write('s.json', '{"token": "t0p"}')
        self.assertEqual(
            {'module': 'm', 'module_version': '1.0.0',
             'values': {'options': {'vm.swappiness': 10}},
             'secret_values': {'token': 't0p'}},
            hc.parse_config('module=m,module-version=1.0.0,values=@%s,'
                            'secret_values=@%s' % (values, secrets)))

    def test_config_errors(self):
        for text, message in (
                ('module=m', 'has no module_version'),
                ('version=1', 'has no module'),
                ('module=m,version=1,color=red', 'Invalid --config item '
                                                 '"color=red"'),
                ('module=m,version=1,order=first', 'Invalid order'),
                ('module=m,version=1,module=n', 'gives module twice'),
                ('module=m,version=1,values=[1]', 'must be an object, '
                                                  'not [1]'),
                ('module=m,version=1,values={', 'Invalid values of '
                                                '--config'),
                ('module=m,version=1,values=@/nonexistent', 'Cannot read '
                                                            '/nonexistent')):
            e = self.assertRaises(osc_exc.CommandError, hc.parse_config,
                                  text)
            self.assertIn(message, str(e))

    def test_config_errors_never_show_secrets(self):
        for text in ('module=m,version=1,secret_values="hunter2"',
                     'module=m,version=1,secret_values={"k": hunter2}',
                     'module=m,secret_values={"k": "hunter2"}'):
            e = self.assertRaises(osc_exc.CommandError, hc.parse_config,
                                  text)
            self.assertNotIn('hunter2', str(e))
        path = self.write('bad.yaml', 'k: [hunter2\n')
        e = self.assertRaises(osc_exc.CommandError, hc.parse_config,
                              'module=m,version=1,secret_values=@' + path)
        self.assertNotIn('hunter2', str(e))
        self.assertIn('neither JSON nor YAML', str(e))

    def test_masked_secret_refused(self):
        e = self.assertRaises(osc_exc.CommandError, hc.parse_config,
                              'module=m,version=1,'
                              'secret_values={"k": "******"}')
        self.assertIn('the mask ******', str(e))

    def test_expressions(self):
        parse = selectors.parse_expression
        self.assertEqual({'key': 'tier', 'operator': 'In',
                          'values': ['web', 'db']}, parse('tier In web,db'))
        self.assertEqual({'key': 'tier', 'operator': 'In',
                          'values': ['web', 'db']},
                         parse('tier in (web, db)'))
        self.assertEqual({'key': 'env', 'operator': 'NotIn',
                          'values': ['dev']}, parse('env notin dev'))
        self.assertEqual({'key': 'env', 'operator': 'NotIn',
                          'values': ['dev']}, parse('env not in (dev)'))
        self.assertEqual({'key': 'gpu', 'operator': 'Exists'},
                         parse('gpu Exists'))
        self.assertEqual({'key': 'gpu', 'operator': 'Exists'}, parse('gpu'))
        self.assertEqual({'key': 'legacy', 'operator': 'DoesNotExist'},
                         parse('legacy DoesNotExist'))
        self.assertEqual({'key': 'legacy', 'operator': 'DoesNotExist'},
                         parse('!legacy'))
        self.assertEqual({'key': 'example.com/role', 'operator': 'In',
                          'values': ['a']}, parse('example.com/role In a'))
        for bad in ('tier In', 'gpu Exists yes', 'tier is web', 'a b c',
                    '', 'tier inweb'):
            self.assertRaises(osc_exc.CommandError, parse, bad)

    def test_selector_string(self):
        selector = selectors.parse_selector(
            'env=prod, tier in (web,db),!legacy,gpu,zone!=b,role==x')
        self.assertEqual({
            'match_labels': {'env': 'prod', 'role': 'x'},
            'match_expressions': [
                {'key': 'tier', 'operator': 'In', 'values': ['web', 'db']},
                {'key': 'legacy', 'operator': 'DoesNotExist'},
                {'key': 'gpu', 'operator': 'Exists'},
                {'key': 'zone', 'operator': 'NotIn', 'values': ['b']}]},
            selector)
        self.assertEqual('env=prod,role=x,tier in (web,db),!legacy,gpu,'
                         'zone notin (b)', selectors.format_selector(selector))
        self.assertEqual('', selectors.format_selector({}))
        self.assertEqual('', selectors.format_selector(None))

    def test_status_shapes(self):
        nested = node_status(('n1', [item(DOWNLOAD, 'ok', 0),
                                     item(ITEM, 'failed', 2)]))
        flat = {'nodes': [dict(item(DOWNLOAD, 'ok', 0), node='n1'),
                          dict(item(ITEM, 'failed', 2), node='n1')]}
        by_name = [{'node': {'uuid': 'u1', 'name': 'n1'}, 'items': {
            DOWNLOAD: item(None, 'ok', 0), ITEM: item(None, 'failed', 2)}}]
        for doc in (nested, flat, by_name):
            self.assertEqual([('n1', DOWNLOAD, 'ok'), ('n1', ITEM, 'failed')],
                             [(n, hs.item_name(i), i['state'])
                              for n, i in hs.status_items(doc)])


# -- create -----------------------------------------------------------------

class TestCreateConfiguration(ConfigurationTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('POST', '/v1/hostos/configurations',
                           fakes.FakeResponse(201, configuration()))

    def test_options(self):
        secrets = self.write('s.json', '{"token": "t0p-s3cret"}')
        result = self.run_command(hc.CreateHostosConfiguration, [
            'c1', '--selector-label', 'env=prod',
            '--selector-expression', 'tier In web,db',
            '--selector-expression', '!legacy',
            '--config', 'module=sysctl,version=1.2.0,order=1,'
                        'values={"options": {"vm.swappiness": 10}},'
                        'secret_values=@' + secrets,
            '--config', 'module=package,version=1.4.0',
            '--order', '5', '--max-concurrent', '2',
            '--failure-threshold', '1'])
        self.assertRequest(self.last(), 'POST', '/v1/hostos/configurations',
                           body={
            'name': 'c1',
            'machine_selector': {
                'match_labels': {'env': 'prod'},
                'match_expressions': [
                    {'key': 'tier', 'operator': 'In',
                     'values': ['web', 'db']},
                    {'key': 'legacy', 'operator': 'DoesNotExist'}]},
            'configs': [
                {'module': 'sysctl', 'module_version': '1.2.0', 'order': 1,
                 'values': {'options': {'vm.swappiness': 10}},
                 'secret_values': {'token': 't0p-s3cret'}},
                {'module': 'package', 'module_version': '1.4.0'}],
            'order': 5, 'max_concurrent': 2, 'failure_threshold': 1})
        self.assertNoVersionHeader()
        shown = self.text(result)
        self.assertEqual('env=prod,tier in (web,db)',
                         shown['machine_selector'])
        self.assertEqual('0: sysctl 1.2.0, order 1, phase reconfigure, '
                         'values {"options": {"vm.swappiness": 10}}, '
                         'secret values token=******', shown['configs'])
        self.assertEqual('selected 4: pending 4', shown['nodes'])
        self.assertEqual(('name', 'status', 'status_reason',
                          'machine_selector', 'configs', 'nodes', 'order',
                          'max_concurrent', 'failure_threshold', 'uuid',
                          'created_at', 'updated_at'), result[0])
        self.assertEqual('', self.app.stderr.getvalue())

    def test_selector_string(self):
        self.run_command(hc.CreateHostosConfiguration, [
            'c1', '--selector', 'env=prod,tier in (web,db)',
            '--selector-label', 'zone=a', '--config', 'module=m,version=1'])
        self.assertEqual({'match_labels': {'env': 'prod', 'zone': 'a'},
                          'match_expressions': [
                              {'key': 'tier', 'operator': 'In',
                               'values': ['web', 'db']}]},
                         self.last().body['machine_selector'])

    def test_output_never_shows_secrets(self):
        # A server that would echo them: masked all the same.
        self.session.route('POST', '/v1/hostos/configurations',
                           fakes.FakeResponse(201, configuration(configs=[
                               {'module': 'm', 'module_version': '1',
                                'secret_values': {'token': 't0p'}}])))
        cmd, parsed = self.parse(hc.CreateHostosConfiguration, [
            'c1', '--selector-label', 'a=b', '--config',
            'module=m,version=1,secret_values={"token": "t0p"}',
            '-f', 'json'])
        cmd.run(parsed)
        output = self.app.stdout.getvalue()
        self.assertNotIn('t0p', output)
        self.assertEqual({'token': '******'},
                         json.loads(output)['configs'][0]['secret_values'])

    def test_requests_with_secrets_are_not_logged(self):
        logged = self.record_logging()
        self.run_command(hc.CreateHostosConfiguration, [
            'c1', '--selector-label', 'a=b', '--config',
            'module=m,version=1,secret_values={"token": "t0p"}'])
        self.run_command(hc.CreateHostosConfiguration, [
            'c1', '--selector-label', 'a=b', '--config',
            'module=m,version=1'])
        self.assertEqual([('POST', False), ('POST', True)], logged)
        self.assertEqual({'token': 't0p'},
                         self.requests()[0].body['configs'][0][
                             'secret_values'])
        self.assertNoVersionHeader()
        for body in ([{'op': 'add', 'path': '/configs/0/secret_values',
                       'value': {'a': 'b'}}],
                     [{'op': 'add', 'path': '/configs/-', 'value': {
                         'module': 'm', 'secret_values': {'a': 'b'}}}]):
            self.assertTrue(hc.has_secrets(body))
        self.assertFalse(hc.has_secrets([{'op': 'add', 'path': '/order',
                                          'value': 1}]))
        self.assertFalse(hc.has_secrets({'configs': [
            {'module': 'm', 'secret_values': {}}]}))

    def test_secret_request_errors(self):
        self.session.route('POST', '/v1/hostos/configurations', fakes.fault(
            409, 'Module m version 1 is in state error: hashes are not the '
                 'same'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.CreateHostosConfiguration,
                              ['c1', '--selector-label', 'a=b', '--config',
                               'module=m,version=1,secret_values={"t": '
                               '"x"}'])
        self.assertEqual('Module m version 1 is in state error: hashes are '
                         'not the same (HTTP 409)', str(e))
        self.session.route('POST', '/v1/hostos/configurations',
                           fakes.FakeResponse(200, text='<html>'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.CreateHostosConfiguration,
                              ['c1', '--selector-label', 'a=b', '--config',
                               'module=m,version=1,secret_values={"t": '
                               '"x"}'])
        self.assertIn('body that is not JSON', str(e))

    def test_answer_without_body_is_fetched(self):
        self.session.route('POST', '/v1/hostos/configurations',
                           fakes.FakeResponse(201))
        self.session.route('GET', CONFIG_PATH,
                           fakes.FakeResponse(200, configuration()))
        shown = self.text(self.run_command(hc.CreateHostosConfiguration, [
            'c1', '--selector-label', 'a=b', '--config',
            'module=m,version=1,secret_values={"token": "t0p"}']))
        self.assertRequest(self.last(), 'GET', CONFIG_PATH)
        self.assertNotIn('t0p', str(shown))

    def test_empty_selector_warns(self):
        self.run_command(hc.CreateHostosConfiguration,
                         ['c1', '--config', 'module=m,version=1'])
        self.assertNotIn('machine_selector', self.last().body)
        self.assertEqual('Warning: configuration c1 has an empty selector: '
                         'it selects no node.\n', self.app.stderr.getvalue())

    def test_needs_configs_and_name(self):
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.CreateHostosConfiguration,
                              ['c1', '--selector-label', 'a=b'])
        self.assertIn('give --config', str(e))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.CreateHostosConfiguration,
                              ['--config', 'module=m,version=1'])
        self.assertIn('Give the name', str(e))
        self.assertEqual([], self.requests())

    def test_yaml_file(self):
        path = self.write('c.yaml', (
            'name: c1\n'
            'machine_selector:\n'
            '  match_labels: {env: prod}\n'
            'configs:\n'
            '- module: sysctl\n'
            '  module_version: 1.2.0\n'
            '  values: {options: {vm.swappiness: 10}}\n'
            'max_concurrent: 3\n'))
        self.run_command(hc.CreateHostosConfiguration,
                         ['--file', path, '--max-concurrent', '5'])
        self.assertEqual({
            'name': 'c1', 'machine_selector': {'match_labels': {
                'env': 'prod'}},
            'configs': [{'module': 'sysctl', 'module_version': '1.2.0',
                         'values': {'options': {'vm.swappiness': 10}}}],
            'max_concurrent': 5}, self.last().body)

    def test_json_file_of_show_output(self):
        # What "configuration show -f json" printed, read-only fields
        # and all: they are dropped; the name argument wins.
        doc = configuration()
        doc['configs'][0].pop('secret_values')
        path = self.write('c.json', json.dumps(doc))
        self.run_command(hc.CreateHostosConfiguration,
                         ['c2', '--file', path])
        body = self.last().body
        self.assertEqual('c2', body['name'])
        for field in hc.READ_ONLY:
            self.assertNotIn(field, body)
        self.assertEqual(doc['configs'], body['configs'])

    def test_file_with_masked_secrets_refused(self):
        path = self.write('c.json', json.dumps(configuration()))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.CreateHostosConfiguration,
                              ['--file', path])
        self.assertIn('configs/0/secret_values: the value of "token" is '
                      'the mask ******', str(e))
        self.assertEqual([], self.requests())

    def test_manifest_file(self):
        path = self.write('hoc.yaml', (
            'apiVersion: kaas.mirantis.com/v1alpha1\n'
            'kind: HostOSConfiguration\n'
            'metadata:\n  name: sysctl-prod\n  namespace: default\n'
            'spec:\n'
            '  machineSelector:\n'
            '    matchLabels: {env: prod}\n'
            '    matchExpressions:\n'
            '    - {key: tier, operator: In, values: [web]}\n'
            '  configs:\n'
            '  - module: sysctl\n'
            '    moduleVersion: 1.2.0\n'
            '    values: {camelCase: kept}\n'))
        self.run_command(hc.CreateHostosConfiguration, ['--file', path])
        self.assertEqual({
            'name': 'sysctl-prod',
            'machine_selector': {
                'match_labels': {'env': 'prod'},
                'match_expressions': [{'key': 'tier', 'operator': 'In',
                                       'values': ['web']}]},
            'configs': [{'module': 'sysctl', 'module_version': '1.2.0',
                         'values': {'camelCase': 'kept'}}]},
            self.last().body)

    def test_file_excludes_body_options(self):
        path = self.write('c.json', '{"name": "c1", "configs": []}')
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.CreateHostosConfiguration,
                              ['--file', path, '--config',
                               'module=m,version=1'])
        self.assertIn('--file gives the whole configuration', str(e))

    def test_bad_file(self):
        path = self.write('c.yaml', 'a: [b\n')
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.CreateHostosConfiguration,
                              ['--file', path])
        self.assertIn('is neither JSON nor YAML', str(e))
        path = self.write('l.json', '[1]')
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.CreateHostosConfiguration,
                              ['--file', path])
        self.assertIn('must hold an object', str(e))

    def test_stdin_file(self):
        self.useFixture(fixtures.MonkeyPatch('sys.stdin', io.StringIO(
            '{"name": "c1", "configs": [{"module": "m", '
            '"module_version": "1"}]}')))
        self.run_command(hc.CreateHostosConfiguration, ['--file', '-'])
        self.assertEqual('c1', self.last().body['name'])

    def test_api_errors(self):
        self.session.route('POST', '/v1/hostos/configurations', fakes.fault(
            400, 'configs/0/values/options/vm.swappiness: 1000 is greater '
                 'than the maximum of 100'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.CreateHostosConfiguration,
                              ['c1', '--selector-label', 'a=b', '--config',
                               'module=sysctl,version=1.2.0'])
        self.assertEqual('configs/0/values/options/vm.swappiness: 1000 is '
                         'greater than the maximum of 100 (HTTP 400)',
                         str(e))


# -- create --wait, and the rollout wait of reapply, resume, status ---------

class TestRolloutWait(ConfigurationTestCase):

    ARGV = ['c1', '--selector-label', 'env=prod', '--config',
            'module=sysctl,version=1.2.0']

    def setUp(self):
        super().setUp()
        self.session.route('POST', '/v1/hostos/configurations',
                           fakes.FakeResponse(201, configuration()))

    def polls(self, *node_counts, **fields):
        self.session.route('GET', CONFIG_PATH, *answers(*[
            configuration(nodes=c, **fields) for c in node_counts]))

    def failed_nodes(self, *names):
        self.session.route('GET', NODES_PATH, fakes.FakeResponse(
            200, node_status(*[(n, [item(DOWNLOAD, 'ok', 0),
                                    item(ITEM, 'failed', 2)])
                               for n in names])))

    def test_plain_lines_when_counts_change(self):
        self.polls(counts(pending=4), counts(pending=4),
                   counts(running=2, pending=2), counts(ok=2, running=2),
                   counts(ok=4))
        shown = self.text(self.run_command(hc.CreateHostosConfiguration,
                                           self.ARGV + ['--wait']))
        self.assertEqual('selected 4: ok 4', shown['nodes'])
        self.assertEqual(['/v1/hostos/configurations'] + [CONFIG_PATH] * 5,
                         [r.path for r in self.requests()])
        self.assertEqual([2.0] * 4, self.clock.sleeps)
        self.assertEqual([
            'Configuration c1 active: 0 of 4 nodes done (0%); ok 0, failed '
            '0, running 0, pending 4, waiting 0; elapsed 0:00, ETA ?',
            'Configuration c1 active: 0 of 4 nodes done (0%); ok 0, failed '
            '0, running 2, pending 2, waiting 0; elapsed 0:04, ETA ?',
            'Configuration c1 active: 2 of 4 nodes done (50%); ok 2, failed '
            '0, running 2, pending 0, waiting 0; elapsed 0:06, ETA 0:06',
            'Configuration c1 active: 4 of 4 nodes done (100%); ok 4, '
            'failed 0, running 0, pending 0, waiting 0; elapsed 0:08, ETA '
            '0:00'], self.app.stderr.getvalue().splitlines())
        self.assertNotIn('\r', self.app.stderr.getvalue())

    def test_bar_on_a_terminal_and_failed_nodes_named(self):
        self.app.stderr = TtyStream()
        self.polls(counts(waiting=2, pending=2),
                   counts(ok=1, failed=1, running=2),
                   counts(ok=2, failed=2))
        self.failed_nodes('n3', 'n4')
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.CreateHostosConfiguration,
                              self.ARGV + ['--wait', '600'])
        frames = self.app.stderr.getvalue().split('\r')[1:]
        self.assertEqual([
            '[--------------------]   0% 0/4 ok:0 fail:0 run:0 pend:2 '
            'wait:2  0:00 ETA ?',
            '[##########----------]  50% 2/4 ok:1 fail:1 run:2 pend:0 '
            'wait:0  0:02 ETA 0:02',
            '[####################] 100% 4/4 ok:2 fail:2 run:0 pend:0 '
            'wait:0  0:04 ETA 0:00\n'], frames)
        self.assertRequest(self.last(), 'GET', NODES_PATH,
                           params={'state': 'failed'})
        self.assertEqual(
            'Configuration c1: 2 of 4 nodes failed: n3 (%s, exit code 2); '
            'n4 (%s, exit code 2). See: openstack baremetal hostos '
            'configuration status c1 --state failed' % (ITEM, ITEM), str(e))

    def test_bar_fits_the_terminal(self):
        self.app.stderr = TtyStream()
        self.polls(counts(pending=4), counts(ok=4))
        self.run_command(hc.CreateHostosConfiguration,
                         self.ARGV + ['--wait'], width=30)
        frame = self.app.stderr.getvalue().split('\r')[-1]
        self.assertEqual(30, len(frame))  # 29 and the newline
        self.assertTrue(frame.startswith('[####################] 100%'))

    def test_many_failures_counted_beyond_those_named(self):
        self.polls(counts(selected=8, pending=8), counts(selected=8,
                                                         failed=8))
        self.failed_nodes(*['n%d' % i for i in range(8)])
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.CreateHostosConfiguration,
                              self.ARGV + ['--wait'])
        self.assertIn('8 of 8 nodes failed: n0 (', str(e))
        self.assertIn('n4 (%s, exit code 2); and 3 more. See:' % ITEM,
                      str(e))

    def test_paused(self):
        self.polls(counts(selected=10, pending=10),
                   counts(selected=10, failed=2, ok=1, pending=7))
        self.session.route('GET', CONFIG_PATH, *answers(
            configuration(nodes=counts(selected=10, pending=10)),
            configuration('paused', counts(selected=10, failed=2, ok=1,
                                           pending=7),
                          status_reason='2 nodes failed (failure '
                                        'threshold 2)')))
        self.failed_nodes('n1', 'n2')
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.CreateHostosConfiguration,
                              self.ARGV + ['--wait'])
        self.assertEqual(
            'Configuration c1 is paused (2 nodes failed (failure threshold '
            '2)): 2 of 10 nodes failed: n1 (%s, exit code 2); n2 (%s, exit '
            'code 2); 7 not configured. Resume with: openstack baremetal '
            'hostos configuration resume c1' % (ITEM, ITEM), str(e))

    def test_timeout(self):
        self.polls(counts(ok=1, running=1, pending=1, waiting=1))
        e = self.assertRaises(common.WaitTimeout, self.run_command,
                              hc.CreateHostosConfiguration,
                              self.ARGV + ['--wait', '5'])
        self.assertEqual(
            'Timed out after 5 seconds: configuration c1 has 1 of 4 nodes '
            'done (ok 1, failed 0; running 1, pending 1, waiting 1). See: '
            'openstack baremetal hostos configuration status c1', str(e))
        self.assertEqual([2.0, 2.0, 1.0], self.clock.sleeps)

    def test_no_node_selected_settles(self):
        # Nothing selected yet: believed after SETTLE_TIME only, then a
        # warning naming the node query of the selector.
        self.polls(counts(selected=0))
        shown = self.text(self.run_command(hc.CreateHostosConfiguration,
                                           self.ARGV + ['--wait']))
        self.assertEqual('selected 0', shown['nodes'])
        self.assertEqual(hs.SETTLE_TIME, sum(self.clock.sleeps))
        self.assertEqual(
            'Warning: configuration c1 selects no node (see: openstack '
            'baremetal node list --label-selector \'env=prod,tier in '
            '(web,db)\').', self.app.stderr.getvalue().splitlines()[-1])

    def test_no_node_selected_within_a_short_timeout(self):
        self.polls(counts(selected=0))
        self.run_command(hc.CreateHostosConfiguration,
                         self.ARGV + ['--wait', '3'])
        self.assertEqual([2.0, 1.0], self.clock.sleeps)
        self.assertIn('selects no node', self.app.stderr.getvalue())

    def test_late_selection_is_waited_for(self):
        self.polls(counts(selected=0), counts(selected=2, pending=2),
                   counts(selected=2, ok=2))
        self.run_command(hc.CreateHostosConfiguration,
                         self.ARGV + ['--wait'])
        self.assertEqual(3, len([r for r in self.requests()
                                 if r.path == CONFIG_PATH]))
        self.assertNotIn('Warning', self.app.stderr.getvalue())

    def test_deleted_while_waiting(self):
        self.polls(counts(pending=4))
        self.session.route('GET', CONFIG_PATH, *answers(
            configuration(), configuration('deleting')))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.CreateHostosConfiguration,
                              self.ARGV + ['--wait'])
        self.assertEqual('Configuration c1 is being deleted (deleting).',
                         str(e))

    def test_ctrl_c(self):
        self.polls(counts(pending=4))

        def interrupted(seconds):
            raise KeyboardInterrupt()
        self.clock.sleep = interrupted
        self.assertRaises(KeyboardInterrupt, self.run_command,
                          hc.CreateHostosConfiguration,
                          self.ARGV + ['--wait'])
        self.assertIn('Stopped waiting; configuration c1 goes on',
                      self.app.stderr.getvalue())

    def test_reapply_wait(self):
        self.session.route('POST', CONFIG_PATH + '/reapply',
                           fakes.FakeResponse(202))
        self.polls(counts(ok=3, pending=1), counts(ok=4))
        self.run_command(hc.ReapplyHostosConfiguration,
                         ['c1', '--node', 'n1', '--wait'])
        self.assertEqual('Reapplying configuration c1 on nodes n1\n',
                         self.app.stdout.getvalue())
        self.assertEqual(2, len(self.app.stderr.getvalue().splitlines()))

    def test_reapply_not_taken_yet_settles(self):
        # The first polls still show the last run's outcome.
        self.session.route('POST', CONFIG_PATH + '/reapply',
                           fakes.FakeResponse(202))
        self.polls(*([counts(ok=4)] * 3 + [counts(ok=3, pending=1),
                                           counts(ok=3, failed=1)]))
        self.failed_nodes('n4')
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.ReapplyHostosConfiguration,
                              ['c1', '--wait'])
        self.assertIn('1 of 4 nodes failed: n4', str(e))

    def test_resume_wait(self):
        self.session.route('POST', CONFIG_PATH + '/resume',
                           fakes.FakeResponse(202))
        self.polls(counts(ok=2, failed=1, pending=1), counts(ok=3, failed=1))
        self.failed_nodes('n4')
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.ResumeHostosConfiguration,
                              ['c1', '--wait'])
        self.assertRequest(self.requests()[0], 'POST',
                           CONFIG_PATH + '/resume', body={})
        self.assertIn('Configuration c1: 1 of 4 nodes failed: n4', str(e))

    def test_status_wait_shows_the_table_then_exits_1(self):
        self.polls(counts(ok=1, pending=1, selected=2),
                   counts(ok=1, failed=1, selected=2))
        self.failed_nodes('n2')
        cmd, parsed = self.parse(hc.StatusHostosConfiguration,
                                 ['c1', '--wait'])
        cmd.clock = self.clock.monotonic
        cmd.sleep = self.clock.sleep
        self.assertEqual(1, cmd.run(parsed))
        self.assertIn('| n2   | %s          | failed |' % ITEM,
                      self.app.stdout.getvalue())
        self.assertIn('Configuration c1: 1 of 2 nodes failed: n2 (%s, exit '
                      'code 2)' % ITEM, self.app.stderr.getvalue())

    def test_status_wait_success_exits_0(self):
        # Finished already: no settling (status takes no action first).
        self.polls(counts(ok=1, selected=1))
        self.session.route('GET', NODES_PATH, fakes.FakeResponse(
            200, node_status(('n1', [item(ITEM, 'ok', 0)]))))
        cmd, parsed = self.parse(hc.StatusHostosConfiguration,
                                 ['c1', '--wait', '--state', 'ok'])
        cmd.clock = self.clock.monotonic
        cmd.sleep = self.clock.sleep
        self.assertEqual(0, cmd.run(parsed))
        self.assertRequest(self.last(), 'GET', NODES_PATH,
                           params={'state': 'ok'})
        self.assertEqual([], self.clock.sleeps)


# -- list, show, status ------------------------------------------------------

class TestListShowStatus(ConfigurationTestCase):

    def test_list(self):
        self.session.route('GET', '/v1/hostos/configurations',
                           fakes.FakeResponse(200, {'configurations': [
                               configuration(order=2, nodes=counts(
                                   ok=3, failed=1)),
                               configuration(name='c2', machine_selector={},
                                             configs=[], nodes={})]}))
        titles, rows = self.rows(self.run_command(
            hc.ListHostosConfiguration, ['--status', 'active']))
        self.assertRequest(self.last(), 'GET', '/v1/hostos/configurations',
                           params={'status': 'active'})
        self.assertEqual(hc.SHORT_TITLES, titles)
        _titles, values = self.run_command(hc.ListHostosConfiguration, [])
        texts = [[getattr(v, 'human_readable', lambda: v)() for v in row]
                 for row in values]
        self.assertEqual(
            [['c1', 'active', 2, 'env=prod,tier in (web,db)',
              'sysctl 1.2.0', 'selected 4: ok 3, failed 1'],
             ['c2', 'active', None, '(selects no node)', '-',
              'selected 0']], texts)
        self.assertEqual({}, self.last().params)

    def test_list_long(self):
        self.session.route('GET', '/v1/hostos/configurations',
                           fakes.FakeResponse(200, [configuration(
                               status='delete_failed',
                               status_reason='nodes n3 still hold items')]))
        titles, rows = self.rows(self.run_command(
            hc.ListHostosConfiguration, ['--long']))
        self.assertEqual(hc.LONG_TITLES, titles)
        self.assertEqual('nodes n3 still hold items',
                         rows[0][titles.index('Status Reason')])

    def test_list_bad_status(self):
        self.assertParseFails(hc.ListHostosConfiguration,
                              ['--status', 'broken'])

    def test_show(self):
        self.session.route('GET', CONFIG_PATH, fakes.FakeResponse(
            200, configuration(nodes=counts(ok=2, failed=1, running=1),
                               extra_field='x')))
        result = self.run_command(hc.ShowHostosConfiguration, ['c1'])
        shown = self.text(result)
        self.assertEqual('selected 4: ok 2, failed 1, running 1',
                         shown['nodes'])
        self.assertEqual('x', shown['extra_field'])
        self.assertNotIn('links', shown)
        # JSON and YAML get the API's values.
        self.assertEqual(counts(ok=2, failed=1, running=1),
                         self.as_dict(result)['nodes'].machine_readable())

    def test_show_not_found(self):
        self.session.route('GET', CONFIG_PATH, fakes.fault(
            404, 'Host OS configuration c1 could not be found.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.ShowHostosConfiguration, ['c1'])
        self.assertEqual('Host OS configuration c1 could not be found. '
                         '(HTTP 404)', str(e))

    def test_status_table(self):
        self.session.route('GET', NODES_PATH, fakes.FakeResponse(
            200, node_status(
                ('n1', [item(DOWNLOAD, 'ok', 0), item(ITEM, 'ok', 0)]),
                ('n2', [item(DOWNLOAD, 'ok', 0),
                        item(ITEM, 'failed', 2, attempt=3,
                             output='TASK [sysctl] fatal')]))))
        titles, rows = self.rows(self.run_command(
            hc.StatusHostosConfiguration,
            ['c1', '--node', 'n2', '--state', 'failed']))
        self.assertRequest(self.last(), 'GET', NODES_PATH,
                           params={'node': 'n2', 'state': 'failed'})
        self.assertEqual(('Node', 'Item', 'State', 'Exit Code', 'Attempt',
                          'Finished At'), titles)
        self.assertEqual(('n2', ITEM, 'failed', 2, 3, 'f'), rows[3])
        self.assertEqual(4, len(rows))
        self.assertNoVersionHeader()

    def test_status_long_has_the_output(self):
        self.session.route('GET', NODES_PATH, fakes.FakeResponse(
            200, node_status(('n2', [item(ITEM, 'failed', 2,
                                          output='fatal: [localhost]')]))))
        titles, rows = self.rows(self.run_command(
            hc.StatusHostosConfiguration, ['c1', '--long']))
        self.assertEqual('Output', titles[-1])
        self.assertEqual('fatal: [localhost]', rows[0][-1])
        self.assertEqual({}, self.last().params)

    def test_status_bad_state(self):
        self.assertParseFails(hc.StatusHostosConfiguration,
                              ['c1', '--state', 'done'])


# -- set --------------------------------------------------------------------

class TestSetConfiguration(ConfigurationTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('PATCH', CONFIG_PATH,
                           fakes.FakeResponse(200, configuration()))
        self.session.route('GET', CONFIG_PATH, fakes.FakeResponse(
            200, configuration(configs=[
                {'module': 'sysctl', 'module_version': '1.2.0'},
                {'module': 'package', 'module_version': '1.4.0'},
                {'module': 'package', 'module_version': '1.4.0'}])))

    def patch(self):
        self.assertEqual('PATCH', self.last().method)
        return self.last().body

    def test_rollout_options_need_no_get(self):
        self.run_command(hc.SetHostosConfiguration, [
            'c1', '--order', '3', '--max-concurrent', '5',
            '--failure-threshold', '2', '--config-values',
            '0={"options": {"vm.swappiness": 5}}', '--config-version',
            '1=1.5.0'])
        self.assertEqual([
            {'op': 'add', 'path': '/order', 'value': 3},
            {'op': 'add', 'path': '/max_concurrent', 'value': 5},
            {'op': 'add', 'path': '/failure_threshold', 'value': 2},
            {'op': 'add', 'path': '/configs/1/module_version',
             'value': '1.5.0'},
            {'op': 'add', 'path': '/configs/0/values',
             'value': {'options': {'vm.swappiness': 5}}}], self.patch())
        self.assertEqual(1, len(self.requests()))
        self.assertNoVersionHeader()

    def test_selector_labels_and_expressions_into_the_existing(self):
        self.run_command(hc.SetHostosConfiguration, [
            'c1', '--selector-label', 'zone=a',
            '--selector-label', 'example.com/role=web',
            '--selector-expression', 'gpu Exists'])
        self.assertEqual(['GET', 'PATCH'],
                         [r.method for r in self.requests()])
        self.assertEqual([
            {'op': 'add', 'path': '/machine_selector/match_labels/zone',
             'value': 'a'},
            {'op': 'add',
             'path': '/machine_selector/match_labels/example.com~1role',
             'value': 'web'},
            {'op': 'add', 'path': '/machine_selector/match_expressions/-',
             'value': {'key': 'gpu', 'operator': 'Exists'}}], self.patch())

    def test_selector_parts_missing(self):
        self.session.route('GET', CONFIG_PATH, fakes.FakeResponse(
            200, configuration(machine_selector={})))
        self.run_command(hc.SetHostosConfiguration, [
            'c1', '--selector-label', 'zone=a',
            '--selector-expression', '!legacy'])
        self.assertEqual([
            {'op': 'add', 'path': '/machine_selector/match_labels',
             'value': {'zone': 'a'}},
            {'op': 'add', 'path': '/machine_selector/match_expressions',
             'value': [{'key': 'legacy', 'operator': 'DoesNotExist'}]}],
            self.patch())
        self.session.route('GET', CONFIG_PATH, fakes.FakeResponse(
            200, configuration(machine_selector=None)))
        self.run_command(hc.SetHostosConfiguration,
                         ['c1', '--selector-label', 'zone=a'])
        self.assertEqual([{'op': 'add', 'path': '/machine_selector',
                           'value': {'match_labels': {'zone': 'a'}}}],
                         self.patch())

    def test_selector_replaced(self):
        self.run_command(hc.SetHostosConfiguration, [
            'c1', '--selector', 'env=prod,tier notin (db)',
            '--selector-label', 'zone=a'])
        self.assertEqual([{'op': 'add', 'path': '/machine_selector',
                           'value': {'match_labels': {'env': 'prod',
                                                      'zone': 'a'},
                                     'match_expressions': [
                                         {'key': 'tier',
                                          'operator': 'NotIn',
                                          'values': ['db']}]}}],
                         self.patch())
        self.assertEqual(1, len(self.requests()))

    def test_configs_by_module_name(self):
        values = self.write('v.json', '{"options": {"a": 1}}')
        secrets = self.write('s.yaml', 'token: n3w\n')
        logged = self.record_logging()
        self.run_command(hc.SetHostosConfiguration, [
            'c1', '--config-values', 'sysctl=@' + values,
            '--config-secret-values', 'sysctl=@' + secrets,
            '--remove-config', '1', '--remove-config', '2',
            '--add-config', 'module=chrony,version=1.0.0,values={"a": 1}'])
        self.assertEqual([
            {'op': 'add', 'path': '/configs/0/values',
             'value': {'options': {'a': 1}}},
            {'op': 'add', 'path': '/configs/0/secret_values',
             'value': {'token': 'n3w'}},
            {'op': 'remove', 'path': '/configs/2'},
            {'op': 'remove', 'path': '/configs/1'},
            {'op': 'add', 'path': '/configs/-',
             'value': {'module': 'chrony', 'module_version': '1.0.0',
                       'values': {'a': 1}}}], self.patch())
        # The configuration is fetched once; the patch with secrets is
        # not logged.
        self.assertEqual(['GET', 'PATCH'],
                         [r.method for r in self.requests()])
        self.assertEqual([('GET', True), ('PATCH', False)], logged)

    def test_config_index_errors(self):
        for argv, message in (
                (['--config-values', 'package={}'],
                 'several configs of module package (indexes 1, 2)'),
                (['--remove-config', 'chrony'],
                 'has no config of module "chrony"'),
                (['--config-values', '0=[1]'], 'must be an object'),
                (['--config-version', '1.5.0'], 'use INDEX=VALUE'),
                (['--config-secret-values', '0={"k": "******"}'],
                 'the mask ******')):
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  hc.SetHostosConfiguration, ['c1'] + argv)
            self.assertIn(message, str(e))
        self.assertNotIn('PATCH', [r.method for r in self.requests()])

    def test_nothing_to_set(self):
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.SetHostosConfiguration, ['c1'])
        self.assertIn('Nothing to set', str(e))
        self.assertEqual([], self.requests())

    def test_api_error(self):
        self.session.route('PATCH', CONFIG_PATH, fakes.fault(
            409, 'Module sysctl version 9.9.9 is in state error: hashes '
                 'are not the same'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.SetHostosConfiguration,
                              ['c1', '--config-version', '0=9.9.9'])
        self.assertIn('is in state error', str(e))
        self.assertIn('(HTTP 409)', str(e))


# -- delete, reapply, resume ------------------------------------------------

class TestDeleteConfiguration(ConfigurationTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('DELETE', '/v1/hostos/configurations/.*',
                           fakes.FakeResponse(202))

    def test_delete(self):
        self.run_command(hc.DeleteHostosConfiguration, ['c1', 'c2'])
        self.assertEqual([('DELETE', CONFIG_PATH),
                          ('DELETE', '/v1/hostos/configurations/c2')],
                         [(r.method, r.path) for r in self.requests()])
        self.assertEqual('Deleting configuration c1 (it goes once its '
                         'nodes dropped its items)\nDeleting configuration '
                         'c2 (it goes once its nodes dropped its items)\n',
                         self.app.stdout.getvalue())

    def test_wait_until_gone(self):
        self.session.route('GET', CONFIG_PATH, *answers(
            configuration('deleting'), configuration('deleting')) + [
            fakes.fault(404, 'Host OS configuration c1 could not be '
                             'found.')])
        self.run_command(hc.DeleteHostosConfiguration, ['c1', '--wait'])
        self.assertEqual(['DELETE', 'GET', 'GET', 'GET'],
                         [r.method for r in self.requests()])
        self.assertEqual([0.5, 1.0], self.clock.sleeps)
        self.assertEqual('Deleted configuration c1\n',
                         self.app.stdout.getvalue())

    def test_wait_delete_failed(self):
        self.session.route('GET', CONFIG_PATH, *answers(
            configuration('deleting'),
            configuration('delete_failed',
                          status_reason='Nodes still hold items: n3, n4')))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.DeleteHostosConfiguration,
                              ['c1', '--wait'])
        self.assertEqual('Failed to delete configuration c1: delete_failed: '
                         'Nodes still hold items: n3, n4 (delete it again '
                         'to retry)', str(e))

    def test_wait_timeout(self):
        self.session.route('GET', CONFIG_PATH, fakes.FakeResponse(
            200, configuration('deleting', status_reason='n3 holds items')))
        e = self.assertRaises(common.WaitTimeout, self.run_command,
                              hc.DeleteHostosConfiguration,
                              ['c1', '--wait', '2'])
        self.assertEqual('Timed out after 2 seconds: c1 deleting: n3 holds '
                         'items.', str(e))

    def test_refused_delete_is_not_waited_for(self):
        self.session.route('DELETE', '/v1/hostos/configurations/c2',
                           fakes.fault(404, 'Host OS configuration c2 could '
                                            'not be found.'))
        self.session.route('GET', CONFIG_PATH, fakes.fault(404, 'gone'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.DeleteHostosConfiguration,
                              ['c1', 'c2', '--wait'])
        self.assertEqual('Failed to delete configuration c2: Host OS '
                         'configuration c2 could not be found. (HTTP 404)',
                         str(e))
        self.assertEqual('Deleted configuration c1\n',
                         self.app.stdout.getvalue())


class TestReapplyResume(ConfigurationTestCase):

    def test_reapply_every_node(self):
        self.session.route('POST', CONFIG_PATH + '/reapply',
                           fakes.FakeResponse(202))
        self.run_command(hc.ReapplyHostosConfiguration, ['c1'])
        self.assertRequest(self.last(), 'POST', CONFIG_PATH + '/reapply',
                           body={})
        self.assertEqual('Reapplying configuration c1 on every selected '
                         'node\n', self.app.stdout.getvalue())
        self.assertNoVersionHeader()

    def test_reapply_nodes(self):
        self.session.route('POST', CONFIG_PATH + '/reapply',
                           fakes.FakeResponse(202))
        self.run_command(hc.ReapplyHostosConfiguration,
                         ['c1', '--node', 'n1', '--node', fakes.NODE_UUID])
        self.assertEqual({'nodes': ['n1', fakes.NODE_UUID]},
                         self.last().body)

    def test_reapply_error(self):
        self.session.route('POST', CONFIG_PATH + '/reapply', fakes.fault(
            400, 'Node n9 is not selected by configuration c1.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              hc.ReapplyHostosConfiguration,
                              ['c1', '--node', 'n9', '--wait'])
        self.assertIn('Node n9 is not selected', str(e))
        self.assertEqual(1, len(self.requests()))

    def test_resume(self):
        self.session.route('POST', CONFIG_PATH + '/resume',
                           fakes.FakeResponse(200, configuration()))
        self.run_command(hc.ResumeHostosConfiguration, ['c1'])
        self.assertRequest(self.last(), 'POST', CONFIG_PATH + '/resume',
                           body={})
        self.assertEqual('Resumed configuration c1\n',
                         self.app.stdout.getvalue())
