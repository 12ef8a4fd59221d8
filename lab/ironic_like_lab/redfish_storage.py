"""Simulated RAID storage for the lab's Redfish emulator: RAID
controllers with drives (a system definition's ``storage``), whose
volumes a client creates and deletes through sushy-tools' Storage views,
taken over for those systems, at once or at the machine's next boot
(apply time ``OnReset``, answered with a task), as BMCs with RAID jobs
do. Checked as a controller would: drives of the controller, enough of
them for the RAID type, capacity that fits their free space. Like an
iDRAC, a controller takes one ``OnReset`` operation (a create or a
delete) at a time: another one is refused (400) until the next boot has
applied it. Volume ids are never reused, not even those of deleted
volumes of the definition.
"""

import collections
import threading
from urllib import parse

from ironic_like_lab import redfish_views as views

# Simulated RAID storage (patch_storage). A system definition's
# STORAGE_KEY lists its RAID controllers (see check_storage); the volumes
# clients create and delete, the operations waiting for a reset and their
# tasks live in a table of their own in the emulator's state directory
# (_STORAGE_DB), keyed by system uuid: FakeDriver rewrites a whole system
# record on every change, so a volume kept there could be lost to a
# concurrent power change, and each change would notify the simulator.
STORAGE_KEY = 'storage'
_STORAGE_DB = 'ironic_like_storage'
# The apply times the emulator can honour: at once, or at the machine's
# next boot (a power-on or a restart), as BMCs with RAID jobs do.
APPLY_TIMES = ('Immediate', 'OnReset')
MEDIA_TYPES = ('HDD', 'SSD', 'SMR')
PROTOCOLS = ('SAS', 'SATA', 'NVMe')
_APPLY_TIME = '@Redfish.OperationApplyTime'
_RAID_TASK = 'raid-'

RAIDLevel = collections.namedtuple(
    'RAIDLevel', 'volume_type drives_rule fits data_drives')
