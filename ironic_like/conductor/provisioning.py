"""Provision state changes: the API's actions, driven through the one
state machine in common/states.py.

The RPC call validates, moves the node into the transient state and
returns; the driver work runs in a worker thread holding the node lock.
"""

from oslo_log import log

from ironic_like.common import deploy_templates
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import bios
from ironic_like.conductor import firmware
from ironic_like.conductor import instance_images
from ironic_like.conductor.flows import clean
from ironic_like.conductor.flows import deploy
from ironic_like.conductor.flows import interface_steps
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor.flows import polled_steps
from ironic_like.conductor.flows import reserved_steps
from ironic_like.conductor.flows import runner
from ironic_like.conductor import inspection
from ironic_like.conductor import locks
from ironic_like.conductor import management
from ironic_like.conductor import node_flags
from ironic_like.conductor import rescue
from ironic_like.conductor import servicing
from ironic_like.db import api as db_api
from ironic_like.drivers import base as drivers_base

LOG = log.getLogger(__name__)


# Default of _move's last_error: leave the column alone, so that a new
# action's explicit last_error=None clears the previous action's error.
_KEEP = node_steps.KEEP
AFTER_HOLD = servicing.AFTER_HOLD


def _move(task, event, target=None, last_error=_KEEP, keep_target=False,
          info=None):
    return node_steps.move(task, event, target=target,
                           last_error=last_error, keep_target=keep_target,
                           info=info)


def do_provisioning_action(context, executor, node_id, event, params):
    if event == 'abort' and _abort_running_work(node_id):
        return
    with locks.acquire(context, node_id,
                       purpose='provisioning: %s' % event) as task:
        node = task.node
        if not states.is_allowed(node.provision_state, event) or \
                event in states.INTERNAL_EVENTS:
            raise exception.InvalidStateRequested(
                action=event, node=node.uuid, state=node.provision_state)
        node_flags.check_action(node, event)
        if node.maintenance and event in ('deploy', 'rebuild', 'provide',
                                          'clean', 'manage', 'rescue',
                                          'unrescue'):
            raise exception.InvalidState(
                'Node %s is in maintenance; remove it from maintenance '
                'before "%s".' % (node.uuid, event))
        if event == 'abort':
            aborted = node.provision_state
            # The steps kept after a hold and NO_RAMDISK (left over,
            # they would send a later hold's "unhold" down the path
            # without the agent) go, and a polled step is polled no more
            # (what the BMC was asked to do goes on there): in the
            # abort's own write.
            polled_steps.abandon(task)
            _move(task, 'abort', last_error='Aborted by request.',
                  info=without_leftovers(node.driver_internal_info))
            if aborted == states.SERVICEFAIL:
                # Back to active: the instance boots again.
                task.spawn_after(executor, servicing.boot_instance_again)
            elif aborted == states.INSPECTWAIT:
                inspection.abort(task)
            elif aborted == states.RESCUEWAIT:
                rescue.abort(task)
            elif _runs_flows(task):
                runner.abort(task)
            return
        if event == 'manage' and node.provision_state == states.MANAGEABLE:
            return
        if event == 'unhold':
            without_ramdisk = (node.driver_internal_info or {}).get(
                servicing.NO_RAMDISK)
            if _runs_flows(task) and not without_ramdisk:
                runner.unhold(task)
                return
            # Nothing heartbeats here (no node flows, or servicing without
            # the ramdisk): carry on at once, in a worker.
            held = node.provision_state
            _move(task, 'unhold', keep_target=True)
            _move(task, 'resume', keep_target=True)
            task.set_spawn_error_hook(_not_started, held, event)
            task.spawn_after(executor, carry_on_after_hold)
            return
        if states.next_state(node.provision_state, event) not in \
                states.TRANSIENT_STATES:
            # E.g. manage from available or clean failed: the node is in
            # its new stable state at once, with no worker (whose 'done'
            # would find no transient state to leave).
            _move(task, event, target=None, last_error=None)
            return
        if event in ('deploy', 'rebuild'):
            # Before the node moves: requested traits the node lacks are
            # the request's fault (400), and the steps the deploy's
            # templates add are recorded for the deploy to run and the
            # API to show.
            checked = {}
            if _runs_flows(task):
                # A Glance image the requester may not use, a file://
                # image not allowed: 400 now (before anything is written),
                # not a failed deploy. What was checked is recorded: the
                # deploy fetches that image, not one PATCHed in meanwhile.
                checked = instance_images.check_request(task)
            deploy.deploy_steps(task, _runs_flows(task),
                                (params or {}).get('deploy_steps'))
            if checked:
                task.update_node({'driver_internal_info': dict(
                    task.node.driver_internal_info or {}, **checked)})
        if event in ('clean', 'service'):
            _check_steps(node, event, params or {})
            if (params or {}).get('disable_ramdisk'):
                # The agent's steps are refused by _check_steps; the
                # node's own out-of-band ones still have their
                # arguments checked (check_agent_steps does otherwise).
                for step in (params or {}).get('%s_steps' % event) or ():
                    interface_steps.check_out_of_band(
                        task, step, event, '%s_steps' % event)
        if event in ('clean', 'service') and \
                not (params or {}).get('disable_ramdisk'):
            # Steps that nothing would run, before the node moves (400).
            clean.check_agent_steps(
                task, (params or {}).get('%s_steps' % event),
                '%s_steps' % event, event, with_agent=_runs_flows(task))
        if event == 'inspect':
            # A node that cannot be inspected is refused (400), not
            # failed in the background.
            inspection.validate(task)
        if event in rescue.EVENTS:
            # Likewise a node without a rescue interface (400, as
            # Ironic's UnsupportedDriverExtension) or a missing password.
            rescue.validate(task, event, params)
        target = states.target_for(event, node.provision_state)
        previous = node.provision_state
        # New work: nothing left by an earlier one (the steps kept after
        # a hold or a polled step, their no-agent flag, a polled record
        # a crash left) may steer it; dropped in the write that starts it.
        info = without_leftovers(task.node.driver_internal_info)
        _move(task, event, target=target, last_error=None, info=info)
        task.set_spawn_error_hook(_not_started, previous, event)
        task.spawn_after(executor, _WORKERS[event], params or {})


