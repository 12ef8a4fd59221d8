"""The steps of manual cleaning, servicing and deploys that the conductor
runs itself, whatever interface they name (Ironic's reserved step
names), and the step options that send a step to the node's child nodes
(Ironic's ``execute_on_child_nodes`` and ``limit_child_node_execution``).

Here, below the API and the conductor, because both apply these rules:
the API before it asks the conductor (with errors naming the option at
fault), the conductor again for its other RPC callers, the deploy
template API when a template is written, and the step flows to choose
who runs a step (conductor/flows/reserved_steps.py).
"""

import uuid

from oslo_utils import uuidutils

from ironic_like.common import exception
from ironic_like.common import states

HOLD = 'hold'
WAIT = 'wait'
POWER_ON = 'power_on'
POWER_OFF = 'power_off'
REBOOT = 'reboot'

# The power target (a states.POWER_TARGETS key) of each power step.
POWER_STEPS = {POWER_ON: states.POWER_ON, POWER_OFF: states.POWER_OFF,
               REBOOT: states.REBOOT}
RESERVED = frozenset(POWER_STEPS) | {HOLD, WAIT}

ON_CHILDREN = 'execute_on_child_nodes'
LIMIT_CHILDREN = 'limit_child_node_execution'
CHILD_OPTIONS = (ON_CHILDREN, LIMIT_CHILDREN)
# The argument of "wait": how long to pause (without it: until the
# agent's next heartbeat).
SECONDS = 'seconds'

# What may run on child nodes. As Ironic, only synchronous steps that
# need no agent on the child: the power steps, and in manual cleaning
# and servicing the out-of-band steps the children's interfaces mark
# (the conductor checks each child's marks before the parent moves).
# "hold" and "wait" pause the parent's own work, so Ironic refuses them
# on children too. Deploy steps and templates send power steps only.
CHILD_STEPS = frozenset(POWER_STEPS)
# The requests whose steps on children may be interface steps.
CHILD_INTERFACE_STEP_FIELDS = ('clean_steps', 'service_steps')


def on_children(step):
    """Whether ``step`` runs on the node's child nodes, not on it."""
    return step.get(ON_CHILDREN) is True


def child_limit(step):
    """The child nodes ``step`` is limited to (its
    limit_child_node_execution, checked by check()), as the UUIDs are
    stored (lower case, with dashes); empty: all the children."""
    return [str(uuid.UUID(value))
            for value in step.get(LIMIT_CHILDREN) or ()]


def run_by_conductor(step):
    """Whether the conductor runs ``step`` itself: no driver or agent
    step is looked up for it."""
    return step.get('step') in RESERVED or on_children(step)


def wait_seconds(step):
    """The seconds a "wait" step pauses (an int, checked by check()), or
    None: it waits for the agent's next heartbeat."""
    value = (step.get('args') or {}).get(SECONDS)
    return None if value is None else int(value)


def _invalid(field, message):
    return exception.InvalidParameterValue(err=message, field=field)


def check(step, field):
    """InvalidParameterValue (400) naming the option at fault when
    ``step`` (one of the request's ``field``: clean_steps, service_steps,
    deploy_steps, or a deploy template's steps) asks what no node could
    do."""
    name = step.get('step')
    eocn = step.get(ON_CHILDREN)
    limit = step.get(LIMIT_CHILDREN)
    if eocn is not None and not isinstance(eocn, bool):
        raise _invalid(field, 'Step "%s": %s must be true or false.'
                       % (name, ON_CHILDREN))
    if limit is not None:
        if not isinstance(limit, list) or not all(
                isinstance(u, str) and uuidutils.is_uuid_like(u)
                for u in limit):
            raise _invalid(field, 'Step "%s": %s must be a list of node '
                                  'UUIDs.' % (name, LIMIT_CHILDREN))
        # Not refused by Ironic (it ignores the list then), but such a
        # step would run on the parent itself: a power_off meant for one
        # child would power the whole machine off.
        if limit and not eocn:
            raise _invalid(field, 'Step "%s": %s is only valid with %s '
                                  'true.' % (name, LIMIT_CHILDREN,
                                             ON_CHILDREN))
    if eocn and name not in CHILD_STEPS and (
            name in RESERVED or field not in CHILD_INTERFACE_STEP_FIELDS
            # The deploy interface's steps are the agent's: no child
            # runs one without its own ramdisk.
            or step.get('interface', 'deploy') == 'deploy'):
        raise _invalid(field, 'Step "%s" cannot run on child nodes (%s): '
                              'only %s can%s.' % (
                                  name, ON_CHILDREN,
                                  ', '.join(sorted(CHILD_STEPS)),
                                  ', and in clean_steps and service_steps '
                                  'the out-of-band steps of the child '
                                  'nodes\' interfaces'
                                  if field in CHILD_INTERFACE_STEP_FIELDS
                                  else ''))
    if name == WAIT:
        _check_seconds(step, field)


def _check_seconds(step, field):
    # Ironic takes int(args['seconds']) when the step runs and fails the
    # node on anything else; refused here before the node moves.
    args = step.get('args') or {}
    if SECONDS not in args:
        return
    value = args[SECONDS]
    if isinstance(value, bool) or not (
            isinstance(value, int) and value >= 0 or
            isinstance(value, str) and value.isdigit() and value.isascii()):
        raise _invalid(field, 'Step "wait": its argument %s must be a '
                              'whole number of seconds (0 or more).'
                       % SECONDS)
