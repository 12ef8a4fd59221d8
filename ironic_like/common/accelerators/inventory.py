"""The agent's ``accelerators`` inventory: checked, normalised, laid out.

parse() turns the agent's list into device specs (one per PF, sorted by
address) or rejects the whole inventory, naming the entry and field, so
that a bad report never half-updates a node's records. layout() derives
the deployable tree and the attach handles of one spec; digest() and
diff() let discovery write nothing when nothing changed and tell added,
changed, vanished and vanished-but-in-use devices apart
(doc/accelerators.md, "Discovery and the diff").
"""

import hashlib
import json
import re
import uuid

from oslo_utils import uuidutils

from ironic_like.common.accelerators import pci
from ironic_like.common.accelerators import traits
from ironic_like.common import exception

FIELD = 'inventory.accelerators'

_ENTRY_KEYS = frozenset(('type', 'vendor_id', 'product_id', 'vendor_name',
                         'model', 'pci_address', 'virtual_functions',
                         'regions'))
_REGION_KEYS = frozenset(('region_type_uuid', 'partial_reconfiguration',
                          'pci_addresses', 'function'))
_FUNCTION_KEYS = frozenset(('uuid', 'name'))

# A type is a trait part: short enough that any trait built from it fits
# in 255 characters (the vendor name is then the only long part).
MAX_TYPE_LENGTH = 32
MAX_NAME_LENGTH = 255
_TYPE = re.compile(r'[A-Za-z0-9_]{1,%d}' % MAX_TYPE_LENGTH)
_PCI_ID = re.compile(r'(?:0x)?([0-9a-f]{4})')

KIND_DEVICE = 'device'
KIND_REGION = 'region'
KIND_FUNCTION = 'function'
DRIVER_FPGA = 'fpga_agent'
DRIVER_PCI = 'pci'
ATTACH_TYPE_PCI = 'PCI'


def _invalid(field, message):
    return exception.InvalidParameterValue(
        err='%s: %s' % (field, message), field=field)


def canonical_json(obj):
    """JSON with sorted keys and no spaces: equal data, equal text."""
    return json.dumps(obj, sort_keys=True, separators=(',', ':'),
                      ensure_ascii=False)


def _sha256(obj):
    return hashlib.sha256(canonical_json(obj).encode('utf-8')).hexdigest()


def _check_keys(value, allowed, field):
    unknown = sorted(set(value) - allowed, key=str)
    if unknown:
        key = unknown[0]
        raise _invalid('%s.%s' % (field, key),
                       'unknown field %r (expected some of: %s)'
                       % (key, ', '.join(sorted(allowed))))


def _address(value, field):
    try:
        return pci.normalize_address(value)
    except ValueError as e:
        raise _invalid(field, str(e))


def _uuid(value, field):
    # Canonical form (lower case, hyphens): the same uuid spelt without
    # hyphens or in braces must give the same trait.
    if not isinstance(value, str) or not uuidutils.is_uuid_like(value):
        raise _invalid(field, '%r is not a UUID' % (value,))
    return str(uuid.UUID(value))


def _pci_id(value, field):
    match = (_PCI_ID.fullmatch(value.lower())
             if isinstance(value, str) else None)
    if match is None:
        raise _invalid(field, '%r is not a PCI id (4 hex digits)' % (value,))
    return match.group(1)


def _optional_text(value, field):
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > MAX_NAME_LENGTH:
        raise _invalid(field, 'expected null or a string of at most %d '
                       'characters' % MAX_NAME_LENGTH)
    return value


def _function(value, field):
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _invalid(field, 'expected null or an object {uuid, name}')
    _check_keys(value, _FUNCTION_KEYS, field)
    return {'uuid': _uuid(value.get('uuid'), field + '.uuid'),
            'name': _optional_text(value.get('name'), field + '.name')}


def _region(value, index, own, field):
    if not isinstance(value, dict):
        raise _invalid(field, 'expected an object')
    _check_keys(value, _REGION_KEYS, field)
    partial = value.get('partial_reconfiguration', False)
    if partial is None:
        partial = False
    if not isinstance(partial, bool):
        raise _invalid(field + '.partial_reconfiguration',
                       'expected true or false')
    listed = value.get('pci_addresses') or []
    if not isinstance(listed, list):
        raise _invalid(field + '.pci_addresses',
                       'expected a list of PCI addresses')
    addresses = []
    for position, item in enumerate(listed):
        item_field = '%s.pci_addresses[%d]' % (field, position)
        address = _address(item, item_field)
        if address not in own:
            raise _invalid(item_field, '%s is neither the PF nor a VF of '
                           'this device' % address)
        if address in addresses:
            raise _invalid(item_field, '%s is listed twice' % address)
        addresses.append(address)
    return {'index': index,
            'region_type_uuid': _uuid(value.get('region_type_uuid'),
                                      field + '.region_type_uuid'),
            'partial_reconfiguration': partial,
            'pci_addresses': sorted(addresses),
            'function': _function(value.get('function'),
                                  field + '.function')}


