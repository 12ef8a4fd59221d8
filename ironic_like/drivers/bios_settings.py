"""What the BIOS interfaces' ``apply_configuration`` steps share: the
step's argument, its parsing, and the check of the requested values
against the settings cached from the BMC (their registry: read-only,
allowed values, bounds), as Ironic checks them before it writes."""

from oslo_utils import strutils

from ironic_like.common import exception

APPLY_ARGSINFO = {'settings': {
    'description': 'List of BIOS settings, each item needs to contain a '
                   'dictionary with name/value pairs',
    'required': True}}


def parse(settings):
    """{name: value} of an apply_configuration step's ``settings`` (a
    list of {"name", "value"}); InvalidParameterValue naming
    ``settings`` otherwise."""
    if not isinstance(settings, list) or not all(
            isinstance(item, dict) and isinstance(item.get('name'), str)
            and item['name'] and 'value' in item for item in settings):
        raise exception.InvalidParameterValue(
            err='settings must be a list of {"name": ..., "value": ...} '
                '(got %r).' % (settings,), field='settings')
    return {item['name']: item['value'] for item in settings}


def _typed(cached, name, value, invalid):
    """``value`` as the BMC expects it for the cached setting (integers
    for Integer attributes, booleans for Boolean ones: the API's values
    may come as text); records ``name`` in ``invalid`` when the registry
    refuses it."""
    kind = cached.attribute_type
    if cached.read_only:
        invalid.append('%s (read-only)' % name)
    elif kind == 'Enumeration' and cached.allowable_values and \
            value not in cached.allowable_values:
        invalid.append('%s (not one of %s)' % (
            name, ', '.join(map(str, cached.allowable_values))))
    elif kind == 'Integer':
        try:
            number = _integer(value)
        except (TypeError, ValueError):
            invalid.append('%s (not an integer)' % name)
            return value
        if (cached.lower_bound is not None and number < cached.lower_bound
                or cached.upper_bound is not None
                and number > cached.upper_bound):
            invalid.append('%s (not within %s..%s)' % (
                name, cached.lower_bound, cached.upper_bound))
        return number
    elif kind == 'Boolean':
        try:
            return strutils.bool_from_string(value, strict=True)
        except ValueError:
            invalid.append('%s (not true or false)' % name)
    elif kind == 'String':
        if isinstance(value, (dict, list)) or value is None:
            invalid.append('%s (not text)' % name)
            return value
        value = str(value)
        if (cached.min_length is not None
                and len(value) < cached.min_length
                or cached.max_length is not None
                and len(value) > cached.max_length):
            invalid.append('%s (length not within %s..%s)' % (
                name, cached.min_length, cached.max_length))
    return value


def _integer(value):
    """An Integer setting's value: an int, or text or a float that is a
    whole number ("4", 4.0); ValueError or TypeError otherwise (a
    silent int(3.7) would write 3)."""
    if isinstance(value, bool):
        raise TypeError('a boolean')
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError('not whole')
        return int(value)
    return int(value)


def checked(node_id, settings):
    """{name: value} of ``settings`` checked against the node's cached
    BIOS settings and typed by their registry; a setting never cached is
    passed on as given (the BMC answers for it). InvalidParameterValue
    naming ``settings`` and each refused setting, before anything is
    written."""
    attributes = parse(settings)
    from ironic_like.db import api as db_api
    cached = {s.name: s for s in
              db_api.get_instance().get_bios_settings(node_id)}
    invalid = []
    typed = {}
    for name, value in attributes.items():
        typed[name] = (_typed(cached[name], name, value, invalid)
                       if name in cached else value)
    if invalid:
        raise exception.InvalidParameterValue(
            err='Invalid BIOS setting(s): %s.' % '; '.join(invalid),
            field='settings')
    return typed
