"""Where a target RAID configuration's logical disks go on a BMC's drives:
a plan of the volumes a hardware RAID controller is asked to create (the
``redfish`` raid interface's), worked out before anything is written so
that a configuration that cannot fit fails whole, naming the logical disk
that does not fit and why.

The rules, as Ironic's redfish RAID has them where it says (levels, disk
counts, logical disks of a given size before those of size "MAX"), and
simpler where it searches: each logical disk takes, on one controller
that supports its level, the drives with the least free space that still
hold its share (best fit, so that the large drives stay for what comes
next); a "MAX" disk takes the drives with the most free space and all of
it. Drives already in a volume are not used (their free space is not
known), nor are drives given to a logical disk that does not share its
physical disks (``share_physical_disks``, Ironic's default false).
"""

import collections

from ironic_like.common import exception

GiB = 1024 ** 3

# Ironic's RAID level -> (the Redfish RAIDType, the fewest drives, the
# most drives or None, whether the count must be even, how many drives'
# worth of space holds data given the count).
LEVELS = {
    '0': ('RAID0', 1, None, False, lambda n: n),
    '1': ('RAID1', 2, 2, False, lambda n: 1),
    '5': ('RAID5', 3, None, False, lambda n: n - 1),
    '6': ('RAID6', 4, None, False, lambda n: n - 2),
    # Spanned levels: two spans of the simple level (RAID 10 mirrors
    # pairs: half the drives hold data).
    '1+0': ('RAID10', 4, None, True, lambda n: n // 2),
    '5+0': ('RAID50', 6, None, True, lambda n: n - 2),
    '6+0': ('RAID60', 8, None, True, lambda n: n - 4),
}

# A physical drive as the plan sees it: its id, its controller (the
# Redfish Storage id), capacity in bytes, media ('hdd', 'ssd' or None)
# and protocol ('sas', 'sata' or None).
Drive = collections.namedtuple('Drive', 'id storage capacity media protocol')

# One volume to create: the logical disk (as the target gives it), its
# controller, its drives' ids, its size in bytes (None for "MAX": the
# controller works out the most it can hold), the Redfish RAIDType.
Volume = collections.namedtuple('Volume', 'disk storage drives size_bytes '
                                          'raid_type')


def _refuse(message):
    return exception.InvalidParameterValue(err=message,
                                           field='target_raid_config')


def check_levels(raid_config):
    """InvalidParameterValue naming target_raid_config for a logical disk
    the redfish raid interface cannot build whatever the drives: RAID
    level 2 (Redfish has no such type), the ``scsi`` interface type
    (Ironic's rule), or a disk count its level cannot have."""
    for index, disk in enumerate(raid_config.get('logical_disks') or ()):
        where = 'logical disk %d' % index
        level = disk.get('raid_level')
        if level not in LEVELS:
            raise _refuse('%s: RAID level %s is not supported by the '
                          'redfish raid interface (supported: %s).'
                          % (where, level, ', '.join(sorted(LEVELS))))
        if disk.get('interface_type') == 'scsi':
            raise _refuse('%s: interface type "scsi" is not supported by '
                          'the redfish raid interface.' % where)
        count = _count(disk)
        _check_count(where, level, count)


def _count(disk):
    """How many drives ``disk`` asks for: its physical_disks, else its
    number_of_physical_disks, else its level's fewest."""
    if disk.get('physical_disks'):
        return len(disk['physical_disks'])
    return disk.get('number_of_physical_disks') or LEVELS[
        disk['raid_level']][1]


def _check_count(where, level, count):
    _type, fewest, most, even, _data = LEVELS[level]
    if count < fewest or (most is not None and count > most) or \
            (even and count % 2):
        raise _refuse('%s: RAID level %s takes %s drives, not %d.' % (
            where, level,
            ('%d' % fewest if most == fewest else
             'an even number of at least %d' % fewest if even else
             'at least %d' % fewest if most is None else
             '%d to %d' % (fewest, most)), count))


def _wanted(disk, drive):
    """Whether ``drive`` is of the kind ``disk`` asks for."""
    if disk.get('controller') and drive.storage != disk['controller']:
        return False
    if disk.get('physical_disks') and \
            drive.id not in _named_drives(disk):
        return False
    if disk.get('disk_type') and drive.media != disk['disk_type']:
        return False
    if disk.get('interface_type') and \
            drive.protocol != disk['interface_type']:
        return False
    return True


def _named_drives(disk):
    """The drive ids a logical disk's physical_disks name (strings, or
    objects with an ``id``)."""
    names = []
    for item in disk.get('physical_disks') or ():
        names.append(item.get('id') if isinstance(item, dict) else item)
    return names


def plan(raid_config, drives, raid_types, busy=()):
    """The volumes that build ``raid_config``'s logical disks, in the
    order to create them (sized ones first, then "MAX" ones, each group
    in the configuration's order).

    ``drives``: Drive tuples; ``raid_types``: {storage id: the Redfish
    RAIDTypes its controller supports}; ``busy``: ids of drives already
    in a volume. InvalidParameterValue naming target_raid_config and the
    logical disk that cannot be placed.
    """
    check_levels(raid_config)
    disks = list(enumerate(raid_config['logical_disks']))
    ordered = ([d for d in disks if d[1]['size_gb'] != 'MAX'] +
               [d for d in disks if d[1]['size_gb'] == 'MAX'])
    free = {d.id: (0 if d.id in busy else d.capacity) for d in drives}
    # drive id -> whether every logical disk on it shares its drives.
    sharing = {}
    volumes = []
    for index, disk in ordered:
        volume, share = _place(index, disk, drives, raid_types, free,
                               sharing)
        per_drive = share
        for drive_id in volume.drives:
            free[drive_id] -= per_drive
            sharing[drive_id] = (sharing.get(drive_id, True) and
                                 bool(disk.get('share_physical_disks')))
        volumes.append(volume)
    return volumes


def _place(index, disk, drives, raid_types, free, sharing):
    """(the Volume for one logical disk, the bytes it takes of each of its
    drives)."""
    where = 'logical disk %d' % index
    level = disk['raid_level']
    raid_type, _fewest, _most, _even, data = LEVELS[level]
    count = _count(disk)
    shares = bool(disk.get('share_physical_disks'))
    usable = [d for d in drives
              if _wanted(disk, d) and free[d.id] > 0 and
              (d.id not in sharing or (shares and sharing[d.id])) and
              raid_type in raid_types.get(d.storage, ())]
    named = _named_drives(disk)
    if named:
        missing = sorted(set(named) - {d.id for d in usable})
        if missing:
            raise _refuse('%s: physical disks %s are not free drives of a '
                          'controller supporting %s.' % (
                              where, ', '.join(missing), raid_type))
    by_storage = collections.defaultdict(list)
    for drive in usable:
        by_storage[drive.storage].append(drive)
    size = disk['size_gb']
    for storage in sorted(by_storage):
        candidates = by_storage[storage]
        if size == 'MAX':
            chosen = sorted(candidates, key=lambda d: (-free[d.id], d.id))
            chosen = chosen[:count]
            if len(chosen) < count:
                continue
            share = min(free[d.id] for d in chosen)
            return Volume(disk, storage, [d.id for d in chosen], None,
                          raid_type), share
        # Each drive's share, rounded up (a controller allocates whole
        # bytes on every drive).
        share = -(-int(size) * GiB // data(count))
        fitting = sorted((d for d in candidates if free[d.id] >= share),
                         key=lambda d: (free[d.id], d.id))
        if len(fitting) >= count:
            chosen = fitting[:count]
            return Volume(disk, storage, [d.id for d in chosen],
                          int(size) * GiB, raid_type), share
    raise _refuse(
        '%s (RAID %s, %s GiB on %d drives) does not fit: %d free drives '
        'match it%s.' % (
            where, level, size, count, len(usable),
            '' if not by_storage else
            ' (free GiB per drive: %s)' % ', '.join(
                '%s %.1f' % (d.id, free[d.id] / GiB)
                for d in sorted(usable, key=lambda d: d.id))))
