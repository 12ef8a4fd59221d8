"""RAID: a node's target RAID configuration (1.12), checked by its raid
interface, and the "agent" raid interface's clean steps, refused before
the node moves when they cannot run. The agent itself is not played
here: the functional agent deploy test has the lab's agents build it."""

from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base

ROOT = {'size_gb': 10, 'raid_level': '1', 'is_root_volume': True}
CREATE = {'interface': 'raid', 'step': 'create_configuration'}


class TestAgentRAID(base.BaseBaremetalLikeTest):

    # 1.31: the node's raid_interface.
    min_microversion = '1.31'

    def _manageable(self, **fields):
        node = self.create_node(deploy_interface='agent',
                                boot_interface='fake', **fields)
        self.client.set_node_provision_state(node['uuid'], 'manage')
        self.wait_for_provision_state(node['uuid'], 'manageable')
        return node

    @decorators.idempotent_id('1f0b6a3e-4c7d-4a25-9e61-7b2c8d9e0f14')
    def test_target_config_and_create_step(self):
        node = self._manageable(raid_interface='agent')
        self.assertEqual('agent', node['raid_interface'])
        self.client.set_node_raid_config(node['uuid'],
                                         {'logical_disks': [ROOT]})
        shown = self.client.show_node(node['uuid'])
        self.assertEqual({'logical_disks': [ROOT]},
                         shown['target_raid_config'])
        self.assertEqual({}, shown['raid_config'])
        # Accepted: the ramdisk boots (fake here) and the node waits for
        # the agent that would build it.
        self.client.set_node_provision_state(node['uuid'], 'clean',
                                             clean_steps=[CREATE])
        waiting = self.wait_for_provision_state(node['uuid'], 'clean wait')
        self.assertEqual('manageable', waiting['target_provision_state'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('6d2e8f1a-9b3c-4e57-a0d4-3c5b7e9f1a28')
    def test_refused_before_the_node_moves(self):
        node = self._manageable(raid_interface='agent')
        # Not a RAID configuration of Ironic's schema.
        self.assertRaises(lib_exc.BadRequest, self.client.set_node_raid_config,
                          node['uuid'], {'logical_disks': [
                              dict(ROOT, raid_level='7')]})
        # Nothing to build.
        self.assertRaises(lib_exc.BadRequest,
                          self.client.set_node_provision_state,
                          node['uuid'], 'clean', clean_steps=[CREATE])
        # The raid interface is not the agent's.
        other = self._manageable(raid_interface='no-raid')
        self.assertRaises(lib_exc.BadRequest,
                          self.client.set_node_provision_state,
                          other['uuid'], 'clean', clean_steps=[CREATE])
        for uuid in (node['uuid'], other['uuid']):
            shown = self.client.show_node(uuid)
            self.assertEqual('manageable', shown['provision_state'])
            self.assertIsNone(shown['target_provision_state'])


class TestOutOfBandSteps(base.BaseBaremetalLikeTest):
    """The fake BIOS's and fake RAID's out-of-band clean steps, run by the
    conductor (the fake deploy interface boots no ramdisk)."""

    # 1.40: BIOS settings; 1.31: the node's interfaces.
    min_microversion = '1.40'

    @decorators.idempotent_id('b3c9e2d4-5f61-4a7b-8c9d-0e1f2a3b4c5d')
    def test_bios_and_raid_clean_steps(self):
        node = self.create_node(bios_interface='fake', raid_interface='fake')
        self.client.set_node_provision_state(node['uuid'], 'manage')
        self.wait_for_provision_state(node['uuid'], 'manageable')
        self.client.set_node_raid_config(node['uuid'],
                                         {'logical_disks': [ROOT]})
        self.client.set_node_provision_state(
            node['uuid'], 'clean', clean_steps=[
                {'interface': 'bios', 'step': 'apply_configuration',
                 'args': {'settings': [{'name': 'ProcVirtualization',
                                        'value': 'Disabled'}]}},
                {'interface': 'raid', 'step': 'create_configuration',
                 'args': {}}])
        done = self.wait_for_provision_state(node['uuid'], 'manageable')
        self.assertIsNone(done['last_error'])
        self.assertEqual([ROOT], done['raid_config']['logical_disks'])
        self.assertEqual(10, done['properties']['local_gb'])
        settings = {s['name']: s['value'] for s in
                    self.client.list_node_bios(node['uuid'])['bios']}
        self.assertEqual('Disabled', settings['ProcVirtualization'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('c4d0f3e5-6a72-4b8c-9d0e-1f2a3b4c5d6e')
    def test_not_a_step_refused(self):
        node = self.create_node(bios_interface='fake')
        self.client.set_node_provision_state(node['uuid'], 'manage')
        self.wait_for_provision_state(node['uuid'], 'manageable')
        self.assertRaises(
            lib_exc.BadRequest, self.client.set_node_provision_state,
            node['uuid'], 'clean', clean_steps=[
                {'interface': 'bios', 'step': 'get_bios_settings'}])
        self.assertEqual('manageable', self.client.show_node(
            node['uuid'])['provision_state'])