def _entry_traits(spec):
    """Every trait the spec's layout will carry (ValueError if too long)."""
    names = [traits.device_trait(spec['type'], spec['vendor'],
                                 spec['product_id'])]
    for region in spec['regions']:
        names.append(traits.region_trait(spec['vendor'],
                                         region['region_type_uuid']))
        if region['function']:
            names.append(traits.function_trait(spec['vendor'],
                                               region['function']['uuid']))
    return names


def _entry(value, field, seen):
    """One normalised spec; ``seen`` maps every PCI address of the node
    taken so far to the field that took it."""
    if not isinstance(value, dict):
        raise _invalid(field, 'expected an object')
    _check_keys(value, _ENTRY_KEYS, field)

    kind = value.get('type')
    if not isinstance(kind, str) or not _TYPE.fullmatch(kind):
        raise _invalid(field + '.type', 'expected a device type of 1 to %d '
                       'letters, digits or _ (e.g. FPGA, GPU)'
                       % MAX_TYPE_LENGTH)
    kind = kind.upper()

    def take(address, address_field):
        if address in seen:
            raise _invalid(address_field, 'PCI address %s is already '
                           'reported by %s' % (address, seen[address]))
        seen[address] = address_field

    address = _address(value.get('pci_address'), field + '.pci_address')
    take(address, field + '.pci_address')

    vendor_id = _pci_id(value.get('vendor_id'), field + '.vendor_id')
    product_id = _pci_id(value.get('product_id'), field + '.product_id')
    vendor_name = _optional_text(value.get('vendor_name'),
                                 field + '.vendor_name')
    model = _optional_text(value.get('model'), field + '.model')

    vfs_value = value.get('virtual_functions')
    if vfs_value is None:
        vfs_value = []
    if not isinstance(vfs_value, list):
        raise _invalid(field + '.virtual_functions',
                       'expected a list of PCI addresses')
    vfs = []
    for position, item in enumerate(vfs_value):
        item_field = '%s.virtual_functions[%d]' % (field, position)
        vf = _address(item, item_field)
        take(vf, item_field)
        vfs.append(vf)
    vfs.sort()

    regions_value = value.get('regions')
    if regions_value is None:
        regions_value = []
    if not isinstance(regions_value, list):
        raise _invalid(field + '.regions', 'expected a list of regions')
    if regions_value and kind != 'FPGA':
        raise _invalid(field + '.regions', 'only an FPGA has regions, not '
                       'a device of type %s' % kind)
    own = set([address] + vfs)
    regions = [_region(item, index, own, '%s.regions[%d]' % (field, index))
               for index, item in enumerate(regions_value)]

    spec = {'type': kind,
            'vendor_id': vendor_id,
            'product_id': product_id,
            'vendor_name': vendor_name,
            'model': model,
            'vendor': traits.vendor_name(vendor_id, vendor_name),
            'resource_class': traits.resource_class(kind),
            'pci_address': address,
            'virtual_functions': vfs,
            'regions': regions}
    try:
        _entry_traits(spec)
    except ValueError as e:
        # The type is bounded and the ids are 4 hex digits: only a long
        # vendor name can make a trait too long.
        raise _invalid(field + '.vendor_name', str(e))
    spec['digest'] = _sha256(spec)
    return spec


def parse(entries, field=FIELD):
    """Check and normalise the agent's ``accelerators`` list.

    :returns: a list of device specs sorted by ``pci_address``.
    :raises InvalidParameterValue: the whole inventory is rejected; its
        ``field`` names the entry and key, e.g.
        ``inventory.accelerators[3].pci_address``.
    """
    if not isinstance(entries, list):
        raise _invalid(field, 'expected a list of accelerators')
    seen = {}
    specs = [_entry(value, '%s[%d]' % (field, index), seen)
             for index, value in enumerate(entries)]
    return sorted(specs, key=lambda spec: spec['pci_address'])


def handle_addresses(spec):
    """The PCI functions a device is offered through: its VFs when it
    exposes any (the PF is then not offered as well: cubecos #1262), else
    its PF."""
    if spec['virtual_functions']:
        return list(spec['virtual_functions'])
    return [spec['pci_address']]


def _deployable(key, parent_key, kind, name, driver_name, resource_class,
                region=None):
    function = region['function'] if kind == KIND_FUNCTION else None
    return {'key': key,
            'parent_key': parent_key,
            'kind': kind,
            'name': name,
            'num_accelerators': 0,
            'driver_name': driver_name,
            'region_type_uuid': region['region_type_uuid'] if region
            else None,
            'partial_reconfiguration': (
                region['partial_reconfiguration']
                if kind == KIND_REGION else None),
            'function_uuid': function['uuid'] if function else None,
            'function_name': function['name'] if function else None,
            'resource_class': resource_class}


