"""JSON schema validation of request bodies, with Ironic's messages.

Every error names the field at fault ("Invalid input for field/attribute
X. Value: ... . <reason>"), which is what clients show to users.
"""

import json
import re

import jsonschema
from jsonschema import exceptions as js_exc
from jsonschema import validators as js_validators
from oslo_utils import uuidutils

from ironic_like.api import errors
from ironic_like.common import exception
from ironic_like.common import masking
from ironic_like.conf import CONF

_MAC_RE = re.compile(r'^[0-9a-f]{2}([-:])[0-9a-f]{2}(\1[0-9a-f]{2}){4}$')
# RFC 3986 unreserved characters, as Ironic's logical names.
_NAME_RE = re.compile(r'^[A-Za-z0-9\-._~]+$')
_TRAIT_RE = re.compile(r'^[A-Z0-9_]+$')
_DATAPATH_ID_RE = re.compile(r'^(0x)?[0-9a-fA-F]{16}$')

FORMATS = jsonschema.FormatChecker(formats=())

# Our keyword: {"maxJsonSize": true} bounds the value's size, serialized
# as JSON the way the database stores it, by [api]max_json_field_size
# (read at validation time, not when the schema is built).
MAX_JSON_SIZE = 'maxJsonSize'


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


def json_size(value):
    """Bytes of ``value`` serialized as the database stores it."""
    return len(json.dumps(value).encode('utf-8'))


def _max_json_size(validator, enabled, instance, schema):
    if not enabled or instance is None:
        return
    limit = CONF.api.max_json_field_size
    try:
        size = json_size(instance)
    except (RecursionError, ValueError):
        yield js_exc.ValidationError('The value is nested too deeply.')
        return
    if size > limit:
        yield js_exc.ValidationError(
            'The value takes %d bytes serialized as JSON, more than the '
            '%d allowed ([api]max_json_field_size).' % (size, limit))


_Validator = js_validators.extend(jsonschema.Draft202012Validator,
                                  {MAX_JSON_SIZE: _max_json_size})


def make_validator(schema):
    _Validator.check_schema(schema)
    return _Validator(schema, format_checker=FORMATS)


def _cut(text, length=100):
    return text if len(text) <= length else text[:length - 3] + '...'


def _short(value):
    """The value as shown in an error: secrets masked (the message is also
    logged), then cut to 100 characters."""
    try:
        text = json.dumps(masking.mask(value), default=str)
    except (RecursionError, ValueError):
        text = '...'
    return _cut(text)


def _reason(error):
    """jsonschema's message without the value it quotes (which may be a
    megabyte long, or a secret: it is shown apart, cut and masked)."""
    message = error.message
    try:
        quoted = repr(error.instance)
    except RecursionError:
        quoted = None
    if quoted and quoted in message:
        message = message.replace(quoted, 'The value', 1)
    return _cut(masking.mask_text(message), 300)


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
        return None, 'Invalid request body: %s' % _reason(error)
    field = str(path[0])
    reason = _reason(error)
    if len(path) > 1:
        # Inside the field (an item of a list, a key of an object): say
        # where, or the message would not name the attribute at fault
        # (clean_steps[0].execute_on_child_nodes).
        reason = '%s: %s' % (_location(path), reason)
    return field, (errors.FIELD_PREFIX % field + 'Value: %s. %s'
                   % (_short(error.instance), reason))


def _location(path):
    text = str(path[0])
    for part in list(path)[1:]:
        text += '[%d]' % part if isinstance(part, int) else '.%s' % part
    return _cut(text)


# -- nesting ---------------------------------------------------------------

# The deepest nesting of objects and arrays a request body may have: far
# more than any Ironic client sends, and little enough for the recursive
# code a body goes through (copies, JSON patches, RPC serialization).
MAX_BODY_DEPTH = 32


def too_deep(value, limit=MAX_BODY_DEPTH):
    """Whether ``value`` nests containers deeper than ``limit`` (without
    recursion: the point is not to run out of stack)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children
                     if isinstance(child, (dict, list)))
    return False


def refuse_deep_body():
    raise exception.InvalidParameterValue(
        err='The request body nests objects and arrays more than %d deep.'
            % MAX_BODY_DEPTH)


def check_depth(body):
    """InvalidParameterValue (400) if ``body`` is nested too deeply."""
    if too_deep(body):
        refuse_deep_body()


def check_raw_depth(raw):
    """check_depth() of a raw JSON body, cheaply: only a body with more
    brackets than the limit allows is parsed. Malformed JSON is left to
    the controller (load_body) to report."""
    if not raw or raw.count(b'[') + raw.count(b'{') <= MAX_BODY_DEPTH:
        return
    try:
        body = json.loads(raw)
    except RecursionError:
        refuse_deep_body()
    except (ValueError, UnicodeDecodeError):
        return
    check_depth(body)


def validate(validator, instance):
    """Raise InvalidParameterValue (400) naming the first bad field."""
    error = js_exc.best_match(validator.iter_errors(instance))
    if error is None:
        return
    field, message = _describe(error, instance)
    raise exception.InvalidParameterValue(err=message, field=field)
