"""/v1/nodes/{id}/management: the boot device (GET, PUT; the supported
ones), a non-maskable interrupt (PUT inject_nmi, 1.29) and the indicators
of its components (1.63), done by the node's management interface on its
conductor."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import utils
from ironic_like.api import links
from ironic_like.api.schemas import node as schema
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.common import exception
from ironic_like.common import indicators

_BOOT_DEVICE_VALIDATOR = validation.make_validator(schema.BOOT_DEVICE_BODY)
_INJECT_NMI_VALIDATOR = validation.make_validator(schema.INJECT_NMI_BODY)
_INDICATOR_VALIDATOR = validation.make_validator(schema.INDICATOR_BODY)


class BootDeviceController(rest.RestController):

    _custom_actions = {'supported': ['GET']}

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:get_boot_device')
        found = utils.rpcapi().get_boot_device(utils.context(), node)
        return {'boot_device': found.get('boot_device'),
                'persistent': found.get('persistent')}

    @pecan.expose('json')
    def supported(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(
            self.node_ident, 'baremetal:node:get_supported_boot_devices')
        devices = utils.rpcapi().get_supported_boot_devices(
            utils.context(), node)
        return {'supported_boot_devices': devices}

    @pecan.expose('json')
    def put(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:set_boot_device')
        body = utils.load_body()
        utils.validate(_BOOT_DEVICE_VALIDATOR, body)
        persistent = utils.parse_bool('persistent', body.get('persistent'))
        utils.rpcapi().set_boot_device(utils.context(), node,
                                       body['boot_device'],
                                       persistent=bool(persistent))
        utils.set_status(204)


class InjectNmiController(rest.RestController):

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose('json')
    def put(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:inject_nmi')
        utils.validate(_INJECT_NMI_VALIDATOR, utils.load_optional_body())
        utils.rpcapi().inject_nmi(utils.context(), node)
        utils.set_status(204)


class IndicatorsController(rest.RestController):
    """/v1/nodes/{id}/management/indicators[/<indicator>@<component>]
    (1.63): the list, and one indicator's state (GET, PUT)."""

    def __init__(self, node_ident):
        self.node_ident = node_ident

    def _node(self, rule):
        return utils.get_authorized_node(self.node_ident, rule)

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        node = self._node('baremetal:node:get_indicator_state')
        found = utils.rpcapi().get_supported_indicators(utils.context(),
                                                        node)
        root = utils.public_url()
        items = []
        for component, names in sorted(found.items()):
            for name, fields in sorted(names.items()):
                unique = '%s@%s' % (name, component)
                items.append({
                    'name': unique, 'component': component,
                    'readonly': fields.get('readonly', True),
                    'states': list(fields.get('states', [])),
                    'links': links.make_links(
                        root, 'nodes', '%s/management/indicators/%s' % (
                            self.node_ident, unique))})
        return {'indicators': items}

    @pecan.expose('json')
    def get_one(self, indicator, **kwargs):
        utils.query()
        node = self._node('baremetal:node:get_indicator_state')
        component, name = indicators.split_name(indicator)
        state = utils.rpcapi().get_indicator_state(utils.context(), node,
                                                   component, name)
        return {'state': state}

    @pecan.expose('json')
    def put(self, indicator=None, **kwargs):
        utils.require_ident(indicator)
        utils.query()
        node = self._node('baremetal:node:set_indicator_state')
        component, name = indicators.split_name(indicator)
        body = utils.validate(_INDICATOR_VALIDATOR, utils.load_body())
        utils.rpcapi().set_indicator_state(utils.context(), node, component,
                                           name, body['state'])
        utils.set_status(204)


class NodeManagementController(rest.RestController):

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose()
    def _lookup(self, name, *remainder):
        if name == 'boot_device':
            return BootDeviceController(self.node_ident), list(remainder)
        if name == 'inject_nmi' and not remainder:
            # Came in 1.29: 404 before, whatever the method (Ironic).
            utils.hide_below(versions.INJECT_NMI)
            return InjectNmiController(self.node_ident), []
        if name == 'indicators' and len(remainder) <= 1:
            # Ironic (1.63) answers it at every version: no gate.
            return IndicatorsController(self.node_ident), list(remainder)
        raise exception.NotFound()
