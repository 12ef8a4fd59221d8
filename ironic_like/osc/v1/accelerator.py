"""``openstack baremetal accelerator ...`` and ``openstack baremetal node
accelerators|accelerator discover``: the PCI accelerators of nodes
(devices, their deployables and attach handles), a node's accelerator
traits, and discovery on demand (doc/accelerators.md).

The /v1/accelerators paths take no Ironic microversion (they have their own
version document), nor do /v1/nodes/{node}/accelerators (a node is named by
UUID or name whatever the version): their requests carry no version header,
so an accelerator command never negotiates one either.
"""

import argparse
import collections
import time

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import node as node_commands

PREFIX = 'accelerators'
# Bound of the pages one list follows.
MAX_PAGES = 10000

DEVICE_STATUSES = ('enabled', 'missing')
# Discovery states (GET /v1/nodes/{node}/accelerators: discovery.state).
DISCOVERING = 'discovering'
DISCOVERED = 'done'
DISCOVERY_FAILED = 'failed'
DISCOVERY_ENDED = (DISCOVERED, DISCOVERY_FAILED)
# The bound of a --wait given without a value (seconds).
DEFAULT_WAIT = 300
# Seconds between two polls of a --wait, at most.
POLL_INTERVAL = 2.0
# A discovery that looks finished right after the request, unchanged and
# never seen running, may be the previous one: it is believed after this
# many seconds only (or at the time-out).
SETTLE_TIME = 5.0

# Sections of ``node accelerators``.
SECTIONS = ('traits', 'devices', 'deployables', 'attach_handles',
            'attachments')


# -- columns ----------------------------------------------------------------

# A column of a list: its title and the field it shows, or a function of
# the item giving the value.
Column = collections.namedtuple('Column', 'title field')


def _function(item):
    """The loaded function of a deployable: its name, else its UUID."""
    return item.get('function_name') or item.get('function_uuid')


DEVICE_COLUMNS = (
    Column('UUID', 'uuid'), Column('Node', 'node_uuid'),
    Column('Type', 'type'), Column('Vendor', 'vendor'),
    Column('Model', 'model'), Column('PCI Address', 'pci_address'),
    Column('Status', 'status'), Column('In Use', 'in_use'))
DEVICE_LONG_COLUMNS = (
    Column('Product ID', 'product_id'), Column('Vendor Name', 'vendor_name'),
    Column('Board Info', 'std_board_info'),
    Column('Created At', 'created_at'), Column('Updated At', 'updated_at'))

DEPLOYABLE_COLUMNS = (
    Column('UUID', 'uuid'), Column('Node', 'node_uuid'),
    Column('Name', 'name'), Column('Kind', 'kind'),
    Column('Resource Class', 'resource_class'),
    Column('Region Type', 'region_type_uuid'),
    Column('Function', _function), Column('Bitstream', 'bitstream_id'))
DEPLOYABLE_LONG_COLUMNS = (
    Column('Device UUID', 'device_uuid'),
    Column('Parent UUID', 'parent_uuid'), Column('Root UUID', 'root_uuid'),
    Column('Num Accelerators', 'num_accelerators'),
    Column('Driver Name', 'driver_name'),
    Column('Partial Reconfiguration', 'partial_reconfiguration'),
    Column('Function UUID', 'function_uuid'),
    Column('Function Name', 'function_name'),
    Column('Created At', 'created_at'), Column('Updated At', 'updated_at'))

HANDLE_COLUMNS = (
    Column('UUID', 'uuid'), Column('Node', 'node_uuid'),
    Column('PCI Address', 'pci_address'), Column('Type', 'attach_type'),
    Column('In Use', 'in_use'), Column('Status', 'status'),
    Column('Traits', 'traits'))
HANDLE_LONG_COLUMNS = (
    Column('Device UUID', 'device_uuid'),
    Column('Deployable UUID', 'deployable_uuid'),
    Column('Resource Class', 'resource_class'),
    Column('Attach Info', 'attach_info'),
    Column('Attachment UUID', 'attachment_uuid'),
    Column('Created At', 'created_at'), Column('Updated At', 'updated_at'))

ATTACHMENT_COLUMNS = (
    Column('UUID', 'uuid'), Column('Instance UUID', 'instance_uuid'),
    Column('Request Index', 'request_index'), Column('State', 'state'),
    Column('PCI Address', 'pci_address'),
    Column('Bitstream', 'bitstream_id'), Column('Last Error', 'last_error'))
