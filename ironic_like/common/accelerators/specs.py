"""A flavor's extra specs read as an accelerator request (os_acc.plug).

Keys (doc/accelerators.md, "os_acc"): ``resources:<RC>=<n>`` for an
accelerator resource class, ``trait:<T>=required`` for accelerator
traits, the bitstream as ``accel:bitstream_id=<id>`` (Cyborg) or the
seed's ``bitstream:<id>`` key, the function as ``accel:function_id`` /
``accel:function_name``. Every other key is the scheduler's business and
ignored. Contradictions are refused up front (400) rather than left to
fail half-way through a plug.
"""

import collections
import re
import uuid

from oslo_utils import uuidutils

from ironic_like.common.accelerators import traits
from ironic_like.common import exception

FIELD = 'flavor_extra_specs'
RESOURCES_PREFIX = 'resources:'
TRAIT_PREFIX = 'trait:'
BITSTREAM_PREFIX = 'bitstream:'
BITSTREAM_ID = 'accel:bitstream_id'
FUNCTION_ID = 'accel:function_id'
FUNCTION_NAME = 'accel:function_name'
REQUIRED = 'required'
FORBIDDEN = 'forbidden'
MAX_NAME_LENGTH = 255

# A uuid as traits.normalize leaves it: upper case, '_' for '-' (the
# underscores optional, for a uuid written without hyphens).
_UUID_SUFFIX = (r'[0-9A-F]{8}_?[0-9A-F]{4}_?[0-9A-F]{4}_?[0-9A-F]{4}_?'
                r'[0-9A-F]{12}')
_FUNCTION_TRAIT = re.compile(
    r'CUSTOM_FPGA_[A-Z0-9_]+_FUNCTION_(%s)' % _UUID_SUFFIX)
_REGION_TRAIT = re.compile(
    r'CUSTOM_FPGA_[A-Z0-9_]+_REGION_(%s)' % _UUID_SUFFIX)
_COUNT = re.compile(r'[0-9]+')


class Request(collections.namedtuple(
        'Request', ['count', 'resource_class', 'traits', 'bitstream_id',
                    'function_uuid', 'function_name'])):
    """What a flavor asks for: ``count`` accelerators of ``resource_class``
    (None: any) carrying every one of ``traits``, programmed with
    ``bitstream_id`` or holding the function ``function_uuid`` /
    ``function_name``."""

    __slots__ = ()

    @property
    def requested(self):
        """Whether any accelerator is asked for (else plug does nothing)."""
        return self.count > 0


def _invalid(field, message):
    return exception.InvalidParameterValue(err='%s: %s' % (field, message),
                                           field=field)


def function_uuid_of_trait(trait):
    """The uuid part of a function trait, normalised (upper case, ``_``),
    or None when ``trait`` is not ``CUSTOM_FPGA_<VENDOR>_FUNCTION_<uuid>``.
    """
    match = (_FUNCTION_TRAIT.fullmatch(trait)
             if isinstance(trait, str) else None)
    return match.group(1) if match else None


def region_type_of_trait(trait):
    """The uuid part of a region trait, normalised, or None when ``trait``
    is not ``CUSTOM_FPGA_<VENDOR>_REGION_<uuid>``."""
    match = (_REGION_TRAIT.fullmatch(trait)
             if isinstance(trait, str) else None)
    return match.group(1) if match else None


def _bare(value):
    return traits.normalize(value).replace('_', '')


def same_uuid(normalized_suffix, value):
    """Whether a trait's uuid part and a uuid name the same uuid.

    A trait cannot hold '-', so both are compared normalised, hyphens and
    underscores left out.
    """
    if normalized_suffix is None or value is None:
        return False
    return _bare(normalized_suffix) == _bare(value)


# The name other modules were told about.
trait_uuid_matches = same_uuid


def _suffix_to_uuid(suffix):
    # The suffix is 32 hex digits (checked by the trait patterns).
    return str(uuid.UUID(suffix.replace('_', '').lower()))


def _count(key, value):
    if isinstance(value, bool):
        value = None
    elif isinstance(value, int):
        value = value if value >= 0 else None
    elif isinstance(value, str) and _COUNT.fullmatch(value.strip()):
        value = int(value.strip())
    else:
        value = None
    if value is None:
        raise _invalid('%s/%s' % (FIELD, key),
                       'expected an integer >= 0')
    return value


