"""Schemas of node request bodies.

FIELDS holds one schema per writable node field; node creation builds its
object schema from the fields the request's version may set, and a PATCH
validates the fields it changes against the same definitions.
"""

import functools

from ironic_like.api.schemas import common
from ironic_like.api.schemas import deploy_template
from ironic_like.api.schemas import network_data
from ironic_like.common import states
from ironic_like.drivers import base as drivers_base

# Ironic's limit for traits on one node.
MAX_TRAITS = 50
# The most steps one manual cleaning request may list.
MAX_CLEAN_STEPS = 100

FIELDS = {
    'uuid': common.UUID_OR_NULL,
    'name': {'type': ['string', 'null'], 'format': 'logical_name',
             'minLength': 1, 'maxLength': 255},
    'description': {'type': ['string', 'null'], 'maxLength': 4096},
    'driver': {'type': 'string', 'minLength': 1, 'maxLength': 255},
    'driver_info': common.OBJECT_OR_NULL,
    'properties': common.OBJECT_OR_NULL,
    'extra': common.OBJECT_OR_NULL,
    'instance_info': common.OBJECT_OR_NULL,
    'instance_uuid': common.UUID_OR_NULL,
    'resource_class': {'type': ['string', 'null'], 'maxLength': 80},
    'conductor_group': {'type': ['string', 'null'], 'maxLength': 255,
                        'pattern': r'^[a-zA-Z0-9_\-\.]*$'},
    'owner': {'type': ['string', 'null'], 'maxLength': 255},
    # Ironic 1.65: the project leasing the node.
    'lessee': {'type': ['string', 'null'], 'maxLength': 255},
    'shard': {'type': ['string', 'null'], 'maxLength': 255},
    # Ironic 1.83: the parent's UUID or name (stored as its UUID).
    'parent_node': {'type': ['string', 'null'], 'minLength': 1,
                    'maxLength': 255},
    # Ironic 1.66: the instance's network configuration, in the
    # network_data.json format of the config drive.
    'network_data': network_data.NETWORK_DATA,
    # Ours (not Ironic's): free-form selectors for host configuration.
    'labels': {'type': ['object', 'null'], 'maxJsonSize': True,
               'propertyNames': {'minLength': 1, 'maxLength': 255},
               'additionalProperties': {'type': 'string',
                                        'maxLength': 255}},
    'maintenance_reason': common.TEXT_OR_NULL,
    # Ironic 1.47, 1.48, 1.61 (their rules are the conductor's:
    # conductor/node_flags.py). null removes: false, or follow the option.
    'automated_clean': {'type': ['boolean', 'null']},
    # 1.104: the instance's name (set with instance_info's display_name).
    'instance_name': {'type': ['string', 'null'], 'minLength': 1,
                      'maxLength': 255},
    # 1.95: never power the node off (null, removed, is false).
    'disable_power_off': {'type': ['boolean', 'null']},
    'protected': {'type': ['boolean', 'null']},
    'protected_reason': common.TEXT_OR_NULL,
    'retired': {'type': ['boolean', 'null']},
    'retired_reason': common.TEXT_OR_NULL,
    # The node's chassis (the API turns it into chassis_id).
    'chassis_uuid': common.UUID_OR_NULL,
}
for _kind in drivers_base.INTERFACE_KINDS:
    FIELDS['%s_interface' % _kind] = {'type': ['string', 'null'],
                                      'maxLength': 255}

# Settable on creation (maintenance_reason is not: use /maintenance).
# A new node is in enroll, where it cannot be protected.
CREATE_FIELDS = frozenset(FIELDS) - {'maintenance_reason', 'protected',
                                     'protected_reason'}
# Changeable with PATCH.
PATCH_FIELDS = frozenset(FIELDS) - {'uuid'}
# Cannot be removed with a PATCH.
MANDATORY = frozenset(['driver'])


# The object schema of a body setting ``names`` (a subset of FIELDS).
object_schema = functools.partial(common.object_schema, FIELDS)

# POST /v1/nodes (the fields a version does not know yet are refused
# before this schema is applied).
CREATE_BODY = object_schema(CREATE_FIELDS, required=['driver'])
# Each field a PATCH changes is validated on its own: {name: new value}.
FIELD_BODIES = {name: object_schema([name]) for name in FIELDS}


TRAITS_BODY = {
    'type': 'object',
    'properties': {
        'traits': {'type': 'array', 'items': common.TRAIT,
                   'maxItems': MAX_TRAITS},
    },
    'required': ['traits'],
    'additionalProperties': False,
}

POWER_BODY = {
    'type': 'object',
    'properties': {
        'target': {'type': 'string', 'maxLength': 255},
        'timeout': {'type': 'integer', 'minimum': 1},
    },
    'required': ['target'],
    'additionalProperties': False,
}

