"""The redfish firmware interface's update step with sushy mocked and
the node's firmware components in the test database: the settings
checked before anything moves; per component SimpleUpdate, its task
followed, the reboot the component needs, its new version awaited (on a
fake clock); images staged under http_root removed afterwards."""

import json
import os
import time
import types
from unittest import mock

import fixtures
import sushy

from ironic_like.common import exception
from ironic_like.common import file_urls
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
    """time.time, time.monotonic and time.sleep of the step: sleeping
    advances (the waits between the polls of the step are sleeps)."""

    def __init__(self):
        # From the real clock's reading: the step's deadline is also
        # compared with time.monotonic() outside this module (the bounded
        # copy of a file:// image), which a made-up start (1000) made fail
        # on machines up for more than an hour.
        # A whole number, so that differences of readings are exact.
        self.now = float(int(time.monotonic()))
        self.slept = []

    def monotonic(self):
        return self.now

    def time(self):
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
    """A task monitor whose reads give ``tasks`` in turn (a task, or an
    exception the read raises); the last one stays. Processing (HTTP
    202) while the task is in a running state, as a BMC answers."""

    def __init__(self, tasks):
        self.tasks = list(tasks)
        self.task_monitor_uri = '/redfish/v1/TaskService/Tasks/7'
        self.reads = 0
        self.current = None

    @property
    def check_is_processing(self):
        self.reads += 1
        self.current = (self.tasks.pop(0) if len(self.tasks) > 1
                        else self.tasks[0])
        if isinstance(self.current, Exception):
            raise self.current
        return self.current.task_state in redfish_firmware._RUNNING

    @property
    def task(self):
        return self.current

    def get_task(self):
        return self.current


class _UpdateStepTestCase(base.TestCase):
    """A Redfish node with two systems on its BMC, sushy mocked, a fake
    clock."""

    def setUp(self):
        super().setUp()
        redfish_utils._CACHE.clear()
        self.addCleanup(redfish_utils._CACHE.clear)
        self.root = self.useFixture(fixtures.TempDir()).path
        self.images = self.useFixture(fixtures.TempDir()).path
        self.config(http_root=self.root, http_url='http://10.0.0.1:8088/',
                    group='deploy')
        self.config(file_url_allowed_paths=[self.images], group='conductor')
        self.config(firmware_update_status_interval=5,
                    firmware_update_bmc_version_check_interval=10,
                    group='redfish')
        self.system = mock.Mock(bios_version='1.0')
        self.manager = mock.Mock(firmware_version='bmc-1', model='BMC')
        self.system.managers = [self.manager]
        self.system.chassis = []
        self.service = mock.Mock()
        # A BMC that completes the task before the reboot (it staged the
        # image): the BIOS flashes it at the reboot.
        self.monitor = _Monitor([_task_doc(sushy.TASK_STATE_COMPLETED)])
        self.service.simple_update.side_effect = (
            lambda *a, **k: self.monitor)
        conn = mock.Mock()
        conn.get_system.return_value = self.system
        conn.get_update_service.return_value = self.service
        # The step follows its task by URI (it is polled): the task
        # monitor SimpleUpdate answered last.
        conn.get_task_monitor.side_effect = lambda uri: self.monitor
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

    def _bmc_versions(self, *versions):
        """The BMC's version reads, in turn (an exception: a failed
        read); the last one stays."""
        reads = list(versions)

        def read():
            value = reads.pop(0) if len(reads) > 1 else reads[0]
            if isinstance(value, Exception):
                raise value
            return value
        type(self.manager).firmware_version = mock.PropertyMock(
            side_effect=read)

    def _update(self, *settings):
        """The step as the conductor runs it: started, then polled
        until it is over (at most 500 polls), the clock moved to each
        poll's time (the step's waits), its state through JSON."""
        result = self.interface.update(self.task, list(settings))
        step = {'interface': 'firmware', 'step': 'update'}
        for _ in range(500):
            if not drivers_base.is_polling(result):
                return result
            state = json.loads(json.dumps(result.state))
            wait = state['next_at'] - self.clock.time()
            if wait > 0:
                self.clock.sleep(wait)
            result = self.interface.poll_step(self.task, step, state)
        self.fail('still polling after 500 polls')

    def _component(self, name):
        return {c.component: c for c in
                self.db.get_firmware_components(self.node.id)}[name]


