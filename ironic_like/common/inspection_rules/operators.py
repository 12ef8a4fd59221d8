"""Conditions: the checks a rule makes before its actions run.

Each condition is a function of its named arguments returning a bool (or
raising OpError when its arguments cannot be checked). An op prefixed with
"!" (optionally followed by a space), "!eq" or "! contains", is inverted.
"""

import dataclasses
import functools
import ipaddress
import operator
import re

from ironic_like.common.inspection_rules import arguments
from ironic_like.common.inspection_rules import errors

MULTIPLE = ('any', 'all', 'first', 'last')

# What an interpolated None, [] or {} reads as: formatting yields strings.
_EMPTY_STRINGS = ('', 'None', '[]', '{}')


def parse_op(op):
    """(name, inverted) of a condition op such as "!eq" or "! eq".

    :raises: ValueError if it is not a string or has more than one "!".
    """
    if not isinstance(op, str):
        raise ValueError('op must be a string, not %s' % type(op).__name__)
    name = op.strip()
    inverted = name.startswith('!')
    if inverted:
        name = name[1:].strip()
    if name.startswith('!'):
        raise ValueError('only one "!" may invert a condition, as in "!eq"')
    return name, inverted


def _number(text):
    try:
        return float(text)
    except ValueError:
        return None


def _compare(compare, symbol, values, force_strings):
    if not isinstance(values, list):
        raise errors.OpError("'values' must be a list, not %s"
                             % type(values).__name__)
    if arguments.to_bool(force_strings):
        values = [str(v) for v in values]
    try:
        return all(compare(a, b) for a, b in zip(values, values[1:]))
    except TypeError as exc:
        raise errors.OpError('cannot compare the values with %s (%s); set '
                             'force_strings to compare them as strings'
                             % (symbol, exc))


def eq(values, force_strings=False):
    return _compare(operator.eq, '==', values, force_strings)


def lt(values, force_strings=False):
    return _compare(operator.lt, '<', values, force_strings)


def gt(values, force_strings=False):
    return _compare(operator.gt, '>', values, force_strings)


def is_empty(value):
    if isinstance(value, str):
        return value in _EMPTY_STRINGS
    if isinstance(value, (list, tuple, dict)):
        return not value
    return value is None


def in_net(address, subnet):
    try:
        network = ipaddress.ip_network(str(subnet).strip(), strict=False)
    except ValueError as exc:
        raise errors.OpError('invalid subnet: %s' % exc)
    try:
        ip = ipaddress.ip_address(str(address).strip())
    except ValueError as exc:
        raise errors.OpError('invalid address: %s' % exc)
    return ip.version == network.version and ip in network


def _regex(regex):
    if not isinstance(regex, str):
        raise errors.OpError("'regex' must be a string, not %s"
                             % type(regex).__name__)
    try:
        return re.compile(regex)
    except re.error as exc:
        raise errors.OpError('invalid regular expression %r: %s'
                             % (regex, exc))


def matches(value, regex):
    return _regex(regex).fullmatch(str(value)) is not None


def contains(value, regex):
    return _regex(regex).search(str(value)) is not None


def one_of(value, values=()):
    if not isinstance(values, (list, tuple)):
        raise errors.OpError("'values' must be a list, not %s"
                             % type(values).__name__)
    return value in values


def is_none(value):
    # "{inventory[x]}" of a None value formats as "None".
    return value is None or value == 'None'


def is_true(value):
    if isinstance(value, (bool, int, float)):
        return bool(value)
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ('yes', 'true'):
            return True
        number = _number(text)
        return bool(number) if number is not None else False
    return False


def is_false(value):
    if value is None:
        return True
    if isinstance(value, (bool, int, float)):
        return not value
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ('no', 'false', 'none'):
            return True
        return _number(text) == 0
    return False


@dataclasses.dataclass(frozen=True)
class Condition:
    name: str
    check: object
    # Arguments interpolated outside loops (in a loop all of them are).
    formatted: tuple
    # A missing key in a replacement field means None (is-empty).
    missing_as_none: bool = False

    @functools.cached_property
    def signature(self):
        return arguments.Signature.of(self.check)


CONDITIONS = {c.name: c for c in (
    Condition('eq', eq, ('values',)),
    Condition('lt', lt, ('values',)),
    Condition('gt', gt, ('values',)),
    Condition('is-empty', is_empty, ('value',), missing_as_none=True),
    Condition('in-net', in_net, ('address', 'subnet')),
    Condition('matches', matches, ('value',)),
    Condition('contains', contains, ('value',)),
    Condition('one-of', one_of, ('value',)),
    Condition('is-none', is_none, ('value',)),
    Condition('is-true', is_true, ('value',)),
    Condition('is-false', is_false, ('value',)),
)}
# eq, lt, gt, is-empty, in-net, matches, contains, one-of, is-none,
# is-true, is-false.
NAMES = tuple(CONDITIONS)


def static_problems(name, args, in_loop):
    """Problems visible before any data: the checks of validate_rule
    beyond the argument names. ``args`` is the dict of given arguments."""
    problems = []
    values = args.get('values')
    if 'values' in args and not isinstance(values, list):
        problems.append("'values' must be a list, not %s"
                        % type(values).__name__)
    if name in ('matches', 'contains') and 'regex' in args and not in_loop:
        try:
            _regex(args['regex'])
        except errors.OpError as exc:
            problems.append(str(exc))
    return problems
