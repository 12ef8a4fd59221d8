"""NodeChanges: the node state inspection rules edit, in memory.

The conductor builds it from the node's writable fields, its traits and
its ports, applies the rules, then writes only what changed
(changed_fields(), traits, changed_ports()).
"""

import copy

from oslo_utils import strutils

from ironic_like.common.inspection_rules import errors
from ironic_like.common.inspection_rules import paths

# The node fields rules may change, and what each holds. Unlike Ironic,
# rules cannot set the driver, interfaces, conductor group, states...
NODE_FIELDS = {
    'name': 'str', 'description': 'str', 'properties': 'dict',
    'extra': 'dict', 'driver_info': 'dict', 'instance_info': 'dict',
    'labels': 'dict', 'resource_class': 'str', 'owner': 'str',
    'lessee': 'str', 'network_data': 'dict', 'automated_clean': 'bool?',
    'retired': 'bool', 'retired_reason': 'str', 'shard': 'str',
}
PORT_FIELDS = {
    'extra': 'dict', 'pxe_enabled': 'bool', 'local_link_connection': 'dict',
    'physical_network': 'str', 'is_smartnic': 'bool',
}
TRAIT_MAX_LENGTH = 255


def _coerce(kind, value, path):
    """``value`` made fit for a field of ``kind``; OpError if it cannot."""
    if kind == 'dict':
        if not isinstance(value, dict):
            raise errors.OpError('%s must be a dictionary, not %s'
                                 % (path, type(value).__name__))
        return value
    if kind in ('bool', 'bool?'):
        if value is None and kind == 'bool?':
            return None
        if isinstance(value, bool):
            return value
        if isinstance(value, str):
            try:
                return strutils.bool_from_string(value, strict=True)
            except ValueError:
                pass
        raise errors.OpError('%s must be a boolean' % path)
    # A string field (nullable).
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return str(value)
    raise errors.OpError('%s must be a string, not %s'
                         % (path, type(value).__name__))


def _empty(kind):
    return {'dict': {}, 'bool': False}.get(kind)


class _Record:
    """Path operations on the writable fields of a node or a port.

    :param values: the dict of fields, edited in place.
    :param kinds: field name -> kind ('dict', 'str', 'bool', 'bool?').
    :param what: 'node' or 'port', for messages.
    """

    def __init__(self, values, kinds, what, writable):
        self.values = values
        self.kinds = kinds
        self.what = what
        self.writable = writable

    def _keys(self, path):
        keys = paths.split(path)
        if keys[0] not in self.writable:
            raise errors.OpError(
                '%s: %r is not a writable %s field; writable fields: %s'
                % (path, keys[0], self.what, ', '.join(sorted(self.writable))))
        return keys

    def _container(self, keys, path):
        """The top-level dict field a longer path goes into."""
        current = self.values.get(keys[0])
        if current is None and self.kinds[keys[0]] == 'dict':
            current = self.values[keys[0]] = {}
        if not isinstance(current, dict):
            raise errors.OpError('invalid path %r: %s is not a dictionary'
                                 % (path, keys[0]))
        return current

    def set(self, path, value):
        keys = self._keys(path)
        if len(keys) == 1:
            self.values[keys[0]] = _coerce(self.kinds[keys[0]], value, path)
        else:
            paths.set_value(self._container(keys, path), keys[1:], value,
                            path)

    def extend(self, path, value, unique):
        keys = self._keys(path)
        if len(keys) == 1:
            # No writable field is a list.
            raise errors.OpError('cannot extend %r: a %s field, not a list'
                                 % (path, self.kinds[keys[0]].rstrip('?')))
        paths.extend_value(self._container(keys, path), keys[1:], value,
                           unique, path)

    def delete(self, path):
        keys = self._keys(path)
        if len(keys) == 1:
            self.values[keys[0]] = _empty(self.kinds[keys[0]])
        elif isinstance(self.values.get(keys[0]), dict):
            paths.delete_value(self.values[keys[0]], keys[1:], path)
        # Else the sub-key of an unset or non-dict field is already absent.


