"""State items (common/hostos/items.py): names, derivation, hash, order,
states."""

import copy
import hashlib
import json

import testtools

from ironic_like.common import exception
from ironic_like.common.hostos import items

MODULES_DIR = '/root/host-os-modules'
ANSIBLE = '/usr/bin/ansible-playbook'
SHA = 'a' * 64
SECRET = 'sentinel-s3cr3t-value'

MODULES = {
    ('sample-module', '1.0.0'): {'url': 'https://mods/sample-1.0.0.tgz',
                                 'sha256sum': SHA, 'playbook': 'main.yaml'},
    ('sysctl', '1.2.0'): {'url': 'https://mods/sysctl-1.2.0.tgz',
                          'sha256sum': 'b' * 64,
                          'playbook': './dir/play.yaml'},
}


def configuration(**kw):
    value = {
        'name': 'test', 'order': None, 'secret_salt': 'salt',
        'configs': [{'module': 'sample-module', 'module_version': '1.0.0',
                     'values': {'a': 1}, 'order': None,
                     'phase': 'reconfigure'}],
        'secret_values': [None],
    }
    value.update(kw)
    return value


def derive(config=None, modules=MODULES):
    return items.derive(config or configuration(), modules, MODULES_DIR,
                        ANSIBLE)


class TestNames(testtools.TestCase):

    def test_seed_example(self):
        self.assertEqual(
            'host-os-download-test-sample-module-1.0.0-reconfigure',
            items.download_item_name('test', 'sample-module', '1.0.0'))
        self.assertEqual(
            'host-os-test-sample-module-1.0.0-reconfigure',
            items.ansible_item_name('test', 'sample-module', '1.0.0'))

    def test_phase(self):
        self.assertEqual('host-os-c-m-1.0.0-deploy',
                         items.ansible_item_name('c', 'm', '1.0.0',
                                                 phase='deploy'))

    def test_name_pattern(self):
        for name in ('a', 'sysctl', 'a.b_c-d', '0', 'a' * 63):
            self.assertTrue(items.is_valid_name(name), name)
            self.assertTrue(items.NAME_PATTERN.match(name), name)
        for name in ('', 'A', '-a', 'a-', 'a' * 64, 'a b', 'a/b', None,
                     'a\n'):
            self.assertFalse(items.is_valid_name(name), repr(name))

    def test_module_path(self):
        self.assertEqual('/root/host-os-modules/sample-module-1.0.0',
                         items.module_path(MODULES_DIR, 'sample-module',
                                           '1.0.0'))
        self.assertEqual('/m/x-1.0.0', items.module_path('/m/', 'x',
                                                         '1.0.0'))

    def test_constants(self):
        self.assertEqual(('downloader', 'ansible', 'reconfigure', 'v1',
                          4096),
                         (items.RUNNER_DOWNLOADER, items.RUNNER_ANSIBLE,
                          items.PHASE, items.ITEM_VERSION, items.MAX_OUTPUT))
        self.assertEqual(('pending', 'running', 'ok', 'failed'),
                         items.ITEM_STATES)


