"""Drivers (hardware types) in the API.

Only hardware types exist here ("dynamic" drivers in Ironic's words);
which conductors serve one comes from the alive conductors' rows.
"""

from ironic_like.api import links
from ironic_like.api import versions as v
from ironic_like.drivers import base as drivers_base
from ironic_like.drivers import loader


# Interface kinds a driver shows only from a later version (Ironic hides
# them below it; the others all came with 1.30).
_KIND_VERSIONS = {
    'storage': v.STORAGE_INTERFACE,
    'rescue': v.RESCUE_INTERFACE,
    'bios': v.BIOS_INTERFACE,
    'firmware': v.FIRMWARE_INTERFACE,
}


def _interfaces(name, version=v.MAX_VERSION):
    """default_<kind>_interface and enabled_<kind>_interfaces."""
    try:
        hw = loader.hardware_type(name)
    except Exception:
        hw = None
    result = {}
    for kind in drivers_base.INTERFACE_KINDS:
        if version < _KIND_VERSIONS.get(kind, v.MIN_VERSION):
            continue
        result['default_%s_interface' % kind] = (
            hw.default(kind) if hw is not None else None)
        result['enabled_%s_interfaces' % kind] = (
            hw.enabled(kind) if hw is not None else [])
    return result


def properties(name):
    """{driver_info key: description} the default interfaces of hardware
    type ``name`` read, as Ironic documents a driver's properties (a
    node's own interface choices are not known here)."""
    hw = loader.hardware_type(name)
    result = {}
    for kind in drivers_base.INTERFACE_KINDS:
        default = hw.default(kind)
        if default is None:
            continue
        result.update(loader.interface(kind, default).get_properties())
    return result


def render(name, hosts, version, base_url, detail=False):
    doc = {
        'name': name,
        'hosts': sorted(hosts),
        'links': links.make_links(base_url, 'drivers', name),
        'properties': [
            {'href': '%s/v1/drivers/%s/properties' % (base_url, name),
             'rel': 'self'},
            {'href': '%s/drivers/%s/properties' % (base_url, name),
             'rel': 'bookmark'},
        ],
    }
    if version >= v.DYNAMIC_DRIVERS:
        doc['type'] = 'dynamic'
        if detail:
            doc.update(_interfaces(name, version))
    return doc
