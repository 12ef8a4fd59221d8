"""Shared helpers: KEY=VALUE options, patches, output, the wait loop."""

import argparse
import io

from osc_lib.cli import format_columns
from osc_lib import exceptions as osc_exc
import testtools

from ironic_like.osc import common
from ironic_like.tests.unit.osc import fakes


class TestOptionValues(testtools.TestCase):

    def test_key_value_decodes_json(self):
        self.assertEqual(('cpus', 4), common.key_value('cpus=4'))
        self.assertEqual(('ok', True), common.key_value('ok=true'))
        self.assertEqual(('l', [1, 2]), common.key_value('l=[1, 2]'))
        self.assertEqual(('s', 'abc'), common.key_value('s=abc'))
        self.assertEqual(('eq', 'a=b'), common.key_value('eq=a=b'))
        self.assertEqual(('empty', ''), common.key_value('empty='))

    def test_key_value_without_decoding(self):
        self.assertEqual(('cpus', '4'), common.key_value('cpus=4', False))

    def test_key_value_errors(self):
        self.assertRaises(osc_exc.CommandError, common.key_value, 'novalue')
        self.assertRaises(osc_exc.CommandError, common.key_value, '=v')

    def test_to_dict(self):
        self.assertEqual({'a': 1, 'b': 'x'},
                         common.to_dict(['a=0', 'b=x', 'a=1']))
        self.assertEqual({}, common.to_dict(None))

    def test_bool_arg(self):
        self.assertTrue(common.bool_arg('true'))
        self.assertTrue(common.bool_arg('Yes'))
        self.assertFalse(common.bool_arg('false'))
        self.assertFalse(common.bool_arg('0'))
        self.assertRaises(argparse.ArgumentTypeError, common.bool_arg, 'x')

    def test_json_arg(self):
        self.assertEqual([{'a': 1}], common.json_arg('[{"a": 1}]'))
        self.assertRaises(argparse.ArgumentTypeError, common.json_arg, '[')

    def test_flatten(self):
        self.assertEqual(['uuid', 'name', 'driver'],
                         common.flatten([['uuid', 'name'],
                                         ['driver,uuid']]))
        self.assertEqual([], common.flatten(None))

    def test_sort_params(self):
        self.assertEqual({}, common.sort_params(None))
        self.assertEqual({'sort_key': 'name'}, common.sort_params('name'))
        self.assertEqual({'sort_key': 'name', 'sort_dir': 'desc'},
                         common.sort_params('name:desc'))
        self.assertRaises(osc_exc.CommandError, common.sort_params,
                          'name:up')


class TestPatches(testtools.TestCase):

    def test_dict_add_ops(self):
        self.assertEqual(
            [{'op': 'add', 'path': '/properties/cpus', 'value': 4},
             {'op': 'add', 'path': '/properties/a/b', 'value': 'c'}],
            common.dict_add_ops('properties', ['cpus=4', 'a/b=c']))

    def test_dict_add_ops_strings(self):
        self.assertEqual(
            [{'op': 'add', 'path': '/labels/n', 'value': '1'}],
            common.dict_add_ops('labels', ['n=1'], deserialize=False))

    def test_dict_remove_ops(self):
        self.assertEqual([{'op': 'remove', 'path': '/extra/k'}],
                         common.dict_remove_ops('extra', ['k']))
        self.assertEqual([], common.dict_remove_ops('extra', None))


