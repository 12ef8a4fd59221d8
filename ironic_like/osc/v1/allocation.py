"""``openstack baremetal allocation ...`` (API version 1.52 and later).

An allocation asks for one node of a resource class (and traits, and
optionally among candidate nodes); the service picks and reserves one
in the background: the allocation goes from ``allocating`` to ``active``
(with ``node_uuid``) or ``error`` (with ``last_error``).
"""

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import base

ALLOCATION = base.Resource('allocation', 'allocations',
                           'Name or UUID of the allocation.',
                           'Names or UUIDs of the allocations.')
_ALLOCATIONS = (http.ALLOCATIONS, 'Allocation commands')
# Set and unset: PATCH came later than the other commands.
_UPDATE = (http.ALLOCATION_UPDATE, 'Allocation set/unset')

SHORT_FIELDS = ['uuid', 'name', 'resource_class', 'state', 'node_uuid']
LONG_FIELDS = ['uuid', 'name', 'resource_class', 'state', 'node_uuid',
               'last_error', 'traits', 'candidate_nodes', 'owner', 'extra',
               'created_at', 'updated_at']

# Fields of create (set and unset: name and extra only).
_FIELDS = dict.fromkeys(['resource_class', 'uuid', 'name', 'owner', 'node',
                         'traits', 'candidate_nodes'], common.VALUE)
_FIELDS['extra'] = common.DICT
_UPDATE_FIELDS = {'name': common.VALUE, 'extra': common.DICT}

ACTIVE = 'active'
ERROR = 'error'


def allocation_check(ident):
    """The check of wait_for: done when active; error fails with the
    allocation's last_error."""
    def check(allocation):
        state = allocation.get('state')
        if state == ACTIVE:
            return True
        if state == ERROR:
            raise osc_exc.CommandError(
                'Allocation %s failed: %s'
                % (ident, http.one_line(allocation.get('last_error')
                                        or 'no reason given')))
        return False
    return check


def _require_owner(client, parsed_args):
    if parsed_args.owner is not None:
        client.require(http.ALLOCATION_OWNER, '--owner')


class CreateAllocation(common.BaremetalMixin, command.ShowOne):
    """Ask for a node: create an allocation."""

    REQUIRES = _ALLOCATIONS

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--resource-class', metavar='<resource_class>',
                            help='Resource class the node must have '
                                 '(required unless --node is given).')
        parser.add_argument('--trait', dest='traits', action='append',
                            metavar='<trait>',
                            help='A trait the node must have '
                                 '(repeatable).')
        parser.add_argument('--candidate-node', dest='candidate_nodes',
                            action='append', metavar='<node>',
                            help='Pick the node among these only (name or '
                                 'UUID; repeatable).')
        parser.add_argument('--uuid', metavar='<uuid>',
                            help='UUID of the allocation.')
        parser.add_argument('--name', metavar='<name>',
                            help='Unique name of the allocation.')
        parser.add_argument('--extra', metavar='<key=value>',
                            action='append',
                            help='Extra value (repeatable).')
        parser.add_argument('--owner', metavar='<owner>',
                            help='Owner (project) of the allocation.')
        parser.add_argument('--node', metavar='<node>',
                            help='Record an allocation for this node, '
                                 'already deployed (backfill).')
        common.add_wait_option(parser, 'the allocation is active')
        return parser

    def take_action(self, parsed_args):
        self.check_version()
        if not parsed_args.resource_class and not parsed_args.node:
            raise osc_exc.CommandError('--resource-class is required '
                                       'unless --node is given.')
        body = common.body_fields(parsed_args, _FIELDS)
        if parsed_args.node is not None:
            self.client.require(http.ALLOCATION_BACKFILL,
                                '--node (backfill)')
        _require_owner(self.client, parsed_args)
        allocation = self.client.post('allocations', body)
        if parsed_args.wait_timeout is not None:
            allocation = self.wait(allocation['uuid'],
                                   parsed_args.wait_timeout)
        return common.show(allocation)

    def wait(self, ident, timeout, **kwargs):
        def fetch():
            return self.client.get(ALLOCATION.path(ident))

        def describe(allocation):
            return ('Waiting for allocation %s to become active: it is %s'
                    % (ident, allocation.get('state')))
        return common.wait_for(fetch, allocation_check(ident), describe,
                               timeout, **kwargs)


class ListAllocation(base.ListCommand):
    """List allocations."""

    RESOURCE = ALLOCATION
    REQUIRES = _ALLOCATIONS
    SHORT_FIELDS = SHORT_FIELDS
    LONG_FIELDS = LONG_FIELDS
    FILTERS = ('state', 'resource_class', 'node', 'owner', 'marker')
    # The plain list has every field.
    LONG = None

    def add_filter_options(self, parser):
        parser.add_argument('--state', metavar='<state>',
                            help='Only allocations in this state '
                                 '(allocating, active, error).')
        parser.add_argument('--resource-class', metavar='<class>',
                            help='Only allocations of this resource class.')
        parser.add_argument('--node', metavar='<node>',
                            help='Only the allocation of this node (name '
                                 'or UUID).')
        parser.add_argument('--owner', metavar='<owner>',
                            help='Only allocations of this owner.')

    def query_params(self, parsed_args):
        params = super().query_params(parsed_args)
        _require_owner(self.client, parsed_args)
        return params


class ShowAllocation(base.ShowCommand):
    """Show an allocation."""

    RESOURCE = ALLOCATION
    REQUIRES = _ALLOCATIONS


class SetAllocation(base.SetCommand):
    """Set the name or extra values of an allocation."""

    RESOURCE = ALLOCATION
    REQUIRES = _UPDATE
    FIELDS = _UPDATE_FIELDS
    NOTHING = 'Nothing to set: give --name or --extra.'

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--name', metavar='<name>',
                            help='New unique name.')
        parser.add_argument('--extra', metavar='<key=value>',
                            action='append',
                            help='Set an extra value (repeatable).')
        return parser


class UnsetAllocation(base.UnsetCommand):
    """Unset the name or extra values of an allocation."""

    RESOURCE = ALLOCATION
    REQUIRES = _UPDATE
    FIELDS = _UPDATE_FIELDS
    NOTHING = 'Nothing to unset: give --name or --extra.'

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--name', action='store_true', default=False,
                            help='Unset the name.')
        parser.add_argument('--extra', metavar='<key>', action='append',
                            help='Remove this extra value (repeatable).')
        return parser


class DeleteAllocation(base.DeleteCommand):
    """Delete allocations (releasing their nodes)."""

    RESOURCE = ALLOCATION
    REQUIRES = _ALLOCATIONS
