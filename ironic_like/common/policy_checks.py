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

import ast
import functools
import inspect
import threading

from oslo_policy import _checks

_ORIGINAL = _checks._check

# GenericCheck's kinds ("project_id", "True", "'member'") read as Python
# literals, once each. oslo.policy parses the kind at every evaluation,
# and CPython 3.11's parser is not safe in concurrent threads: an API
# worker's threads evaluating policies at once failed with "SystemError:
# AST constructor recursion depth mismatch" (CPython gh-106905). The few
# kinds of the rules are parsed under a lock, then read from the dict.
_NOT_LITERAL = object()
_LITERALS = {}
_LITERALS_LOCK = threading.Lock()


@functools.lru_cache(maxsize=256)
def _takes_rule_name(check_class):
    # The same test as oslo.policy's: a bound __call__ with more than
    # (self, target, creds, enforcer) also takes the rule's name.
    return len(inspect.getfullargspec(check_class.__call__).args) > 4


def _literal(kind):
    """ast.literal_eval(kind), or _NOT_LITERAL where that is a ValueError
    (a name or a path: looked up in the credentials)."""
    try:
        return _LITERALS[kind]
    except KeyError:
        pass
    with _LITERALS_LOCK:
        try:
            value = ast.literal_eval(kind)
        except ValueError:
            value = _NOT_LITERAL
        _LITERALS[kind] = value
    return value


def _generic(rule, target, creds):
    """GenericCheck's answer, as oslo.policy gives it: the match (the
    target's value) against the kind read as a literal, else against the
    credentials at the kind's dotted path."""
    try:
        match = rule.match % target
    except KeyError:
        return False
    literal = _literal(rule.kind)
    if literal is not _NOT_LITERAL:
        return match == str(literal)
    return rule._find_in_dict(creds, rule.kind.split('.'), match)


def _check(rule, target, creds, enforcer, current_rule):
    """oslo_policy._checks._check, with the argument spec cached (and
    GenericCheck's literals parsed once)."""
    if '__call__' in getattr(rule, '__dict__', ()):
        # A __call__ set on the instance itself: not the class's, so not
        # what the cache knows; let oslo.policy look it up.
        return _ORIGINAL(rule, target, creds, enforcer, current_rule)
    if type(rule) is _checks.GenericCheck:
        return _generic(rule, target, creds)
    if _takes_rule_name(type(rule)):
        return rule(target, creds, enforcer, current_rule)
    return rule(target, creds, enforcer)


def install():
    if _checks._check is not _check:
        _checks._check = _check
