"""The Redfish out-of-band steps (the ``redfish`` BIOS interface's, the
``redfish`` management interface's secure boot key steps) against
sushy-tools' real Redfish emulator (a system with a BIOS: the lab's
emulator gives one to systems that define ``bios``, whose settings apply
at the next boot, as on real hardware; and the SecureBoot ResetKeys
action), through a cluster (API + 1 conductor, MariaDB, RabbitMQ).

Manual cleaning with bios.apply_configuration, then bios.factory_reset:
no ramdisk booted (both need none), the settings written, the node
rebooted so that they apply, then polled (the node waits in "clean
wait", no conductor worker held) until read back, and cached (GET
.../bios). A
setting the BMC refuses fails the cleaning, naming it; a setting the
registry the BMC gave (cached at manage) refuses gets 400 before the
node moves.

Manual cleaning with management.clear_secure_boot_keys, then
management.reset_secure_boot_keys_to_default: the firmware in setup
mode, then deployed mode again; no ramdisk booted.
"""

import requests

from ironic_like.common import states
from ironic_like.tests.functional import redfish_cluster
from ironic_like.tests.functional import sushy_emulator

NIC = '52:54:00:f1:01:01'
FACTORY = {'BootMode': 'Uefi', 'ProcTurboMode': 'Enabled',
           'QuietBoot': False, 'NumCores': 10}


def _step(name, interface='bios', **args):
    return {'interface': interface, 'step': name, 'args': args}


