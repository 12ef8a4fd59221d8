"""Power and provision states, and the one provision state machine.

The API checks a requested action against this table and the conductor
drives nodes through it, so both always agree on what is allowed. Names are
Ironic's, so clients that already know Ironic read them unchanged.
"""

from automaton import exceptions as automaton_exc
from automaton import machines

# Power states.
POWER_ON = 'power on'
POWER_OFF = 'power off'
REBOOT = 'rebooting'
SOFT_REBOOT = 'soft rebooting'
SOFT_POWER_OFF = 'soft power off'
NOSTATE = None
ERROR = 'error'

# The boot modes a node may be set to (API 1.76), as Ironic names them.
BOOT_MODES = ('bios', 'uefi')
# The virtual media devices of a node (API 1.89), as Ironic's.
VMEDIA_DEVICES = ('cdrom', 'disk', 'floppy')

# Power targets the API accepts, mapped to the state they end in.
POWER_TARGETS = {
    POWER_ON: POWER_ON,
    POWER_OFF: POWER_OFF,
    REBOOT: POWER_ON,
    SOFT_REBOOT: POWER_ON,
    SOFT_POWER_OFF: POWER_OFF,
}

# Provision states.
ENROLL = 'enroll'
VERIFYING = 'verifying'
MANAGEABLE = 'manageable'
AVAILABLE = 'available'
ACTIVE = 'active'
DEPLOYING = 'deploying'
DEPLOYWAIT = 'wait call-back'
DEPLOYFAIL = 'deploy failed'
DELETING = 'deleting'
CLEANING = 'cleaning'
CLEANWAIT = 'clean wait'
CLEANFAIL = 'clean failed'
INSPECTING = 'inspecting'
INSPECTWAIT = 'inspect wait'
INSPECTFAIL = 'inspect failed'
ADOPTING = 'adopting'
ADOPTFAIL = 'adopt failed'
# Rescue (API 1.38): the rescue ramdisk replaces the instance until
# "unrescue" boots the instance again.
RESCUING = 'rescuing'
RESCUEWAIT = 'rescue wait'
RESCUE = 'rescue'
RESCUEFAIL = 'rescue failed'
UNRESCUING = 'unrescuing'
UNRESCUEFAIL = 'unrescue failed'
# Holds (API 1.85): a "hold" clean or deploy step pauses the work until
# an operator's "unhold" (or abort).
CLEANHOLD = 'clean hold'
DEPLOYHOLD = 'deploy hold'
# Servicing (API 1.87): steps run on an active node through the agent's
# ramdisk, after which the instance boots again.
SERVICING = 'servicing'
SERVICEWAIT = 'service wait'
SERVICEFAIL = 'service failed'
SERVICEHOLD = 'service hold'
HOLD_STATES = frozenset([CLEANHOLD, DEPLOYHOLD, SERVICEHOLD])

# The state a node is in while the conductor works on it: the API refuses
# to change such a node, and a conductor that takes a node over in one of
# these states knows its previous owner died mid-work.
TRANSIENT_STATES = frozenset([VERIFYING, DEPLOYING, DELETING, CLEANING,
                              INSPECTING, ADOPTING])
# States where the node waits for something outside (an agent callback).
WAIT_STATES = frozenset([DEPLOYWAIT, CLEANWAIT, INSPECTWAIT])
# States where a deploy agent runs on the node (in the ramdisk): lookup
# answers only for nodes in these states (as Ironic's restrict_lookup).
LOOKUP_ALLOWED_STATES = frozenset([DEPLOYING, DEPLOYWAIT, CLEANING,
                                   CLEANWAIT, INSPECTING, INSPECTWAIT])
STABLE_STATES = frozenset([ENROLL, MANAGEABLE, AVAILABLE, ACTIVE, ERROR,
                           DEPLOYFAIL, CLEANFAIL, INSPECTFAIL, ADOPTFAIL])
# Where a node may be deleted from the API.
DELETE_ALLOWED_STATES = frozenset([ENROLL, MANAGEABLE, AVAILABLE,
                                   INSPECTFAIL, ADOPTFAIL, CLEANFAIL])
