"""Loads hardware types and interfaces through stevedore entry points."""

import threading

from stevedore import driver as stevedore_driver

from ironic_like.common import exception
from ironic_like.drivers import base

HW_NAMESPACE = 'ironic_like.hardware.types'
IFACE_NAMESPACE = 'ironic_like.hardware.interfaces.%s'

_cache = {}
_cache_lock = threading.Lock()


def _load(namespace, name, not_found):
    key = (namespace, name)
    with _cache_lock:
        if key not in _cache:
            try:
                manager = stevedore_driver.DriverManager(
                    namespace, name, invoke_on_load=True)
            except RuntimeError:
                # stevedore raises NoMatches (a RuntimeError) for a name
                # that has no entry point.
                raise not_found
            _cache[key] = manager.driver
        return _cache[key]


def hardware_type(name):
    return _load(HW_NAMESPACE, name,
                 exception.DriverNotFound(driver_name=name, field='driver'))


def interface(kind, name):
    return _load(IFACE_NAMESPACE % kind, name,
                 exception.InterfaceNotFoundInEntrypoint(
                     iface=IFACE_NAMESPACE % kind, name=name,
                     field='%s_interface' % kind))


class Driver(object):
    """A node's hardware type with its loaded interfaces."""

    def __init__(self, hw_type_name, interfaces):
        self.name = hw_type_name
        self.hardware_type = hardware_type(hw_type_name)
        for kind in base.INTERFACE_KINDS:
            setattr(self, kind, interfaces.get(kind))


def interface_names(node_values):
    """Chosen interface per kind: the node's own, else the type default.

    Raises if a chosen interface is not supported by the hardware type.
    """
    hw = hardware_type(node_values['driver'])
    names = {}
    for kind in base.INTERFACE_KINDS:
        chosen = node_values.get('%s_interface' % kind) or hw.default(kind)
        if chosen is not None and chosen not in hw.supported(kind):
            raise exception.InvalidParameterValue(
                err='Hardware type %s does not support %s interface "%s"; '
                    'it supports: %s.' % (node_values['driver'], kind,
                                          chosen,
                                          ', '.join(hw.supported(kind))),
                field='%s_interface' % kind)
        if chosen is not None and chosen not in hw.enabled(kind):
            # Supported but not in [DEFAULT]enabled_<kind>_interfaces.
            raise exception.InvalidParameterValue(
                err='%s interface "%s" is not enabled; enabled for '
                    'hardware type %s: %s ([DEFAULT]enabled_%s_interfaces).'
                    % (kind.capitalize(), chosen, node_values['driver'],
                       ', '.join(hw.enabled(kind)) or 'none', kind),
                field='%s_interface' % kind)
        if chosen is None and kind in base.CONFIGURED_KINDS:
            raise exception.InvalidParameterValue(
                err='No valid default %s interface for hardware type %s: '
                    'enable one of %s in [DEFAULT]enabled_%s_interfaces.'
                    % (kind, node_values['driver'],
                       ', '.join(hw.supported(kind)), kind),
                field='%s_interface' % kind)
        names[kind] = chosen
    return names


def node_interface(node, kind):
    """``node``'s ``kind`` interface (loaded): its own, else its hardware
    type's default; None when it has none."""
    name = getattr(node, '%s_interface' % kind, None) or \
        hardware_type(node.driver).default(kind)
    return interface(kind, name) if name else None


def build_driver(node):
    """The Driver of a stored node (anything with the node's columns)."""
    values = {'driver': node.driver}
    for kind in base.INTERFACE_KINDS:
        values['%s_interface' % kind] = getattr(node, '%s_interface' % kind,
                                                None)
    names = interface_names(values)
    return Driver(node.driver, {kind: interface(kind, name)
                                for kind, name in names.items() if name})
