"""Schemas of boot-session request bodies (/v1/boot, BOS v2's shapes).

Bounds are BOS 2.50's (api/openapi.yaml.in) with our differences: a
component is a node, so its id is a node name (up to 255 characters) or
UUID; a boot set may name ``kernel`` and ``initrd`` instead of a boot
manifest; a session may say ``takeover``; ``retry_policy`` also accepts
-1 (retry forever, as BOS's operators read it). The rules a schema cannot
say (a boot set's name equals its key, path goes with type, a hardware
specifier is not empty...) are templates.check_template's, which names
the field too.
"""

from ironic_like.common.boot import component_status as cs
from ironic_like.common.boot import options as boot_options
from ironic_like.common.boot import templates

MAX_NAME = 127
# A template, session or boot set name.
NAME = {'type': 'string', 'minLength': 1, 'maxLength': MAX_NAME,
        'pattern': str(templates.NAME_PATTERN)}
# The same, or "" for none (a component's session).
NAME_OR_EMPTY = {'anyOf': [{'type': 'string', 'maxLength': 0}, NAME]}
# A component: a node's name or UUID.
COMPONENT_ID = {'type': 'string', 'minLength': 1, 'maxLength': 255}
# Most components one request may name (BOS's V2ComponentIdList).
MAX_IDS = 32768
MAX_LIMIT = 524288
MAX_RETRY_POLICY = 1048576
MAX_ERROR = 65536
MAX_TOKEN = 65535
# Our referral tokens are 32 hexadecimal digits; the column holds 64.
MAX_REPORTED_TOKEN = 255

OPERATIONS = ('boot', 'reboot', 'shutdown')
SESSION_STATUSES = ('pending', 'running', 'complete')
# BOS's AgeString (min_age, max_age): minutes, hours, days or weeks.
AGE = {'type': 'string', 'minLength': 1, 'maxLength': 8,
       'pattern': r'^(0|0[mMhHdDwW]|[1-9][0-9]*[mMhHdDwW])$'}


def _strings(most, longest):
    return {'type': 'array', 'maxItems': most,
            'items': {'type': 'string', 'minLength': 1,
                      'maxLength': longest}}


def _object(properties, required=(), **extra):
    schema = {'type': 'object', 'properties': properties,
              'additionalProperties': False}
    if required:
        schema['required'] = sorted(required)
    schema.update(extra)
    return schema


# -- session templates ------------------------------------------------------

CFS = _object({'configuration': {'type': 'string',
                                 'maxLength': templates.MAX_CONFIGURATION}})
_URL = {'type': 'string', 'minLength': 1, 'maxLength': 4095}

BOOT_SET = _object({
    'name': NAME,
    # A boot manifest (type "http": a JSON document at path)...
    'path': _URL,
    'type': {'type': 'string', 'minLength': 1, 'maxLength': 127},
    'etag': {'type': 'string', 'maxLength': 65536},
    # ... or, ours, the kernel and initrd themselves.
    'kernel': _URL,
    'initrd': _URL,
    'kernel_parameters': {'type': 'string',
                          'maxLength': templates.MAX_KERNEL_PARAMETERS},
    'node_list': _strings(65535, 255),
    'node_groups': _strings(4095, 127),
    'node_roles_groups': _strings(1023, 127),
    'arch': {'enum': list(templates.ARCHES)},
    'cfs': CFS,
    'rootfs_provider': {'type': 'string', 'minLength': 1, 'maxLength': 511},
    'rootfs_provider_passthrough': {'type': 'string', 'maxLength': 4096},
})

BOOT_SETS = {
    'type': 'object',
    'minProperties': 1,
    'maxProperties': templates.MAX_BOOT_SETS,
    'propertyNames': {'minLength': 1, 'maxLength': MAX_NAME,
                      'pattern': str(templates.NAME_PATTERN)},
    'additionalProperties': BOOT_SET,
}

# "" is taken as no description, so that a template read back (whose
# missing description reads "") can be written again as it is.
DESCRIPTION = {'type': 'string', 'maxLength': 1023}

LINK = _object({'href': {'type': 'string', 'maxLength': 4096},
                'rel': {'type': 'string', 'maxLength': 255}})

TEMPLATE_FIELDS = {
    # Read-only (name comes from the path, tenant is none, links are
    # ours): accepted, so that a template read can be written back.
    'name': NAME,
    'tenant': {'type': ['string', 'null'], 'maxLength': MAX_NAME},
    'links': {'type': 'array', 'items': LINK, 'maxItems': 16},
    'description': DESCRIPTION,
    'enable_cfs': {'type': 'boolean'},
    'cfs': CFS,
    'boot_sets': BOOT_SETS,
}
TEMPLATE_READ_ONLY = frozenset(['name', 'tenant', 'links'])
TEMPLATE_PATCH_FIELDS = frozenset(['description', 'enable_cfs', 'cfs',
                                   'boot_sets'])

# PUT /v1/boot/sessiontemplates/{name}.
TEMPLATE_BODY = _object(TEMPLATE_FIELDS, required=['boot_sets'])
# PATCH /v1/boot/sessiontemplates/{name}: merged into the template.
TEMPLATE_PATCH_BODY = _object(
    {name: TEMPLATE_FIELDS[name] for name in sorted(TEMPLATE_PATCH_FIELDS)})