class TestDerive(testtools.TestCase):

    def test_seed_example(self):
        download, run = derive()
        self.assertEqual(
            {'name': 'host-os-download-test-sample-module-1.0.0-reconfigure',
             'runner': 'downloader', 'phase': 'reconfigure', 'version': 'v1',
             'params': {'url': 'https://mods/sample-1.0.0.tgz',
                        'sha256': SHA,
                        'path': '/root/host-os-modules/sample-module-1.0.0'},
             'sort_key': [1025, 'test', 1025, 0, 0], 'config_index': 0,
             'module': 'sample-module', 'module_version': '1.0.0'},
            download)
        self.assertEqual(
            {'name': 'host-os-test-sample-module-1.0.0-reconfigure',
             'runner': 'ansible', 'phase': 'reconfigure', 'version': 'v1',
             'params': {'playbook': '/root/host-os-modules/'
                                    'sample-module-1.0.0/main.yaml',
                        'ansible': ANSIBLE, 'values': {'a': 1}},
             'sort_key': [1025, 'test', 1025, 0, 1], 'config_index': 0,
             'module': 'sample-module', 'module_version': '1.0.0'},
            run)

    def test_overwrites_follow_their_meaning(self):
        # Seed 001's LCMMachine example swaps these (the downloader with
        # playbook/ansible, the ansible item with url/sha256/path); a
        # downloader cannot download without a URL, so we follow the
        # meaning, not the example (doc/hostos.md, hoc.md section 5).
        download, run = derive()
        self.assertEqual({'url', 'sha256', 'path'}, set(download['params']))
        self.assertEqual({'playbook', 'ansible', 'values'},
                         set(run['params']))

    def test_playbook_path_inside_module_dir(self):
        config = configuration(configs=[
            {'module': 'sysctl', 'module_version': '1.2.0'}])
        run = derive(config)[1]
        self.assertEqual('/root/host-os-modules/sysctl-1.2.0/dir/play.yaml',
                         run['params']['playbook'])
        # Missing values, order and phase take their defaults.
        self.assertEqual({}, run['params']['values'])
        self.assertEqual('reconfigure', run['phase'])

    def test_unavailable_module_version(self):
        config = configuration()
        config['configs'].append({'module': 'sysctl',
                                  'module_version': '9.0.0'})
        exc = self.assertRaises(exception.InvalidParameterValue, derive,
                                config)
        self.assertEqual('configs/1/module_version', exc.field)
        self.assertIn('module sysctl version 9.0.0 is not available',
                      str(exc))

    def test_unsupported_phase(self):
        config = configuration()
        config['configs'][0]['phase'] = 'deploy'
        exc = self.assertRaises(exception.InvalidParameterValue, derive,
                                config)
        self.assertEqual('configs/0/phase', exc.field)

    def test_same_module_version_twice(self):
        config = configuration()
        config['configs'].append(dict(config['configs'][0], values={}))
        exc = self.assertRaises(exception.InvalidParameterValue, derive,
                                config)
        self.assertEqual('configs/1/module_version', exc.field)

    def test_templates_do_not_share_values(self):
        config = configuration()
        run = derive(config)[1]
        run['params']['values']['a'] = 2
        self.assertEqual({'a': 1}, config['configs'][0]['values'])

    def test_secrets_only_as_digest(self):
        config = configuration(secret_values=[{'key': SECRET}])
        config['configs'][0]['secret_values'] = {'key': SECRET}
        templates = derive(config)
        self.assertNotIn(SECRET, json.dumps(templates))
        node_items = [items.for_node(t, 3) for t in templates]
        self.assertNotIn(SECRET, json.dumps(node_items))
        digest = templates[1]['params']['secret_values_digest']
        self.assertEqual(items.secret_digest('salt', {'key': SECRET}),
                         digest)
        self.assertNotIn('secret_values_digest', templates[0]['params'])

    def test_secret_change_changes_the_hash(self):
        one = items.for_node(derive(configuration(
            secret_values=[{'k': 'a'}]))[1])
        two = items.for_node(derive(configuration(
            secret_values=[{'k': 'b'}]))[1])
        none = items.for_node(derive(configuration(secret_values=[{}]))[1])
        self.assertNotEqual(one['hash'], two['hash'])
        self.assertNotIn('secret_values_digest', none['params'])

    def test_short_secret_list(self):
        config = configuration(secret_values=None)
        self.assertNotIn('secret_values_digest', derive(config)[1]['params'])

    def test_order_within_configuration(self):
        config = configuration(order=5, configs=[
            {'module': 'sample-module', 'module_version': '1.0.0'},
            {'module': 'sysctl', 'module_version': '1.2.0', 'order': 1}])
        self.assertEqual(
            [('sysctl', 'downloader'), ('sysctl', 'ansible'),
             ('sample-module', 'downloader'), ('sample-module', 'ansible')],
            [(t['module'], t['runner']) for t in derive(config)])
        self.assertEqual([5, 'test', 1, 1, 0], derive(config)[0]['sort_key'])


