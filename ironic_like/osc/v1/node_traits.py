"""``openstack baremetal node add trait / remove trait / trait list``
(API 1.37): a node's traits, which allocations and deploy templates
match."""

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc.v1 import base
from ironic_like.osc.v1.node import NODE
from ironic_like.osc.v1.node import NodeCommand

_TRAITS = (http.TRAITS, 'Node trait commands')


class AddTraitNode(NodeCommand):
    """Add traits to a node."""

    REQUIRES = _TRAITS

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('traits', nargs='+', metavar='<trait>',
                            help='Traits to add, e.g. CUSTOM_GPU.')
        return parser

    def take_action(self, parsed_args):
        self.check_version()
        for trait in parsed_args.traits:
            self.client.put(self.path(parsed_args, 'traits', trait))


class RemoveTraitNode(NodeCommand):
    """Remove traits from a node."""

    REQUIRES = _TRAITS

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('traits', nargs='*', metavar='<trait>',
                            help='Traits to remove.')
        parser.add_argument('--all', dest='remove_all',
                            action='store_true',
                            help='Remove every trait.')
        return parser

    def take_action(self, parsed_args):
        if bool(parsed_args.traits) == bool(parsed_args.remove_all):
            raise osc_exc.CommandError('Give either traits to remove or '
                                       '--all.')
        self.check_version()
        if parsed_args.remove_all:
            self.client.delete(self.path(parsed_args, 'traits'))
            return
        failures = []
        for trait in parsed_args.traits:
            try:
                self.client.delete(self.path(parsed_args, 'traits', trait))
            except osc_exc.CommandError as e:
                failures.append(str(e))
        if failures:
            raise osc_exc.CommandError('Failed to remove traits: %s'
                                       % '; '.join(failures))


class ListTraitsNode(base.ResourceCommand, command.Lister):
    """List the traits of a node."""

    RESOURCE = NODE
    REQUIRES = _TRAITS

    def take_action(self, parsed_args):
        self.check_version()
        doc = self.client.get(self.path(parsed_args, 'traits'))
        return ('Traits',), ((t,) for t in doc.get('traits') or [])
