"""The ``redfish`` raid interface (Ironic's RedfishRAID): hardware RAID
volumes created and deleted through the BMC's Storage resources, out of
band, as the steps Ironic has:

``create_configuration`` (clean step)
    Builds the node's target_raid_config (its root volume or the others,
    as the arguments say; ``delete_existing`` deletes the volumes there
    are first). Where each logical disk goes is planned before anything
    is written (:mod:`ironic_like.drivers.raid_volumes`): a configuration
    that does not fit fails naming the logical disk.
``apply_configuration`` (deploy and service step)
    Sets target_raid_config to its ``raid_config`` and builds it.
``delete_configuration`` (clean, deploy and service step)
    Deletes every volume of the controllers that support RAID.

A volume is created with the apply time the controller's Volumes
collection offers: ``Immediate`` first, else ``OnReset``, when the node
is rebooted so that the controller builds what is pending. The step then
reads the volumes until what it asked for is there (bounded:
APPLY_TIMEOUT; the step holds a conductor worker meanwhile, as the BIOS
steps do), and records them in raid_config (each with its controller,
drives, size, level, and the root volume marked, from which the node's
local_gb and root device hint follow, as for the agent's RAID).

Controllers whose first storage controller lists no SupportedRAIDTypes
are not RAID controllers here: their drives are not used and their
volumes are left alone.
"""

import contextlib
import time

from oslo_log import log
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
APPLY_POLL_INTERVAL = 5

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
        'description': "Setting this to 'False' indicates not to create "
                       "non-root volumes (all except the root volume) in "
                       "'raid_config'. Default value is 'True'.",
        'required': False},
    'delete_existing': {
        'description': "Setting this to 'True' indicates to delete "
                       "existing RAID configuration prior to creating the "
                       "new configuration. Default value is 'True'.",
        'required': False},
}

_LEVEL_OF_TYPE = {entry[0]: level
                  for level, entry in raid_volumes.LEVELS.items()}


class _Layout(object):
    """What the BMC shows of the system's RAID controllers: their sushy
    Storage resources by id, their drives (raid_volumes.Drive), the
    RAIDTypes each supports, each drive's path, and the volumes there
    are ({storage id: [sushy Volume]})."""

    def __init__(self, system):
        self.storages = {}
        self.raid_types = {}
        self.drives = []
        self.paths = {}
        self.volumes = {}
        for storage in system.storage.get_members():
            types = _raid_types(storage)
            if not types:
                continue
            self.storages[storage.identity] = storage
            self.raid_types[storage.identity] = types
            for drive in storage.drives:
                self.paths[drive.identity] = drive.path
                self.drives.append(raid_volumes.Drive(
                    drive.identity, storage.identity,
                    drive.capacity_bytes or 0,
                    (drive.media_type or '').lower() or None,
                    drive.protocol.value.lower() if drive.protocol
                    else None))
            self.volumes[storage.identity] = list(
                storage.volumes.get_members())

    def busy_drives(self):
        """Ids of the drives some volume is on."""
        return {drive for volumes in self.volumes.values()
                for volume in volumes for drive in _volume_drives(volume)}

    def volume_ids(self):
        return {(storage, volume.identity)
                for storage, volumes in self.volumes.items()
                for volume in volumes}


def _raid_types(storage):
    """The RAIDTypes (their Redfish names) the storage's first controller
    supports; empty when it lists none."""
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
    types = getattr(controller, 'raid_types', None) or []
    return {getattr(t, 'value', t) for t in types}


def _volume_drives(volume):
    """The ids of the drives a volume's Links name (the last segment of
    each path); empty when the BMC does not say."""
    links = ((getattr(volume, 'json', None) or {}).get('Links') or {})
    ids = []
    for link in links.get('Drives') or ():
        path = (link or {}).get('@odata.id') or ''
        if path:
            ids.append(path.rstrip('/').rsplit('/', 1)[-1])
    return ids


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


@contextlib.contextmanager
def _errors(info, action):
    with redfish_utils.sushy_errors(info, action,
                                    exception.IronicLikeException):
        yield


