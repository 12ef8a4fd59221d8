"""Target RAID configurations: their schema (Ironic's), checked before a
raid interface accepts one, and the logical disk properties it documents
(GET /v1/drivers/{name}/raid/logical_disk_properties)."""

import jsonschema
from oslo_utils import strutils

from ironic_like.common import exception
from ironic_like.common import inspection

RAID_LEVELS = ('0', '1', '2', '5', '6', '1+0', '5+0', '6+0')

# Each property's description is what logical_disk_properties shows.
LOGICAL_DISK = {
    'type': 'object',
    'properties': {
        'raid_level': {
            'type': 'string', 'enum': list(RAID_LEVELS),
            'description': 'RAID level for the logical disk. Valid values '
                           'are %s. Required.' % ', '.join(RAID_LEVELS)},
        'size_gb': {
            'anyOf': [{'type': 'integer', 'minimum': 0},
                      {'type': 'string', 'enum': ['MAX']}],
            'description': 'Size in GiB (Integer) for the logical disk. '
                           'Use "MAX" as size_gb if this logical disk is '
                           'supposed to use the rest of the space '
                           'available. Required.'},
        'volume_name': {
            'type': 'string',
            'description': 'Name of the volume to be created. If this is '
                           'not specified, it will be auto-generated. '
                           'Optional.'},
        'is_root_volume': {
            'type': 'boolean',
            'description': 'Specifies whether this disk is a root volume. '
                           'By default, this is False. Optional.'},
        'share_physical_disks': {
            'type': 'boolean',
            'description': 'Specifies whether other logical disks can '
                           'share physical disks with this logical disk. '
                           'By default, this is False. Optional.'},
        'disk_type': {
            'type': 'string', 'enum': ['hdd', 'ssd'],
            'description': 'The type of disk preferred. Valid values are '
                           '\'hdd\' and \'ssd\'. If this is not specified, '
                           'disk type will not be a selection criterion '
                           'for choosing backing physical disks. Optional.'},
        'interface_type': {
            'type': 'string', 'enum': ['sata', 'scsi', 'sas'],
            'description': 'The interface type of disk. Valid values are '
                           '\'sata\', \'scsi\' and \'sas\'. If this is not '
                           'specified, interface type will not be a '
                           'selection criterion for choosing backing '
                           'physical disks. Optional.'},
        'number_of_physical_disks': {
            'type': 'integer', 'minimum': 1,
            'description': 'The number of disks to use for this logical '
                           'disk. If this is not specified, the minimum '
                           'number of disks the RAID level needs is used. '
                           'Optional.'},
        'controller': {
            'type': 'string',
            'description': 'The name of the controller as read by the RAID '
                           'interface. Optional.'},
        'physical_disks': {
            'type': 'array',
            'items': {'anyOf': [{'type': 'string'}, {'type': 'object'}]},
            'description': 'The physical disks to use for this logical '
                           'disk, as the RAID interface names them. '
                           'Optional.'},
    },
    'required': ['raid_level', 'size_gb'],
    'additionalProperties': False,
}

SCHEMA = {
    'type': 'object',
    'properties': {
        'logical_disks': {'type': 'array', 'items': LOGICAL_DISK,
                          'minItems': 1},
    },
    'required': ['logical_disks'],
    'additionalProperties': False,
}

_VALIDATOR = jsonschema.Draft4Validator(SCHEMA)


def validate_configuration(raid_config):
    """Raise InvalidParameterValue unless ``raid_config`` is a valid target
    RAID configuration (an empty dict, which clears it, is valid)."""
    if raid_config == {}:
        return
    errors = sorted(_VALIDATOR.iter_errors(raid_config),
                    key=lambda e: list(e.absolute_path))
    if errors:
        error = errors[0]
        where = '/'.join(str(p) for p in error.absolute_path)
        raise exception.InvalidParameterValue(
            err='RAID config validation error: %s%s' % (
                error.message, ' (at %s)' % where if where else ''),
            field='target_raid_config')
    roots = [d for d in raid_config['logical_disks']
             if d.get('is_root_volume')]
    if len(roots) > 1:
        raise exception.InvalidParameterValue(
            err='Raid config cannot have more than one root volume. %d '
                'root volumes were specified.' % len(roots),
            field='target_raid_config')


