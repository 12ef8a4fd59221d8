"""Out-of-band steps that go on outside the conductor, as Ironic's
asynchronous steps do: the step's method starts the work (a BMC's job, a
reboot whose effect is read later) and returns drivers.base.Polling; the
node is released and waits (clean wait, service wait, deploy wait) while
a periodic task of the conductor that owns it polls the interface's
``poll_step`` (conductor/step_polling.py). No worker and no lock are
held meanwhile: the node can be aborted, and a conductor that dies
leaves the polling to the node's next owner, which finds everything in
the node's record.

What is kept, under driver_internal_info's ``polled_step``: the step
itself, its index in the list of the work (or None), the kind of work,
the interface's state (the Polling's), when it started, and whether the
work runs without the agent (then the steps after it are kept where a
"hold" keeps them, and the work carries on as after "unhold").

A step sent to child nodes is polled in place (poll_inline): the parent's
work holds the children's locks one after another, as Ironic runs such
steps only when [conductor]permit_child_node_step_async_result allows.
"""

import copy
import time

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.common import agent_info
from ironic_like.common import current_steps
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conf import CONF
from ironic_like.drivers import base as drivers_base

LOG = log.getLogger(__name__)

KEY = current_steps.POLLED_STEP
# The agent phase of a node whose agent runs meanwhile: its heartbeats
# start nothing (runner.on_heartbeat knows no such phase), and the agent
# timeouts leave it alone (agent_timeouts).
PHASE = 'polled-step'


def record(node):
    """What the node keeps of the step it waits for (None: none)."""
    found = (node.driver_internal_info or {}).get(KEY)
    return found if isinstance(found, dict) else None


def step_name(step):
    return '%s.%s' % (step.get('interface'), step.get('step'))


def begin(task, kind, step, polling, index=None, without_agent=False,
          extra=None):
    """``step`` of the node's ``kind`` work (clean, service, deploy;
    ``index`` in its recorded list) returned ``polling``: the node waits
    for it, recorded in one write with its wait state (a take-over finds
    both or neither). ``extra``: more driver_internal_info keys for the
    same write (the steps after it, for work without the agent)."""
    node = task.node
    dest = states.next_state(node.provision_state, 'wait')
    if dest is None:
        raise exception.InvalidStateRequested(
            action='wait', node=node.uuid, state=node.provision_state)
    info = dict(node.driver_internal_info or {})
    info[KEY] = {'kind': kind, 'step': step, 'index': index,
                 'state': polling.state, 'without_agent': without_agent,
                 'started': timeutils.utcnow().isoformat()}
    info.update(extra or {})
    info.pop(agent_info.COMMAND, None)
    info.pop(agent_info.PHASE_STARTED, None)
    if without_agent:
        info.pop(agent_info.PHASE, None)
    else:
        info[agent_info.PHASE] = PHASE
    task.update_node({'provision_state': dest,
                      'driver_internal_info': info})
    LOG.info('Node %s: %s step %s goes on outside the conductor; it is '
             'polled every %d seconds', node.uuid, kind, step_name(step),
             CONF.conductor.check_polled_steps_interval)


def poll(task):
    """Poll the node's step once (under its lock): True when it is done,
    False while it goes on. Raises (a message naming the step) when it
    failed. The record stays either way: the caller's next write, which
    carries the work on or fails it, drops it (without_record()), so
    that a take-over never finds the node waiting for nothing."""
    found = record(task.node)
    step = found['step']
    interface = getattr(task.driver, step['interface'], None)
    poll_step = getattr(interface, 'poll_step', None)
    if poll_step is None:
        raise exception.IronicLikeException(
            '%s step %s: the node\'s %s interface cannot poll it (changed '
            'since the step started?)' % (found['kind'], step_name(step),
                                          step['interface']))
    try:
        # A copy: the interface may change it in place, and the record
        # must stay as it was until the carry-on's write.
        result = poll_step(task, step, copy.deepcopy(found['state']))
    except Exception as e:
        raise exception.IronicLikeException('%s step %s: %s' % (
            found['kind'], step_name(step), exception.safe_message(e)))
    if drivers_base.is_polling(result):
        if result.state != found['state']:
            info = dict(task.node.driver_internal_info or {})
            info[KEY] = dict(found, state=result.state)
            task.update_node({'driver_internal_info': info})
        return False
    LOG.info('Node %s: %s step %s is done', task.node.uuid, found['kind'],
             step_name(step))
    return True


def abandon(task):
    """The node's polled step will not be polled again (an abort): the
    interface's ``abandon_step(task, step, state)``, when it has one,
    drops what it keeps on the conductor (a staged image). Never
    raises."""
    found = record(task.node)
    if found is None:
        return
    step = found.get('step') or {}
    interface = getattr(task.driver, step.get('interface') or '', None)
    hook = getattr(interface, 'abandon_step', None)
    if hook is None:
        return
    try:
        hook(task, step, copy.deepcopy(found.get('state') or {}))
    except Exception as e:
        LOG.warning('Node %s: cleaning up after the abandoned step %s '
                    'failed: %s', task.node.uuid, step_name(step),
                    exception.safe_message(e))


def without_record(info):
    """A copy of driver_internal_info ``info`` without the polled step
    (nor its agent phase)."""
    info = dict(info or {})
    info.pop(KEY, None)
    if info.get(agent_info.PHASE) == PHASE:
        info.pop(agent_info.PHASE)
    return info


def poll_inline(task, step, polling, sleep=time.sleep):
    """Poll ``step`` of ``task.node`` here, in the worker holding its
    lock, until it is done (a step run on a child node): every
    [conductor]check_polled_steps_interval seconds; the interface bounds
    the wait (it raises at its deadline)."""
    interface = getattr(task.driver, step['interface'])
    state = polling.state
    while True:
        sleep(CONF.conductor.check_polled_steps_interval)
        result = interface.poll_step(task, step, copy.deepcopy(state))
        if not drivers_base.is_polling(result):
            return
        state = result.state
