"""The redfish management interface's secure boot key steps, as
Ironic's: the SecureBoot ResetKeys action with the reset type each asks
for; a BMC without SecureBoot is unsupported (400), a refused action the
step's error."""

from unittest import mock

import sushy

from ironic_like.common import exception
from ironic_like.drivers import base as drivers_base
from ironic_like.tests.unit.drivers import test_redfish


class TestSecureBootKeys(test_redfish._SushyTest):

    def test_steps_and_their_marks(self):
        for step, reset_type in (
                ('reset_secure_boot_keys_to_default',
                 sushy.SECURE_BOOT_RESET_KEYS_TO_DEFAULT),
                ('clear_secure_boot_keys',
                 sushy.SECURE_BOOT_RESET_KEYS_DELETE_ALL)):
            self.system.secure_boot.reset_keys.reset_mock()
            getattr(self.management, step)(test_redfish._task())
            self.system.secure_boot.reset_keys.assert_called_once_with(
                reset_type)
            clean = drivers_base.step_info(self.management, step,
                                           drivers_base.CLEAN)
            self.assertEqual(0, clean['priority'])
            self.assertFalse(clean['requires_ramdisk'])
            self.assertIsNotNone(drivers_base.step_info(
                self.management, step, drivers_base.DEPLOY))
            # Not service steps, as in Ironic.
            self.assertIsNone(drivers_base.step_info(
                self.management, step, drivers_base.SERVICE))

    def test_no_secure_boot_resource(self):
        type(self.system).secure_boot = mock.PropertyMock(
            side_effect=sushy.exceptions.MissingAttributeError(
                attribute='SecureBoot', resource='System'))
        task = test_redfish._task()
        task.node.driver = 'redfish'
        exc = self.assertRaises(exception.UnsupportedDriverExtension,
                                self.management.clear_secure_boot_keys,
                                task)
        self.assertIn('SecureBoot', str(exc))

    def test_refused_by_the_bmc(self):
        self.system.secure_boot.reset_keys.side_effect = (
            sushy.exceptions.InvalidParameterValueError(
                parameter='reset_type', value='DeleteAllKeys',
                valid_values=['ResetAllKeysToDefault']))
        exc = self.assertRaises(exception.IronicLikeException,
                                self.management.clear_secure_boot_keys,
                                test_redfish._task())
        self.assertIn('deleting the secure boot keys failed', str(exc))
