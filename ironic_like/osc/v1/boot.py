"""``openstack baremetal boot ...``: boot sessions (the shape of Cray BOS
v2 under ``/v1/boot``).

This module holds what the boot commands share (requests to /v1/boot,
reading JSON files, the output of nested fields) and the small commands:
``boot options show|set`` and ``boot applystaged``. The templates,
sessions and components have modules of their own (boot_template,
boot_session, boot_component).

The /v1/boot paths take no Ironic microversion: their requests carry no
version header, so a boot command never negotiates one either.
"""

import json

from cliff import columns
from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common

PREFIX = 'boot'


class BootAPI(http.ServiceAPI):
    """Requests to /v1/boot/``path`` (no microversion header)."""

    PREFIX = PREFIX

    def list(self, path, params=None):
        """Items of a list endpoint: BOS answers a plain JSON array."""
        doc = self.get(path, params)
        if doc is None:
            return []
        if isinstance(doc, dict):
            # Tolerate a wrapped answer ({"<collection>": [...]}).
            for value in doc.values():
                if isinstance(value, list):
                    return value
            return []
        return list(doc)

    def post(self, path, body):
        return self.request('POST', path, body=body)

    def put(self, path, body):
        return self.request('PUT', path, body=body)

    def patch(self, path, body, params=None):
        return self.request('PATCH', path, params=params, body=body)

    def delete(self, path, params=None):
        return self.request('DELETE', path, params=params)


class BootMixin(common.BaremetalMixin):
    """What every boot command needs: requests to /v1/boot."""

    @property
    def boot(self):
        return BootAPI(self.client)


def path(*parts):
    """'sessions/<quoted name>/status' of path parts (the first one is a
    collection, the others are quoted)."""
    return '/'.join([parts[0]] + [http.quote(p) for p in parts[1:]])


# -- input ------------------------------------------------------------------

def read_json_file(name, stdin=None):
    """The JSON object in file ``name`` ('-': standard input)."""
    text = common.read_text(name, stdin)
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise osc_exc.CommandError('%s is not valid JSON: %s' % (name, e))
    if not isinstance(doc, dict):
        raise osc_exc.CommandError('%s must hold a JSON object.' % name)
    return doc


def bool_query(value):
    """A boolean as BOS's query parameters write it (true/false)."""
    if value is None:
        return None
    return 'true' if value else 'false'


def dig(doc, dotted, default=None):
    """doc['a']['b'] of 'a.b' (``default`` when any step is missing)."""
    for key in dotted.split('.'):
        if not isinstance(doc, dict) or key not in doc:
            return default
        doc = doc[key]
    return doc


def rows(items, fields):
    """Rows of a Lister: ``fields`` are dotted paths into each item."""
    return [tuple(common.formatted(dig(item, f)) for f in fields)
            for item in items]


class TextColumn(columns.FormattableColumn):
    """A value printed as readable text in a table (``text`` of it) and
    unchanged in json and yaml."""

    def __init__(self, value, text):
        super().__init__(value)
        self._text = text

    def human_readable(self):
        return self._text

    def machine_readable(self):
        return self._value


def percent(value):
    """'45.5%' of 45.5; '-' when unknown."""
    if value is None:
        return '-'
    try:
        value = float(value)
    except (TypeError, ValueError):
        return str(value)
    return ('%.2f' % value).rstrip('0').rstrip('.') + '%'


# -- options ----------------------------------------------------------------

class ShowBootOptions(BootMixin, command.ShowOne):
    """Show the boot service's options (BOS options)."""

    def take_action(self, parsed_args):
        return common.show(self.boot.get('options') or {}, drop=())


class SetBootOptions(BootMixin, command.Command):
    """Set boot service options (values are JSON when they parse as JSON,
    else strings)."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            '--option', dest='options', metavar='<key=value>',
            action='append', required=True,
            help='Option to set, e.g. default_retry_policy=3 or '
                 'session_limit_required=true (repeatable).')
        return parser

    def take_action(self, parsed_args):
        self.boot.patch('options', common.to_dict(parsed_args.options))


# -- applystaged ------------------------------------------------------------

class ApplyStagedBoot(BootMixin, command.ShowOne):
    """Apply the staged state of components (start their staged
    sessions)."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('components', nargs='+', metavar='<component>',
                            help='IDs of the components (node names, or '
                                 'UUIDs of nodes without one).')
        return parser

    def take_action(self, parsed_args):
        ids = common.flatten(parsed_args.components)
        result = self.boot.post('applystaged', {'xnames': ids}) or {}
        names = ('succeeded', 'failed', 'ignored')
        return names, tuple(common.formatted(list(result.get(n) or []))
                            for n in names)