# -- sessions ---------------------------------------------------------------

# POST /v1/boot/sessions and /v1/boot/sessions/preview.
SESSION_BODY = _object({
    'name': NAME,
    'operation': {'enum': list(OPERATIONS)},
    'template_name': NAME,
    'limit': {'type': ['string', 'null'], 'maxLength': MAX_LIMIT},
    'stage': {'type': 'boolean'},
    'include_disabled': {'type': 'boolean'},
    'takeover': {'type': 'boolean'},
}, required=['operation', 'template_name'])


# -- components -------------------------------------------------------------

BOOT_ARTIFACTS = _object({
    'kernel': {'type': 'string', 'maxLength': 4095},
    'kernel_parameters': {'type': 'string', 'maxLength': 4096},
    'initrd': {'type': 'string', 'maxLength': 4095},
})
# Written by the server (a value sent is replaced).
LAST_UPDATED = {'type': ['string', 'null'], 'maxLength': 127}
TOKEN = {'type': 'string', 'maxLength': MAX_TOKEN}
CONFIGURATION = {'type': 'string', 'maxLength': templates.MAX_CONFIGURATION}
_COUNT = {'type': 'integer', 'minimum': 0, 'maximum': MAX_RETRY_POLICY}

COMPONENT_FIELDS = {
    'id': COMPONENT_ID,
    'actual_state': _object({'boot_artifacts': BOOT_ARTIFACTS,
                             'bss_token': TOKEN,
                             'last_updated': LAST_UPDATED}),
    'desired_state': _object({'boot_artifacts': BOOT_ARTIFACTS,
                              'configuration': CONFIGURATION,
                              'bss_token': TOKEN,
                              'last_updated': LAST_UPDATED}),
    'staged_state': _object({'boot_artifacts': BOOT_ARTIFACTS,
                             'configuration': CONFIGURATION,
                             'session': NAME_OR_EMPTY,
                             'last_updated': LAST_UPDATED}),
    'last_action': _object({'action': {'enum': list(cs.ACTIONS)},
                            'failed': {'type': 'boolean'},
                            'last_updated': LAST_UPDATED}),
    'event_stats': _object({'power_on_attempts': _COUNT,
                            'power_off_graceful_attempts': _COUNT,
                            'power_off_forceful_attempts': _COUNT}),
    'status': _object({
        'phase': {'enum': list(cs.PHASES)},
        # Read-only (computed): accepted and ignored.
        'status': {'type': 'string', 'maxLength': 255},
        'status_override': {'enum': [''] + list(cs.STATUSES)},
    }),
    'enabled': {'type': 'boolean'},
    'error': {'type': 'string', 'maxLength': MAX_ERROR},
    'session': NAME_OR_EMPTY,
    'retry_policy': {'type': ['integer', 'null'], 'minimum': -1,
                     'maximum': MAX_RETRY_POLICY},
}

# PATCH and PUT /v1/boot/components/{id} (an id in the body is ignored:
# the path names the component).
COMPONENT_BODY = _object(COMPONENT_FIELDS, minProperties=1)
# One record of a bulk write.
COMPONENT_WITH_ID = _object(COMPONENT_FIELDS, required=['id'])
# PUT /v1/boot/components.
COMPONENTS_PUT_BODY = {'type': 'array', 'items': COMPONENT_WITH_ID,
                       'maxItems': MAX_IDS}

COMPONENT_FILTERS = _object({
    'ids': {'type': ['string', 'null'], 'maxLength': 65535},
    'session': {'anyOf': [{'type': 'null'}, NAME_OR_EMPTY]},
}, minProperties=1)
COMPONENTS_UPDATE = _object({'patch': COMPONENT_BODY,
                             'filters': COMPONENT_FILTERS},
                            required=['patch', 'filters'])
# PATCH /v1/boot/components: records with ids, or a patch and filters.
COMPONENTS_PATCH_BODY = {'anyOf': [COMPONENTS_PUT_BODY, COMPONENTS_UPDATE]}

# POST /v1/boot/components/{id}/report (public: the token authenticates).
REPORT_BODY = _object({'bss_token': {'type': 'string', 'minLength': 1,
                                     'maxLength': MAX_REPORTED_TOKEN}},
                      required=['bss_token'])


# -- applystaged and options ------------------------------------------------

APPLYSTAGED_BODY = _object({'xnames': {'type': 'array',
                                       'items': COMPONENT_ID,
                                       'maxItems': MAX_IDS}})


def _option_schema(name, default):
    # Ranges and patterns are options.validate()'s, which names the option.
    if isinstance(default, bool):
        return {'type': 'boolean'}
    if isinstance(default, int):
        return {'type': 'integer'}
    if name == 'logging_level':
        return {'type': 'string', 'maxLength': 16}
    return {'type': 'string', 'minLength': 1, 'maxLength': 8}


OPTIONS_BODY = _object(
    {name: _option_schema(name, default)
     for name, default in sorted(boot_options.DEFAULTS.items())},
    minProperties=1)
