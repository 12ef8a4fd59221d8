"""Accelerators in the agent deploy and tear-down flows: discovery when the
agent comes up, plug while the image is written, unplug at tear-down,
erase at cleaning (a running conductor, a fake agent on loopback)."""

import os

import fixtures

from ironic_like.accelerators import images
from ironic_like.common import states
from ironic_like.conductor.flows import deploy
from ironic_like.tests.unit import accelerator_samples as samples
from ironic_like.tests.unit.conductor import test_agent_deploy as base


class AcceleratorFlowsTestCase(base.AgentDeployBase):

    def setUp(self):
        super().setUp()
        tmp = self.useFixture(fixtures.TempDir()).path
        index = os.path.join(tmp, 'index')
        self.config(http_root=os.path.join(tmp, 'http'),
                    http_url='http://127.0.0.1:8088', group='deploy')
        self.config(image_service='index', index_url=index,
                    group='accelerators')
        images.reset_service()
        self.addCleanup(images.reset_service)
        images.write_index(index, [(
            'gzip', b'bits' * 64,
            {'accel:function_uuid': samples.GZIP,
             'accel:function_name': 'gzip',
             'accel:region_type_uuid': samples.REGION_TYPE,
             'accel:vendor': 'intel'}, 'img-gzip')])
        self.agent.inventory = {'accelerators': [samples.fpga()]}

    def _accelerated_node(self, specs):
        node = self._node()
        info = dict(node.instance_info,
                    **{deploy.EXTRA_SPECS: specs})
        return self.db.update_node(node.id, {'instance_info': info})

    def handles(self, node):
        return self.db.list_accelerator_attach_handles({'node_id': node.id})

    def test_deploy_plugs_and_teardown_unplugs(self):
        node = self._accelerated_node({'resources:FPGA': '1',
                                       'accel:bitstream_id': 'img-gzip'})
        node = self._deploy_to_active(node)
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertEqual([{'pci_id': '0000:5e:01.0'}],
                         node.driver_internal_info[deploy.ACCELERATORS])
        self.assertEqual(1, self.agent.inventories)
        programs = [p for n, p, q in self.agent.received
                    if n == 'accelerator.program']
        self.assertEqual(1, len(programs))
        self.assertEqual('img-gzip', programs[0]['image']['id'])
        self.assertEqual([True, False],
                         [h['in_use'] for h in self.handles(node)])
        node = self._act(node, 'deleted')
        self.assertEqual([False, False],
                         [h['in_use'] for h in self.handles(node)])
        self.assertEqual([], self.db.list_accelerator_attachments(
            node_id=node.id))
        # Cleaning erases the programmed region and takes the inventory.
        node = self._give_token(node)
        self._heartbeat(node)
        erased = [p for n, p, q in self.agent.received
                  if n == 'accelerator.erase']
        self.assertEqual([{'pci_address': '0000:5e:00.0',
                           'region_index': 0}], erased)
        self.assertEqual(2, self.agent.inventories)
        self.assertEqual([], self.db.list_accelerator_regions_to_clean(
            node.id))

    def test_plug_failure_fails_deploy_and_frees(self):
        self.agent.fail['accelerator.program'] = 'FPGAProgramError: bad'
        node = self._accelerated_node({'accel:bitstream_id': 'img-gzip'})
        node = self._act(node, 'deploy')
        node = self._give_token(node)
        node = self._heartbeat(node)
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)
        self.assertIn('FPGAProgramError: bad', node.last_error)
        self.assertIn('deploy-start-image-write', node.last_error)
        self.assertEqual([False, False],
                         [h['in_use'] for h in self.handles(node)])

    def test_bad_extra_specs_fail_at_validate(self):
        node = self._accelerated_node({'resources:FPGA': 'many'})
        node = self._act(node, 'deploy')
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)
        self.assertIn('resources:FPGA', node.last_error)

    def test_no_accelerators_requested(self):
        node = self._deploy_to_active(self._node())
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertNotIn(deploy.ACCELERATORS, node.driver_internal_info)
        # Discovered all the same: the node offers its traits.
        self.assertEqual(2, len(self.handles(node)))
