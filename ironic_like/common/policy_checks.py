"""oslo.policy's rule evaluation without an argument-spec look-up per
check.

oslo.policy evaluates a rule tree by calling ``_checks._check`` on every
node (each ``or``, ``and``, ``rule:`` and ``role:`` of the rule), and that
function asks ``inspect.getfullargspec`` each time whether the check's
``__call__`` takes the rule's name, to call it with or without. Building
a signature is slow: under a burst of allocations it was a fifth of an
API worker's CPU (issue 14, py-spy). The answer depends on the check's
class only, so it is computed once per class.

``install()`` replaces ``oslo_policy._checks._check`` with ``_check``
below: oslo.policy looks that function up by its module attribute at
every call (``_checks._check(...)`` in policy.py, and as a module global
in _checks.py), so every evaluation goes through it.
"""

import functools
import inspect

from oslo_policy import _checks

_ORIGINAL = _checks._check


@functools.lru_cache(maxsize=256)
def _takes_rule_name(check_class):
    # The same test as oslo.policy's: a bound __call__ with more than
    # (self, target, creds, enforcer) also takes the rule's name.
    return len(inspect.getfullargspec(check_class.__call__).args) > 4


def _check(rule, target, creds, enforcer, current_rule):
    """oslo_policy._checks._check, with the argument spec cached."""
    if '__call__' in getattr(rule, '__dict__', ()):
        # A __call__ set on the instance itself: not the class's, so not
        # what the cache knows; let oslo.policy look it up.
        return _ORIGINAL(rule, target, creds, enforcer, current_rule)
    if _takes_rule_name(type(rule)):
        return rule(target, creds, enforcer, current_rule)
    return rule(target, creds, enforcer)


def install():
    if _checks._check is not _check:
        _checks._check = _check