def _text(key, value):
    if (not isinstance(value, str) or not value.strip()
            or len(value) > MAX_NAME_LENGTH):
        raise _invalid('%s/%s' % (FIELD, key), 'expected a non-empty string '
                       'of at most %d characters' % MAX_NAME_LENGTH)
    return value.strip()


def parse(extra_specs):
    """Read the accelerator request out of a flavor's extra specs.

    None is read as no extra specs at all.

    :returns: a Request; ``Request.requested`` is False when the flavor
        asks for no accelerator.
    :raises InvalidParameterValue: the field names the key at fault, e.g.
        ``flavor_extra_specs/resources:FPGA``.
    """
    if extra_specs is None:
        return Request(0, None, [], None, None, None)
    if not isinstance(extra_specs, dict):
        raise _invalid(FIELD, 'expected an object of extra specs')

    counts = {}
    required = set()
    bitstreams = {}
    function_id = function_name = None
    for key in sorted(extra_specs, key=str):
        if not isinstance(key, str):
            continue
        value = extra_specs[key]
        if key.startswith(RESOURCES_PREFIX):
            rc = key[len(RESOURCES_PREFIX):]
            if traits.is_accelerator_resource_class(rc):
                counts[rc] = _count(key, value)
        elif key.startswith(TRAIT_PREFIX):
            name = key[len(TRAIT_PREFIX):]
            if not traits.is_accelerator_trait(name):
                continue
            if value == REQUIRED:
                required.add(name)
            elif value == FORBIDDEN:
                raise _invalid('%s/%s' % (FIELD, key), 'forbidding an '
                               'accelerator trait is not supported')
            else:
                raise _invalid('%s/%s' % (FIELD, key),
                               'expected "required", not %r' % (value,))
        elif key == BITSTREAM_ID:
            bitstreams[key] = _text(key, value)
        elif key.startswith(BITSTREAM_PREFIX):
            bitstreams[key] = _text(key, key[len(BITSTREAM_PREFIX):])
        elif key == FUNCTION_ID:
            if not isinstance(value, str) or not uuidutils.is_uuid_like(
                    value):
                raise _invalid('%s/%s' % (FIELD, key),
                               '%r is not a UUID' % (value,))
            function_id = str(uuid.UUID(value))
        elif key == FUNCTION_NAME:
            function_name = _text(key, value)

    if len(counts) > 1:
        raise _invalid(FIELD, 'more than one accelerator resource class '
                       'requested: %s' % ', '.join(
                           RESOURCES_PREFIX + rc for rc in sorted(counts)))
    if len(set(bitstreams.values())) > 1:
        raise _invalid(FIELD, 'more than one bitstream requested: %s'
                       % ', '.join('%s=%s' % item
                                   for item in sorted(bitstreams.items())))

    function_uuid = function_id
    function_keys = []
    if function_id:
        function_keys.append(FUNCTION_ID)
    for trait in sorted(required):
        suffix = function_uuid_of_trait(trait)
        if suffix is None:
            continue
        function_keys.append(TRAIT_PREFIX + trait)
        if function_uuid is None:
            function_uuid = _suffix_to_uuid(suffix)
        elif not same_uuid(suffix, function_uuid):
            raise _invalid(FIELD, 'conflicting functions requested: %s'
                           % ', '.join(function_keys))
    if function_name:
        function_keys.append(FUNCTION_NAME)

    if bitstreams and function_keys:
        raise _invalid(FIELD, 'a bitstream and a function cannot both be '
                       'requested: %s and %s'
                       % (', '.join(sorted(bitstreams)),
                          ', '.join(function_keys)))

    bitstream_id = next(iter(bitstreams.values()), None)
    if counts:
        resource_class, count = next(iter(counts.items()))
    else:
        resource_class = None
        count = 1 if (required or bitstream_id or function_keys) else 0
    return Request(count=count, resource_class=resource_class,
                   traits=sorted(required), bitstream_id=bitstream_id,
                   function_uuid=function_uuid, function_name=function_name)
