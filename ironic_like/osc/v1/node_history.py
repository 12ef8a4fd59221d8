"""``openstack baremetal node history list/get`` (API 1.78): the events
recorded on a node (its errors and faults); ``openstack baremetal node
inventory save`` (API 1.81): what its agent reported at its last
inspection."""

import json
import sys

from osc_lib.command import command

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import base
from ironic_like.osc.v1.node import NODE

SHORT_FIELDS = ['uuid', 'created_at', 'severity', 'event']
LONG_FIELDS = ['uuid', 'created_at', 'severity', 'event_type', 'event',
               'conductor', 'user']
# Columns of --long newer than node history, by the API version that
# brought them (python-ironicclient's order): shown when the request
# version has them.
LATER_LONG_FIELDS = (('project', http.NODE_HISTORY_PROJECT),
                     ('state', http.NODE_HISTORY_STATES),
                     ('target_provision_state', http.NODE_HISTORY_STATES),
                     ('duration_seconds', http.NODE_HISTORY_STATES))
_LABELS = {'duration_seconds': 'Duration (seconds)'}
_REQUIRES = (http.NODE_HISTORY, 'Node history')


def long_fields(client):
    """The --long columns at the request version of ``client``."""
    return LONG_FIELDS + [name for name, since in LATER_LONG_FIELDS
                          if client.supports(since)]


class ListNodeHistory(base.ResourceCommand, command.Lister):
    """List the history events of a node (oldest first)."""

    RESOURCE = NODE
    REQUIRES = _REQUIRES

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--long', action='store_true', default=False,
                            help='Show every field of each event.')
        return parser

    def take_action(self, parsed_args):
        self.check_version()
        params = {'detail': 'True'} if parsed_args.long else None
        doc = self.client.get(self.path(parsed_args, 'history'),
                              params=params) or {}
        columns = (long_fields(self.client) if parsed_args.long
                   else SHORT_FIELDS)
        return common.listing(doc.get('history') or [], columns,
                              [_LABELS.get(c) or common.label(c)
                               for c in columns])


class ShowNodeHistory(base.ResourceCommand, command.ShowOne):
    """Show one history event of a node."""

    RESOURCE = NODE
    REQUIRES = _REQUIRES

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('event', metavar='<event>',
                            help='UUID of the event.')
        return parser

    def take_action(self, parsed_args):
        self.check_version()
        event = self.client.get(self.path(parsed_args, 'history',
                                          parsed_args.event))
        return common.show(event)


class SaveNodeInventory(base.ResourceCommand, command.Command):
    """Write the inventory of a node's last inspection (and what inspection
    made of it), as JSON, to a file or to standard output."""

    RESOURCE = NODE
    REQUIRES = (http.NODE_INVENTORY, 'Node inventory')

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--file', metavar='<filename>',
                            help='Write to this file (default: standard '
                                 'output).')
        return parser

    def take_action(self, parsed_args):
        self.check_version()
        doc = self.client.get(self.path(parsed_args, 'inventory'))
        if parsed_args.file:
            with open(parsed_args.file, 'w') as f:
                json.dump(doc, f, indent=2)
        else:
            json.dump(doc, sys.stdout, indent=2)
            sys.stdout.write('\n')