class TestUpdateStep(_UpdateStepTestCase):

    def test_marks(self):
        for kind in (drivers_base.CLEAN, drivers_base.SERVICE):
            info = drivers_base.step_info(self.interface, 'update', kind)
            self.assertEqual(0, info['priority'])
            self.assertFalse(info['requires_ramdisk'], kind)
            self.assertTrue(info['argsinfo']['settings']['required'])
        self.assertIsNotNone(drivers_base.step_info(
            self.interface, 'update', drivers_base.DEPLOY))

    def test_staged_bios_image_flashed_at_the_reboot(self):
        self._flash_bios_on_reboot()
        self._update({'component': 'bios', 'url': IMAGE})
        # The BMC has two systems: it is told which one.
        self.service.simple_update.assert_called_once_with(
            IMAGE, targets=[SYSTEM_ID])
        self.power.reboot.assert_called_once_with(self.task)
        bios = self._component('bios')
        self.assertEqual('2.0', bios.current_version)
        self.assertEqual('2.0', bios.last_version_flashed)
        self.assertEqual('1.0', bios.initial_version)

    def test_polled_while_the_bmc_works(self):
        # The step returns as soon as it must wait; a poll before the
        # time it named does nothing; each later one looks once.
        self.monitor = _Monitor([_task_doc(sushy.TASK_STATE_NEW),
                                 _task_doc(sushy.TASK_STATE_COMPLETED)])
        self._flash_bios_on_reboot()
        result = self.interface.update(self.task, [
            {'component': 'bios', 'url': IMAGE}])
        self.assertTrue(drivers_base.is_polling(result))
        state = json.loads(json.dumps(result.state))
        self.assertEqual('task', state['comp']['phase'])
        self.assertEqual('/redfish/v1/TaskService/Tasks/7',
                         state['comp']['monitor'])
        self.assertEqual(self.clock.now + 5, state['next_at'])
        self.assertEqual(1, self.monitor.reads)
        step = {'interface': 'firmware', 'step': 'update'}
        again = self.interface.poll_step(self.task, step, state)
        self.assertEqual(state, again.state)
        self.assertEqual(1, self.monitor.reads)
        self.clock.sleep(5)
        # Completed: the reboot flashes it, the version shows it, done.
        self.assertIsNone(self.interface.poll_step(self.task, step, state))
        self.assertEqual(2, self.monitor.reads)
        self.power.reboot.assert_called_once_with(self.task)
        self.assertEqual('2.0', self._component('bios').current_version)

    def test_task_unreadable_for_a_while(self):
        # No connection to make the task monitor with: read again.
        self.monitor = _Monitor([_task_doc(sushy.TASK_STATE_COMPLETED)])
        self._flash_bios_on_reboot()
        down = sushy.exceptions.ConnectionError(url='http://bmc.example',
                                                error='refused')
        answers = iter([down, down])

        def monitor(uri):
            answer = next(answers, self.monitor)
            if isinstance(answer, Exception):
                raise answer
            return answer
        self.conn.get_task_monitor.side_effect = monitor
        self._update({'component': 'bios', 'url': IMAGE})
        self.assertEqual([5, 5], self.clock.slept[:2])
        self.assertEqual('2.0', self._component('bios').current_version)

    def test_bios_version_awaited_after_the_reboot(self):
        # The BIOS reports its new version only after its self test.
        versions = iter(['1.0', '1.0', '1.0', '2.0'])
        type(self.system).bios_version = mock.PropertyMock(
            side_effect=lambda: next(versions, '2.0'))
        self._update({'component': 'bios', 'url': IMAGE})
        self.assertEqual('2.0', self._component('bios').current_version)
        # Read every [redfish]firmware_update_bmc_version_check_interval.
        self.assertEqual([10, 10], self.clock.slept)

    def test_one_system_needs_no_target(self):
        self.conn.get_system_collection.return_value.members_identities = [
            SYSTEM_ID]
        self._flash_bios_on_reboot()
        self._update({'component': 'bios', 'url': IMAGE})
        self.service.simple_update.assert_called_once_with(IMAGE,
                                                           targets=None)

    def test_bios_task_waiting_for_the_reboot(self):
        # BMCs that flash the BIOS at the next boot keep the task
        # Starting, Running or Pending until the host reboots.
        for state in (sushy.TASK_STATE_STARTING, sushy.TASK_STATE_RUNNING,
                      sushy.TASK_STATE_PENDING):
            self.power.reboot.reset_mock()
            self.monitor = _Monitor([_task_doc(sushy.TASK_STATE_NEW),
                                     _task_doc(state), _task_doc(state),
                                     _task_doc(sushy.TASK_STATE_COMPLETED)])
            self._update({'component': 'bios', 'url': IMAGE})
            # Once, not again when the task completes; the task's
            # completion says the BIOS is flashed: no version wait.
            self.power.reboot.assert_called_once_with(self.task)
            self.assertEqual(4, self.monitor.reads)
            self.assertEqual(5, self.clock.slept[-1])

    def test_bmc_version_changed_no_reboot_when_last(self):
        # Unreachable while it restarts, then the old, then the new.
        self._bmc_versions('bmc-1', sushy.exceptions.ConnectionError(
            url='/m', error='refused'), 'bmc-1', 'bmc-2')
        self._update({'component': 'bmc', 'url': IMAGE})
        self.power.reboot.assert_not_called()
        self.assertEqual('bmc-2', self._component('bmc').current_version)
        self.assertEqual('bmc-2', self._component('bmc').last_version_flashed)
        self.assertEqual([10, 10], self.clock.slept)

    def test_bmc_version_changed_reboots_before_the_next_component(self):
        self._bmc_versions('bmc-1', 'bmc-2')
        self._flash_bios_on_reboot()
        self._update({'component': 'bmc', 'url': IMAGE + '?bmc'},
                     {'component': 'bios', 'url': IMAGE})
        # After the BMC (other components follow), then for the BIOS.
        self.assertEqual(2, self.power.reboot.call_count)
        self.assertEqual([IMAGE + '?bmc', IMAGE], [
            c[0][0] for c in self.service.simple_update.call_args_list])

    def test_bmc_unchanged_but_readable_needs_no_reboot(self):
        start = self.clock.now
        self._update({'component': 'bmc', 'url': IMAGE, 'wait': 60})
        self.power.reboot.assert_not_called()
        # The entry's wait bounded the version reads (every 10 s).
        self.assertEqual(60, self.clock.now - start)
        bmc = self._component('bmc')
        self.assertEqual('bmc-1', bmc.current_version)
        self.assertIsNone(bmc.last_version_flashed)

    def test_bmc_read_then_unreachable_at_its_wait_reboots_the_host(self):
        # The old version read once, then the BMC restarts and does not
        # answer by the entry's wait: what it applied is unknown.
        self._bmc_versions('bmc-1', 'bmc-1', sushy.exceptions.ConnectionError(
            url='/m', error='refused'))
        self._update({'component': 'bmc', 'url': IMAGE, 'wait': 30})
        self.power.reboot.assert_called_once_with(self.task)

    def test_next_component_waits_for_the_bmc_to_answer(self):
        # After the BMC's update (rebooted: other components follow),
        # the BIOS version cannot be read at first.
        self._bmc_versions('bmc-1', 'bmc-2')
        reads = [sushy.exceptions.ConnectionError(url='/s', error='down'),
                 '1.0']

        def bios_version():
            value = reads.pop(0) if len(reads) > 1 else reads[0]
            if isinstance(value, Exception):
                raise value
            return value
        self.reboots = 0

        def reboot(task):
            self.reboots += 1
            if self.reboots == 2:
                reads[:] = ['2.0']
        self.power.reboot.side_effect = reboot
        type(self.system).bios_version = mock.PropertyMock(
            side_effect=bios_version)
        self._update({'component': 'bmc', 'url': IMAGE + '?bmc'},
                     {'component': 'bios', 'url': IMAGE})
        self.assertEqual(2, self.reboots)
        self.assertEqual('2.0', self._component('bios').current_version)

    def test_bmc_unreadable_by_its_wait_reboots_the_host(self):
        self._bmc_versions('bmc-1', sushy.exceptions.ConnectionError(
            url='/m', error='refused'))
        self._update({'component': 'bmc', 'url': IMAGE, 'wait': 30})
        self.power.reboot.assert_called_once_with(self.task)

    def test_nic_rebooted_after_its_task_then_waits(self):
        start = self.clock.now
        self._update({'component': 'nic:NIC.1', 'url': IMAGE, 'wait': 45})
        self.power.reboot.assert_called_once_with(self.task)
        self.assertEqual(45, self.clock.now - start)

    def test_nic_version_recorded_after_its_update(self):
        controller = mock.Mock(firmware_package_version='22.31.6')
        adapter = mock.Mock(identity='NIC.1', serial_number=None,
                            manufacturer='Mellanox', model='CX-6',
                            controllers=[controller])
        chassis = mock.Mock()
        chassis.network_adapters.get_members.return_value = [adapter]
        self.system.chassis = [chassis]

        def flash(task):
            controller.firmware_package_version = '22.36.1'
        self.power.reboot.side_effect = flash
        self.interface.cache_firmware_components(self.task)
        self.assertEqual('22.31.6',
                         self._component('nic:NIC.1').initial_version)
        self._update({'component': 'nic:NIC.1', 'url': IMAGE})
        nic = self._component('nic:NIC.1')
        self.assertEqual(('22.36.1', '22.36.1', '22.31.6'), (
            nic.current_version, nic.last_version_flashed,
            nic.initial_version))
        self.assertEqual(('Mellanox', 'CX-6'), (nic.vendor, nic.model))

    def test_nic_task_starting_too_long_is_rebooted(self):
        self.config(firmware_update_nic_starting_wait=30, group='redfish')
        starting = _task_doc(sushy.TASK_STATE_STARTING)
        self.monitor = _Monitor([starting] * 8 + [
            _task_doc(sushy.TASK_STATE_RUNNING),
            _task_doc(sushy.TASK_STATE_COMPLETED)])
        at_reboot = []
        self.power.reboot.side_effect = (
            lambda task: at_reboot.append(self.monitor.reads))
        self._update({'component': 'nic:NIC.1', 'url': IMAGE})
        # Once, after 30 s Starting (reads every 5 s: the 7th read), not
        # again at the completion.
        self.power.reboot.assert_called_once_with(self.task)
        self.assertEqual([7], at_reboot)

    def test_bios_wait_after_a_reboot_during_the_task(self):
        # The task completed after the reboot: the BIOS is flashed; the
        # entry's wait lets it settle before the next component.
        self.monitor = _Monitor([_task_doc(sushy.TASK_STATE_PENDING),
                                 _task_doc(sushy.TASK_STATE_COMPLETED)])
        start = self.clock.now
        self._update({'component': 'bios', 'url': IMAGE, 'wait': 40})
        self.assertEqual(5 + 40, self.clock.now - start)

    def test_ended_task_still_answered_202(self):
        # Some BMCs go on answering 202 once the task ended: its state
        # decides.
        ended = _task_doc(sushy.TASK_STATE_EXCEPTION, sushy.HEALTH_CRITICAL,
                          ['Flash failed'])

        class Always202(_Monitor):
            @property
            def check_is_processing(self):
                self.current = ended
                return True
        self.monitor = Always202([ended])
        e = self.assertRaises(exception.IronicLikeException, self._update,
                              {'component': 'bmc', 'url': IMAGE})
        self.assertIn('Flash failed', str(e))
        self.assertEqual([], self.clock.slept)

    def test_failed_task_fails_the_step_with_the_bmc_messages(self):
        self.monitor = _Monitor([_task_doc(
            sushy.TASK_STATE_EXCEPTION, sushy.HEALTH_CRITICAL,
            ['Image signature invalid'])])
        e = self.assertRaises(exception.IronicLikeException, self._update,
                              {'component': 'bios', 'url': IMAGE})
        self.assertIn('firmware update of bios from %s failed' % IMAGE,
                      str(e))
        self.assertIn('Exception (status Critical): Image signature '
                      'invalid', str(e))
        self.power.reboot.assert_not_called()
        self.assertEqual('1.0', self._component('bios').current_version)

    def test_completed_without_a_status_fails(self):
        # As Ironic: only OK or Warning is success.
        self.monitor = _Monitor([_task_doc(sushy.TASK_STATE_COMPLETED,
                                           None)])
        e = self.assertRaises(exception.IronicLikeException, self._update,
                              {'component': 'bmc', 'url': IMAGE})
        self.assertIn('ended Completed (status None): no message', str(e))

    def test_a_later_component_is_not_tried_after_a_failure(self):
        self.monitor = _Monitor([_task_doc(sushy.TASK_STATE_KILLED,
                                           sushy.HEALTH_WARNING)])
        self.assertRaises(exception.IronicLikeException, self._update,
                          {'component': 'bios', 'url': IMAGE},
                          {'component': 'bmc', 'url': IMAGE})
        self.assertEqual(1, self.service.simple_update.call_count)

    def test_task_gone_is_taken_as_done(self):
        self.monitor = _Monitor([
            sushy.exceptions.ResourceNotFoundError(
                method='GET', url='/t/7', response=mock.Mock(
                    status_code=404, json=mock.Mock(return_value={})))])
        self._flash_bios_on_reboot()
        self._update({'component': 'bios', 'url': IMAGE})
        self.power.reboot.assert_called_once_with(self.task)
        self.assertEqual('2.0', self._component('bios').current_version)

    def test_unreachable_bmc_is_read_again(self):
        self.monitor = _Monitor([
            sushy.exceptions.ConnectionError(url='/t/7', error='refused'),
            ValueError('Expecting value: line 1 column 1'),
            _task_doc(sushy.TASK_STATE_COMPLETED)])
        self._flash_bios_on_reboot()
        self._update({'component': 'bios', 'url': IMAGE})
        self.assertEqual(3, self.monitor.reads)
        self.assertEqual('2.0', self._component('bios').current_version)

    def test_refused_credentials_are_not_read_again(self):
        self.monitor = _Monitor([sushy.exceptions.AccessError(
            method='GET', url='/t/7', response=mock.Mock(
                status_code=401, json=mock.Mock(return_value={})))])
        self.assertRaises(exception.InvalidParameterValue, self._update,
                          {'component': 'bios', 'url': IMAGE})
        self.assertEqual(1, self.monitor.reads)

    def test_task_never_over_fails_at_the_overall_timeout(self):
        self.config(firmware_update_overall_timeout=120, group='redfish')
        self.monitor = _Monitor([_task_doc(sushy.TASK_STATE_RUNNING)])
        e = self.assertRaises(exception.IronicLikeException, self._update,
                              {'component': 'bios', 'url': IMAGE})
        self.assertIn('firmware_update_overall_timeout (state Running)',
                      str(e))
        self.assertLess(self.monitor.reads, 120 / 5 + 3)
        # Rebooted once for the BIOS, as the BMC seemed to want.
        self.power.reboot.assert_called_once_with(self.task)

    def test_no_component_starts_after_the_overall_timeout(self):
        self.config(firmware_update_overall_timeout=100, group='redfish')
        # The NIC's wait after its reboot uses up the step's time.
        start = self.clock.now
        e = self.assertRaises(exception.IronicLikeException, self._update,
                              {'component': 'nic:NIC.1', 'url': IMAGE,
                               'wait': 1000},
                              {'component': 'bmc', 'url': IMAGE})
        self.assertEqual(100, self.clock.now - start)
        self.assertIn('firmware update of bmc from %s failed: not '
                      'started' % IMAGE, str(e))
        self.assertEqual(1, self.service.simple_update.call_count)

    def test_versions_not_read_at_the_end_do_not_fail_the_step(self):
        self._flash_bios_on_reboot()
        with mock.patch.object(
                self.interface, 'cache_firmware_components',
                side_effect=exception.IronicLikeException('BMC busy')):
            self._update({'component': 'bios', 'url': IMAGE})
        self.power.reboot.assert_called_once_with(self.task)

    def test_file_url_is_served_by_the_conductor_and_removed(self):
        image = os.path.join(self.images, 'bios 2.bin')
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
        self._update({'component': 'bios', 'url': 'file://' + image})
        self.assertEqual(
            [('http://10.0.0.1:8088/firmware/%s-0-bios%%202.bin'
              % self.node.uuid, b'FIRMWARE bios 2.0\n')], served)
        self.assertEqual([], os.listdir(os.path.join(self.root,
                                                     'firmware')))

    def test_local_source_downloads_and_removes_after_a_failure(self):
        self.config(firmware_source='local', group='redfish')
        download = self.useFixture(fixtures.MockPatchObject(
            published_files, 'download',
            side_effect=lambda url, f, purpose, bound: f.write(b'IMG') or 3)
        ).mock
        self.monitor = _Monitor([_task_doc(sushy.TASK_STATE_EXCEPTION,
                                           sushy.HEALTH_CRITICAL)])
        self.assertRaises(exception.IronicLikeException, self._update,
                          {'component': 'bios', 'url': IMAGE})
        # Named for its node and component; bounded by the time left.
        download.assert_called_once_with(
            IMAGE, mock.ANY, 'the bios firmware update of node %s'
            % self.node.uuid, bound=redfish_firmware.DEFAULT_TIMEOUT)
        self.service.simple_update.assert_called_once_with(
            'http://10.0.0.1:8088/firmware/%s-0-bios-2.0.bin'
            % self.node.uuid, targets=[SYSTEM_ID])
        self.assertEqual([], os.listdir(os.path.join(self.root,
                                                     'firmware')))

    def test_abandoned_while_polled_removes_the_staged_copy(self):
        # The node aborted while the update waited for the BMC's task:
        # the copy this conductor serves goes.
        self.config(firmware_source='local', group='redfish')
        self.useFixture(fixtures.MockPatchObject(
            published_files, 'download',
            side_effect=lambda url, f, purpose, bound: f.write(b'IMG') or 3))
        self.monitor = _Monitor([_task_doc(sushy.TASK_STATE_RUNNING)])
        result = self.interface.update(self.task, [
            {'component': 'bmc', 'url': IMAGE}])
        self.assertTrue(drivers_base.is_polling(result))
        staged = os.path.join(self.root, 'firmware')
        self.assertEqual(1, len(os.listdir(staged)))
        self.interface.abandon_step(
            self.task, {'interface': 'firmware', 'step': 'update'},
            json.loads(json.dumps(result.state)))
        self.assertEqual([], os.listdir(staged))

    def test_staging_failure_names_the_component(self):
        self.config(firmware_source='local', group='redfish')
        with open(os.path.join(self.root, 'firmware'), 'w'):
            pass  # a file where the directory should be
        e = self.assertRaises(exception.IronicLikeException, self._update,
                              {'component': 'bios', 'url': IMAGE})
        self.assertIn('firmware update of bios from %s failed: staging '
                      'the image' % IMAGE, str(e))
        self.service.simple_update.assert_not_called()

    def test_no_update_service(self):
        self.conn.get_update_service.side_effect = (
            sushy.exceptions.MissingAttributeError(
                attribute='UpdateService', resource='/redfish/v1'))
        e = self.assertRaises(exception.IronicLikeException, self._update,
                              {'component': 'bios', 'url': IMAGE})
        self.assertIn('the BMC has no UpdateService', str(e))

    def test_no_simple_update_action(self):
        self.service.simple_update.side_effect = (
            sushy.exceptions.MissingAttributeError(
                attribute='Actions/#UpdateService.SimpleUpdate',
                resource='/redfish/v1/UpdateService'))
        e = self.assertRaises(exception.IronicLikeException, self._update,
                              {'component': 'bios', 'url': IMAGE})
        self.assertIn('the BMC has no SimpleUpdate action', str(e))
        self.assertNotIn('redfish_system_id', str(e))


