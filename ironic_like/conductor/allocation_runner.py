"""Runs allocation flows on a few threads, batching bursts.

Each allocation to process is queued; up to ``workers`` threads drain the
queue, taking up to ``batch_size`` allocations per flow run. One
allocation on a quiet conductor runs at once, alone; a burst of hundreds
is served in batches, paying taskflow's per-run cost once per batch.
"""

import collections
from concurrent import futures
import threading

from oslo_log import log

from ironic_like.conductor.flows import allocation as allocation_flow
from ironic_like.db import api as db_api

LOG = log.getLogger(__name__)


class AllocationRunner(object):

    def __init__(self, host, workers, batch_size):
        self.host = host
        self.workers = workers
        self.batch_size = batch_size
        self._pending = collections.deque()
        # Queued or in a flow now: add() ignores these, so a sweep and a
        # late RPC cast of the same allocation run it once.
        self._known = set()
        self._lock = threading.Lock()
        self._running = 0
        self._stopping = False
        self._executor = futures.ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix='allocation-worker')

    def add(self, allocation_id):
        """Queue an allocation of this host for processing."""
        with self._lock:
            if allocation_id in self._known:
                return
            if self._stopping:
                refused = True
            else:
                refused = False
                self._known.add(allocation_id)
                self._pending.append(allocation_id)
                spawn = self._running < self.workers
                if spawn:
                    self._running += 1
        if refused:
            self._refuse([allocation_id], 'the conductor is stopping')
            return
        if spawn:
            try:
                self._executor.submit(self._drain)
            except RuntimeError as e:
                with self._lock:
                    self._running -= 1
                    left = list(self._pending) if not self._running else []
                    if left:
                        self._pending.clear()
                        self._known.difference_update(left)
                self._refuse(left, e)

    def _drain(self):
        while True:
            with self._lock:
                batch = []
                while self._pending and len(batch) < self.batch_size and \
                        not self._stopping:
                    batch.append(self._pending.popleft())
                if not batch:
                    self._running -= 1
                    return
            try:
                allocation_flow.run(batch, self.host)
            finally:
                with self._lock:
                    self._known.difference_update(batch)

    def _refuse(self, allocation_ids, reason):
        """Fail allocations nobody here will process: none may stay
        `allocating` with no conductor working on it."""
        db = db_api.get_instance()
        for allocation_id in allocation_ids:
            message = ('Conductor %s could not start the allocation: %s'
                       % (self.host, reason))
            try:
                db.fail_allocation(allocation_id, self.host, message)
            except Exception:
                LOG.exception('Could not fail allocation %s',
                              allocation_id)

    def known(self):
        """Ids of the allocations queued or in a flow now."""
        with self._lock:
            return set(self._known)

    def pending(self):
        with self._lock:
            return len(self._pending)

    def stop(self):
        """Finish the flows under way; what is still queued stays
        `allocating` with this host, and is resumed when it starts again
        or taken over by another conductor once this one is gone."""
        with self._lock:
            self._stopping = True
            left = len(self._pending)
        if left:
            LOG.info('%d queued allocations are left for a restart or a '
                     'take-over', left)
        self._executor.shutdown(wait=True)
