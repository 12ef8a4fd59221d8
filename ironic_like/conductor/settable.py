"""The check every create/update on a conductor makes first: only the
fields a resource lets callers set are in the values (400 naming the
first other one)."""

from ironic_like.common import exception


def check(values, settable, what=None):
    """Raise InvalidParameterValue for the first field of ``values`` not
    in ``settable``; ``what`` ("a port", ...) names the resource in the
    message."""
    unknown = set(values) - set(settable)
    if not unknown:
        return
    field = sorted(unknown)[0]
    of = ' of %s' % what if what else ''
    raise exception.InvalidParameterValue(
        err='Field "%s"%s cannot be set.' % (field, of), field=field)
