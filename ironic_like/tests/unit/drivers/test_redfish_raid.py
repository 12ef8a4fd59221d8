"""The redfish raid interface's steps with sushy's Storage resources
stood in for by a small in-memory BMC: volumes planned and created with
the apply time the BMC offers (and a reboot for OnReset), raid_config
recorded from what the BMC then shows, deletion, the waits bounded, and
the checks made before the node moves."""

import json
import types
from unittest import mock

import fixtures
import sushy

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.drivers import base as drivers_base
from ironic_like.drivers.modules import redfish_raid
from ironic_like.drivers.modules import redfish_utils
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils

GiB = 1024 ** 3
SYSTEM = '/redfish/v1/Systems/1'


class _Drive(object):

    def __init__(self, storage, ident, gib):
        self.identity = ident
        self.path = '%s/Storage/%s/Drives/%s' % (SYSTEM, storage, ident)
        self.capacity_bytes = gib * GiB
        self.media_type = 'HDD'
        self.protocol = sushy.PROTOCOL_TYPE_SAS


class _Volume(object):

    def __init__(self, controller, ident, payload):
        self.controller = controller
        self.identity = ident
        self.name = payload.get('Name', 'Volume %s' % ident)
        self.raid_type = sushy.RAIDType(payload['RAIDType'])
        drives = payload['Links']['Drives']
        self.capacity_bytes = payload.get('CapacityBytes') or (
            len(drives) * 100 * GiB)
        self.json = {'Links': {'Drives': drives}}

    def delete(self, apply_time=None):
        bmc = self.controller.bmc
        bmc.calls.append(('delete', self.identity, apply_time))
        self.controller.pending_deletes.append(self)
        return self.controller.answer(apply_time)


class _Controller(object):
    """A RAID controller with four 100 GiB drives (ids Disk.0-3, as on
    every controller of the BMC) and its Volumes collection; volume ids
    are numbered per controller, as on some BMCs."""

    def __init__(self, bmc, ident, raid_types):
        self.bmc = bmc
        self.identity = ident
        self.drives = [_Drive(ident, 'Disk.%d' % i, 100) for i in range(4)]
        self.members = []
        self.pending_creates = []
        self.pending_deletes = []
        self.serial = 0
        self.volumes = self  # the sushy Storage's Volumes collection
        self.controllers = None
        self.storage_controllers = [types.SimpleNamespace(
            raid_types=[sushy.RAIDType(t) for t in raid_types])]

    @property
    def operation_apply_time_support(self):
        return types.SimpleNamespace(
            mapped_supported_values=self.bmc.apply_times)

    def get_members(self):
        return list(self.members)

    def create(self, payload, apply_time=None):
        bmc = self.bmc
        bmc.calls.append(('create', payload, apply_time))
        if len([c for c in bmc.calls if c[0] == 'create']) == \
                bmc.fail_create:
            raise sushy.exceptions.SushyError('the controller refused it')
        self.serial += 1
        self.pending_creates.append(_Volume(self, str(self.serial),
                                            payload))
        return self.answer(apply_time)

    def answer(self, apply_time):
        """Apply at once unless the operation waits for a reset (asked
        so, or the BMC answers with tasks); the task it answers with."""
        if apply_time == sushy.APPLY_TIME_ON_RESET or self.bmc.tasks:
            self.bmc.most_pending = max(self.bmc.most_pending,
                                        len(self.pending_creates) +
                                        len(self.pending_deletes))
            if self.bmc.task_fails:
                # The job failed at once: the task says so.
                task = types.SimpleNamespace(
                    task_state=sushy.TASK_STATE_EXCEPTION,
                    task_status=sushy.HEALTH_CRITICAL,
                    messages=[types.SimpleNamespace(
                        message=self.bmc.task_fails, message_id='X')])
                monitor = types.SimpleNamespace(
                    task_monitor_uri='/redfish/v1/TaskService/Tasks/1',
                    check_is_processing=False, get_task=lambda: task)
            else:
                monitor = types.SimpleNamespace(
                    task_monitor_uri='/redfish/v1/TaskService/Tasks/1')
            # What the BMC answers for the task's URI from now on.
            self.bmc.monitors[monitor.task_monitor_uri] = monitor
            return monitor
        self.apply()
        return None

    def apply(self):
        self.members.extend(self.pending_creates)
        for volume in self.pending_deletes:
            self.members.remove(volume)
        self.pending_creates, self.pending_deletes = [], []