class RedfishRAID(redfish._RedfishBMC, base.RAIDInterface):

    def validate_raid_config(self, task, raid_config):
        raid.validate_configuration(raid_config)
        if raid_config:
            raid_volumes.check_levels(raid_config)

    def get_logical_disk_properties(self):
        return raid.logical_disk_properties()

    def check_step(self, task, step):
        """Before the node moves: what a step will build must be a valid
        configuration this interface can build (InvalidParameterValue or
        MissingParameterValue naming target_raid_config), and its flags
        booleans."""
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
            if not config:
                raise exception.InvalidParameterValue(
                    err='raid.apply_configuration requires args.raid_config '
                        '(a target RAID configuration).',
                    field='raid_config')
            self.validate_raid_config(task, config)
            for flag in ('create_root_volume', 'create_nonroot_volumes',
                         'delete_existing'):
                raid.as_bool(args.get(flag, True), flag)

    @base.clean_step(argsinfo=CREATE_ARGSINFO)
    def create_configuration(self, task, create_root_volume=True,
                             create_nonroot_volumes=True,
                             delete_existing=False):
        target = raid.filter_target(task.node, create_root_volume,
                                    create_nonroot_volumes)
        self._build(task, target,
                    raid.as_bool(delete_existing, 'delete_existing'))

    @base.deploy_step(argsinfo=APPLY_ARGSINFO)
    @base.service_step(argsinfo=APPLY_ARGSINFO)
    def apply_configuration(self, task, raid_config,
                            create_root_volume=True,
                            create_nonroot_volumes=True,
                            delete_existing=True):
        self.validate_raid_config(task, raid_config)
        task.update_node({'target_raid_config': raid_config})
        target = raid.filter_target(task.node, create_root_volume,
                                    create_nonroot_volumes)
        self._build(task, target,
                    raid.as_bool(delete_existing, 'delete_existing'))

    @base.deploy_step()
    @base.service_step()
    @base.clean_step()
    def delete_configuration(self, task):
        action = 'deleting the RAID volumes'
        info, system = redfish_utils.get_system(task.node, action=action)
        with _errors(info, action):
            layout = _Layout(system)
        self._delete_all(task, info, layout, action)
        task.update_node(raid.deleted_values(task.node))

    def _delete_all(self, task, info, layout, action):
        """Delete every volume of the RAID controllers; reboot when the
        BMC applies a deletion at the next reset; wait until they are
        gone."""
        doomed = layout.volume_ids()
        if not doomed:
            LOG.info('Node %s: no RAID volume to delete', task.node.uuid)
            return
        reboot = False
        with _errors(info, action):
            for storage_id, volumes in layout.volumes.items():
                apply_time = _apply_time(
                    layout.storages[storage_id].volumes)
                for volume in volumes:
                    LOG.info('Node %s: deleting RAID volume %s of %s '
                             '(apply time %s)', task.node.uuid,
                             volume.identity, storage_id,
                             getattr(apply_time, 'value', 'default'))
                    volume.delete(apply_time=apply_time)
                    reboot |= apply_time == sushy.APPLY_TIME_ON_RESET
        if reboot:
            redfish_utils.reboot_to_apply(task)
        left = self._wait(task, info, action,
                          lambda layout: layout.volume_ids() & doomed)
        if left:
            raise exception.IronicLikeException(
                'Node %s: %s: RAID volumes %s were not deleted within %d s.'
                % (task.node.uuid, redfish_utils.describe(info),
                   ', '.join('%s/%s' % v for v in sorted(left)),
                   APPLY_TIMEOUT))

    def _build(self, task, target, delete_existing):
        action = 'creating RAID volumes'
        info, system = redfish_utils.get_system(task.node, action=action)
        with _errors(info, action):
            layout = _Layout(system)
        if delete_existing:
            self._delete_all(task, info, layout, action)
            _, system = redfish_utils.get_system(task.node, action=action)
            with _errors(info, action):
                layout = _Layout(system)
        planned = raid_volumes.plan(target, layout.drives,
                                    layout.raid_types, layout.busy_drives())
        before = layout.volume_ids()
        reboot = False
        with _errors(info, action):
            for volume in planned:
                collection = layout.storages[volume.storage].volumes
                apply_time = _apply_time(collection)
                payload = {'RAIDType': volume.raid_type,
                           'Links': {'Drives': [
                               {'@odata.id': layout.paths[drive]}
                               for drive in volume.drives]}}
                if volume.size_bytes is not None:
                    payload['CapacityBytes'] = volume.size_bytes
                if volume.disk.get('volume_name'):
                    payload['Name'] = volume.disk['volume_name']
                LOG.info('Node %s: creating a %s volume on %s, drives %s '
                         '(apply time %s)', task.node.uuid,
                         volume.raid_type, volume.storage,
                         ', '.join(volume.drives),
                         getattr(apply_time, 'value', 'default'))
                collection.create(payload, apply_time=apply_time)
                reboot |= apply_time == sushy.APPLY_TIME_ON_RESET
        if reboot:
            redfish_utils.reboot_to_apply(task)

        def missing(layout):
            new = layout.volume_ids() - before
            return len(planned) - len(new) if len(new) < len(planned) \
                else 0

        left = self._wait(task, info, action, missing)
        if left:
            raise exception.IronicLikeException(
                'Node %s: %s: %d of the %d RAID volumes asked for did not '
                'appear within %d s.' % (task.node.uuid,
                                         redfish_utils.describe(info),
                                         left, len(planned),
                                         APPLY_TIMEOUT))
        _, system = redfish_utils.get_system(task.node, action=action)
        with _errors(info, action):
            layout = _Layout(system)
        task.update_node(raid.built_values(
            task.node, {'logical_disks': _logical_disks(layout, planned)},
            timeutils.utcnow()))

    def _wait(self, task, info, action, pending):
        """Read the layout until ``pending(layout)`` is falsy or
        APPLY_TIMEOUT passes; what it last returned. A read that fails
        (a BMC often does while the machine runs its self test) is tried
        again until the deadline."""
        deadline = time.monotonic() + APPLY_TIMEOUT
        while True:
            try:
                _, system = redfish_utils.get_system(task.node,
                                                     action=action)
                with _errors(info, action):
                    left = pending(_Layout(system))
            except exception.IronicLikeException as e:
                if time.monotonic() >= deadline:
                    raise
                LOG.info('Node %s: reading the RAID volumes failed (read '
                         'again): %s', task.node.uuid,
                         exception.safe_message(e))
            else:
                if not left or time.monotonic() >= deadline:
                    return left
            time.sleep(APPLY_POLL_INTERVAL)


