"""``openstack baremetal driver ...``"""

from osc_lib.command import command

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import base

DRIVER = base.Resource('driver', 'drivers', 'Name of the driver.')

# Titles python-ironicclient uses for the driver list.
_DRIVER_LABELS = {'name': 'Supported driver(s)', 'hosts': 'Active host(s)'}
_DRIVER_DROP = common.LINK_FIELDS + ('properties',)


def _driver_label(field):
    return _DRIVER_LABELS.get(field) or common.label(field)


class ListDriver(common.BaremetalMixin, command.Lister):
    """List the hardware types alive conductors serve."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        display = parser.add_mutually_exclusive_group()
        display.add_argument('--long', action='store_true', default=False,
                             help='Show the interfaces of each driver too.')
        # As python-ironicclient: the server picks them (API 1.77).
        common.add_fields_option(display, 'driver')
        return parser

    def take_action(self, parsed_args):
        params = {}
        fields = common.flatten(parsed_args.fields)
        if fields:
            self.client.require(http.DRIVER_FIELDS, 'Driver list --fields')
            params['fields'] = ','.join(fields)
        elif parsed_args.long and self.client.supports(
                http.DYNAMIC_DRIVERS):
            params['detail'] = 'True'
        doc = self.client.get('drivers', params) or {}
        drivers = doc.get('drivers') or []
        if not fields:
            fields = ['name', 'hosts']
        if parsed_args.long:
            fields = common.long_fields(drivers, ['name', 'type', 'hosts'],
                                        drop=_DRIVER_DROP)
        return common.listing(drivers, fields,
                              [_driver_label(f) for f in fields])


class ShowDriver(base.ResourceCommand, command.ShowOne):
    """Show a driver (hardware type)."""

    RESOURCE = DRIVER

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        common.add_fields_option(parser, 'driver')
        return parser

    def take_action(self, parsed_args):
        fields = common.flatten(parsed_args.fields)
        params = None
        if fields:
            self.client.require(http.DRIVER_FIELDS, 'Driver show --fields')
            params = {'fields': ','.join(fields)}
        driver = self.client.get(self.path(parsed_args), params)
        return common.show(driver, drop=_DRIVER_DROP, keep=fields)
