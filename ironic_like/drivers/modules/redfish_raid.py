"""The ``redfish`` raid interface (Ironic's RedfishRAID): hardware RAID
volumes created and deleted through the BMC's Storage resources, out of
band, as the steps Ironic has:

``create_configuration`` (clean step)
    Builds the node's target_raid_config (its root volume or the others,
    as the arguments say; ``delete_existing`` deletes the RAID volumes
    there are first).
``apply_configuration`` (deploy and service step)
    Sets target_raid_config to its ``raid_config`` and builds it (the
    arguments' defaults are Ironic's redfish interface's: the root volume
    only, nothing deleted).
``delete_configuration`` (clean, deploy and service step)
    Deletes every RAID volume of the controllers.

Where each logical disk goes is planned before anything is deleted or
written (:mod:`ironic_like.drivers.raid_volumes`): a configuration that
does not fit fails naming the logical disk, and the BMC is not touched.

A volume is created (or deleted) with the apply time the controller's
Volumes collection offers: ``Immediate`` first, else ``OnReset``. An
operation asked for ``OnReset``, or answered with a task (202), waits for
the next reset: one such per controller is asked for at a time (BMCs
queue one job per controller, and Ironic submits them so), and the node
is rebooted so that the controller applies them. After each round the
step reads the volumes until what it asked for is there (bounded:
APPLY_TIMEOUT from the round's submission): at once, then, while it is
not there, polled (drivers.base.Polling: the node waits in clean wait,
service wait or deploy wait with no conductor worker or lock held; the
step's state, JSON in the node's record, is all the next poll needs,
on whichever conductor owns the node then); the next round is
submitted by the poll that finds the last one done. A read the BMC
fails while it restarts is tried again at the next poll, until the
deadline. Once something was written, raid_config is then recorded
from what the BMC shows (after a failure too, if the BMC answers at
once): every RAID volume with its
controller, drives, size and level, and the root volume marked (from
which the node's local_gb and raid_level capability follow, as for the
agent's RAID).

Controllers whose first storage controller lists an empty
SupportedRAIDTypes, or that have no Volumes collection, are not RAID
controllers here: their drives are not used and their volumes are left
alone (one that does not say is taken as building any level, as Ironic
takes it). Volumes without a RAID type are never deleted (Ironic's
rule).
"""

import contextlib
import datetime
from urllib import parse

from oslo_log import log
from oslo_utils import excutils
from oslo_utils import timeutils
import sushy

from ironic_like.common import exception
from ironic_like.drivers import base
from ironic_like.drivers import raid
from ironic_like.drivers import raid_volumes
from ironic_like.drivers.modules import redfish
from ironic_like.drivers.modules import redfish_utils

LOG = log.getLogger(__name__)

# Bound (seconds) of the wait for the controller to show the volumes
# asked for (or to drop the ones deleted): after a reboot, the firmware
# builds them during its power-on self test. Module constants, as the
# BIOS steps' are.
APPLY_TIMEOUT = 600

# The phases of a step's work, in their order.
_DELETE = 'delete'
_CREATE = 'create'

CREATE_ARGSINFO = dict(raid.CREATE_ARGSINFO, delete_existing={
    'description': 'Setting this to `True` indicates to delete existing '
                   'RAID configuration prior to creating the new '
                   'configuration. Default value is `False`.',
    'required': False})

APPLY_ARGSINFO = {
    'raid_config': {'description': 'The RAID configuration to apply.',
                    'required': True},
    'create_root_volume': {
        'description': "Setting this to 'False' indicates not to create "
                       "root volume that is specified in 'raid_config'. "
                       "Default value is 'True'.",
        'required': False},
    'create_nonroot_volumes': {
        'description': "Setting this to 'True' indicates to create "
                       "non-root volumes (all except the root volume) in "
                       "'raid_config'. Default value is 'False' (Ironic's "
                       "redfish interface's).",
        'required': False},
    'delete_existing': {
        'description': "Setting this to 'True' indicates to delete "
                       "existing RAID configuration prior to creating the "
                       "new configuration. Default value is 'False' "
                       "(Ironic's redfish interface's).",
        'required': False},
}

_LEVEL_OF_TYPE = {entry[0]: level
                  for level, entry in raid_volumes.LEVELS.items()}


