"""The OpenAPI 3.1 description of the API, served at GET /openapi.json.

Built from ROUTES (api/openapi_routes.py), the one list of what the
API serves (a unit test requests every entry against the application
and walks the controllers so that the list stays complete). Request
bodies are the very schema objects the controllers validate with
(api/schemas), converted for OpenAPI tools: our custom formats become an
``x-ironic-format`` extension plus an equivalent ``pattern`` where one
exists, and the ``maxJsonSize`` keyword becomes ``x-max-json-size``. The
JSON Schema dialect of OpenAPI 3.1 is 2020-12, the draft the validators
use, so nothing else changes.
"""

import copy

from ironic_like.api.controllers.v1.accelerators import common as \
    accelerators_common
from ironic_like.api.controllers.v1.boot import components as boot_components
from ironic_like.api.middleware import version as version_mw
from ironic_like.api import openapi_routes
from ironic_like.api.schemas import boot as boot_schema
from ironic_like.api.schemas import common as common_schema
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.common.boot import component_status

OPENAPI_VERSION = '3.1.0'
PATH = openapi_routes.PATH
# What the API serves (api/openapi_routes.py).
ROUTES = openapi_routes.ROUTES
NODE = openapi_routes.NODE

# Our custom formats (validation.FORMATS): an extension for tools, and a
# pattern accepting the same strings where a regular expression can.
FORMAT_PATTERNS = {
    'logical_name': validation._NAME_RE.pattern,
    'mac_address': r'^([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}$',
    'trait': validation._TRAIT_RE.pattern,
    'switch_id': r'^(([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}|(0x)?'
                 r'[0-9a-fA-F]{16})$',
}
STANDARD_FORMATS = frozenset(['uuid'])


# -- schema conversion ------------------------------------------------------

_SCHEMA_MAPS = ('properties', 'patternProperties', '$defs')
_SCHEMA_VALUES = ('items', 'additionalProperties', 'propertyNames', 'not',
                  'contains', 'if', 'then', 'else')
_SCHEMA_LISTS = ('anyOf', 'oneOf', 'allOf', 'prefixItems')


def convert(schema):
    """A deep copy of a validation schema that OpenAPI tools accept."""
    if not isinstance(schema, dict):
        return copy.deepcopy(schema)
    result = {}
    for key, value in schema.items():
        if key == validation.MAX_JSON_SIZE:
            result['x-max-json-size'] = value
        elif key == 'format' and value not in STANDARD_FORMATS:
            result['x-ironic-format'] = value
            if value in FORMAT_PATTERNS and 'pattern' not in schema:
                result['pattern'] = FORMAT_PATTERNS[value]
        elif key in _SCHEMA_MAPS:
            result[key] = {name: convert(sub) for name, sub in value.items()}
        elif key in _SCHEMA_VALUES:
            result[key] = convert(value)
        elif key in _SCHEMA_LISTS:
            result[key] = [convert(sub) for sub in value]
        else:
            result[key] = copy.deepcopy(value)
    return result


# -- the document -----------------------------------------------------------

_ERROR_CODES = {
    400: 'Invalid request (the message names the field at fault)',
    401: 'Authentication needed',
    403: 'Not allowed by policy',
    404: 'Not found (or not visible to the caller)',
    406: 'The feature needs a newer (or a valid) API version',
    409: 'Conflict (the node is locked, or in the wrong state)',
    413: 'Request body too large',
    503: 'No conductor could take the request; retry later',
}
_PUBLIC_ERROR_CODES = (400, 404, 406, 409, 413, 503)
_LOOKUP_PATHS = ('/v1/lookup',
                 '/v1/drivers/{driver_name}/vendor_passthru/lookup',
                 '/v1/continue_inspection')
# Public routes a token authenticates: a token not issued is a 403.
_TOKEN_PATHS = (openapi_routes.BOOT_COMPONENT + '/report',)
# Public routes answering 401 to a missing or wrong token.
_UNAUTHORIZED_PATHS = (openapi_routes.HOSTOS_HEARTBEAT,)
_SUCCESS = {200: 'OK', 201: 'Created', 202: 'Accepted',
            204: 'No content'}

