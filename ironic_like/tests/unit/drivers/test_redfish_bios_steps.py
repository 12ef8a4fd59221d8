"""The redfish BIOS interface's steps (apply_configuration,
factory_reset) with sushy mocked and the node's cached settings in the
test database: the settings checked against the cache and typed, written,
the node rebooted, read back; nothing written or rebooted when they are
in force already."""

import types
from unittest import mock

import fixtures
import sushy

from ironic_like.common import agent_info
from ironic_like.common import bios_registry
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import interface_steps
from ironic_like.drivers import base as drivers_base
from ironic_like.drivers.modules import redfish_bios
from ironic_like.drivers.modules import redfish_utils
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils

CACHED = {
    'BootMode': {'value': 'Uefi', 'attribute_type': 'Enumeration',
                 'allowable_values': ['Bios', 'Uefi'], 'read_only': False},
    'NumCores': {'value': '8', 'attribute_type': 'Integer',
                 'lower_bound': 1, 'upper_bound': 64, 'read_only': False},
    'Turbo': {'value': 'true', 'attribute_type': 'Boolean',
              'read_only': False},
    'Serial': {'value': 'S1', 'attribute_type': 'String',
               'read_only': True},
}


def _entry(name, fields):
    entry = mock.Mock(spec=['name'] + list(bios_registry.FIELDS))
    entry.name = name
    for key in bios_registry.FIELDS:
        setattr(entry, key, fields.get(key))
    return entry