# What a RAIDType needs and gives: its Redfish VolumeType, how many drives
# it takes (rule: for the error message; fits: the check) and how many
# drives' worth of data it holds (the rest is mirror or parity).
RAID_LEVELS = {
    'RAID0': RAIDLevel('NonRedundant', 'at least 1',
                       lambda n: n >= 1, lambda n: n),
    'RAID1': RAIDLevel('Mirrored', 'exactly 2',
                       lambda n: n == 2, lambda n: 1),
    'RAID5': RAIDLevel('StripedWithParity', 'at least 3',
                       lambda n: n >= 3, lambda n: n - 1),
    'RAID6': RAIDLevel('StripedWithParity', 'at least 4',
                       lambda n: n >= 4, lambda n: n - 2),
    'RAID10': RAIDLevel('SpannedMirrors', 'an even number, at least 4',
                        lambda n: n >= 4 and n % 2 == 0, lambda n: n // 2),
}

# One lock per system for the read-modify-write of its storage state
# (the emulator serves requests on threads).
_STORAGE_LOCKS = {}
_STORAGE_LOCKS_GUARD = threading.Lock()


class _Refused(Exception):
    """A storage request the emulator answers 400 (or ``status``)."""

    def __init__(self, message, message_id='Base.1.0.GeneralError',
                 status=400):
        super().__init__(message)
        self.message_id = message_id
        self.status = status


def make_storage(drives=4, capacity_bytes=500 * 2 ** 30, media_type='HDD',
                 protocol='SAS', storage_id='RAID.1',
                 name='RAID controller', raid_types=tuple(RAID_LEVELS),
                 apply_times=APPLY_TIMES, volumes=()):
    """A storage definition for :func:`make_system`: one RAID controller
    ``storage_id`` with ``drives`` identical drives Disk.0, Disk.1, ...
    and the ``volumes`` it already has (see :func:`check_storage`)."""
    return check_storage([{
        'id': storage_id, 'name': name, 'raid_types': list(raid_types),
        'apply_times': list(apply_times),
        'drives': [{'id': 'Disk.%d' % i, 'capacity_bytes': capacity_bytes,
                    'media_type': media_type, 'protocol': protocol}
                   for i in range(drives)],
        'volumes': [dict(v) for v in volumes]}])


def _checked_id(value, what):
    # An id is a URL path segment.
    if not isinstance(value, str) or not value or '/' in value:
        raise ValueError('%s must be a non-empty string without "/": %r'
                         % (what, value))
    return value


def _positive_int(value):
    return (isinstance(value, int) and not isinstance(value, bool)
            and value > 0)


def check_storage(storage):
    """The storage definition ``storage`` checked and completed (a new
    list); ValueError says what is wrong.

    A list of RAID controllers, each ``{'id', 'name'?, 'raid_types'?
    (default: all of RAID_LEVELS), 'apply_times'? (non-empty, among
    APPLY_TIMES; default both), 'drives': [{'id', 'capacity_bytes',
    'media_type'? (MEDIA_TYPES, default HDD), 'protocol'? (PROTOCOLS,
    default SAS), 'name'?}], 'volumes'?: [{'raid_type', 'drives': [drive
    ids], 'capacity_bytes'? (default: the most that fits), 'id'?,
    'name'?}]}``; the volumes are those the machine has to begin with,
    checked as a client's creation would be.
    """
    if not isinstance(storage, (list, tuple)) or not storage:
        raise ValueError('storage must be a non-empty list of controllers')
    checked = []
    for ctl in storage:
        if not isinstance(ctl, dict):
            raise ValueError('a storage controller must be a dict: %r'
                             % (ctl,))
        sid = _checked_id(ctl.get('id'), 'storage controller id')
        if sid in [c['id'] for c in checked]:
            raise ValueError('storage controller %s defined twice' % sid)
        raid_types = list(ctl.get('raid_types', RAID_LEVELS))
        unknown = [t for t in raid_types if t not in RAID_LEVELS]
        if unknown:
            raise ValueError('storage %s: unknown RAID types %s (known: %s)'
                             % (sid, ', '.join(map(str, unknown)),
                                ', '.join(sorted(RAID_LEVELS))))
        apply_times = list(ctl.get('apply_times', APPLY_TIMES))
        if not apply_times or set(apply_times) - set(APPLY_TIMES):
            raise ValueError('storage %s: apply_times must be among %s'
                             % (sid, ', '.join(APPLY_TIMES)))
        drives = []
        for drive in ctl.get('drives') or ():
            if not isinstance(drive, dict):
                raise ValueError('storage %s: a drive must be a dict: %r'
                                 % (sid, drive))
            did = _checked_id(drive.get('id'), 'drive id')
            if did in [d['id'] for d in drives]:
                raise ValueError('storage %s: drive %s defined twice'
                                 % (sid, did))
            if not _positive_int(drive.get('capacity_bytes')):
                raise ValueError('storage %s: drive %s needs a positive '
                                 'integer capacity_bytes' % (sid, did))
            media = drive.get('media_type', 'HDD')
            protocol = drive.get('protocol', 'SAS')
            if media not in MEDIA_TYPES or protocol not in PROTOCOLS:
                raise ValueError('storage %s: drive %s: media_type must be '
                                 'among %s and protocol among %s'
                                 % (sid, did, ', '.join(MEDIA_TYPES),
                                    ', '.join(PROTOCOLS)))
            drives.append({'id': did, 'name': str(drive.get('name', did)),
                           'capacity_bytes': drive['capacity_bytes'],
                           'media_type': media, 'protocol': protocol})
        if not drives:
            raise ValueError('storage %s has no drives' % sid)
        controller = {'id': sid, 'name': str(ctl.get('name', sid)),
                      'raid_types': raid_types, 'apply_times': apply_times,
                      'drives': drives, 'volumes': []}
        for vol in ctl.get('volumes') or ():
            if not isinstance(vol, dict):
                raise ValueError('storage %s: a volume must be a dict: %r'
                                 % (sid, vol))
            taken = [v['id'] for v in controller['volumes']]
            vid = vol.get('id') or _next_volume_id(taken, 1)[0]
            if _checked_id(vid, 'volume id') in taken:
                raise ValueError('storage %s: volume %s defined twice'
                                 % (sid, vid))
            try:
                planned = _plan_volume(
                    controller, controller['volumes'], vol.get('raid_type'),
                    vol.get('drives'), vol.get('capacity_bytes'))
            except _Refused as e:
                raise ValueError('storage %s: volume %s: %s' % (sid, vid, e))
            planned.update(id=vid, name=str(vol.get('name', vid)))
            controller['volumes'].append(planned)
        checked.append(controller)
    return checked


def _next_volume_id(taken, counter):
    """(id, next counter): Volume.<counter>, skipping ids in ``taken``."""
    while 'Volume.%d' % counter in taken:
        counter += 1
    return 'Volume.%d' % counter, counter + 1


def _per_drive_bytes(volume):
    """What ``volume`` takes of each of its drives."""
    data = RAID_LEVELS[volume['raid_type']].data_drives(
        len(volume['drives']))
    return -(-volume['capacity_bytes'] // data)


def _free_bytes(controller, volumes):
    """{drive id: bytes that ``volumes`` (existing and pending) leave}."""
    free = {d['id']: d['capacity_bytes'] for d in controller['drives']}
    for volume in volumes:
        used = _per_drive_bytes(volume)
        for did in volume['drives']:
            free[did] -= used
    return free


def _plan_volume(controller, volumes, raid_type, drive_ids, capacity):
    """The volume (raid_type, drives, capacity_bytes) that ``controller``
    can make beside ``volumes``; _Refused says why it cannot."""
    if not isinstance(raid_type, str):
        raise _Refused('RAIDType is required (one of %s)'
                       % ', '.join(controller['raid_types']),
                       'Base.1.0.PropertyMissing')
    if raid_type not in controller['raid_types']:
        raise _Refused('RAIDType %s is not supported by storage %s '
                       '(supported: %s)'
                       % (raid_type, controller['id'],
                          ', '.join(controller['raid_types'])),
                       'Base.1.0.PropertyValueNotInList')
    known = [d['id'] for d in controller['drives']]
    if not isinstance(drive_ids, list) or not drive_ids:
        raise _Refused('The volume needs drives (Links.Drives)',
                       'Base.1.0.PropertyMissing')
    for did in drive_ids:
        if did not in known:
            raise _Refused('Drive %s is not a drive of storage %s'
                           % (did, controller['id']),
                           'Base.1.0.ResourceNotFound')
        if drive_ids.count(did) > 1:
            raise _Refused('Drive %s is listed twice' % did,
                           'Base.1.0.PropertyValueConflict')
    level = RAID_LEVELS[raid_type]
    if not level.fits(len(drive_ids)):
        raise _Refused('%s needs %s drives, not %d'
                       % (raid_type, level.drives_rule, len(drive_ids)),
                       'Base.1.0.PropertyValueConflict')
    free = _free_bytes(controller, volumes)
    room = min(free[did] for did in drive_ids)
    data = level.data_drives(len(drive_ids))
    if capacity is None:
        # Omitted: the most that fits on the drives' free space.
        if room <= 0:
            raise _Refused('No free space left on drives %s'
                           % ', '.join(drive_ids),
                           'Base.1.0.PropertyValueConflict')
        capacity = room * data
    elif not _positive_int(capacity):
        raise _Refused('CapacityBytes must be a positive integer, not %r'
                       % (capacity,), 'Base.1.0.PropertyValueTypeError')
    elif -(-capacity // data) > room:
        raise _Refused('CapacityBytes %d does not fit: a %s volume on '
                       'drives %s holds at most %d bytes more'
                       % (capacity, raid_type, ', '.join(drive_ids),
                          max(room, 0) * data),
                       'Base.1.0.PropertyValueConflict')
    return {'raid_type': raid_type, 'drives': list(drive_ids),
            'capacity_bytes': capacity}


def _storage_lock(uuid):
    with _STORAGE_LOCKS_GUARD:
        return _STORAGE_LOCKS.setdefault(uuid, threading.RLock())


def _storage_db(driver):
    """The table of the systems' storage state, in the emulator's state
    directory (the FakeDriver's)."""
    db = getattr(driver, '_ironic_like_storage', None)
    if db is None:
        from sushy_tools.emulator import memoize
        db = memoize.PersistentDict()
        config = getattr(driver, '_config', None) or {}
        db.make_permanent(config.get('SUSHY_EMULATOR_STATE_DIR'),
                          _STORAGE_DB)
        driver._ironic_like_storage = db
    return db


def _controllers(system):
    """The system's storage definition, checked ([] without one)."""
    storage = system.get(STORAGE_KEY)
    return check_storage(storage) if storage else []


def _load_storage(driver, system):
    """The system's storage state: ``volumes`` ({storage id: [volume]}),
    ``pending`` operations waiting for a reset, ``tasks`` ({number:
    task}), ``next`` (the counter of volume and task numbers) and
    ``used_ids`` (the volume ids ever used, deleted ones too). The
    definition's volumes until a client changed something."""
    try:
        return _storage_db(driver)[system['uuid']]
    except KeyError:
        volumes = {c['id']: c['volumes'] for c in _controllers(system)}
        return {'volumes': volumes, 'pending': [], 'tasks': {}, 'next': 1,
                'used_ids': sorted(v['id'] for vs in volumes.values()
                                   for v in vs)}


def _used_volume_ids(system, state):
    """The volume ids that a new volume of the system cannot take: those
    of the definition, those ever used (a state saved before
    ``used_ids`` was kept knows those of its volumes and pending
    operations)."""
    used = set(state.get('used_ids', ()))
    used.update(v['id'] for c in _controllers(system) for v in c['volumes'])
    used.update(v['id'] for vs in state['volumes'].values() for v in vs)
    used.update(op['volume']['id'] for op in state['pending'])
    return used


def _save_storage(driver, system, state):
    _storage_db(driver)[system['uuid']] = state


def arm_storage(driver, system):
    """Mark the system's pending storage operations to apply at the boot
    starting now; whether there are any."""
    if not system.get(STORAGE_KEY):
        return False
    with _storage_lock(system['uuid']):
        state = _load_storage(driver, system)
        if not state['pending']:
            return False
        if not all(op['armed'] for op in state['pending']):
            for op in state['pending']:
                op['armed'] = True
            _save_storage(driver, system, state)
        return True


def apply_armed_storage(driver, system):
    """Apply the storage operations armed for the boot that happened."""
    if not system.get(STORAGE_KEY):
        return
    with _storage_lock(system['uuid']):
        state = _load_storage(driver, system)
        armed = [op for op in state['pending'] if op['armed']]
        if not armed:
            return
        for op in armed:
            volumes = state['volumes'].setdefault(op['storage'], [])
            vid = op['volume']['id']
            task = state['tasks'][op['task']]
            if op['action'] == 'create':
                volumes.append(op['volume'])
                task.update(state='Completed', status='OK',
                            message='Volume %s created' % vid)
            elif any(v['id'] == vid for v in volumes):
                volumes[:] = [v for v in volumes if v['id'] != vid]
                task.update(state='Completed', status='OK',
                            message='Volume %s deleted' % vid)
            else:
                # Not expected: a volume waiting for deletion cannot be
                # deleted otherwise.
                task.update(state='Exception', status='Critical',
                            message='Volume %s no longer exists' % vid)
        state['pending'] = [op for op in state['pending']
                            if not op['armed']]
        _save_storage(driver, system, state)


def _storage_error(status, message, message_id='Base.1.0.GeneralError'):
    """An error answer in Redfish's shape, with extended information
    (sushy shows its Message)."""
    return views.answer(status, {'error': {
        'code': 'Base.1.0.GeneralError', 'message': message,
        '@Message.ExtendedInfo': [{
            '@odata.type': '#Message.v1_0_0.Message',
            'MessageId': message_id, 'Message': message,
            'Severity': 'Warning' if status < 500 else 'Critical'}]}})


def patch_storage(app, applied_at_boot):
    """Give the FakeDriver's systems that define ``storage`` (see
    :func:`make_system`, :func:`check_storage`) RAID controllers whose
    volumes a client creates and deletes, as sushy's client objects and
    Ironic's redfish RAID interface use them.

    The system links Storage; ``Storage/<id>`` shows the controller
    (StorageControllers[0] with SupportedRAIDTypes), its Drives and
    Volumes; the Volumes collection shows the apply times the controller
    supports (``@Redfish.OperationApplyTimeSupport``). A POST of a volume
    (RAIDType, Links.Drives, CapacityBytes (omitted: the most that
    fits), Name, VolumeType (if given, RAIDType's), optional
    ``@Redfish.OperationApplyTime``) is checked against the drives'
    space left by the volumes there and those waiting for a reset (400
    naming the problem). Applied at once (``Immediate``; the default
    where the controller supports it, else its first apply time) it
    answers 201 with the volume's Location; with ``OnReset``, 202 with a
    task monitor (Location) that stays 202 until the volume exists: from
    the machine's next boot (a power-on or a restart; see patch_bios),
    then the task is Completed. A DELETE of a volume answers 204, or
    with ``OnReset`` in its body 202 with a task, the volume going at
    the next boot. As on an iDRAC, a controller has at most one
    ``OnReset`` operation (job) pending: another POST or DELETE with
    ``OnReset`` (given, or the controller's default) on it is refused
    (400, ``Base.1.0.ResourceInUse``: a job is already pending until the
    next reset) until the boot has applied the first; ``Immediate``
    ones go on. Volume ids are never reused (Volume.<n>, skipping every
    id the system ever had). Systems without ``storage`` keep
    sushy-tools' views.
    ``applied_at_boot(driver, uuid)``: the system's record once a due
    boot is applied (the emulator's, whose BIOS patch must be in place:
    its reset hook calls :func:`arm_storage` and its boot
    :func:`apply_armed_storage`).
    """
    import flask
    from sushy_tools.emulator import api_utils

    if 'ironic_like_storage_task' in app.view_functions:
        return
    endpoints = ('storage_collection', 'storage', 'drive_resource',
                 'volumes_collection', 'volume')
    missing = [name for name in endpoints if name not in app.view_functions]
    if missing:
        # sushy-tools changed: fail loudly rather than serve no storage.
        raise RuntimeError('sushy-tools has no %s view; update %s'
                           % (', '.join(missing), __file__))

    def driver():
        return app.systems

    def paths(identity, sid=None):
        system = '/redfish/v1/Systems/%s' % identity
        if sid is None:
            return system
        return '%s/Storage/%s' % (system, sid)

    def status():
        return {'State': 'Enabled', 'Health': 'OK'}

    def apply_time_support(controller):
        return {'@odata.type': '#Settings.v1_3_3.OperationApplyTimeSupport',
                'SupportedValues': list(controller['apply_times'])}

    def volume_body(identity, controller, volume):
        base = paths(identity, controller['id'])
        return {
            '@odata.type': '#Volume.v1_4_0.Volume',
            '@odata.id': '%s/Volumes/%s' % (base, volume['id']),
            'Id': volume['id'], 'Name': volume['name'],
            'RAIDType': volume['raid_type'],
            'VolumeType': RAID_LEVELS[volume['raid_type']].volume_type,
            'CapacityBytes': volume['capacity_bytes'], 'Encrypted': False,
            'Status': status(),
            'Links': {'Drives': [{'@odata.id': '%s/Drives/%s' % (base, d)}
                                 for d in volume['drives']],
                      'Drives@odata.count': len(volume['drives'])},
            '@Redfish.OperationApplyTimeSupport': apply_time_support(
                controller)}

    def task_id(uuid, number):
        return '%s%s-%s' % (_RAID_TASK, number, uuid)

    def task_body(uuid, number, task):
        tid = task_id(uuid, number)
        return {'@odata.type': '#Task.v1_4_3.Task',
                '@odata.id': views.TASKS_PATH + parse.quote(tid),
                'Id': tid, 'Name': 'RAID task %s' % tid,
                'TaskState': task['state'], 'TaskStatus': task['status'],
                'PercentComplete': 0 if task['state'] == 'Pending' else 100,
                'Messages': [{'MessageId': 'Base.1.0.GeneralError'
                              if task['status'] == 'Critical'
                              else 'Base.1.0.Success',
                              'Message': task['message'],
                              'Severity': task['status']}]}

    def queue(system, state, action, sid, volume, message):
        """Queue an operation for the next boot: 202 with its task."""
        number = state['next']
        state['next'] += 1
        state['tasks'][number] = {'state': 'Pending', 'status': 'OK',
                                  'message': message}
        state['pending'].append({'task': number, 'action': action,
                                 'storage': sid, 'volume': volume,
                                 'armed': False})
        _save_storage(driver(), system, state)
        body = task_body(system['uuid'], number, state['tasks'][number])
        return views.answer(202, body, {'Location': body['@odata.id']})

    def refuse_second_job(system, state, sid):
        """_Refused if storage ``sid`` has an operation waiting for the
        next reset already (one job at a time per controller)."""
        for op in state['pending']:
            if op['storage'] == sid:
                raise _Refused(
                    'A job is already pending on storage %s until the next '
                    'reset (task %s: %s); the controller takes one '
                    'OnReset operation at a time'
                    % (sid, task_id(system['uuid'], op['task']),
                       state['tasks'][op['task']]['message']),
                    'Base.1.0.ResourceInUse')

    def requested_apply_time(body, controller):
        wanted = body.get(_APPLY_TIME)
        if wanted is None:
            return ('Immediate' if 'Immediate' in controller['apply_times']
                    else controller['apply_times'][0])
        if wanted not in controller['apply_times']:
            raise _Refused('%s %r is not supported by storage %s '
                           '(supported: %s)'
                           % (_APPLY_TIME, wanted, controller['id'],
                              ', '.join(controller['apply_times'])),
                           'Base.1.0.PropertyValueNotInList')
        return wanted

    def drive_ids(refs, names, sid):
        """The drive ids of Links.Drives, paths of this system's storage
        ``sid`` (the system named by any of ``names``)."""
        if refs is None:
            return None
        if not isinstance(refs, list):
            raise _Refused('Links.Drives must be a list of '
                           '{"@odata.id": <drive path>}',
                           'Base.1.0.PropertyValueTypeError')
        ids = []
        for ref in refs:
            path = ref.get('@odata.id') if isinstance(ref, dict) else None
            if not isinstance(path, str):
                raise _Refused('Links.Drives must be a list of '
                               '{"@odata.id": <drive path>}',
                               'Base.1.0.PropertyValueTypeError')
            parts = [parse.unquote(p) for p in
                     parse.urlsplit(path).path.rstrip('/').split('/')]
            if (len(parts) != 9
                    or parts[1:4] != ['redfish', 'v1', 'Systems']
                    or parts[4] not in names or parts[5] != 'Storage'
                    or parts[6] != sid or parts[7] != 'Drives'):
                raise _Refused('%s is not a drive of storage %s'
                               % (path, sid), 'Base.1.0.ResourceNotFound')
            ids.append(parts[8])
        return ids

    def find(items, ident, what):
        for item in items:
            if item['id'] == ident:
                return item
        raise _Refused('No %s %s' % (what, ident),
                       'Base.1.0.ResourceNotFound', 404)

    def storage_view(endpoint, handler, storage_less=None):
        """Serve ``endpoint`` with ``handler(identity, system,
        controllers, **kwargs)`` for systems defining storage; the
        others get sushy-tools' view (or ``storage_less``)."""
        original = app.view_functions.get(endpoint)

        def view(identity, **kwargs):
            if api_utils.instance_denied(identity=identity):
                return _storage_error(404, 'No system %s' % identity,
                                      'Base.1.0.ResourceNotFound')
            # The uuid (an alias too) first: a due boot applies then.
            system = applied_at_boot(driver(), driver().uuid(identity))
            if not system.get(STORAGE_KEY):
                return (storage_less or original)(identity=identity,
                                                  **kwargs)
            try:
                return handler(identity, system, _controllers(system),
                               **kwargs)
            except _Refused as e:
                return _storage_error(e.status, str(e), e.message_id)

        view.__name__ = 'ironic_like_%s' % endpoint
        return view

    def storage_collection(identity, system, controllers):
        members = [{'@odata.id': paths(identity, c['id'])}
                   for c in controllers]
        return views.answer(200, {
            '@odata.type': '#StorageCollection.StorageCollection',
            '@odata.id': paths(identity) + '/Storage',
            'Name': 'Storage Collection', 'Members': members,
            'Members@odata.count': len(members)})

    def storage(identity, system, controllers, storage_id):
        ctl = find(controllers, storage_id, 'storage')
        base = paths(identity, ctl['id'])
        drives = [{'@odata.id': '%s/Drives/%s' % (base, d['id'])}
                  for d in ctl['drives']]
        return views.answer(200, {
            '@odata.type': '#Storage.v1_8_0.Storage', '@odata.id': base,
            'Id': ctl['id'], 'Name': ctl['name'], 'Status': status(),
            'StorageControllers': [{
                '@odata.id': base + '#/StorageControllers/0',
                'MemberId': '0', 'Name': ctl['name'], 'Status': status(),
                'SpeedGbps': 12,
                'SupportedControllerProtocols': ['PCIe'],
                'SupportedDeviceProtocols': sorted(
                    {d['protocol'] for d in ctl['drives']}),
                'SupportedRAIDTypes': list(ctl['raid_types'])}],
            'Drives': drives, 'Drives@odata.count': len(drives),
            'Volumes': {'@odata.id': base + '/Volumes'}})

    def drive(identity, system, controllers, stg_id, drv_id):
        ctl = find(controllers, stg_id, 'storage')
        drv = find(ctl['drives'], drv_id, 'drive')
        base = paths(identity, ctl['id'])
        state = _load_storage(driver(), system)
        volumes = [{'@odata.id': '%s/Volumes/%s' % (base, v['id'])}
                   for v in state['volumes'].get(ctl['id'], [])
                   if drv['id'] in v['drives']]
        return views.answer(200, {
            '@odata.type': '#Drive.v1_4_0.Drive',
            '@odata.id': '%s/Drives/%s' % (base, drv['id']),
            'Id': drv['id'], 'Name': drv['name'],
            'CapacityBytes': drv['capacity_bytes'],
            'MediaType': drv['media_type'], 'Protocol': drv['protocol'],
            'Status': status(),
            'Links': {'Volumes': volumes,
                      'Volumes@odata.count': len(volumes)}})

    def volumes(identity, system, controllers, storage_id):
        ctl = find(controllers, storage_id, 'storage')
        if flask.request.method == 'POST':
            return create_volume(identity, system, ctl)
        base = paths(identity, ctl['id'])
        state = _load_storage(driver(), system)
        members = [{'@odata.id': '%s/Volumes/%s' % (base, v['id'])}
                   for v in state['volumes'].get(ctl['id'], [])]
        return views.answer(200, {
            '@odata.type': '#VolumeCollection.VolumeCollection',
            '@odata.id': base + '/Volumes', 'Name': 'Volume Collection',
            'Members': members, 'Members@odata.count': len(members),
            '@Redfish.OperationApplyTimeSupport': apply_time_support(ctl)})

    def create_volume(identity, system, ctl):
        body = flask.request.get_json(silent=True)
        if not isinstance(body, dict):
            raise _Refused('The request body must be a JSON object',
                           'Base.1.0.MalformedJSON')
        links = body.get('Links')
        links = {} if links is None else links
        if not isinstance(links, dict):
            raise _Refused('Links must be an object',
                           'Base.1.0.PropertyValueTypeError')
        name = body.get('Name')
        if name is not None and not isinstance(name, str):
            raise _Refused('Name must be a string',
                           'Base.1.0.PropertyValueTypeError')
        if body.get('Encrypted'):
            raise _Refused('Storage %s cannot encrypt volumes' % ctl['id'],
                           'Base.1.0.PropertyValueNotInList')
        names = (identity, system['uuid'], system.get('name'))
        with _storage_lock(system['uuid']):
            state = _load_storage(driver(), system)
            apply_time = requested_apply_time(body, ctl)
            sid = ctl['id']
            if apply_time != 'Immediate':
                refuse_second_job(system, state, sid)
            taken = state['volumes'].get(sid, []) + [
                op['volume'] for op in state['pending']
                if op['storage'] == sid and op['action'] == 'create']
            volume = _plan_volume(
                ctl, taken, body.get('RAIDType'),
                drive_ids(links.get('Drives'), names, sid),
                body.get('CapacityBytes'))
            volume_type = RAID_LEVELS[volume['raid_type']].volume_type
            if body.get('VolumeType', volume_type) != volume_type:
                raise _Refused('VolumeType %s does not match RAIDType %s '
                               '(%s)' % (body['VolumeType'],
                                         volume['raid_type'], volume_type),
                               'Base.1.0.PropertyValueConflict')
            # Ids are never reused, so a task names its volume for good.
            vid, state['next'] = _next_volume_id(
                _used_volume_ids(system, state), state['next'])
            state['used_ids'] = sorted(
                set(state.get('used_ids', ())) | {vid})
            volume.update(id=vid, name=name or vid)
            if apply_time != 'Immediate':
                return queue(system, state, 'create', sid, volume,
                             'Volume %s is created at the next reset'
                             % vid)
            state['volumes'].setdefault(sid, []).append(volume)
            _save_storage(driver(), system, state)
        created = volume_body(identity, ctl, volume)
        return views.answer(201, created, {'Location': created['@odata.id']})

    def volume(identity, system, controllers, stg_id, vol_id):
        ctl = find(controllers, stg_id, 'storage')
        state = _load_storage(driver(), system)
        vol = find(state['volumes'].get(ctl['id'], []), vol_id, 'volume')
        return views.answer(200, volume_body(identity, ctl, vol))

    def delete_volume(identity, system, controllers, stg_id, vol_id):
        ctl = find(controllers, stg_id, 'storage')
        # sushy sends its apply time, if any, in the DELETE's body.
        body = flask.request.get_json(silent=True) or {}
        if not isinstance(body, dict):
            raise _Refused('The request body must be a JSON object',
                           'Base.1.0.MalformedJSON')
        with _storage_lock(system['uuid']):
            state = _load_storage(driver(), system)
            volumes = state['volumes'].get(ctl['id'], [])
            vol = find(volumes, vol_id, 'volume')
            if any(op['action'] == 'delete' and op['volume']['id'] == vol_id
                   for op in state['pending']):
                raise _Refused('Volume %s is already deleted at the next '
                               'reset' % vol_id,
                               'Base.1.0.ResourceInUse')
            if requested_apply_time(body, ctl) != 'Immediate':
                refuse_second_job(system, state, ctl['id'])
                return queue(system, state, 'delete', ctl['id'], vol,
                             'Volume %s is deleted at the next reset'
                             % vol_id)
            volumes.remove(vol)
            _save_storage(driver(), system, state)
        return views.answer(204)

    def no_volume_delete(identity, stg_id, vol_id):
        # As before the patch: sushy-tools has no volume DELETE.
        return _storage_error(405, 'Volumes of system %s cannot be '
                              'deleted' % identity)

    def storage_task(task_ref):
        number, _sep, uuid = task_ref.partition('-')
        try:
            system = applied_at_boot(driver(), uuid)
            task = _load_storage(driver(), system)['tasks'][int(number)]
        except Exception:
            return _storage_error(404, 'No task %s%s'
                                  % (_RAID_TASK, task_ref),
                                  'Base.1.0.ResourceNotFound')
        body = task_body(uuid, int(number), task)
        return views.answer(202 if task['state'] == 'Pending' else 200, body)

    def link_storage(identity, body):
        try:
            system = driver()._get(identity)
        except Exception:
            return
        if system.get(STORAGE_KEY) and 'Storage' not in body:
            body['Storage'] = {'@odata.id': paths(identity) + '/Storage'}

    views.edit_get_answers(app, 'system_resource', link_storage)
    for endpoint, handler in (('storage_collection', storage_collection),
                              ('storage', storage),
                              ('drive_resource', drive),
                              ('volumes_collection', volumes),
                              ('volume', volume)):
        app.view_functions[endpoint] = storage_view(endpoint, handler)
    app.add_url_rule(
        '/redfish/v1/Systems/<identity>/Storage/<stg_id>/Volumes/<vol_id>',
        'ironic_like_volume_delete',
        storage_view('ironic_like_volume_delete', delete_volume,
                     storage_less=no_volume_delete),
        methods=['DELETE'])
    # A static prefix: werkzeug prefers this rule to the firmware tasks'
    # (see patch_firmware_update) for these ids.
    app.add_url_rule(views.TASKS_PATH + _RAID_TASK + '<task_ref>',
                     'ironic_like_storage_task', storage_task,
                     methods=['GET'])