# The most child nodes one step's limit_child_node_execution may list.
MAX_CHILD_LIMIT = 1000

CLEAN_STEP = {
    'type': 'object',
    'properties': {
        'interface': {'type': 'string', 'minLength': 1, 'maxLength': 255},
        'step': {'type': 'string', 'minLength': 1, 'maxLength': 255},
        'args': {'type': 'object'},
        'priority': {'type': 'integer'},
        # Ironic's: run the step on the node's child nodes (all, or those
        # listed), not on it (api/controllers/v1/node_step_checks.py).
        'execute_on_child_nodes': {'type': 'boolean'},
        'limit_child_node_execution': {
            'type': 'array', 'maxItems': MAX_CHILD_LIMIT,
            'items': {'type': 'string', 'format': 'uuid'}},
    },
    'required': ['interface', 'step'],
    'additionalProperties': False,
}

PROVISION_BODY = {
    'type': 'object',
    'properties': {
        'target': {'type': 'string', 'maxLength': 255},
        'clean_steps': {'type': 'array', 'items': CLEAN_STEP,
                        'maxItems': MAX_CLEAN_STEPS},
        # 1.87: the steps of "service" (the same form).
        'service_steps': {'type': 'array', 'items': CLEAN_STEP,
                          'maxItems': MAX_CLEAN_STEPS},
        'configdrive': {'type': ['string', 'object', 'null']},
        # Checked further (non-empty, rescue only) by the controller,
        # whose errors name it as Ironic's do.
        'rescue_password': {'type': ['string', 'null'], 'maxLength': 255},
        # 1.69: steps of this deploy (merged over its templates' steps).
        # Ironic's deploy step schema: no execute_on_child_nodes nor
        # limit_child_node_execution (400), although its conductor runs
        # them in a deploy; so does ours (conductor/flows/deploy.py).
        'deploy_steps': {'type': ['array', 'null'],
                         'items': deploy_template.STEP,
                         'maxItems': deploy_template.MAX_STEPS},
        # 1.70: manual cleaning without booting the agent's ramdisk.
        'disable_ramdisk': {'type': ['boolean', 'null']},
        # 1.92: the runbook (UUID or name) whose steps clean or service.
        'runbook': {'type': ['string', 'null'], 'minLength': 1,
                    'maxLength': 255},
    },
    'required': ['target'],
    'additionalProperties': False,
}

MAINTENANCE_BODY = {
    'type': 'object',
    'properties': {'reason': common.TEXT_OR_NULL},
    'additionalProperties': False,
}

# PUT /v1/nodes/{id}/management/boot_device. Booleans may come as their
# strings ("true"), as Ironic accepts them.
BOOT_DEVICE_BODY = {
    'type': 'object',
    'properties': {
        'boot_device': {'type': 'string', 'minLength': 1,
                        'maxLength': 255},
        'persistent': {'type': ['boolean', 'string']},
    },
    'required': ['boot_device'],
    'additionalProperties': False,
}

# PUT /v1/nodes/{id}/management/inject_nmi: an empty object.
# A vendor passthru call: the method's arguments, whatever they are (the
# node's vendor interface checks them).
VENDOR_PASSTHRU_BODY = {'type': 'object'}

INJECT_NMI_BODY = {
    'type': 'object',
    'properties': {},
    'additionalProperties': False,
}

# PUT /v1/nodes/{id}/states/console.
CONSOLE_BODY = {
    'type': 'object',
    'properties': {'enabled': {'type': ['boolean', 'string']}},
    'required': ['enabled'],
    'additionalProperties': False,
}

# PUT /v1/nodes/{id}/states/raid: the target RAID configuration itself,
# which the node's raid interface checks against its schema
# (drivers/raid.py); {} clears it.
RAID_BODY = {'type': 'object', 'maxJsonSize': True}


# PUT /v1/nodes/{id}/management/indicators/<indicator>@<component> (1.63).
INDICATOR_BODY = {
    'type': 'object',
    'properties': {
        'state': {'type': 'string', 'enum': ['ON', 'OFF', 'BLINKING']},
    },
    'required': ['state'],
    'additionalProperties': False,
}


# PUT /v1/nodes/{id}/states/boot_mode and .../secure_boot (1.76).
BOOT_MODE_BODY = {
    'type': 'object',
    'properties': {'target': {'type': 'string',
                              'enum': list(states.BOOT_MODES)}},
    'required': ['target'],
    'additionalProperties': False,
}
SECURE_BOOT_BODY = {
    'type': 'object',
    'properties': {'target': {'type': ['boolean', 'string']}},
    'required': ['target'],
    'additionalProperties': False,
}
