"""Field registries and views shared by the resources.

A view is built once per request (version, requested fields, base URL)
into a flat list of (name, getter) pairs; rendering a row is then one dict
comprehension, which keeps a page of a thousand nodes cheap. Getters read
plain attributes, so ORM objects and the DB layer's column snapshots both
work, and a short list loads only the columns its fields need.
"""

import operator

from ironic_like.api import links
from ironic_like.api import versions
from ironic_like.common import exception
from ironic_like.common import masking

# What Ironic shows instead of a secret.
MASK = masking.MASK


_NO_VALUE = object()


class Field(object):
    """One field: its name, the version it appeared in, the DB columns it
    needs and a factory ``make(ctx) -> getter(row)``.

    ``attr`` marks a field that is a plain attribute of the row and
    ``value`` a constant one: views read those without a Python call per
    field (see View.render).
    """

    __slots__ = ('name', 'since', 'columns', 'make', 'attr', 'value')

    def __init__(self, name, since, columns, make, attr=None,
                 value=_NO_VALUE):
        self.name = name
        self.since = since
        self.columns = tuple(columns)
        self.make = make
        self.attr = attr
        self.value = value


class ViewContext(object):
    """What getters may need besides the row (base URL, helpers)."""

    def __init__(self, base_url, **helpers):
        self.base_url = base_url
        self.__dict__.update(helpers)


def format_datetime(value):
    """ISO 8601 with the UTC offset, as Ironic prints times."""
    if value is None:
        return None
    text = value.isoformat()
    return text if value.tzinfo is not None else text + '+00:00'


def mask_secrets(value):
    """``value`` with its secrets masked (see common.masking.mask_dict);
    the same object when there is nothing to mask (the common case: no
    copy)."""
    return masking.mask_dict(value)


# -- field factories ------------------------------------------------------

def column(name, since=versions.MIN_VERSION, column_name=None):
    attr = column_name or name
    getter = operator.attrgetter(attr)
    return Field(name, since, [attr], lambda ctx: getter, attr=attr)


def datetime_column(name, since=versions.MIN_VERSION):
    getter = operator.attrgetter(name)

    def make(ctx):
        return lambda row: format_datetime(getter(row))
    return Field(name, since, [name], make)


def masked_column(name, since=versions.MIN_VERSION):
    getter = operator.attrgetter(name)

    def make(ctx):
        return lambda row: mask_secrets(getter(row))
    return Field(name, since, [name], make)


def constant(name, value, since=versions.MIN_VERSION):
    """A field Ironic has and we do not implement: a fixed value keeps
    clients that read it working."""
    return Field(name, since, [], lambda ctx: (lambda row: value),
                 value=value)


def links_field(resource, key_column):
    getter = operator.attrgetter(key_column)

    def make(ctx):
        base = ctx.base_url
        return lambda row: links.make_links(base, resource, getter(row))
    return Field('links', versions.MIN_VERSION, [key_column], make)


def registry(*fields):
    return {f.name: f for f in fields}


# -- selecting fields -----------------------------------------------------

def parse_fields(value):
    """The list of names of a ``fields=a,b`` query parameter."""
    if value is None:
        return None
    names = [name.strip() for name in value.split(',') if name.strip()]
    if not names:
        raise exception.InvalidParameterValue(
            err='The fields parameter is empty.', field='fields')
    return names


def select(fields_registry, version, fields=None, default=None):
    """Names to show: the requested ``fields`` (plus links), else
    ``default`` (a short form), else everything the version has."""
    if fields is not None:
        unknown = [f for f in fields if f not in fields_registry]
        if unknown:
            raise exception.InvalidParameterValue(
                err='Field(s) "%s" are not valid' % ', '.join(unknown),
                field='fields')
        too_new = [f for f in fields if fields_registry[f].since > version]
        if too_new:
            raise exception.NotAcceptable(
                'Field(s) "%s" need a newer API version than %s.'
                % (', '.join(too_new), versions.to_string(version)))
        return list(dict.fromkeys(list(fields) + ['links']))
    names = default if default is not None else list(fields_registry)
    return [n for n in names if fields_registry[n].since <= version]


class View(object):
    """Renders rows as dicts of the selected fields.

    Plain columns are read by one C-level attrgetter and zipped into the
    dict, constants are copied in by dict.update, and only computed fields
    cost a Python call each: a node has about 45 fields, and a page may
    hold a thousand nodes.
    """

    def __init__(self, fields_registry, names, ctx):
        self.names = names
        fields = [fields_registry[name] for name in names]
        plain = [f for f in fields if f.attr is not None]
        self._plain_names = tuple(f.name for f in plain)
        if len(plain) > 1:
            self._plain_get = operator.attrgetter(*[f.attr for f in plain])
        elif plain:
            one = operator.attrgetter(plain[0].attr)
            self._plain_get = lambda row: (one(row),)
        else:
            self._plain_get = lambda row: ()
        self._constants = {f.name: f.value for f in fields
                           if f.attr is None and f.value is not _NO_VALUE}
        self._computed = [(f.name, f.make(ctx)) for f in fields
                          if f.attr is None and f.value is _NO_VALUE]
        columns = set()
        for field in fields:
            columns.update(field.columns)
        self.columns = columns

    def render(self, row):
        doc = dict(zip(self._plain_names, self._plain_get(row)))
        if self._constants:
            doc.update(self._constants)
        for name, get in self._computed:
            doc[name] = get(row)
        return doc
