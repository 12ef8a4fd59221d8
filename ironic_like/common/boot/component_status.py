"""A component's status, and the status operator's decision for it.

computed_status() is how BOS derives the read-only ``status.status`` of a
component. decide() is BOS's status operator for one enabled component
(bos-v2.md section 2, "Status operator decision table"), rows:

0. no power state => on_hold, disabled, error naming the cause;
1. status failed => disabled, stays failed (the phase is still computed);
2. powered off: desired kernel empty => done; else powering_on, and a
   power-on that has not taken within max_power_on_wait_time fails;
3. powered on, desired kernel empty => powering_off;
4. powered on, booted what is desired => done, or configuring;
5. powered on, not yet booted what is desired, powered on less than
   max_boot_wait_time ago => powering_on;
6. otherwise powering_off (a reboot is needed, or the boot never came).

Differences from BOS, on purpose: errors name the real cause and the wait
that expired instead of a generic text, and row 0 leaves the phase alone
(BOS resets it to "", which also zeroes the retry counters of a node
whose BMC merely failed to answer).

Host OS configuration (BOS's CFS) is not built yet: with a desired
configuration and no ``configuration_status`` the component stays
``configuring``, enabled and without error, until something reports one.
"""

import dataclasses
import datetime

from ironic_like.common import states
from ironic_like.common.boot import options as boot_options

POWER_ON_PENDING = 'power_on_pending'
POWER_ON_CALLED = 'power_on_called'
POWER_OFF_PENDING = 'power_off_pending'
POWER_OFF_GRACEFULLY_CALLED = 'power_off_gracefully_called'
POWER_OFF_FORCEFULLY_CALLED = 'power_off_forcefully_called'
CONFIGURING = 'configuring'
STABLE = 'stable'
FAILED = 'failed'
ON_HOLD = 'on_hold'

STATUSES = (POWER_ON_PENDING, POWER_ON_CALLED, POWER_OFF_PENDING,
            POWER_OFF_GRACEFULLY_CALLED, POWER_OFF_FORCEFULLY_CALLED,
            CONFIGURING, STABLE, FAILED, ON_HOLD)

PHASE_POWERING_ON = 'powering_on'
PHASE_POWERING_OFF = 'powering_off'
PHASE_CONFIGURING = 'configuring'
PHASE_NONE = ''

PHASES = (PHASE_POWERING_ON, PHASE_POWERING_OFF, PHASE_CONFIGURING,
          PHASE_NONE)

ACTUAL_STATE_CLEANUP = 'actual_state_cleanup'
APPLY_STAGED = 'apply_staged'
NEWLY_DISCOVERED = 'newly_discovered'
POWERING_OFF_FORCEFULLY = 'powering_off_forcefully'
POWERING_OFF_GRACEFULLY = 'powering_off_gracefully'
POWERING_ON = 'powering_on'
SESSION_SETUP = 'session_setup'

ACTIONS = (ACTUAL_STATE_CLEANUP, APPLY_STAGED, NEWLY_DISCOVERED,
           POWERING_OFF_FORCEFULLY, POWERING_OFF_GRACEFULLY, POWERING_ON,
           SESSION_SETUP)

POWER_ON = 'on'
POWER_OFF = 'off'

# A node's own power_state may be passed as it is; a mistaken spelling must
# not read as "no power state" and put the node on hold.
_POWER_STATES = {POWER_ON: POWER_ON, POWER_OFF: POWER_OFF,
                 states.POWER_ON: POWER_ON, states.POWER_OFF: POWER_OFF}

CONFIGURATION_CONFIGURED = 'configured'
CONFIGURATION_FAILED = 'failed'
CONFIGURATION_PENDING = 'pending'

ARTIFACT_FIELDS = ('kernel', 'initrd', 'kernel_parameters')

EMPTY_BOOT_ARTIFACTS = {'kernel': '', 'kernel_parameters': '', 'initrd': ''}
EMPTY_ACTUAL_STATE = {'boot_artifacts': EMPTY_BOOT_ARTIFACTS,
                      'bss_token': ''}
ZERO_EVENT_STATS = {'power_on_attempts': 0,
                    'power_off_graceful_attempts': 0,
                    'power_off_forceful_attempts': 0}


class _Unchanged(object):

    def __repr__(self):
        return 'UNCHANGED'


# A Decision field value that means "leave the stored value as it is".
UNCHANGED = _Unchanged()