def _path(value):
    """A resource path as compared here: unquoted, no trailing slash."""
    return parse.unquote(str(value or '')).rstrip('/')


class _Layout(object):
    """What the BMC shows of the system's RAID controllers: their sushy
    Storage resources by id, their drives (raid_volumes.Drive), the
    RAIDTypes each supports (None: it does not say), each drive's path
    by (storage id, drive id), and the volumes there are ({storage id:
    [sushy Volume]})."""

    def __init__(self, system):
        self.storages = {}
        self.raid_types = {}
        self.drives = []
        self.paths = {}
        self._keys = {}
        self.volumes = {}
        for storage in system.storage.get_members():
            types = _raid_types(storage)
            if types is not None and not types:
                continue
            try:
                volumes = list(storage.volumes.get_members())
            except sushy.exceptions.MissingAttributeError:
                continue  # no Volumes collection: nothing to build there
            self.storages[storage.identity] = storage
            self.raid_types[storage.identity] = types
            self.volumes[storage.identity] = volumes
            for drive in storage.drives:
                key = (storage.identity, drive.identity)
                self.paths[key] = drive.path
                self._keys[_path(drive.path)] = key
                self.drives.append(raid_volumes.Drive(
                    drive.identity, storage.identity,
                    drive.capacity_bytes or 0,
                    (drive.media_type or '').lower() or None,
                    drive.protocol.value.lower() if drive.protocol
                    else None))

    def drives_of(self, storage, volume):
        """The (storage id, drive id) of the drives the Links of a volume
        of ``storage`` name (those the layout knows): by path, else by
        the path's last segment among the storage's drives (a BMC may
        link a drive through its chassis)."""
        links = ((getattr(volume, 'json', None) or {}).get('Links') or {})
        keys = []
        for link in links.get('Drives') or ():
            path = _path((link or {}).get('@odata.id'))
            by_id = (storage, path.rsplit('/', 1)[-1])
            key = self._keys.get(path) or (
                by_id if by_id in self.paths else None)
            if key is not None:
                keys.append(key)
        return keys

    def busy_drives(self, kept_only=False):
        """Keys of the drives some volume is on (``kept_only``: volumes
        a deletion keeps, those without a RAID type)."""
        return {key for storage, volumes in self.volumes.items()
                for volume in volumes
                if not kept_only or volume.raid_type is None
                for key in self.drives_of(storage, volume)}

    def raid_volumes(self):
        """[(storage id, sushy Volume)] of the volumes with a RAID type
        (the ones a deletion removes)."""
        return [(storage, volume)
                for storage, volumes in sorted(self.volumes.items())
                for volume in volumes if volume.raid_type is not None]

    def volume_ids(self):
        return {(storage, volume.identity)
                for storage, volumes in self.volumes.items()
                for volume in volumes}


def _raid_types(storage):
    """The RAIDTypes (their Redfish names) the storage's first controller
    supports; None when there is no controller or it does not say."""
    controller = None
    try:
        controllers = storage.controllers
        members = controllers.get_members() if controllers else []
        controller = members[0] if members else None
    except sushy.exceptions.MissingAttributeError:
        pass
    if controller is None:
        listed = storage.storage_controllers or []
        controller = listed[0] if listed else None
    types = getattr(controller, 'raid_types', None)
    if types is None:
        return None
    return {getattr(t, 'value', t) for t in types}


def _apply_time(collection):
    """Immediate when the Volumes collection offers it, else OnReset when
    it offers that, else None (the BMC's default), as Ironic chooses."""
    support = collection.operation_apply_time_support
    values = (support.mapped_supported_values or []) if support else []
    if sushy.APPLY_TIME_IMMEDIATE in values:
        return sushy.APPLY_TIME_IMMEDIATE
    if sushy.APPLY_TIME_ON_RESET in values:
        return sushy.APPLY_TIME_ON_RESET
    return None


def _at_reset(apply_time, answer):
    """Whether an operation waits for the next reset: asked for so, or
    answered with a task (Ironic reboots then too)."""
    return (apply_time == sushy.APPLY_TIME_ON_RESET or
            hasattr(answer, 'task_monitor_uri'))


