"""Where a target RAID configuration's logical disks go on a BMC's drives:
a plan of the volumes a hardware RAID controller is asked to create (the
``redfish`` raid interface's), worked out before anything is written so
that a configuration that cannot fit fails whole, naming the logical disk
that does not fit and why.

The rules, as Ironic's redfish RAID has them (levels, disk counts,
logical disks of a given size before those of size "MAX"): each logical
disk goes on one controller that supports its level, preferably on the
drives with the least free space that still hold its share (best fit, so
that the large drives stay for what comes next); a "MAX" disk preferably
on the drives with the most free space, and all of it. Where those
preferences leave a later disk without drives, the other placements are
searched (another controller or kind of drive, more drives, other drives:
a bounded depth-first search, SEARCH_BUDGET). One volume's drives are
alike (one controller, one media type, one protocol: controllers refuse
mixed volumes). Without a drive count, a sized disk preferably takes
the fewest drives its level needs that hold it (Ironic adds drives until
it fits too). Drives already in a volume are not used (their free space is not
known), nor are drives given to a logical disk that does not share its
physical disks (``share_physical_disks``, Ironic's default false).
Drives are told apart by controller and id: ids repeat across
controllers on some BMCs.
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
# and protocol ('sas', 'sata' or None). (storage, id) is its key.
Drive = collections.namedtuple('Drive', 'id storage capacity media protocol')

# One volume to create: the logical disk (as the target gives it), its
# controller, its drives' ids (on that controller), its size in bytes
# (None for "MAX": the controller works out the most it can hold), the
# Redfish RAIDType.
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
        for name in _named_drives(disk):
            if not isinstance(name, str) or not name:
                raise _refuse('%s: physical_disks are drive ids, or objects '
                              'with an "id": %r is not one.' % (where, name))
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


def _key(drive):
    return (drive.storage, drive.id)


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


def _supports(raid_types, storage, raid_type):
    """Whether the controller ``storage`` builds ``raid_type``: its
    listed types, or any when it lists none (None: the BMC does not
    say, as Ironic takes it)."""
    types = raid_types.get(storage)
    return types is None or raid_type in types


def _counts(disk, available):
    """The drive counts to try for ``disk``, fewest first: the one it
    asks for, else from its level's fewest up to what is available (a
    "MAX" disk: the fewest)."""
    _type, fewest, most, even, _data = LEVELS[disk['raid_level']]
    if disk.get('physical_disks') or disk.get('number_of_physical_disks') \
            or disk['size_gb'] == 'MAX':
        return [_count(disk)]
    top = available if most is None else min(most, available)
    return [n for n in range(fewest, top + 1) if not even or n % 2 == 0]


def plan(raid_config, drives, raid_types, busy=()):
    """The volumes that build ``raid_config``'s logical disks, in the
    order to create them (sized ones first, then "MAX" ones, each group
    in the configuration's order).

    ``drives``: Drive tuples; ``raid_types``: {storage id: the Redfish
    RAIDTypes its controller supports, or None when it does not say};
    ``busy``: (storage id, drive id) of the drives already in a volume.
    InvalidParameterValue naming target_raid_config and the logical disk
    that cannot be placed.
    """
    check_levels(raid_config)
    disks = list(enumerate(raid_config['logical_disks']))
    ordered = ([d for d in disks if d[1]['size_gb'] != 'MAX'] +
               [d for d in disks if d[1]['size_gb'] == 'MAX'])
    free = {_key(d): (0 if _key(d) in busy else d.capacity) for d in drives}
    search = _Search(ordered, drives, raid_types)
    try:
        volumes = search.place(0, free, {})
    except _GaveUp:
        volumes = None
        search.refusal = _refuse(
            '%s (no other placement of the logical disks was found among '
            'the first %d tried)' % (
                str(search.refusal).rstrip('.'), SEARCH_BUDGET))
    if volumes is None:
        raise search.refusal
    return volumes


# How many drive choices (over all the logical disks) the search looks at
# before it gives up: enough for any controller's drives and a few
# logical disks, a bound for a target whose drives would make the search
# combinatorial (it runs in the conductor, before the BMC is touched).
SEARCH_BUDGET = 10000


# A drive's sharing state as a sortable value: no logical disk on it yet,
# only disks that share their drives, or one that does not.
_SHARING_ORDER = {None: 0, True: 1, False: 2}


class _GaveUp(Exception):
    pass


class _Search(object):
    """A depth-first search for drives that hold every logical disk.

    Its first path is the best-fit choice (each disk on the drives with
    the least free space that hold it, MAX disks on those with the most),
    so a configuration that fits that way is planned that way; where that
    path leaves a later disk without drives, other choices for the
    earlier disks are tried (another controller or kind of drive, more
    drives, other drives) until one holds them all. Ironic's redfish RAID
    searches too (other kinds of drive and counts, not other drives).

    Drives alike (one controller, media, protocol, as much free space,
    the same sharing, not named by a logical disk) are interchangeable:
    a choice takes a number of each kind (_choices), so that no two
    choices of a disk leave the same drives; and a state of the drives
    from which the disks left were found not to fit is not searched
    again (``failed``). The refusal kept is the first met, the one the
    best-fit path ends with."""

    def __init__(self, ordered, drives, raid_types):
        self.ordered = ordered
        self.drives = drives
        self.raid_types = raid_types
        # Drive ids some logical disk names: such a drive is like no
        # other.
        self.named = {name for _i, disk in ordered
                      for name in _named_drives(disk)}
        self.looked_at = 0
        self.refusal = None
        self.failed = set()

    def kind(self, drive, free, sharing):
        """What tells ``drive`` from another for the disks to come."""
        key = _key(drive)
        return (drive.storage, drive.media or '', drive.protocol or '',
                drive.id if drive.id in self.named else '', free[key],
                _SHARING_ORDER[sharing.get(key)])

    def place(self, position, free, sharing):
        """The volumes of the logical disks from ``position`` on, given
        each drive's ``free`` bytes and ``sharing`` ({drive key: whether
        every logical disk on it shares its drives}); None when there are
        none."""
        if position == len(self.ordered):
            return []
        state = (position, tuple(sorted(
            self.kind(d, free, sharing) for d in self.drives)))
        if state in self.failed:
            return None
        index, disk = self.ordered[position]
        shares = bool(disk.get('share_physical_disks'))
        try:
            for volume, share in _placements(
                    index, disk, self.drives, self.raid_types, free,
                    sharing, lambda d: self.kind(d, free, sharing)):
                self.looked_at += 1
                if self.looked_at > SEARCH_BUDGET:
                    raise _GaveUp()
                after_free, after_sharing = dict(free), dict(sharing)
                for drive_id in volume.drives:
                    key = (volume.storage, drive_id)
                    after_free[key] -= share
                    after_sharing[key] = sharing.get(key, True) and shares
                rest = self.place(position + 1, after_free, after_sharing)
                if rest is not None:
                    return [volume] + rest
        except exception.InvalidParameterValue as e:
            self.refusal = self.refusal or e
        self.failed.add(state)
        return None


def _choices(ranked, count, kind):
    """The ways to take ``count`` of the drives ``ranked`` (in the order
    of preference) that leave different drives: a number of each kind of
    drive (``kind(drive)``), the first ones of a kind in the order given;
    the first way is the first ``count`` drives, then fewer of the
    preferred kinds."""
    kinds = []
    for drive in ranked:
        if kinds and kinds[-1][0] == kind(drive):
            kinds[-1][1].append(drive)
        else:
            same = [k for k in kinds if k[0] == kind(drive)]
            if same:
                same[0][1].append(drive)
            else:
                kinds.append((kind(drive), [drive]))

    def take(at, left):
        if left == 0:
            yield []
            return
        if at == len(kinds):
            return
        available = kinds[at][1]
        for taken in range(min(left, len(available)), -1, -1):
            for rest in take(at + 1, left - taken):
                yield available[:taken] + rest
    return take(0, count)


def _placements(index, disk, drives, raid_types, free, sharing, kind):
    """Each (Volume, the bytes it takes of each of its drives) that holds
    one logical disk, best fit first, no two on the same kinds of drive
    (``kind(drive)``, see _choices); InvalidParameterValue naming the
    disk once there is none."""
    where = 'logical disk %d' % index
    level = disk['raid_level']
    raid_type, _fewest, _most, _even, data = LEVELS[level]
    shares = bool(disk.get('share_physical_disks'))
    usable = [d for d in drives
              if _wanted(disk, d) and free[_key(d)] > 0 and
              (_key(d) not in sharing or (shares and sharing[_key(d)])) and
              _supports(raid_types, d.storage, raid_type)]
    named = set(_named_drives(disk))
    if named:
        missing = sorted(named - {d.id for d in usable})
        if missing:
            raise _refuse('%s: physical disks %s are not free drives of a '
                          'controller supporting %s.' % (
                              where, ', '.join(missing), raid_type))
    # Alike drives: one controller, and unless the drives are named, one
    # media type and protocol.
    groups = collections.defaultdict(list)
    for drive in usable:
        groups[(drive.storage,) if named else
               (drive.storage, drive.media or '', drive.protocol or '')
               ].append(drive)
    size = disk['size_gb']
    found = False
    for group in sorted(groups):
        candidates = groups[group]
        if named and {d.id for d in candidates} != named:
            continue
        storage = group[0]
        for count in _counts(disk, len(candidates)):
            if size == 'MAX':
                # The most free space first; a MAX disk takes all its
                # drives have (the least of them, on each).
                ranked = sorted(candidates,
                                key=lambda d: (-free[_key(d)], d.id))
                for chosen in _choices(ranked, count, kind):
                    found = True
                    yield (Volume(disk, storage, [d.id for d in chosen],
                                  None, raid_type),
                           min(free[_key(d)] for d in chosen))
                continue
            # Each drive's share, rounded up (a controller allocates
            # whole bytes on every drive).
            share = -(-int(size) * GiB // data(count))
            fitting = sorted((d for d in candidates
                              if free[_key(d)] >= share),
                             key=lambda d: (free[_key(d)], d.id))
            for chosen in _choices(fitting, count, kind):
                found = True
                yield (Volume(disk, storage, [d.id for d in chosen],
                              int(size) * GiB, raid_type), share)
    if not found:
        raise _refuse(
            '%s (RAID %s, %s GiB) does not fit: %d free drives match it%s.'
            % (where, level, size, len(usable),
               '' if not usable else
               ' (free GiB per drive: %s)' % ', '.join(
                   '%s/%s %.1f' % (d.storage, d.id, free[_key(d)] / GiB)
                   for d in sorted(usable, key=_key))))
