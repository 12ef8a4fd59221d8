"""PUT /v1/nodes/{id}/states/provision: deploy_steps (1.69), with
the conductor's own steps among them (reserved step names; steps on
child nodes are refused, as Ironic's API does), disable_ramdisk (1.70)
and the deploy/undeploy verbs (1.73)."""

from ironic_like.common import states
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import step_helpers

STEP = {'interface': 'deploy', 'step': 'burn_in', 'args': {'m': 1},
        'priority': 30}
POWER_OFF = {'interface': 'power', 'step': 'power_off', 'args': {},
             'priority': 50}
# The fake deploy interface's own step, in every deploy (Ironic's).
FAKE_DEPLOY = {'interface': 'deploy', 'step': 'deploy', 'priority': 100,
               'args': {}}


_on_children = step_helpers.on_children
_power = step_helpers.fake_power


class TestProvisionExt(base.APITestCase):

    with_conductor = True

    def url(self, node):
        return '/v1/nodes/%s/states/provision' % node.uuid

    def test_deploy_steps_below_1_69_is_406(self):
        node = self.create_node(provision_state=states.AVAILABLE)
        r = self.put(self.url(node), {'target': 'active',
                                      'deploy_steps': [STEP]},
                     version='1.68', status=406)
        self.assertFault(r, 406, 'deploy_steps')
        self.assertEqual(states.AVAILABLE,
                         self.db.get_node_by_id(node.id).provision_state)

    def test_deploy_steps_only_with_active_or_rebuild(self):
        node = self.create_node(provision_state=states.MANAGEABLE)
        r = self.put(self.url(node), {'target': 'provide',
                                      'deploy_steps': [STEP]},
                     version='1.69', status=400)
        self.assertFault(r, 400, 'deploy_steps')

    def test_bad_deploy_steps_400(self):
        node = self.create_node(provision_state=states.AVAILABLE)
        for steps in ([dict(STEP, interface='vendor')],
                      [{'interface': 'deploy', 'step': 'x'}],
                      [STEP, dict(STEP, priority=5)],
                      'burn_in'):
            r = self.put(self.url(node), {'target': 'active',
                                          'deploy_steps': steps},
                         version='1.69', status=400)
            self.assertFault(r, 400, 'deploy_steps')
        self.assertEqual(states.AVAILABLE,
                         self.db.get_node_by_id(node.id).provision_state)

    def test_deploy_steps_recorded(self):
        # The fake deploy runs no flows: the steps are recorded, after
        # its own deploy.deploy (priority 100), as Ironic's.
        node = self.create_node(provision_state=states.AVAILABLE)
        self.put(self.url(node),
                 {'target': 'active',
                  'deploy_steps': [dict(STEP, priority='30')]},
                 version='1.69')
        node = self.wait_for(node.uuid, lambda n: n.provision_state ==
                             states.ACTIVE)
        self.assertEqual([FAKE_DEPLOY, dict(STEP, priority=30)],
                         node.driver_internal_info['deploy_steps'])

    def test_reserved_deploy_steps_run(self):
        # The fake deploy has no agent: the conductor runs its own steps
        # (here power on, a wait, power off), then powers the instance
        # on.
        node = self.create_node(provision_state=states.AVAILABLE)
        steps = [{'interface': 'bios', 'step': 'power_on', 'args': {},
                  'priority': 90},
                 {'interface': 'deploy', 'step': 'wait',
                  'args': {'seconds': 0}, 'priority': 80},
                 POWER_OFF,
                 {'interface': 'deploy', 'step': 'hold', 'args': {},
                  'priority': 40}]
        self.put(self.url(node), {'target': 'active',
                                  'deploy_steps': steps}, version='1.69')
        node = self.wait_for(node.uuid, lambda n: n.provision_state ==
                             states.DEPLOYHOLD)
        self.assertIsNone(node.last_error)
        self.assertEqual(states.POWER_OFF, _power(node))
        self.assertEqual([FAKE_DEPLOY] + steps,
                         node.driver_internal_info['deploy_steps'])
        self.put(self.url(node), {'target': 'unhold'}, version='1.85')
        node = self.wait_for(node.uuid, lambda n: n.provision_state ==
                             states.ACTIVE)
        self.assertEqual(states.POWER_ON, _power(node))

    def test_child_node_options_refused_as_ironic(self):
        # Ironic's deploy step schema has neither option (its conductor
        # would run them, its API never passes them): 400 naming it.
        parent = self.create_node(provision_state=states.AVAILABLE)
        child = self.create_node(parent_node=parent.uuid,
                                 power_state=states.POWER_ON)
        for step, name in (
                (_on_children(POWER_OFF), 'execute_on_child_nodes'),
                (_on_children(POWER_OFF, child.uuid),
                 'execute_on_child_nodes'),
                (dict(POWER_OFF, limit_child_node_execution=[child.uuid]),
                 'limit_child_node_execution')):
            r = self.put(self.url(parent), {'target': 'active',
                                            'deploy_steps': [step]},
                         version='1.69', status=400)
            self.assertFault(r, 400, 'field/attribute deploy_steps',
                             'Additional properties are not allowed',
                             "'%s'" % name)
        node = self.db.get_node_by_id(parent.id)
        self.assertEqual(states.AVAILABLE, node.provision_state)
        self.assertIsNone(node.reservation)
        self.assertEqual(states.POWER_ON,
                         _power(self.db.get_node_by_id(child.id)))

    def test_conductor_step_rules_400(self):
        parent = self.create_node(provision_state=states.AVAILABLE)
        for step, fragments in (
                (dict(STEP, step='wait', args={'seconds': 'soon'}),
                 ['seconds']),
                (dict(STEP, step='wait', args={'seconds': -1}),
                 ['seconds'])):
            r = self.put(self.url(parent), {'target': 'active',
                                            'deploy_steps': [step]},
                         version='1.69', status=400)
            self.assertFault(r, 400, 'field/attribute deploy_steps',
                             *fragments)
        node = self.db.get_node_by_id(parent.id)
        self.assertEqual(states.AVAILABLE, node.provision_state)
        self.assertIsNone(node.reservation)

    def test_power_off_of_a_node_that_may_not_be_409(self):
        node = self.create_node(provision_state=states.AVAILABLE,
                                disable_power_off=True)
        r = self.put(self.url(node), {'target': 'active',
                                      'deploy_steps': [POWER_OFF]},
                     version='1.69', status=409)
        self.assertFault(r, 409, node.uuid)
        self.assertEqual(states.AVAILABLE,
                         self.db.get_node_by_id(node.id).provision_state)

    def test_disable_ramdisk_versions_and_targets(self):
        node = self.create_node(provision_state=states.MANAGEABLE)
        r = self.put(self.url(node), {'target': 'clean', 'clean_steps': [],
                                      'disable_ramdisk': True},
                     version='1.69', status=406)
        self.assertFault(r, 406, 'disable_ramdisk')
        r = self.put(self.url(node), {'target': 'provide',
                                      'disable_ramdisk': True},
                     version='1.70', status=400)
        self.assertFault(r, 400, 'disable_ramdisk')
        self.assertEqual(states.MANAGEABLE,
                         self.db.get_node_by_id(node.id).provision_state)

    def test_disable_ramdisk_refuses_agent_steps(self):
        node = self.create_node(provision_state=states.MANAGEABLE,
                                deploy_interface='agent',
                                boot_interface='fake')
        body = {'target': 'clean', 'disable_ramdisk': True,
                'clean_steps': [{'interface': 'deploy',
                                 'step': 'erase_devices'}]}
        r = self.put(self.url(node), body, version='1.70', status=400)
        self.assertFault(r, 400, 'requires the agent ramdisk')
        self.assertEqual(states.MANAGEABLE,
                         self.db.get_node_by_id(node.id).provision_state)

    def test_disable_ramdisk_without_steps_boots_nothing(self):
        node = self.create_node(provision_state=states.MANAGEABLE,
                                deploy_interface='agent',
                                boot_interface='fake')
        self.put(self.url(node), {'target': 'clean', 'clean_steps': [],
                                  'disable_ramdisk': True},
                 version='1.70')
        node = self.wait_for(node.uuid, lambda n: n.provision_state ==
                             states.MANAGEABLE)
        self.assertIsNone(node.last_error)
        # No ramdisk was booted: the node was never powered on.
        self.assertEqual(states.POWER_OFF, node.power_state)

    def test_deploy_and_undeploy_verbs(self):
        node = self.create_node(provision_state=states.AVAILABLE)
        r = self.put(self.url(node), {'target': 'deploy'}, version='1.72',
                     status=406)
        self.assertFault(r, 406, 'deploy')
        self.put(self.url(node), {'target': 'deploy'}, version='1.73')
        self.wait_for(node.uuid,
                      lambda n: n.provision_state == states.ACTIVE)
        self.put(self.url(node), {'target': 'undeploy'}, version='1.72',
                 status=406)
        self.put(self.url(node), {'target': 'undeploy'}, version='1.73')
        self.wait_for(node.uuid,
                      lambda n: n.provision_state == states.AVAILABLE)