@contextlib.contextmanager
def _errors(info, action):
    """sushy's errors as the step's: a resource the BMC answers 404 for
    is its lack (a volume gone meanwhile, a controller without one), not
    a wrong redfish_system_id (what sushy_errors says of a 404)."""
    with redfish_utils.sushy_errors(info, action,
                                    exception.IronicLikeException):
        try:
            yield
        except sushy.exceptions.ResourceNotFoundError as e:
            raise exception.IronicLikeException(
                'Node %s: %s: %s failed, the BMC has no such resource: %s'
                % (info['node_uuid'], redfish_utils.describe(info), action,
                   e))


def _start_phase(task, work, layout):
    """Start the first of work['phases'] from ``layout``: the RAID
    volumes to delete, or the planned ones to create (the volumes there
    are before noted, to tell the new ones)."""
    pending = {}
    if work['phases'][0] == _DELETE:
        for storage, volume in layout.raid_volumes():
            pending.setdefault(storage, []).append(volume.identity)
        if not pending:
            LOG.info('Node %s: no RAID volume to delete', task.node.uuid)
    else:
        work['before'] = sorted([storage, ident] for storage, ident
                                in layout.volume_ids())
        for index, volume in enumerate(work['planned']):
            pending.setdefault(volume['storage'], []).append(index)
    work['pending'] = pending
    work['round'] = None


def _late(work):
    """The deadline of the round submitted last has passed."""
    round_ = work.get('round') or {}
    try:
        deadline = datetime.datetime.fromisoformat(round_.get('deadline'))
    except (TypeError, ValueError):
        return True  # none readable: checked once more
    return timeutils.utcnow() >= deadline.replace(tzinfo=None)


def _volume_json(volume):
    """A planned raid_volumes.Volume as the step's state keeps it."""
    return dict(volume._asdict(), drives=list(volume.drives))


def _volume(doc):
    return raid_volumes.Volume(**dict(doc, drives=tuple(doc['drives'])))


def _created(work):
    """The planned volumes the BMC was asked to create."""
    return [_volume(work['planned'][index]) for index in work['created']]


def _target_of(config, node):
    """A stand-in node whose target is ``config`` (for filter_target)."""
    return type('Target', (), {'uuid': node.uuid,
                               'target_raid_config': config})()


