"""Paths into nested dictionaries.

A path is JSON-pointer-like, "/driver_info/ipmi_address" (the leading
slash is optional), or dotted, "driver_info.ipmi_address". A path holding a
slash is split on slashes only, so "/a.b/c" reaches key "a.b" then "c".
"""

from ironic_like.common.inspection_rules import errors

_MISSING = object()


def split(path):
    """The keys of ``path``; OpError if it is not a usable path."""
    if not isinstance(path, str):
        raise errors.OpError('path must be a string, not %s'
                             % type(path).__name__)
    if '/' in path:
        parts = path.strip('/').split('/')
    else:
        parts = path.split('.')
    if not all(parts):
        raise errors.OpError('invalid path %r: empty component' % path)
    return parts


def _parent(container, keys, path, create):
    """The dict holding the last of ``keys``; None if it is missing and
    not ``create``."""
    current = container
    for depth, key in enumerate(keys[:-1]):
        nxt = current.get(key, _MISSING)
        if nxt is _MISSING or (nxt is None and create):
            if not create:
                return None
            nxt = current[key] = {}
        if not isinstance(nxt, dict):
            raise errors.OpError(
                'invalid path %r: %r is a %s, not a dictionary'
                % (path, '/'.join(keys[:depth + 1]), type(nxt).__name__))
        current = nxt
    return current


def set_value(container, keys, value, path):
    """container[k1][k2]... = value, creating missing dictionaries."""
    _parent(container, keys, path, create=True)[keys[-1]] = value


def extend_value(container, keys, value, unique, path):
    """Append ``value`` to the list at ``keys`` (created if missing or
    None); with ``unique`` not if it is already there."""
    parent = _parent(container, keys, path, create=True)
    current = parent.get(keys[-1])
    if current is None:
        current = parent[keys[-1]] = []
    if not isinstance(current, list):
        raise errors.OpError('cannot extend %r: it is a %s, not a list'
                             % (path, type(current).__name__))
    if not (unique and value in current):
        current.append(value)


def delete_value(container, keys, path):
    """Remove the key at ``keys``; a missing one is no error. Returns
    whether something was removed."""
    parent = _parent(container, keys, path, create=False)
    if parent is None or keys[-1] not in parent:
        return False
    del parent[keys[-1]]
    return True