@dataclasses.dataclass(frozen=True)
class Decision(object):
    """What the status operator wants for one component."""

    phase: str
    status_override: object = ''
    disable: bool = False
    error: str = None
    last_action_failed: bool = False
    clear_actual_state: bool = False
    reset_event_stats: bool = False


def computed_status(phase, status_override, last_action):
    """The component's ``status.status``, as BOS computes it."""
    if status_override:
        return status_override
    last_action = last_action or {}
    action = last_action.get('action') or ''
    if phase == PHASE_POWERING_ON:
        if action == POWERING_ON and not last_action.get('failed'):
            return POWER_ON_CALLED
        return POWER_ON_PENDING
    if phase == PHASE_POWERING_OFF:
        return {POWERING_OFF_GRACEFULLY: POWER_OFF_GRACEFULLY_CALLED,
                POWERING_OFF_FORCEFULLY: POWER_OFF_FORCEFULLY_CALLED,
                }.get(action, POWER_OFF_PENDING)
    if phase == PHASE_CONFIGURING:
        return CONFIGURING
    return STABLE


def _section(component, name):
    # The API returns null for a section never written.
    return component.get(name) or {}


def _status_of(component):
    status = _section(component, 'status')
    return computed_status(status.get('phase') or PHASE_NONE,
                           status.get('status_override') or '',
                           _section(component, 'last_action'))


def _artifacts(component, state):
    artifacts = _section(component, state).get('boot_artifacts') or {}
    # None and "" both mean "not set" (BOS compares kernel parameters so).
    return {field: artifacts.get(field) or '' for field in ARTIFACT_FIELDS}


def desired_is_off(component):
    """D: no desired kernel, i.e. the component should be powered off."""
    return not _artifacts(component, 'desired_state')['kernel']


def artifacts_match(component):
    """M: the booted kernel, initrd and kernel parameters are desired."""
    return (_artifacts(component, 'actual_state')
            == _artifacts(component, 'desired_state'))


def _aware(moment):
    if isinstance(moment, str):
        moment = datetime.datetime.fromisoformat(moment.replace('Z',
                                                                '+00:00'))
    # Stored times are UTC; a naive one cannot be compared with an aware
    # one otherwise.
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment


def waited_longer_than(component, seconds, now):
    """Whether more than ``seconds`` passed since the last action.

    A last action without a time counts as long ago (as in BOS), so a
    record written by hand does not wait forever.
    """
    since = _section(component, 'last_action').get('last_updated')
    if not since:
        return True
    return (_aware(now) - _aware(since)).total_seconds() > seconds


def _last_action_is_power_on(component):
    return _section(component, 'last_action').get('action') == POWERING_ON


def _option(options, name):
    value = (options or {}).get(name)
    return boot_options.DEFAULTS[name] if value is None else value


def decide(component, power_state, now, options, configuration_status=None,
           power_error=None):
    """The status operator's Decision for one enabled component.

    ``power_state`` is 'on', 'off' (or a node's 'power on', 'power off'),
    or None when the power interface gave none (``power_error`` says why).
    ``options`` are the effective boot options. ``configuration_status``
    is the host OS configuration's status ('configured', 'failed',
    'pending', ...) or None when there is none to report.
    """
    current_phase = _section(component, 'status').get('phase') or PHASE_NONE
    if power_state not in _POWER_STATES:
        return _no_power_state(current_phase, power_state, power_error)
    power_state = _POWER_STATES[power_state]
    wanted = _wanted(component, power_state, now, options,
                     configuration_status)
    if _status_of(component) == FAILED:
        wanted.update(status_override=FAILED, disable=True)
    return _with_side_effects(current_phase, Decision(**wanted))


def _no_power_state(current_phase, power_state, power_error):
    reason = power_error
    if reason is None and power_state not in (None, 'undefined'):
        reason = 'unexpected power state %r' % (power_state,)
    error = 'Component information was not returned by the power interface'
    if reason:
        error = '%s: %s' % (error, reason)
    return Decision(phase=current_phase, status_override=ON_HOLD,
                    disable=True, error=error)


