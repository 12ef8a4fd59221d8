"""Helpers shared by every kind of test (unit, functional, tempest).

Standard library only: the unit tests import this module, and must not
pull in what the functional harness or the tempest plugin depend on.
"""

import importlib.util
import os
import time


class StopWaiting(AssertionError):
    """Raised by a predicate of :func:`wait_for` when the condition can no
    longer hold (e.g. the process it waits for died): ends the wait at
    once, even where the wait retries the predicate's errors."""


def wait_for(predicate, timeout=10.0, interval=0.02, message=None,
             retry_on=(), failure=AssertionError):
    """Call ``predicate`` until it returns a true value; return that value.

    Bounded in time (``timeout`` seconds) and so in count. Raises
    ``failure`` with ``message`` (a string or a callable giving one) if
    the predicate never held. An exception of a ``retry_on`` type raised
    by the predicate counts as "not yet" (the last one is named in the
    failure), unless it is a :class:`StopWaiting`; any other exception
    ends the wait at once.
    """
    deadline = time.monotonic() + timeout
    attempts = max(1, int(timeout / interval) + 1)
    last_error = None
    for _ in range(attempts):
        try:
            result = predicate()
        except StopWaiting:
            raise
        except retry_on as e:
            result = None
            last_error = e
        if result:
            return result
        if time.monotonic() >= deadline:
            break
        time.sleep(interval)
    text = message() if callable(message) else message
    raise failure('%s (not true after %.1f s%s)'
                  % (text or 'condition', timeout,
                     '; last error: %r' % last_error if last_error else ''))


def load_tool(name):
    """The module of tools/<name>.py (the repository's scripts, not a
    package), loaded for its tests."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..',
                        '..', 'tools', '%s.py' % name)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
