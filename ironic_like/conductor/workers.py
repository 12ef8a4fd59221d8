"""The conductor's worker threads, with admission instead of a queue.

Background work (power changes, provisioning flows, heartbeat follow-ups,
take-overs) is handed to a worker together with the node's lock
(locks.NodeTask.spawn_after). A queue in front of the workers would hold
those locks while the work merely waits, locking out heartbeats and
operators for as long as the backlog lasts. So work is taken only when a
thread is free to start it at once; otherwise it is refused with
ConductorBusy (503 with Retry-After at the API), as Ironic refuses with
"no free conductor workers", and the caller undoes what it recorded.
"""

from concurrent import futures
import threading

from ironic_like.common import exception
from ironic_like.conf import CONF


class AdmittingExecutor(object):

    def __init__(self, max_workers, **kwargs):
        self.max_workers = max_workers
        self._free = threading.BoundedSemaphore(max_workers)
        self._pool = futures.ThreadPoolExecutor(max_workers=max_workers,
                                                **kwargs)

    def submit(self, fn, *args, **kwargs):
        """Start ``fn`` in a free thread now, or raise ConductorBusy."""
        if not self._free.acquire(blocking=False):
            raise exception.ConductorBusy(host=CONF.host,
                                          workers=self.max_workers)

        def run():
            try:
                return fn(*args, **kwargs)
            finally:
                self._free.release()

        try:
            return self._pool.submit(run)
        except BaseException:
            self._free.release()
            raise

    def shutdown(self, wait=True):
        self._pool.shutdown(wait=wait)
