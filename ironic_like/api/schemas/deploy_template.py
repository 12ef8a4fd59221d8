"""Schemas of deploy template request bodies, as Ironic accepts them
(API 1.55): a name that is a trait, and at least one step."""

import functools

from ironic_like.api.schemas import common

# The interfaces whose steps a template may name (Ironic's list).
STEP_INTERFACES = ('deploy', 'bios', 'raid', 'management', 'power')
# Ours: every step of a matched template runs at each deploy asking for
# it, so one template stays small (Ironic sets no bound).
MAX_STEPS = 100
# The largest priority (or runbook step order) a step may have.
MAX_RANK = 2 ** 31 - 1

STEP = {
    'type': 'object',
    'properties': {
        'interface': {'enum': list(STEP_INTERFACES)},
        'step': {'type': 'string', 'minLength': 1, 'maxLength': 255},
        'args': {'type': 'object', 'maxJsonSize': True},
        # Ironic takes the priority as a number or a string of digits;
        # 0 keeps the step in the template but disabled.
        'priority': {'anyOf': [
            # Bounded by the column (a 32-bit integer): a larger number
            # is a 400, not a database error.
            {'type': 'integer', 'minimum': 0, 'maximum': MAX_RANK},
            {'type': 'string', 'pattern': '^[0-9]{1,9}$'}]},
    },
    'required': ['interface', 'step', 'args', 'priority'],
    'additionalProperties': False,
}

FIELDS = {
    'uuid': common.UUID_OR_NULL,
    # The name is the trait a deploy asks for to get the template.
    'name': common.TRAIT,
    'steps': {'type': 'array', 'items': STEP, 'minItems': 1,
              'maxItems': MAX_STEPS},
    'extra': common.OBJECT_OR_NULL,
}

CREATE_FIELDS = frozenset(FIELDS)
# uuid is read-only once the template exists.
PATCH_FIELDS = frozenset(FIELDS) - {'uuid'}

# The object schema of a body setting ``names`` (a subset of FIELDS).
object_schema = functools.partial(common.object_schema, FIELDS)

# POST /v1/deploy_templates.
CREATE_BODY = object_schema(CREATE_FIELDS, required=['name', 'steps'])
# Each field a PATCH changes is validated on its own: {name: new value}
# (a PATCH cannot remove name or steps: they are mandatory).
FIELD_BODIES = {name: object_schema([name]) for name in PATCH_FIELDS}
