"""Schemas of runbook request bodies, as Ironic accepts them (API 1.92):
a name that is a trait, and at least one step with its order."""

import functools

from ironic_like.api.schemas import common
from ironic_like.api.schemas import deploy_template

# The interfaces whose clean or service steps a runbook may name
# (Ironic's cleaning interfaces).
STEP_INTERFACES = ('vendor', 'power', 'management', 'firmware', 'deploy',
                   'bios', 'raid')

STEP = {
    'type': 'object',
    'properties': {
        'interface': {'enum': list(STEP_INTERFACES)},
        'step': {'type': 'string', 'minLength': 1, 'maxLength': 255},
        'args': {'type': 'object', 'maxJsonSize': True},
        # Where the step runs among the runbook's (lowest first); Ironic
        # takes a number or a string of digits.
        'order': {'anyOf': [
            {'type': 'integer', 'minimum': 0,
             'maximum': deploy_template.MAX_RANK},
            {'type': 'string', 'pattern': '^[0-9]{1,9}$'}]},
    },
    'required': ['interface', 'step', 'order'],
    'additionalProperties': False,
}

# A runbook's name from 1.112: RFC 3986 unreserved characters (it names
# the runbook in URLs). Below 1.112 the API also requires it to be a
# trait: the trait a node must have for the runbook to be used on it.
NAME = {'type': 'string', 'minLength': 1, 'maxLength': 255,
        'pattern': '^[A-Za-z0-9._~-]+$'}

FIELDS = {
    'uuid': common.UUID_OR_NULL,
    'name': NAME,
    # API 1.112.
    'description': {'type': ['string', 'null'], 'maxLength': 255},
    'steps': {'type': 'array', 'items': STEP, 'minItems': 1,
              'maxItems': deploy_template.MAX_STEPS},
    'disable_ramdisk': {'type': ['boolean', 'null']},
    'extra': common.OBJECT_OR_NULL,
    'public': {'type': ['boolean', 'null']},
    'owner': {'type': ['string', 'null'], 'maxLength': 255},
}

CREATE_FIELDS = frozenset(FIELDS)
# uuid is read-only once the runbook exists.
PATCH_FIELDS = frozenset(FIELDS) - {'uuid'}
MANDATORY = ('name', 'steps')

object_schema = functools.partial(common.object_schema, FIELDS)

# POST /v1/runbooks.
CREATE_BODY = object_schema(CREATE_FIELDS, required=MANDATORY)
# Each field a PATCH changes is validated on its own: {name: new value}.
FIELD_BODIES = {name: object_schema([name]) for name in PATCH_FIELDS}

# PUT /v1/runbooks/{id}/traits (1.112): the whole list.
TRAITS_BODY = {
    'type': 'object',
    'properties': {
        'traits': {'type': 'array', 'items': common.TRAIT,
                   'maxItems': 50},
    },
    'required': ['traits'],
    'additionalProperties': False,
}