def logical_disk_properties():
    """{property: description} of a logical disk."""
    return {name: prop['description']
            for name, prop in LOGICAL_DISK['properties'].items()}


# The arguments of a create_configuration step (Ironic's).
CREATE_ARGSINFO = {
    'create_root_volume': {
        'description': 'This specifies whether to create the root volume. '
                       'Defaults to `True`.',
        'required': False},
    'create_nonroot_volumes': {
        'description': 'This specifies whether to create the non-root '
                       'volumes. Defaults to `True`.',
        'required': False},
}


def filter_target(node, create_root_volume=True, create_nonroot_volumes=True):
    """The node's target RAID configuration as a create_configuration
    step builds it: without the root volume, or without the others, when
    the step's arguments say so (Ironic's rule). MissingParameterValue
    naming target_raid_config when nothing is left to build."""
    target = node.target_raid_config or {}
    if not target.get('logical_disks'):
        raise exception.MissingParameterValue(
            err='Node %s has no target RAID configuration.' % node.uuid,
            field='target_raid_config')
    disks = list(target['logical_disks'])
    skipped = []
    if not as_bool(create_root_volume, 'create_root_volume'):
        disks = [d for d in disks if not d.get('is_root_volume')]
        skipped.append('skipping root volume')
    if not as_bool(create_nonroot_volumes, 'create_nonroot_volumes'):
        disks = [d for d in disks if d.get('is_root_volume')]
        skipped.append('skipping non-root volumes')
    if not disks:
        raise exception.MissingParameterValue(
            err='Node %s has empty target RAID configuration after %s.'
                % (node.uuid, ' and '.join(skipped)),
            field='target_raid_config')
    return dict(target, logical_disks=disks)


def as_bool(value, name):
    """``value`` (a boolean, or its string) as a boolean; else
    InvalidParameterValue naming ``name``."""
    try:
        return strutils.bool_from_string(value, strict=True)
    except ValueError:
        raise exception.InvalidParameterValue(
            err='%s must be a boolean, not %r.' % (name, value), field=name)


def built_values(node, raid_config, now):
    """The node's new values once ``raid_config`` (what the agent reports
    it built: {"logical_disks": [...]}) exists, as Ironic records it:
    raid_config with last_updated, and from the root volume the
    properties' local_gb (unless "MAX"), root_device (its hint) and the
    raid_level capability. InvalidParameterValue for a report that is not
    a configuration or has more than one root volume."""
    if not isinstance(raid_config, dict) or not isinstance(
            raid_config.get('logical_disks'), list):
        raise exception.InvalidParameterValue(
            err='The agent reported no RAID configuration (%r).'
                % (raid_config,))
    roots = [d for d in raid_config['logical_disks']
             if isinstance(d, dict) and d.get('is_root_volume')]
    if len(roots) > 1:
        raise exception.InvalidParameterValue(
            err='The agent reported %d root volumes; at most one may be.'
                % len(roots))
    values = {'raid_config': dict(raid_config, last_updated=str(now))}
    if roots:
        root = roots[0]
        properties = dict(node.properties or {})
        if root.get('size_gb') not in (None, 'MAX'):
            properties['local_gb'] = int(root['size_gb'])
        if root.get('root_device_hint'):
            properties['root_device'] = root['root_device_hint']
        if root.get('raid_level'):
            capabilities = inspection.parse_capabilities(
                properties.get('capabilities'))
            capabilities['raid_level'] = root['raid_level']
            properties['capabilities'] = inspection.format_capabilities(
                capabilities)
        values['properties'] = properties
    return values


def deleted_values(node):
    """The node's new values once its RAID configuration is deleted: no
    raid_config, no root device hint taken from it (Ironic's rule)."""
    properties = dict(node.properties or {})
    properties.pop('root_device', None)
    return {'raid_config': {}, 'properties': properties}
