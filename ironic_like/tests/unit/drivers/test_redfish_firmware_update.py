"""The redfish firmware interface's update step with sushy mocked and
the node's firmware components in the test database: the settings
checked before anything moves; per component SimpleUpdate, its task
followed, the reboot the component needs, its new version awaited (on a
fake clock); images staged under http_root removed afterwards."""

import os
import types
from unittest import mock

import fixtures
import sushy

from ironic_like.common import exception
from ironic_like.common import published_files
from ironic_like.common import states
from ironic_like.drivers import base as drivers_base
from ironic_like.drivers.modules import redfish_firmware
from ironic_like.drivers.modules import redfish_utils
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils

SYSTEM_ID = '/redfish/v1/Systems/1'
IMAGE = 'http://images.example/bios-2.0.bin'


class _Clock(object):
    """time.monotonic and time.sleep of the step: sleeping advances."""

    def __init__(self):
        self.now = 1000.0
        self.slept = []

    def monotonic(self):
        return self.now

    def sleep(self, seconds):
        self.slept.append(seconds)
        self.now += seconds


def _task_doc(state, status=sushy.HEALTH_OK, messages=()):
    task = mock.Mock(task_state=state, task_status=status)
    task.messages = [mock.Mock(message=m, message_id='Id.%s' % m)
                     for m in messages]
    return task


class _Monitor(object):
    """A task monitor whose task goes through ``states`` (one per read);
    the last one is where it ends."""

    def __init__(self, tasks):
        self.tasks = list(tasks)
        self.task_monitor_uri = '/redfish/v1/TaskService/Tasks/7'
        self.reads = 0

    @property
    def check_is_processing(self):
        self.reads += 1
        current = self.tasks[0]
        if isinstance(current, Exception):
            self.tasks.pop(0)
            raise current
        if len(self.tasks) > 1:
            self.tasks.pop(0)
        return current.task_state in redfish_firmware._RUNNING

    @property
    def task(self):
        return self.tasks[0]

    def get_task(self):
        current = self.tasks[0]
        if isinstance(current, Exception):
            raise current
        return current