# Query parameters whose type is not a plain string.
_QUERY_SCHEMAS = {
    'limit': {'type': 'integer', 'minimum': 1},
    'sort_dir': {'type': 'string', 'enum': ['asc', 'desc']},
    'detail': {'type': 'boolean'},
    'maintenance': {'type': 'boolean'},
    'associated': {'type': 'boolean'},
    'reset_interfaces': {'type': 'boolean'},
    'marker': {'type': 'string'},
    'instance_uuid': {'type': 'string', 'format': 'uuid'},
    'node_uuid': {'type': 'string', 'format': 'uuid'},
    'type': {'type': 'string', 'enum': ['classic', 'dynamic']},
    'fields': {'type': 'string', 'description':
               'Comma-separated names of the fields to return'},
    'addresses': {'type': 'string', 'description':
                  'Comma-separated MAC addresses'},
    'reason': {'type': 'string',
               'maxLength': common_schema.TEXT_OR_NULL['maxLength']},
    # Boot sessions.
    'min_age': boot_schema.AGE,
    'max_age': boot_schema.AGE,
    'enabled': {'type': 'boolean'},
    'skip_bad_ids': {'type': 'boolean'},
    'page_size': {'type': 'integer', 'minimum': 0,
                  'maximum': boot_components.MAX_PAGE_SIZE},
    'phase': {'type': 'string', 'enum': list(component_status.PHASES)},
    'ids': {'type': 'string', 'description':
            'Comma-separated component ids (node names or UUIDs)'},
    'status': {'type': 'string', 'description':
               'A session status; for components, comma-separated '
               'statuses; for host OS configurations, one of theirs'},
    # Host OS configuration.
    'name': {'type': 'string', 'description': 'A module name'},
    'state': {'type': 'string', 'description':
              'A module state; for the nodes of a configuration, the '
              'state of the configuration on the node'},
    'node': {'type': 'string', 'description': 'A node name or UUID'},
    'label_selector': {'type': 'string', 'minLength': 1, 'description':
                       'A Kubernetes label selector over node labels: '
                       'env=prod,tier in (web,db),!legacy,gpu'},
    # Accelerators.
    'device': {'type': 'string', 'format': 'uuid'},
    'vendor': {'type': 'string', 'minLength': 1,
               'maxLength': accelerators_common.MAX_VENDOR_LENGTH,
               'description': 'A PCI vendor id (8086) or vendor name'},
    'in_use': {'type': 'string', 'enum': ['true', 'false']},
}
# Query parameters whose schema depends on the route (the same name means
# something else elsewhere).
_ACCELERATOR_TYPE = {
    'type': 'string', 'pattern': '^%s$' % accelerators_common.TYPE_PATTERN,
    'description': 'An accelerator type: FPGA, GPU, ...'}
_ROUTE_QUERY_SCHEMAS = {
    (openapi_routes.ACCELERATORS + '/devices', 'type'): _ACCELERATOR_TYPE,
    (openapi_routes.ACCELERATORS + '/deployables', 'type'): _ACCELERATOR_TYPE,
    (openapi_routes.ACCELERATORS + '/devices', 'status'): {
        'type': 'string', 'enum': list(accelerators_common.DEVICE_STATUSES)},
}


def _component_name(route):
    """The components/schemas name of a route's body."""
    words = [w for w in route.path.split('/')
             if w and w != 'v1' and not w.startswith('{')]
    words = [w.replace('_', ' ').title().replace(' ', '') for w in words]
    return route.method.title() + ''.join(words) + 'Body'


def _parameters(route):
    params = [{'$ref': '#/components/parameters/ApiVersion'}]
    for name in route.path.split('/'):
        if name.startswith('{'):
            params.append({'name': name[1:-1], 'in': 'path',
                           'required': True,
                           'schema': {'type': 'string', 'minLength': 1}})
    for name in route.query:
        schema = _ROUTE_QUERY_SCHEMAS.get(
            (route.path, name), _QUERY_SCHEMAS.get(name, {'type': 'string'}))
        schema = convert(schema)
        params.append({'name': name, 'in': 'query', 'required': False,
                       'schema': schema})
    return params