# Where the driver or interfaces of a node may be changed.
UPDATE_ALLOWED_STATES = frozenset([ENROLL, MANAGEABLE, AVAILABLE, DEPLOYFAIL,
                                   CLEANFAIL, INSPECTFAIL, ADOPTFAIL,
                                   ACTIVE, ERROR])
# Rescue's states in the sets above: its agent looks up while the node
# is rescuing or waits for it, and a rescued node is changed as an
# active one is.
TRANSIENT_STATES = TRANSIENT_STATES | {RESCUING, UNRESCUING}
WAIT_STATES = WAIT_STATES | {RESCUEWAIT}
LOOKUP_ALLOWED_STATES = LOOKUP_ALLOWED_STATES | {RESCUING, RESCUEWAIT}
STABLE_STATES = STABLE_STATES | {RESCUE, RESCUEFAIL, UNRESCUEFAIL}
UPDATE_ALLOWED_STATES = UPDATE_ALLOWED_STATES | {RESCUE, RESCUEFAIL,
                                                 UNRESCUEFAIL}
# Servicing's, likewise (a node in service failed is changed as an active
# one is, as Ironic allows).
TRANSIENT_STATES = TRANSIENT_STATES | {SERVICING}
WAIT_STATES = WAIT_STATES | {SERVICEWAIT}
LOOKUP_ALLOWED_STATES = LOOKUP_ALLOWED_STATES | {SERVICING, SERVICEWAIT}
STABLE_STATES = STABLE_STATES | {SERVICEFAIL}
UPDATE_ALLOWED_STATES = UPDATE_ALLOWED_STATES | {SERVICEFAIL}

# API "target" values of PUT /v1/nodes/{id}/states/provision, mapped to the
# event of the state machine they fire.
VERBS = {
    'manage': 'manage',
    'provide': 'provide',
    'active': 'deploy',
    'deploy': 'deploy',
    'rebuild': 'rebuild',
    'deleted': 'deleted',
    'undeploy': 'deleted',
    'clean': 'clean',
    'abort': 'abort',
    'adopt': 'adopt',
    'inspect': 'inspect',
    'rescue': 'rescue',
    'unrescue': 'unrescue',
    'unhold': 'unhold',
    'service': 'service',
}

# Events the machine fires internally, never accepted from the API.
INTERNAL_EVENTS = frozenset(['done', 'fail', 'wait', 'resume', 'hold'])

# The state a node ends in when an action that starts in the key succeeds;
# stored as target_provision_state while the work is under way.
_TARGETS = {
    VERIFYING: MANAGEABLE,
    DEPLOYING: ACTIVE,
    DEPLOYWAIT: ACTIVE,
    DELETING: AVAILABLE,
    ADOPTING: ACTIVE,
    INSPECTING: MANAGEABLE,
    INSPECTWAIT: MANAGEABLE,
    RESCUING: RESCUE,
    RESCUEWAIT: RESCUE,
    UNRESCUING: ACTIVE,
    SERVICING: ACTIVE,
    SERVICEWAIT: ACTIVE,
}