class RedfishRAID(redfish._RedfishBMC, base.RAIDInterface):

    def validate_raid_config(self, task, raid_config):
        raid.validate_configuration(raid_config)
        if raid_config:
            raid_volumes.check_levels(raid_config)

    def get_logical_disk_properties(self):
        return raid.logical_disk_properties()

    def check_step(self, task, step):
        """Before the node moves: what a step will build must be a valid
        configuration this interface can build, with something left to
        build once the root or other volumes are skipped
        (InvalidParameterValue or MissingParameterValue naming
        target_raid_config, or raid_config for apply_configuration's),
        and its flags booleans."""
        args = step.get('args') or {}
        name = step.get('step')
        if name == 'create_configuration':
            target = raid.filter_target(
                task.node, args.get('create_root_volume', True),
                args.get('create_nonroot_volumes', True))
            raid_volumes.check_levels(target)
            raid.as_bool(args.get('delete_existing', False),
                         'delete_existing')
        elif name == 'apply_configuration':
            config = args.get('raid_config')
            for flag in ('create_root_volume', 'create_nonroot_volumes',
                         'delete_existing'):
                if flag in args:
                    raid.as_bool(args[flag], flag)
            try:
                if not config:
                    raise exception.InvalidParameterValue(
                        err='raid.apply_configuration requires '
                            'args.raid_config (a target RAID '
                            'configuration).')
                self.validate_raid_config(task, config)
                raid.filter_target(
                    _target_of(config, task.node),
                    args.get('create_root_volume', True),
                    args.get('create_nonroot_volumes', False))
            except (exception.InvalidParameterValue,
                    exception.MissingParameterValue) as e:
                raise type(e)(err=exception.safe_message(e),
                              field='raid_config')

    @base.clean_step(argsinfo=CREATE_ARGSINFO)
    def create_configuration(self, task, create_root_volume=True,
                             create_nonroot_volumes=True,
                             delete_existing=False):
        target = raid.filter_target(task.node, create_root_volume,
                                    create_nonroot_volumes)
        return self._build(task, target,
                           raid.as_bool(delete_existing, 'delete_existing'))

    @base.deploy_step(argsinfo=APPLY_ARGSINFO)
    @base.service_step(argsinfo=APPLY_ARGSINFO)
    def apply_configuration(self, task, raid_config,
                            create_root_volume=True,
                            create_nonroot_volumes=False,
                            delete_existing=False):
        self.validate_raid_config(task, raid_config)
        target = raid.filter_target(_target_of(raid_config, task.node),
                                    create_root_volume,
                                    create_nonroot_volumes)
        task.update_node({'target_raid_config': raid_config})
        return self._build(task, target,
                           raid.as_bool(delete_existing, 'delete_existing'))

    @base.deploy_step()
    @base.service_step()
    @base.clean_step()
    def delete_configuration(self, task):
        action = 'deleting the RAID volumes'
        info, layout = self._read(task, action)
        work = {'action': action, 'phases': [_DELETE], 'planned': [],
                'created': [], 'keep_previous': False,
                'record_on_failure': True}
        return self._carry_on(task, info, layout, work, start=True)

    def poll_step(self, task, step, state):
        """One look at the round the step waits for (``state``: what
        _carry_on kept): the next round submitted once it is over, the
        volumes recorded once none is left (None); Polling meanwhile. A
        read the BMC fails (it restarts after the reset, and may answer
        anything meanwhile) is tried again at the next poll, until the
        round's deadline."""
        work = dict(state)
        try:
            info, layout = self._read(task, work['action'])
        except exception.MissingParameterValue:
            # driver_info lacks what the BMC needs: no later poll reads.
            self._after_failure(task, work)
            raise
        except exception.IronicLikeException as e:
            if not _late(work):
                LOG.info('Node %s: reading the RAID volumes failed (read '
                         'again at the next poll): %s', task.node.uuid,
                         exception.safe_message(e))
                return base.Polling(work)
            self._after_failure(task, work)
            raise
        return self._carry_on(task, info, layout, work)

    def _read(self, task, action):
        info, system = redfish_utils.get_system(task.node, action=action)
        with _errors(info, action):
            return info, _Layout(system)

    def _build(self, task, target, delete_existing):
        action = 'creating RAID volumes'
        info, layout = self._read(task, action)
        # Planned on what will be left: a configuration that does not
        # fit fails before anything is deleted or written.
        planned = raid_volumes.plan(
            target, layout.drives, layout.raid_types,
            layout.busy_drives(kept_only=delete_existing))
        work = {'action': action,
                'phases': ([_DELETE] if delete_existing else []) +
                [_CREATE],
                'planned': [_volume_json(v) for v in planned],
                'created': [], 'keep_previous': not delete_existing,
                'record_on_failure': delete_existing}
        return self._carry_on(task, info, layout, work, start=True)

    def _carry_on(self, task, info, layout, work, start=False):
        """Carry the step's ``work`` on from what the BMC shows
        (``layout``, read now): the round submitted last over, the next
        one submitted (every operation of a controller that applies them
        at once; one per controller, and a reboot, for those applied at
        the next reset), the next phase (the deletion, then the
        creation) started once none is left, raid_config recorded once
        no phase is left (None). Polling while a round is not over;
        raises when the BMC's task failed or the round's deadline
        passed (APPLY_TIMEOUT from its submission), raid_config recorded
        from what the BMC shows if anything was written."""
        try:
            if start:
                _start_phase(task, work, layout)
            while True:
                if work.get('round'):
                    if self._round_left(task, info, layout, work):
                        return base.Polling(work)
                    work['round'] = None
                if any(work['pending'].values()):
                    self._submit_round(task, info, layout, work)
                    try:
                        info, layout = self._read(task, work['action'])
                    except exception.IronicLikeException as e:
                        # Restarting after the reset: read at the poll.
                        LOG.info('Node %s: the RAID volumes could not be '
                                 'read after the round was asked for '
                                 '(read at the next poll): %s',
                                 task.node.uuid, exception.safe_message(e))
                        return base.Polling(work)
                    continue
                work['phases'].pop(0)
                if not work['phases']:
                    self._record(task, layout, _created(work),
                                 keep_previous=work['keep_previous'])
                    return None
                _start_phase(task, work, layout)
        except Exception:
            with excutils.save_and_reraise_exception():
                self._after_failure(task, work)

    def _submit_round(self, task, info, layout, work):
        """Ask the BMC for the next round of the phase's operations;
        reboot when some wait for the next reset."""
        asked, queued, monitors = [], [], []
        pending = work['pending']
        try:
            with _errors(info, work['action']):
                for storage in sorted(pending):
                    items = pending[storage]
                    while items:
                        apply_time = _apply_time(
                            layout.storages[storage].volumes)
                        name, answer = self._operate(
                            task, layout, work, storage, items[0],
                            apply_time)
                        del items[0]
                        if name is None:
                            continue  # nothing asked of the BMC
                        asked.append(name)
                        if hasattr(answer, 'task_monitor_uri'):
                            monitors.append([name,
                                             answer.task_monitor_uri])
                        if _at_reset(apply_time, answer):
                            # One job per controller until the reset
                            # (Ironic's rule too).
                            queued.append(name)
                            break
        except Exception as e:
            if not queued:
                raise
            # Accepted jobs the failure leaves for the BMC's next reset:
            # said, so that what appears later is explained.
            raise exception.IronicLikeException(
                '%s (already accepted by the BMC and applied at its next '
                'reset: %s)' % (exception.safe_message(e),
                                ', '.join(queued)))
        work['round'] = {'asked': asked, 'monitors': monitors,
                         'deadline': (timeutils.utcnow() +
                                      datetime.timedelta(
                                          seconds=APPLY_TIMEOUT)
                                      ).isoformat()}
        if queued:
            LOG.info('Node %s: rebooting for the RAID controller to apply '
                     'what is pending', task.node.uuid)
            redfish_utils.reboot_to_apply(task)

    def _operate(self, task, layout, work, storage, item, apply_time):
        """One operation of the phase: delete volume ``item`` (its id),
        or create planned volume ``item`` (its index in work['planned']).
        (Its name for messages, the BMC's answer.)"""
        if work['phases'][0] == _DELETE:
            volume = {v.identity: v
                      for v in layout.volumes.get(storage, ())}.get(item)
            if volume is None:
                # Gone meanwhile: nothing left to ask (nor to reboot
                # for).
                return None, None
            LOG.info('Node %s: deleting RAID volume %s of %s (apply time '
                     '%s)', task.node.uuid, item, storage,
                     getattr(apply_time, 'value', 'default'))
            return ('%s/%s' % (storage, item),
                    volume.delete(apply_time=apply_time))
        volume = _volume(work['planned'][item])
        payload = {'RAIDType': volume.raid_type,
                   'Links': {'Drives': [
                       {'@odata.id': layout.paths[(storage, d)]}
                       for d in volume.drives]}}
        if volume.size_bytes is not None:
            payload['CapacityBytes'] = volume.size_bytes
        if volume.disk.get('volume_name'):
            payload['Name'] = volume.disk['volume_name']
        LOG.info('Node %s: creating a %s volume on %s, drives %s (apply '
                 'time %s)', task.node.uuid, volume.raid_type, storage,
                 ', '.join(volume.drives),
                 getattr(apply_time, 'value', 'default'))
        answer = layout.storages[storage].volumes.create(
            payload, apply_time=apply_time)
        work['created'].append(item)
        return ('%s on %s/%s' % (volume.raid_type, storage,
                                 '+'.join(volume.drives)), answer)

    def _round_left(self, task, info, layout, work):
        """What of the round is not done yet, as the BMC shows it now
        (empty: the round is over); raises when one of its tasks ended
        badly (at once, with its messages) or when something is still
        not done at the round's deadline."""
        round_ = work['round']
        for name, uri in round_['monitors']:
            failure = redfish_utils.task_failure(
                redfish_utils.task_monitor(task.node, uri))
            if failure:
                raise exception.IronicLikeException(
                    'Node %s: %s: %s failed: %s: the BMC\'s task %s' % (
                        task.node.uuid, redfish_utils.describe(info),
                        work['action'], name, failure))
        asked = set(round_['asked'])
        if work['phases'][0] == _DELETE:
            # A controller missing from what the BMC shows (read while
            # it restarts) proves nothing gone.
            if {name.split('/', 1)[0] for name in asked} - \
                    set(layout.storages):
                left = asked
            else:
                left = {'%s/%s' % key for key in layout.volume_ids()} & \
                    asked
        else:
            # The round's volumes are there once as many new ones as
            # were asked for so far are.
            new = layout.volume_ids() - {tuple(key)
                                         for key in work['before']}
            left = set() if len(new) >= len(work['created']) else asked
        if left and _late(work):
            raise exception.IronicLikeException(
                'Node %s: %s: RAID volumes were not %s within %d s: %s.'
                % (task.node.uuid, redfish_utils.describe(info),
                   'deleted' if work['phases'][0] == _DELETE
                   else 'created', APPLY_TIMEOUT,
                   ', '.join(sorted(left))))
        return left

    def _after_failure(self, task, work):
        """The step failed after writing (or while deleting): what the
        BMC shows is recorded (so that raid_config names the volumes
        made, and a second run does not build them again) if it answers
        at once; the step's own error is the one reported."""
        if not (work.get('created') or work.get('record_on_failure')):
            return
        try:
            self._record(task, self._read(task, work['action'])[1],
                         _created(work),
                         keep_previous=work['keep_previous'])
        except Exception as e:
            LOG.warning('Node %s: raid_config not updated after the failed '
                        'RAID step: %s', task.node.uuid,
                        exception.safe_message(e))

    def _record(self, task, layout, created, keep_previous=True):
        """raid_config from what the BMC shows (``layout``, read last),
        the root volume (and volume_name) of the logical disks
        ``created`` (raid_volumes Volumes) marked on the volumes built
        for them, those of the volumes recorded before kept
        (``keep_previous``: none were deleted; a BMC may give a new
        volume a deleted one's id)."""
        previous = {}
        if keep_previous:
            # By controller and id: ids repeat across controllers.
            previous = {(d.get('controller'), d.get('id')): d for d in
                        ((task.node.raid_config or {}).get('logical_disks')
                         or ()) if isinstance(d, dict)}
        marks = _match(layout, created)
        if any(m.get('is_root_volume') for m in marks.values()):
            # A new root volume: an earlier one is the root no more.
            previous = {k: dict(v, is_root_volume=False)
                        for k, v in previous.items()}
        disks = []
        for storage, volume in layout.raid_volumes():
            raid_type = getattr(volume.raid_type, 'value', None)
            if raid_type not in _LEVEL_OF_TYPE:
                LOG.warning('RAID volume %s of %s has RAID type %s: not '
                            'recorded in raid_config', volume.identity,
                            storage, raid_type)
                continue
            disk = {'id': volume.identity, 'name': volume.name,
                    'controller': storage,
                    'size_gb': int((volume.capacity_bytes or 0) //
                                   raid_volumes.GiB),
                    'raid_level': _LEVEL_OF_TYPE[raid_type],
                    'physical_disks': [d for _s, d in
                                       layout.drives_of(storage, volume)]}
            mark = marks.get((storage, volume.identity)) or \
                previous.get((storage, volume.identity)) or {}
            if mark.get('is_root_volume'):
                disk['is_root_volume'] = True
            if mark.get('volume_name'):
                disk['volume_name'] = mark['volume_name']
            disks.append(disk)
        task.update_node(raid.built_values(
            task.node, {'logical_disks': disks}, timeutils.utcnow()))


def _match(layout, created):
    """{(storage id, volume id): the logical disk} for the volumes built
    for ``created``: each planned volume matched once, to a volume on
    its drives of its RAID type, its name (volume_name) or size first
    when several are (logical disks sharing drives)."""
    marks, taken = {}, set()
    for planned in created:
        keys = {(planned.storage, d) for d in planned.drives}
        candidates = [
            (storage, volume)
            for storage, volume in layout.raid_volumes()
            if storage == planned.storage and
            (storage, volume.identity) not in taken and
            getattr(volume.raid_type, 'value', None) == planned.raid_type
            and set(layout.drives_of(storage, volume)) == keys]

        def rank(item, planned=planned):
            # Its name first; then the nearest size (controllers round
            # sizes), a MAX one the largest.
            volume = item[1]
            named = planned.disk.get('volume_name')
            capacity = volume.capacity_bytes or 0
            return (0 if named and volume.name == named else 1,
                    -capacity if planned.size_bytes is None
                    else abs(capacity - planned.size_bytes))
        if candidates:
            storage, volume = sorted(candidates, key=rank)[0]
            taken.add((storage, volume.identity))
            marks[(storage, volume.identity)] = planned.disk
    return marks