class NodeChanges:
    """The writable node fields, traits and ports, as rules change them.

    :param fields: dict of the node's writable fields (a subset of
        NODE_FIELDS). Deep-copied.
    :param traits: list of trait names.
    :param ports: list of dicts with 'uuid', 'address' and the writable
        port fields (PORT_FIELDS). Deep-copied.
    """

    def __init__(self, fields, traits=(), ports=()):
        unknown = sorted(set(fields) - set(NODE_FIELDS))
        if unknown:
            raise ValueError('not writable by inspection rules: %s'
                             % ', '.join(unknown))
        self.fields = copy.deepcopy(dict(fields))
        self._fields_before = copy.deepcopy(self.fields)
        self._node = _Record(self.fields, NODE_FIELDS, 'node', self.fields)
        self.traits = list(dict.fromkeys(traits or ()))
        self._traits_before = set(self.traits)
        self.ports = [copy.deepcopy(dict(p)) for p in ports or ()]
        self._ports_before = copy.deepcopy(self.ports)

    # What changed.

    def changed_fields(self):
        """{field: new value} for the fields that differ."""
        return {name: value for name, value in self.fields.items()
                if value != self._fields_before[name]}

    def traits_changed(self):
        return set(self.traits) != self._traits_before

    def changed_ports(self):
        """{port uuid: {field: new value}} for the fields that differ."""
        changed = {}
        for port, before in zip(self.ports, self._ports_before):
            diff = {name: port.get(name) for name in PORT_FIELDS
                    if port.get(name) != before.get(name)}
            if diff:
                changed[port['uuid']] = diff
        return changed

    # Node fields.

    def set_attribute(self, path, value):
        self._node.set(path, value)

    def extend_attribute(self, path, value, unique=False):
        self._node.extend(path, value, unique)

    def del_attribute(self, path):
        self._node.delete(path)

    # Capabilities: properties['capabilities'], "k1:v1,k2:v2".

    def _capabilities(self):
        if 'properties' not in self.fields:
            raise errors.OpError('capabilities live in properties, which '
                                 'is not writable here')
        props = self.fields['properties']
        if props is None:
            props = self.fields['properties'] = {}
        caps = props.get('capabilities')
        if caps is not None and not isinstance(caps, (str, dict)):
            raise errors.OpError('properties/capabilities must be a string '
                                 'or a dictionary, not %s'
                                 % type(caps).__name__)
        return props, caps

    @staticmethod
    def _check_capability_name(name):
        if not isinstance(name, str) or not name or set(name) & set(',:'):
            raise errors.OpError('invalid capability name %r: a non-empty '
                                 'string without "," or ":"' % (name,))

    def set_capability(self, name, value):
        self._check_capability_name(name)
        if isinstance(value, bool):
            value = str(value).lower()
        value = '' if value is None else str(value)
        if ',' in value:
            raise errors.OpError('capability %s: a value may not hold ","'
                                 % name)
        props, caps = self._capabilities()
        if isinstance(caps, dict):
            caps[name] = value
            return
        entries = [e for e in (caps or '').split(',') if e]
        new = '%s:%s' % (name, value)
        updated = []
        for entry in entries:
            if entry.split(':', 1)[0] != name:
                updated.append(entry)
            elif new not in updated:
                updated.append(new)  # In place of the first; no duplicate.
        if new not in updated:
            updated.append(new)
        props['capabilities'] = ','.join(updated)

    def unset_capability(self, name):
        self._check_capability_name(name)
        props, caps = self._capabilities()
        if isinstance(caps, dict):
            caps.pop(name, None)
            return
        entries = [e for e in (caps or '').split(',') if e]
        kept = [e for e in entries if e.split(':', 1)[0] != name]
        if len(kept) != len(entries):
            props['capabilities'] = ','.join(kept)

    # Traits.

    @staticmethod
    def _check_trait(name):
        if (not isinstance(name, str) or not name
                or len(name) > TRAIT_MAX_LENGTH):
            raise errors.OpError('invalid trait %r: a non-empty string of '
                                 'at most %d characters'
                                 % (name, TRAIT_MAX_LENGTH))

    def add_trait(self, name):
        self._check_trait(name)
        if name not in self.traits:
            self.traits.append(name)

    def remove_trait(self, name):
        self._check_trait(name)
        if name in self.traits:
            self.traits.remove(name)

    # Ports.

    def find_port(self, port_id):
        """The port whose UUID or MAC address (any case) is ``port_id``."""
        if isinstance(port_id, str):
            wanted = port_id.strip().lower()
            for port in self.ports:
                if (str(port.get('uuid', '')).lower() == wanted
                        or str(port.get('address') or '').lower() == wanted):
                    return port
        raise errors.OpError('port %r not found: not the UUID or MAC '
                             'address of one of the node\'s ports'
                             % (port_id,))

    def _port(self, port_id):
        return _Record(self.find_port(port_id), PORT_FIELDS, 'port',
                       PORT_FIELDS)

    def set_port_attribute(self, port_id, path, value):
        self._port(port_id).set(path, value)

    def extend_port_attribute(self, port_id, path, value, unique=False):
        self._port(port_id).extend(path, value, unique)

    def del_port_attribute(self, port_id, path):
        self._port(port_id).delete(path)
