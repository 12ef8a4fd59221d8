"""Schemas shared by several resources."""

# RFC 6902 as Ironic accepts it: only add, replace and remove.
JSON_PATCH = {
    'type': 'array',
    'items': {
        'type': 'object',
        'properties': {
            'op': {'enum': ['add', 'replace', 'remove']},
            'path': {'type': 'string', 'pattern': '^/.+'},
            'value': {},
        },
        'required': ['op', 'path'],
        'additionalProperties': False,
    },
}

STRING_OR_NULL = {'type': ['string', 'null']}
OBJECT_OR_NULL = {'type': ['object', 'null']}
UUID_OR_NULL = {'type': ['string', 'null'], 'format': 'uuid'}
TRAIT = {'type': 'string', 'format': 'trait', 'minLength': 1,
         'maxLength': 255}


def object_schema(fields, names, required=()):
    """The schema of an object whose properties are ``names``, each with
    its schema in ``fields``; ``required`` must be present."""
    return {
        'type': 'object',
        'properties': {name: fields[name] for name in names},
        'required': list(required),
    }