def without_leftovers(info):
    """driver_internal_info without what a work kept for its own
    carrying on (the steps after a hold or a polled step, the no-agent
    flag, the polled record); None when there is none: nothing to
    write."""
    info = info or {}
    if not any(key in info for key in (AFTER_HOLD, servicing.NO_RAMDISK,
                                       polled_steps.KEY)):
        return None
    info = polled_steps.without_record(info)
    info.pop(AFTER_HOLD, None)
    info.pop(servicing.NO_RAMDISK, None)
    return info


def _abort_running_work(node_id):
    """An abort of a node whose work runs in a worker of this conductor:
    that work stops at the end of its current step and aborts the node
    then. False when there is no such work (abort under the lock)."""
    node = db_api.get_instance().get_node_by_id(node_id)
    if not states.is_allowed(node.provision_state, 'abort'):
        raise exception.InvalidStateRequested(
            action='abort', node=node.uuid, state=node.provision_state)
    return runner.request_abort(node_id)


def _runs_flows(task):
    """The node's deploy interface is run as the node flows of
    conductor/flows (the agent deploy), which move the node through its
    states themselves."""
    return drivers_base.runs_flows(task.driver.deploy)


def _not_started(task, error, previous, event):
    # The worker was refused: without this the node stayed in the
    # transient state with nobody working on it.
    task.update_node({'provision_state': previous,
                      'target_provision_state': None,
                      'last_error': '"%s" was not started: %s'
                                    % (event, error)})


def _fail(task, error, what):
    if task.lock_lost:
        return  # the node's new owner carries on; nothing more to write
    LOG.warning('%s of node %s failed: %s', what, task.node.uuid, error)
    _move(task, 'fail', last_error='%s failed: %s' % (what, error))


def _verify(task, params):
    try:
        task.driver.power.validate(task)
        power_state = task.driver.power.get_power_state(task)
        task.update_node({'power_state': power_state})
    except Exception as e:
        _fail(task, e, 'Verification')
        return
    # As Ironic: a verified node's BIOS settings, firmware versions, boot
    # mode and secure boot state are read (never fails).
    bios.cache_settings(task)
    firmware.cache_components(task)
    management.cache_boot_mode(task)
    _move(task, 'done')


def _check_steps(node, event, params):
    """The steps of a manual cleaning or a servicing, refused (400)
    before the node moves: what no node can run, and with
    disable_ramdisk what needs the agent."""
    field = '%s_steps' % event
    steps = params.get(field) or []
    no_ramdisk = bool(params.get('disable_ramdisk'))
    reserved_steps.check_request(node, steps, field, no_ramdisk)
    if no_ramdisk:
        _check_no_ramdisk_steps(node, steps, event, field)


def _check_no_ramdisk_steps(node, steps, kind, field):
    """Manual cleaning (API 1.70) or servicing (1.108) with
    disable_ramdisk boots no agent: only the conductor's own steps (a
    "hold", a "wait", a power step, a step on child nodes) and the
    out-of-band steps of the node's interfaces marked as not requiring
    the ramdisk can run, as Ironic refuses a step that needs it."""
    for step in steps:
        if not interface_steps.needs_ramdisk(node, step, kind):
            continue
        raise exception.InvalidParameterValue(
            err='%s step %s.%s requires the agent ramdisk, which '
                'disable_ramdisk skips.' % (kind.capitalize(),
                                            step.get('interface'),
                                            step.get('step')),
            field=field)


