"""A cache for pecan's argument-spec look-ups.

pecan looks up the argument spec of the controller method at every
request, several times (routing, RestController dispatch, invocation),
and its look-up builds a new namedtuple class each time: about a tenth of
the embedded service's CPU under a burst of allocations (issue 14). The
spec of a function never changes, so it is computed once per function.

Installed by api/app.py before the application is built; pecan's own
function stays the one that computes.
"""

import functools

from pecan import core
from pecan import rest
from pecan import routing
from pecan import util

_ORIGINAL = util.getargspec
_MODULES = (core, rest, routing, util)


@functools.lru_cache(maxsize=2048)
def _cached(func):
    return _ORIGINAL(func)


def getargspec(method):
    """pecan.util.getargspec, once per underlying function.

    A bound method has the spec of its function (pecan keeps ``self`` in
    both), and is a new object at every attribute access: the function
    is the key."""
    func = getattr(method, '__func__', method)
    try:
        return _cached(func)
    except TypeError:
        # Not hashable: nothing to cache it by.
        return _ORIGINAL(method)


def install():
    for module in _MODULES:
        if getattr(module, 'getargspec', None) is not getargspec:
            module.getargspec = getargspec