class TestRedfishSteps(redfish_cluster.RedfishClusterTestCase):

    TIMEOUT = 180

    def setUp(self):
        super().setUp()
        self.system = sushy_emulator.make_system('bios-1', mac=NIC)
        self.system['bios'] = dict(FACTORY)
        work_dir = self.work_dir()
        self.emulator = self.useFixture(sushy_emulator.SushyEmulator(
            [self.system], log_dir=work_dir))
        self.watch(self.emulator.process)
        self.cluster = self.start_cluster(
            conductors=1, api_workers=1, work_dir=work_dir,
            conf={'DEFAULT': {
                'enabled_hardware_types': 'fake-hardware,redfish',
                'enabled_bios_interfaces': 'no-bios,redfish'}})

    def _settings(self, uuid):
        found = self._call('GET', '/v1/nodes/%s/bios' % uuid)
        return {s['name']: s['value'] for s in found['bios']}

    def _bmc_bios(self):
        resp = self.emulator.get_system(self.system['uuid'])
        self.assertIn('Bios', resp)
        bios = requests.get(self.emulator.url + resp['Bios']['@odata.id'],
                            timeout=10)
        bios.raise_for_status()
        return bios.json()['Attributes']

    def test_apply_and_factory_reset_by_manual_cleaning(self):
        uuid = self._create('rf-bios', self.system,
                            bios_interface='redfish')
        self._provision(uuid, 'manage', states.MANAGEABLE)
        self.assertEqual('Enabled', self._settings(uuid)['ProcTurboMode'])
        self.emulator.listener.clear()

        node = self._provision(uuid, 'clean', states.MANAGEABLE, body={
            'clean_steps': [_step('apply_configuration', settings=[
                {'name': 'ProcTurboMode', 'value': 'Disabled'},
                {'name': 'QuietBoot', 'value': 'true'}])]})
        self.assertIsNone(node['last_error'])
        # The reboot applied them; the cache says what the BMC says.
        self.assertEqual('Disabled', self._bmc_bios()['ProcTurboMode'])
        # Written typed, as the BMC's registry says (a Boolean).
        self.assertIs(True, self._bmc_bios()['QuietBoot'])
        settings = self._settings(uuid)
        self.assertEqual('Disabled', settings['ProcTurboMode'])
        self.assertEqual('True', settings['QuietBoot'])
        self.assertEqual(states.POWER_ON, node['power_state'])
        # No ramdisk: the boot device was never set to PXE.
        self.assertNotEqual(
            'Pxe', self.emulator.get_system(self.system['uuid'])['Boot'][
                'BootSourceOverrideTarget'])
        # The wait for the settings after the reboot was polled (no
        # conductor worker waited): the node waited in "clean wait".
        conductor = list(self.cluster.conductors.values())[0]
        self.assertIn('step bios.apply_configuration goes on outside the '
                      'conductor', conductor.log_text())
        self.assertIn('step bios.apply_configuration is done',
                      conductor.log_text())

        # A setting the BMC does not have: it refuses it, the step fails
        # naming the cause, nothing applied.
        node = self._provision(uuid, 'clean', states.CLEANFAIL, body={
            'clean_steps': [_step('apply_configuration', settings=[
                {'name': 'NoSuchSetting', 'value': '1'}])]})
        self.assertIn('applying BIOS settings failed', node['last_error'])
        self.assertIn('NoSuchSetting', node['last_error'])
        self._provision(uuid, 'manage', states.MANAGEABLE)

        node = self._provision(uuid, 'clean', states.MANAGEABLE, body={
            'clean_steps': [_step('factory_reset')]})
        self.assertIsNone(node['last_error'])
        self.assertEqual(FACTORY, {k: self._bmc_bios()[k] for k in FACTORY})
        self.assertEqual('Enabled', self._settings(uuid)['ProcTurboMode'])

    def test_refused_before_the_node_moves(self):
        uuid = self._create('rf-bios-refused', self.system,
                            bios_interface='redfish')
        self._provision(uuid, 'manage', states.MANAGEABLE)
        cases = [
            # Arguments against the step's mark.
            ([_step('apply_configuration')], 'settings'),
            ([_step('apply_configuration', settings=[],
                    other=1)], 'other'),
            # Not a list of {name, value}.
            ([_step('apply_configuration', settings=['ProcTurboMode'])],
             'settings must be a list'),
            # What the BMC's registry (cached at manage) refuses.
            ([_step('apply_configuration', settings=[
                {'name': 'ProcTurboMode', 'value': 'Sometimes'}])],
             'ProcTurboMode (not one of Enabled, Disabled)'),
            ([_step('apply_configuration', settings=[
                {'name': 'NumCores', 'value': '12'}])],
             'NumCores (read-only)'),
        ]
        for steps, message in cases:
            resp = self.cluster.request(
                'PUT', '/v1/nodes/%s/states/provision' % uuid,
                json={'target': 'clean', 'clean_steps': steps})
            self.assertEqual(400, resp.status_code, resp.text)
            self.assertIn(message, resp.text)
        node = self._node(uuid)
        self.assertEqual(states.MANAGEABLE, node['provision_state'])
        self.assertIsNone(node['last_error'])
        self.assertEqual(FACTORY['ProcTurboMode'],
                         self._bmc_bios()['ProcTurboMode'])

    def _secure_boot_mode(self):
        system = self.emulator.get_system(self.system['uuid'])
        resp = requests.get(
            self.emulator.url + system['SecureBoot']['@odata.id'],
            timeout=10)
        resp.raise_for_status()
        return resp.json()['SecureBootMode']

    def test_secure_boot_key_steps_by_manual_cleaning(self):
        uuid = self._create('rf-keys', self.system)
        self._provision(uuid, 'manage', states.MANAGEABLE)
        self.assertEqual('DeployedMode', self._secure_boot_mode())
        node = self._provision(uuid, 'clean', states.MANAGEABLE, body={
            'clean_steps': [_step('clear_secure_boot_keys',
                                  interface='management')]})
        self.assertIsNone(node['last_error'])
        self.assertEqual('SetupMode', self._secure_boot_mode())
        node = self._provision(uuid, 'clean', states.MANAGEABLE, body={
            'clean_steps': [_step('reset_secure_boot_keys_to_default',
                                  interface='management')]})
        self.assertIsNone(node['last_error'])
        self.assertEqual('DeployedMode', self._secure_boot_mode())
        # A method of the interface not marked as a step: refused.
        resp = self.cluster.request(
            'PUT', '/v1/nodes/%s/states/provision' % uuid,
            json={'target': 'clean', 'clean_steps': [
                _step('set_boot_mode', interface='management')]})
        self.assertEqual(400, resp.status_code, resp.text)