def _clean(task, params):
    manual = task.node.target_provision_state == states.MANAGEABLE
    requested = params.get('clean_steps')
    if not manual and node_flags.skip_automated_clean(task.node):
        LOG.info('Node %s: automated cleaning is off; not cleaned',
                 task.node.uuid)
        node_flags.finish_cleaning(task)
        return
    if _runs_flows(task) and not (manual and interface_steps.without_ramdisk(
            task.node, params, requested, 'clean')):
        try:
            runner.start_clean(task, requested)
        except Exception as e:
            _fail(task, e, 'Cleaning')
        return
    # Up to the first "hold" step (API 1.85); the rest after unhold.
    steps, after_hold = node_steps.split_at_hold(requested)
    try:
        if steps is None:
            # Automated cleaning without the agent: the out-of-band
            # steps of the node's interfaces above priority 0 (by their
            # marks and [conductor]clean_step_priority_override), then
            # the deploy interface's own.
            requested = clean.automated_steps(
                [], out_of_band=interface_steps.automated_out_of_band(
                    task.node))
            result = reserved_steps.run_without_agent(task, requested,
                                                      kind='clean')
            if not isinstance(result, reserved_steps.Paused):
                result = task.driver.deploy.clean(task, None)
        else:
            # No agent here: the conductor runs its steps, the deploy
            # interface without node flows (fake) the others.
            result = reserved_steps.run_without_agent(
                task, steps,
                None if _runs_flows(task) else task.driver.deploy.clean,
                kind='clean')
            if not manual and result is None:
                # The rest of an automated cleaning after a polled step:
                # the deploy interface's own cleaning last, as above.
                result = task.driver.deploy.clean(task, None)
    except Exception as e:
        _fail(task, e, 'Cleaning')
        return
    if isinstance(result, reserved_steps.Paused):
        servicing.wait_for_polled_step(task, 'clean', result, requested)
        return
    if after_hold is not None and result != states.CLEANWAIT:
        # Nothing heartbeats: "unhold" carries on at once, without the
        # agent (servicing.NO_RAMDISK), as the steps before it ran.
        node_steps.set_info(task, **{AFTER_HOLD: after_hold,
                                     servicing.NO_RAMDISK: True})
        _move(task, 'hold', keep_target=True)
        return
    if result == states.CLEANWAIT:
        _move(task, 'wait', keep_target=True)
        return
    if task.node.target_provision_state == states.MANAGEABLE:
        # Manual cleaning returns where it came from, not to available.
        task.update_node({'provision_state': states.MANAGEABLE,
                          'target_provision_state': None})
    else:
        node_flags.finish_cleaning(task)


def carry_on_after_hold(task):
    """Manual cleaning, servicing or a deploy by an interface without
    node flows, released from its hold (or done with a polled step,
    conductor/step_polling.py): the steps after it."""
    info = task.node.driver_internal_info or {}
    steps = info.get(AFTER_HOLD) or []
    no_ramdisk = bool(info.get(servicing.NO_RAMDISK))
    node_steps.set_info(task, **{AFTER_HOLD: None,
                                 servicing.NO_RAMDISK: None})
    if task.node.provision_state == states.SERVICING:
        servicing.start(task, {'service_steps': steps,
                               'disable_ramdisk': no_ramdisk})
    elif task.node.provision_state == states.DEPLOYING:
        _deploy_steps_then_boot(task, steps)
    else:
        _clean(task, {'clean_steps': steps, 'disable_ramdisk': no_ramdisk})


def _deploy(task, params):
    if _runs_flows(task):
        try:
            runner.start_deploy(task, params.get('configdrive'))
        except Exception as e:
            _fail(task, e, 'Deploy')
        return
    try:
        task.driver.boot.prepare_ramdisk(task)
    except Exception as e:
        _fail(task, e, 'Deploy')
        return
    _deploy_steps_then_boot(task, (task.node.driver_internal_info or {})
                            .get(deploy_templates.STEPS))


def _interface_deploy(task, steps):
    """run_others() of a deploy without node flows: the deploy
    interface's own deploy() for its built-in step (as Ironic runs it,
    at its priority); the result it returns (states.DEPLOYWAIT: the rest
    on a callback)."""
    result = None
    for step in steps:
        if deploy_templates.is_builtin(step, deploy.NO_FLOWS_BUILT_IN_STEPS):
            try:
                result = task.driver.deploy.deploy(task)
            except Exception as e:
                # Named as the conductor's steps are (last_error).
                raise exception.IronicLikeException(
                    'step deploy: %s' % exception.safe_message(e))
        else:
            LOG.info('Node %s: deploy step %s.%s skipped (no agent runs it)',
                     task.node.uuid, step.get('interface'), step.get('step'))
    return result


