"""Schemas of allocation request bodies, as Ironic accepts them: creation
(including backfill of a deployed node, and an owner) and a PATCH of name
and extra."""

import functools

from ironic_like.api.schemas import common
from ironic_like.api.schemas import node as node_schema

# The most candidate nodes one allocation may list (each is looked up).
MAX_CANDIDATE_NODES = 1000

FIELDS = {
    'uuid': common.UUID_OR_NULL,
    'name': node_schema.FIELDS['name'],
    'resource_class': {'type': ['string', 'null'], 'minLength': 1,
                       'maxLength': 80},
    'traits': {'type': ['array', 'null'], 'items': common.TRAIT,
               'maxItems': node_schema.MAX_TRAITS, 'uniqueItems': True},
    'candidate_nodes': {'type': ['array', 'null'],
                        'items': {'type': 'string', 'minLength': 1,
                                  'maxLength': 255},
                        'maxItems': MAX_CANDIDATE_NODES},
    'extra': common.OBJECT_OR_NULL,
    'owner': {'type': ['string', 'null'], 'maxLength': 255},
    # Backfill: the UUID or name of an already deployed node.
    'node': {'type': ['string', 'null'], 'minLength': 1, 'maxLength': 255},
}

CREATE_FIELDS = frozenset(FIELDS)
PATCH_FIELDS = frozenset(['name', 'extra'])


# The object schema of a body setting ``names`` (a subset of FIELDS).
object_schema = functools.partial(common.object_schema, FIELDS)

# POST /v1/allocations.
CREATE_BODY = object_schema(CREATE_FIELDS)
# Each field a PATCH changes is validated on its own: {name: new value}.
FIELD_BODIES = {name: object_schema([name]) for name in FIELDS}