ATTACHMENT_LONG_COLUMNS = (
    Column('Node', 'node_uuid'), Column('Instance Name', 'instance_name'),
    Column('Project ID', 'project_id'),
    Column('Deployable UUID', 'deployable_uuid'),
    Column('Attach Handle UUID', 'attach_handle_uuid'),
    Column('Conductor', 'conductor'), Column('Deadline', 'deadline'),
    Column('Created At', 'created_at'), Column('Updated At', 'updated_at'))

TRAIT_COLUMNS = (
    Column('Name', 'name'), Column('Kind', 'kind'),
    Column('Total', 'total'), Column('Free', 'free'))


def _value(item, field):
    if callable(field):
        return field(item)
    return item.get(field)


def table(items, columns, long_columns=(), long=False, drop=()):
    """(titles, rows) of ``items``: ``columns``; with ``long`` also
    ``long_columns`` and any other field the server returned (by name).
    Columns of fields in ``drop`` are left out."""
    items = [i for i in items or () if isinstance(i, dict)]
    chosen = [c for c in columns if c.field not in drop]
    if long:
        chosen += [c for c in long_columns if c.field not in drop]
        known = {c.field for c in chosen} | set(drop)
        others = set()
        for item in items:
            others.update(item)
        chosen += [Column(common.label(f), f) for f in sorted(
            others - known - set(common.LINK_FIELDS))]
    titles = tuple(c.title for c in chosen)
    rows = [tuple(common.formatted(_value(item, c.field)) for c in chosen)
            for item in items]
    return titles, rows


# -- requests ---------------------------------------------------------------

class AcceleratorAPI(http.ServiceAPI):
    """Requests to /v1/accelerators/``path`` (no microversion header)."""

    PREFIX = PREFIX

    def list(self, path, key, params=None):
        """Items of a collection ``{key: [...]}`` (``next`` links are
        followed)."""
        params = {k: v for k, v in (params or {}).items() if v is not None}
        return http.paginate(lambda page_params: self.get(path, page_params),
                             lambda doc: _page_items(doc, key), params,
                             max_pages=MAX_PAGES)


def _page_items(doc, key):
    if doc is None:
        return []
    if isinstance(doc, list):
        return doc
    items = doc.get(key)
    return items if isinstance(items, list) else []


class AcceleratorMixin(common.BaremetalMixin):
    """What every accelerator command needs: requests to
    /v1/accelerators, and the clock of a --wait (tests replace it)."""

    clock = staticmethod(time.monotonic)
    sleep = staticmethod(time.sleep)

    @property
    def accelerators(self):
        return AcceleratorAPI(self.client)

    def node_request(self, method, ident, *sub, body=None):
        """``method`` on /v1/nodes/<ident>/accelerators[/<sub>...] (no
        microversion header)."""
        return self.client.request(method, node_path(ident, *sub),
                                   body=body, versioned=False)


# -- options ----------------------------------------------------------------

def bool_param(value):
    """A boolean query parameter as the API reads it: true or false."""
    if value is None:
        return None
    return 'true' if value else 'false'


def type_arg(value):
    """Device types are upper case (FPGA, GPU, QAT...)."""
    return value.strip().upper()


def add_in_use_options(parser, what):
    group = parser.add_mutually_exclusive_group()
    group.add_argument('--in-use', dest='in_use', action='store_true',
                       default=None,
                       help='Only %s in use by an instance.' % what)
    group.add_argument('--free', dest='in_use', action='store_false',
                       help='Only %s not in use.' % what)


def add_node_option(parser, what):
    parser.add_argument('--node', metavar='<node>',
                        help='Only the %s of this node (name or UUID).'
                             % what)


def add_type_option(parser, what):
    parser.add_argument('--type', type=type_arg, metavar='<type>',
                        help='Only %s of this device type (FPGA, GPU, QAT, '
                             '...; any case).' % what)


def add_vendor_option(parser, what):
    parser.add_argument('--vendor', metavar='<vendor>',
                        help='Only %s of this vendor: its PCI vendor ID '
                             '(e.g. 8086) or its name.' % what)


def add_device_option(parser, what):
    parser.add_argument('--device', metavar='<device>',
                        help='Only the %s of this device (UUID).' % what)


def wait_timeout_arg(value):
    """argparse type of discover's --wait: seconds, more than 0."""
    try:
        seconds = int(value)
    except ValueError:
        seconds = 0
    if seconds <= 0:
        raise argparse.ArgumentTypeError(
            'invalid time-out "%s": give seconds, more than 0' % value)
    return seconds


# -- list and show ----------------------------------------------------------

