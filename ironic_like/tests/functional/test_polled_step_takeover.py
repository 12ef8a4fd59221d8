"""A polled step survives the death of the conductor polling it: a
cluster of two conductors, sushy-tools' emulator whose BIOS applies new
settings only 20 s into the boot (the lab's ``--post-delay``, a power-on
self test); manual cleaning with ``bios.apply_configuration``. Once the
node waits in "clean wait" for its polled step, its conductor is killed
(SIGKILL); the other takes the node over and polls the step until the
settings are in force, and the cleaning ends in manageable, with the
settings applied and cached, nothing failed or run twice.
"""

from ironic_like.common import states
from ironic_like.tests.functional import redfish_cluster
from ironic_like.tests.functional import sushy_emulator

NIC = '52:54:00:f1:02:01'
FACTORY = {'BootMode': 'Uefi', 'ProcTurboMode': 'Enabled',
           'QuietBoot': False, 'NumCores': 10}
# Seconds of the BMC's self test: long enough to kill the conductor
# while the node waits, and for the ring to see it dead.
POST_DELAY = 20
VERSION = {'X-OpenStack-Ironic-API-Version': '1.87'}


class TestPolledStepTakeOver(redfish_cluster.RedfishClusterTestCase):

    TIMEOUT = 240

    def setUp(self):
        super().setUp()
        self.system = sushy_emulator.make_system('bios-post', mac=NIC)
        self.system['bios'] = dict(FACTORY)
        work_dir = self.work_dir()
        self.emulator = self.useFixture(sushy_emulator.SushyEmulator(
            [self.system], log_dir=work_dir, post_delay=POST_DELAY))
        self.watch(self.emulator.process)
        self.cluster = self.start_cluster(
            conductors=2, api_workers=1, work_dir=work_dir,
            conf={'DEFAULT': {
                'enabled_hardware_types': 'fake-hardware,redfish',
                'enabled_bios_interfaces': 'no-bios,redfish'}})

    def _get(self, uuid):
        return self._call('GET', '/v1/nodes/%s' % uuid, headers=VERSION)

    def test_the_survivor_polls_the_step_of_a_dead_conductor(self):
        uuid = self._create('rf-polled', self.system,
                            bios_interface='redfish')
        self._provision(uuid, 'manage', states.MANAGEABLE)
        step = {'interface': 'bios', 'step': 'apply_configuration',
                'args': {'settings': [{'name': 'ProcTurboMode',
                                       'value': 'Disabled'}]}}
        self._call('PUT', '/v1/nodes/%s/states/provision' % uuid,
                   {'target': 'clean', 'clean_steps': [step]},
                   expected=202)

        def polled():
            node = self._get(uuid)
            info = node['driver_internal_info'] or {}
            if node['provision_state'] == states.CLEANWAIT and \
                    'polled_step' in info:
                return node
            self.assertNotIn(node['provision_state'],
                             (states.CLEANFAIL, states.MANAGEABLE),
                             node['last_error'])
        node = self.assertEventually(
            polled, 60, interval=0.2,
            message=lambda: 'the node never waited for its polled step: '
            '%s' % self._get(uuid))
        victim = node['conductor']
        survivor, = set(self.cluster.conductors) - {victim}
        self.cluster.conductors[victim].kill9()

        def over():
            node = self._get(uuid)
            if node['provision_state'] not in (states.CLEANWAIT,
                                               states.CLEANING):
                return node
        node = self.assertEventually(
            over, 120, interval=0.5,
            message=lambda: 'the cleaning did not end: %s'
            % self._get(uuid))
        self.assertEqual(states.MANAGEABLE, node['provision_state'],
                         node['last_error'])
        self.assertIsNone(node['last_error'])
        self.assertEqual(survivor, node['conductor'])
        self.assertNotIn('polled_step', node['driver_internal_info'] or {})
        self.assertEqual('Disabled', self._settings(uuid)['ProcTurboMode'])
        log = self.cluster.conductors[survivor].log_text()
        self.assertIn('step bios.apply_configuration is done', log)
        # Started once, by the conductor that died.
        self.assertNotIn('goes on outside the conductor', log)

    def _settings(self, uuid):
        found = self._call('GET', '/v1/nodes/%s/bios' % uuid)
        return {s['name']: s['value'] for s in found['bios']}
