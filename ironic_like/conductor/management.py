"""The node's management interface through the API: its boot device
(GET/PUT /v1/nodes/{id}/management/boot_device, .../supported), a
non-maskable interrupt (PUT .../management/inject_nmi, 1.29) and the
indicators of its components (.../management/indicators, 1.63).

Reads take the node's lock shared, changes exclusive, as Ironic does; an
operation the interface lacks is UnsupportedDriverExtension (400).
"""

from oslo_log import log

from ironic_like.common import exception
from ironic_like.common import indicators
from ironic_like.common import states
from ironic_like.conductor import locks
from ironic_like.drivers import base

LOG = log.getLogger(__name__)


def get_boot_device(context, node_id):
    with locks.acquire(context, node_id, shared=True,
                       purpose='getting boot device') as task:
        management = task.driver.management
        management.validate(task)
        return management.get_boot_device(task)


def get_supported_boot_devices(context, node_id):
    with locks.acquire(context, node_id, shared=True,
                       purpose='getting supported boot devices') as task:
        return list(task.driver.management.get_supported_boot_devices(task))


def _check_boot_device(task, device):
    management = task.driver.management
    management.validate(task)
    supported = management.get_supported_boot_devices(task)
    if supported and device not in supported:
        raise exception.InvalidParameterValue(
            err='Invalid boot device %s specified; node %s supports: %s.'
                % (device, task.node.uuid, ', '.join(supported)),
            field='boot_device')


def set_boot_device(context, node_id, device, persistent=False):
    # Refused requests are refused before the exclusive lock, whose taking
    # alone writes the node row.
    with locks.acquire(context, node_id, shared=True,
                       purpose='checking boot device') as task:
        _check_boot_device(task, device)
    with locks.acquire(context, node_id,
                       purpose='setting boot device') as task:
        _check_boot_device(task, device)
        task.driver.management.set_boot_device(task, device,
                                               persistent=persistent)
        LOG.info('Node %s: boot device set to %s (persistent: %s)',
                 task.node.uuid, device, persistent)


def _check_nmi(task):
    management = task.driver.management
    management.validate(task)
    if type(management).inject_nmi is base.ManagementInterface.inject_nmi:
        raise base.unsupported(task, 'inject_nmi')


def cache_boot_mode(task):
    """Record the boot mode and secure boot state the management
    interface reads in the node's boot_mode and secure_boot fields (API
    1.75), as Ironic's node_cache_boot_mode: an interface that cannot read
    one leaves it unknown (None); a failed read changes nothing and is
    only logged. Called after verify and a deploy (a change through the
    API records its target itself), never by the periodic power sync (no
    BMC call per node and period)."""
    management = task.driver.management
    values = {}
    for field, read in (('boot_mode', management.get_boot_mode),
                        ('secure_boot', management.get_secure_boot_state)):
        try:
            values[field] = read(task)
        except exception.UnsupportedDriverExtension:
            values[field] = None
        except Exception as e:
            LOG.warning('Node %s: its %s could not be read: %s',
                        task.node.uuid, field, exception.safe_message(e))
            return
    changed = {k: v for k, v in values.items()
               if getattr(task.node, k) != v}
    if changed:
        task.update_node(changed)
        LOG.info('Node %s: cached %s', task.node.uuid, changed)


def _start(context, executor, node_id, purpose, work, target):
    # As Ironic's change_node_boot_mode/secure_boot: the interface is
    # validated and the last error cleared under the exclusive lock, the
    # change itself runs in a worker that keeps the lock.
    with locks.acquire(context, node_id, purpose=purpose) as task:
        task.driver.management.validate(task)
        task.update_node({'last_error': None})
        task.set_spawn_error_hook(_not_started, purpose)
        task.spawn_after(executor, work, target)


def _not_started(task, error, purpose):
    task.update_node({'last_error': '%s was not started: %s'
                                    % (purpose.capitalize(), error)})


def _change(task, field, target, read, write, what):
    """Set ``field`` to ``target`` unless the BMC already reports it; a
    failure goes to last_error (the API answered 202 long ago)."""
    try:
        current = read(task)
    except Exception as e:
        current = None
        LOG.warning('Node %s: its %s could not be read before changing '
                    'it: %s', task.node.uuid, what,
                    exception.safe_message(e))
    if current is not None and current == target:
        LOG.info('Node %s: its %s is already %s; nothing to change',
                 task.node.uuid, what, target)
        if getattr(task.node, field) != target:
            task.update_node({field: target})
        return
    try:
        write(task, target)
    except Exception as e:
        if task.lock_lost:
            return  # the node's new owner carries on
        LOG.error('Node %s: changing its %s to %s failed: %s',
                  task.node.uuid, what, target, exception.safe_message(e))
        task.update_node({'last_error': "Failed to change %s to '%s': %s"
                                        % (what, target,
                                           exception.safe_message(e))})
        return
    LOG.info('Node %s: %s changed to %s', task.node.uuid, what, target)
    task.update_node({field: target})


def _do_set_boot_mode(task, mode):
    management = task.driver.management
    _change(task, 'boot_mode', mode, management.get_boot_mode,
            management.set_boot_mode, 'boot mode')


def _do_set_secure_boot(task, state):
    management = task.driver.management
    _change(task, 'secure_boot', state, management.get_secure_boot_state,
            management.set_secure_boot_state, 'secure boot state')


def set_boot_mode(context, executor, node_id, mode):
    if mode not in states.BOOT_MODES:
        raise exception.InvalidParameterValue(
            err='Invalid boot mode %s requested for node. Allowed boot '
                'modes are: %s' % (mode, ', '.join(states.BOOT_MODES)),
            field='target')
    _start(context, executor, node_id, 'changing node boot mode',
           _do_set_boot_mode, mode)


def set_secure_boot_state(context, executor, node_id, state):
    if not isinstance(state, bool):
        raise exception.InvalidParameterValue(
            err='Invalid secure_boot %s requested for node. Allowed '
                'secure_boot states are: True, False' % (state,),
            field='target')
    _start(context, executor, node_id, 'changing node secure boot',
           _do_set_secure_boot, state)


def get_supported_indicators(context, node_id):
    with locks.acquire(context, node_id, shared=True,
                       purpose='listing indicators') as task:
        task.driver.management.validate(task)
        return task.driver.management.get_supported_indicators(task)


def get_indicator_state(context, node_id, component, indicator):
    with locks.acquire(context, node_id, shared=True,
                       purpose='reading an indicator') as task:
        task.driver.management.validate(task)
        return task.driver.management.get_indicator_state(
            task, component, indicator)


def _check_indicator(task, component, indicator, state):
    management = task.driver.management
    management.validate(task)
    supported = management.get_supported_indicators(task)
    indicators.check(supported, component, indicator, state)


def set_indicator_state(context, node_id, component, indicator, state):
    with locks.acquire(context, node_id, shared=True,
                       purpose='checking an indicator') as task:
        _check_indicator(task, component, indicator, state)
    with locks.acquire(context, node_id,
                       purpose='setting an indicator') as task:
        task.driver.management.set_indicator_state(task, component,
                                                   indicator, state)
        LOG.info('Node %s: indicator %s@%s set to %s', task.node.uuid,
                 indicator, component, state)


def inject_nmi(context, node_id):
    with locks.acquire(context, node_id, shared=True,
                       purpose='checking inject nmi') as task:
        _check_nmi(task)
    with locks.acquire(context, node_id, purpose='inject nmi') as task:
        _check_nmi(task)
        task.driver.management.inject_nmi(task)
        LOG.info('Node %s: NMI injected', task.node.uuid)