class ListCommand(AcceleratorMixin, command.Lister):
    """The list of /v1/accelerators/``COLLECTION`` (``{COLLECTION:
    [...]}``): add_filters() adds the options, params() gives the query,
    COLUMNS and LONG_COLUMNS the columns."""

    COLLECTION = None
    COLUMNS = ()
    LONG_COLUMNS = ()

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        self.add_filters(parser)
        parser.add_argument('--long', action='store_true', default=False,
                            help='Show every field.')
        return parser

    def add_filters(self, parser):
        raise NotImplementedError()

    def params(self, parsed_args):
        raise NotImplementedError()

    def take_action(self, parsed_args):
        items = self.accelerators.list(self.COLLECTION, self.COLLECTION,
                                       self.params(parsed_args))
        return table(items, self.COLUMNS, self.LONG_COLUMNS,
                     parsed_args.long)


class ShowCommand(AcceleratorMixin, command.ShowOne):
    """Show /v1/accelerators/``COLLECTION``/<uuid>, every field."""

    COLLECTION = None
    NAME = None

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('uuid', metavar='<uuid>',
                            help='UUID of the %s.' % self.NAME)
        return parser

    def take_action(self, parsed_args):
        return common.show(self.accelerators.get(
            '%s/%s' % (self.COLLECTION, http.quote(parsed_args.uuid)))
            or {})


class ListAcceleratorDevice(ListCommand):
    """List accelerator devices (one per card, by the PCI address of its
    physical function)."""

    COLLECTION = 'devices'
    COLUMNS = DEVICE_COLUMNS
    LONG_COLUMNS = DEVICE_LONG_COLUMNS

    def add_filters(self, parser):
        add_node_option(parser, 'devices')
        add_type_option(parser, 'devices')
        add_vendor_option(parser, 'devices')
        add_in_use_options(parser, 'devices with an attach handle')
        parser.add_argument('--status', choices=DEVICE_STATUSES,
                            help='Only devices in this status (missing: '
                                 'gone from the inventory while in use).')

    def params(self, parsed_args):
        return {'node': parsed_args.node, 'type': parsed_args.type,
                'vendor': parsed_args.vendor,
                'in_use': bool_param(parsed_args.in_use),
                'status': parsed_args.status}


class ShowAcceleratorDevice(ShowCommand):
    """Show an accelerator device."""

    COLLECTION = 'devices'
    NAME = 'device'


class ListAcceleratorDeployable(ListCommand):
    """List deployables (each device's device > region > function
    tree)."""

    COLLECTION = 'deployables'
    COLUMNS = DEPLOYABLE_COLUMNS
    LONG_COLUMNS = DEPLOYABLE_LONG_COLUMNS

    def add_filters(self, parser):
        add_node_option(parser, 'deployables')
        add_device_option(parser, 'deployables')
        add_type_option(parser, 'deployables of devices')
        add_vendor_option(parser, 'deployables of devices')

    def params(self, parsed_args):
        return {'node': parsed_args.node, 'device': parsed_args.device,
                'type': parsed_args.type, 'vendor': parsed_args.vendor}


class ShowAcceleratorDeployable(ShowCommand):
    """Show a deployable."""

    COLLECTION = 'deployables'
    NAME = 'deployable'


class ListAcceleratorAttachHandle(ListCommand):
    """List attach handles (one per PCI function a device exposes to an
    instance)."""

    COLLECTION = 'attach_handles'
    COLUMNS = HANDLE_COLUMNS
    LONG_COLUMNS = HANDLE_LONG_COLUMNS

    def add_filters(self, parser):
        add_node_option(parser, 'attach handles')
        add_device_option(parser, 'attach handles')
        add_in_use_options(parser, 'attach handles')

    def params(self, parsed_args):
        return {'node': parsed_args.node, 'device': parsed_args.device,
                'in_use': bool_param(parsed_args.in_use)}


class ShowAcceleratorAttachHandle(ShowCommand):
    """Show an attach handle."""

    COLLECTION = 'attach_handles'
    NAME = 'attach handle'


# -- a node's accelerators --------------------------------------------------

def node_path(ident, *sub):
    return node_commands.NODE.path(ident, 'accelerators', *sub)


def discovery_of(doc):
    discovery = (doc or {}).get('discovery')
    return discovery if isinstance(discovery, dict) else {}


def discovery_text(discovery, node):
    """One line on the state of a node's accelerator discovery."""
    state = discovery.get('state')
    if not state:
        return ('Accelerator discovery: never run (openstack baremetal node '
                'accelerator discover %s).' % node)
    text = 'Accelerator discovery: %s' % state
    if discovery.get('error'):
        text += ': %s' % http.one_line(discovery['error'])
    if discovery.get('reported_at'):
        text += ' (reported at %s)' % discovery['reported_at']
    return text + '.'


