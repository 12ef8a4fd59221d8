"""PUT /v1/nodes/{id}/states/provision with the steps the conductor runs
itself (api/controllers/v1/node_step_checks.py): reserved step names and
steps on child nodes, given or from a runbook; the 400s name the option
at fault, the 403s the child node."""

import os

import fixtures

from ironic_like.common import policy
from ironic_like.common import states
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import step_helpers
from ironic_like.tests.unit.api import test_auth

POWER_OFF = {'interface': 'power', 'step': 'power_off'}
HOLD = {'interface': 'deploy', 'step': 'hold'}


_on_children = step_helpers.on_children
_fake_power = step_helpers.fake_power


class TestStepChecks(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.parent = self.create_node(provision_state=states.MANAGEABLE)
        self.first = self.create_node(parent_node=self.parent.uuid,
                                      power_state=states.POWER_ON)
        self.second = self.create_node(parent_node=self.parent.uuid,
                                       power_state=states.POWER_ON)
        self.stranger = self.create_node(power_state=states.POWER_ON)
        self.url = '/v1/nodes/%s/states/provision' % self.parent.uuid

    def _refused(self, steps, *fragments, field='clean_steps',
                 target='clean', status=400):
        r = self.put(self.url, {'target': target, field: steps},
                     status=status)
        message = self.assertFault(r, status, *fragments)
        node = self.db.get_node_by_id(self.parent.id)
        self.assertNotIn(node.provision_state, (states.CLEANING,
                                                states.SERVICING))
        self.assertIsNone(node.reservation)
        return message

    def _power_of(self, node):
        return _fake_power(self.db.get_node_by_id(node.id))

    def test_child_step_on_listed_children(self):
        # Any form of UUID: compared as stored (lower case, dashes).
        self.put(self.url, {'target': 'clean', 'clean_steps': [
            _on_children(POWER_OFF,
                         self.second.uuid.upper().replace('-', ''))]})
        node = self.wait_for(self.parent.uuid, lambda n:
                             n.provision_state == states.MANAGEABLE)
        self.assertIsNone(node.last_error)
        self.assertEqual(states.POWER_OFF, self._power_of(self.second))
        self.assertEqual(states.POWER_ON, self._power_of(self.first))
        self.assertEqual(states.POWER_ON, self._power_of(self.stranger))

    def test_execute_on_child_nodes_must_be_a_boolean(self):
        self._refused([dict(POWER_OFF, execute_on_child_nodes='yes')],
                      'field/attribute clean_steps',
                      'clean_steps[0].execute_on_child_nodes', 'boolean')

    def test_limit_must_be_a_list_of_uuids(self):
        for limit in ('all', ['dpu-1'], [3]):
            self._refused([dict(_on_children(POWER_OFF),
                                limit_child_node_execution=limit)],
                          'field/attribute clean_steps',
                          'clean_steps[0].limit_child_node_execution')

    def test_limit_needs_execute_on_child_nodes(self):
        self._refused([dict(POWER_OFF, limit_child_node_execution=[
            self.first.uuid])], 'limit_child_node_execution',
            'execute_on_child_nodes true')
        # Not run on the parent instead.
        self.assertEqual(states.POWER_ON, self._power_of(self.first))

    def test_limit_lists_only_children(self):
        unknown = '0b7f4ab4-9c7a-4a44-8f7c-56f0e1c4f5a1'
        for other in (self.stranger.uuid, unknown, self.parent.uuid):
            message = self._refused([_on_children(
                POWER_OFF, self.first.uuid, other)],
                'limit_child_node_execution', other)
            self.assertNotIn(self.first.uuid, message)
        self.assertEqual(states.POWER_ON, self._power_of(self.first))
        self.assertEqual(states.POWER_ON, self._power_of(self.stranger))

    def test_only_power_steps_on_children(self):
        for name in ('hold', 'wait', 'erase_devices'):
            self._refused([_on_children({'interface': 'deploy',
                                         'step': name})],
                          'field/attribute clean_steps',
                          'execute_on_child_nodes', name)

    def test_wait_seconds(self):
        self._refused([{'interface': 'deploy', 'step': 'wait',
                        'args': {'seconds': 'a while'}}],
                      'field/attribute clean_steps', 'seconds')

    def test_service_steps_checked_alike(self):
        self.db.update_node(self.parent.id,
                            {'provision_state': states.ACTIVE})
        self._refused([_on_children(HOLD)],
                      'field/attribute service_steps',
                      'execute_on_child_nodes', field='service_steps',
                      target='service')
        self.assertEqual(states.ACTIVE, self.db.get_node_by_id(
            self.parent.id).provision_state)

    def test_runbook_steps_checked_and_run(self):
        self.db.set_node_traits(self.parent.id, ['CUSTOM_CYCLE'])
        runbook = self.db.create_runbook({'name': 'CUSTOM_CYCLE', 'steps': [
            {'interface': 'deploy', 'step': 'wait',
             'args': {'seconds': -3}, 'order': 1}]})
        # 1.92: the runbook's name is the trait the node must have.
        r = self.put(self.url, {'target': 'clean',
                                'runbook': 'CUSTOM_CYCLE'}, status=400,
                     version='1.92')
        self.assertFault(r, 400, 'field/attribute clean_steps', 'seconds')
        self.db.destroy_runbook(runbook.id)
        self.db.create_runbook({'name': 'CUSTOM_CYCLE', 'steps': [
            {'interface': 'power', 'step': 'power_on', 'args': {},
             'order': 1},
            {'interface': 'power', 'step': 'wait',
             'args': {'seconds': 0}, 'order': 2}]})
        self.put(self.url, {'target': 'clean', 'runbook': 'CUSTOM_CYCLE'},
                 version='1.92')
        node = self.wait_for(self.parent.uuid, lambda n:
                             n.provision_state == states.MANAGEABLE)
        self.assertIsNone(node.last_error)
        self.assertEqual(states.POWER_ON, _fake_power(node))


class TestChildPolicy(test_auth.KeystoneTestCase):
    """Acting on a child needs the right to change its provision state,
    as Ironic requires."""

    def setUp(self):
        super().setUp()
        # Operators may act on a project's nodes, except those leased to
        # the project "blocked".
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'policy.yaml')
        with open(path, 'w') as f:
            f.write('"baremetal:node:set_provision_state": "rule:admin or '
                    'rule:system_member or (rule:owner_member and not '
                    '\'blocked\':%(node.lessee)s)"\n')
        self.config(policy_file=path, group='oslo_policy')
        policy.reset()
        self.parent = self.create_node(owner='p1',
                                       provision_state=states.MANAGEABLE)
        self.mine = self.create_node(owner='p1',
                                     parent_node=self.parent.uuid,
                                     power_state=states.POWER_ON)
        self.leased = self.create_node(owner='p1', lessee='blocked',
                                       parent_node=self.parent.uuid,
                                       power_state=states.POWER_ON)
        self.url = '/v1/nodes/%s/states/provision' % self.parent.uuid

    def _clean(self, steps, status=202):
        return self.put(self.url, {'target': 'clean', 'clean_steps': steps},
                        headers=self.project('member'), status=status)

    def test_every_child_acted_on_is_checked(self):
        r = self._clean([_on_children(POWER_OFF)], status=403)
        self.assertFault(r, 403, self.leased.uuid, 'execute_on_child_nodes')
        r = self._clean([_on_children(POWER_OFF, self.leased.uuid)],
                        status=403)
        self.assertFault(r, 403, self.leased.uuid)
        self.assertEqual(states.MANAGEABLE, self.db.get_node_by_id(
            self.parent.id).provision_state)
        self.assertEqual(states.POWER_ON, _fake_power(
            self.db.get_node_by_id(self.leased.id)))

    def test_children_allowed(self):
        self._clean([_on_children(POWER_OFF, self.mine.uuid)])
        self.wait_for(self.parent.uuid,
                      lambda n: n.provision_state == states.MANAGEABLE)
        self.assertEqual(states.POWER_OFF, _fake_power(
            self.db.get_node_by_id(self.mine.id)))
        self.assertEqual(states.POWER_ON, _fake_power(
            self.db.get_node_by_id(self.leased.id)))
