"""Helpers the command modules share: KEY=VALUE options, reading an input
file, request bodies and JSON patches of options, output columns and the
--wait loop."""

import argparse
import json
import os
import sys
import time

from cliff import columns
from osc_lib.cli import format_columns
from osc_lib import exceptions as osc_exc
from oslo_utils import strutils
from oslo_utils import uuidutils
import yaml

from ironic_like.osc import client as http

# Link fields no command prints unless asked for with --fields
# ("portgroups": a node's links to its port groups, from 1.24).
LINK_FIELDS = ('links', 'ports', 'portgroups', 'states',
               'properties_links')

# Column titles that title-casing alone gets wrong.
_LABELS = {
    'uuid': 'UUID',
    'provision_state': 'Provisioning State',
    'pxe_enabled': 'PXE boot enabled',
}
_WORDS = {'uuid': 'UUID', 'id': 'ID', 'pxe': 'PXE', 'raid': 'RAID'}


# -- option values ----------------------------------------------------------

def key_value(text, deserialize=True):
    """(key, value) of 'KEY=VALUE'; the value is decoded as JSON when it
    is JSON (``cpus=4`` gives 4), else kept as a string."""
    key, sep, value = text.partition('=')
    if not sep or not key:
        raise osc_exc.CommandError(
            'Expected KEY=VALUE, not "%s".' % text)
    if deserialize:
        try:
            value = json.loads(value)
        except ValueError:
            pass
    return key, value


def to_dict(items, deserialize=True):
    """{key: value} of a list of 'KEY=VALUE' (later ones win)."""
    return dict(key_value(item, deserialize) for item in items or ())


def bool_arg(value):
    """argparse type: a boolean written as true/false, yes/no, 1/0..."""
    try:
        return strutils.bool_from_string(value, strict=True)
    except ValueError:
        raise argparse.ArgumentTypeError(
            'Invalid boolean "%s": use true or false.' % value)


def json_arg(value):
    """argparse type: a JSON document."""
    try:
        return json.loads(value)
    except ValueError as e:
        raise argparse.ArgumentTypeError('Invalid JSON: %s' % e)


def flatten(values):
    """Items of an ``action='append', nargs='+'`` option, also split on
    commas (``--fields uuid,name`` equals ``--fields uuid name``)."""
    result = []
    for group in values or ():
        if isinstance(group, str):
            group = [group]
        for value in group:
            result.extend(v for v in value.split(',') if v)
    return list(dict.fromkeys(result))


def sort_params(sort):
    """sort_key/sort_dir query parameters of ``--sort key[:dir]``."""
    if not sort:
        return {}
    key, _sep, direction = sort.partition(':')
    params = {'sort_key': key}
    if direction:
        if direction not in ('asc', 'desc'):
            raise osc_exc.CommandError(
                'Invalid sort direction "%s": use asc or desc.' % direction)
        params['sort_dir'] = direction
    return params


def add_wait_option(parser, what):
    parser.add_argument(
        '--wait', type=int, dest='wait_timeout', default=None,
        metavar='<time-out>', const=0, nargs='?',
        help='Wait until %s; the optional value is a time-out in seconds '
             '(0 or none: wait as long as it takes). A failure exits with '
             'status 1 and the cause.' % what)


def add_fields_option(parser, what):
    parser.add_argument(
        '--fields', nargs='+', dest='fields', metavar='<field>',
        action='append', default=[],
        help='One or more %s fields to show (repeatable; the API names, '
             'e.g. uuid name).' % what)


# -- input ------------------------------------------------------------------

def read_text(name, stdin=None):
    """The text of file ``name`` ('-': standard input, or ``stdin``);
    CommandError when it cannot be read."""
    try:
        if name == '-':
            return (stdin if stdin is not None else sys.stdin).read()
        with open(name) as f:
            return f.read()
    except OSError as e:
        raise osc_exc.CommandError('Cannot read %s: %s'
                                   % (name, e.strerror or e))


def load_json_or_file(value, what, stdin=None):
    """A JSON document given as is, as a file of JSON or YAML, or '-'
    (standard input), as python-ironicclient reads them."""
    if value == '-' or os.path.isfile(value):
        text = read_text(value, stdin)
        try:
            return yaml.safe_load(text)
        except yaml.YAMLError as e:
            raise osc_exc.CommandError('Invalid %s in %s: %s'
                                       % (what, value, http.one_line(e)))
    try:
        return json.loads(value)
    except ValueError as e:
        raise osc_exc.CommandError(
            'Invalid %s: "%s" is neither a file nor JSON (%s).'
            % (what, value, e))


# -- request bodies and JSON patches ---------------------------------------

def _pointer(*parts):
    return '/' + '/'.join(str(p).strip('/') for p in parts if p != '')


def add_op(path, value):
    return {'op': 'add', 'path': path, 'value': value}


def remove_op(path):
    return {'op': 'remove', 'path': path}