def _deploy_steps_then_boot(task, steps):
    """A deploy by an interface without node flows (fake), which has no
    agent: its steps in their order up to a "hold": the interface's own
    deploy() at its priority (100, Ironic's), the conductor's steps
    (reserved names, steps on child nodes) and the steps the node's
    interfaces mark as deploy steps before or after it as their priority
    says; then the instance is powered on. Nothing runs the agent's
    steps."""
    before, after_hold = node_steps.split_at_hold(steps)
    try:
        result = reserved_steps.run_without_agent(
            task, before, run_others=_interface_deploy,
            kind=drivers_base.DEPLOY)
    except Exception as e:
        _fail(task, e, 'Deploy')
        return
    if isinstance(result, reserved_steps.Paused):
        recorded = (task.node.driver_internal_info or {}).get(
            deploy_templates.STEPS) or []
        servicing.wait_for_polled_step(
            task, drivers_base.DEPLOY, result, steps,
            index=len(recorded) - len(steps) + result.position,
            index_key=deploy_templates.INDEX)
        return
    if result == states.DEPLOYWAIT:
        # A driver's deploy finishing on a callback (none here does):
        # what comes after it cannot wait for it (run_without_agent
        # refuses steps after it; a "hold" after it is refused here).
        if after_hold is not None:
            _fail(task, exception.IronicLikeException(
                'step deploy ends on a callback: the hold and the steps '
                'after it cannot wait for it'), 'Deploy')
            return
        _move(task, 'wait', keep_target=True)
        return
    if after_hold is not None:
        # Nothing heartbeats: "unhold" carries on at once (_after_hold).
        # The index is past the hold, as the agent deploy records it (the
        # API's deploy_step shows the hold).
        recorded = (task.node.driver_internal_info or {}).get(
            deploy_templates.STEPS) or []
        node_steps.set_info(task, **{
            AFTER_HOLD: after_hold,
            deploy_templates.INDEX: len(recorded) - len(after_hold)})
        _move(task, 'hold', keep_target=True)
        return
    try:
        task.driver.power.set_power_state(task, states.POWER_ON)
        task.update_node({'power_state': states.POWER_ON})
    except Exception as e:
        _fail(task, e, 'Deploy')
        return
    # As Ironic when it prepares the instance (never fails).
    management.cache_boot_mode(task)
    _move(task, 'done')


def _tear_down(task, params):
    if _runs_flows(task):
        try:
            runner.start_tear_down(task)
        except Exception as e:
            _fail(task, e, 'Tear down')
        return
    try:
        task.driver.deploy.tear_down(task)
        node_steps.power_off(task)
        # Instance, instance_info and allocation go in one transaction.
        task.release_instance()
    except Exception as e:
        _fail(task, e, 'Tear down')
        return
    _move(task, 'done', target=states.AVAILABLE)
    _clean(task, params)


def _adopt(task, params):
    _move(task, 'done')


def _rescue(task, params):
    try:
        rescue.start_rescue(task, params)
    except Exception as e:
        _fail(task, e, 'Rescue')


def _unrescue(task, params):
    try:
        rescue.start_unrescue(task, params)
    except Exception as e:
        _fail(task, e, 'Unrescue')


def _inspect(task, params):
    try:
        inspection.start(task, params)
    except Exception as e:
        _fail(task, e, 'Inspection')


_WORKERS = {
    'manage': _verify,
    'provide': _clean,
    'clean': _clean,
    'deploy': _deploy,
    'rebuild': _deploy,
    'deleted': _tear_down,
    'adopt': _adopt,
    'inspect': _inspect,
    'rescue': _rescue,
    'unrescue': _unrescue,
    'service': servicing.start,
}


def fail_interrupted(task, previous_owner=None):
    """A node left mid-work by a dead conductor (``previous_owner``, or
    None when it is not known): resume the node flow it was running (agent
    deploy, tear-down, cleaning) from the step reached; any other work is
    ended as failed (the state machine's 'fail' event puts it where an
    operator can act).
    """
    node = task.node
    if node.provision_state not in states.TRANSIENT_STATES:
        return False
    who = ('Conductor %s' % previous_owner if previous_owner
           else 'The conductor working on the node')
    if _runs_flows(task) and runner.recover(task):
        # Ours is the conductor that finishes it, from the step reached.
        LOG.warning('Node %s: carrying on with the work %s left',
                    node.uuid, who[0].lower() + who[1:])
        return True
    msg = ('%s stopped while the node was %s; the operation was '
           'abandoned.' % (who, node.provision_state))
    _move(task, 'fail', last_error=msg)
    LOG.warning('Node %s: %s', node.uuid, msg)
    return True