def layout(spec, name_prefix):
    """The deployables and attach handles of one device spec.

    Deployables (parents first): ``device``; for an FPGA one ``region<i>``
    per region and, while a function is loaded, ``region<i>/function``
    under it (carrying its region's type too, for the image query).
    Handles: a GPU's or other card's hang off ``device``; an FPGA's off
    the region listing them (a region listing none gets
    handle_addresses(spec); an address listed twice belongs to the first
    region). A region-less FPGA's hang off ``device``.

    ``num_accelerators`` counts the handles a deployable provides: the
    device all of its handles, a region its own, a function its region's.

    :returns: ``{'deployables': [...], 'handles': [...]}``, handles sorted
        by address.
    """
    fpga = spec['type'] == 'FPGA'
    driver = DRIVER_FPGA if fpga else DRIVER_PCI
    rc = spec['resource_class']
    vendor = spec['vendor']
    root_name = '%s_%s' % (name_prefix, spec['pci_address'])
    device_trait = traits.device_trait(spec['type'], vendor,
                                       spec['product_id'])
    root = _deployable(KIND_DEVICE, None, KIND_DEVICE, root_name, driver, rc)
    deployables = [root]
    handles = []

    def add_handle(address, key, names):
        handles.append({'pci_address': address,
                        'deployable_key': key,
                        'attach_type': ATTACH_TYPE_PCI,
                        'attach_info': dict(pci.bdf_info(address),
                                            bdf=address),
                        'resource_class': rc,
                        'traits': sorted(set(names))})

    if not (fpga and spec['regions']):
        for address in handle_addresses(spec):
            add_handle(address, KIND_DEVICE, [device_trait])
        root['num_accelerators'] = len(handles)
    else:
        taken = set()
        for region in spec['regions']:
            key = 'region%d' % region['index']
            node = _deployable(key, KIND_DEVICE, KIND_REGION,
                               '%s_%s' % (root_name, key), driver, rc,
                               region)
            deployables.append(node)
            names = [device_trait,
                     traits.region_trait(vendor, region['region_type_uuid'])]
            child = None
            if region['function']:
                child = _deployable(key + '/function', key, KIND_FUNCTION,
                                    '%s_function' % node['name'], driver, rc,
                                    region)
                deployables.append(child)
                names.append(traits.function_trait(
                    vendor, region['function']['uuid']))
            addresses = region['pci_addresses'] or handle_addresses(spec)
            mine = [a for a in addresses if a not in taken]
            taken.update(mine)
            for address in mine:
                add_handle(address, key, names)
            node['num_accelerators'] = len(mine)
            if child is not None:
                child['num_accelerators'] = len(mine)
        root['num_accelerators'] = len(handles)

    handles.sort(key=lambda handle: handle['pci_address'])
    return {'deployables': deployables, 'handles': handles}


def digest(specs):
    """The digest of a whole inventory: equal for an unchanged one,
    whatever order the agent listed the devices in."""
    ordered = sorted(specs, key=lambda spec: spec['pci_address'])
    return _sha256([spec['digest'] for spec in ordered])


def diff(existing, reported):
    """What discovery has to do, by PCI address.

    :param existing: ``{pci_address: {'digest', 'status' ('enabled' or
        'missing'), 'in_use' (any handle in use)}}``, the stored devices.
    :param reported: the device specs parse() returned.
    :returns: ``{'add': [specs], 'update': [specs], 'remove': [addresses],
        'missing': [addresses], 'unchanged': [addresses]}``, each sorted by
        address. ``update``: the digest differs, or a ``missing`` device
        reappeared. ``remove``: vanished and not in use. ``missing``:
        vanished while in use (kept, never silently freed) and not yet
        flagged; one already flagged and still in use is ``unchanged``.
    """
    result = {'add': [], 'update': [], 'remove': [], 'missing': [],
              'unchanged': []}
    by_address = {spec['pci_address']: spec for spec in reported}
    for address in sorted(by_address):
        spec = by_address[address]
        stored = existing.get(address)
        if stored is None:
            result['add'].append(spec)
        elif (stored.get('digest') != spec['digest']
              or stored.get('status') == 'missing'):
            result['update'].append(spec)
        else:
            result['unchanged'].append(address)
    for address in sorted(set(existing) - set(by_address)):
        stored = existing[address]
        if not stored.get('in_use'):
            result['remove'].append(address)
        elif stored.get('status') != 'missing':
            result['missing'].append(address)
        else:
            result['unchanged'].append(address)
    result['unchanged'].sort()
    return result
