"""Config values checked against a module's JSON schema (draft 7).

MCC reports a bad config as "schema validation failed"; here the 400 names
the JSON pointer (RFC 6901) of the offending field relative to the request
body, e.g. ``configs/0/values/options/vm.swappiness``, so that a client can
point at it.

Schemas come from module archives, i.e. from whoever published the module:
``$ref`` is never resolved over the network (the registry below retrieves
nothing), so validation stays pure and cannot be turned into requests.
"""

import jsonschema
from jsonschema import exceptions as js_exceptions
import referencing
from referencing import exceptions as ref_exceptions

from ironic_like.common import exception

# A long instance quoted in a message ("{...} is not valid under any of the
# given schemas") is cut: the pointer already says where.
_MAX_MESSAGE = 400


def _no_retrieve(uri):
    raise ref_exceptions.NoSuchResource(ref=uri)


_REGISTRY = referencing.Registry(retrieve=_no_retrieve)


def pointer(prefix, path):
    """``prefix`` followed by the escaped tokens of ``path`` (RFC 6901)."""
    tokens = [str(token).replace('~', '~0').replace('/', '~1')
              for token in path]
    return '/'.join([prefix] + tokens) if prefix else '/'.join(tokens)


def _location(path):
    return '/' + '/'.join(str(token) for token in path) if path else 'root'


def check_schema(schema):
    """None if ``schema`` is a valid draft 7 JSON schema, else why not."""
    if not isinstance(schema, (dict, bool)):
        return 'the values schema must be a JSON object'
    try:
        jsonschema.Draft7Validator.check_schema(schema)
    except js_exceptions.SchemaError as exc:
        return 'invalid JSON schema at %s: %s' % (
            _location(exc.absolute_path), _cut(exc.message))
    return None


def _cut(message):
    if len(message) > _MAX_MESSAGE:
        return message[:_MAX_MESSAGE] + '...'
    return message


def validate(schema, values, field_prefix):
    """Raise InvalidParameterValue unless ``values`` fits ``schema``.

    ``values`` must be an object in any case; ``schema`` None (a module
    without valuesJsonSchema) accepts any object. Of several errors the
    most relevant one (jsonschema's best_match) is reported; its ``field``
    is ``field_prefix`` plus the pointer of the offending value. Messages
    quote the offending value: do not validate secrets with this.
    """
    if not isinstance(values, dict):
        raise exception.InvalidParameterValue(
            err='%s: values must be an object' % field_prefix,
            field=field_prefix)
    if schema is None:
        return
    validator = jsonschema.Draft7Validator(
        schema, registry=_REGISTRY,
        format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    try:
        error = js_exceptions.best_match(validator.iter_errors(values))
    except ref_exceptions.Unresolvable as exc:
        raise exception.InvalidParameterValue(
            err='%s: the module values schema has a reference that cannot '
                'be resolved (%s); only references inside the schema are '
                'supported' % (field_prefix, exc),
            field=field_prefix)
    if error is None:
        return
    field = pointer(field_prefix, error.absolute_path)
    raise exception.InvalidParameterValue(
        err='%s: %s (module values schema)' % (field, _cut(error.message)),
        field=field)
