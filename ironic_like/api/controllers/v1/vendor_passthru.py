"""Vendor passthru (API 1.0, Ironic's paths and answers):

* GET /v1/nodes/{node}/vendor_passthru/methods: {method: {http_methods,
  async, description, attach, require_exclusive_lock}} of the node's
  vendor interface;
* GET|PUT|POST|PATCH|DELETE /v1/nodes/{node}/vendor_passthru?method=<name>
  (or .../vendor_passthru/<name>, as python-ironicclient calls it): the
  body (a JSON object, or none) goes to the method as its arguments; 200
  with what it returned, or 202 (empty) for an asynchronous method,
  which the node's conductor runs holding the node's lock;
* the same under /v1/drivers/{driver}/vendor_passthru for the methods of
  a hardware type's default vendor interface (no node).

The agent's heartbeat and lookup keep their vendor passthru forms
(``.../vendor_passthru/heartbeat``, ``.../vendor_passthru/lookup``; see
ramdisk). Admins only (Ironic's SYSTEM_ADMIN rules).
"""

import json

import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import ramdisk
from ironic_like.api.controllers.v1 import utils
from ironic_like.api.schemas import node as schema
from ironic_like.api import validation
from ironic_like.common import exception
from ironic_like.common import policy

NODE_RULE = 'baremetal:node:vendor_passthru'
DRIVER_RULE = 'baremetal:driver:vendor_passthru'
_CALL_VALIDATOR = validation.make_validator(schema.VENDOR_PASSTHRU_BODY)
# What the calls answer (clients send Accept: application/json); an
# attachment overrides it.
_JSON = 'application/json'


def _method(in_path):
    """The method's name: from the path (``.../vendor_passthru/<name>``,
    python-ironicclient's form) or the ``method`` query parameter
    (openstacksdk's); 400 when neither gives one (Ironic: "Method not
    specified"); 404 for a deeper path."""
    method = utils.query(['method']).get('method')
    if len(in_path) > 1:
        raise exception.NotFound()
    if in_path:
        method = in_path[0]
    if not method:
        raise exception.InvalidParameterValue(err='Method not specified',
                                              field='method')
    return method


def _arguments():
    """The request body: a JSON object (none: no arguments)."""
    return utils.validate(_CALL_VALIDATOR, utils.load_optional_body())


def _respond(answer):
    """Ironic's answer to a call: 202 and no body for an asynchronous
    method; else 200 with its return value, as JSON or (``attach``) as
    the raw body."""
    if answer['async']:
        utils.set_status(202)
        return ''
    utils.set_status(200)
    value = answer['return']
    if answer.get('attach'):
        pecan.override_template(None, 'application/octet-stream')
        return value.encode('utf-8') if isinstance(value, str) else value
    pecan.override_template(None, _JSON)
    return json.dumps(value)


def _handler(http_method):
    """The pecan handler of ``http_method`` calls: the method named in
    the path (positional parts) or the query."""
    @pecan.expose(content_type=_JSON)
    def handle(self, *in_path, **kwargs):
        return self._call(http_method, in_path)
    return handle


class _Passthru(rest.RestController):
    """Every HTTP method of the passthru resource of ``ident`` (a node's
    UUID or name, a hardware type's name) calls ``_call``, with the
    method named in the path or the query. The path's parts come as
    positional arguments: pecan also passes a JSON body's keys as
    keyword arguments, which must never name the method."""

    def __init__(self, ident):
        self.ident = ident

    # GET without a path part is pecan's get_all, with one its get_one.
    get_all = get_one = _handler('GET')
    post = _handler('POST')
    put = _handler('PUT')
    patch = _handler('PATCH')
    delete = _handler('DELETE')


class NodeVendorPassthruController(_Passthru):

    _custom_actions = {'heartbeat': ['POST'], 'methods': ['GET']}

    @pecan.expose('json')
    def heartbeat(self, **kwargs):
        # The agent's (no policy: its token is checked by the conductor).
        return ramdisk.NodeVendorPassthruController(
            self.ident).heartbeat(**kwargs)

    @pecan.expose('json')
    def methods(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.ident, NODE_RULE)
        return utils.rpcapi().get_node_vendor_passthru_methods(
            utils.context(), node)

    def _call(self, http_method, in_path):
        method = _method(in_path)
        node = utils.get_authorized_node(self.ident, NODE_RULE)
        return _respond(utils.rpcapi().vendor_passthru(
            utils.context(), node, method, http_method, _arguments()))


class DriverVendorPassthruController(_Passthru):

    _custom_actions = {'methods': ['GET']}

    def __init__(self, driver_name, known_driver):
        super().__init__(driver_name)
        # known_driver(name): 404 for a hardware type no conductor serves.
        self._known_driver = known_driver

    def _authorized(self):
        policy.authorize(DRIVER_RULE, {}, utils.context())
        self._known_driver(self.ident)
        return self.ident

    @pecan.expose('json')
    def methods(self, **kwargs):
        utils.query()
        return utils.rpcapi().get_driver_vendor_passthru_methods(
            utils.context(), self._authorized())

    def _call(self, http_method, in_path):
        method = _method(in_path)
        return _respond(utils.rpcapi().driver_vendor_passthru(
            utils.context(), self._authorized(), method, http_method,
            _arguments()))