_TRANSITIONS = [
    # (source, event, destination)
    (ENROLL, 'manage', VERIFYING),
    (VERIFYING, 'done', MANAGEABLE),
    (VERIFYING, 'fail', ENROLL),

    (MANAGEABLE, 'provide', CLEANING),
    (MANAGEABLE, 'clean', CLEANING),
    (MANAGEABLE, 'manage', MANAGEABLE),
    (MANAGEABLE, 'adopt', ADOPTING),
    (ADOPTING, 'done', ACTIVE),
    (ADOPTING, 'fail', ADOPTFAIL),
    (ADOPTFAIL, 'adopt', ADOPTING),
    (ADOPTFAIL, 'manage', MANAGEABLE),

    (CLEANING, 'done', AVAILABLE),
    (CLEANING, 'wait', CLEANWAIT),
    (CLEANING, 'fail', CLEANFAIL),
    # Abort from cleaning and deploying takes effect between two steps of
    # the work (conductor/flows/runner.request_abort), never inside one.
    (CLEANING, 'abort', CLEANFAIL),
    (CLEANWAIT, 'resume', CLEANING),
    (CLEANWAIT, 'fail', CLEANFAIL),
    (CLEANWAIT, 'abort', CLEANFAIL),
    (CLEANFAIL, 'manage', MANAGEABLE),
    # A "hold" step pauses cleaning; "unhold" waits for the agent's next
    # heartbeat, which starts the next step (API 1.85).
    (CLEANING, 'hold', CLEANHOLD),
    (CLEANWAIT, 'hold', CLEANHOLD),
    (CLEANHOLD, 'unhold', CLEANWAIT),
    (CLEANHOLD, 'abort', CLEANFAIL),

    (AVAILABLE, 'manage', MANAGEABLE),
    (AVAILABLE, 'deploy', DEPLOYING),
    (DEPLOYING, 'done', ACTIVE),
    (DEPLOYING, 'wait', DEPLOYWAIT),
    (DEPLOYING, 'fail', DEPLOYFAIL),
    (DEPLOYING, 'abort', DEPLOYFAIL),
    (DEPLOYWAIT, 'resume', DEPLOYING),
    (DEPLOYWAIT, 'fail', DEPLOYFAIL),
    (DEPLOYWAIT, 'abort', DEPLOYFAIL),
    (DEPLOYFAIL, 'deploy', DEPLOYING),
    (DEPLOYFAIL, 'rebuild', DEPLOYING),
    (DEPLOYFAIL, 'deleted', DELETING),
    (DEPLOYING, 'hold', DEPLOYHOLD),
    (DEPLOYWAIT, 'hold', DEPLOYHOLD),
    (DEPLOYHOLD, 'unhold', DEPLOYWAIT),
    (DEPLOYHOLD, 'abort', DEPLOYFAIL),

    (ACTIVE, 'rebuild', DEPLOYING),
    (ACTIVE, 'deleted', DELETING),
    (DELETING, 'done', CLEANING),
    (DELETING, 'fail', ERROR),
    (ERROR, 'rebuild', DEPLOYING),
    (ERROR, 'deleted', DELETING),

    # In-band inspection: the agent's ramdisk boots ("wait" for its first
    # heartbeat), which "resume"s the work; abort only while waiting, as
    # Ironic allows it.
    (MANAGEABLE, 'inspect', INSPECTING),
    (INSPECTFAIL, 'inspect', INSPECTING),
    (INSPECTFAIL, 'manage', MANAGEABLE),
    (INSPECTING, 'done', MANAGEABLE),
    (INSPECTING, 'wait', INSPECTWAIT),
    (INSPECTING, 'fail', INSPECTFAIL),
    (INSPECTWAIT, 'resume', INSPECTING),
    (INSPECTWAIT, 'done', MANAGEABLE),
    (INSPECTWAIT, 'fail', INSPECTFAIL),
    (INSPECTWAIT, 'abort', INSPECTFAIL),

    # Rescue, as Ironic's machine: the rescue ramdisk boots ("wait" for
    # its agent), whose heartbeat "resume"s the work; abort only while
    # waiting. A rescued (or failed) node may be rescued again,
    # unrescued or torn down.
    (ACTIVE, 'rescue', RESCUING),
    (RESCUING, 'done', RESCUE),
    (RESCUING, 'wait', RESCUEWAIT),
    (RESCUING, 'fail', RESCUEFAIL),
    (RESCUEWAIT, 'resume', RESCUING),
    (RESCUEWAIT, 'fail', RESCUEFAIL),
    (RESCUEWAIT, 'abort', RESCUEFAIL),
    (RESCUEWAIT, 'deleted', DELETING),
    (RESCUE, 'rescue', RESCUING),
    (RESCUE, 'unrescue', UNRESCUING),
    (RESCUE, 'deleted', DELETING),
    (RESCUEFAIL, 'rescue', RESCUING),
    (RESCUEFAIL, 'unrescue', UNRESCUING),
    (RESCUEFAIL, 'deleted', DELETING),
    (UNRESCUING, 'done', ACTIVE),
    (UNRESCUING, 'fail', UNRESCUEFAIL),
    (UNRESCUEFAIL, 'rescue', RESCUING),
    (UNRESCUEFAIL, 'unrescue', UNRESCUING),
    (UNRESCUEFAIL, 'deleted', DELETING),

    # Servicing (API 1.87), as Ironic's machine: the agent's ramdisk
    # boots ("wait"), its heartbeats "resume" the steps, a "hold" step
    # pauses them; a failed service may be tried again, aborted (the
    # instance boots again: active), rescued or torn down.
    (ACTIVE, 'service', SERVICING),
    (SERVICING, 'done', ACTIVE),
    (SERVICING, 'wait', SERVICEWAIT),
    (SERVICING, 'fail', SERVICEFAIL),
    (SERVICING, 'hold', SERVICEHOLD),
    (SERVICING, 'abort', SERVICEFAIL),
    (SERVICEWAIT, 'resume', SERVICING),
    (SERVICEWAIT, 'fail', SERVICEFAIL),
    (SERVICEWAIT, 'abort', SERVICEFAIL),
    (SERVICEWAIT, 'hold', SERVICEHOLD),
    (SERVICEHOLD, 'unhold', SERVICEWAIT),
    (SERVICEHOLD, 'abort', SERVICEFAIL),
    (SERVICEFAIL, 'service', SERVICING),
    (SERVICEFAIL, 'abort', ACTIVE),
    (SERVICEFAIL, 'rescue', RESCUING),
    (SERVICEFAIL, 'deleted', DELETING),
]

