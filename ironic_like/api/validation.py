"""JSON schema validation of request bodies, with Ironic's messages.

Every error names the field at fault ("Invalid input for field/attribute
X. Value: ... . <reason>"), which is what clients show to users.
"""

import json
import re

import jsonschema
from jsonschema import exceptions as js_exc
from oslo_utils import uuidutils

from ironic_like.api import errors
from ironic_like.common import exception

_MAC_RE = re.compile(r'^[0-9a-f]{2}([-:])[0-9a-f]{2}(\1[0-9a-f]{2}){4}$')
# RFC 3986 unreserved characters, as Ironic's logical names.
_NAME_RE = re.compile(r'^[A-Za-z0-9\-._~]+$')
_TRAIT_RE = re.compile(r'^[A-Z0-9_]+$')
_DATAPATH_ID_RE = re.compile(r'^(0x)?[0-9a-fA-F]{16}$')

FORMATS = jsonschema.FormatChecker(formats=())


def is_mac(value):
    return isinstance(value, str) and bool(_MAC_RE.match(value.lower()))


def normalize_mac(value, field='address'):
    """Lower case with colons; InvalidMAC (400) if not a MAC."""
    if not is_mac(value):
        raise exception.InvalidMAC(mac=value, field=field)
    return value.lower().replace('-', ':')


def is_logical_name(value):
    # A name that looks like a UUID would be shadowed by UUID look-ups.
    return (isinstance(value, str) and bool(_NAME_RE.match(value))
            and not uuidutils.is_uuid_like(value))


def is_trait(value):
    return (isinstance(value, str) and 0 < len(value) <= 255
            and bool(_TRAIT_RE.match(value)))


@FORMATS.checks('uuid')
def _check_uuid(value):
    return not isinstance(value, str) or uuidutils.is_uuid_like(value)


@FORMATS.checks('logical_name')
def _check_name(value):
    return not isinstance(value, str) or is_logical_name(value)


@FORMATS.checks('mac_address')
def _check_mac(value):
    return not isinstance(value, str) or is_mac(value)


@FORMATS.checks('trait')
def _check_trait(value):
    return not isinstance(value, str) or is_trait(value)


@FORMATS.checks('switch_id')
def _check_switch_id(value):
    return (not isinstance(value, str) or is_mac(value)
            or bool(_DATAPATH_ID_RE.match(value)))


def make_validator(schema):
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=FORMATS)


def _short(value):
    text = json.dumps(value, default=str)
    return text if len(text) <= 100 else text[:97] + '...'


def _describe(error, instance):
    """(field, message) of a jsonschema error."""
    path = list(error.absolute_path)
    if error.validator == 'required' and not path:
        missing = [k for k in error.validator_value
                   if not isinstance(instance, dict) or k not in instance]
        field = missing[0] if missing else None
        return field, (errors.FIELD_PREFIX % field
                       + 'Mandatory field missing.')
    if error.validator == 'additionalProperties' and \
            isinstance(error.instance, dict):
        known = error.schema.get('properties', {})
        extra = sorted(k for k in error.instance if k not in known)
        if not path and extra:
            return extra[0], (errors.FIELD_PREFIX % extra[0]
                              + 'Unknown attribute.')
    if not path:
        return None, 'Invalid request body: %s' % error.message
    field = str(path[0])
    return field, (errors.FIELD_PREFIX % field + 'Value: %s. %s'
                   % (_short(error.instance), error.message))


def validate(validator, instance):
    """Raise InvalidParameterValue (400) naming the first bad field."""
    error = js_exc.best_match(validator.iter_errors(instance))
    if error is None:
        return
    field, message = _describe(error, instance)
    raise exception.InvalidParameterValue(err=message, field=field)
