"""Deploy steps of a node's interfaces, as Ironic has them: only the
methods a driver marks as deploy steps (the fake BIOS's
apply_configuration and factory_reset here), with the arguments the mark
allows; anything else is refused before the node moves. The fake deploy
interface runs them before or after its own deploy step (deploy.deploy,
priority 100) as their priority says."""

from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base

SETTINGS = [{'name': 'ProcVirtualization', 'value': 'Disabled'}]


class TestInterfaceDeploySteps(base.BaseBaremetalLikeTest):

    # 1.69: a deploy's deploy_steps; 1.40: the node's bios settings.
    min_microversion = '1.69'

    def _deploy(self, node, steps):
        return self.client.set_node_provision_state(
            node['uuid'], 'active', deploy_steps=steps)

    @decorators.idempotent_id('3d6c1b7e-2f0a-4e5b-9c84-61f2a7d0e935')
    def test_marked_bios_step_runs(self):
        node = self.make_available_node(bios_interface='fake')
        self._deploy(node, [{'interface': 'bios',
                             'step': 'apply_configuration',
                             'args': {'settings': SETTINGS},
                             'priority': 70}])
        done = self.wait_for_provision_state(node['uuid'], 'active')
        self.assertIsNone(done['last_error'])
        body = self.client.list_node_bios(node['uuid'])
        settings = {s['name']: s['value'] for s in body['bios']}
        self.assertEqual('Disabled', settings['ProcVirtualization'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('8a4f0e2c-6b1d-4c73-a5e9-0d2b7f3c9e16')
    def test_unmarked_or_bad_steps_refused(self):
        node = self.make_available_node(bios_interface='fake')
        for step in (
                # A method of the interface, not marked as a deploy step.
                {'interface': 'management', 'step': 'inject_nmi',
                 'args': {}, 'priority': 70},
                # A marked step with an argument it does not take.
                {'interface': 'bios', 'step': 'factory_reset',
                 'args': {'now': True}, 'priority': 70},
                # Its required argument missing.
                {'interface': 'bios', 'step': 'apply_configuration',
                 'args': {}, 'priority': 70}):
            self.assertRaises(lib_exc.BadRequest, self._deploy, node,
                              [step])
        shown = self.client.show_node(node['uuid'])
        self.assertEqual('available', shown['provision_state'])
        self.assertIsNone(shown['target_provision_state'])