class TestSortKey(testtools.TestCase):

    def test_order(self):
        keys = [
            items.sort_key(1, 'z', None, 0, 'ansible'),
            items.sort_key(None, 'a', 1, 0, 'downloader'),
            items.sort_key(2, 'a', 1, 0, 'downloader'),
            items.sort_key(2, 'a', None, 0, 'downloader'),
            items.sort_key(2, 'a', 1, 1, 'downloader'),
            items.sort_key(1, 'z', None, 0, 'downloader'),
            items.sort_key(2, 'b', 1, 0, 'downloader'),
            items.sort_key(2, 'a', 1, 0, 'ansible'),
            items.sort_key(1024, 'a', 1024, 0, 'downloader'),
            items.sort_key(None, 'a', None, 0, 'downloader'),
            items.sort_key(1, 'y', None, 0, 'downloader'),
        ]
        self.assertEqual([
            [1, 'y', 1025, 0, 0],
            [1, 'z', 1025, 0, 0],
            [1, 'z', 1025, 0, 1],
            [2, 'a', 1, 0, 0],
            [2, 'a', 1, 0, 1],
            [2, 'a', 1, 1, 0],
            [2, 'a', 1025, 0, 0],
            [2, 'b', 1, 0, 0],
            [1024, 'a', 1024, 0, 0],
            [1025, 'a', 1, 0, 0],
            [1025, 'a', 1025, 0, 0],
        ], sorted(keys))

    def test_json_able(self):
        key = items.sort_key(None, 'c', 3, 2, 'ansible')
        self.assertEqual(key, json.loads(json.dumps(key)))

    def test_across_configurations(self):
        first = derive(configuration(name='zz', order=1))
        second = derive(configuration(name='aa'))
        third = derive(configuration(name='bb'))
        merged = sorted(third + second + first,
                        key=lambda item: item['sort_key'])
        self.assertEqual(
            ['host-os-download-zz-sample-module-1.0.0-reconfigure',
             'host-os-zz-sample-module-1.0.0-reconfigure',
             'host-os-download-aa-sample-module-1.0.0-reconfigure',
             'host-os-aa-sample-module-1.0.0-reconfigure',
             'host-os-download-bb-sample-module-1.0.0-reconfigure',
             'host-os-bb-sample-module-1.0.0-reconfigure'],
            [item['name'] for item in merged])

    def test_unknown_runner(self):
        self.assertRaises(ValueError, items.sort_key, 1, 'a', 1, 0, 'bash')


class TestHash(testtools.TestCase):

    def item(self, **params):
        return {'name': 'n', 'runner': 'ansible', 'phase': 'reconfigure',
                'version': 'v1', 'params': params}

    def test_canonical_json(self):
        self.assertEqual('{"a":[1,{"b":"é","c":null}],"z":1}',
                         items.canonical_json({'z': 1, 'a': [
                             1, {'c': None, 'b': 'é'}]}))

    def test_spec_hash_definition(self):
        item = self.item(values={'a': 1})
        text = ('{"name":"n","params":{"values":{"a":1}},'
                '"phase":"reconfigure","runner":"ansible","version":"v1"}')
        self.assertEqual(hashlib.sha256(text.encode()).hexdigest(),
                         items.spec_hash(item))

    def test_stable_under_key_order(self):
        one = self.item(values={'a': 1, 'b': {'x': 1, 'y': 2}}, ansible='a')
        two = {'params': {'ansible': 'a',
                          'values': {'b': {'y': 2, 'x': 1}, 'a': 1}},
               'version': 'v1', 'phase': 'reconfigure', 'runner': 'ansible',
               'name': 'n'}
        self.assertEqual(items.spec_hash(one), items.spec_hash(two))

    def test_other_keys_ignored(self):
        item = self.item(values={})
        self.assertEqual(items.spec_hash(item), items.spec_hash(
            dict(item, sort_key=[1], hash='x', configuration='c', hold=True)))

    def test_changed_by_values(self):
        self.assertNotEqual(items.spec_hash(self.item(values={'a': 1})),
                            items.spec_hash(self.item(values={'a': 2})))
        self.assertNotEqual(items.spec_hash(self.item(values={'a': 1})),
                            items.spec_hash(self.item(values={'a': '1'})))

    def test_for_node(self):
        download, run = derive()
        pristine = copy.deepcopy([download, run])
        node_download = items.for_node(download, 2)
        node_run = items.for_node(run, 2)
        self.assertEqual(pristine, [download, run])
        self.assertNotIn('generation', node_download['params'])
        self.assertEqual(2, node_run['params']['generation'])
        self.assertEqual(items.spec_hash(node_run), node_run['hash'])
        self.assertEqual(items.spec_hash(node_download),
                         node_download['hash'])
        self.assertEqual(1, items.for_node(run)['params']['generation'])
        node_run['params']['values']['a'] = 5
        self.assertEqual({'a': 1}, run['params']['values'])

    def test_generation_changes_only_the_ansible_hash(self):
        download, run = derive()
        self.assertEqual(items.for_node(download, 1)['hash'],
                         items.for_node(download, 2)['hash'])
        self.assertNotEqual(items.for_node(run, 1)['hash'],
                            items.for_node(run, 2)['hash'])

    def test_values_change_the_hash(self):
        config = configuration()
        before = items.for_node(derive(config)[1])
        config['configs'][0]['values'] = {'a': 2}
        self.assertNotEqual(before['hash'],
                            items.for_node(derive(config)[1])['hash'])

    def test_secret_digest(self):
        self.assertIsNone(items.secret_digest('s', None))
        self.assertIsNone(items.secret_digest('s', {}))
        expected = hashlib.sha256(b's{"a":"b","c":"d"}').hexdigest()
        self.assertEqual(expected,
                         items.secret_digest('s', {'c': 'd', 'a': 'b'}))
        self.assertEqual(expected,
                         items.secret_digest(b's', {'c': 'd', 'a': 'b'}))
        self.assertNotEqual(expected,
                            items.secret_digest('t', {'c': 'd', 'a': 'b'}))


