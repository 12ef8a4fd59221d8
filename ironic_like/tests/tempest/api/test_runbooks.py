"""Runbooks (Ironic 1.92): create, show by name, list, update, delete;
a manageable node with the runbook's trait cleaned with it, and one
without the trait refused."""

from tempest.lib.common.utils import data_utils
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base

STEPS = [{'interface': 'deploy', 'step': 'erase_devices_metadata',
          'args': {}, 'order': 1}]


class TestRunbooks(base.BaseBaremetalLikeTest):

    min_microversion = '1.92'

    def create_runbook(self, **fields):
        runbook = self.client.create_runbook(**fields)
        self.addCleanup(self._ignore_not_found, self.client.delete_runbook,
                        runbook['uuid'])
        return runbook

    @staticmethod
    def _name():
        return 'CUSTOM_' + data_utils.rand_name('TEMPEST').upper().replace(
            '-', '_')

    @decorators.idempotent_id('5e0b8c3d-2f71-4a96-b8d4-1c7e9a3f6b20')
    def test_crud(self):
        name = self._name()
        runbook = self.create_runbook(name=name, steps=STEPS,
                                      extra={'tempest': 'yes'})
        self.assertEqual(STEPS, runbook['steps'])
        self.assertFalse(runbook['public'])
        self.assertEqual(runbook['uuid'],
                         self.client.show_runbook(name)['uuid'])
        listed = self.client.list_runbooks(limit=1000)['runbooks']
        self.assertIn(runbook['uuid'], [r['uuid'] for r in listed])
        updated = self.client.update_runbook(name, [
            {'op': 'replace', 'path': '/public', 'value': True}])
        self.assertTrue(updated['public'])
        self.assertRaises(lib_exc.Conflict, self.client.create_runbook,
                          name=name, steps=STEPS)
        self.assertRaises(lib_exc.BadRequest, self.client.create_runbook,
                          name='not-a-trait', steps=STEPS)
        self.client.delete_runbook(name)
        self.assertRaises(lib_exc.NotFound, self.client.show_runbook,
                          runbook['uuid'])
        with self.client.microversion('1.91'):
            self.assertRaises(lib_exc.NotFound, self.client.list_runbooks)

    @decorators.idempotent_id('8a4f1d6e-3b92-4c07-a5e1-9d2c6b7f0e34')
    def test_clean_with_a_runbook(self):
        name = self._name()
        self.create_runbook(name=name, steps=STEPS)
        node = self.create_node()
        self.client.set_node_provision_state(node['uuid'], 'manage')
        self.wait_for_provision_state(node['uuid'], 'manageable')
        # Not approved for the node (no trait): refused, node unchanged.
        self.assertRaises(lib_exc.BadRequest,
                          self.client.set_node_provision_state,
                          node['uuid'], 'clean', runbook=name)
        self.client.add_node_trait(node['uuid'], name)
        self.assertRaises(lib_exc.BadRequest,
                          self.client.set_node_provision_state,
                          node['uuid'], 'clean', runbook=name,
                          clean_steps=STEPS)
        self.client.set_node_provision_state(node['uuid'], 'clean',
                                             runbook=name)
        done = self.wait_for_provision_state(node['uuid'], 'manageable')
        self.assertIsNone(done['last_error'])

    @decorators.idempotent_id('2e9c4a7f-1b36-4d58-9f02-8c3e5a1d7b64')
    def test_runbook_traits(self):
        trait = self._name()
        with self.client.microversion('1.112'):
            runbook = self.create_runbook(
                name=data_utils.rand_name('tempest-rb').lower(),
                steps=STEPS, description='tempest runbook')
            self.assertEqual([], runbook['traits'])
            self.client.add_runbook_trait(runbook['uuid'], trait)
            self.assertEqual([trait], self.client.list_runbook_traits(
                runbook['uuid'])['traits'])
            node = self.create_node()
            self.client.set_node_provision_state(node['uuid'], 'manage')
            self.wait_for_provision_state(node['uuid'], 'manageable')
            self.assertRaises(lib_exc.BadRequest,
                              self.client.set_node_provision_state,
                              node['uuid'], 'clean',
                              runbook=runbook['uuid'])
            self.client.add_node_trait(node['uuid'], trait)
            self.client.set_node_provision_state(node['uuid'], 'clean',
                                                 runbook=runbook['uuid'])
            self.wait_for_provision_state(node['uuid'], 'manageable')
            self.client.remove_runbook_trait(runbook['uuid'], trait)
            self.assertEqual([], self.client.list_runbook_traits(
                runbook['uuid'])['traits'])
        with self.client.microversion('1.111'):
            self.assertRaises(lib_exc.NotFound,
                              self.client.list_runbook_traits,
                              runbook['uuid'])
