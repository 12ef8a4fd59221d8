"""The Redfish emulator wrapper's RAID storage
(ironic_like_lab.redfish_emulator.patch_storage): sushy-tools' Flask app
in this process through its test client, the FakeDriver's systems without
a simulator behind them (no notifications)."""

import os
import threading
from unittest import mock
from urllib import parse

import fixtures
import requests
import testtools

from ironic_like_lab import redfish_emulator
from ironic_like_lab import redfish_storage

GiB = 2 ** 30
SYSTEMS = '/redfish/v1/Systems/'
RAID = SYSTEMS + 'r1/Storage/RAID.1'
HBA = SYSTEMS + 'r1/Storage/HBA.1'
OAT = '@Redfish.OperationApplyTime'


def drive(index, storage='RAID.1', system='r1', prefix='Disk'):
    return {'@odata.id': '%s%s/Storage/%s/Drives/%s.%d'
                         % (SYSTEMS, system, storage, prefix, index)}


def volume_body(raid_type, *drives, **extra):
    body = {'RAIDType': raid_type, 'Links': {'Drives': list(drives)}}
    body.update(extra)
    return body


class EmulatorStorageBase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        from sushy_tools.emulator import main as emulator_main
        from sushy_tools.emulator.resources.systems import fakedriver
        self.fakedriver = fakedriver
        self.app = emulator_main.app
        # patch_storage patches sushy-tools' FakeDriver through patch_bios:
        # undo that afterwards. The app's views stay patched (Flask takes
        # no new routes once it served a request; systems without storage
        # get sushy-tools' views).
        for name in ('set_power_state', 'get_bios', 'set_bios',
                     'reset_bios', 'get_bios_pending', 'get_versions'):
            self.addCleanup(self._restore, name,
                            fakedriver.FakeDriver.__dict__.get(name))
        self.useFixture(fixtures.MockPatchObject(
            fakedriver, 'random', fakedriver.random))
        redfish_emulator.patch_power_delay(0)
        # As main() does: the firmware tasks share the TaskService path.
        redfish_emulator.patch_firmware_update(self.app)
        redfish_emulator.patch_storage(self.app)
        self.tmp = self.useFixture(fixtures.TempDir()).path
        self.raid = redfish_storage.make_storage(drives=4)[0]
        self.hba = {'id': 'HBA.1', 'name': 'Boot HBA',
                    'raid_types': ['RAID0', 'RAID1'],
                    'apply_times': ['OnReset'],
                    'drives': [{'id': 'SSD.0', 'capacity_bytes': 200 * GiB,
                                'media_type': 'SSD', 'protocol': 'SATA'},
                               {'id': 'SSD.1', 'capacity_bytes': 100 * GiB,
                                'media_type': 'SSD', 'protocol': 'SATA',
                                'name': 'Small SSD'}]}
        self.systems = [
            redfish_emulator.make_system(
                'raid-1', '52:54:00:00:00:01', uuid='r1', notify=False,
                storage=[self.raid, self.hba]),
            redfish_emulator.make_system(
                'raid-2', '52:54:00:00:00:02', uuid='r2', notify=False,
                storage=redfish_storage.make_storage(drives=2)),
            redfish_emulator.make_system(
                'plain-1', '52:54:00:00:00:03', notify=False,
                uuid='0b5d5a4e-4f1e-4bd4-a1b9-3d5a3f0e0a01')]
        self.configure()

    def configure(self, **extra):
        """A fresh FakeDriver of self.systems (app.systems is memoized),
        state in self.tmp/state."""
        config = {'SUSHY_EMULATOR_FAKE_DRIVER': True,
                  'SUSHY_EMULATOR_FAKE_SYSTEMS': self.systems,
                  'SUSHY_EMULATOR_STATE_DIR': os.path.join(self.tmp,
                                                           'state')}
        config.update(extra)
        patcher = mock.patch.dict(self.app.config, config)
        patcher.start()
        self.addCleanup(patcher.stop)
        self.useFixture(fixtures.MockPatchObject(self.app, '_cache', {},
                                                 create=True))
        self.client = self.app.test_client()

    def _restore(self, name, original):
        if original is None:
            if name in self.fakedriver.FakeDriver.__dict__:
                delattr(self.fakedriver.FakeDriver, name)
        else:
            setattr(self.fakedriver.FakeDriver, name, original)

    def get(self, path, status=200):
        resp = self.client.get(path)
        self.assertEqual(status, resp.status_code, resp.get_data())
        return resp.get_json()

    def post(self, path, body, status=201):
        resp = self.client.post(path, json=body)
        self.assertEqual(status, resp.status_code, resp.get_data())
        return resp

    def delete(self, path, body=None, status=204):
        resp = self.client.delete(path, json=body)
        self.assertEqual(status, resp.status_code, resp.get_data())
        return resp

    def refused(self, path, body, message, status=400, method='post'):
        resp = getattr(self.client, method)(path, json=body)
        self.assertEqual(status, resp.status_code, resp.get_data())
        error = resp.get_json()['error']
        self.assertIn(message, error['message'])
        self.assertEqual(error['message'],
                         error['@Message.ExtendedInfo'][0]['Message'])
        return error

    def members(self, path):
        return [m['@odata.id'] for m in self.get(path)['Members']]

    def reset(self, kind, system='r1'):
        resp = self.client.post(
            SYSTEMS + system + '/Actions/ComputerSystem.Reset',
            json={'ResetType': kind})
        self.assertEqual(204, resp.status_code, resp.get_data())