class TestStates(testtools.TestCase):

    def test_effective_state(self):
        h = 'h1'
        for args, state in [
                ((h, True, False, h, 'ok', 0), 'removing'),
                ((h, True, True, None, None, None), 'removing'),
                ((h, False, False, h, 'ok', 0), 'ok'),
                ((h, False, True, h, 'ok', 0), 'ok'),
                ((h, False, False, h, 'ok', 2), 'failed'),
                ((h, False, False, h, 'ok', None), 'failed'),
                ((h, False, False, h, 'failed', 1), 'failed'),
                ((h, False, False, h, 'failed', 0), 'failed'),
                ((h, False, False, h, 'running', None), 'running'),
                ((h, False, False, 'old', 'ok', 0), 'pending'),
                ((h, False, True, 'old', 'ok', 0), 'waiting'),
                ((h, False, False, None, None, None), 'pending'),
                ((h, False, True, None, None, None), 'waiting'),
                ((h, False, False, h, 'bogus', 0), 'pending')]:
            self.assertEqual(state, items.effective_state(*args), args)

    def test_node_state(self):
        for states, state in [
                ([], 'pending'),
                (['ok', 'ok'], 'ok'),
                (['ok', 'failed', 'running'], 'failed'),
                (['ok', 'running', 'pending'], 'running'),
                (['waiting', 'waiting'], 'waiting'),
                (['ok', 'waiting'], 'pending'),
                (['ok', 'pending'], 'pending'),
                (['pending', 'waiting'], 'pending'),
                (['removing', 'removing'], 'removing'),
                (['removing', 'ok'], 'ok'),
                (['removing', 'failed'], 'failed')]:
            self.assertEqual(state, items.node_state(states), states)
        self.assertEqual('ok', items.node_state(iter(['ok'])))


class TestTrimOutput(testtools.TestCase):

    def test_short(self):
        for text in (None, '', 'abc', 'é' * 2048):
            self.assertEqual(text, items.trim_output(text))

    def test_keeps_the_tail(self):
        text = 'x' * 5000 + 'END'
        result = items.trim_output(text)
        self.assertEqual(4096, len(result.encode('utf-8')))
        self.assertTrue(result.endswith('END'))

    def test_does_not_break_characters(self):
        # 'é' is two bytes: 4097 bytes, so the cut splits the first one.
        text = 'a' + 'é' * 2048
        self.assertEqual('é' * 2048, items.trim_output(text))
        text = 'é' * 2049
        result = items.trim_output(text)
        self.assertEqual('é' * 2048, result)
        # A 4-byte character cut in its middle is dropped whole.
        text = '😀' * 1025
        result = items.trim_output(text)
        self.assertEqual('😀' * 1024, result)
        self.assertEqual('😀' * 1024, items.trim_output('x' + '😀' * 1024))