def _wanted(component, power_state, now, options, configuration_status):
    """Rows 2 to 6: the new phase and what goes with it, as a dict."""
    if power_state == POWER_OFF:
        return _powered_off(component, now, options)
    if desired_is_off(component):
        return dict(phase=PHASE_POWERING_OFF)
    if artifacts_match(component):
        return _booted(component, options, configuration_status)
    boot_wait = _option(options, 'max_boot_wait_time')
    if not _last_action_is_power_on(component):
        return dict(phase=PHASE_POWERING_OFF)
    if not waited_longer_than(component, boot_wait, now):
        return dict(phase=PHASE_POWERING_ON)
    return dict(phase=PHASE_POWERING_OFF,
                error=_boot_timeout_error(component, boot_wait))


def _boot_timeout_error(component, boot_wait):
    actual = _artifacts(component, 'actual_state')
    if not actual['kernel']:
        return ('the booted OS did not report within max_boot_wait_time '
                '(%d s)' % boot_wait)
    desired = _artifacts(component, 'desired_state')
    differing = [field for field in ARTIFACT_FIELDS
                 if actual[field] != desired[field]]
    return ('the booted OS reported boot artifacts other than the desired '
            'ones (%s differ) within max_boot_wait_time (%d s)'
            % (', '.join(differing), boot_wait))


def _completed(options):
    # Before BOS 2.48.0 an option could keep a done component enabled so
    # that BOS goes on enforcing its state.
    return dict(phase=PHASE_NONE,
                disable=bool(_option(options,
                                     'disable_components_on_completion')))


def _powered_off(component, now, options):
    if desired_is_off(component):
        return _completed(options)
    power_on_wait = _option(options, 'max_power_on_wait_time')
    if (_last_action_is_power_on(component)
            and waited_longer_than(component, power_on_wait, now)):
        return dict(phase=PHASE_POWERING_ON, last_action_failed=True,
                    error='power on did not complete within '
                          'max_power_on_wait_time (%d s)' % power_on_wait)
    return dict(phase=PHASE_POWERING_ON)


def _booted(component, options, configuration_status):
    """Row 4: the desired artifacts are booted; configure if needed."""
    configuration = _section(component, 'desired_state').get('configuration')
    if not configuration:
        return _completed(options)
    if configuration_status is None:
        return dict(phase=PHASE_CONFIGURING)
    status = configuration_status.lower()
    if status == CONFIGURATION_CONFIGURED:
        return _completed(options)
    if status == CONFIGURATION_PENDING:
        return dict(phase=PHASE_CONFIGURING)
    if status == CONFIGURATION_FAILED:
        error = 'host OS configuration %r failed' % configuration
    else:
        error = ('host OS configuration %r is not reporting a valid '
                 'configuration status for this component: %r'
                 % (configuration, configuration_status))
    return dict(phase=PHASE_CONFIGURING, disable=True,
                status_override=FAILED, error=error)


def _with_side_effects(current_phase, decision):
    return dataclasses.replace(
        decision,
        reset_event_stats=(decision.phase == PHASE_NONE
                           and current_phase != PHASE_NONE),
        # The node went down, so what it reported booting is stale.
        clear_actual_state=(current_phase == PHASE_POWERING_OFF
                            and decision.phase != PHASE_POWERING_OFF))


def changes(component, decision):
    """The partial component patch that carries out ``decision``.

    Only fields whose value changes are included (BOS patches only those);
    an empty dict means there is nothing to write. The caller adds the id.
    """
    patch = {}
    status = _status_changes(_section(component, 'status'), decision)
    if status:
        patch['status'] = status
    if decision.disable and component.get('enabled') is not False:
        patch['enabled'] = False
    if decision.error and decision.error != component.get('error'):
        patch['error'] = decision.error
    if (decision.last_action_failed
            and not _section(component, 'last_action').get('failed')):
        patch['last_action'] = {'failed': True}
    if decision.clear_actual_state:
        patch['actual_state'] = _copy(EMPTY_ACTUAL_STATE)
    if decision.reset_event_stats:
        patch['event_stats'] = dict(ZERO_EVENT_STATS)
    return patch


def _status_changes(status, decision):
    result = {}
    if (decision.phase is not UNCHANGED
            and decision.phase != (status.get('phase') or PHASE_NONE)):
        result['phase'] = decision.phase
    override = decision.status_override
    if (override is not UNCHANGED
            and (override or '') != (status.get('status_override') or '')):
        result['status_override'] = override or ''
    return result


def _copy(state):
    return {key: dict(value) if isinstance(value, dict) else value
            for key, value in state.items()}
