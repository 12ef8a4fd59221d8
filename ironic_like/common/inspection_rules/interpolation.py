"""Formatting of the arguments of a condition or action.

Strings are formatted with str.format and the variables ``node`` (an
object: "{node.name}"), ``inventory`` and ``plugin_data`` (dicts:
"{inventory[bmc_address]}") and, in a loop, ``item``; dicts (keys too) and
lists are formatted recursively. A string that cannot be formatted (a
missing key, a bad field...) is kept as written and a warning is logged;
for "is-empty" a missing key gives None instead.
"""

from oslo_log import log

LOG = log.getLogger(__name__)

# What str.format raises for a field it cannot resolve or a bad template.
_FORMAT_ERRORS = (AttributeError, KeyError, ValueError, IndexError,
                  TypeError)


class NodeView:
    """The node as "{node.x}" reads it: the fields the rules may change
    as they are now (earlier actions included), the rest from the node."""

    def __init__(self, node, fields):
        self._node = node
        self._fields = fields

    def __getattr__(self, name):
        if name.startswith('_'):
            raise AttributeError(name)
        if name in self._fields:
            return self._fields[name]
        return getattr(self._node, name)


class Formatter:
    """Formats values against one set of variables.

    :param variables: dict of the names a replacement field may use.
    :param missing_as_none: a string naming a missing key becomes None.
    :param quiet: do not show the string in the warning (sensitive rules).
    """

    def __init__(self, variables, missing_as_none=False, quiet=False):
        self.variables = variables
        self.missing_as_none = missing_as_none
        self.quiet = quiet

    def with_item(self, item):
        """A formatter that also knows ``item``, itself formatted first
        (so a loop item may hold "{inventory[...]}" fields)."""
        variables = dict(self.variables)
        variables['item'] = Formatter(
            self.variables, quiet=self.quiet).format(item)
        return Formatter(variables, self.missing_as_none, self.quiet)

    def format(self, value, is_key=False):
        if isinstance(value, str):
            return self._format_string(value, is_key)
        if isinstance(value, dict):
            return {self.format(k, is_key=True): self.format(v)
                    for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.format(v) for v in value]
        return value

    def _format_string(self, text, is_key):
        if '{' not in text and '}' not in text:
            return text
        try:
            return text.format(**self.variables)
        except _FORMAT_ERRORS as exc:
            if (isinstance(exc, KeyError) and self.missing_as_none
                    and not is_key):
                LOG.debug('Interpolation: missing field %s, using None', exc)
                return None
            if self.quiet:
                LOG.warning('Interpolation failed in a sensitive rule '
                            '(%s); the string is used as written',
                            type(exc).__name__)
            else:
                LOG.warning('Interpolation of %(text)r failed (%(cls)s: '
                            '%(exc)s); the string is used as written',
                            {'text': text, 'cls': type(exc).__name__,
                             'exc': exc})
            return text


def format_args(args, names, formatter, everything=False):
    """``args`` (a dict) with the arguments in ``names`` formatted, or all
    of them if ``everything`` (in a loop)."""
    return {name: (formatter.format(value)
                   if everything or name in names else value)
            for name, value in args.items()}