def _logical_disks(layout, planned):
    """raid_config's logical disks: every volume of the RAID controllers
    (as Ironic records them: id, name, controller, size_gb, raid_level),
    with its physical disks, and the root volume and volume_name of the
    logical disk it was built for (matched by its drives)."""
    asked = {frozenset(v.drives): v.disk for v in planned}
    disks = []
    for storage_id, volumes in sorted(layout.volumes.items()):
        for volume in volumes:
            drives = _volume_drives(volume)
            raid_type = getattr(volume.raid_type, 'value', None)
            if raid_type not in _LEVEL_OF_TYPE:
                # As Ironic: a volume without a RAID type (or of one
                # Ironic has no level for) is not a logical disk.
                LOG.warning('RAID volume %s of %s has RAID type %s: not '
                            'recorded in raid_config', volume.identity,
                            storage_id, raid_type)
                continue
            disk = {'id': volume.identity, 'name': volume.name,
                    'controller': storage_id,
                    'size_gb': int((volume.capacity_bytes or 0) //
                                   raid_volumes.GiB),
                    'raid_level': _LEVEL_OF_TYPE[raid_type],
                    'physical_disks': drives}
            target = asked.get(frozenset(drives))
            if target is not None:
                if target.get('is_root_volume'):
                    disk['is_root_volume'] = True
                if target.get('volume_name'):
                    disk['volume_name'] = target['volume_name']
            disks.append(disk)
    return disks
