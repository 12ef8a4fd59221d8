"""The IPA commands a virtual agent runs, and their result documents.

Handlers take the agent and the command's parameters and return the
command result; disk and accelerator work is the agent's
(VirtualAgent.write_image, erase, program_accelerator,
erase_accelerator). COMMANDS maps IPA's command names to (handler,
asynchronous).
"""

import base64
import io
import tarfile
import threading
import time
import uuid

RUNNING = 'RUNNING'
SUCCEEDED = 'SUCCEEDED'
FAILED = 'FAILED'


class CommandError(Exception):
    """A command failed; serialized the way IPA serializes its errors."""

    def __init__(self, kind, message, code=500):
        super(CommandError, self).__init__(message)
        self.kind = kind
        self.message = message
        self.code = code

    def serialize(self):
        return {'type': self.kind, 'code': self.code,
                'message': self.message, 'details': self.message}


class BusyError(Exception):
    pass


class UnknownCommand(Exception):
    pass


class Command(object):

    def __init__(self, name, params):
        self.id = str(uuid.uuid4())
        self.name = name
        self.params = params
        self.status = RUNNING
        self.error = None
        self.result = None
        self.done = threading.Event()

    def finish(self, result=None, error=None):
        if self.done.is_set():
            return  # abandoned earlier (power off): first outcome wins
        if error is not None:
            self.status = FAILED
            self.error = error.serialize()
        else:
            self.status = SUCCEEDED
            self.result = result
        self.done.set()

    def serialize(self):
        return {'id': self.id, 'command_name': self.name,
                'command_status': self.status,
                'command_error': self.error,
                'command_result': self.result}


# ------------------------------------------------------------ the commands
_GENERIC = 'GenericHardwareManager'
_HW_VERSION = {'generic_hardware_manager': '1.2'}

CLEAN_STEPS = [
    {'step': 'erase_devices', 'priority': 10, 'interface': 'deploy',
     'reboot_requested': False, 'abortable': True},
    {'step': 'erase_devices_metadata', 'priority': 0,
     'interface': 'deploy', 'reboot_requested': False, 'abortable': True},
    {'step': 'update_firmware', 'priority': 0, 'interface': 'deploy',
     'reboot_requested': False, 'abortable': False,
     'argsinfo': {'firmware_images': {
         'description': 'list of {url, checksum, component, version}',
         'required': False}}},
    {'step': 'apply_bios_settings', 'priority': 0, 'interface': 'deploy',
     'reboot_requested': False, 'abortable': False,
     'argsinfo': {'settings': {
         'description': 'list of {name, value}', 'required': True}}},
    # IPA's software RAID (GenericHardwareManager), for nodes with the
    # "agent" raid interface.
    {'step': 'delete_configuration', 'priority': 0, 'interface': 'raid',
     'reboot_requested': False, 'abortable': True},
    {'step': 'create_configuration', 'priority': 0, 'interface': 'raid',
     'reboot_requested': False, 'abortable': True},
]

DEPLOY_STEPS = [
    {'step': 'apply_configuration', 'priority': 0, 'interface': 'raid',
     'reboot_requested': False,
     'argsinfo': {'raid_config': {'required': True,
                                  'description': 'RAID configuration'},
                  'delete_existing': {'required': False,
                                      'description': 'delete it first'}}},
    {'step': 'write_image', 'priority': 80, 'interface': 'deploy',
     'reboot_requested': False,
     'argsinfo': {'image_info': {'required': True,
                                 'description': 'image to write'},
                  'configdrive': {'required': False,
                                  'description': 'config drive'}}},
]


def _prepare_image(agent, params):
    image_info = params.get('image_info')
    if not isinstance(image_info, dict):
        raise CommandError('InvalidCommandParamsError',
                           'image_info is required', 400)
    root_uuid = agent.write_image(image_info, params.get('configdrive'))
    return {'result': 'prepare_image: image (%s) written to device %s '
                      'root_uuid=%s' % (image_info.get('id'),
                                        agent.disk_path, root_uuid)}


def _get_partition_uuids(agent, params):
    with agent.lock:
        root = agent.root_uuid
        configdrive = agent.records.get('configdrive')
    return {'root uuid': root, 'efi system partition uuid': None,
            'partitions': {'root': root,
                           'configdrive': (agent.configdrive_path
                                           if configdrive else None)}}


def _get_clean_steps(agent, params):
    return {'clean_steps': {_GENERIC: [dict(s) for s in CLEAN_STEPS]},
            'hardware_manager_version': _HW_VERSION}


def _get_deploy_steps(agent, params):
    return {'deploy_steps': {_GENERIC: [dict(s) for s in DEPLOY_STEPS]},
            'hardware_manager_version': _HW_VERSION}


def _get_service_steps(agent, params):
    # IPA offers the hardware managers' steps for servicing too, its
    # software RAID's apply_configuration among them.
    return {'service_steps': {_GENERIC: [dict(s) for s in CLEAN_STEPS] + [
        dict(DEPLOY_STEPS[0])]},
            'hardware_manager_version': _HW_VERSION}


def _execute_service_step(agent, params):
    """IPA's service extension: the same steps as cleaning (and the
    software RAID's apply_configuration), reported as service_result."""
    step = params.get('step') or {}
    if (step.get('interface'), step.get('step')) == (
            'raid', 'apply_configuration'):
        result = _create_raid(agent, {'target_raid_config': (
            step.get('args') or {}).get('raid_config')})
    else:
        try:
            result = _execute_clean_step(agent, params)['clean_result']
        except CommandError as e:
            if e.kind != 'UnknownCleanStep':
                raise
            raise CommandError('UnknownServiceStep',
                               'Service step %s is not supported by the '
                               'agent' % step.get('step'), 400)
    return {'service_result': result, 'service_step': step}