class TestStorageResources(EmulatorStorageBase):

    def test_system_links_storage(self):
        body = self.get(SYSTEMS + 'r1')
        self.assertEqual({'@odata.id': SYSTEMS + 'r1/Storage'},
                         body['Storage'])
        # sushy-tools' template links it only in its full feature set:
        # added then for a system defining storage, not for another.
        self.configure(SUSHY_EMULATOR_FEATURE_SET='minimum')
        self.assertEqual({'@odata.id': SYSTEMS + 'r1/Storage'},
                         self.get(SYSTEMS + 'r1')['Storage'])
        self.assertNotIn('Storage', self.get(
            SYSTEMS + '0b5d5a4e-4f1e-4bd4-a1b9-3d5a3f0e0a01'))

    def test_storage_collection_and_controllers(self):
        self.assertEqual([RAID, HBA], self.members(SYSTEMS + 'r1/Storage'))
        body = self.get(RAID)
        self.assertEqual('RAID.1', body['Id'])
        self.assertEqual({'@odata.id': RAID + '/Volumes'}, body['Volumes'])
        self.assertEqual([RAID + '/Drives/Disk.%d' % i for i in range(4)],
                         [d['@odata.id'] for d in body['Drives']])
        controller, = body['StorageControllers']
        self.assertEqual(['RAID0', 'RAID1', 'RAID5', 'RAID6', 'RAID10'],
                         controller['SupportedRAIDTypes'])
        self.assertEqual(['SAS'], controller['SupportedDeviceProtocols'])
        hba = self.get(HBA)
        self.assertEqual('Boot HBA', hba['Name'])
        self.assertEqual(['RAID0', 'RAID1'],
                         hba['StorageControllers'][0]['SupportedRAIDTypes'])
        self.refused(SYSTEMS + 'r1/Storage/RAID.9', None,
                     'No storage RAID.9', 404, 'get')
        # Another system has its own.
        self.assertEqual([SYSTEMS + 'r2/Storage/RAID.1'],
                         self.members(SYSTEMS + 'r2/Storage'))
        self.get(SYSTEMS + 'nope/Storage', 404)

    def test_drives(self):
        body = self.get(HBA + '/Drives/SSD.1')
        self.assertEqual(
            {'Id': 'SSD.1', 'Name': 'Small SSD', 'CapacityBytes': 100 * GiB,
             'MediaType': 'SSD', 'Protocol': 'SATA',
             'Status': {'State': 'Enabled', 'Health': 'OK'}},
            {k: body[k] for k in ('Id', 'Name', 'CapacityBytes',
                                  'MediaType', 'Protocol', 'Status')})
        self.assertEqual([], body['Links']['Volumes'])
        self.assertEqual('Disk.0', self.get(RAID + '/Drives/Disk.0')['Name'])
        self.refused(RAID + '/Drives/SSD.0', None, 'No drive SSD.0', 404,
                     'get')
        # A drive links the volumes on it.
        location = self.post(RAID + '/Volumes', volume_body(
            'RAID1', drive(0), drive(1))).headers['Location']
        self.assertEqual([{'@odata.id': location}], self.get(
            RAID + '/Drives/Disk.1')['Links']['Volumes'])
        self.assertEqual([], self.get(
            RAID + '/Drives/Disk.2')['Links']['Volumes'])

    def test_volumes_collection_shows_apply_times(self):
        body = self.get(RAID + '/Volumes')
        self.assertEqual([], body['Members'])
        self.assertEqual(['Immediate', 'OnReset'], body[
            '@Redfish.OperationApplyTimeSupport']['SupportedValues'])
        self.assertEqual(['OnReset'], self.get(HBA + '/Volumes')[
            '@Redfish.OperationApplyTimeSupport']['SupportedValues'])

    def test_system_without_storage_keeps_sushy_tools_views(self):
        plain = SYSTEMS + '0b5d5a4e-4f1e-4bd4-a1b9-3d5a3f0e0a01'
        # sushy-tools' static storage (SUSHY_EMULATOR_STORAGE) has none.
        resp = self.client.get(plain + '/Storage')
        self.assertEqual(500, resp.status_code)
        self.assertIn('Error finding storage collection',
                      resp.get_json()['error']['message'])
        self.refused(plain + '/Storage/RAID.1/Volumes/1', None,
                     'cannot be deleted', 405, 'delete')

    def test_instances_not_allowed(self):
        self.configure(SUSHY_EMULATOR_ALLOWED_INSTANCES=['r2'])
        self.get(SYSTEMS + 'r2/Storage')
        for path in (SYSTEMS + 'r1/Storage', RAID, RAID + '/Volumes',
                     RAID + '/Drives/Disk.0'):
            self.refused(path, None, 'No system r1', 404, 'get')
        self.refused(RAID + '/Volumes/Volume.1', None, 'No system r1', 404,
                     'delete')

    def test_definition_volumes_exist_at_start(self):
        raid = redfish_storage.make_storage(drives=4, volumes=[
            {'raid_type': 'RAID1', 'drives': ['Disk.0', 'Disk.1'],
             'name': 'root'},
            {'id': 'Volume.2', 'raid_type': 'RAID0', 'drives': ['Disk.2'],
             'capacity_bytes': 10 * GiB}])
        self.systems[1] = redfish_emulator.make_system(
            'raid-2', '52:54:00:00:00:02', uuid='r2', notify=False,
            storage=raid)
        self.configure()
        base = SYSTEMS + 'r2/Storage/RAID.1'
        self.assertEqual([base + '/Volumes/Volume.1',
                          base + '/Volumes/Volume.2'],
                         self.members(base + '/Volumes'))
        root = self.get(base + '/Volumes/Volume.1')
        self.assertEqual(('root', 500 * GiB), (root['Name'],
                                               root['CapacityBytes']))
        # New ids skip the definition's.
        location = self.post(base + '/Volumes', volume_body(
            'RAID0', drive(3, system='r2'))).headers['Location']
        self.assertTrue(location.endswith('/Volume.3'), location)
        self.delete(base + '/Volumes/Volume.1')

    def test_volume_ids_are_never_reused(self):
        # The definition's Volume.3 lies above the counter: deleted
        # before the counter reaches it, its id stays taken.
        raid = redfish_storage.make_storage(drives=4, volumes=[
            {'raid_type': 'RAID0', 'drives': ['Disk.0']},
            {'id': 'Volume.3', 'raid_type': 'RAID0', 'drives': ['Disk.1']}])
        self.systems[1] = redfish_emulator.make_system(
            'raid-2', '52:54:00:00:00:02', uuid='r2', notify=False,
            storage=raid)
        self.configure()
        base = SYSTEMS + 'r2/Storage/RAID.1'
        self.delete(base + '/Volumes/Volume.3')
        created = []
        for index in (2, 3):
            location = self.post(base + '/Volumes', volume_body(
                'RAID0', drive(index, system='r2'))).headers['Location']
            created.append(location.rpartition('/')[2])
            self.delete(location)
        self.assertEqual(['Volume.2', 'Volume.4'], created)
        # Nor after the emulator restarted (the state directory keeps
        # them), nor for a volume waiting for a reset.
        self.configure()
        monitor = self.post(base + '/Volumes', volume_body(
            'RAID0', drive(1, system='r2'), **{OAT: 'OnReset'}),
            status=202).headers['Location']
        self.assertIn('Volume.5 is created', self.get(
            monitor, 202)['Messages'][0]['Message'])
        self.reset('On', system='r2')
        self.get(monitor)
        self.assertEqual([base + '/Volumes/Volume.1',
                          base + '/Volumes/Volume.5'],
                         self.members(base + '/Volumes'))


