"""The arguments an operation (condition or action) accepts.

An operation is a Python function; its parameters are the argument names
a rule may give under ``args``: those without a default are required, the
others optional. ``args`` is a dict of named arguments, or (deprecated) a
list of positional ones in the order of the function's parameters.
"""

import dataclasses
import inspect

from oslo_utils import strutils


@dataclasses.dataclass(frozen=True)
class Signature:
    required: tuple
    # name -> default, in the order of the function's parameters.
    optional: dict

    @classmethod
    def of(cls, func, skip=0):
        """The signature of ``func`` minus its first ``skip`` parameters
        (the engine's own, such as the action context)."""
        params = list(inspect.signature(func).parameters.values())[skip:]
        required = tuple(p.name for p in params
                         if p.default is inspect.Parameter.empty)
        optional = {p.name: p.default for p in params
                    if p.default is not inspect.Parameter.empty}
        return cls(required, optional)

    @property
    def names(self):
        """All argument names, in positional order."""
        return self.required + tuple(self.optional)

    def problems(self, args):
        """What is wrong with ``args`` (a list of messages, empty if
        nothing is)."""
        if isinstance(args, list):
            if len(args) > len(self.names):
                return ['too many positional arguments: %d given, at most '
                        '%d accepted (%s)' % (len(args), len(self.names),
                                              ', '.join(self.names))]
            args = dict(zip(self.names, args))
        elif not isinstance(args, dict):
            return ['args must be a dictionary of named arguments (or a '
                    'list of positional ones), not %s' % type(args).__name__]
        bad_keys = sorted(repr(k) for k in args if not isinstance(k, str))
        if bad_keys:
            return ['argument names must be strings: %s'
                    % ', '.join(bad_keys)]
        problems = []
        missing = [n for n in self.required if n not in args]
        if missing:
            problems.append('missing required argument(s): %s'
                            % ', '.join(missing))
        unexpected = sorted(set(args) - set(self.names))
        if unexpected:
            problems.append('unexpected argument(s): %s (accepted: %s)'
                            % (', '.join(unexpected), ', '.join(self.names)))
        return problems

    def named(self, args):
        """``args`` as a dict of the given arguments (a list is mapped
        onto the parameter names); defaults are not added."""
        if isinstance(args, list):
            return dict(zip(self.names, args))
        return dict(args or {})

    def bind(self, args):
        """Every argument by name: the given ones and the defaults of the
        others. ``args`` must be free of problems."""
        bound = dict(self.optional)
        bound.update(self.named(args))
        return bound


def to_bool(value):
    """A yes/no option given as a boolean or as "true"/"false"."""
    if isinstance(value, str):
        return strutils.bool_from_string(value)
    return bool(value)