def _response(status, body=None, location=None):
    resp = mock.Mock(status_code=status,
                     headers={'Location': location} if location else {})
    resp.content = b'{}' if body is not None else b''
    resp.json.return_value = body if body is not None else {}
    return resp


def _task_json(state, status='OK'):
    return {'@odata.id': '/redfish/v1/TaskService/Tasks/7', 'Id': '7',
            'Name': 'Task 7', 'TaskState': state, 'TaskStatus': status,
            'Messages': []}


class TestWithSushysTaskMonitor(_UpdateStepTestCase):
    """The step over sushy's own TaskMonitor, the BMC's answers mocked:
    the shapes BMCs give."""

    def _monitor(self, first, reads):
        """SimpleUpdate answers ``first``; the task monitor's reads
        answer ``reads`` in turn (the last one stays)."""
        connector = mock.Mock()
        answers = list(reads)
        connector.get.side_effect = lambda *a, **k: (
            answers.pop(0) if len(answers) > 1 else answers[0])
        self.service.simple_update.side_effect = (
            lambda *a, **k: sushy.taskmonitor.TaskMonitor.from_response(
                connector, first, '/redfish/v1/UpdateService/Actions/'
                'UpdateService.SimpleUpdate'))
        # Each poll follows the task by the URI SimpleUpdate gave.
        self.conn.get_task_monitor.side_effect = (
            lambda uri: sushy.taskmonitor.TaskMonitor(connector, uri))
        return connector

    def test_202_without_a_body_then_200(self):
        location = '/redfish/v1/TaskService/Tasks/7'
        connector = self._monitor(_response(202, location=location), [
            _response(202), _response(202, _task_json('Running')),
            _response(200, _task_json('Completed'))])
        at_reboot = []
        self.power.reboot.side_effect = (
            lambda task: at_reboot.append(connector.get.call_count))
        self._update({'component': 'bios', 'url': IMAGE})
        # Rebooted when the task showed Running (the second read), not
        # at its completion.
        self.assertEqual([2], at_reboot)

    def test_204_with_a_location_stock_sushy_tools(self):
        self._monitor(_response(204, location='/t/42'),
                      [_response(200, _task_json('Completed'))])
        self._flash_bios_on_reboot()
        self._update({'component': 'bios', 'url': IMAGE})
        self.assertEqual('2.0', self._component('bios').current_version)

    def _error(self, cls, status):
        return cls(method='GET', url='/t/7', response=mock.Mock(
            status_code=status, json=mock.Mock(return_value={})))

    def test_task_gone_when_made_again_is_taken_as_done(self):
        # The BMC restarted after its own update and forgot its tasks:
        # the 404 of the monitor's first read (sushy reads as it makes
        # it) is the task done, as before the step was polled.
        connector = self._monitor(_response(202, _task_json('Running'),
                                            location='/t/7'), [])
        connector.get.side_effect = self._error(
            sushy.exceptions.ResourceNotFoundError, 404)
        self._update({'component': 'bmc', 'url': IMAGE})
        self.assertEqual(1, connector.get.call_count)

    def test_refused_credentials_when_made_again(self):
        connector = self._monitor(_response(202, _task_json('Running'),
                                            location='/t/7'), [])
        connector.get.side_effect = self._error(
            sushy.exceptions.AccessError, 401)
        self.assertRaises(exception.InvalidParameterValue, self._update,
                          {'component': 'bios', 'url': IMAGE})
        self.assertEqual(1, connector.get.call_count)

    def test_200_while_running_then_exception(self):
        # Some BMCs answer 200 with the task while it runs.
        self._monitor(_response(202, _task_json('New'), location='/t/7'), [
            _response(200, _task_json('Running')),
            _response(200, dict(_task_json('Exception', 'Critical'),
                                Messages=[{'Message': 'Bad image',
                                           'MessageId': 'X.1'}]))])
        e = self.assertRaises(exception.IronicLikeException, self._update,
                              {'component': 'bmc', 'url': IMAGE})
        self.assertIn('ended Exception (status Critical): Bad image',
                      str(e))