# States that clients of older API versions do not know, with the version
# that introduced them and the name shown below it (Ironic shows
# "inspecting" for "inspect wait" before 1.39).
OLDER_NAMES = {INSPECTWAIT: ((1, 39), INSPECTING)}


def shown_state(state, version):
    """``state`` as an API client of ``version`` (a (major, minor)
    tuple) knows it."""
    older = OLDER_NAMES.get(state)
    if older is not None and version < older[0]:
        return older[1]
    return state


def _build_machine():
    machine = machines.FiniteMachine()
    names = sorted({s for t in _TRANSITIONS for s in (t[0], t[2])})
    for name in names:
        machine.add_state(name, terminal=False)
    for source, event, dest in _TRANSITIONS:
        machine.add_transition(source, dest, event)
    machine.freeze()
    return machine


_MACHINE = _build_machine()


def transitions():
    """All (source, event, destination) triples, for docs and tests."""
    return list(_TRANSITIONS)


def next_state(state, event):
    """The state ``event`` leads to from ``state``, or None if not allowed.

    Manual cleaning returns to manageable, not available; that branch is
    decided by the caller through target_for().
    """
    machine = _MACHINE.copy()
    # copy() does not keep the current state (DEPENDENCY-NOTES).
    try:
        machine.initialize(state)
        machine.process_event(event)
    except (automaton_exc.NotFound, automaton_exc.InvalidState):
        return None
    return machine.current_state


def is_allowed(state, event):
    return next_state(state, event) is not None


def allowed_events(state):
    return sorted({e for s, e, _d in _TRANSITIONS
                   if s == state and e not in INTERNAL_EVENTS})


def target_for(event, source):
    """target_provision_state while ``event`` started from ``source`` runs."""
    if event == 'clean':
        return MANAGEABLE
    if event == 'provide':
        return AVAILABLE
    if event in ('deploy', 'rebuild'):
        return ACTIVE
    if event == 'deleted':
        return AVAILABLE
    if event == 'manage':
        return MANAGEABLE
    if event == 'adopt':
        return ACTIVE
    if event == 'inspect':
        return MANAGEABLE
    if event == 'rescue':
        return RESCUE
    if event == 'unrescue':
        return ACTIVE
    dest = next_state(source, event)
    return _TARGETS.get(dest)


# Allocation states: allocating -> active | error.
ALLOCATING = 'allocating'
ALLOCATION_ACTIVE = 'active'
ALLOCATION_ERROR = 'error'
ALLOCATION_STATES = frozenset([ALLOCATING, ALLOCATION_ACTIVE,
                               ALLOCATION_ERROR])