class TestVolumes(EmulatorStorageBase):

    def test_create_at_once(self):
        resp = self.post(RAID + '/Volumes', volume_body(
            'RAID1', drive(0), drive(1), Name='root', CapacityBytes=100 * GiB,
            VolumeType='Mirrored', Encrypted=False, **{OAT: 'Immediate'}))
        location = resp.headers['Location']
        self.assertEqual(RAID + '/Volumes/Volume.1',
                         parse.urlsplit(location).path)
        body = self.get(location)
        self.assertEqual(resp.get_json(), body)
        self.assertEqual(
            {'Id': 'Volume.1', 'Name': 'root', 'RAIDType': 'RAID1',
             'VolumeType': 'Mirrored', 'CapacityBytes': 100 * GiB,
             'Status': {'State': 'Enabled', 'Health': 'OK'}},
            {k: body[k] for k in ('Id', 'Name', 'RAIDType', 'VolumeType',
                                  'CapacityBytes', 'Status')})
        self.assertEqual([drive(0), drive(1)], body['Links']['Drives'])
        self.assertEqual([location], self.members(RAID + '/Volumes'))
        # No apply time: at once too; no Name: its id.
        location = self.post(RAID + '/Volumes', volume_body(
            'RAID0', drive(2))).headers['Location']
        self.assertEqual('Volume.2', self.get(location)['Name'])
        self.assertEqual(2, len(self.members(RAID + '/Volumes')))
        self.get(RAID + '/Volumes/Volume.9', 404)
        self.get(HBA + '/Volumes/Volume.1', 404)

    def test_capacities_of_raid_levels(self):
        # Omitted CapacityBytes: the most that fits (500 GiB drives).
        for raid_type, drives, volume_type, capacity in (
                ('RAID0', 4, 'NonRedundant', 2000),
                ('RAID1', 2, 'Mirrored', 500),
                ('RAID5', 3, 'StripedWithParity', 1000),
                ('RAID5', 4, 'StripedWithParity', 1500),
                ('RAID6', 4, 'StripedWithParity', 1000),
                ('RAID10', 4, 'SpannedMirrors', 1000)):
            location = self.post(RAID + '/Volumes', volume_body(
                raid_type, *[drive(i) for i in range(drives)])).headers[
                'Location']
            body = self.get(location)
            self.assertEqual((volume_type, capacity * GiB),
                             (body['VolumeType'], body['CapacityBytes']),
                             raid_type)
            self.delete(location)

    def test_free_space_counts_volumes_and_pending_ones(self):
        self.post(RAID + '/Volumes', volume_body(
            'RAID0', drive(0), CapacityBytes=100 * GiB))
        # Disk.0 has 400 GiB left: a mirror with Disk.1 gets that.
        location = self.post(RAID + '/Volumes', volume_body(
            'RAID1', drive(0), drive(1))).headers['Location']
        self.assertEqual(400 * GiB, self.get(location)['CapacityBytes'])
        self.refused(RAID + '/Volumes', volume_body('RAID0', drive(0)),
                     'No free space left on drives Disk.0')
        # A volume waiting for a reset holds its space already: a RAID5
        # of 3 x 100 GiB per drive holds 200 GiB.
        self.post(RAID + '/Volumes', volume_body(
            'RAID5', drive(1), drive(2), drive(3), CapacityBytes=200 * GiB,
            **{OAT: 'OnReset'}), status=202)
        MiB = 2 ** 20
        self.post(RAID + '/Volumes', volume_body(
            'RAID0', drive(2), drive(3), CapacityBytes=800 * GiB - 2 * MiB))
        error = self.refused(
            RAID + '/Volumes', volume_body('RAID1', drive(2), drive(3),
                                           CapacityBytes=MiB + 1),
            'CapacityBytes %d does not fit: a RAID1 volume on drives '
            'Disk.2, Disk.3 holds at most %d bytes more' % (MiB + 1, MiB))
        self.assertEqual('Base.1.0.PropertyValueConflict',
                         error['@Message.ExtendedInfo'][0]['MessageId'])
        # Sizes round up per drive: 2 MiB + 1 byte on 2 data drives
        # take 1 MiB + 1 byte of each.
        self.refused(RAID + '/Volumes', volume_body(
            'RAID0', drive(3), drive(2), CapacityBytes=2 * MiB + 1),
            'does not fit')
        location = self.post(RAID + '/Volumes', volume_body(
            'RAID0', drive(3), drive(2), CapacityBytes=2 * MiB)).headers[
            'Location']
        self.assertEqual(2 * MiB, self.get(location)['CapacityBytes'])
        self.refused(RAID + '/Volumes', volume_body('RAID0', drive(2)),
                     'No free space left on drives Disk.2')

    def test_refused_volumes(self):
        for body, message in (
                ('not an object', 'must be a JSON object'),
                ({'Links': {'Drives': [drive(0)]}}, 'RAIDType is required'),
                (volume_body('RAID50', drive(0)),
                 'RAIDType RAID50 is not supported by storage RAID.1'),
                (volume_body('RAID0'), 'needs drives (Links.Drives)'),
                ({'RAIDType': 'RAID0'}, 'needs drives (Links.Drives)'),
                ({'RAIDType': 'RAID0', 'Links': []}, 'Links must be'),
                ({'RAIDType': 'RAID0', 'Links': {'Drives': drive(0)}},
                 'Links.Drives must be a list'),
                (volume_body('RAID0', 'Disk.0'),
                 'Links.Drives must be a list'),
                (volume_body('RAID0', drive(0, storage='HBA.1')),
                 'is not a drive of storage RAID.1'),
                (volume_body('RAID0', drive(0, system='r2')),
                 'is not a drive of storage RAID.1'),
                (volume_body('RAID0', {'@odata.id': RAID + '/Disk.0'}),
                 'is not a drive of storage RAID.1'),
                (volume_body('RAID0', drive(7)),
                 'Drive Disk.7 is not a drive of storage RAID.1'),
                (volume_body('RAID0', drive(1), drive(1)),
                 'Drive Disk.1 is listed twice'),
                (volume_body('RAID1', drive(0)),
                 'RAID1 needs exactly 2 drives, not 1'),
                (volume_body('RAID1', drive(0), drive(1), drive(2)),
                 'RAID1 needs exactly 2 drives, not 3'),
                (volume_body('RAID5', drive(0), drive(1)),
                 'RAID5 needs at least 3 drives, not 2'),
                (volume_body('RAID6', drive(0), drive(1), drive(2)),
                 'RAID6 needs at least 4 drives, not 3'),
                (volume_body('RAID10', drive(0), drive(1)),
                 'RAID10 needs an even number, at least 4 drives, not 2'),
                (volume_body('RAID0', drive(0), CapacityBytes=501 * GiB),
                 'holds at most 536870912000 bytes more'),
                (volume_body('RAID0', drive(0), CapacityBytes='1'),
                 'CapacityBytes must be a positive integer'),
                (volume_body('RAID0', drive(0), CapacityBytes=True),
                 'CapacityBytes must be a positive integer'),
                (volume_body('RAID0', drive(0), CapacityBytes=0),
                 'CapacityBytes must be a positive integer'),
                (volume_body('RAID0', drive(0), VolumeType='Mirrored'),
                 'VolumeType Mirrored does not match RAIDType RAID0'),
                (volume_body('RAID0', drive(0), Name=7),
                 'Name must be a string'),
                (volume_body('RAID0', drive(0), Encrypted=True),
                 'cannot encrypt volumes'),
                (volume_body('RAID0', drive(0),
                             **{OAT: 'AtMaintenanceWindowStart'}),
                 "'AtMaintenanceWindowStart' is not supported by storage "
                 "RAID.1 (supported: Immediate, OnReset)")):
            self.refused(RAID + '/Volumes', body, message)
        # The controller's own RAID types and apply times.
        ssd = drive(0, storage='HBA.1', prefix='SSD')
        self.refused(HBA + '/Volumes', volume_body(
            'RAID5', ssd, ssd, ssd), 'RAIDType RAID5 is not supported by '
            'storage HBA.1 (supported: RAID0, RAID1)')
        self.refused(HBA + '/Volumes', volume_body(
            'RAID0', ssd, **{OAT: 'Immediate'}), "'Immediate' is not "
            "supported by storage HBA.1 (supported: OnReset)")
        self.refused(SYSTEMS + 'r1/Storage/RAID.9/Volumes',
                     volume_body('RAID0', drive(0)), 'No storage RAID.9',
                     404)
        # Nothing was created.
        self.assertEqual([], self.members(RAID + '/Volumes'))

    def test_drives_named_by_the_system_name_or_a_full_url(self):
        location = self.post(RAID + '/Volumes', volume_body(
            'RAID1', drive(0, system='raid-1'),
            {'@odata.id': 'https://bmc:8000' + drive(1)['@odata.id']})
        ).headers['Location']
        self.assertEqual([drive(0), drive(1)],
                         self.get(location)['Links']['Drives'])

    def test_create_at_the_next_boot(self):
        resp = self.post(RAID + '/Volumes', volume_body(
            'RAID1', drive(0), drive(1), **{OAT: 'OnReset'}), status=202)
        task = resp.get_json()
        monitor = resp.headers['Location']
        self.assertEqual(task['@odata.id'], monitor)
        self.assertEqual(('Pending', 'OK'),
                         (task['TaskState'], task['TaskStatus']))
        self.assertIn('Volume.1 is created at the next reset',
                      task['Messages'][0]['Message'])
        self.assertEqual(task, self.get(monitor, 202))
        self.assertEqual([], self.members(RAID + '/Volumes'))
        self.get(RAID + '/Volumes/Volume.1', 404)
        # A shutdown is no boot.
        self.reset('ForceOff')
        self.get(monitor, 202)
        # A power-on is: the volume exists once the machine is on.
        self.reset('On')
        done = self.get(monitor)
        self.assertEqual(('Completed', 'OK', 100),
                         (done['TaskState'], done['TaskStatus'],
                          done['PercentComplete']))
        self.assertEqual('Volume Volume.1 created',
                         done['Messages'][0]['Message'])
        self.assertEqual([RAID + '/Volumes/Volume.1'],
                         self.members(RAID + '/Volumes'))
        self.assertEqual('RAID1',
                         self.get(RAID + '/Volumes/Volume.1')['RAIDType'])
        # A restart of a machine that is on applies the next one.
        monitor = self.post(RAID + '/Volumes', volume_body(
            'RAID0', drive(2), **{OAT: 'OnReset'}), status=202).headers[
            'Location']
        self.reset('On')  # already on: no boot
        self.get(monitor, 202)
        self.reset('ForceRestart')
        self.get(monitor)
        self.assertEqual(2, len(self.members(RAID + '/Volumes')))

    def test_controller_without_immediate_waits_by_default(self):
        ssd0 = drive(0, storage='HBA.1', prefix='SSD')
        ssd1 = drive(1, storage='HBA.1', prefix='SSD')
        resp = self.post(HBA + '/Volumes', volume_body('RAID1', ssd0, ssd1),
                         status=202)
        self.assertEqual([], self.members(HBA + '/Volumes'))
        self.reset('On')
        self.get(resp.headers['Location'])
        # The smaller drive sets the mirror's size.
        self.assertEqual(100 * GiB, self.get(
            HBA + '/Volumes/Volume.1')['CapacityBytes'])

    def test_only_what_was_asked_before_the_boot_started(self):
        first = self.post(RAID + '/Volumes', volume_body(
            'RAID0', drive(0), **{OAT: 'OnReset'}), status=202).headers[
            'Location']
        # The power-on waits (the emulator's power delay): a volume asked
        # for meanwhile waits for the boot after.
        with mock.patch.object(self.fakedriver.random, 'randint',
                               return_value=3600, create=True):
            self.reset('On')
        # (Not on RAID.1: its job is still pending until the boot.)
        self.refused(RAID + '/Volumes', volume_body(
            'RAID0', drive(1), **{OAT: 'OnReset'}), 'A job is already '
            'pending on storage RAID.1 until the next reset')
        second = self.post(HBA + '/Volumes', volume_body(
            'RAID0', drive(0, storage='HBA.1', prefix='SSD')),
            status=202).headers['Location']
        driver = self.app.systems
        raw = driver._systems['r1']
        raw['pending_power']['apply_time'] = 0
        driver._systems['r1'] = raw
        self.get(first)
        self.get(second, 202)
        self.assertEqual([RAID + '/Volumes/Volume.1'],
                         self.members(RAID + '/Volumes'))
        self.assertEqual([], self.members(HBA + '/Volumes'))
        self.reset('ForceRestart')
        self.get(second)
        self.assertEqual(1, len(self.members(HBA + '/Volumes')))

    def test_one_pending_job_per_controller(self):
        first = self.post(RAID + '/Volumes', volume_body(
            'RAID0', drive(0), **{OAT: 'OnReset'}), status=202).headers[
            'Location']
        message = ('A job is already pending on storage RAID.1 until the '
                   'next reset (task %s: Volume Volume.1 is created at the '
                   'next reset)' % first.rpartition('/')[2])
        error = self.refused(RAID + '/Volumes', volume_body(
            'RAID0', drive(1), **{OAT: 'OnReset'}), message)
        self.assertEqual('Base.1.0.ResourceInUse',
                         error['@Message.ExtendedInfo'][0]['MessageId'])
        # Immediate operations go on: a create, a delete.
        kept = self.post(RAID + '/Volumes', volume_body(
            'RAID0', drive(1), **{OAT: 'Immediate'})).headers['Location']
        gone = self.post(RAID + '/Volumes', volume_body(
            'RAID0', drive(2))).headers['Location']
        self.delete(gone, {OAT: 'Immediate'})
        # An OnReset delete is a second job too.
        self.refused(kept, {OAT: 'OnReset'}, message, method='delete')
        self.assertEqual([kept], self.members(RAID + '/Volumes'))
        # Another controller (OnReset by default) has its own.
        ssd = drive(0, storage='HBA.1', prefix='SSD')
        hba_task = self.post(HBA + '/Volumes', volume_body('RAID0', ssd),
                             status=202).headers['Location']
        self.refused(HBA + '/Volumes', volume_body(
            'RAID0', drive(1, storage='HBA.1', prefix='SSD')),
            'A job is already pending on storage HBA.1')
        # The boot applies them: the next one is taken, a delete...
        self.reset('On')
        self.get(first)
        self.get(hba_task)
        deleting = self.delete(kept, {OAT: 'OnReset'}, status=202).headers[
            'Location']
        # ... which holds the controller in turn.
        self.refused(RAID + '/Volumes', volume_body(
            'RAID0', drive(3), **{OAT: 'OnReset'}),
            'A job is already pending on storage RAID.1 until the next '
            'reset (task %s: Volume %s is deleted at the next reset)'
            % (deleting.rpartition('/')[2], kept.rpartition('/')[2]))
        self.reset('ForceRestart')
        self.get(deleting)
        self.post(RAID + '/Volumes', volume_body(
            'RAID0', drive(3), **{OAT: 'OnReset'}), status=202)
        self.post(HBA + '/Volumes', volume_body(
            'RAID0', drive(1, storage='HBA.1', prefix='SSD')), status=202)

    def test_delete_at_once(self):
        location = self.post(RAID + '/Volumes', volume_body(
            'RAID10', *[drive(i) for i in range(4)])).headers['Location']
        self.refused(location, {OAT: 'Sometime'}, "'Sometime' is not "
                     'supported', method='delete')
        self.refused(location, ['x'], 'must be a JSON object',
                     method='delete')
        self.delete(location)
        self.assertEqual([], self.members(RAID + '/Volumes'))
        self.refused(location, None, 'No volume Volume.1', 404, 'delete')
        self.delete(RAID + '/Volumes/Volume.1', status=404)
        # Its space is free again; ids are not reused.
        location = self.post(RAID + '/Volumes', volume_body(
            'RAID0', *[drive(i) for i in range(4)], **{OAT: 'Immediate'})
        ).headers['Location']
        self.assertTrue(location.endswith('/Volume.2'), location)
        self.delete(location, {OAT: 'Immediate'})
        self.refused(location, None, 'No volume Volume.2', 404, 'get')

    def test_delete_at_the_next_boot(self):
        location = self.post(RAID + '/Volumes', volume_body(
            'RAID1', drive(0), drive(1))).headers['Location']
        resp = self.delete(location, {OAT: 'OnReset'}, status=202)
        monitor = resp.headers['Location']
        self.assertIn('Volume.1 is deleted at the next reset',
                      resp.get_json()['Messages'][0]['Message'])
        self.get(monitor, 202)
        self.assertEqual([location], self.members(RAID + '/Volumes'))
        for body in ({OAT: 'OnReset'}, None):
            self.refused(location, body, 'Volume.1 is already deleted at '
                         'the next reset', method='delete')
        # Its drives stay taken until then.
        self.refused(RAID + '/Volumes', volume_body('RAID0', drive(0)),
                     'No free space left')
        self.reset('On')
        done = self.get(monitor)
        self.assertEqual(('Completed', 'Volume Volume.1 deleted'),
                         (done['TaskState'], done['Messages'][0]['Message']))
        self.assertEqual([], self.members(RAID + '/Volumes'))
        self.post(RAID + '/Volumes', volume_body('RAID0', drive(0)))

    def test_tasks(self):
        monitor = self.post(RAID + '/Volumes', volume_body(
            'RAID0', drive(0), **{OAT: 'OnReset'}), status=202).headers[
            'Location']
        self.assertTrue(monitor.startswith(
            '/redfish/v1/TaskService/Tasks/raid-'), monitor)
        for unknown in ('raid-99-r1', 'raid-1-nope', 'raid-x-r1',
                        'raid-nothing'):
            self.refused('/redfish/v1/TaskService/Tasks/' + unknown, None,
                         'No task ' + unknown, 404, 'get')
        # The firmware tasks keep their own.
        resp = self.client.get('/redfish/v1/TaskService/Tasks/fw-7')
        self.assertEqual((404, 'No task fw-7'), (
            resp.status_code, resp.get_json()['error']['message']))

    def test_state_lasts_and_is_shared_by_threads(self):
        errors = []

        def create(index):
            client = self.app.test_client()
            resp = client.post(RAID + '/Volumes', json=volume_body(
                'RAID0', drive(index % 4), CapacityBytes=GiB))
            if resp.status_code != 201:
                errors.append(resp.get_data())

        threads = [threading.Thread(target=create, args=(i,))
                   for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual([], errors)
        self.assertEqual(sorted(RAID + '/Volumes/Volume.%d' % i
                                for i in range(1, 9)),
                         sorted(self.members(RAID + '/Volumes')))
        self.post(RAID + '/Volumes', volume_body(
            'RAID0', drive(0), **{OAT: 'OnReset'}), status=202)
        # Another driver on the same state directory (the emulator
        # restarted) finds them, and the pending one.
        self.configure()
        self.assertEqual(8, len(self.members(RAID + '/Volumes')))
        self.reset('On')
        self.assertEqual(9, len(self.members(RAID + '/Volumes')))


class TestDefinitions(testtools.TestCase):

    def test_make_storage(self):
        storage = redfish_storage.make_storage(
            drives=2, capacity_bytes=GiB, media_type='SSD',
            protocol='SATA', raid_types=['RAID1'], apply_times=['OnReset'])
        self.assertEqual([{
            'id': 'RAID.1', 'name': 'RAID controller',
            'raid_types': ['RAID1'], 'apply_times': ['OnReset'],
            'drives': [{'id': 'Disk.%d' % i, 'name': 'Disk.%d' % i,
                        'capacity_bytes': GiB, 'media_type': 'SSD',
                        'protocol': 'SATA'} for i in range(2)],
            'volumes': []}], storage)

    def test_defaults_and_volumes(self):
        storage, = redfish_storage.check_storage([{
            'id': 'C', 'drives': [{'id': 'D0', 'capacity_bytes': 10},
                                  {'id': 'D1', 'capacity_bytes': 20}],
            'volumes': [{'raid_type': 'RAID1', 'drives': ['D0', 'D1']}]}])
        self.assertEqual(('C', list(redfish_storage.RAID_LEVELS),
                          ['Immediate', 'OnReset']),
                         (storage['name'], storage['raid_types'],
                          storage['apply_times']))
        self.assertEqual(('HDD', 'SAS'), (storage['drives'][0]['media_type'],
                                          storage['drives'][0]['protocol']))
        self.assertEqual([{'id': 'Volume.1', 'name': 'Volume.1',
                           'raid_type': 'RAID1', 'drives': ['D0', 'D1'],
                           'capacity_bytes': 10}], storage['volumes'])

    def test_refused_definitions(self):
        drives = [{'id': 'D0', 'capacity_bytes': 10}]
        for storage, message in (
                ([], 'non-empty list'),
                (['x'], 'must be a dict'),
                ([{'drives': drives}], 'storage controller id'),
                ([{'id': 'a/b', 'drives': drives}], 'without "/"'),
                ([{'id': 'C', 'drives': drives}] * 2, 'defined twice'),
                ([{'id': 'C', 'drives': drives, 'raid_types': ['RAID7']}],
                 'unknown RAID types RAID7'),
                ([{'id': 'C', 'drives': drives, 'apply_times': []}],
                 'apply_times must be among'),
                ([{'id': 'C', 'drives': drives,
                   'apply_times': ['AtMaintenanceWindowStart']}],
                 'apply_times must be among'),
                ([{'id': 'C'}], 'has no drives'),
                ([{'id': 'C', 'drives': ['D0']}], 'a drive must be a dict'),
                ([{'id': 'C', 'drives': drives * 2}], 'drive D0 defined'),
                ([{'id': 'C', 'drives': [{'id': 'D0'}]}],
                 'positive integer capacity_bytes'),
                ([{'id': 'C', 'drives': [dict(drives[0], media_type='Tape')]}],
                 'media_type must be among'),
                ([{'id': 'C', 'drives': [dict(drives[0], protocol='FC')]}],
                 'protocol among'),
                ([{'id': 'C', 'drives': drives, 'volumes': ['v']}],
                 'a volume must be a dict'),
                ([{'id': 'C', 'drives': drives, 'volumes': [
                    {'raid_type': 'RAID1', 'drives': ['D0']}]}],
                 'volume Volume.1: RAID1 needs exactly 2 drives'),
                ([{'id': 'C', 'drives': drives, 'volumes': [
                    {'id': 'V', 'raid_type': 'RAID0', 'drives': ['D0'],
                     'capacity_bytes': 5}] * 2}],
                 'volume V defined twice'),
                ([{'id': 'C', 'drives': drives, 'volumes': [
                    {'raid_type': 'RAID0', 'drives': ['D0'],
                     'capacity_bytes': 6}] * 2}],
                 'CapacityBytes 6 does not fit')):
            e = self.assertRaises(ValueError,
                                  redfish_storage.check_storage, storage)
            self.assertIn(message, str(e))

    def test_make_system_and_write_config(self):
        plain = redfish_emulator.make_system('p', '52:54:00:00:00:01')
        self.assertNotIn(redfish_storage.STORAGE_KEY, plain)
        storage = redfish_storage.make_storage(drives=1)
        system = redfish_emulator.make_system(
            's', '52:54:00:00:00:02', storage=storage)
        self.assertEqual(storage, system['storage'])
        self.assertRaises(ValueError, redfish_emulator.make_system, 'x',
                          '52:54:00:00:00:03', storage=[{'id': 'C'}])
        tmp = self.useFixture(fixtures.TempDir()).path
        path = os.path.join(tmp, 'emulator.conf')
        redfish_emulator.write_config(path, [system], tmp)
        config = {}
        with open(path) as f:
            exec(f.read(), config)
        self.assertEqual(storage,
                         config['SUSHY_EMULATOR_FAKE_SYSTEMS'][0]['storage'])

    def test_patch_checks_sushy_tools(self):
        import flask
        from sushy_tools.emulator.resources.systems import fakedriver
        self.useFixture(fixtures.MockPatchObject(
            fakedriver.FakeDriver, 'set_power_state',
            fakedriver.FakeDriver.set_power_state))
        for name in ('get_bios', 'set_bios', 'reset_bios',
                     'get_bios_pending'):
            if name not in fakedriver.FakeDriver.__dict__:
                self.addCleanup(lambda n=name: hasattr(
                    fakedriver.FakeDriver, n) and delattr(
                    fakedriver.FakeDriver, n))
        e = self.assertRaises(RuntimeError, redfish_emulator.patch_storage,
                              flask.Flask('bare'))
        self.assertIn('storage_collection', str(e))


class _FlaskAdapter(requests.adapters.BaseAdapter):
    """Sends a requests session's requests to a Flask test client."""

    def __init__(self, client):
        super().__init__()
        self.client = client

    def send(self, request, **kwargs):
        url = parse.urlsplit(request.url)
        headers = {k: v for k, v in request.headers.items()
                   if k.lower() not in ('content-length', 'host')}
        answer = self.client.open(url.path, query_string=url.query,
                                  method=request.method, data=request.body,
                                  headers=headers)
        response = requests.Response()
        response.status_code = answer.status_code
        response.reason = answer.status.partition(' ')[2]
        response.headers = requests.structures.CaseInsensitiveDict(
            answer.headers)
        response._content = answer.get_data()
        response.encoding = 'utf-8'
        response.url = request.url
        response.request = request
        return response

    def close(self):
        pass


class TestSushyClient(EmulatorStorageBase):
    """sushy's own client objects, as Ironic's redfish RAID uses them."""

    def setUp(self):
        super().setUp()
        import sushy
        from sushy import connector
        self.sushy = sushy
        conn = connector.Connector('http://bmc.test')
        conn._session.mount('http://bmc.test', _FlaskAdapter(self.client))
        self.root = sushy.Sushy('http://bmc.test', connector=conn,
                                auth=sushy.auth.BasicAuth('admin', 'pw'))

    def volumes(self, storage='RAID.1'):
        # Fresh objects, as Ironic gets them: sushy keeps a collection's
        # get_members() list across refresh().
        system = self.root.get_system(SYSTEMS + 'r1')
        return system.storage.get_member(
            '%sr1/Storage/%s' % (SYSTEMS, storage)).volumes

    def test_raid_through_sushy(self):
        sushy = self.sushy
        from sushy.resources.system.storage import constants
        system = self.root.get_system(SYSTEMS + 'r1')
        storages = {s.identity: s for s in system.storage.get_members()}
        self.assertEqual({'RAID.1', 'HBA.1'}, set(storages))
        storage = storages['RAID.1']
        self.assertEqual(
            [('Disk.%d' % i, 500 * GiB, 'HDD', sushy.PROTOCOL_TYPE_SAS)
             for i in range(4)],
            [(d.identity, d.capacity_bytes, d.media_type, d.protocol)
             for d in storage.drives])
        self.assertEqual(
            [constants.RAIDType.RAID0, constants.RAIDType.RAID1,
             constants.RAIDType.RAID5, constants.RAIDType.RAID6,
             constants.RAIDType.RAID10],
            storage.storage_controllers[0].raid_types)
        volumes = storage.volumes
        self.assertEqual(
            [sushy.APPLY_TIME_IMMEDIATE, sushy.APPLY_TIME_ON_RESET],
            volumes.operation_apply_time_support.mapped_supported_values)

        # Immediate: the new Volume.
        paths = [d.path for d in storage.drives]
        payload = {'Encrypted': False, 'VolumeType': 'Mirrored',
                   'RAIDType': 'RAID1', 'CapacityBytes': 100 * GiB,
                   'Links': {'Drives': [{'@odata.id': p}
                                        for p in paths[:2]]}}
        created = volumes.create(payload,
                                 apply_time=sushy.APPLY_TIME_IMMEDIATE)
        self.assertEqual(
            ('Volume.1', constants.RAIDType.RAID1,
             constants.VolumeType.MIRRORED, 100 * GiB),
            (created.identity, created.raid_type, created.volume_type,
             created.capacity_bytes))
        # (storage.drives is cached from before.)
        self.assertEqual([created.path], [
            v.path for v in storage.get_drive(paths[0]).volumes])

        # OnReset: a task monitor until the machine booted.
        payload = {'RAIDType': 'RAID5', 'Links': {'Drives': [
            {'@odata.id': p} for p in paths[1:]]}}
        monitor = volumes.create(payload,
                                 apply_time=sushy.APPLY_TIME_ON_RESET)
        self.assertTrue(monitor.is_processing)
        self.assertEqual(sushy.TASK_STATE_PENDING, monitor.task.task_state)
        self.assertEqual(['Volume.1'], [
            v.identity for v in self.volumes().get_members()])
        system.reset_system(sushy.RESET_ON)
        self.assertFalse(monitor.check_is_processing)
        task = monitor.get_task()
        self.assertEqual((sushy.TASK_STATE_COMPLETED, sushy.HEALTH_OK),
                         (task.task_state, task.task_status))
        members = {v.identity: v for v in self.volumes().get_members()}
        self.assertEqual({'Volume.1', 'Volume.2'}, set(members))
        # Disk.1 had 400 GiB left, shared by the RAID5's 2 data drives.
        self.assertEqual(800 * GiB, members['Volume.2'].capacity_bytes)

        # A refusal reaches the client with its message.
        e = self.assertRaises(sushy.exceptions.BadRequestError,
                              volumes.create, {'RAIDType': 'RAID6',
                                               'Links': payload['Links']})
        self.assertIn('RAID6 needs at least 4 drives, not 3', str(e))

        # Deletion: at once, or a task monitor until the next boot.
        self.assertIsNone(members['Volume.1'].delete(
            apply_time=sushy.APPLY_TIME_IMMEDIATE))
        monitor = members['Volume.2'].delete(
            apply_time=sushy.APPLY_TIME_ON_RESET)
        self.assertTrue(monitor.is_processing)
        self.assertEqual(['Volume.2'], [
            v.identity for v in self.volumes().get_members()])
        system.reset_system(sushy.RESET_FORCE_RESTART)
        self.assertFalse(monitor.check_is_processing)
        self.assertEqual([], self.volumes().get_members())

        # The other controller: OnReset only.
        hba = storages['HBA.1']
        self.assertEqual(
            [sushy.APPLY_TIME_ON_RESET],
            hba.volumes.operation_apply_time_support.mapped_supported_values)
        self.assertEqual(['SSD', 'SSD'],
                         [d.media_type for d in hba.drives])