class TestSettingsChecked(base.TestCase):
    """What check_step refuses (400 naming ``settings``) before the node
    moves."""

    def setUp(self):
        super().setUp()
        self.images = self.useFixture(fixtures.TempDir()).path
        self.config(file_url_allowed_paths=[self.images], group='conductor')

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
        self._refused([{'component': 'bios', 'url': 'http://[::1/i.bin'}],
                      'settings[0].url: Invalid IPv6 URL')
        self._refused([{'component': 'bios',
                        'url': 'file://%s/none.bin' % self.images}],
                      'none.bin: no such file on the conductor')
        self.config(firmware_source='swift', group='redfish')
        self._refused([{'component': 'bios', 'url': IMAGE}],
                      'cannot be staged in Swift here')

    def test_accepted(self):
        image = os.path.join(self.images, 'bios.bin')
        open(image, 'w').close()
        settings = [{'component': 'bios', 'url': IMAGE, 'wait': 30},
                    {'component': 'bmc', 'url': 'https://h/bmc.bin'},
                    {'component': 'nic:NIC.Slot.1', 'url': 'file://' + image}]
        self.assertEqual(settings,
                         redfish_firmware.parse_settings(settings))
        redfish_firmware.RedfishFirmware().check_step(
            None, {'step': 'other', 'args': {}})


