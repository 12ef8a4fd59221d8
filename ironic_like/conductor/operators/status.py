"""status: the workhorse. For every enabled component of the nodes this
conductor owns, read the real power state and decide the phase (the
table in common/boot/component_status.py, BOS's rows 0-6), writing only
what changed, with a compare-and-swap on the status it read.

Unlike BOS, it looks again within seconds while a node it is waiting for
has not reached the power state asked for, and at the boot-wait deadline,
instead of a whole polling period later."""

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.common.boot import component_status as cs
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.boot import records
from ironic_like.conductor.hostos import node_status
from ironic_like.conductor import locks
from ironic_like.conductor.operators import base
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

_POWER = {states.POWER_ON: cs.POWER_ON, states.POWER_OFF: cs.POWER_OFF}
# Statuses after a power request whose effect is not seen yet.
_WAITING_FOR_ON = (cs.POWER_ON_CALLED,)
_WAITING_FOR_OFF = (cs.POWER_OFF_GRACEFULLY_CALLED,
                    cs.POWER_OFF_FORCEFULLY_CALLED)


def to_columns(component, patch):
    """Column values of a status decision's patch (API shape)."""
    values = {}
    status = patch.get('status') or {}
    if 'phase' in status:
        values['phase'] = status['phase']
    if 'status_override' in status:
        values['status_override'] = status['status_override'] or None
    for key in ('enabled', 'error', 'event_stats'):
        if key in patch:
            values[key] = patch[key]
    if 'last_action' in patch:
        merged = dict(component.last_action or {})
        merged.update(patch['last_action'])
        values['last_action'] = merged
    if 'actual_state' in patch:
        values['actual_state'] = patch['actual_state']
        values['actual_updated_at'] = None
    return values


class StatusOperator(base.NodeOperator):
    name = 'status'
    # Woken for the nodes something happened to (a power request sent, a
    # boot reported), it looks at those only; the full pass over every
    # enabled component is the safety net, every polling_frequency.
    targeted = True

    def select(self, options, node_ids=None):
        filters = {'enabled': True}
        if node_ids is not None:
            filters['node_ids'] = sorted(node_ids)
        return self.ctx.db.list_boot_components(filters)

    def run_once(self, options, node_ids=None):
        self._finished_sessions = set()
        again = super().run_once(options, node_ids)
        if self._finished_sessions:
            # Once per loop, not per node: the sessions' owners (any
            # conductor) check whether they are complete.
            self.ctx.wake_everywhere('session_completion')
        return again

    def _power_state(self, node):
        try:
            with locks.acquire(self.ctx.admin, node.id, shared=True,
                               purpose='boot session status') as task:
                raw = task.driver.power.get_power_state(task)
        except exception.NodeNotFound:
            raise
        except Exception as e:
            return None, exception.safe_message(e)
        if raw not in _POWER:
            return None, 'the power interface reported %r' % raw
        return _POWER[raw], None

    def act(self, component, node, options):
        power, power_error = self._power_state(node)
        doc = records.component_dict(component, node)
        last_action = dict(component.last_action or {})
        doc['last_action'] = dict(
            last_action, last_updated=records.parse_time(
                last_action.get('last_updated')))
        now = timeutils.utcnow()
        configuration = (component.desired_state or {}).get('configuration')
        configured = None
        if configuration:
            configured, _ = node_status.configuration_status(
                self.ctx.db, component.node_id, configuration)
        decision = cs.decide(doc, power, now, options,
                             configuration_status=configured,
                             power_error=power_error)
        patch = cs.changes(doc, decision)
        if not patch:
            self._plan_recheck(component, power, options)
            return False
        values = to_columns(component, patch)
        if (values.get('phase') == cs.PHASE_NONE
                and decision.status_override != cs.FAILED):
            values['error'] = None  # it got there: old causes are moot
        written = self.ctx.db.update_boot_component(
            component.node_id, values, expected={'status': component.status})
        self._plan_recheck(written, power, options)
        self._note_change(component, written)
        return True

    def _plan_recheck(self, component, power, options):
        """Look at the node again when something may have changed that
        nobody will tell us about: a power state reached, a deadline."""
        status = component.status
        if (status in _WAITING_FOR_ON and power == cs.POWER_OFF) or (
                status in _WAITING_FOR_OFF and power == cs.POWER_ON):
            self.schedule(component.node_id,
                          CONF.boot.power_recheck_interval)
        waited = base.seconds_since(
            (component.last_action or {}).get('last_updated'))
        if waited is None:
            return
        if status == cs.POWER_ON_CALLED:
            wait = (options['max_boot_wait_time'] if power == cs.POWER_ON
                    else options['max_power_on_wait_time'])
            self.schedule(component.node_id, wait - waited + 0.5)
        elif status in _WAITING_FOR_OFF:
            self.schedule(component.node_id,
                          options['max_power_off_wait_time'] - waited + 0.5)

    def _note_change(self, before, after):
        follow = {cs.POWER_ON_PENDING: 'power_on',
                  cs.POWER_OFF_PENDING: 'power_off_graceful',
                  cs.CONFIGURING: 'configuration'}.get(after.status)
        if follow and after.enabled:
            # At once, not at the end of this pass: the next operator
            # starts on this node while we look at the others.
            self.ctx.wake(follow)
        if before.enabled and not after.enabled and after.session:
            self._finished_sessions.add(after.session)
