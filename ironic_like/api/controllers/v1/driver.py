"""/v1/drivers: the hardware types alive conductors serve."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import ramdisk
from ironic_like.api.controllers.v1 import utils
from ironic_like.api.controllers.v1 import vendor_passthru
from ironic_like.api import versions
from ironic_like.api.views import driver as driver_view
from ironic_like.common import exception
from ironic_like.common import policy
from ironic_like.conf import CONF
from ironic_like.drivers import loader

_TYPES = ('classic', 'dynamic')


def _fields(params):
    """The ``fields`` of a driver list or show (1.77; 406 before, as
    Ironic), or None."""
    value = params.get('fields')
    if value is None:
        return None
    utils.require_version(versions.DRIVER_FIELDS, 'The fields parameter')
    return [f.strip() for f in value.split(',') if f.strip()]


def _select(doc, fields):
    """``doc`` with only ``fields`` (and its links), as Ironic trims it;
    400 naming a field the document does not have."""
    if fields is None:
        return doc
    unknown = [f for f in fields if f not in doc]
    if unknown:
        raise exception.InvalidParameterValue(
            err='Field(s) "%s" are not valid' % ', '.join(unknown),
            field='fields')
    return {k: v for k, v in doc.items() if k in fields or k == 'links'}


def _hosts_by_driver():
    """{hardware type: [hostnames]} over the alive conductors."""
    hosts = {}
    conductors = utils.dbapi().get_alive_conductors(
        CONF.conductor.heartbeat_timeout)
    for conductor in conductors:
        for name in conductor.hardware_types or []:
            hosts.setdefault(name, []).append(conductor.hostname)
    return hosts


def _get_hosts(name):
    hosts = _hosts_by_driver().get(name)
    if hosts is None:
        raise exception.DriverNotFound(driver_name=name, code=404)
    return hosts


class DriverPropertiesController(rest.RestController):
    """The driver_info keys the hardware type's (default) interfaces read,
    with their descriptions."""

    def __init__(self, name):
        self.name = name

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        policy.authorize('baremetal:driver:get_properties', {},
                         utils.context())
        _get_hosts(self.name)
        return driver_view.properties(self.name)


class DriverRaidController(rest.RestController):
    """GET /v1/drivers/{name}/raid/logical_disk_properties (1.12): what a
    logical disk of a target RAID configuration may say, per the hardware
    type's default raid interface."""

    _custom_actions = {'logical_disk_properties': ['GET']}

    def __init__(self, name):
        self.name = name

    @pecan.expose('json')
    def logical_disk_properties(self, **kwargs):
        utils.query()
        utils.require_version(versions.RAID_CONFIG,
                              'Logical disk properties')
        policy.authorize('baremetal:driver:get_raid_logical_disk_properties',
                         {}, utils.context())
        _get_hosts(self.name)
        hw = loader.hardware_type(self.name)
        default = hw.default('raid')
        try:
            if default is None:
                raise exception.UnsupportedDriverExtension(
                    driver=self.name, extension='raid')
            return loader.interface('raid',
                                    default).get_logical_disk_properties()
        except exception.UnsupportedDriverExtension:
            # As Ironic: RAID is a standard interface some drivers lack,
            # so its absence is a 404.
            raise exception.UnsupportedDriverExtension(
                driver=self.name, extension='raid', code=404)


class DriversController(rest.RestController):

    @pecan.expose()
    def _lookup(self, name, *remainder):
        if list(remainder) == ['properties']:
            return DriverPropertiesController(name), []
        if list(remainder) == ['raid', 'logical_disk_properties']:
            return DriverRaidController(name), ['logical_disk_properties']
        if list(remainder) == ['vendor_passthru', 'lookup']:
            # The agent's lookup in the vendor passthru form (ramdisk).
            return ramdisk.DriverVendorPassthruController(name), ['lookup']
        if remainder and remainder[0] == 'vendor_passthru':
            return vendor_passthru.DriverVendorPassthruController(
                name, _get_hosts), list(remainder[1:])
        return None

    @pecan.expose('json')
    def get_all(self, **kwargs):
        params = utils.query(['type', 'detail', 'fields'])
        if params.get('fields') and utils.parse_bool(
                'detail', params.get('detail')):
            # Checked first, as Ironic does (before policy and versions).
            raise exception.InvalidParameterValue(
                err='Can not specify ?detail=True and fields in the same '
                    'request.', field='fields')
        fields = _fields(params)
        policy.authorize('baremetal:driver:get', {}, utils.context())
        driver_type = params.get('type')
        if driver_type is not None:
            utils.require_version(versions.DYNAMIC_DRIVERS,
                                  'The type parameter')
            if driver_type not in _TYPES:
                raise exception.InvalidParameterValue(
                    err='Invalid driver type "%s": use "classic" or '
                        '"dynamic".' % driver_type, field='type')
        detail = utils.parse_bool('detail', params.get('detail'))
        if detail is not None:
            utils.require_version(versions.DYNAMIC_DRIVERS,
                                  'The detail parameter')
        if driver_type == 'classic':
            # Classic drivers are gone (as in Ironic since Rocky).
            return {'drivers': []}
        version = utils.version()
        url = utils.public_url()
        hosts = _hosts_by_driver()
        return {'drivers': [
            _select(driver_view.render(name, hosts[name], version, url,
                                       detail=bool(detail)), fields)
            for name in sorted(hosts)]}

    @pecan.expose('json')
    def get_one(self, name, **kwargs):
        params = utils.query(['fields'])
        fields = _fields(params)
        policy.authorize('baremetal:driver:get', {}, utils.context())
        hosts = _get_hosts(name)
        return _select(driver_view.render(name, hosts, utils.version(),
                                          utils.public_url(), detail=True),
                       fields)
