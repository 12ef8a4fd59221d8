"""Schemas of inspection rule request bodies (API 1.96): the shape only;
what each operation's arguments must be is checked by the rules engine
(common/inspection_rules/validation.py), which names the faulty
condition or action."""

import functools

from ironic_like.api.schemas import common
from ironic_like.common.inspection_rules import actions
from ironic_like.common.inspection_rules import operators

# Ours: a rule is read at every inspection; keep one rule small.
MAX_OPERATIONS = 100

_ARGS = {'type': ['object', 'array'], 'maxJsonSize': True}
_LOOP = {'type': ['array', 'object'], 'maxJsonSize': True}

CONDITION = {
    'type': 'object',
    'properties': {
        # "!op" (or "! op") inverts a condition.
        'op': {'enum': sorted(list(operators.NAMES)
                              + ['!' + name for name in operators.NAMES]
                              + ['! ' + name for name in operators.NAMES])},
        'args': _ARGS,
        'loop': _LOOP,
        'multiple': {'enum': ['any', 'all', 'first', 'last']},
    },
    'required': ['op', 'args'],
    'additionalProperties': False,
}

ACTION = {
    'type': 'object',
    'properties': {
        'op': {'enum': sorted(actions.NAMES)},
        'args': _ARGS,
        'loop': _LOOP,
    },
    'required': ['op', 'args'],
    'additionalProperties': False,
}

FIELDS = {
    'uuid': common.UUID_OR_NULL,
    'description': {'type': ['string', 'null'], 'maxLength': 255},
    # Higher first; 0 to 9999. A string of digits too: python-ironicclient
    # sends --priority as one.
    'priority': {'anyOf': [{'type': 'integer', 'minimum': 0,
                            'maximum': 9999},
                           {'type': 'string', 'pattern': '^[0-9]{1,4}$'}]},
    'sensitive': {'type': ['boolean', 'null']},
    'phase': {'type': ['string', 'null'], 'maxLength': 16},
    'conditions': {'type': ['array', 'null'], 'items': CONDITION,
                   'maxItems': MAX_OPERATIONS},
    'actions': {'type': 'array', 'items': ACTION, 'minItems': 1,
                'maxItems': MAX_OPERATIONS},
}

CREATE_FIELDS = frozenset(FIELDS)
PATCH_FIELDS = frozenset(FIELDS) - {'uuid'}
MANDATORY = ('actions',)

object_schema = functools.partial(common.object_schema, FIELDS)

# POST /v1/inspection_rules.
CREATE_BODY = object_schema(CREATE_FIELDS, required=MANDATORY)
# Each field a PATCH changes is validated on its own, then the whole
# patched rule by the engine.
FIELD_BODIES = {name: object_schema([name]) for name in PATCH_FIELDS}
