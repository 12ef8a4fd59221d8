"""Trait and resource class names of accelerators (the seed's forms).

Placement-style custom traits are ``CUSTOM_[A-Z0-9_]+`` of at most 255
characters, so every part (vendor, product, uuids) is normalised: upper
case, every other character ``_``. The seed's names are kept where
upstream Cyborg differs (doc/accelerators.md, "Traits and free counts").
"""

import re

# Device types whose traits and resource classes are accelerators': an
# allocation asking for one needs a free handle carrying it.
ACCELERATOR_TYPES = ('FPGA', 'GPU', 'QAT', 'AICHIP', 'NIC', 'SSD')

# Resource classes of the standard set plus the custom ones of the types.
_STANDARD_RESOURCE_CLASSES = ('FPGA', 'PGPU', 'VGPU')

# Well-known PCI vendor ids: their traits carry the name, not the id, so
# that the same card gives the same trait whatever the agent calls it.
WELL_KNOWN_VENDORS = {
    '8086': 'INTEL',
    '10de': 'NVIDIA',
    '10ee': 'XILINX',
    '1002': 'AMD',
    '19e5': 'HUAWEI',
    '1bd4': 'INSPUR',
}

MAX_TRAIT_LENGTH = 255
# "CUSTOM_" (7 characters) then at most 248.
_TRAIT = re.compile(r'CUSTOM_[A-Z0-9_]{1,248}')
_NOT_ALLOWED = re.compile(r'[^A-Z0-9]')


def normalize(text):
    """Upper case, every character outside ``[A-Z0-9]`` replaced by ``_``.

    One replacement per character (no collapsing), as the seed does, so
    the result is predictable from the input.
    """
    return _NOT_ALLOWED.sub('_', str(text).upper())


def _bare_id(vendor_id):
    text = str(vendor_id).strip().lower()
    if text.startswith('0x'):
        text = text[2:]
    return text


def vendor_name(vendor_id, vendor_name=None):
    """The ``<VENDOR>`` part of traits.

    The well-known name for a well-known id (``8086``, ``0x8086``), else
    the agent's ``vendor_name`` normalised, else the id (without ``0x``)
    normalised.
    """
    bare = _bare_id(vendor_id)
    if bare in WELL_KNOWN_VENDORS:
        return WELL_KNOWN_VENDORS[bare]
    if vendor_name is not None and str(vendor_name).strip():
        return normalize(str(vendor_name).strip())
    return normalize(bare)


def _checked(trait):
    if len(trait) > MAX_TRAIT_LENGTH or not _TRAIT.fullmatch(trait):
        raise ValueError('%r is not a valid custom trait (CUSTOM_ then '
                         'at most 248 of A-Z, 0-9 and _)' % trait)
    return trait


def region_trait(vendor, region_type_uuid):
    """``CUSTOM_FPGA_<VENDOR>_REGION_<region type uuid>``."""
    return _checked('CUSTOM_FPGA_%s_REGION_%s' % (normalize(vendor),
                                                  normalize(region_type_uuid)))


def function_trait(vendor, function_uuid):
    """``CUSTOM_FPGA_<VENDOR>_FUNCTION_<function uuid>``."""
    return _checked('CUSTOM_FPGA_%s_FUNCTION_%s' % (normalize(vendor),
                                                    normalize(function_uuid)))


def device_trait(device_type, vendor, product):
    """``CUSTOM_GPU_<VENDOR>_<PRODUCT>`` for a GPU, else
    ``CUSTOM_<TYPE>_<VENDOR>_<PRODUCT>`` (an FPGA: ``CUSTOM_FPGA_...``)."""
    return _checked('CUSTOM_%s_%s_%s' % (normalize(device_type),
                                         normalize(vendor),
                                         normalize(product)))


def resource_class(device_type):
    """``FPGA``, ``PGPU`` for a GPU, else ``CUSTOM_<TYPE>``."""
    kind = normalize(device_type)
    if kind == 'FPGA':
        return 'FPGA'
    if kind == 'GPU':
        return 'PGPU'
    return 'CUSTOM_' + kind


def is_accelerator_trait(name):
    """Whether ``name`` is an accelerator trait (``CUSTOM_<TYPE>_...``).

    Those are the service's (discovery sets them); the others belong to
    the operator and are matched as before.
    """
    if not isinstance(name, str):
        return False
    return any(name.startswith('CUSTOM_%s_' % kind)
               for kind in ACCELERATOR_TYPES)


def is_accelerator_resource_class(name):
    """Whether ``name`` is ``FPGA``, ``PGPU``, ``VGPU`` or
    ``CUSTOM_<one of ACCELERATOR_TYPES>``."""
    if not isinstance(name, str):
        return False
    if name in _STANDARD_RESOURCE_CLASSES:
        return True
    return any(name == 'CUSTOM_' + kind for kind in ACCELERATOR_TYPES)
