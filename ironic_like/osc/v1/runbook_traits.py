"""``openstack baremetal runbook trait list / add / remove`` (API 1.112):
the traits a runbook is approved for (a node with one of them may run
it), under /v1/runbooks/{id}/traits."""

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc.v1 import base
from ironic_like.osc.v1.runbook import RUNBOOK

_TRAITS = (http.RUNBOOK_TRAITS, 'Runbook trait commands')


class _RunbookTraitCommand(base.ResourceCommand):

    RESOURCE = RUNBOOK
    REQUIRES = _TRAITS

    def trait_path(self, parsed_args, trait=None):
        if trait is None:
            return self.path(parsed_args, 'traits')
        return self.path(parsed_args, 'traits', http.quote(trait))

    def each_trait(self, parsed_args, act, done, failed):
        """``act(trait)`` for every trait, printing ``done % trait``;
        one error naming every failure (``failed``) at the end."""
        failures = []
        for trait in parsed_args.traits:
            try:
                act(trait)
            except osc_exc.CommandError as e:
                failures.append('%s %s: %s' % (failed, trait, e))
            else:
                self.app.stdout.write(done % trait + '\n')
        if failures:
            raise osc_exc.CommandError('\n'.join(failures))


class ListTraitsRunbook(_RunbookTraitCommand, command.Lister):
    """List the traits of a runbook."""

    def take_action(self, parsed_args):
        self.check_version()
        doc = self.client.get(self.trait_path(parsed_args)) or {}
        return ('Traits',), ((t,) for t in doc.get('traits') or [])


class AddTraitRunbook(_RunbookTraitCommand, command.Command):
    """Add traits to a runbook (one request a trait)."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('traits', nargs='+', metavar='<trait>',
                            help='Traits to add, e.g. CUSTOM_FIRMWARE.')
        return parser

    def take_action(self, parsed_args):
        self.check_version()
        self.each_trait(
            parsed_args,
            lambda trait: self.client.put(self.trait_path(parsed_args,
                                                          trait)),
            'Added trait %s', 'Failed to add trait')


class RemoveTraitRunbook(_RunbookTraitCommand, command.Command):
    """Remove traits from a runbook."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument('--all', dest='remove_all', action='store_true',
                           help='Remove every trait.')
        which.add_argument('traits', metavar='<trait>', nargs='*',
                           default=[], help='Traits to remove.')
        return parser

    def take_action(self, parsed_args):
        # The parser takes either; a caller of take_action may give none.
        if bool(parsed_args.traits) == bool(parsed_args.remove_all):
            raise osc_exc.CommandError('Give either traits to remove or '
                                       '--all.')
        self.check_version()
        if parsed_args.remove_all:
            self.client.delete(self.trait_path(parsed_args))
            self.app.stdout.write('Removed all traits from runbook %s\n'
                                  % parsed_args.runbook)
            return
        self.each_trait(
            parsed_args,
            lambda trait: self.client.delete(self.trait_path(parsed_args,
                                                             trait)),
            'Removed trait %s', 'Failed to remove trait')