class TestUpdateStep(base.TestCase):

    def setUp(self):
        super().setUp()
        redfish_utils._CACHE.clear()
        self.addCleanup(redfish_utils._CACHE.clear)
        self.root = self.useFixture(fixtures.TempDir()).path
        self.config(http_root=self.root, http_url='http://10.0.0.1:8088/',
                    group='deploy')
        self.config(firmware_update_status_interval=5,
                    firmware_update_bmc_version_check_interval=10,
                    group='redfish')
        self.system = mock.Mock(bios_version='1.0')
        self.manager = mock.Mock(firmware_version='bmc-1', model='BMC')
        self.system.managers = [self.manager]
        self.service = mock.Mock()
        self.monitor = _Monitor([_task_doc(sushy.TASK_STATE_RUNNING),
                                 _task_doc(sushy.TASK_STATE_COMPLETED)])
        self.service.simple_update.side_effect = (
            lambda *a, **k: self.monitor)
        conn = mock.Mock()
        conn.get_system.return_value = self.system
        conn.get_update_service.return_value = self.service
        conn.get_system_collection.return_value.members_identities = [
            SYSTEM_ID, '/redfish/v1/Systems/2']
        self.conn = conn
        self.useFixture(fixtures.MockPatchObject(
            redfish_utils.sushy, 'Sushy', return_value=conn))
        self.clock = _Clock()
        self.useFixture(fixtures.MockPatchObject(
            redfish_firmware, 'time', self.clock))
        self.node = utils.create_test_node(
            driver='redfish', firmware_interface='redfish',
            power_state=states.POWER_ON,
            driver_info={'redfish_address': 'http://bmc.example',
                         'redfish_system_id': SYSTEM_ID})
        self.db.sync_firmware_components(
            self.node.id, [{'component': 'bios', 'current_version': '1.0'},
                           {'component': 'bmc',
                            'current_version': 'bmc-1'}])
        self.power = mock.Mock()
        self.power.get_power_state.return_value = states.POWER_ON
        self.interface = redfish_firmware.RedfishFirmware()
        self.task = types.SimpleNamespace(
            node=self.node, driver=types.SimpleNamespace(
                power=self.power, boot=mock.Mock()),
            update_node=self._update_node)

    def _update_node(self, values, expected=None):
        self.task.node = self.db.update_node(self.task.node.id, values)

    def _flash_bios_on_reboot(self, version='2.0'):
        def reboot(task):
            self.system.bios_version = version
        self.power.reboot.side_effect = reboot

    def _component(self, name):
        return {c.component: c for c in
                self.db.get_firmware_components(self.node.id)}[name]

    def test_marks(self):
        for kind in (drivers_base.CLEAN, drivers_base.SERVICE):
            info = drivers_base.step_info(self.interface, 'update', kind)
            self.assertEqual(0, info['priority'])
            self.assertFalse(info['requires_ramdisk'], kind)
            self.assertTrue(info['argsinfo']['settings']['required'])
        self.assertIsNotNone(drivers_base.step_info(
            self.interface, 'update', drivers_base.DEPLOY))

    def test_bios_update_reboots_and_records_the_new_version(self):
        self._flash_bios_on_reboot()
        self.interface.update(self.task, [{'component': 'bios',
                                           'url': IMAGE}])
        # The BMC has two systems: it is told which one.
        self.service.simple_update.assert_called_once_with(
            IMAGE, targets=[SYSTEM_ID])
        self.power.reboot.assert_called_once_with(self.task)
        bios = self._component('bios')
        self.assertEqual('2.0', bios.current_version)
        self.assertEqual('2.0', bios.last_version_flashed)
        self.assertEqual('1.0', bios.initial_version)
        # The task was read every [redfish]firmware_update_status_interval.
        self.assertEqual(5, self.clock.slept[0])

    def test_one_system_needs_no_target(self):
        self.conn.get_system_collection.return_value.members_identities = [
            SYSTEM_ID]
        self._flash_bios_on_reboot()
        self.interface.update(self.task, [{'component': 'bios',
                                           'url': IMAGE}])
        self.service.simple_update.assert_called_once_with(IMAGE,
                                                           targets=None)

    def test_bios_task_starting_waits_for_the_reboot(self):
        # Some BMCs start a BIOS update only once the host reboots.
        self.monitor = _Monitor([_task_doc(sushy.TASK_STATE_STARTING),
                                 _task_doc(sushy.TASK_STATE_STARTING),
                                 _task_doc(sushy.TASK_STATE_COMPLETED)])
        self._flash_bios_on_reboot()
        self.interface.update(self.task, [{'component': 'bios',
                                           'url': IMAGE}])
        # Once, not again when the task completes.
        self.power.reboot.assert_called_once_with(self.task)
        self.assertEqual('2.0', self._component('bios').current_version)

    def test_bmc_update_needs_no_reboot_when_its_version_changes(self):
        reads = iter([None, 'bmc-1', 'bmc-2'])

        def version():
            # Unreachable (None: no manager listed), then the old, then
            # the new version.
            return next(reads, 'bmc-2')
        type(self.manager).firmware_version = mock.PropertyMock(
            side_effect=lambda: version())
        self.interface.update(self.task, [{'component': 'bmc',
                                           'url': IMAGE}])
        self.power.reboot.assert_not_called()
        self.assertEqual('bmc-2', self._component('bmc').current_version)

    def test_bmc_unchanged_by_its_wait_reboots_the_host(self):
        start = self.clock.now
        self.interface.update(self.task, [{'component': 'bmc',
                                           'url': IMAGE, 'wait': 60}])
        self.power.reboot.assert_called_once_with(self.task)
        # The entry's wait bounded the version reads (every 10 s).
        self.assertLess(self.clock.now - start, 60 + 5 + 10 + 1)
        self.assertIn(10, self.clock.slept)
        bmc = self._component('bmc')
        self.assertEqual('bmc-1', bmc.current_version)
        self.assertIsNone(bmc.last_version_flashed)

    def test_nic_update_reboots(self):
        self.interface.update(self.task, [{'component': 'nic:NIC.1',
                                           'url': IMAGE}])
        self.power.reboot.assert_called_once_with(self.task)

    def test_components_in_order(self):
        self._flash_bios_on_reboot()
        self.manager.firmware_version = 'bmc-1'
        calls = []
        self.service.simple_update.side_effect = (
            lambda url, **k: calls.append(url) or _Monitor(
                [_task_doc(sushy.TASK_STATE_COMPLETED)]))
        self.interface.update(self.task, [
            {'component': 'bmc', 'url': IMAGE + '?bmc', 'wait': 1},
            {'component': 'bios', 'url': IMAGE}])
        self.assertEqual([IMAGE + '?bmc', IMAGE], calls)

    def test_failed_task_fails_the_step_with_the_bmc_messages(self):
        self.monitor = _Monitor([_task_doc(
            sushy.TASK_STATE_EXCEPTION, sushy.HEALTH_CRITICAL,
            ['Image signature invalid'])])
        e = self.assertRaises(exception.IronicLikeException,
                              self.interface.update, self.task,
                              [{'component': 'bios', 'url': IMAGE}])
        self.assertIn('firmware update of bios from %s failed' % IMAGE,
                      str(e))
        self.assertIn('Exception (status Critical): Image signature '
                      'invalid', str(e))
        self.power.reboot.assert_not_called()
        self.assertEqual('1.0', self._component('bios').current_version)

    def test_a_later_component_is_not_tried_after_a_failure(self):
        self.monitor = _Monitor([_task_doc(sushy.TASK_STATE_KILLED,
                                           sushy.HEALTH_WARNING)])
        self.assertRaises(exception.IronicLikeException,
                          self.interface.update, self.task,
                          [{'component': 'bios', 'url': IMAGE},
                           {'component': 'bmc', 'url': IMAGE}])
        self.assertEqual(1, self.service.simple_update.call_count)

    def test_task_gone_is_taken_as_done(self):
        self.monitor = _Monitor([
            sushy.exceptions.ResourceNotFoundError(
                method='GET', url='/t/7', response=mock.Mock(
                    status_code=404, json=mock.Mock(return_value={})))])
        self._flash_bios_on_reboot()
        self.interface.update(self.task, [{'component': 'bios',
                                           'url': IMAGE}])
        self.power.reboot.assert_called_once_with(self.task)

    def test_unreachable_bmc_is_read_again(self):
        self.monitor = _Monitor([
            sushy.exceptions.ConnectionError(url='/t/7', error='refused'),
            _task_doc(sushy.TASK_STATE_COMPLETED)])
        self._flash_bios_on_reboot()
        self.interface.update(self.task, [{'component': 'bios',
                                           'url': IMAGE}])
        self.assertEqual('2.0', self._component('bios').current_version)

    def test_task_never_over_fails_at_the_overall_timeout(self):
        self.config(firmware_update_overall_timeout=120, group='redfish')
        self.monitor = _Monitor([_task_doc(sushy.TASK_STATE_RUNNING)])
        e = self.assertRaises(exception.IronicLikeException,
                              self.interface.update, self.task,
                              [{'component': 'bios', 'url': IMAGE}])
        self.assertIn('firmware_update_overall_timeout (state Running)',
                      str(e))
        self.assertLess(self.monitor.reads, 120 / 5 + 3)
        self.power.reboot.assert_not_called()

    def test_file_url_is_served_by_the_conductor_and_removed(self):
        image = os.path.join(self.useFixture(fixtures.TempDir()).path,
                             'bios 2.bin')
        with open(image, 'wb') as f:
            f.write(b'FIRMWARE bios 2.0\n')
        served = []

        def simple_update(url, **kwargs):
            name = url.rsplit('/', 1)[-1]
            path = os.path.join(self.root, 'firmware',
                                name.replace('%20', ' '))
            with open(path, 'rb') as f:
                served.append((url, f.read()))
            return self.monitor
        self.service.simple_update.side_effect = simple_update
        self._flash_bios_on_reboot()
        self.interface.update(self.task, [{'component': 'bios',
                                           'url': 'file://' + image}])
        self.assertEqual(
            [('http://10.0.0.1:8088/firmware/%s-0-bios%%202.bin'
              % self.node.uuid, b'FIRMWARE bios 2.0\n')], served)
        self.assertEqual([], os.listdir(os.path.join(self.root,
                                                     'firmware')))

    def test_local_source_downloads_and_removes_after_a_failure(self):
        self.config(firmware_source='local', group='redfish')
        download = self.useFixture(fixtures.MockPatchObject(
            published_files, 'download',
            side_effect=lambda url, f, purpose: f.write(b'IMG') or 3)).mock
        self.monitor = _Monitor([_task_doc(sushy.TASK_STATE_EXCEPTION,
                                           sushy.HEALTH_CRITICAL)])
        self.assertRaises(exception.IronicLikeException,
                          self.interface.update, self.task,
                          [{'component': 'bios', 'url': IMAGE}])
        download.assert_called_once_with(IMAGE, mock.ANY,
                                         'a firmware update')
        self.service.simple_update.assert_called_once_with(
            'http://10.0.0.1:8088/firmware/%s-0-bios-2.0.bin'
            % self.node.uuid, targets=[SYSTEM_ID])
        self.assertEqual([], os.listdir(os.path.join(self.root,
                                                     'firmware')))

    def test_no_update_service(self):
        self.conn.get_update_service.side_effect = (
            sushy.exceptions.MissingAttributeError(
                attribute='UpdateService', resource='/redfish/v1'))
        e = self.assertRaises(exception.IronicLikeException,
                              self.interface.update, self.task,
                              [{'component': 'bios', 'url': IMAGE}])
        self.assertIn('the BMC has no UpdateService', str(e))