def _responses(route):
    status = route.status
    success = {'description': _SUCCESS[status]}
    if status in (200, 201):
        success['content'] = {'application/json': {
            'schema': {'type': route.response}}}
    responses = {str(status): success}
    codes = _PUBLIC_ERROR_CODES if route.public else sorted(_ERROR_CODES)
    if route.path in _LOOKUP_PATHS:
        codes = tuple(codes) + (429,)
    if route.path in _TOKEN_PATHS:
        codes = sorted(tuple(codes) + (403,))
    if route.path in _UNAUTHORIZED_PATHS:
        codes = sorted(tuple(codes) + (401,))
    for code in codes:
        responses[str(code)] = {'$ref': '#/components/responses/Error'}
    return responses


def _operation(route, schemas):
    op = {
        'operationId': '%s %s' % (route.method, route.path),
        'summary': route.summary,
        'parameters': _parameters(route),
        'responses': _responses(route),
    }
    if route.public:
        op['security'] = []
    if route.since is not None:
        op['x-openstack-min-version'] = versions.to_string(route.since)
    if route.body is not None:
        name = _component_name(route)
        body = convert(route.body)
        if name in schemas and schemas[name] != body:
            # The same words as another route's (PATCH of a collection and
            # of one of its items): the item's gets "Item".
            name = name[:-len('Body')] + 'ItemBody'
        schemas[name] = body
        op['requestBody'] = {
            'required': route.body_required,
            'content': {'application/json': {
                'schema': {'$ref': '#/components/schemas/%s' % name}}},
        }
    if route.patch_fields is not None:
        name = _component_name(route).replace('Body', 'Values')
        schemas[name] = {
            'description': 'Each value a JSON patch sets is validated '
                           'against its field here.',
            'type': 'object',
            'properties': {
                field: convert(body['properties'][field])
                for field, body in sorted(route.patch_fields.items())}}
        op['x-ironic-patch-values'] = {
            '$ref': '#/components/schemas/%s' % name}
    return op


_ERROR_SCHEMA = {
    'type': 'object',
    'description': "Ironic's error: error_message is the JSON text of "
                   '{"faultstring", "faultcode", "debuginfo"}.',
    'properties': {'error_message': {'type': 'string'}},
    'required': ['error_message'],
}


_VERSION_HEADER = {
    'name': version_mw.LEGACY_HEADER,
    'in': 'header',
    'required': False,
    'description': 'The API microversion (%s to %s, or latest).' % (
        versions.MIN_VERSION_STRING, versions.MAX_VERSION_STRING),
    'schema': {'type': 'string', 'pattern': r'^(latest|[0-9]+\.[0-9]+)$'},
}


def build(server_url=None):
    """The OpenAPI document (a new dict) of ROUTES."""
    schemas = {'Error': _ERROR_SCHEMA}
    paths = {}
    for route in ROUTES:
        paths.setdefault(route.path, {})[route.method.lower()] = \
            _operation(route, schemas)
    doc = {
        'openapi': OPENAPI_VERSION,
        'info': {
            'title': 'OpenStack Ironic API (ironic_like)',
            'version': versions.MAX_VERSION_STRING,
            'description': (
                'An Ironic-compatible bare-metal API. Microversions %s to '
                '%s: send the %s header ("latest" or "1.N"); without it '
                'the oldest version applies.' % (
                    versions.MIN_VERSION_STRING,
                    versions.MAX_VERSION_STRING,
                    version_mw.LEGACY_HEADER)),
        },
        'paths': paths,
        'components': {
            'schemas': copy.deepcopy(schemas),
            'parameters': {'ApiVersion': copy.deepcopy(_VERSION_HEADER)},
            'responses': {'Error': {
                'description': 'An error',
                'content': {'application/json': {
                    'schema': {'$ref': '#/components/schemas/Error'}}},
            }},
            'securitySchemes': {
                'keystone': {'type': 'apiKey', 'in': 'header',
                             'name': 'X-Auth-Token'},
                'basic': {'type': 'http', 'scheme': 'basic'},
            },
        },
        'security': [{'keystone': []}, {'basic': []}],
    }
    if server_url is not None:
        doc['servers'] = [{'url': server_url}]
    return doc
