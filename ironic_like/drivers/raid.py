"""Target RAID configurations: their schema (Ironic's), checked before a
raid interface accepts one, and the logical disk properties it documents
(GET /v1/drivers/{name}/raid/logical_disk_properties)."""

import jsonschema

from ironic_like.common import exception

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
