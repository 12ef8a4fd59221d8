"""The loop every boot-session operator runs.

BOS runs each operator as one process that polls every
``polling_frequency`` seconds, so each hand-off between operators waits
for the next loop (up to 105 s per reboot). Here an operator also wakes
at once when something it acts on changed (``wake()``: in-process from
another operator, or by RPC from the API and other conductors); polling
stays as the safety net. Options are re-read at the top of every loop,
as BOS does.
"""

from concurrent import futures
import threading
import time

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.common.boot import component_status as cs
from ironic_like.common.boot import options as boot_options
from ironic_like.common import exception
from ironic_like.conductor.boot import component_writes
from ironic_like.conductor import fencing
from ironic_like.conf import CONF
from ironic_like.db.sqlalchemy import api as sa_api

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

    ``frequency_option``: the option naming the polling period: a full
    pass at least that often. ``run_once`` may return a number of seconds
    after which it wants a full pass again (a deadline it knows of).
    A targeted operator (``targeted = True``) can also be woken for some
    nodes only (``wake(node_ids)``, ``schedule(node_id, seconds)``): it
    then looks at just those (``run_once(options, node_ids)``), so that a
    hand-off for one node does not cost a pass over the whole fleet.
    """

    name = None
    frequency_option = 'polling_frequency'
    targeted = False

    def __init__(self, context):
        self.ctx = context
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = None
        self._lock = threading.Lock()
        self._full_wanted = True
        self._full_due = 0.0
        self._targets = set()
        self._timers = {}
        self.loops = 0
        self.targeted_loops = 0
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

    def wake(self, node_ids=None):
        """Act now: on everything, or (targeted operators) on these nodes."""
        with self._lock:
            if node_ids is None or not self.targeted:
                self._full_wanted = True
            else:
                self._targets.update(node_ids)
        self._wake.set()

    def schedule(self, node_id, seconds):
        """Look at ``node_id`` again in ``seconds`` (a deadline of its)."""
        due = time.monotonic() + max(seconds, MIN_LOOP_INTERVAL)
        with self._lock:
            if not self.targeted:
                self._full_due = min(self._full_due, due)
                return
            self._timers[node_id] = min(self._timers.get(node_id, due), due)

    def _take_work(self, period):
        """(full pass?, node ids) to act on now."""
        now = time.monotonic()
        with self._lock:
            full = self._full_wanted or now >= self._full_due
            due = [n for n, at in self._timers.items() if at <= now]
            for node_id in due:
                del self._timers[node_id]
            targets = self._targets.union(due)
            self._full_wanted = False
            self._targets = set()
            if full:
                self._full_due = now + period
        return full, targets

    def _seconds_to_next(self):
        with self._lock:
            due = min([self._full_due] + list(self._timers.values()))
        return due - time.monotonic()

    def _loop(self):
        while not self._stop.is_set():
            self._wake.clear()
            try:
                self._run_loop()
            except Exception:
                LOG.exception('Boot operator %s failed; trying again at its '
                              'next loop', self.name)
                with self._lock:
                    self._full_due = min(self._full_due, time.monotonic()
                                         + boot_options.DEFAULTS[
                                             'polling_frequency'])
            self._wake.wait(max(MIN_LOOP_INTERVAL, self._seconds_to_next()))

    def _run_loop(self):
        if fencing.is_fenced():
            return
        options = boot_options.effective(self.ctx.db.get_boot_options())
        period = float(options.get(self.frequency_option) or 1)
        full, targets = self._take_work(period)
        if not full and not targets:
            return
        cpu = time.thread_time()
        again = self.run_once(options, None if full else targets)
        self.cpu_seconds += time.thread_time() - cpu
        self.loops += 1
        if not full:
            self.targeted_loops += 1
        if again is not None:
            with self._lock:
                self._full_due = min(self._full_due,
                                     time.monotonic() + again)

    def run_once(self, options, node_ids=None):
        raise NotImplementedError


class NodeOperator(Operator):
    """Acts on components of the nodes this conductor owns, in chunks of
    ``max_component_batch_size``, counting attempts BOS's way. The nodes
    of a chunk are handled by a few worker threads
    ([boot]operator_workers): the work is mostly waiting for BMCs."""

    # The last_action.action this operator records, and the event_stats
    # counter of its attempts (retry policy), if any.
    action = None
    retry_field = None

    def __init__(self, context):
        super().__init__(context)
        self._pool = None

    def stop(self):
        super().stop()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def select(self, options, node_ids=None):
        """[(component, node)] that may need this operator (one indexed
        query; only ``node_ids`` if given); ownership is filtered
        afterwards."""
        raise NotImplementedError

    def act(self, component, node, options):
        """Do the work for one node. Return True if something was done."""
        raise NotImplementedError

    def _workers(self):
        if self._pool is None:
            self._pool = futures.ThreadPoolExecutor(
                max_workers=CONF.boot.operator_workers,
                thread_name_prefix='boot-%s' % self.name,
                initializer=sa_api.mark_worker_thread)
        return self._pool

    def _process(self, component, node, options):
        """Act on one node; True if something was done."""
        if self._stop.is_set():
            return False
        if self.retry_field and self._retries_exhausted(component, node,
                                                        options):
            return False
        try:
            return bool(self.act(component, node, options))
        except exception.NodeLocked:
            # A power sync, a heartbeat: soon free.
            self.schedule(component.node_id, LOCKED_RETRY_INTERVAL)
        except exception.BootComponentChanged:
            pass  # another writer got there first
        except Exception as e:
            self.record_failure(component, node, e)
        return False

    def run_once(self, options, node_ids=None):
        rows = [row for row in self.select(options, node_ids)
                if self.ctx.owns(row[1])]
        batch = int(options.get('max_component_batch_size') or 0)
        batch = batch or len(rows) or 1
        for start in range(0, len(rows), batch):
            if self._stop.is_set():
                return None
            chunk = rows[start:start + batch]
            done = list(self._workers().map(
                lambda row: self._process(row[0], row[1], options), chunk))
            acted = [row[0].node_id for row, did in zip(chunk, done) if did]
            if acted:
                self.after_work(acted)
        return self.next_run(options)

    def next_run(self, options):
        return None

    def after_work(self, node_ids):
        """Wake the operators that act next on ``node_ids``."""

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
        self.ctx.wake('status', node_ids=[component.node_id])
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
        self.ctx.wake('status', node_ids=[component.node_id])

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