class TestFileURLs(base.TestCase):
    """[conductor]file_url_allowed_paths, as Ironic's FileImageService
    applies it: the same refusal whether or not the file exists."""

    def setUp(self):
        super().setUp()
        self.allowed = self.useFixture(fixtures.TempDir()).path
        self.outside = self.useFixture(fixtures.TempDir()).path
        self.config(file_url_allowed_paths=[self.allowed],
                    group='conductor')

    def _refused(self, url):
        e = self.assertRaises(exception.InvalidParameterValue,
                              file_urls.local_path, url, 'settings')
        self.assertIn('only taken for files under [conductor]'
                      'file_url_allowed_paths', str(e))
        self.assertEqual('settings', e.field)

    def test_allowed(self):
        path = os.path.join(self.allowed, 'a.bin')
        open(path, 'w').close()
        self.assertEqual(os.path.realpath(path),
                         file_urls.local_path('file://' + path, 's'))

    def test_refused(self):
        secret = os.path.join(self.outside, 'secret.conf')
        open(secret, 'w').close()
        self._refused('file://' + secret)
        self._refused('file://' + os.path.join(self.outside, 'none'))
        # Out by "..", or by a symbolic link.
        self._refused('file://%s/../%s/secret.conf' % (
            self.allowed, os.path.basename(self.outside)))
        link = os.path.join(self.allowed, 'link.bin')
        os.symlink(secret, link)
        self._refused('file://' + link)
        # A sibling whose name starts as the allowed one does.
        self._refused('file://%s-other/x' % self.allowed)

    def test_system_paths_never(self):
        self.config(file_url_allowed_paths=['/'], group='conductor')
        for path in ('/etc/passwd', '/proc/self/environ', '/sys/x',
                     '/dev/null', '/boot/vmlinuz', '/run/x'):
            self._refused('file://' + path)

    def test_malformed_paths_and_entries(self):
        path = os.path.join(self.allowed, 'a.bin')
        open(path, 'w').close()
        self._refused('file://%s\x00.bin' % path)
        self._refused('file://[::1/%s' % path)
        # A relative entry is ignored (it would depend on the conductor's
        # working directory).
        self.config(file_url_allowed_paths=['.', 'images/../x'],
                    group='conductor')
        self._refused('file://' + os.path.join(os.getcwd(), 'setup.cfg'))

    def test_empty_list_takes_none(self):
        self.config(file_url_allowed_paths=[], group='conductor')
        path = os.path.join(self.allowed, 'a.bin')
        open(path, 'w').close()
        self._refused('file://' + path)
