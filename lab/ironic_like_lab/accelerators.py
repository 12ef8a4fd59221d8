"""The simulated machine's PCI accelerators (doc/accelerators.md).

The agent option ``accelerators`` is a list of entries in the inventory
format of doc/accelerators.md; the agent keeps a deep copy of it as its
live state, which ``accelerator.program`` / ``accelerator.erase`` change
(the function each FPGA region holds). Entries are reported as given:
the service validates them, so a test may feed it broken ones (an entry
that is not an object, a bad address); the agent just never finds such an
entry when asked to program it.
"""

import copy
import re

_FULL = re.compile(r'^([0-9a-f]{4}):([0-9a-f]{2}):([0-1][0-9a-f])\.([0-7])$')
_SHORT = re.compile(r'^([0-9a-f]{2}):([0-1][0-9a-f])\.([0-7])$')


class NotFound(Exception):
    """No such device or region."""


def normalize_address(address):
    """``dddd:bb:dd.f`` lower case (a short ``bb:dd.f`` gets domain
    ``0000``), or None when ``address`` is not a PCI address."""
    if not isinstance(address, str):
        return None
    text = address.strip().lower()
    if _SHORT.match(text):
        text = '0000:' + text
    return text if _FULL.match(text) else None


def region_key(address, region_index):
    """``(normalized address, index)``.

    :raises NotFound: not a PCI address or not a region index.
    """
    norm = normalize_address(address)
    if (norm is None or isinstance(region_index, bool)
            or not isinstance(region_index, int) or region_index < 0):
        raise NotFound('No accelerator region %s at PCI address %s'
                       % (region_index, address))
    return norm, region_index


def find_region(devices, key):
    """The region dict of ``key`` in ``devices`` (the first device of
    that physical function address).

    :raises NotFound: no such device, or it has no such region.
    """
    address, index = key
    for device in devices:
        if (isinstance(device, dict)
                and normalize_address(device.get('pci_address'))
                == address):
            regions = device.get('regions')
            if (isinstance(regions, list) and index < len(regions)
                    and isinstance(regions[index], dict)):
                return regions[index]
            raise NotFound('No region %d on the accelerator at PCI address '
                           '%s' % (index, address))
    raise NotFound('No accelerator at PCI address %s (region %d)'
                   % (address, index))


def check_devices(devices):
    """:raises ValueError: ``devices`` is neither None nor a list."""
    if devices is not None and not isinstance(devices, list):
        raise ValueError('option accelerators must be a list of '
                         'accelerator entries (or null)')


def replace(devices, programmed):
    """A new device list, with the agent's programmed state kept.

    ``programmed`` maps a region key to the function the agent loaded there
    (or None: erased). Answers ``(live devices, programmed)``: a deep copy
    of ``devices`` where every region the agent programmed or erased, on a
    device whose address is still listed, holds what the agent left in it;
    and ``programmed`` without the regions that are gone.
    """
    check_devices(devices)
    live = copy.deepcopy(devices or [])
    kept = {}
    for key, function in programmed.items():
        try:
            region = find_region(live, key)
        except NotFound:
            continue  # the card (or region) vanished: its state too
        region['function'] = copy.deepcopy(function)
        kept[key] = function
    return live, kept


def bitstream_file_name(address, region_index):
    """File-name suffix of a region's last programmed bitstream."""
    return 'fpga-%s-region%d.bit' % (address.replace(':', '_'),
                                     region_index)