class TestSettingsChecked(base.TestCase):
    """What check_step refuses (400 naming ``settings``) before the node
    moves."""

    def _refused(self, settings, message):
        step = {'interface': 'firmware', 'step': 'update',
                'args': {'settings': settings}}
        e = self.assertRaises(exception.InvalidParameterValue,
                              redfish_firmware.RedfishFirmware().check_step,
                              None, step)
        self.assertEqual('settings', e.field)
        self.assertIn(message, str(e))

    def test_refusals(self):
        self._refused([], 'non-empty list')
        self._refused({'component': 'bios'}, 'non-empty list')
        self._refused([{'component': 'bios'}],
                      "settings[0]: 'url' is a required property")
        self._refused([{'component': 'bios', 'url': IMAGE},
                       {'component': 'cpld', 'url': IMAGE}],
                      'settings[1].component:')
        self._refused([{'component': 'bios', 'url': IMAGE, 'wait': 0}],
                      'settings[0].wait:')
        self._refused([{'component': 'bios', 'url': IMAGE, 'x': 1}],
                      'Additional properties are not allowed')
        self._refused([{'component': 'bios', 'url': 'ftp://h/i.bin'}],
                      "settings[0].url: scheme 'ftp' is not one of")
        self._refused([{'component': 'bios',
                        'url': 'file:///no/such/image.bin'}],
                      '/no/such/image.bin is not a file on the conductor')
        self.config(firmware_source='swift', group='redfish')
        self._refused([{'component': 'bios', 'url': IMAGE}],
                      'cannot be staged in Swift here')

    def test_accepted(self):
        settings = [{'component': 'bios', 'url': IMAGE, 'wait': 30},
                    {'component': 'bmc', 'url': 'https://h/bmc.bin'},
                    {'component': 'nic:NIC.Slot.1', 'url': IMAGE}]
        self.assertEqual(settings,
                         redfish_firmware.parse_settings(settings))
        redfish_firmware.RedfishFirmware().check_step(
            None, {'step': 'other', 'args': {}})
