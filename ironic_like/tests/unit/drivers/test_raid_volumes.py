"""Planning a target RAID configuration onto a controller's drives
(drivers.raid_volumes): levels and disk counts, best fit, "MAX" last,
sharing, the kind of drive asked for, and the errors that name the
logical disk that does not fit."""

import fixtures

from ironic_like.common import exception
from ironic_like.drivers import raid_volumes
from ironic_like.tests import base

GiB = raid_volumes.GiB
ALL = {'RAID0', 'RAID1', 'RAID5', 'RAID6', 'RAID10'}


def _drive(ident, gib, storage='RAID.1', media='hdd', protocol='sas'):
    return raid_volumes.Drive(ident, storage, gib * GiB, media, protocol)


def _config(*disks):
    return {'logical_disks': list(disks)}


class TestCheckLevels(base.TestCase):

    def _refused(self, disk):
        e = self.assertRaises(exception.InvalidParameterValue,
                              raid_volumes.check_levels, _config(disk))
        self.assertEqual('target_raid_config', e.field)
        return str(e)

    def test_level_2_refused(self):
        self.assertIn('RAID level 2 is not supported',
                      self._refused({'raid_level': '2', 'size_gb': 10}))

    def test_scsi_refused(self):
        self.assertIn('scsi', self._refused(
            {'raid_level': '1', 'size_gb': 10, 'interface_type': 'scsi'}))

    def test_counts(self):
        self.assertIn('takes 2 drives, not 3', self._refused(
            {'raid_level': '1', 'size_gb': 10,
             'number_of_physical_disks': 3}))
        self.assertIn('at least 3', self._refused(
            {'raid_level': '5', 'size_gb': 10,
             'physical_disks': ['a', 'b']}))
        self.assertIn('an even number of at least 4', self._refused(
            {'raid_level': '1+0', 'size_gb': 10,
             'number_of_physical_disks': 5}))
        raid_volumes.check_levels(_config(
            {'raid_level': '1+0', 'size_gb': 10,
             'number_of_physical_disks': 6},
            {'raid_level': '6', 'size_gb': 'MAX'}))


