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
        parser.add_argument('--long', action='store_true', default=False,
                            help='Show the interfaces of each driver too.')
        return parser

    def take_action(self, parsed_args):
        params = {}
        if parsed_args.long and self.client.supports(http.DYNAMIC_DRIVERS):
            params['detail'] = 'True'
        doc = self.client.get('drivers', params) or {}
        drivers = doc.get('drivers') or []
        fields = ['name', 'hosts']
        if parsed_args.long:
            fields = common.long_fields(drivers, ['name', 'type', 'hosts'],
                                        drop=_DRIVER_DROP)
        return common.listing(drivers, fields,
                              [_driver_label(f) for f in fields])


class ShowDriver(base.ResourceCommand, command.ShowOne):
    """Show a driver (hardware type)."""

    RESOURCE = DRIVER

    def take_action(self, parsed_args):
        driver = self.client.get(self.path(parsed_args))
        return common.show(driver, drop=_DRIVER_DROP)