class _BMC(object):
    """RAID controllers (RAID.1, and RAID.2 with ``controllers=2``) and a
    controller that is no RAID controller (left alone)."""

    def __init__(self, apply_times, controllers=1,
                 raid_types=('RAID0', 'RAID1', 'RAID5', 'RAID10')):
        self.apply_times = list(apply_times)
        self.calls = []
        # The create (1-based) that fails; a task (202) for every answer.
        self.fail_create = None
        self.tasks = False
        # What the BMC's tasks say when they fail (None: they do not).
        self.task_fails = None
        # The most operations ever waiting for a reset on one controller.
        self.most_pending = 0
        # The task monitors by URI.
        self.monitors = {}
        self.controllers = [_Controller(self, 'RAID.%d' % (i + 1),
                                        raid_types)
                            for i in range(controllers)]
        self.plain = types.SimpleNamespace(
            identity='AHCI.1', drives=[_Drive('AHCI.1', 'Plain.0', 100)],
            volumes=None, controllers=None,
            storage_controllers=[types.SimpleNamespace(raid_types=[])])
        self.system = types.SimpleNamespace(
            storage=types.SimpleNamespace(
                get_members=lambda: [self.plain] + self.controllers))

    @property
    def volumes(self):
        """RAID.1's volumes."""
        return self.controllers[0].members

    def apply(self):
        for controller in self.controllers:
            controller.apply()


class _UntilDone(object):
    """The interface as the conductor drives it: each step, then its
    polls (here at once, at most 50), the state through JSON as the
    node's driver_internal_info keeps it."""

    STEPS = ('create_configuration', 'apply_configuration',
             'delete_configuration')

    def __init__(self, interface):
        self.interface = interface
        self.polls = 0

    def __getattr__(self, name):
        attr = getattr(self.interface, name)
        if name not in self.STEPS:
            return attr

        def step(task, *args, **kwargs):
            result = attr(task, *args, **kwargs)
            for _ in range(50):
                if not drivers_base.is_polling(result):
                    return result
                self.polls += 1
                result = self.interface.poll_step(
                    task, {'interface': 'raid', 'step': name},
                    json.loads(json.dumps(result.state)))
            raise AssertionError('still polling after 50 polls')
        return step