class TestPlan(base.TestCase):

    def test_mirror_takes_the_smallest_drives_that_fit(self):
        drives = [_drive('big', 1000), _drive('small1', 100),
                  _drive('small2', 100), _drive('tiny', 10)]
        (volume,) = raid_volumes.plan(
            _config({'raid_level': '1', 'size_gb': 50}), drives,
            {'RAID.1': ALL})
        self.assertEqual(['small1', 'small2'], volume.drives)
        self.assertEqual(50 * GiB, volume.size_bytes)
        self.assertEqual('RAID1', volume.raid_type)
        self.assertEqual('RAID.1', volume.storage)

    def test_sized_before_max_and_no_sharing_by_default(self):
        drives = [_drive('d%d' % i, 100) for i in range(5)]
        root = {'raid_level': '1', 'size_gb': 'MAX',
                'is_root_volume': True}
        data = {'raid_level': '5', 'size_gb': 100}
        volumes = raid_volumes.plan(_config(root, data), drives,
                                    {'RAID.1': ALL})
        # The RAID 5 (sized) is placed first: 3 drives, 50 GiB each.
        self.assertEqual([data, root], [v.disk for v in volumes])
        self.assertEqual(['d0', 'd1', 'd2'], volumes[0].drives)
        # The MAX mirror may not share them: the two left.
        self.assertEqual(['d3', 'd4'], volumes[1].drives)
        self.assertIsNone(volumes[1].size_bytes)

    def test_sharing_disks_split_free_space(self):
        drives = [_drive('a', 100), _drive('b', 100)]
        first = {'raid_level': '1', 'size_gb': 30,
                 'share_physical_disks': True}
        second = {'raid_level': '0', 'size_gb': 100,
                  'number_of_physical_disks': 2,
                  'share_physical_disks': True}
        volumes = raid_volumes.plan(_config(first, second), drives,
                                    {'RAID.1': ALL})
        self.assertEqual(['a', 'b'], volumes[0].drives)
        self.assertEqual(['a', 'b'], volumes[1].drives)
        # 70 GiB left on each: a RAID 0 of 150 GiB (75 on each) would
        # not fit.
        second['size_gb'] = 150
        e = self.assertRaises(exception.InvalidParameterValue,
                              raid_volumes.plan, _config(first, second),
                              drives, {'RAID.1': ALL})
        self.assertIn('logical disk 1 (RAID 0, 150 GiB) does not fit: 2 '
                      'free drives match it (free GiB per drive: RAID.1/a '
                      '70.0, RAID.1/b 70.0)', str(e))

    def test_busy_drives_and_kind_of_drive(self):
        drives = [_drive('used', 100), _drive('hdd', 100),
                  _drive('ssd1', 100, media='ssd'),
                  _drive('ssd2', 100, media='ssd', protocol='sata')]
        (volume,) = raid_volumes.plan(
            _config({'raid_level': '0', 'size_gb': 10,
                     'disk_type': 'ssd', 'interface_type': 'sata'}),
            drives, {'RAID.1': ALL}, busy={'used'})
        self.assertEqual(['ssd2'], volume.drives)
        (volume,) = raid_volumes.plan(
            _config({'raid_level': '0', 'size_gb': 10,
                     'disk_type': 'hdd'}),
            drives, {'RAID.1': ALL}, busy={'used'})
        self.assertEqual(['hdd'], volume.drives)

    def test_named_drives_and_controller(self):
        drives = [_drive('a', 100), _drive('b', 100),
                  _drive('c', 100, storage='RAID.2'),
                  _drive('d', 100, storage='RAID.2')]
        types = {'RAID.1': ALL, 'RAID.2': ALL}
        (volume,) = raid_volumes.plan(
            _config({'raid_level': '1', 'size_gb': 10,
                     'physical_disks': ['c', {'id': 'd'}]}),
            drives, types)
        self.assertEqual(('RAID.2', ['c', 'd']),
                         (volume.storage, volume.drives))
        (volume,) = raid_volumes.plan(
            _config({'raid_level': '1', 'size_gb': 10,
                     'controller': 'RAID.2'}), drives, types)
        self.assertEqual('RAID.2', volume.storage)
        e = self.assertRaises(
            exception.InvalidParameterValue, raid_volumes.plan,
            _config({'raid_level': '1', 'size_gb': 10,
                     'physical_disks': ['a', 'c']}), drives, types)
        # One volume's drives are on one controller.
        self.assertIn('does not fit', str(e))
        e = self.assertRaises(
            exception.InvalidParameterValue, raid_volumes.plan,
            _config({'raid_level': '1', 'size_gb': 10,
                     'physical_disks': ['a', 'zz']}), drives, types)
        self.assertIn('physical disks zz are not free drives', str(e))

    def test_controller_without_the_level(self):
        drives = [_drive('a', 100), _drive('b', 100), _drive('c', 100)]
        e = self.assertRaises(
            exception.InvalidParameterValue, raid_volumes.plan,
            _config({'raid_level': '5', 'size_gb': 10}), drives,
            {'RAID.1': {'RAID0', 'RAID1'}})
        self.assertIn('0 free drives match it', str(e))
        # A controller that does not say what it builds builds any level
        # (Ironic's reading).
        (volume,) = raid_volumes.plan(
            _config({'raid_level': '5', 'size_gb': 10}), drives,
            {'RAID.1': None})
        self.assertEqual(3, len(volume.drives))

    def test_parity_share_rounds_up(self):
        # 3 GiB of RAID 6 on 4 drives: 1.5 GiB of each. A drive with just
        # under that is not taken; the rounding up is to the byte.
        drives = [raid_volumes.Drive('d%d' % i, 'RAID.1', 3 * GiB // 2,
                                     'hdd', 'sas') for i in range(4)]
        drives.append(raid_volumes.Drive('short', 'RAID.1',
                                         3 * GiB // 2 - 1, 'hdd', 'sas'))
        volumes = raid_volumes.plan(
            _config({'raid_level': '6', 'size_gb': 3,
                     'number_of_physical_disks': 4},
                    {'raid_level': '0', 'size_gb': 'MAX'}), drives,
            {'RAID.1': ALL})
        self.assertEqual(['d0', 'd1', 'd2', 'd3'], volumes[0].drives)
        self.assertEqual(3 * GiB, volumes[0].size_bytes)
        # The data drives' whole free space went: the MAX disk gets the
        # short one.
        self.assertEqual(['short'], volumes[1].drives)

    def test_same_drive_ids_on_two_controllers(self):
        drives = [_drive('Disk.0', 100), _drive('Disk.1', 100),
                  _drive('Disk.0', 100, storage='RAID.2'),
                  _drive('Disk.1', 100, storage='RAID.2')]
        types = {'RAID.1': ALL, 'RAID.2': ALL}
        volumes = raid_volumes.plan(
            _config({'raid_level': '1', 'size_gb': 10},
                    {'raid_level': '1', 'size_gb': 10}), drives, types)
        self.assertEqual([('RAID.1', ['Disk.0', 'Disk.1']),
                          ('RAID.2', ['Disk.0', 'Disk.1'])],
                         [(v.storage, v.drives) for v in volumes])
        # Busy is per controller too.
        (volume,) = raid_volumes.plan(
            _config({'raid_level': '1', 'size_gb': 10}), drives, types,
            busy={('RAID.1', 'Disk.0')})
        self.assertEqual('RAID.2', volume.storage)

    def test_alike_drives_and_growing_counts(self):
        drives = [_drive('hdd', 100), _drive('ssd', 100, media='ssd'),
                  _drive('hdd2', 100)]
        (volume,) = raid_volumes.plan(
            _config({'raid_level': '1', 'size_gb': 10}), drives,
            {'RAID.1': ALL})
        # Not the SSD with an HDD: the two HDDs.
        self.assertEqual(['hdd', 'hdd2'], volume.drives)
        # 1000 GiB of RAID 5 on 400 GiB drives: 4 drives (3 hold 800).
        drives = [_drive('d%d' % i, 400) for i in range(5)]
        (volume,) = raid_volumes.plan(
            _config({'raid_level': '5', 'size_gb': 1000}), drives,
            {'RAID.1': ALL})
        self.assertEqual(4, len(volume.drives))
        # RAID 1+0 grows by pairs.
        (volume,) = raid_volumes.plan(
            _config({'raid_level': '1+0', 'size_gb': 500}), drives,
            {'RAID.1': ALL})
        self.assertEqual(4, len(volume.drives))
        e = self.assertRaises(
            exception.InvalidParameterValue, raid_volumes.plan,
            _config({'raid_level': '1+0', 'size_gb': 900}), drives,
            {'RAID.1': ALL})
        self.assertIn('does not fit', str(e))


class TestSearch(base.TestCase):
    """Where the best-fit choice of one logical disk leaves a later one
    without drives, other choices are searched."""

    def test_another_controller_for_an_earlier_disk(self):
        drives = [_drive('a', 100), _drive('b', 100),
                  _drive('c', 200, storage='RAID.2'),
                  _drive('d', 200, storage='RAID.2')]
        types = {'RAID.1': ALL, 'RAID.2': ALL}
        anywhere = {'raid_level': '1', 'size_gb': 50}
        pinned = {'raid_level': '1', 'size_gb': 80, 'controller': 'RAID.1'}
        # Best fit alone puts the first mirror on RAID.1 (its group comes
        # first), where the second, which must be there, no longer fits.
        volumes = raid_volumes.plan(_config(anywhere, pinned), drives,
                                    types)
        self.assertEqual([('RAID.2', ['c', 'd']), ('RAID.1', ['a', 'b'])],
                         [(v.storage, v.drives) for v in volumes])

    def test_other_drives_for_an_earlier_disk(self):
        drives = [_drive('a', 100), _drive('b', 100), _drive('c', 150)]
        first = {'raid_level': '1', 'size_gb': 100,
                 'share_physical_disks': True}
        named = {'raid_level': '1', 'size_gb': 50,
                 'physical_disks': ['a', 'c'],
                 'share_physical_disks': True}
        volumes = raid_volumes.plan(_config(first, named), drives,
                                    {'RAID.1': ALL})
        # Best fit would give the first mirror a and b (the smallest that
        # hold it), and a would have nothing left for the second; c is
        # shared (50 GiB left of it).
        self.assertEqual([['b', 'c'], ['a', 'c']],
                         [sorted(v.drives) for v in volumes])

    def test_more_drives_for_an_earlier_disk(self):
        # A RAID 5 of 200 GiB on drives of 100: 3 of them (all of their
        # space), 4 (67 of each) or 5 (50 of each). A second RAID 5 of
        # 80 GiB on 3 drives, sharing, needs 3 drives with 40 left: only
        # the 5-drive first one leaves them (best fit alone takes 3).
        drives = [_drive('d%d' % i, 100) for i in range(5)]
        volumes = raid_volumes.plan(
            _config({'raid_level': '5', 'size_gb': 200,
                     'share_physical_disks': True},
                    {'raid_level': '5', 'size_gb': 80,
                     'number_of_physical_disks': 3,
                     'share_physical_disks': True}),
            drives, {'RAID.1': ALL})
        self.assertEqual([5, 3], [len(v.drives) for v in volumes])
        self.assertEqual(200 * GiB, volumes[0].size_bytes)

    def test_many_alike_drives_are_few_choices(self):
        # Best fit puts the first mirror on RAID.1 (its group comes
        # first), where the third, pinned there, then has 50 GiB a drive
        # left. The RAID 5 between them may take 3 to 24 of the alike
        # drives of RAID.2: 22 choices, not the millions of their
        # combinations, before the first mirror is moved to RAID.2.
        drives = [_drive('a%d' % i, 200) for i in range(2)] + [
            _drive('b%02d' % i, 1000, storage='RAID.2') for i in range(24)]
        volumes = raid_volumes.plan(
            _config({'raid_level': '1', 'size_gb': 150},
                    {'raid_level': '5', 'size_gb': 100},
                    {'raid_level': '1', 'size_gb': 100,
                     'controller': 'RAID.1'}),
            drives, {'RAID.1': ALL, 'RAID.2': ALL})
        self.assertEqual(['RAID.2', 'RAID.2', 'RAID.1'],
                         [v.storage for v in volumes])
        self.assertEqual([2, 3, 2], [len(v.drives) for v in volumes])

    def test_drive_ids_must_be_strings(self):
        for named in (['a', {}], ['a', {'id': 0}], ['a', 7]):
            e = self.assertRaises(
                exception.InvalidParameterValue, raid_volumes.check_levels,
                _config({'raid_level': '1', 'size_gb': 10,
                         'physical_disks': named}))
            self.assertIn('physical_disks are drive ids', str(e))

    def test_unplaceable_names_the_best_fit_refusal(self):
        drives = [_drive('a', 100), _drive('b', 100)]
        e = self.assertRaises(
            exception.InvalidParameterValue, raid_volumes.plan,
            _config({'raid_level': '1', 'size_gb': 60},
                    {'raid_level': '1', 'size_gb': 60}), drives,
            {'RAID.1': ALL})
        self.assertEqual('target_raid_config', e.field)
        self.assertIn('logical disk 1 (RAID 1, 60 GiB) does not fit: 0 '
                      'free drives match it.', str(e))

    def test_the_search_is_bounded(self):
        # Thirty drives of distinct sizes: the ways to put two 10-drive
        # RAID 0s on them are millions, and a 12-drive RAID 6 of 5 TiB
        # fits after none of them.
        drives = [_drive('d%02d' % i, 100 + i) for i in range(30)]
        self.useFixture(fixtures.MockPatchObject(
            raid_volumes, 'SEARCH_BUDGET', 500))
        small = {'raid_level': '0', 'size_gb': 10,
                 'number_of_physical_disks': 10}
        e = self.assertRaises(
            exception.InvalidParameterValue, raid_volumes.plan,
            _config(small, dict(small),
                    {'raid_level': '6', 'size_gb': 5000,
                     'number_of_physical_disks': 12}),
            drives, {'RAID.1': ALL})
        self.assertIn('logical disk 2 (RAID 6, 5000 GiB) does not fit',
                      str(e))
        self.assertIn('no other placement of the logical disks was found '
                      'among the first %d tried' % raid_volumes.SEARCH_BUDGET,
                      str(e))

    def test_alike_choices_are_looked_at_once(self):
        # Twelve alike drives: the ways to pick 4 of them for the first
        # disk are 495, all the same; the last disk fits after none.
        drives = [_drive('d%02d' % i, 100) for i in range(12)]
        e = self.assertRaises(
            exception.InvalidParameterValue, raid_volumes.plan,
            _config({'raid_level': '0', 'size_gb': 400,
                     'number_of_physical_disks': 4},
                    {'raid_level': '0', 'size_gb': 900,
                     'number_of_physical_disks': 9}),
            drives, {'RAID.1': ALL})
        self.assertNotIn('no other placement', str(e))
        self.assertIn('logical disk 1 (RAID 0, 900 GiB) does not fit: 8 '
                      'free drives match it', str(e))
