"""power-off-graceful and power-off-forceful.

Graceful: components ``power_off_pending`` get a graceful shutdown
request. Forceful: components whose graceful (or forceful) request is
older than ``max_power_off_wait_time`` and still not off get a forced
power off (repeated each period, counted). Neither waits for the
machine: the status operator re-reads the power state."""

from ironic_like.common.boot import component_status as cs
from ironic_like.common import states
from ironic_like.conductor import locks
from ironic_like.conductor.operators import base

# How soon the forceful operator looks again when a node's wait is about
# to expire (it wakes at the deadline, not a polling period later).
_DEADLINE_SLACK = 0.5


class _PowerOffOperator(base.NodeOperator):
    power_state = None

    def act(self, component, node, options):
        with locks.acquire(self.ctx.admin, node.id,
                           purpose='boot session %s' % self.name,
                           attempts=1) as task:
            self.preset_action(component)
            task.driver.power.request_power_state(task, self.power_state)
        return True

    def after_work(self, node_ids):
        self.ctx.wake('status', node_ids=node_ids)


class PowerOffGracefulOperator(_PowerOffOperator):
    name = 'power_off_graceful'
    action = cs.POWERING_OFF_GRACEFULLY
    retry_field = 'power_off_graceful_attempts'
    power_state = states.SOFT_POWER_OFF

    def select(self, options, node_ids=None):
        return self.ctx.db.list_boot_components(
            {'enabled': True, 'status': [cs.POWER_OFF_PENDING]})


class PowerOffForcefulOperator(_PowerOffOperator):
    name = 'power_off_forceful'
    action = cs.POWERING_OFF_FORCEFULLY
    retry_field = 'power_off_forceful_attempts'
    power_state = states.POWER_OFF

    def select(self, options, node_ids=None):
        wait = options['max_power_off_wait_time']
        rows = self.ctx.db.list_boot_components(
            {'enabled': True, 'status': [cs.POWER_OFF_GRACEFULLY_CALLED,
                                         cs.POWER_OFF_FORCEFULLY_CALLED]})
        due, self._next = [], None
        for component, node in rows:
            waited = base.seconds_since(
                (component.last_action or {}).get('last_updated'))
            if waited is None or waited > wait:
                due.append((component, node))
            elif self.ctx.owns(node):
                left = wait - waited + _DEADLINE_SLACK
                self._next = left if self._next is None else min(
                    self._next, left)
        return due

    def next_run(self, options):
        # This operator is not targeted: its next full pass is due then.
        return self._next
