"""Schemas shared by several resources."""

# RFC 6902 as Ironic accepts it: only add, replace and remove.
JSON_PATCH = {
    'type': 'array',
    'items': {
        'type': 'object',
        'properties': {
            'op': {'enum': ['add', 'replace', 'remove']},
            'path': {'type': 'string', 'pattern': '^/.+',
                     'maxLength': 1024},
            'value': {},
        },
        'required': ['op', 'path'],
        'additionalProperties': False,
    },
}

# Free text stored in a TEXT column (reasons): bounded as descriptions.
TEXT_OR_NULL = {'type': ['string', 'null'], 'maxLength': 4096}
# A JSON object field (driver_info, extra...): its serialized size is
# bounded by [api]max_json_field_size (see validation.MAX_JSON_SIZE).
OBJECT_OR_NULL = {'type': ['object', 'null'], 'maxJsonSize': True}
UUID_OR_NULL = {'type': ['string', 'null'], 'format': 'uuid'}
TRAIT = {'type': 'string', 'format': 'trait', 'minLength': 1,
         'maxLength': 255}


def object_schema(fields, names, required=()):
    """The schema of an object whose properties are ``names``, each with
    its schema in ``fields``; ``required`` must be present."""
    # Sorted: the same document (and error messages) in every process,
    # whatever the hash seed does to the order of a set of names.
    return {
        'type': 'object',
        'properties': {name: fields[name] for name in sorted(names)},
        'required': sorted(required),
    }
