"""Schemas of chassis request bodies."""

import functools

from ironic_like.api.schemas import common

FIELDS = {
    'uuid': common.UUID_OR_NULL,
    # The column's size, as Ironic's limit.
    'description': {'type': ['string', 'null'], 'maxLength': 255},
    'extra': common.OBJECT_OR_NULL,
}

CREATE_FIELDS = frozenset(FIELDS)
# uuid is read-only once the chassis exists.
PATCH_FIELDS = frozenset(FIELDS) - {'uuid'}

# The object schema of a body setting ``names`` (a subset of FIELDS).
object_schema = functools.partial(common.object_schema, FIELDS)

# POST /v1/chassis (nothing is required: Ironic accepts {}).
CREATE_BODY = object_schema(CREATE_FIELDS)
# Each field a PATCH changes is validated on its own: {name: new value}.
FIELD_BODIES = {name: object_schema([name]) for name in PATCH_FIELDS}
