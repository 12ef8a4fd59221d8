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


def _check_reserved(method, info):
    reserved = sorted(set(info) & set(_RESERVED_ARGUMENTS))
    if reserved:
        raise exception.InvalidParameterValue(
            err='Vendor passthru method %s: "%s" is set by the service, '
                'not by the request body.' % (method, reserved[0]),
            field=reserved[0])


def _check_arguments(route, method, info):
    """400 when the body's arguments do not fit the method (one it does
    not take, or one it needs missing), after the interface's own
    validation, so that a bad call fails before the node moves, not with
    a TypeError inside the conductor."""
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
    route = _route(task.driver.vendor.vendor_routes, method, http_method)
    _check_reserved(method, info)
    task.driver.vendor.validate(task, method=method,
                                http_method=http_method, **info)
    _check_arguments(route, method, info)
    return route


def _node_call(task, executor, route, method, http_method, info):
    if route['async']:
        task.spawn_after(executor, _run_async, route['func'],
                         method, dict(info, http_method=http_method))
        return _answer(route, None)
    return _answer(route, route['func'](task, http_method=http_method,
                                        **info))


def _run_async(task, func, method, kwargs):
    try:
        func(task, **kwargs)
    except Exception as e:
        LOG.error('Node %s: vendor passthru method %s failed: %s',
                  task.node.uuid, method, exception.safe_message(e))
        return
    LOG.info('Node %s: vendor passthru method %s done', task.node.uuid,
             method)


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
    (Ironic's rule for driver-level calls), or None."""
    name = loader.hardware_type(driver_name).default('vendor')
    return loader.interface('vendor', name) if name else None


def driver_methods(driver_name):
    vendor = _driver_vendor(driver_name)
    return base.routes_metadata(vendor.driver_routes if vendor else {})


def call_driver(context, executor, driver_name, method, http_method, info):
    """Call driver vendor ``method`` of hardware type ``driver_name``
    (no node, no lock)."""
    http_method = http_method.upper()
    info = dict(info or {})
    vendor = _driver_vendor(driver_name)
    route = _route(vendor.driver_routes if vendor else {}, method,
                   http_method)
    _check_reserved(method, info)
    vendor.driver_validate(method=method, http_method=http_method, **info)
    _check_arguments(route, method, info)
    kwargs = dict(info, http_method=http_method)
    if not route['async']:
        return _answer(route, route['func'](context, **kwargs))

    def _work():
        try:
            route['func'](context, **kwargs)
        except Exception as e:
            LOG.error('Driver %s: vendor passthru method %s failed: %s',
                      driver_name, method, exception.safe_message(e))
    try:
        executor.submit(_work)
    except Exception as e:
        raise exception.TemporaryFailure(
            'The conductor could not start vendor passthru method %s: %s'
            % (method, e))
    return _answer(route, None)
