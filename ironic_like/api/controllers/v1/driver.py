"""/v1/drivers: the hardware types alive conductors serve."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import ramdisk
from ironic_like.api.controllers.v1 import utils
from ironic_like.api import versions
from ironic_like.api.views import driver as driver_view
from ironic_like.common import exception
from ironic_like.common import policy
from ironic_like.conf import CONF

_TYPES = ('classic', 'dynamic')


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
    """Properties a driver reads from driver_info: none are documented by
    our interfaces yet, so the document is empty."""

    def __init__(self, name):
        self.name = name

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        policy.authorize('baremetal:driver:get', {}, utils.context())
        _get_hosts(self.name)
        return {}


class DriversController(rest.RestController):

    @pecan.expose()
    def _lookup(self, name, *remainder):
        if list(remainder) == ['properties']:
            return DriverPropertiesController(name), []
        if list(remainder) == ['vendor_passthru', 'lookup']:
            # The agent's lookup in the vendor passthru form (ramdisk).
            return ramdisk.DriverVendorPassthruController(name), ['lookup']
        return None

    @pecan.expose('json')
    def get_all(self, **kwargs):
        params = utils.query(['type', 'detail'])
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
            driver_view.render(name, hosts[name], version, url,
                               detail=bool(detail))
            for name in sorted(hosts)]}

    @pecan.expose('json')
    def get_one(self, name, **kwargs):
        utils.query()
        policy.authorize('baremetal:driver:get', {}, utils.context())
        hosts = _get_hosts(name)
        return driver_view.render(name, hosts, utils.version(),
                                  utils.public_url(), detail=True)
