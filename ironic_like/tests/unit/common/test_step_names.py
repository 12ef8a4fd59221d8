"""The rules of the steps the conductor runs itself
(common/step_names.py), shared by the API and the conductor."""

import testtools

from ironic_like.common import exception
from ironic_like.common import step_names

CHILD = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'


class TestWhoRunsAStep(testtools.TestCase):

    def test_reserved_names_whatever_the_interface(self):
        for name in ('power_on', 'power_off', 'reboot', 'wait', 'hold'):
            for interface in ('deploy', 'power', 'bios'):
                self.assertTrue(step_names.run_by_conductor(
                    {'interface': interface, 'step': name}))
        self.assertFalse(step_names.run_by_conductor(
            {'interface': 'deploy', 'step': 'erase_devices'}))

    def test_steps_on_children(self):
        step = {'interface': 'deploy', 'step': 'power_off',
                'execute_on_child_nodes': True}
        self.assertTrue(step_names.on_children(step))
        self.assertFalse(step_names.on_children(
            dict(step, execute_on_child_nodes=False)))

    def test_child_limit_as_uuids_are_stored(self):
        step = {'interface': 'power', 'step': 'reboot',
                'execute_on_child_nodes': True,
                'limit_child_node_execution': [
                    CHILD.upper(), CHILD.replace('-', ''),
                    '{%s}' % CHILD]}
        self.assertEqual([CHILD] * 3, step_names.child_limit(step))
        self.assertEqual([], step_names.child_limit(
            {'interface': 'power', 'step': 'reboot'}))

    def test_wait_seconds(self):
        step = {'interface': 'deploy', 'step': 'wait'}
        self.assertIsNone(step_names.wait_seconds(step))
        self.assertEqual(12, step_names.wait_seconds(
            dict(step, args={'seconds': '12'})))
        self.assertEqual(0, step_names.wait_seconds(
            dict(step, args={'seconds': 0})))


class TestCheck(testtools.TestCase):

    def _refused(self, step, *fragments, field='clean_steps'):
        e = self.assertRaises(exception.InvalidParameterValue,
                              step_names.check,
                              dict({'interface': 'deploy'}, **step),
                              field)
        self.assertEqual(field, e.field)
        for fragment in fragments:
            self.assertIn(fragment, str(e))

    def test_accepted(self):
        for step in ({'step': 'power_off', 'execute_on_child_nodes': True},
                     {'step': 'reboot', 'execute_on_child_nodes': True,
                      'limit_child_node_execution': [CHILD]},
                     {'step': 'power_on', 'execute_on_child_nodes': True,
                      'limit_child_node_execution': []},
                     # An empty list limits nothing: harmless alone.
                     {'step': 'power_on', 'limit_child_node_execution': []},
                     {'step': 'wait', 'args': {'seconds': 10}},
                     {'step': 'wait', 'args': {'seconds': '10'}},
                     {'step': 'wait', 'args': {}},
                     {'step': 'erase_devices',
                      'execute_on_child_nodes': False}):
            step_names.check(dict({'interface': 'deploy'}, **step),
                             'clean_steps')

    def test_child_option_must_be_a_boolean(self):
        self._refused({'step': 'power_off', 'execute_on_child_nodes': 'yes'},
                      'execute_on_child_nodes')

    def test_steps_on_children(self):
        # Ironic: hold cannot run on a child; wait pauses the parent's
        # work.
        for name in ('hold', 'wait'):
            self._refused({'step': name, 'execute_on_child_nodes': True},
                          'execute_on_child_nodes', name,
                          'power_off, power_on, reboot')
        # Another step may be an out-of-band step of the children's
        # interfaces in cleaning and servicing (the conductor checks each
        # child's), not in a deploy.
        step = {'interface': 'vendor', 'step': 'log_passthrough',
                'execute_on_child_nodes': True}
        for field in ('clean_steps', 'service_steps'):
            step_names.check(step, field)
        self._refused(step, 'execute_on_child_nodes', 'log_passthrough',
                      field='deploy_steps')
        # The deploy interface's steps are the agent's.
        self._refused({'interface': 'deploy', 'step': 'erase_devices',
                       'execute_on_child_nodes': True},
                      'execute_on_child_nodes', 'erase_devices')

    def test_limit_must_list_uuids(self):
        for limit in ('%s' % CHILD, [CHILD, 'dpu-1'], [7]):
            self._refused({'step': 'power_off',
                           'execute_on_child_nodes': True,
                           'limit_child_node_execution': limit},
                          'limit_child_node_execution', 'UUIDs')

    def test_limit_needs_execute_on_child_nodes(self):
        # Else the step would run on the parent itself.
        for eocn in (None, False):
            step = {'step': 'power_off',
                    'limit_child_node_execution': [CHILD]}
            if eocn is not None:
                step['execute_on_child_nodes'] = eocn
            self._refused(step, 'limit_child_node_execution',
                          'execute_on_child_nodes true')

    def test_wait_seconds_must_be_a_whole_number(self):
        for seconds in (-1, 1.5, '1.5', 'soon', True, None, '', '٣'):
            self._refused({'step': 'wait', 'args': {'seconds': seconds}},
                          'seconds')
