"""A limit on failed agent lookups per client address.

Lookup is public (agents have no keystone token) and answers 404 for MAC
addresses no waiting node has, so it could be used to probe for the MACs
and UUIDs of nodes about to get a token. Each client address may fail
``[agent]lookup_failures_per_minute`` lookups (400 or 404) in a sliding
minute; beyond that its lookups are answered 429 with Retry-After until
the oldest of those failures is a minute old. Successful lookups and the
refused ones are not counted, so an agent retrying its lookup is never
locked out for longer than a minute.

The counts live in the API process (each worker has its own) and cover
at most MAX_ADDRESSES addresses: the one that failed least recently is
forgotten first, so memory stays bounded whatever the number of clients.
"""

import collections
import math
import threading
import time

from ironic_like.common import exception
from ironic_like.conf import CONF

WINDOW = 60.0
MAX_ADDRESSES = 10000
# The answers that count as failed lookups.
FAILED_CODES = (400, 404)


class FailureLimiter(object):

    def __init__(self, max_addresses=MAX_ADDRESSES, clock=time.monotonic):
        self.max_addresses = max_addresses
        self.clock = clock
        self._lock = threading.Lock()
        # address -> deque of the monotonic times of its recent failures,
        # least recently failing address first.
        self._failures = collections.OrderedDict()

    def __len__(self):
        with self._lock:
            return len(self._failures)

    def _recent(self, address, now, limit):
        times = self._failures.get(address)
        if times is None:
            return None
        while times and times[0] <= now - WINDOW:
            times.popleft()
        # Older failures beyond the limit would never be looked at.
        while len(times) > limit:
            times.popleft()
        if not times:
            del self._failures[address]
            return None
        return times

    def check(self, address):
        """TooManyRequests (429) if ``address`` failed too often."""
        limit = CONF.agent.lookup_failures_per_minute
        if not limit:
            return
        with self._lock:
            now = self.clock()
            times = self._recent(address, now, limit)
            if times is None or len(times) < limit:
                return
            wait = max(1, int(math.ceil(times[0] + WINDOW - now)))
        raise exception.TooManyRequests(
            'Too many failed lookups from this address; retry in %d '
            'seconds.' % wait, retry_after=wait)

    def failed(self, address):
        """Count a failed lookup of ``address``."""
        limit = CONF.agent.lookup_failures_per_minute
        if not limit:
            return
        with self._lock:
            now = self.clock()
            times = self._recent(address, now, limit)
            if times is None:
                times = self._failures[address] = collections.deque()
            else:
                self._failures.move_to_end(address)
            times.append(now)
            while len(times) > limit:
                times.popleft()
            while len(self._failures) > self.max_addresses:
                self._failures.popitem(last=False)

    def reset(self):
        with self._lock:
            self._failures.clear()


_LIMITER = FailureLimiter()


def limiter():
    """The process's limiter."""
    return _LIMITER


class guard(object):
    """``with guard(address):`` around a lookup: 429 at once when
    ``address`` failed too often, and a failure counted when the body
    raises an error answered 400 or 404."""

    def __init__(self, address, limiter=None):
        self.address = address or 'unknown'
        self.limiter = _LIMITER if limiter is None else limiter

    def __enter__(self):
        self.limiter.check(self.address)
        return self

    def __exit__(self, exc_type, exc, tb):
        if (isinstance(exc, exception.IronicLikeException)
                and exc.code in FAILED_CODES):
            self.limiter.failed(self.address)
        return False
