"""``openstack baremetal node passthru list|call`` and ``openstack
baremetal driver passthru list|call``: the vendor passthru methods of a
node's or a driver's vendor interface, listed and called as
python-ironicclient does (``--arg KEY=VALUE``, the value decoded as
JSON when it is JSON; ``--http-method`` defaults to POST)."""

import json

from osc_lib.command import command

from ironic_like.osc import common
from ironic_like.osc.v1 import base
from ironic_like.osc.v1.driver import DRIVER
from ironic_like.osc.v1.node import NODE

HTTP_METHODS = ('POST', 'PUT', 'GET', 'DELETE', 'PATCH')
# python-ironicclient's columns of a passthru list.
_COLUMNS = ('Name', 'Supported HTTP methods', 'Async', 'Description',
            'Response is attachment')


class _ListPassthru(base.ResourceCommand, command.Lister):

    def take_action(self, parsed_args):
        self.check_version()
        methods = self.client.get(self.path(
            parsed_args, 'vendor_passthru', 'methods')) or {}
        rows = []
        for name in sorted(methods):
            info = methods[name] or {}
            rows.append((name, ', '.join(info.get('http_methods') or []),
                         info.get('async'), info.get('description'),
                         info.get('attach')))
        return _COLUMNS, rows


class _CallPassthru(base.ResourceCommand, command.Command):

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('method', metavar='<method>',
                            help='Vendor passthru method to call.')
        parser.add_argument('--arg', metavar='<key=value>', action='append',
                            help='Argument to pass to the method (repeat '
                                 'the option for more).')
        parser.add_argument('--http-method', metavar='<http-method>',
                            choices=HTTP_METHODS, default='POST',
                            help='HTTP method of the call: one of %s '
                                 '(default: POST).'
                                 % ', '.join(HTTP_METHODS))
        return parser

    def take_action(self, parsed_args):
        self.check_version()
        body = common.to_dict(parsed_args.arg)
        answer = self.client.request(
            parsed_args.http_method,
            self.path(parsed_args, 'vendor_passthru'),
            params={'method': parsed_args.method},
            body=body or None)
        if answer is not None:
            # An asynchronous method answers nothing (202).
            self.app.stdout.write(json.dumps(answer, indent=2,
                                             sort_keys=True) + '\n')


class ListPassthruNode(_ListPassthru):
    """List the vendor passthru methods of a node."""

    RESOURCE = NODE


class CallPassthruNode(_CallPassthru):
    """Call a vendor passthru method of a node."""

    RESOURCE = NODE


class ListPassthruDriver(_ListPassthru):
    """List the vendor passthru methods of a driver."""

    RESOURCE = DRIVER


class CallPassthruDriver(_CallPassthru):
    """Call a vendor passthru method of a driver."""

    RESOURCE = DRIVER