def section_arg(value):
    return value.strip().lower().replace('-', '_')


# section -> (columns, long columns)
SECTION_COLUMNS = {
    'traits': (TRAIT_COLUMNS, ()),
    'devices': (DEVICE_COLUMNS, DEVICE_LONG_COLUMNS),
    'deployables': (DEPLOYABLE_COLUMNS, DEPLOYABLE_LONG_COLUMNS),
    'attach_handles': (HANDLE_COLUMNS, HANDLE_LONG_COLUMNS),
    'attachments': (ATTACHMENT_COLUMNS, ATTACHMENT_LONG_COLUMNS),
}


class ShowNodeAccelerators(AcceleratorMixin, command.Lister):
    """Show the accelerators of a node: by default its accelerator traits
    (with how many attach handles carry each, and how many are free), then
    the state of its discovery (on stderr); --section shows its devices,
    deployables, attach handles or attachments instead."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        node_commands.NODE.add_argument(parser)
        parser.add_argument(
            '--section', type=section_arg, choices=SECTIONS,
            default='traits',
            help='What to show: traits (default: name, kind, total and '
                 'free attach handles), devices, deployables, '
                 'attach_handles or attachments.')
        parser.add_argument('--long', action='store_true', default=False,
                            help='Show every field (not for traits).')
        return parser

    def run(self, parsed_args):
        self._note = None
        status = super().run(parsed_args)
        if self._note:
            self.app.stderr.write(self._note + '\n')
        return status

    def take_action(self, parsed_args):
        self._note = None
        doc = self.node_request('GET', parsed_args.node) or {}
        section = parsed_args.section
        if section == 'traits':
            self._note = discovery_text(discovery_of(doc), parsed_args.node)
        columns, long_columns = SECTION_COLUMNS[section]
        # One node: its UUID in every row says nothing.
        drop = ('node_uuid',) if section != 'traits' else ()
        return table(doc.get(section), columns, long_columns,
                     parsed_args.long, drop=drop)


class DiscoverNodeAccelerators(AcceleratorMixin, command.Command):
    """Take the accelerator inventory of a node from its agent again, now
    (refused while no agent of the node is up). Prints nothing; --wait
    waits for the discovery to end."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        node_commands.NODE.add_argument(parser)
        parser.add_argument(
            '--wait', dest='wait_timeout', type=wait_timeout_arg,
            nargs='?', const=DEFAULT_WAIT, default=None,
            metavar='<time-out>',
            help='Wait until the discovery is done, at most this many '
                 'seconds (default %d). A failed discovery exits with '
                 'status 1 and its error.' % DEFAULT_WAIT)
        return parser

    def take_action(self, parsed_args):
        ident = parsed_args.node
        before = None
        if parsed_args.wait_timeout is not None:
            # The discovery as it was: one that looks finished afterwards
            # is the new one only if something changed (or was seen
            # running).
            before = discovery_of(self.node_request('GET', ident))
        self.node_request('POST', ident, 'discover', body={})
        if parsed_args.wait_timeout is not None:
            self.wait(ident, before, parsed_args.wait_timeout)

    def wait(self, ident, before, timeout):
        """Poll the node's accelerators until its discovery is done
        (CommandError with its error when it failed); the last
        document."""
        start = self.clock()
        seen = {'running': False, 'current': False}

        def check(doc):
            discovery = discovery_of(doc)
            state = discovery.get('state')
            if state not in DISCOVERY_ENDED:
                seen['running'] = seen['running'] or state == DISCOVERING
                seen['current'] = False
                return False
            elapsed = self.clock() - start
            seen['current'] = (seen['running'] or discovery != before
                               or elapsed >= min(SETTLE_TIME, timeout))
            if not seen['current']:
                return False
            if state == DISCOVERY_FAILED:
                raise osc_exc.CommandError(
                    'Accelerator discovery of node %s failed: %s' % (
                        ident, http.one_line(discovery.get('error')
                                             or 'no error given')))
            return True

        def describe(doc):
            state = discovery_of(doc).get('state')
            if not state or (state in DISCOVERY_ENDED
                             and not seen['current']):
                state = 'not started yet'
            return ('Waiting for the accelerator discovery of node %s: it '
                    'is %s' % (ident, state))

        return common.wait_for(
            lambda: self.node_request('GET', ident) or {}, check,
            describe, timeout, clock=self.clock, sleep=self.sleep,
            progress=common.Progress(self.app.stderr),
            max_interval=POLL_INTERVAL)