class TestOutput(testtools.TestCase):

    def test_label(self):
        self.assertEqual('UUID', common.label('uuid'))
        self.assertEqual('Instance UUID', common.label('instance_uuid'))
        self.assertEqual('Provisioning State',
                         common.label('provision_state'))
        self.assertEqual('Resource Class', common.label('resource_class'))

    def test_show_sorts_drops_links_and_formats(self):
        names, values = common.show({'b': {'x': 1}, 'a': [1],
                                     'links': [], 'c': 'v'})
        self.assertEqual(('a', 'b', 'c'), names)
        self.assertIsInstance(values[0], format_columns.ListColumn)
        self.assertIsInstance(values[1], format_columns.DictColumn)
        self.assertEqual({'x': 1}, values[1].machine_readable())
        self.assertEqual('v', values[2])

    def test_lists_of_objects_one_json_object_a_line(self):
        # Deploy template and runbook steps: ListColumn joins strings only.
        _names, values = common.show({'steps': [{'step': 'a'},
                                                {'step': 'b'}]})
        self.assertEqual('{"step": "a"}\n{"step": "b"}',
                         values[0].human_readable())
        self.assertEqual([{'step': 'a'}, {'step': 'b'}],
                         values[0].machine_readable())

    def test_show_keeps_asked_links(self):
        names, _values = common.show({'links': [], 'uuid': 'u'},
                                     keep=['links'])
        self.assertEqual(('links', 'uuid'), names)

    def test_listing(self):
        titles, rows = common.listing([{'uuid': 'u', 'name': 'n'}],
                                      ['uuid', 'name', 'missing'])
        self.assertEqual(('UUID', 'Name', 'Missing'), titles)
        self.assertEqual([('u', 'n', None)], list(rows))

    def test_long_fields(self):
        self.assertEqual(['uuid', 'name', 'zz'], common.long_fields(
            [{'zz': 1, 'name': 2, 'uuid': 3, 'links': []}],
            ['uuid', 'name', 'other']))
        self.assertEqual(['uuid', 'other'],
                         common.long_fields([], ['uuid', 'other']))

    def test_delete_each(self):
        out = io.StringIO()
        deleted = []

        def delete(ident):
            if ident == 'bad':
                raise osc_exc.CommandError('No such thing (HTTP 404)')
            deleted.append(ident)
        e = self.assertRaises(osc_exc.CommandError, common.delete_each,
                              ['a', 'bad', 'b'], delete, 'node', out)
        self.assertEqual(['a', 'b'], deleted)
        self.assertEqual('Deleted node a\nDeleted node b\n', out.getvalue())
        self.assertEqual('Failed to delete node bad: No such thing '
                         '(HTTP 404)', str(e))


class TtyStream(io.StringIO):
    def isatty(self):
        return True


class TestProgress(testtools.TestCase):

    def test_silent_when_not_a_terminal(self):
        stream = io.StringIO()
        progress = common.Progress(stream)
        progress.update('hello')
        progress.finish()
        self.assertEqual('', stream.getvalue())

    def test_rewrites_one_line_on_a_terminal(self):
        stream = TtyStream()
        progress = common.Progress(stream)
        progress.update('long text')
        progress.update('short')
        progress.finish()
        self.assertEqual('\rlong text\rshort    \r     \r',
                         stream.getvalue())


class TestWaitFor(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.clock = fakes.FakeClock()
        self.stream = TtyStream()

    def wait(self, states, timeout, check=None):
        states = list(states)
        fetched = []

        def fetch():
            state = states.pop(0) if len(states) > 1 else states[0]
            fetched.append(state)
            return {'state': state}

        def default_check(resource):
            if resource['state'] == 'error':
                raise osc_exc.CommandError('failed')
            return resource['state'] == 'done'
        result = common.wait_for(
            fetch, check or default_check,
            lambda r: 'waiting: %s' % r['state'], timeout,
            clock=self.clock.monotonic, sleep=self.clock.sleep,
            progress=common.Progress(self.stream))
        return result, fetched

    def test_returns_when_done_with_backoff(self):
        result, fetched = self.wait(['a', 'b', 'c', 'd', 'done'], 60)
        self.assertEqual({'state': 'done'}, result)
        self.assertEqual(5, len(fetched))
        self.assertEqual([0.5, 1.0, 2.0, 2.0], self.clock.sleeps)
        self.assertIn('waiting: d', self.stream.getvalue())
        self.assertTrue(self.stream.getvalue().endswith('\r'))

    def test_done_at_once_does_not_sleep(self):
        self.wait(['done'], 10)
        self.assertEqual([], self.clock.sleeps)
        self.assertEqual('', self.stream.getvalue())

    def test_timeout_is_bounded(self):
        e = self.assertRaises(common.WaitTimeout, self.wait, ['busy'], 7)
        self.assertEqual('Timed out after 7 seconds: waiting: busy.',
                         str(e))
        # Never sleeps past the deadline: 0.5 + 1 + 2 + 2 + 1.5 = 7.
        self.assertEqual(7.0, sum(self.clock.sleeps))
        self.assertEqual(6, len(self.clock.sleeps) + 1)

    def test_failure_raises_the_check_error(self):
        e = self.assertRaises(osc_exc.CommandError, self.wait,
                              ['a', 'error'], 60)
        self.assertEqual('failed', str(e))
        # The progress line is erased even on failure.
        self.assertTrue(self.stream.getvalue().endswith('\r'))

    def test_no_timeout_waits_until_done(self):
        result, fetched = self.wait(['a'] * 50 + ['done'], 0)
        self.assertEqual({'state': 'done'}, result)
        self.assertEqual(51, len(fetched))
