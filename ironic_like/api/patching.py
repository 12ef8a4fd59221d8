"""RFC 6902 JSON patches applied to a resource's writable fields.

The patch is checked path by path first, so that a read-only or unknown
field is refused with its name before anything is applied; jsonpatch then
applies it to the resource's raw (unmasked) values, and the caller sends
only the fields that really changed.
"""

import jsonpatch
import jsonpointer

from ironic_like.api.schemas import common
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.common import exception
from ironic_like.common import masking
from ironic_like.conf import CONF

_PATCH_VALIDATOR = validation.make_validator(common.JSON_PATCH)


def root_of(path):
    """First segment of a JSON pointer, unescaped (~1 is /, ~0 is ~)."""
    first = path.lstrip('/').split('/', 1)[0]
    return first.replace('~1', '/').replace('~0', '~')


def check_shape(patch):
    """Check what every JSON patch must be (at most
    [api]max_patch_operations operations, RFC 6902's shape, a value for
    add and replace); (operation, path, root attribute) of each."""
    limit = CONF.api.max_patch_operations
    if isinstance(patch, list) and len(patch) > limit:
        raise exception.InvalidParameterValue(
            err='The JSON patch has %d operations; one request may hold '
                'at most %d ([api]max_patch_operations).'
                % (len(patch), limit))
    validation.validate(_PATCH_VALIDATOR, patch)
    checked = []
    for op in patch:
        path = op['path']
        root = root_of(path)
        if op['op'] in ('add', 'replace') and 'value' not in op:
            raise exception.InvalidParameterValue(
                err="'add' and 'replace' operations need a value "
                    "(path %s)." % path[:255], field=root)
        checked.append((op, path, root))
    return checked


def check(patch, fields, version, writable, mandatory=()):
    """Validate a patch document against a resource's fields.

    :param fields: the resource's field registry (name -> views Field).
    :param writable: names a patch may change.
    :param mandatory: names that cannot be removed.
    """
    for op, path, root in check_shape(patch):
        field = fields.get(root)
        if field is None:
            raise exception.InvalidParameterValue(
                err="Cannot patch %s: the resource has no attribute "
                    "'%s'." % (path, root), field=root)
        if field.since > version:
            raise exception.NotAcceptable(
                "Attribute '%s' needs API version %s or later."
                % (root, versions.to_string(field.since)), field=root)
        if root not in writable:
            raise exception.InvalidParameterValue(
                err="'/%s' is an internal attribute and can not be "
                    "updated" % root, field=root)
        if op['op'] == 'remove' and path == '/' + root and \
                root in mandatory:
            raise exception.InvalidParameterValue(
                err="'/%s' is a mandatory attribute and can not be "
                    "removed" % root, field=root)


def masked(patch):
    """``patch`` as it may be shown or logged: the value of an operation
    on a secret (/driver_info/ipmi_password) masked, and secrets inside
    other values too."""
    result = []
    for op in patch:
        op = dict(op)
        if 'value' in op:
            keys = str(op.get('path', '')).split('/')
            if any(masking.is_secret_key(key) for key in keys):
                op['value'] = masking.MASK
            else:
                op['value'] = masking.mask(op['value'])
        result.append(op)
    return result


def apply(document, patch):
    """The patched copy of ``document``; PatchError (400) if it fails."""
    try:
        return jsonpatch.apply_patch(document, patch)
    except (jsonpatch.JsonPatchException,
            jsonpointer.JsonPointerException) as e:
        raise exception.PatchError(patch=masked(patch),
                                   reason=masking.mask_text(str(e)))


def changes(before, after, defaults):
    """{field: new value} of the fields that differ.

    A field removed at the top level goes back to its default (None, or
    {} for dictionaries), as in Ironic.
    """
    result = {}
    for name, old in before.items():
        new = after.get(name, defaults.get(name))
        if new != old:
            result[name] = new
    return result
