"""Base classes of the commands: what the resources' show, list, set,
unset and delete commands have in common, so that a resource module only
declares its options and fields."""

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common


class Resource(object):
    """A kind of API resource: ``name`` (the argument naming one, help
    texts), ``collection`` (its URL path and the key of a list answer) and
    how users name one, for the help of the arguments. ``key``: the key
    of a list answer, when it is not ``collection``."""

    def __init__(self, name, collection, ident_help, idents_help=None,
                 key=None):
        self.name = name
        self.collection = collection
        self.ident_help = ident_help
        self.idents_help = idents_help
        self.key = key or collection

    def path(self, ident, *sub):
        return '/'.join((self.collection, http.quote(ident)) + sub)

    def add_argument(self, parser):
        parser.add_argument(self.name, metavar='<%s>' % self.name,
                            help=self.ident_help)


class ResourceCommand(common.BaremetalMixin):
    """A command on one resource, named by its first argument."""

    RESOURCE = None

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        self.add_ident_argument(parser)
        return parser

    def add_ident_argument(self, parser):
        self.RESOURCE.add_argument(parser)

    def path(self, parsed_args, *sub):
        return self.RESOURCE.path(getattr(parsed_args, self.RESOURCE.name),
                                  *sub)


class ShowCommand(ResourceCommand, command.ShowOne):
    """Show one resource, all fields or those of --fields."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        common.add_fields_option(parser, self.RESOURCE.name)
        return parser

    def take_action(self, parsed_args):
        self.check_version()
        fields = common.flatten(parsed_args.fields)
        return common.show(self.fetch(parsed_args, fields), keep=fields)

    def fetch(self, parsed_args, fields):
        params = {'fields': ','.join(fields)} if fields else None
        return self.client.get(self.path(parsed_args), params)


# How --long asks the server for every field.
DETAIL_PATH = 'path'    # GET <collection>/detail
DETAIL_PARAM = 'param'  # GET <collection>?detail=True


class ListCommand(common.BaremetalMixin, command.Lister):
    """List resources: filters, --limit/--marker/--sort (every page is
    followed), and the columns of SHORT_FIELDS, --long or --fields."""

    RESOURCE = None
    SHORT_FIELDS = ()
    # Column order of --long (fields the server adds come after, by name).
    LONG_FIELDS = ()
    # Options sent as query parameters of the same name when given
    # (booleans as True or False), in this order.
    FILTERS = ()
    # DETAIL_PATH, DETAIL_PARAM, or None: the plain answer has them all.
    LONG = DETAIL_PATH
    MARKER = True

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        self.add_filter_options(parser)
        self.add_paging_options(parser)
        display = parser.add_mutually_exclusive_group()
        display.add_argument('--long', action='store_true', default=False,
                             help='Show every field.')
        common.add_fields_option(display, self.RESOURCE.name)
        return parser

    def add_filter_options(self, parser):
        """Add the options of FILTERS (they come before --limit)."""

    def add_paging_options(self, parser):
        name = self.RESOURCE.name
        parser.add_argument('--limit', type=int, metavar='<limit>',
                            help='Return at most this many %s (0: all).'
                                 % self.RESOURCE.collection)
        if self.MARKER:
            parser.add_argument('--marker', metavar='<%s>' % name,
                                help='UUID of the %s to list after.' % name)
        parser.add_argument('--sort', metavar='<key>[:<direction>]',
                            help='Sort by this field, asc (default) or '
                                 'desc.')

    def query_params(self, parsed_args):
        params = common.sort_params(parsed_args.sort)
        for name in self.FILTERS:
            value = getattr(parsed_args, name)
            if isinstance(value, bool):
                value = str(value)
            if value is not None:
                params[name] = value
        return params

    def check_limit(self, limit):
        # Caught here: Client.list() would take a negative limit as a
        # slice bound.
        if limit is not None and limit < 0:
            raise osc_exc.CommandError('--limit must be 0 or more.')

    def take_action(self, parsed_args):
        self.check_version()
        params = self.query_params(parsed_args)
        self.check_limit(parsed_args.limit)
        fields = common.flatten(parsed_args.fields)
        path = self.RESOURCE.collection
        if parsed_args.long and self.LONG == DETAIL_PATH:
            path += '/detail'
        elif parsed_args.long and self.LONG == DETAIL_PARAM:
            params['detail'] = 'True'
        elif fields:
            params['fields'] = ','.join(fields)
        items = self.client.list(path, self.RESOURCE.key, params,
                                 limit=parsed_args.limit)
        if parsed_args.long:
            fields = common.long_fields(items, self.LONG_FIELDS)
        elif not fields:
            fields = self.SHORT_FIELDS
        return common.listing(items, fields)


class SetCommand(ResourceCommand, command.Command):
    """Change a resource: PATCH it with the JSON patch of the options
    (common.patch_ops of FIELDS)."""

    # Option dest (also the API field) -> common.VALUE, DICT or STR_DICT,
    # in patch order.
    FIELDS = {}
    REMOVE = False
    NOTHING = 'Nothing to set: give at least one option.'

    def build_patch(self, parsed_args):
        return common.patch_ops(parsed_args, self.FIELDS, self.REMOVE)

    def patch_params(self, parsed_args):
        return None

    def take_action(self, parsed_args):
        patch = self.build_patch(parsed_args)
        if not patch:
            raise osc_exc.CommandError(self.NOTHING)
        # After the local checks: a command line that is wrong anyway says
        # so without asking the server its version.
        self.check_version()
        self.client.patch(self.path(parsed_args), patch,
                          self.patch_params(parsed_args))


class UnsetCommand(SetCommand):
    """Remove fields or keys of a resource (JSON patch "remove")."""

    REMOVE = True
    NOTHING = 'Nothing to unset: give at least one option.'


class DeleteCommand(common.BaremetalMixin, command.Command):
    """Delete resources one by one, saying which went; one error naming
    every failure at the end."""

    RESOURCE = None

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(self.RESOURCE.key,
                            metavar='<%s>' % self.RESOURCE.name, nargs='+',
                            help=self.RESOURCE.idents_help)
        return parser

    def take_action(self, parsed_args):
        self.check_version()
        common.delete_each(
            getattr(parsed_args, self.RESOURCE.key),
            lambda ident: self.client.delete(self.RESOURCE.path(ident)),
            self.RESOURCE.name, out=self.app.stdout)
