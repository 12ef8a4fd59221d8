"""drivers/raid.py: what a create_configuration step builds of the
target, and what the node records once the agent built it or deleted it
(Ironic's rules)."""

import datetime

from ironic_like.common import exception
from ironic_like.drivers import raid
from ironic_like.tests import base

ROOT = {'size_gb': 100, 'raid_level': '1', 'is_root_volume': True,
        'root_device_hint': {'name': '/dev/md0'}}
DATA = {'size_gb': 'MAX', 'raid_level': '0'}
NOW = datetime.datetime(2026, 11, 27, 8, 0, 0)


class _Node(object):
    uuid = 'node-1'

    def __init__(self, target=None, properties=None):
        self.target_raid_config = target
        self.properties = properties or {}


class TestFilterTarget(base.TestCase):

    def test_whole_target_by_default(self):
        target = {'logical_disks': [ROOT, DATA]}
        self.assertEqual(target, raid.filter_target(_Node(target)))

    def test_root_or_others_left_out(self):
        node = _Node({'logical_disks': [ROOT, DATA]})
        self.assertEqual([DATA], raid.filter_target(
            node, create_root_volume=False)['logical_disks'])
        self.assertEqual([ROOT], raid.filter_target(
            node, create_nonroot_volumes='false')['logical_disks'])

    def test_nothing_to_build(self):
        for node, kwargs, text in (
                (_Node(), {}, 'has no target RAID configuration'),
                (_Node({}), {}, 'has no target RAID configuration'),
                (_Node({'logical_disks': [ROOT]}),
                 {'create_root_volume': False},
                 'empty target RAID configuration after skipping root '
                 'volume')):
            e = self.assertRaises(exception.MissingParameterValue,
                                  raid.filter_target, node, **kwargs)
            self.assertIn(text, str(e))
            self.assertEqual('target_raid_config', e.field)

    def test_arguments_must_be_booleans(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              raid.filter_target,
                              _Node({'logical_disks': [ROOT]}),
                              create_root_volume='maybe')
        self.assertEqual('create_root_volume', e.field)


class TestRecordedValues(base.TestCase):

    def test_built_with_a_root_volume(self):
        node = _Node(properties={'local_gb': 10, 'capabilities':
                                 'boot_mode:uefi'})
        values = raid.built_values(node, {'logical_disks': [ROOT, DATA]},
                                   NOW)
        self.assertEqual({'logical_disks': [ROOT, DATA],
                          'last_updated': str(NOW)}, values['raid_config'])
        self.assertEqual({'local_gb': 100,
                          'root_device': {'name': '/dev/md0'},
                          'capabilities': 'boot_mode:uefi,raid_level:1'},
                         values['properties'])
        # The node's own dict is not changed in place.
        self.assertEqual(10, node.properties['local_gb'])

    def test_built_without_root_volume_or_with_max_size(self):
        values = raid.built_values(_Node(), {'logical_disks': [DATA]}, NOW)
        self.assertNotIn('properties', values)
        root = dict(ROOT, size_gb='MAX')
        del root['root_device_hint']
        values = raid.built_values(_Node(properties={'local_gb': 7}),
                                   {'logical_disks': [root]}, NOW)
        self.assertEqual({'local_gb': 7, 'capabilities': 'raid_level:1'},
                         values['properties'])

    def test_unusable_report(self):
        for report in (None, 'done', {'logical_disks': 'x'},
                       {'logical_disks': [ROOT, ROOT]}):
            self.assertRaises(exception.InvalidParameterValue,
                              raid.built_values, _Node(), report, NOW)

    def test_deleted(self):
        node = _Node(properties={'root_device': {'name': '/dev/md0'},
                                 'local_gb': 100})
        self.assertEqual({'raid_config': {},
                          'properties': {'local_gb': 100}},
                         raid.deleted_values(node))
