"""What the node's interfaces add to the steps its agent runs, as
Ironic's in-band interfaces do: the raid interface "agent" (agent_raid)
has the agent build RAID, tells it the target with the step, and records
what it built once the step is over (Ironic's post step hooks). Shared
by cleaning, servicing and the deploy. And the out-of-band steps of the
node's interfaces (methods marked with drivers.base.clean_step or
service_step), which the conductor runs itself in cleaning and
servicing."""

import types

from ironic_like.common import exception
from ironic_like.common import step_names
from ironic_like.common import step_order
from ironic_like.drivers import base as drivers_base
from ironic_like.drivers import loader


def raid_in_band(task):
    """The node's raid interface has the agent build RAID (agent_raid)."""
    return bool(getattr(task.driver.raid, 'in_band', False))


def _node_interface(node, kind):
    """``node``'s ``kind`` interface (loaded), or None when it has none
    or it cannot be loaded."""
    try:
        return loader.node_interface(node, kind)
    except exception.IronicLikeException:
        return None


def _out_of_band_interface(node, kind):
    """``node``'s ``kind`` interface when the conductor runs its steps
    (not the deploy interface, nor one whose steps are the agent's:
    agent_raid), else None."""
    if kind == 'deploy':
        return None
    iface = _node_interface(node, kind)
    return None if getattr(iface, 'in_band', False) else iface


def node_raid_in_band(node):
    """raid_in_band() of a node without its loaded driver."""
    return bool(getattr(_node_interface(node, 'raid'), 'in_band', False))


def agent_node_fields(task, step):
    """What the agent reads of the node for ``step`` besides its UUID:
    the raid interface's say for its own steps (agent_raid)."""
    if step.get('interface') == 'raid' and raid_in_band(task):
        return task.driver.raid.agent_node_fields(task, step)
    return {}


def after_agent_step(task, step, doc, result_key):
    """A step the agent ran is over: the node's raid interface records
    what its own steps built (Ironic's post step hooks). ``doc``: the
    agent's command document; ``result_key``: clean_result,
    service_result or deploy_result. Raises when the agent's report is
    unusable."""
    if step.get('interface') == 'raid' and raid_in_band(task):
        result = ((doc or {}).get('command_result') or {}).get(result_key)
        task.driver.raid.after_agent_step(task, step, result)


def out_of_band(node, step, kind):
    """What the node's interface marked its method with, when ``step`` is
    one of its out-of-band ``kind`` steps ('clean', 'service' or
    'deploy': drivers.base.clean_step, service_step, deploy_step), which
    the conductor runs
    itself; else None (the agent's, or the conductor's reserved steps,
    or no such step)."""
    interface_kind = step.get('interface')
    if interface_kind not in drivers_base.INTERFACE_KINDS or \
            step_names.run_by_conductor(step):
        return None
    return drivers_base.step_info(
        _out_of_band_interface(node, interface_kind),
        step.get('step') or '', kind)


def automated_out_of_band(node, work=drivers_base.CLEAN):
    """The out-of-band ``work`` steps (clean or deploy) of ``node``'s
    interfaces, each at the priority it was marked with (automated
    cleaning runs those above 0, after
    [conductor]clean_step_priority_override; every deploy those above 0),
    of the interfaces Ironic takes steps from
    (step_order.INTERFACE_RANK)."""
    steps = []
    for kind in sorted(step_order.INTERFACE_RANK):
        marked = drivers_base.marked_steps(
            _out_of_band_interface(node, kind), work)
        for name in sorted(marked):
            steps.append({'step': name, 'interface': kind,
                          'priority': marked[name]['priority'],
                          'args': {}})
    return steps


def runs_here(node, step, kind):
    """The conductor runs ``step`` of ``node``'s ``kind`` work itself: a
    reserved step name, a step on child nodes, or an out-of-band step of
    the node's interfaces."""
    return step_names.run_by_conductor(step) or \
        out_of_band(node, step, kind) is not None


def needs_ramdisk(node, step, kind):
    """Whether ``step`` needs the ramdisk booted: the agent's steps, and
    the out-of-band ones marked so (Ironic's requires_ramdisk)."""
    if step_names.run_by_conductor(step):
        return False
    info = out_of_band(node, step, kind)
    return info is None or info['requires_ramdisk']


def check_out_of_band(task, step, kind, field):
    """An out-of-band step's arguments against its marks (Ironic's rule:
    none it does not know, every required one), then the interface's own
    check_step(task, step) if it has one (the fake RAID's needs a
    target). InvalidParameterValue (400) naming ``field`` (or the
    interface's field), before the node moves."""
    info = out_of_band(task.node, step, kind)
    if info is None:
        return
    check_arguments(info, step, kind, field)
    _interface_check(task, getattr(task.driver, step['interface']), step)


def check_node_step(node, step, kind, field):
    """check_out_of_band() for a node nobody holds a task of (a child
    node before its parent moves): the step must be one of its ``kind``
    steps. InvalidParameterValue naming ``field``."""
    info = out_of_band(node, step, kind)
    if info is None:
        raise exception.InvalidParameterValue(
            err='Step "%s.%s" is not a %s step of the %s interface.'
                % (step.get('interface'), step.get('step'), kind,
                   step.get('interface')), field=field)
    check_arguments(info, step, kind, field)
    # The interface's check reads only the node of the task it gets.
    _interface_check(types.SimpleNamespace(node=node),
                     _out_of_band_interface(node, step['interface']), step)


def _interface_check(task, interface, step):
    check = getattr(interface, 'check_step', None)
    if check is not None:
        check(task, step)


def check_arguments(info, step, kind, field):
    """``step``'s arguments against what its method was marked with
    (``info``): none it does not know, every required one (Ironic's
    rule). InvalidParameterValue (400) naming ``field``."""
    argsinfo = info['argsinfo']
    args = step.get('args') or {}
    name = '%s.%s' % (step.get('interface'), step.get('step'))
    unexpected = sorted(set(args) - set(argsinfo))
    if unexpected:
        raise exception.InvalidParameterValue(
            err='%s step %s has these unexpected arguments: %s.'
                % (kind.capitalize(), name, ', '.join(unexpected)),
            field=field)
    missing = sorted(arg for arg, about in argsinfo.items()
                     if about.get('required') and arg not in args)
    if missing:
        raise exception.InvalidParameterValue(
            err='%s step %s is missing these required arguments: %s.'
                % (kind.capitalize(), name, ', '.join(missing)),
            field=field)


def on_child(step):
    """``step`` without its child node options: the step a child node
    runs as its own."""
    return {key: value for key, value in step.items()
            if key not in step_names.CHILD_OPTIONS}


def run_out_of_band(task, step):
    """Run an out-of-band step as Ironic does: ``method(task, **args)``
    of the node's interface. Returns what it returns (a
    drivers.base.Polling: it goes on outside the conductor); raises what
    it raises."""
    method = getattr(getattr(task.driver, step['interface']), step['step'])
    return method(task, **(step.get('args') or {}))


def without_ramdisk(node, params, steps, kind):
    """Manual cleaning or servicing (``kind``) without the agent: asked
    for (disable_ramdisk), or no step needs the ramdisk, so that booting
    it is not needed (as Ironic skips it then)."""
    return bool(params.get('disable_ramdisk')) or (
        bool(steps) and not any(needs_ramdisk(node, step, kind)
                                for step in steps))