def dict_add_ops(field, items, deserialize=True):
    """'add' operations of ``--FIELD KEY=VALUE`` options; a KEY with '/'
    reaches into nested objects, as in python-ironicclient."""
    return [add_op(_pointer(field, key), value)
            for key, value in (key_value(i, deserialize)
                               for i in items or ())]


def dict_remove_ops(field, keys):
    return [remove_op(_pointer(field, key)) for key in keys or ()]


# How an option of a create, set or unset command maps to its API field
# (named as the option's dest): VALUE is the field's value (unset: a flag
# removing the field); DICT and STR_DICT are KEY=VALUE items of a
# dictionary field (unset: KEYs), the values decoded as JSON or kept as
# strings.
VALUE = 'value'
DICT = 'dict'
STR_DICT = 'str_dict'


def body_fields(parsed_args, fields):
    """The fields of a create request given by the options: ``fields``
    maps option dests to VALUE, DICT or STR_DICT."""
    body = {}
    for name, kind in fields.items():
        value = getattr(parsed_args, name, None)
        if kind == VALUE:
            if value is not None:
                body[name] = value
        elif value:
            body[name] = to_dict(value, kind == DICT)
    return body


def patch_ops(parsed_args, fields, remove=False):
    """The JSON patch of a set (or, with ``remove``, unset) command, in the
    order of ``fields`` (option dest -> VALUE, DICT or STR_DICT)."""
    patch = []
    for name, kind in fields.items():
        value = getattr(parsed_args, name, None)
        if kind != VALUE:
            patch += (dict_remove_ops(name, value) if remove
                      else dict_add_ops(name, value, kind == DICT))
        elif remove and value is True:
            patch.append(remove_op('/' + name))
        elif not remove and value is not None:
            patch.append(add_op('/' + name, value))
    return patch


# -- output -----------------------------------------------------------------

def label(field):
    """Column title of an API field: ``instance_uuid`` -> Instance UUID."""
    if field in _LABELS:
        return _LABELS[field]
    return ' '.join(_WORDS.get(w, w.capitalize()) for w in field.split('_'))


class JsonLinesColumn(columns.FormattableColumn):
    """A list of objects (deploy or runbook steps) in a table: one JSON
    object a line, as osc-lib's ListColumn only joins strings; unchanged
    in json and yaml."""

    def human_readable(self):
        return '\n'.join(json.dumps(item) for item in self._value)

    def machine_readable(self):
        return self._value


def formatted(value):
    """A value as cliff prints it: dicts and lists readable in a table,
    unchanged in json and yaml."""
    if isinstance(value, dict):
        return format_columns.DictColumn(value)
    if isinstance(value, list):
        if any(isinstance(item, (dict, list)) for item in value):
            return JsonLinesColumn(value)
        return format_columns.ListColumn(value)
    return value


def show(doc, drop=LINK_FIELDS, keep=()):
    """(names, values) of one resource for a ShowOne, sorted by name."""
    names = sorted(k for k in doc if k not in drop or k in keep)
    return tuple(names), tuple(formatted(doc[k]) for k in names)


def add_yes_no_filter(parser, dest, yes_flags, yes_help, no_flags,
                      no_help):
    """A yes/no filter of a list: ``dest`` is True, False or (neither flag
    given) None."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(*yes_flags, dest=dest, action='store_true',
                       default=None, help=yes_help)
    group.add_argument(*no_flags, dest=dest, action='store_false',
                       help=no_help)


def with_shards(client, params, shards):
    """``params`` of a list with its ``--shards``: ?shard= the shards
    joined by commas (API 1.82)."""
    if shards:
        client.require(http.NODE_SHARD, '--shards')
        params['shard'] = ','.join(shards)
    return params


def add_conductor_groups_option(parser, what, exclusive):
    """--conductor-group of the port and port group lists (API 1.99);
    ``exclusive``: the filters the server refuses it with."""
    parser.add_argument(
        '--conductor-group', dest='conductor_groups', metavar='<group>',
        action='append',
        help='Only the %s of the nodes of this conductor group '
             '(repeatable, or a comma-separated list; not with %s; API '
             '1.99).' % (what, exclusive))


def with_conductor_groups(client, params, groups):
    """``params`` of a list with its ``--conductor-group``:
    ?conductor_groups= the groups joined by commas (API 1.99)."""
    if groups is None:
        return params
    client.require(http.CONDUCTOR_GROUPS_FILTER, '--conductor-group')
    groups = [g.strip() for value in groups for g in value.split(',')]
    groups = list(dict.fromkeys(g for g in groups if g))
    if not groups:
        raise osc_exc.CommandError('--conductor-group needs the name of a '
                                   'conductor group.')
    params['conductor_groups'] = ','.join(groups)
    return params


def require_options(client, parsed_args, options, remove=False):
    """Fail with the version needed unless the request version has every
    option the command line gives, before any request: ``options`` are
    (dest, API feature, option name); an option counts when its value is
    not None (with ``remove``, an unset flag: when it is True)."""
    for dest, feature, option in options:
        value = getattr(parsed_args, dest, None)
        if (value is True) if remove else (value is not None):
            client.require(feature, option)


def add_child_node_options(parser):
    """The node list's --include-children and --parent-node (API 1.83)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument('--include-children', action='store_true',
                       default=None,
                       help='List child nodes too (hidden by default; API '
                            '1.83).')
    group.add_argument('--parent-node', metavar='<parent_node>',
                       help='Only the children of this node (name or UUID; '
                            'API 1.83).')


