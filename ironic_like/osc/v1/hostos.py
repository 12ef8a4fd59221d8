"""What the ``openstack baremetal hostos ...`` commands share: requests to
/v1/hostos, the clock of their --wait, their list commands, and reading
JSON or YAML input.

The /v1/hostos paths take no Ironic microversion (they have their own
version document): their requests carry no version header, so a hostos
command never negotiates one either.
"""

import json
import time

from osc_lib.command import command
from osc_lib import exceptions as osc_exc
import yaml

from ironic_like.osc import client as http
from ironic_like.osc import common

PREFIX = 'hostos'
# Seconds between two polls of a --wait.
POLL_INTERVAL = 2.0
# Bound of the pages one list follows.
MAX_PAGES = 10000


# -- requests ---------------------------------------------------------------

class HostosAPI(http.ServiceAPI):
    """Requests to /v1/hostos/``path`` (no microversion header). A
    ``secret`` request (its body holds secret values) is not logged, not
    even with --debug."""

    PREFIX = PREFIX

    def post(self, path, body, secret=False):
        return self.request('POST', path, body=body, log=not secret)

    def patch(self, path, patch, secret=False):
        return self.request('PATCH', path, body=patch, log=not secret)

    def delete(self, path):
        return self.request('DELETE', path)

    def list(self, path, key, params=None):
        """Items of a collection: ``{key: [...]}`` (``next`` links are
        followed) or a plain JSON array."""
        params = {k: v for k, v in (params or {}).items() if v is not None}
        return http.paginate(lambda page_params: self.get(path, page_params),
                             lambda doc: _page_items(doc, key), params,
                             max_pages=MAX_PAGES)


def _page_items(doc, key):
    """The items of one page: ``doc[key]`` (else its first list), or the
    document itself when it is a list."""
    if doc is None:
        return []
    if isinstance(doc, list):
        return doc
    page = doc.get(key)
    if page is None:
        page = next((v for v in doc.values() if isinstance(v, list)), [])
    return page


class HostosMixin(common.BaremetalMixin):
    """What every hostos command needs: requests to /v1/hostos, and the
    clock of its --wait (tests replace it)."""

    clock = staticmethod(time.monotonic)
    sleep = staticmethod(time.sleep)
    # Width of the progress line on a terminal (None: the terminal's).
    progress_width = None

    @property
    def hostos(self):
        return HostosAPI(self.client)


class ListCommand(HostosMixin, command.Lister):
    """The list of a /v1/hostos ``COLLECTION``: ``FILTERS`` are its
    options, (name, add_argument keywords) each, sent as the query
    parameters of the same name; listing() gives the rows, with more
    fields for --long (``LONG_HELP``)."""

    COLLECTION = None
    FILTERS = ()
    LONG_HELP = 'Show more fields.'

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        for name, kwargs in self.FILTERS:
            parser.add_argument('--' + name, **kwargs)
        parser.add_argument('--long', action='store_true', default=False,
                            help=self.LONG_HELP)
        return parser

    def take_action(self, parsed_args):
        params = {name: getattr(parsed_args, name)
                  for name, _kwargs in self.FILTERS}
        items = self.hostos.list(self.COLLECTION, self.COLLECTION, params)
        return self.listing(items, parsed_args.long)

    def listing(self, items, long):
        """(titles, rows) of the items."""
        raise NotImplementedError()


# -- input ------------------------------------------------------------------

def load_document(name, stdin=None, secret=False):
    """The JSON or YAML document in file ``name`` ('-': standard input).
    The error of a ``secret`` one does not quote it."""
    text = common.read_text(name, stdin)
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise osc_exc.CommandError('%s is neither JSON nor YAML%s' % (
            name, '.' if secret else ': %s' % http.one_line(e)))


def json_or_file(text, what, secret=False):
    """The object of an option value: ``@FILE`` (JSON or YAML) or JSON.
    Errors of a ``secret`` one do not show it."""
    if text.startswith('@'):
        doc = load_document(text[1:], secret=secret)
    else:
        try:
            doc = json.loads(text)
        except ValueError as e:
            raise osc_exc.CommandError(
                'Invalid %s: %s (give a JSON object, or @FILE).'
                % (what, 'not JSON' if secret else e))
    if not isinstance(doc, dict):
        raise osc_exc.CommandError('%s must be an object%s.' % (
            what, '' if secret else ', not %s' % json.dumps(doc)))
    return doc