class TestRedfishBIOSSteps(base.TestCase):

    def setUp(self):
        super().setUp()
        redfish_utils._CACHE.clear()
        self.addCleanup(redfish_utils._CACHE.clear)
        self.system = mock.Mock()
        self.bios = self.system.bios
        self.bios.attributes = {'BootMode': 'Uefi', 'NumCores': 8,
                                'Turbo': True, 'Serial': 'S1'}
        self.bios.pending_attributes = {}
        self.bios.supported_apply_times = [sushy.APPLY_TIME_ON_RESET]
        # The BMC's registry says what the cache says: settings cached
        # again after a step keep their types and bounds.
        registry = mock.Mock()
        registry.registry_entries.attributes = [
            _entry(name, fields) for name, fields in CACHED.items()]
        self.bios.get_attribute_registry.return_value = registry
        conn = mock.Mock()
        conn.get_system.return_value = self.system
        self.useFixture(fixtures.MockPatchObject(
            redfish_utils.sushy, 'Sushy', return_value=conn))
        self.node = utils.create_test_node(
            driver='redfish', bios_interface='redfish',
            power_state=states.POWER_ON,
            driver_info={'redfish_address': 'http://bmc.example',
                         'redfish_system_id': '/redfish/v1/Systems/1'},
            driver_internal_info={'agent_url': 'http://10.0.0.5:9999'})
        self.db.replace_bios_settings(self.node.id, CACHED)
        self.power = mock.Mock()
        self.power.get_power_state.return_value = states.POWER_ON
        self.boot = mock.Mock()
        self.interface = redfish_bios.RedfishBIOS()
        self.task = types.SimpleNamespace(
            node=self.node, driver=types.SimpleNamespace(
                power=self.power, boot=self.boot),
            update_node=self._update_node)
        # No waiting for a BMC that never applies: one read after the
        # reboot, unless a test gives it time.
        self.useFixture(fixtures.MockPatchObject(
            redfish_bios, 'APPLY_TIMEOUT', 0))

    def _until_done(self, result, step):
        """What the conductor does with a step that returned Polling:
        poll_step until done (here at once, at most 20 times)."""
        for _ in range(20):
            if not drivers_base.is_polling(result):
                return result
            result = self.interface.poll_step(self.task, step,
                                              dict(result.state))
        self.fail('still polling after 20 polls')

    def _apply(self, task, settings):
        step = {'interface': 'bios', 'step': 'apply_configuration',
                'args': {'settings': settings}}
        return self._until_done(
            self.interface.apply_configuration(task, settings), step)

    def _factory_reset(self, task):
        step = {'interface': 'bios', 'step': 'factory_reset', 'args': {}}
        return self._until_done(self.interface.factory_reset(task), step)

    def _update_node(self, values, expected=None):
        self.task.node = self.db.update_node(self.task.node.id, values)

    def _apply_on_reboot(self, applied=None):
        """The reboot makes the BMC apply what was written (or only
        ``applied`` of it)."""
        def reboot(task):
            written = self.bios.set_attributes.call_args[0][0]
            self.bios.attributes = dict(self.bios.attributes,
                                        **(written if applied is None
                                           else applied))
            self.bios.pending_attributes = {}
        self.power.reboot.side_effect = reboot

    def _cached(self, name):
        return self.db.get_bios_setting(self.node.id, name).value

    def test_marks(self):
        for kind in (drivers_base.CLEAN, drivers_base.SERVICE):
            for step in ('apply_configuration', 'factory_reset'):
                info = drivers_base.step_info(self.interface, step, kind)
                self.assertEqual(0, info['priority'])
                self.assertFalse(info['requires_ramdisk'], (kind, step))
        self.assertIsNotNone(drivers_base.step_info(
            self.interface, 'apply_configuration', drivers_base.DEPLOY))
        self.assertIsNone(drivers_base.step_info(
            self.interface, 'check_step', drivers_base.CLEAN))

    def test_apply_writes_reboots_and_reads_back(self):
        self._apply_on_reboot()
        self._apply(self.task, [
            {'name': 'NumCores', 'value': '4'},
            {'name': 'Turbo', 'value': 'False'},
            {'name': 'BootMode', 'value': 'Bios'}])
        # Typed as the registry says, to apply at the next reset.
        self.bios.set_attributes.assert_called_once_with(
            {'NumCores': 4, 'Turbo': False, 'BootMode': 'Bios'},
            apply_time=sushy.APPLY_TIME_ON_RESET)
        self.power.reboot.assert_called_once_with(self.task)
        # The agent ran: the node boots the ramdisk again (set once).
        self.boot.prepare_ramdisk.assert_called_once_with(self.task)
        # The cache holds what the BMC now says; the agent is gone.
        self.assertEqual('4', self._cached('NumCores'))
        self.assertEqual('Bios', self._cached('BootMode'))
        info = self.task.node.driver_internal_info
        self.assertNotIn(agent_info.AGENT_URL, info)
        self.assertEqual(states.POWER_ON, self.task.node.power_state)

    def test_without_an_agent_no_ramdisk_is_prepared(self):
        self._update_node({'driver_internal_info': {}})
        self._apply_on_reboot()
        self._apply(self.task, [
            {'name': 'BootMode', 'value': 'Bios'}])
        self.power.reboot.assert_called_once_with(self.task)
        self.boot.prepare_ramdisk.assert_not_called()

    def test_waits_for_the_firmware_to_apply_them(self):
        # A real BMC shows the new values only after its power-on self
        # test: the step reads again until they are in force.
        self.useFixture(fixtures.MockPatchObject(
            redfish_bios, 'APPLY_TIMEOUT', 60))
        before = dict(self.bios.attributes)
        after = dict(before, BootMode='Bios')
        reads = iter([before, before, before, after])
        type(self.bios).attributes = mock.PropertyMock(
            side_effect=lambda: next(reads, after))
        self._apply(self.task, [
            {'name': 'BootMode', 'value': 'Bios'}])
        self.assertEqual('Bios', self._cached('BootMode'))

    def test_still_pending_is_not_applied(self):
        # The value shows but a change of it is still queued (a BMC that
        # lists only what is pending).
        def reboot(task):
            self.bios.attributes = dict(self.bios.attributes,
                                        BootMode='Bios')
            self.bios.pending_attributes = {'BootMode': 'Uefi'}
        self.power.reboot.side_effect = reboot
        exc = self.assertRaises(
            exception.BIOSSettingsNotApplied,
            self._apply, self.task,
            [{'name': 'BootMode', 'value': 'Bios'}])
        self.assertIn('BootMode=Bios', str(exc))

    def test_not_applied_fails_the_step_naming_them(self):
        self._apply_on_reboot(applied={'NumCores': 4})
        exc = self.assertRaises(
            exception.BIOSSettingsNotApplied,
            self._apply, self.task, [
                {'name': 'NumCores', 'value': 4},
                {'name': 'BootMode', 'value': 'Bios'}])
        self.assertIn('BootMode=Bios (is Uefi)', str(exc))
        self.assertNotIn('NumCores', str(exc))
        # What the BMC did apply is cached all the same.
        self.assertEqual('4', self._cached('NumCores'))

    def test_in_force_already_costs_no_reboot(self):
        self._apply(self.task, [
            {'name': 'NumCores', 'value': '8'},
            {'name': 'Turbo', 'value': 'true'}])
        self.bios.set_attributes.assert_not_called()
        self.power.reboot.assert_not_called()
        # Text compares exactly: another letter case is a change (a BMC
        # that gives a Boolean or an Integer back as text is no change).
        self.bios.attributes = dict(self.bios.attributes, Turbo='True',
                                    NumCores='8')
        self.assertEqual([], redfish_bios._unapplied(
            self.bios, {'Turbo': True, 'NumCores': 8}))
        self.assertEqual(['NewThing=abc (is ABC)'], redfish_bios._unapplied(
            mock.Mock(attributes={'NewThing': 'ABC'},
                      pending_attributes={}), {'NewThing': 'abc'}))
        self.assertEqual(['NewThing=None (is None)'],
                         redfish_bios._unapplied(
                             mock.Mock(attributes={},
                                       pending_attributes={}),
                             {'NewThing': 'None'}))
        # Unless another value is pending for one of them.
        self._apply_on_reboot()
        self.bios.pending_attributes = {'NumCores': 16}
        self._apply(self.task, [
            {'name': 'NumCores', 'value': '8'}])
        self.bios.set_attributes.assert_called_once_with(
            {'NumCores': 8}, apply_time=sushy.APPLY_TIME_ON_RESET)
        self.power.reboot.assert_called_once_with(self.task)

    def test_untyped_text_against_typed_values(self):
        # A setting the cache has no type for is given as text; the BMC
        # holds it typed: the same value is no change.
        bmc = mock.Mock(attributes={'Cores': 4, 'Offset': -1, 'Ht': True,
                                    'Mode': 'Fast'},
                        pending_attributes={})
        self.assertEqual([], redfish_bios._unapplied(
            bmc, {'Cores': '4', 'Offset': '-1', 'Ht': 'true',
                  'Mode': 'Fast'}))
        self.assertEqual(['Cores=5 (is 4)', 'Mode=fast (is Fast)'],
                         redfish_bios._unapplied(
                             bmc, {'Cores': '5', 'Mode': 'fast'}))
        # A pending entry for a setting the BMC does not show is no
        # change it will make.
        bmc.pending_attributes = {'Other': 1}
        self.assertEqual([], redfish_bios._unapplied(bmc, {}))

    def test_no_settings_is_nothing_to_do(self):
        self.bios.pending_attributes = {'NumCores': 16}
        self._apply(self.task, [])
        self.bios.set_attributes.assert_not_called()
        self.power.reboot.assert_not_called()

    def test_the_wait_after_the_reboot_is_polled(self):
        # The step returns once the node rebooted; the conductor polls.
        self.useFixture(fixtures.MockPatchObject(
            redfish_bios, 'APPLY_TIMEOUT', 60))
        result = self.interface.apply_configuration(self.task, [
            {'name': 'BootMode', 'value': 'Bios'}])
        self.assertTrue(drivers_base.is_polling(result))
        self.power.reboot.assert_called_once_with(self.task)
        state = result.state
        self.assertEqual({'BootMode': 'Bios'}, state['attributes'])
        self.assertEqual('applying BIOS settings', state['action'])
        step = {'interface': 'bios', 'step': 'apply_configuration'}
        # Not in force yet, within the deadline: polled again, the same
        # state kept (JSON: it lives in driver_internal_info).
        again = self.interface.poll_step(self.task, step, dict(state))
        self.assertTrue(drivers_base.is_polling(again))
        self.assertEqual(state, again.state)
        self.assertEqual('Uefi', self._cached('BootMode'))
        # In force: done, and cached.
        self.bios.attributes = dict(self.bios.attributes, BootMode='Bios')
        self.assertIsNone(self.interface.poll_step(self.task, step,
                                                   dict(state)))
        self.assertEqual('Bios', self._cached('BootMode'))
        # Past the deadline and still not in force: the step fails,
        # naming them.
        self.bios.attributes = dict(self.bios.attributes, BootMode='Uefi')
        late = dict(state, deadline='2000-01-01T00:00:00')
        exc = self.assertRaises(exception.BIOSSettingsNotApplied,
                                self.interface.poll_step, self.task, step,
                                late)
        self.assertIn('BootMode=Bios (is Uefi)', str(exc))
        # An unreadable deadline is past: checked once more.
        self.assertRaises(exception.BIOSSettingsNotApplied,
                          self.interface.poll_step, self.task, step,
                          dict(state, deadline='soon'))

    def test_bmc_busy_while_polling(self):
        # The BMC answers 503 during the self test: read again at the
        # next poll, until the deadline.
        busy = sushy.exceptions.ServerSideError(
            method='GET', url='http://bmc.example/Bios',
            response=mock.Mock(status_code=503, json=lambda: {}))
        type(self.bios).attributes = mock.PropertyMock(side_effect=busy)
        step = {'interface': 'bios', 'step': 'apply_configuration'}
        state = {'attributes': {'BootMode': 'Bios'},
                 'action': 'applying BIOS settings',
                 'deadline': '2999-01-01T00:00:00'}
        again = self.interface.poll_step(self.task, step, dict(state))
        self.assertTrue(drivers_base.is_polling(again))
        exc = self.assertRaises(
            exception.IronicLikeException, self.interface.poll_step,
            self.task, step, dict(state, deadline='2000-01-01T00:00:00'))
        self.assertIn('applying BIOS settings failed', str(exc))
        # driver_info without the BMC's address is no busy BMC: at once.
        self._update_node({'driver_info': {}})
        self.assertRaises(exception.MissingParameterValue,
                          self.interface.poll_step, self.task, step,
                          dict(state))

    def test_no_apply_time_offered(self):
        self._apply_on_reboot()
        self.bios.supported_apply_times = []
        self._apply(self.task, [
            {'name': 'BootMode', 'value': 'Bios'}])
        self.bios.set_attributes.assert_called_once_with(
            {'BootMode': 'Bios'}, apply_time=None)

    def test_refused_before_anything_is_written(self):
        cases = [
            ([{'name': 'BootMode', 'value': 'Legacy'}],
             'BootMode (not one of Bios, Uefi)'),
            ([{'name': 'NumCores', 'value': '128'}],
             'NumCores (not within 1..64)'),
            ([{'name': 'NumCores', 'value': 'many'}],
             'NumCores (not an integer)'),
            ([{'name': 'Serial', 'value': 'S2'}], 'Serial (read-only)'),
            ([{'name': 'Turbo', 'value': 'maybe'}],
             'Turbo (not true or false)'),
            ([{'name': 'NumCores', 'value': 3.7}],
             'NumCores (not an integer)'),
            ([{'value': 'x'}], 'settings must be a list'),
            ('BootMode=Bios', 'settings must be a list'),
        ]
        for settings, message in cases:
            step = {'interface': 'bios', 'step': 'apply_configuration',
                    'args': {'settings': settings}}
            exc = self.assertRaises(exception.InvalidParameterValue,
                                    self.interface.check_step, self.task,
                                    step)
            self.assertIn(message, str(exc))
            self.assertEqual('settings', exc.field)
            self.assertRaises(exception.InvalidParameterValue,
                              self._apply,
                              self.task, settings)
        self.bios.set_attributes.assert_not_called()
        self.power.reboot.assert_not_called()
        # A setting never cached goes to the BMC as given.
        self.interface.check_step(self.task, {
            'interface': 'bios', 'step': 'apply_configuration',
            'args': {'settings': [{'name': 'NewThing', 'value': '1'}]}})

    def test_bmc_refusal_is_the_step_error(self):
        self.bios.set_attributes.side_effect = (
            sushy.exceptions.BadRequestError(
                method='PATCH', url='http://bmc.example/Bios/Settings',
                response=mock.Mock(status_code=400, json=lambda: {})))
        exc = self.assertRaises(
            exception.IronicLikeException,
            self._apply, self.task,
            [{'name': 'BootMode', 'value': 'Bios'}])
        self.assertIn('applying BIOS settings failed', str(exc))
        self.power.reboot.assert_not_called()

    def test_factory_reset(self):
        self.bios.pending_attributes = {'NumCores': 2}

        def reboot(task):
            self.bios.attributes = dict(self.bios.attributes, NumCores=2)
            self.bios.pending_attributes = {}
        self.power.reboot.side_effect = reboot
        self._factory_reset(self.task)
        self.bios.reset_bios.assert_called_once_with()
        self.power.reboot.assert_called_once_with(self.task)
        self.assertEqual('2', self._cached('NumCores'))

    def test_factory_reset_still_pending_fails_the_step(self):
        self.bios.pending_attributes = {'NumCores': 2}
        exc = self.assertRaises(exception.BIOSSettingsNotApplied,
                                self._factory_reset, self.task)
        self.assertIn('NumCores=2 (is 8)', str(exc))
        # What the BMC shows is cached all the same.
        self.assertEqual('8', self._cached('NumCores'))

    def test_404_of_the_bios_is_the_bmcs_lack(self):
        self.bios.reset_bios.side_effect = (
            sushy.exceptions.ResourceNotFoundError(
                method='POST', url='http://bmc.example/Bios/Actions',
                response=mock.Mock(status_code=404, json=lambda: {})))
        exc = self.assertRaises(exception.IronicLikeException,
                                self._factory_reset, self.task)
        self.assertNotIsInstance(exc, exception.InvalidParameterValue)
        self.assertIn('the BMC has no such BIOS resource', str(exc))
        self.power.reboot.assert_not_called()

    def test_checked_before_the_node_moves(self):
        # The conductor calls check_step with the other checks of an
        # out-of-band step (interface_steps.check_out_of_band).
        task = types.SimpleNamespace(
            node=self.node, driver=types.SimpleNamespace(
                bios=self.interface))
        with mock.patch.object(interface_steps, 'out_of_band',
                               return_value=drivers_base.step_info(
                                   self.interface, 'apply_configuration',
                                   drivers_base.CLEAN)):
            exc = self.assertRaises(
                exception.InvalidParameterValue,
                interface_steps.check_out_of_band, task, {
                    'interface': 'bios', 'step': 'apply_configuration',
                    'args': {'settings': [{'name': 'Serial',
                                           'value': 'x'}]}},
                'clean', 'clean_steps')
        self.assertIn('Serial (read-only)', str(exc))
