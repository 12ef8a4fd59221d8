"""Schemas of host OS configuration request bodies (/v1/hostos,
doc/hostos.md).

Every string, array and object is bounded. What a schema cannot say is
checked by the controllers, which name the field as a JSON pointer
(``configs/0/module_version``): names (common.hostos.items.is_valid_name,
without the trailing newline ``$`` lets through), SemVer versions, the
machine selector (common.hostos.selector.validate), values against the
module's own schema, and that the module versions exist and are usable.
"""

from ironic_like.api.schemas import common
from ironic_like.common.hostos import items

# A module or configuration name (items.NAME_PATTERN: parts of item names
# and of the module directory on the host).
MAX_NAME = 63
NAME = {'type': 'string', 'minLength': 1, 'maxLength': MAX_NAME,
        'pattern': items.NAME_PATTERN.pattern}
# The stored version is at most 64 characters (the column's size).
VERSION = {'type': 'string', 'minLength': 1, 'maxLength': 64}
URL = {'type': 'string', 'minLength': 1, 'maxLength': 2048,
       'pattern': r'^https?://[^\s]+$'}
SHA256 = {'type': 'string', 'minLength': 64, 'maxLength': 64,
          'pattern': r'^[0-9a-fA-F]{64}$'}
DESCRIPTION = common.TEXT_OR_NULL
# The largest integer the database columns hold.
MAX_INT = 2 ** 31 - 1

MODULE_STATES = ('verifying', 'available', 'deprecated', 'error')
CONFIGURATION_STATUSES = ('active', 'paused', 'deleting', 'delete_failed')
# The state of an item or of a configuration on a node, as shown.
NODE_STATES = ('waiting', 'pending', 'running', 'ok', 'failed', 'removing')

MAX_CONFIGS = 100
MAX_ORDER = 1024
MAX_SECRETS = 100
MAX_SECRET_KEY = 255
MAX_SECRET_VALUE = 16384
# Reports and held items of one heartbeat.
MAX_REPORTS = 1000
MAX_HELD = 10000
MAX_OUTPUT = 65536
MAX_REAPPLY_NODES = 10000


def _object(properties, required=(), **extra):
    schema = {'type': 'object', 'properties': properties,
              'additionalProperties': False}
    if required:
        schema['required'] = sorted(required)
    schema.update(extra)
    return schema


# -- modules ----------------------------------------------------------------

# POST /v1/hostos/modules.
MODULE_BODY = _object({
    'name': NAME,
    'version': VERSION,
    'url': URL,
    'sha256sum': SHA256,
    'description': DESCRIPTION,
}, required=['name', 'version', 'url', 'sha256sum'])

# What a JSON patch of a module may set: its description only.
MODULE_PATCH_FIELDS = ('description',)
MODULE_FIELD_BODIES = {
    'description': _object({'description': DESCRIPTION}),
}


# -- configurations ---------------------------------------------------------

ORDER = {'type': ['integer', 'null'], 'minimum': 1, 'maximum': MAX_ORDER}
# Strings only, never quoted in an error (the controller checks them
# before this schema, see configurations._check_secrets).
SECRET_VALUES = {
    'type': ['object', 'null'],
    'maxProperties': MAX_SECRETS,
    'propertyNames': {'minLength': 1, 'maxLength': MAX_SECRET_KEY},
    'additionalProperties': {'type': 'string',
                             'maxLength': MAX_SECRET_VALUE},
}

CONFIG = _object({
    'module': NAME,
    'module_version': VERSION,
    # Checked against the module's values schema afterwards.
    'values': {'type': ['object', 'null'], 'maxJsonSize': True},
    'secret_values': SECRET_VALUES,
    'order': ORDER,
    'description': DESCRIPTION,
    'phase': {'enum': [items.PHASE]},
}, required=['module', 'module_version'])

CONFIGURATION_FIELDS = {
    'name': NAME,
    # Checked by selector.validate, which names the offending part.
    'machine_selector': {'type': ['object', 'null'], 'maxJsonSize': True},
    'configs': {'type': 'array', 'minItems': 1, 'maxItems': MAX_CONFIGS,
                'items': CONFIG},
    'order': ORDER,
    'max_concurrent': {'type': ['integer', 'null'], 'minimum': 1,
                       'maximum': MAX_INT},
    'failure_threshold': {'type': ['integer', 'null'], 'minimum': 1,
                          'maximum': MAX_INT},
}
# What a JSON patch of a configuration may change.
CONFIGURATION_PATCH_FIELDS = ('machine_selector', 'configs', 'order',
                              'max_concurrent', 'failure_threshold')

# POST /v1/hostos/configurations, and the result of a PATCH.
CONFIGURATION_BODY = _object(CONFIGURATION_FIELDS,
                             required=['name', 'configs'])

# POST /v1/hostos/configurations/{name}/reapply (optional body).
REAPPLY_BODY = _object({
    'nodes': {'type': ['array', 'null'], 'maxItems': MAX_REAPPLY_NODES,
              'items': {'type': 'string', 'minLength': 1,
                        'maxLength': 255}},
})


# -- host agents ------------------------------------------------------------

_TIME = {'type': ['string', 'null'], 'maxLength': 64}

REPORT = _object({
    'name': {'type': 'string', 'minLength': 1, 'maxLength': 255},
    'hash': {'type': ['string', 'null'], 'maxLength': 64},
    'state': {'enum': ['running', 'ok', 'failed']},
    'exit_code': {'type': ['integer', 'null'], 'minimum': -MAX_INT - 1,
                  'maximum': MAX_INT},
    'attempt': {'type': ['integer', 'null'], 'minimum': 0,
                'maximum': MAX_INT},
    'started_at': _TIME,
    'finished_at': _TIME,
    'output': {'type': ['string', 'null'], 'maxLength': MAX_OUTPUT},
}, required=['name', 'state'])

# POST /v1/hostos/agents/heartbeat (public: the host agent token
# authenticates it).
HEARTBEAT_BODY = _object({
    'node': {'type': 'string', 'format': 'uuid', 'maxLength': 36},
    'token': {'type': ['string', 'null'], 'maxLength': 255},
    'agent_version': {'type': ['string', 'null'], 'maxLength': 32},
    'held': {'type': ['array', 'null'], 'maxItems': MAX_HELD,
             'items': {'type': 'string', 'maxLength': 255}},
    'reports': {'type': ['array', 'null'], 'maxItems': MAX_REPORTS,
                'items': REPORT},
}, required=['node'])
