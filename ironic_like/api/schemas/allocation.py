"""Schemas of allocation request bodies (seed 004 and Ironic's later
additions: PATCH of name/extra, backfill by node, owner)."""

from ironic_like.api.schemas import common
from ironic_like.api.schemas import node as node_schema

FIELDS = {
    'uuid': common.UUID_OR_NULL,
    'name': node_schema.FIELDS['name'],
    'resource_class': {'type': ['string', 'null'], 'minLength': 1,
                       'maxLength': 80},
    'traits': {'type': ['array', 'null'], 'items': common.TRAIT,
               'maxItems': node_schema.MAX_TRAITS, 'uniqueItems': True},
    'candidate_nodes': {'type': ['array', 'null'],
                        'items': {'type': 'string', 'minLength': 1,
                                  'maxLength': 255}},
    'extra': common.OBJECT_OR_NULL,
    'owner': {'type': ['string', 'null'], 'maxLength': 255},
    # Backfill: the UUID or name of an already deployed node.
    'node': {'type': ['string', 'null'], 'minLength': 1, 'maxLength': 255},
}

CREATE_FIELDS = frozenset(FIELDS)
PATCH_FIELDS = frozenset(['name', 'extra'])


def object_schema(names, required=()):
    return {
        'type': 'object',
        'properties': {name: FIELDS[name] for name in names},
        'required': list(required),
    }
