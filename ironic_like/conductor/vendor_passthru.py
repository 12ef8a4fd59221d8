"""Vendor passthru (API 1.0): the methods a node's vendor interface, or
a hardware type's default vendor interface, exposes beyond Ironic's
standard API (drivers.base.passthru, driver_passthru), listed and called
as Ironic's conductor does.

Every check of a node's call (the method, its HTTP method, the
interface's validate(), the arguments) runs first under a shared lock,
so that a refused call never writes the node (taking the exclusive lock
writes its row). A method that needs the exclusive lock (the default)
then takes it and is checked again there, as the node may have changed
in between: the interface's validate() runs twice for it (Ironic takes
the exclusive lock first and validates once).

A synchronous method answers with its return value; an asynchronous one
runs in a conductor worker that holds the lock, and the API answers 202
at once. A failure of an asynchronous call is logged
(Ironic does the same: the caller was answered already).
"""

import inspect

from oslo_log import log

from ironic_like.common import exception
from ironic_like.conductor import locks
from ironic_like.drivers import base
from ironic_like.drivers import loader

LOG = log.getLogger(__name__)


def _route(routes, method, http_method):
    """The route of ``method`` accepting ``http_method``, else
    InvalidParameterValue (400) as Ironic words it."""
    route = routes.get(method)
    if route is None:
        raise exception.InvalidParameterValue(
            err='No handler for method %s' % method, field='method')
    if http_method not in route['http_methods']:
        raise exception.InvalidParameterValue(
            err='The method %s does not support HTTP %s' % (method,
                                                            http_method),
            field='method')
    return route


# Arguments the conductor passes itself: a body may not carry them.
_RESERVED_ARGUMENTS = ('task', 'context', 'method', 'http_method')


def _check_call(route, method, http_method, info, validate):
    """Every check of a call before it runs (400, naming the argument):
    no argument the conductor sets itself in the body, the interface's
    ``validate(method=..., http_method=..., **info)``, then the
    arguments against the method's signature, so that a bad call fails
    before the node moves, not with a TypeError inside the conductor."""
    reserved = sorted(set(info) & set(_RESERVED_ARGUMENTS))
    if reserved:
        raise exception.InvalidParameterValue(
            err='Vendor passthru method %s: "%s" is set by the service, '
                'not by the request body.' % (method, reserved[0]),
            field=reserved[0])
    validate(method=method, http_method=http_method, **info)
    try:
        inspect.signature(route['func']).bind(None, http_method=None,
                                              **info)
    except TypeError as e:
        raise exception.InvalidParameterValue(
            err='Vendor passthru method %s cannot be called with these '
                'arguments: %s.' % (method, e), field='method')


def _answer(route, value):
    return {'return': value, 'async': route['async'],
            'attach': route['attach']}


def node_methods(context, node_id):
    """{method: its marks} of the node's vendor interface."""
    with locks.acquire(context, node_id, shared=True,
                       purpose='listing vendor passthru methods') as task:
        return base.routes_metadata(task.driver.vendor.vendor_routes)


def _checked_route(task, method, http_method, info):
    """The route of the call, once every check passed (else 400)."""
    vendor = task.driver.vendor
    route = _route(vendor.vendor_routes, method, http_method)
    _check_call(route, method, http_method, info,
                lambda **kwargs: vendor.validate(task, **kwargs))
    return route


def _node_call(task, executor, route, method, http_method, info):
    if route['async']:
        task.spawn_after(executor, _run_async, route['func'],
                         method, dict(info, http_method=http_method))
        return _answer(route, None)
    return _answer(route, route['func'](task, http_method=http_method,
                                        **info))


def _run_logged(what, func, first, method, kwargs):
    """Run an asynchronous method, ``func(first, **kwargs)``: its caller
    was answered already, so its outcome is logged (``what``: the node
    or driver it is of)."""
    try:
        func(first, **kwargs)
    except Exception as e:
        LOG.error('%s: vendor passthru method %s failed: %s', what, method,
                  exception.safe_message(e))
        return
    LOG.info('%s: vendor passthru method %s done', what, method)


def _run_async(task, func, method, kwargs):
    _run_logged('Node %s' % task.node.uuid, func, task, method, kwargs)


def call_node(context, executor, node_id, method, http_method, info):
    """Call vendor ``method`` of the node with the request body ``info``
    by ``http_method``: {'return', 'async', 'attach'}."""
    http_method = http_method.upper()
    info = dict(info or {})
    # Checked under a shared lock first: a refused call never takes the
    # exclusive lock, whose taking alone writes the node row.
    with locks.acquire(context, node_id, shared=True,
                       purpose='calling vendor passthru') as task:
        route = _checked_route(task, method, http_method, info)
        if not route['require_exclusive_lock']:
            return _node_call(task, executor, route, method, http_method,
                              info)
    with locks.acquire(context, node_id,
                       purpose='calling vendor passthru %s' % method) \
            as task:
        # The node's interface may have changed in between.
        route = _checked_route(task, method, http_method, info)
        return _node_call(task, executor, route, method, http_method,
                          info)


def _driver_vendor(driver_name):
    """The default vendor interface of hardware type ``driver_name``
    (Ironic's rule for driver-level calls), or None; and its driver
    routes."""
    name = loader.hardware_type(driver_name).default('vendor')
    vendor = loader.interface('vendor', name) if name else None
    return vendor, (vendor.driver_routes if vendor else {})


def driver_methods(driver_name):
    return base.routes_metadata(_driver_vendor(driver_name)[1])


def call_driver(context, executor, driver_name, method, http_method, info):
    """Call driver vendor ``method`` of hardware type ``driver_name``
    (no node, no lock)."""
    http_method = http_method.upper()
    info = dict(info or {})
    vendor, routes = _driver_vendor(driver_name)
    route = _route(routes, method, http_method)
    _check_call(route, method, http_method, info, vendor.driver_validate)
    kwargs = dict(info, http_method=http_method)
    if not route['async']:
        return _answer(route, route['func'](context, **kwargs))
    try:
        executor.submit(_run_logged, 'Driver %s' % driver_name,
                        route['func'], context, method, kwargs)
    except Exception as e:
        raise exception.TemporaryFailure(
            'The conductor could not start vendor passthru method %s: %s'
            % (method, e))
    return _answer(route, None)