def _execute_clean_step(agent, params):
    step = params.get('step') or {}
    name = step.get('step')
    args = step.get('args') or {}
    if name == 'erase_devices':
        result = {'erased_bytes': agent.erase()}
    elif name == 'erase_devices_metadata':
        result = {'erased_bytes': agent.erase()}
    elif name == 'update_firmware':
        with agent.lock:
            agent.records['firmware'].append(
                {'args': args, 'at': time.time()})
        result = 'firmware updated'
    elif name == 'apply_bios_settings':
        with agent.lock:
            agent.records['bios'].append({'args': args, 'at': time.time()})
        result = 'BIOS settings applied'
    elif name == 'create_configuration':
        result = _create_raid(agent, params.get('node') or {})
    elif name == 'delete_configuration':
        with agent.lock:
            agent.records['raid'] = None
        result = {}
    else:
        raise CommandError('UnknownCleanStep',
                           'Clean step %s is not supported by the agent'
                           % name, 400)
    return {'clean_result': result, 'clean_step': step}


def _create_raid(agent, node):
    """Software RAID as IPA builds it from the target the conductor sent
    (node.target_raid_config): the logical disks as md devices over the
    machine's disk; returns the configuration built, which the conductor
    records as the node's raid_config."""
    target = node.get('target_raid_config') or {}
    disks = target.get('logical_disks')
    if not disks:
        raise CommandError('InvalidCommandParamsError',
                           'no target_raid_config to build', 400)
    built = []
    for index, disk in enumerate(disks):
        logical = dict(disk, controller='software',
                       physical_disks=[agent.disk_path])
        if disk.get('is_root_volume'):
            logical.setdefault('root_device_hint',
                               {'name': '/dev/md%d' % index})
        built.append(logical)
    with agent.lock:
        agent.records['raid'] = {'logical_disks': built, 'at': time.time()}
    return {'logical_disks': built}


def _execute_deploy_step(agent, params):
    step = params.get('step') or {}
    if not step.get('step'):
        raise CommandError('InvalidCommandParamsError',
                           'step is required', 400)
    if step.get('step') == 'write_image':
        result = _prepare_image(agent, step.get('args') or {})
    elif (step.get('interface'), step.get('step')) == (
            'raid', 'apply_configuration'):
        result = _create_raid(agent, {'target_raid_config': (
            step.get('args') or {}).get('raid_config')})
    else:
        # A deploy template's step (the conductor's deploy-run-steps):
        # recorded, so that lab checks can see it ran, and done.
        with agent.lock:
            agent.records.setdefault('deploy_steps', []).append(
                {'step': step.get('step'),
                 'interface': step.get('interface'),
                 'args': step.get('args') or {}, 'at': time.time()})
        result = 'deploy step %s done' % step.get('step')
    return {'deploy_result': result, 'deploy_step': step}


def _power_off(agent, params):
    agent.sim.scheduler.call_later(0.2, agent.power_off)
    return {'result': 'powering off'}


def _reboot(agent, params):
    agent.sim.scheduler.call_later(0.2, agent.boot)
    return {'result': 'rebooting'}


def _sync(agent, params):
    return {'result': 'sync completed'}


def _install_bootloader(agent, params):
    return {'result': 'bootloader installed (simulated)'}


def _collect_system_logs(agent, params):
    with agent.lock:
        text = '\n'.join(agent.events) + '\n'
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode='w:gz') as tar:
        data = text.encode()
        info = tarfile.TarInfo('agent.log')
        info.size = len(data)
        info.mtime = int(time.time())
        tar.addfile(info, io.BytesIO(data))
    return {'system_logs': base64.b64encode(buf.getvalue()).decode()}


def _get_hardware_info(agent, params):
    return agent.current_inventory()


def _finalize_rescue(agent, params):
    return agent.finalize_rescue(params)


def _program_accelerator(agent, params):
    return agent.program_accelerator(params)


def _erase_accelerator(agent, params):
    return agent.erase_accelerator(params)


# name -> (handler, asynchronous)
COMMANDS = {
    'standby.prepare_image': (_prepare_image, True),
    'standby.get_partition_uuids': (_get_partition_uuids, False),
    'standby.power_off': (_power_off, True),
    'standby.run_image': (_reboot, True),
    'standby.sync': (_sync, False),
    'image.install_bootloader': (_install_bootloader, True),
    'clean.get_clean_steps': (_get_clean_steps, False),
    'clean.execute_clean_step': (_execute_clean_step, True),
    'service.get_service_steps': (_get_service_steps, False),
    'service.execute_service_step': (_execute_service_step, True),
    'deploy.get_deploy_steps': (_get_deploy_steps, False),
    'deploy.execute_deploy_step': (_execute_deploy_step, True),
    'log.collect_system_logs': (_collect_system_logs, False),
    'poll.get_hardware_info': (_get_hardware_info, False),
    # Synchronous, as the conductor programs an FPGA while the image is
    # being written (standby.prepare_image running).
    'accelerator.program': (_program_accelerator, False),
    'accelerator.erase': (_erase_accelerator, False),
    # Synchronous, as IPA's: the conductor waits for the password to be
    # set before the node counts as rescued.
    'rescue.finalize_rescue': (_finalize_rescue, False),
}
