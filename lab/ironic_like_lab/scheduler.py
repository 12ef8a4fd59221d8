"""One timer thread with a heap, feeding a small thread pool.

Thousands of virtual agents share it: a heartbeat or a lookup retry is an
entry in the heap, not a thread.
"""

import heapq
import itertools
import logging
import threading
import time
from concurrent import futures

LOG = logging.getLogger(__name__)


class Timer(object):
    """Handle of a scheduled call; ``cancel()`` makes it a no-op."""

    __slots__ = ('when', 'fn', 'args', 'cancelled')

    def __init__(self, when, fn, args):
        self.when = when
        self.fn = fn
        self.args = args
        self.cancelled = False

    def cancel(self):
        self.cancelled = True


class Scheduler(object):

    def __init__(self, workers=8, name='agent-sim'):
        self._heap = []
        self._seq = itertools.count()
        self._cond = threading.Condition()
        self._stopped = False
        self._pool = futures.ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix='%s-io' % name)
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name='%s-timer' % name)

    def start(self):
        self._thread.start()

    def stop(self, timeout=5.0):
        with self._cond:
            self._stopped = True
            self._heap = []
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout)
        self._pool.shutdown(wait=False, cancel_futures=True)

    def call_later(self, delay, fn, *args):
        timer = Timer(time.monotonic() + max(0.0, delay), fn, args)
        with self._cond:
            if self._stopped:
                timer.cancelled = True
                return timer
            heapq.heappush(self._heap, (timer.when, next(self._seq), timer))
            if self._heap[0][2] is timer:
                self._cond.notify()
        return timer

    def submit(self, fn, *args):
        return self._pool.submit(self._guard, fn, args)

    def pending(self):
        with self._cond:
            return sum(1 for _w, _s, t in self._heap if not t.cancelled)

    @staticmethod
    def _guard(fn, args):
        try:
            fn(*args)
        except Exception:
            LOG.exception('Scheduled call %s failed', fn)

    def _run(self):
        while True:
            due = []
            with self._cond:
                if self._stopped:
                    return
                now = time.monotonic()
                while self._heap and self._heap[0][0] <= now:
                    due.append(heapq.heappop(self._heap)[2])
                if not due:
                    wait = self._heap[0][0] - now if self._heap else 1.0
                    self._cond.wait(min(wait, 1.0))
                    continue
            for timer in due:
                if not timer.cancelled:
                    try:
                        self._pool.submit(self._guard, timer.fn, timer.args)
                    except RuntimeError:
                        return  # pool shut down