def with_children(client, params, parsed_args):
    """``params`` of a node list with its child-node options."""
    if parsed_args.include_children:
        client.require(http.PARENT_CHILD_NODES, '--include-children')
        params['include_children'] = 'True'
    if parsed_args.parent_node is not None:
        client.require(http.PARENT_CHILD_NODES, '--parent-node')
        params['parent_node'] = parsed_args.parent_node
    return params


def listing(items, fields, labels=None):
    """(titles, rows) of resources for a Lister, ``fields`` in order."""
    titles = tuple(labels or [label(f) for f in fields])
    rows = (tuple(formatted(item.get(f)) for f in fields) for item in items)
    return titles, rows


def long_fields(items, preferred, drop=LINK_FIELDS):
    """Fields of a --long list: ``preferred`` ones the server returned
    (all of them if there is no item), then any other in name order."""
    if not items:
        return [f for f in preferred if f not in drop]
    present = set()
    for item in items:
        present.update(item)
    fields = [f for f in preferred if f in present and f not in drop]
    fields += sorted(present - set(fields) - set(drop))
    return fields


def is_uuid(value):
    return uuidutils.is_uuid_like(value)


# -- waiting ----------------------------------------------------------------

class Progress(object):
    """One progress line on ``stream`` (stderr), rewritten in place and
    erased at the end; silent unless the stream is a terminal (so scripts
    and -f json see nothing)."""

    def __init__(self, stream=None):
        self.stream = stream if stream is not None else sys.stderr
        try:
            self.enabled = self.stream.isatty()
        except (AttributeError, ValueError):
            self.enabled = False
        self._width = 0

    def update(self, text):
        if not self.enabled:
            return
        padding = ' ' * max(0, self._width - len(text))
        self.stream.write('\r' + text + padding)
        self.stream.flush()
        self._width = len(text)

    def finish(self):
        """Erase the line: what follows (output, an error) starts on a
        clean line."""
        if self.enabled and self._width:
            self.stream.write('\r%s\r' % (' ' * self._width))
            self.stream.flush()
        self._width = 0


class WaitTimeout(osc_exc.CommandError):
    pass


def wait_for(fetch, check, describe, timeout, clock=time.monotonic,
             sleep=time.sleep, progress=None, first_interval=0.5,
             max_interval=2.0):
    """Poll ``fetch()`` until ``check(resource)`` is true; return the last
    resource.

    ``check`` raises CommandError for a failure. ``timeout`` (seconds;
    0 or None for none) bounds the wait: WaitTimeout names ``describe`` of
    the last resource then. Polls start every ``first_interval`` seconds
    and slow down to ``max_interval``, so quick actions end quickly.
    """
    progress = progress or Progress()
    start = clock()
    interval = first_interval
    try:
        while True:
            resource = fetch()
            if check(resource):
                return resource
            elapsed = clock() - start
            progress.update('%s (%ds)' % (describe(resource), elapsed))
            if timeout and elapsed >= timeout:
                raise WaitTimeout('Timed out after %d seconds: %s.'
                                  % (timeout, describe(resource)))
            delay = interval
            if timeout:
                delay = max(0, min(delay, timeout - elapsed))
            sleep(delay)
            interval = min(interval * 2, max_interval)
    finally:
        progress.finish()


class BaremetalMixin(object):
    """What every command needs: its API client."""

    # (API feature, what needs it): check_version() fails with the reason
    # unless the request version reaches the feature.
    REQUIRES = None

    @property
    def client(self):
        return self.app.client_manager.baremetal

    def check_version(self):
        if self.REQUIRES:
            self.client.require(*self.REQUIRES)

    def node_uuid(self, ident):
        """UUID of a node given by UUID or name (the port API wants a
        UUID)."""
        if is_uuid(ident):
            return ident
        params = None
        if self.client.supports(http.FIELDS):
            params = {'fields': 'uuid'}
        node = self.client.get('nodes/%s' % http.quote(ident), params)
        return node['uuid']


def delete_each(idents, delete, what, out=None):
    """Call ``delete(ident)`` for each; print what went; one CommandError
    naming every failure at the end."""
    out = out if out is not None else sys.stdout
    failures = []
    for ident in idents:
        try:
            delete(ident)
        except osc_exc.CommandError as e:
            failures.append('%s %s: %s' % (what, ident, e))
        else:
            out.write('Deleted %s %s\n' % (what, ident))
    if failures:
        raise osc_exc.CommandError('Failed to delete %s' % '; '.join(
            failures))
