"""The loop every boot-session operator runs.

BOS runs each operator as one process that polls every
``polling_frequency`` seconds, so each hand-off between operators waits
for the next loop (up to 105 s per reboot). Here an operator also wakes
at once when something it acts on changed (``wake()``: in-process from
another operator, or by RPC from the API and other conductors); polling
stays as the safety net. Options are re-read at the top of every loop,
as BOS does.
"""

import threading
import time

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.common.boot import component_status as cs
from ironic_like.common.boot import options as boot_options
from ironic_like.common import exception
from ironic_like.conductor.boot import component_writes
from ironic_like.conductor import fencing

LOG = log.getLogger(__name__)

# A loop that found nothing to do and was not woken sleeps at most this
# long when polling_frequency is larger; bounded below so that a burst of
# wake-ups coalesces into one loop instead of spinning.
MIN_LOOP_INTERVAL = 0.05
# A node locked by other work (a power sync, a heartbeat) is tried again
# this soon rather than a polling period later.
LOCKED_RETRY_INTERVAL = 1.0


class Operator(object):
    """Subclasses set ``name`` and implement ``run_once(options)``.

    ``frequency_option``: the option naming the polling period.
    ``run_once`` may return a number of seconds after which it wants to
    run again (a deadline it knows of), sooner than the period.
    """

    name = None
    frequency_option = 'polling_frequency'

    def __init__(self, context):
        self.ctx = context
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = None
        self.loops = 0
        self.cpu_seconds = 0.0

    # -- loop ------------------------------------------------------------

    def start(self):
        self._thread = threading.Thread(target=self._loop,
                                        name='boot-%s' % self.name,
                                        daemon=True)
        self._thread.start()

    def stop(self):
        self._stop.set()
        self._wake.set()

    def join(self, timeout=None):
        if self._thread is not None:
            self._thread.join(timeout)

    def wake(self):
        self._wake.set()

    def _loop(self):
        while not self._stop.is_set():
            started = time.monotonic()
            again = None
            self._wake.clear()
            try:
                if not fencing.is_fenced():
                    options = boot_options.effective(
                        self.ctx.db.get_boot_options())
                    cpu = time.thread_time()
                    again = self.run_once(options)
                    self.cpu_seconds += time.thread_time() - cpu
                    self.loops += 1
                else:
                    options = boot_options.DEFAULTS
            except Exception:
                LOG.exception('Boot operator %s failed; trying again at its '
                              'next loop', self.name)
                options = boot_options.DEFAULTS
            period = float(options.get(self.frequency_option) or 1)
            if again is not None:
                period = min(period, again)
            elapsed = time.monotonic() - started
            self._wake.wait(max(MIN_LOOP_INTERVAL, period - elapsed))

    def run_once(self, options):
        raise NotImplementedError


class NodeOperator(Operator):
    """Acts on components of the nodes this conductor owns, in chunks of
    ``max_component_batch_size``, counting attempts BOS's way."""

    # The last_action.action this operator records, and the event_stats
    # counter of its attempts (retry policy), if any.
    action = None
    retry_field = None

    def select(self, options):
        """[(component, node)] that may need this operator (one indexed
        query); ownership is filtered afterwards."""
        raise NotImplementedError

    def act(self, component, node, options):
        """Do the work for one node. Return True if something was done."""
        raise NotImplementedError

    def run_once(self, options):
        rows = [row for row in self.select(options)
                if self.ctx.owns(row[1])]
        batch = int(options.get('max_component_batch_size') or 0)
        batch = batch or len(rows) or 1
        did = 0
        busy = False
        for start in range(0, len(rows), batch):
            for component, node in rows[start:start + batch]:
                if self._stop.is_set():
                    return None
                if self.retry_field and self._retries_exhausted(
                        component, node, options):
                    continue
                try:
                    if self.act(component, node, options):
                        did += 1
                except exception.NodeLocked:
                    busy = True  # a power sync, a heartbeat: soon free
                except exception.BootComponentChanged:
                    continue  # another writer got there first
                except Exception as e:
                    self.record_failure(component, node, e)
        if did:
            self.after_work()
        again = self.next_run(options)
        if busy:
            again = min(again or LOCKED_RETRY_INTERVAL, LOCKED_RETRY_INTERVAL)
        return again

    def next_run(self, options):
        return None

    def after_work(self):
        """Wake the operators that act next."""

    def _retries_exhausted(self, component, node, options):
        policy = component.retry_policy
        if policy is None:
            policy = options['default_retry_policy']
        if policy < 0:
            return False
        attempts = (component.event_stats or {}).get(self.retry_field, 0)
        if attempts < policy:
            return False
        error = component.error or (
            'The retry limit (%d) of %s has been hit for this component; '
            'no service reported a specific error' % (policy, self.action))
        try:
            self.ctx.db.update_boot_component(
                component.node_id,
                {'status_override': cs.FAILED, 'error': error},
                expected={'status': component.status})
        except exception.BootComponentChanged:
            pass
        self.ctx.wake('status')
        return True

    def record_failure(self, component, node, error):
        """The action failed: say so on the component, with the step and
        the real cause (BOS keeps only str(e) of a whole chunk)."""
        message = '%s failed: %s' % (self.action or self.name,
                                     exception.safe_message(error))
        LOG.warning('Boot operator %s, node %s: %s', self.name, node.uuid,
                    message)
        values = {'error': message}
        if self.action:
            values['last_action'] = {
                'action': self.action, 'failed': True,
                'last_updated': component_writes.now_iso()}
        try:
            self.ctx.db.update_boot_component(component.node_id, values)
        except exception.BootComponentNotFound:
            pass
        self.ctx.wake('status')

    def preset_action(self, component):
        """Record the action and count the attempt BEFORE acting, with a
        compare-and-swap on the status the component was selected in: of
        two conductors that both selected it, one wins; a conductor that
        dies after this leaves an attempt counted, never one done twice
        unseen (BOS presets last_action too, for a similar race).

        The error of the previous attempt stays until the node reaches its
        state: if the retries run out, it is the cause reported (BOS
        clears it first and then reports "retry limit hit" alone)."""
        stats = dict(component.event_stats or {})
        if self.retry_field:
            stats[self.retry_field] = stats.get(self.retry_field, 0) + 1
        return self.ctx.db.update_boot_component(
            component.node_id,
            {'last_action': {'action': self.action, 'failed': False,
                             'last_updated': component_writes.now_iso()},
             'event_stats': stats},
            expected={'status': component.status})


def seconds_since(iso_time, now=None):
    from ironic_like.conductor.boot import records
    moment = records.parse_time(iso_time)
    if moment is None:
        return None
    return ((now or timeutils.utcnow()) - moment).total_seconds()