class TestRedfishRAID(base.TestCase):

    def setUp(self):
        super().setUp()
        redfish_utils._CACHE.clear()
        self.addCleanup(redfish_utils._CACHE.clear)
        self.bmc = _BMC([sushy.APPLY_TIME_IMMEDIATE,
                         sushy.APPLY_TIME_ON_RESET])
        conn = mock.Mock()
        conn.get_system.side_effect = lambda *a: self.bmc.system
        conn.get_task_monitor.side_effect = \
            lambda uri: self.bmc.monitors[uri]
        self.useFixture(fixtures.MockPatchObject(
            redfish_utils.sushy, 'Sushy', return_value=conn))
        self.node = utils.create_test_node(
            driver='redfish', raid_interface='redfish',
            power_state=states.POWER_ON,
            properties={'local_gb': 10, 'capabilities': 'boot_mode:uefi'},
            target_raid_config={'logical_disks': [
                {'raid_level': '1', 'size_gb': 50, 'is_root_volume': True,
                 'volume_name': 'root'},
                {'raid_level': '0', 'size_gb': 'MAX'}]},
            driver_info={'redfish_address': 'http://bmc.example',
                         'redfish_system_id': '/redfish/v1/Systems/1'})
        self.power = mock.Mock()
        self.power.get_power_state.return_value = states.POWER_ON
        self.power.reboot.side_effect = lambda task: self.bmc.apply()
        self.raid = redfish_raid.RedfishRAID()
        self.interface = _UntilDone(self.raid)
        self.task = types.SimpleNamespace(
            node=self.node, driver=types.SimpleNamespace(
                power=self.power, boot=mock.Mock()),
            update_node=self._update_node)
        self.useFixture(fixtures.MockPatchObject(
            redfish_raid, 'APPLY_TIMEOUT', 0))

    def _update_node(self, values, expected=None):
        self.task.node = self.db.update_node(self.task.node.id, values)

    def _creates(self):
        return [c for c in self.bmc.calls if c[0] == 'create']

    def test_marks(self):
        info = drivers_base.step_info(self.raid, 'create_configuration',
                                      drivers_base.CLEAN)
        self.assertIn('delete_existing', info['argsinfo'])
        for kind in (drivers_base.CLEAN, drivers_base.DEPLOY,
                     drivers_base.SERVICE):
            self.assertIsNotNone(drivers_base.step_info(
                self.raid, 'delete_configuration', kind))
        for kind in (drivers_base.DEPLOY, drivers_base.SERVICE):
            info = drivers_base.step_info(
                self.raid, 'apply_configuration', kind)
            self.assertTrue(info['argsinfo']['raid_config']['required'])
        self.assertIsNone(drivers_base.step_info(
            self.raid, 'create_configuration', drivers_base.DEPLOY))

    def test_create_immediate_records_what_the_bmc_shows(self):
        self.interface.create_configuration(self.task)
        creates = self._creates()
        self.assertEqual(2, len(creates))
        # The sized mirror first, on the first two drives, named.
        root_payload = creates[0][1]
        self.assertEqual('RAID1', root_payload['RAIDType'])
        self.assertEqual(50 * GiB, root_payload['CapacityBytes'])
        self.assertEqual('root', root_payload['Name'])
        self.assertEqual(
            ['%s/Storage/RAID.1/Drives/Disk.%d' % (SYSTEM, i)
             for i in (0, 1)],
            [d['@odata.id'] for d in root_payload['Links']['Drives']])
        # The MAX disk: no size asked, the BMC works it out; one drive
        # (the fewest RAID 0 takes) of those left (no sharing).
        self.assertNotIn('CapacityBytes', creates[1][1])
        self.assertEqual(sushy.APPLY_TIME_IMMEDIATE, creates[0][2])
        self.power.reboot.assert_not_called()
        node = self.db.get_node(self.node.uuid)
        disks = node.raid_config['logical_disks']
        self.assertEqual(2, len(disks))
        root = disks[0]
        self.assertEqual({'id': '1', 'name': 'root', 'controller': 'RAID.1',
                          'size_gb': 50, 'raid_level': '1',
                          'physical_disks': ['Disk.0', 'Disk.1'],
                          'is_root_volume': True, 'volume_name': 'root'},
                         root)
        self.assertEqual('0', disks[1]['raid_level'])
        self.assertEqual(['Disk.2'], disks[1]['physical_disks'])
        self.assertIn('last_updated', node.raid_config)
        # The root volume's size and level, as for the agent's RAID.
        self.assertEqual(50, node.properties['local_gb'])
        self.assertIn('raid_level:1', node.properties['capabilities'])

    def test_on_reset_one_operation_per_controller_per_reboot(self):
        self.bmc.apply_times[:] = [sushy.APPLY_TIME_ON_RESET]
        self.interface.create_configuration(self.task)
        self.assertEqual([sushy.APPLY_TIME_ON_RESET] * 2,
                         [c[2] for c in self._creates()])
        # BMCs queue one job per controller: two rounds, two reboots.
        self.assertEqual(1, self.bmc.most_pending)
        self.assertEqual(2, self.power.reboot.call_count)
        self.assertEqual(2, len(self.bmc.volumes))
        node = self.db.get_node(self.node.uuid)
        self.assertTrue(node.raid_config['logical_disks'][0]
                        ['is_root_volume'])

    def _poll(self, result, name='create_configuration'):
        return self.raid.poll_step(
            self.task, {'interface': 'raid', 'step': name},
            json.loads(json.dumps(result.state)))

    def test_rounds_at_reset_are_polled(self):
        # The step returns once a round is asked for and the node
        # rebooted; each poll looks at the BMC once, and submits the next
        # round once the last one is there.
        self.useFixture(fixtures.MockPatchObject(
            redfish_raid, 'APPLY_TIMEOUT', 3600))
        self.bmc.apply_times[:] = [sushy.APPLY_TIME_ON_RESET]
        self.power.reboot.side_effect = None  # applied when the test says
        result = self.raid.create_configuration(self.task)
        self.assertTrue(drivers_base.is_polling(result))
        self.assertEqual(1, len(self._creates()))
        self.power.reboot.assert_called_once()
        self.assertEqual(['RAID1 on RAID.1/Disk.0+Disk.1'],
                         result.state['round']['asked'])
        # Not there yet: polled again, nothing more asked.
        result = self._poll(result)
        self.assertTrue(drivers_base.is_polling(result))
        self.assertEqual(1, len(self._creates()))
        # There: the second round (the MAX volume), another reboot.
        self.bmc.apply()
        result = self._poll(result)
        self.assertTrue(drivers_base.is_polling(result))
        self.assertEqual(2, len(self._creates()))
        self.assertEqual(2, self.power.reboot.call_count)
        self.assertEqual({}, self.db.get_node(self.node.uuid).raid_config)
        self.bmc.apply()
        self.assertIsNone(self._poll(result))
        disks = self.db.get_node(self.node.uuid).raid_config[
            'logical_disks']
        self.assertEqual([('root', True), ('Volume 2', False)],
                         [(d['name'], bool(d.get('is_root_volume')))
                          for d in disks])

    def test_bmc_unreadable_while_polled(self):
        # A BMC restarting after the reset: read again at the next poll,
        # until the round's deadline; then the step fails, and what was
        # made is recorded if the BMC answers by then.
        self.useFixture(fixtures.MockPatchObject(
            redfish_raid, 'APPLY_TIMEOUT', 3600))
        self.bmc.apply_times[:] = [sushy.APPLY_TIME_ON_RESET]
        self.power.reboot.side_effect = None
        result = self.raid.create_configuration(
            self.task, create_nonroot_volumes=False)
        conn = redfish_utils.sushy.Sushy.return_value
        real = conn.get_system.side_effect
        conn.get_system.side_effect = sushy.exceptions.ConnectionError(
            url='http://bmc.example', error='refused')
        again = self._poll(result)
        self.assertTrue(drivers_base.is_polling(again))
        late = dict(result.state, round=dict(
            result.state['round'], deadline='2000-01-01T00:00:00'))
        e = self.assertRaises(exception.IronicLikeException,
                              self.raid.poll_step, self.task,
                              {'step': 'create_configuration'}, late)
        self.assertIn('refused', str(e))
        # Readable again but still not built, past the deadline.
        conn.get_system.side_effect = real
        e = self.assertRaises(exception.IronicLikeException,
                              self.raid.poll_step, self.task,
                              {'step': 'create_configuration'}, late)
        self.assertIn('RAID volumes were not created within 3600 s',
                      str(e))
        self.assertEqual(
            [], self.db.get_node(self.node.uuid).raid_config[
                'logical_disks'])

    def test_task_answer_reboots_whatever_the_apply_time(self):
        # A BMC offering no apply time that answers with a task: the
        # reboot is what applies it, as Ironic reasons.
        self.bmc.apply_times[:] = []
        self.bmc.tasks = True
        self.interface.create_configuration(self.task,
                                            create_nonroot_volumes=False)
        self.assertEqual([None], [c[2] for c in self._creates()])
        self.power.reboot.assert_called_once()
        self.assertEqual(1, len(self.bmc.volumes))

    def test_volumes_that_never_appear_fail_the_step(self):
        self.bmc.apply_times[:] = [sushy.APPLY_TIME_ON_RESET]
        self.power.reboot.side_effect = None  # the BMC builds nothing
        e = self.assertRaises(exception.IronicLikeException,
                              self.interface.create_configuration,
                              self.task)
        self.assertIn('RAID volumes were not created within 0 s: RAID1 on '
                      'RAID.1/Disk.0+Disk.1', str(e))
        # What the BMC shows (nothing) is recorded.
        node = self.db.get_node(self.node.uuid)
        self.assertEqual([], node.raid_config['logical_disks'])

    def test_failure_after_a_volume_records_it(self):
        self.bmc.fail_create = 2
        e = self.assertRaises(exception.IronicLikeException,
                              self.interface.create_configuration,
                              self.task)
        self.assertIn('the controller refused it', str(e))
        # The first volume is recorded: a second run does not build it on
        # other drives without knowing.
        disks = self.db.get_node(self.node.uuid).raid_config[
            'logical_disks']
        self.assertEqual([('root', True)],
                         [(d['name'], d['is_root_volume']) for d in disks])

    def test_configuration_that_does_not_fit_writes_nothing(self):
        self.interface.create_configuration(self.task,
                                            create_nonroot_volumes=False)
        before = self.db.get_node(self.node.uuid).raid_config
        self.bmc.calls[:] = []
        self.task.node = self.db.update_node(self.node.id, {
            'target_raid_config': {'logical_disks': [
                {'raid_level': '5', 'size_gb': 500}]}})
        # delete_existing too: nothing is deleted for a plan that fails.
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.interface.create_configuration,
                              self.task, delete_existing=True)
        self.assertIn('logical disk 0 (RAID 5, 500 GiB) does not fit',
                      str(e))
        self.assertEqual([], self.bmc.calls)
        self.assertEqual(1, len(self.bmc.volumes))
        self.assertEqual(before,
                         self.db.get_node(self.node.uuid).raid_config)

    def test_existing_volumes_keep_their_drives_unless_deleted(self):
        self.interface.create_configuration(self.task,
                                            create_nonroot_volumes=False)
        # Disks 0 and 1 are taken: a second mirror goes on 2 and 3.
        self.interface.create_configuration(self.task,
                                            create_nonroot_volumes=False)
        self.assertEqual(['Disk.2', 'Disk.3'],
                         [d['@odata.id'].rsplit('/', 1)[1] for d in
                          self.bmc.volumes[1].json['Links']['Drives']])
        # The new root volume is the root; the first is no more.
        disks = self.db.get_node(self.node.uuid).raid_config[
            'logical_disks']
        self.assertEqual([False, True],
                         [bool(d.get('is_root_volume')) for d in disks])
        # delete_existing: both go first, the new one is on 0 and 1.
        self.interface.create_configuration(self.task,
                                            create_nonroot_volumes=False,
                                            delete_existing=True)
        self.assertEqual(1, len(self.bmc.volumes))
        disks = self.db.get_node(self.node.uuid).raid_config[
            'logical_disks']
        self.assertEqual([['Disk.0', 'Disk.1']],
                         [d['physical_disks'] for d in disks])

    def test_root_and_shared_drives(self):
        # A sized data volume and a MAX root on the same two drives: the
        # root mark goes to the volume built for it, not to both.
        self.task.node = self.db.update_node(self.node.id, {
            'target_raid_config': {'logical_disks': [
                {'raid_level': '1', 'size_gb': 'MAX',
                 'is_root_volume': True, 'share_physical_disks': True,
                 'volume_name': 'os', 'physical_disks': ['Disk.0',
                                                         'Disk.1']},
                {'raid_level': '1', 'size_gb': 30,
                 'share_physical_disks': True, 'volume_name': 'data',
                 'physical_disks': ['Disk.0', 'Disk.1']}]}})
        self.interface.create_configuration(self.task)
        disks = self.db.get_node(self.node.uuid).raid_config[
            'logical_disks']
        self.assertEqual([('data', False), ('os', True)],
                         [(d['name'], bool(d.get('is_root_volume')))
                          for d in disks])
        self.assertEqual([['Disk.0', 'Disk.1']] * 2,
                         [d['physical_disks'] for d in disks])

    def test_two_controllers_with_the_same_ids(self):
        # Drive ids and volume ids repeat across controllers (HPE iLO).
        self.bmc = _BMC([sushy.APPLY_TIME_IMMEDIATE], controllers=2)
        self.task.node = self.db.update_node(self.node.id, {
            'target_raid_config': {'logical_disks': [
                {'raid_level': '1', 'size_gb': 50, 'is_root_volume': True,
                 'controller': 'RAID.2'},
                {'raid_level': '1', 'size_gb': 50, 'controller': 'RAID.1'},
                {'raid_level': '1', 'size_gb': 50,
                 'number_of_physical_disks': 2}]}})
        self.interface.create_configuration(self.task)
        disks = self.db.get_node(self.node.uuid).raid_config[
            'logical_disks']
        self.assertEqual(
            [('RAID.1', '1', ['Disk.0', 'Disk.1'], False),
             ('RAID.1', '2', ['Disk.2', 'Disk.3'], False),
             ('RAID.2', '1', ['Disk.0', 'Disk.1'], True)],
            [(d['controller'], d['id'], d['physical_disks'],
              bool(d.get('is_root_volume'))) for d in disks])
        # A second run that builds no root keeps the root where it was:
        # RAID.1/1 is not RAID.2/1.
        self.task.node = self.db.update_node(self.node.id, {
            'target_raid_config': {'logical_disks': [
                {'raid_level': '0', 'size_gb': 10,
                 'controller': 'RAID.2'}]}})
        self.interface.create_configuration(self.task)
        disks = self.db.get_node(self.node.uuid).raid_config[
            'logical_disks']
        self.assertEqual([('RAID.2', '1')],
                         [(d['controller'], d['id']) for d in disks
                          if d.get('is_root_volume')])

    def test_task_answers_one_operation_per_controller(self):
        # No apply time offered, each answer a task: one operation per
        # controller per reboot (as Ironic submits them).
        self.bmc.apply_times[:] = []
        self.bmc.tasks = True
        self.interface.create_configuration(self.task)
        self.assertEqual(1, self.bmc.most_pending)
        self.assertEqual(2, self.power.reboot.call_count)
        self.assertEqual(2, len(self.bmc.volumes))

    def test_failed_task_ends_the_wait_with_its_messages(self):
        self.bmc.apply_times[:] = [sushy.APPLY_TIME_ON_RESET]
        self.bmc.task_fails = 'Physical disk Disk.1 is in a failed state'
        # A long bound: the task's failure ends the wait, not the bound.
        self.useFixture(fixtures.MockPatchObject(
            redfish_raid, 'APPLY_TIMEOUT', 3600))
        self.power.reboot.side_effect = None
        e = self.assertRaises(exception.IronicLikeException,
                              self.interface.create_configuration,
                              self.task, create_nonroot_volumes=False)
        self.assertIn('creating RAID volumes failed: RAID1 on '
                      'RAID.1/Disk.0+Disk.1: the BMC\'s task ended '
                      'Exception (status Critical): Physical disk Disk.1 '
                      'is in a failed state', str(e))

    def test_failure_names_what_the_bmc_still_holds(self):
        self.bmc = _BMC([sushy.APPLY_TIME_ON_RESET], controllers=2)
        self.bmc.fail_create = 2
        self.task.node = self.db.update_node(self.node.id, {
            'target_raid_config': {'logical_disks': [
                {'raid_level': '1', 'size_gb': 50, 'controller': 'RAID.1'},
                {'raid_level': '1', 'size_gb': 50,
                 'controller': 'RAID.2'}]}})
        e = self.assertRaises(exception.IronicLikeException,
                              self.interface.create_configuration,
                              self.task)
        self.assertIn('the controller refused it (already accepted by the '
                      'BMC and applied at its next reset: RAID1 on '
                      'RAID.1/Disk.0+Disk.1)', str(e))

    def test_delete_configuration(self):
        self.interface.create_configuration(self.task)
        self.bmc.apply_times[:] = [sushy.APPLY_TIME_ON_RESET]
        # A volume without a RAID type stays (Ironic's rule).
        plain = _Volume(self.bmc.controllers[0], 'raw', {
            'RAIDType': 'RAID0', 'Links': {'Drives': []}})
        plain.raid_type = None
        self.bmc.volumes.append(plain)
        self.task.node = self.db.update_node(self.node.id, {
            'properties': dict(self.task.node.properties,
                               root_device={'name': '/dev/sdb'})})
        self.interface.delete_configuration(self.task)
        self.assertEqual([plain], self.bmc.volumes)
        # One deletion per reboot.
        self.assertEqual(2, self.power.reboot.call_count)
        self.assertEqual(1, self.bmc.most_pending)
        node = self.db.get_node(self.node.uuid)
        self.assertEqual([], node.raid_config['logical_disks'])
        # The operator's root device hint stays (Ironic's redfish RAID).
        self.assertEqual({'name': '/dev/sdb'},
                         node.properties['root_device'])

    def test_delete_that_never_happens_fails(self):
        self.interface.create_configuration(self.task)
        self.power.reboot.side_effect = None
        self.bmc.apply_times[:] = [sushy.APPLY_TIME_ON_RESET]
        e = self.assertRaises(exception.IronicLikeException,
                              self.interface.delete_configuration,
                              self.task)
        self.assertIn('RAID volumes were not deleted within 0 s: '
                      'RAID.1/1', str(e))

    def test_apply_configuration_sets_the_target(self):
        config = {'logical_disks': [
            {'raid_level': '1+0', 'size_gb': 100, 'is_root_volume': True},
            {'raid_level': '0', 'size_gb': 10}]}
        self.interface.apply_configuration(self.task, config)
        node = self.db.get_node(self.node.uuid)
        self.assertEqual(config, node.target_raid_config)
        # Ironic's redfish defaults: the root volume only.
        self.assertEqual(['RAID10'],
                         [c[1]['RAIDType'] for c in self._creates()])
        self.assertEqual('1+0',
                         node.raid_config['logical_disks'][0]['raid_level'])

    def test_check_step(self):
        self.interface.check_step(self.task, {
            'interface': 'raid', 'step': 'create_configuration'})
        self.task.node = self.db.update_node(self.node.id, {
            'target_raid_config': {'logical_disks': [
                {'raid_level': '2', 'size_gb': 10}]}})
        e = self.assertRaises(
            exception.InvalidParameterValue, self.interface.check_step,
            self.task, {'interface': 'raid', 'step': 'create_configuration'})
        self.assertEqual('target_raid_config', e.field)
        config = {'logical_disks': [{'raid_level': '1', 'size_gb': 10,
                                     'is_root_volume': True}]}
        for flag in ('delete_existing', 'create_root_volume'):
            e = self.assertRaises(
                exception.InvalidParameterValue, self.interface.check_step,
                self.task, {'interface': 'raid',
                            'step': 'apply_configuration',
                            'args': {'raid_config': config, flag: 'maybe'}})
            self.assertEqual(flag, e.field)
        # apply_configuration's own raid_config is named, not the target.
        for config in ({'logical_disks': [{'raid_level': '2',
                                           'size_gb': 10}]},
                       # Nothing left to build: no root volume in it.
                       {'logical_disks': [{'raid_level': '1',
                                           'size_gb': 10}]}):
            e = self.assertRaises(
                (exception.InvalidParameterValue,
                 exception.MissingParameterValue),
                self.interface.check_step, self.task,
                {'interface': 'raid', 'step': 'apply_configuration',
                 'args': {'raid_config': config}})
            self.assertEqual('raid_config', e.field)
        self.task.node = self.db.update_node(self.node.id, {
            'target_raid_config': {}})
        self.assertRaises(
            exception.MissingParameterValue, self.interface.check_step,
            self.task, {'interface': 'raid', 'step': 'create_configuration'})

    def test_validate_raid_config(self):
        self.interface.validate_raid_config(self.task, {})
        self.assertRaises(exception.InvalidParameterValue,
                          self.interface.validate_raid_config, self.task,
                          {'logical_disks': [{'raid_level': '1',
                                              'size_gb': 1,
                                              'interface_type': 'scsi'}]})
