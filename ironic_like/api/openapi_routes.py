"""What the API serves, for its OpenAPI description (api/openapi.py):
ROUTES, one Route per method and path, with its summary, success status,
query parameters, request body schema (the very schema objects the
controllers validate with), microversion and the fields a PATCH may
change. A unit test requests every entry against the application and
walks the controllers, so that the list stays complete."""

import collections

from ironic_like.api.controllers.v1.accelerators import resources as \
    accelerators_ctl
from ironic_like.api.controllers.v1 import allocation as allocation_ctl
from ironic_like.api.controllers.v1.boot import components as boot_components
from ironic_like.api.controllers.v1.boot import sessions as boot_sessions
from ironic_like.api.controllers.v1 import chassis as chassis_ctl
from ironic_like.api.controllers.v1 import conductor as conductor_ctl
from ironic_like.api.controllers.v1 import continue_inspection as \
    inspection_callback
from ironic_like.api.controllers.v1 import deploy_template as \
    deploy_template_ctl
from ironic_like.api.controllers.v1 import event as event_ctl
from ironic_like.api.controllers.v1 import inspection_rule as \
    inspection_rule_ctl
from ironic_like.api.controllers.v1.hostos import configurations as \
    hostos_configurations
from ironic_like.api.controllers.v1.hostos import modules as hostos_modules
from ironic_like.api.controllers.v1 import node as node_ctl
from ironic_like.api.controllers.v1 import node_vifs as node_vifs_ctl
from ironic_like.api.controllers.v1 import node_vmedia as node_vmedia_ctl
from ironic_like.api.controllers.v1 import port as port_ctl
from ironic_like.api.controllers.v1 import portgroup as portgroup_ctl
from ironic_like.api.controllers.v1 import ramdisk as ramdisk_ctl
from ironic_like.api.controllers.v1 import runbook as runbook_ctl
from ironic_like.api.controllers.v1 import volume as volume_ctl
from ironic_like.api.schemas import allocation as allocation_schema
from ironic_like.api.schemas import boot as boot_schema
from ironic_like.api.schemas import chassis as chassis_schema
from ironic_like.api.schemas import common as common_schema
from ironic_like.api.schemas import deploy_template as \
    deploy_template_schema
from ironic_like.api.schemas import event as event_schema
from ironic_like.api.schemas import hostos as hostos_schema
from ironic_like.api.schemas import inspection_rule as \
    inspection_rule_schema
from ironic_like.api.schemas import node as node_schema
from ironic_like.api.schemas import node_vifs as node_vifs_schema
from ironic_like.api.schemas import port as port_schema
from ironic_like.api.schemas import portgroup as portgroup_schema
from ironic_like.api.schemas import runbook as runbook_schema
from ironic_like.api.schemas import volume as volume_schema
from ironic_like.api import versions
from ironic_like.api.views import deploy_template as \
    deploy_template_view
from ironic_like.api.views import portgroup as portgroup_view

PATH = '/openapi.json'


Route = collections.namedtuple('Route', [
    'method', 'path', 'summary', 'status', 'query', 'body',
    'body_required', 'public', 'since', 'patch_fields', 'response'])

# The JSON type of a successful answer's body (Ironic's are objects; BOS's
# lists are plain arrays, sessiontemplatesvalid answers a string).
OBJECT = 'object'
ARRAY = 'array'
STRING = 'string'


def _route(method, path, summary, status=200, query=(), body=None,
           body_required=True, public=False, since=None, patch_fields=None,
           response=OBJECT):
    return Route(method, path, summary, status, tuple(sorted(query)), body,
                 body_required, public, since, patch_fields, response)


# Vendor passthru calls: any of these verbs, the body the method's
# arguments.
_PASSTHRU_VERBS = ('GET', 'PUT', 'POST', 'PATCH', 'DELETE')

NODE = '/v1/nodes/{node_ident}'
PORT = '/v1/ports/{port_uuid}'
PORTGROUP = '/v1/portgroups/{portgroup_ident}'
VOLUME_CONNECTOR = '/v1/volume/connectors/{volume_connector_id}'
VOLUME_TARGET = '/v1/volume/targets/{volume_target_id}'
CHASSIS = '/v1/chassis/{chassis_uuid}'
ALLOCATION = '/v1/allocations/{allocation_ident}'
DEPLOY_TEMPLATE = '/v1/deploy_templates/{deploy_template_ident}'
RUNBOOK = '/v1/runbooks/{runbook_ident}'
INSPECTION_RULE = '/v1/inspection_rules/{rule_id}'
BOOT = '/v1/boot'
BOOT_TEMPLATE = BOOT + '/sessiontemplates/{template_name}'
BOOT_SESSION = BOOT + '/sessions/{session_name}'
# A component is a node: named by the node's name or UUID.
BOOT_COMPONENT = BOOT + '/components/{node_ident}'
HOSTOS = '/v1/hostos'
HOSTOS_MODULE = HOSTOS + '/modules/{module_name}'
HOSTOS_VERSION = HOSTOS_MODULE + '/{module_version}'
HOSTOS_CONFIGURATION = HOSTOS + '/configurations/{configuration_name}'
HOSTOS_HEARTBEAT = HOSTOS + '/agents/heartbeat'
ACCELERATORS = '/v1/accelerators'

# The documentation-only bodies of the agent's endpoints: the controllers
# check these field by field (ramdisk._check_strings, _check_inventory),
# not with a JSON schema, to keep Ironic's messages.
_HEARTBEAT_BODY = {
    'type': 'object',
    'properties': {
        name: {'type': ['string', 'null'],
               'maxLength': ramdisk_ctl._MAX_LENGTHS.get(name, 255)}
        for name in sorted(ramdisk_ctl.HEARTBEAT_FIELDS)},
    'additionalProperties': False,
}
_PASSTHRU_HEARTBEAT_BODY = {
    'type': 'object',
    'properties': {
        name: {'type': ['string', 'null'],
               'maxLength': ramdisk_ctl._MAX_LENGTHS.get(name, 255)}
        for name in ramdisk_ctl.PASSTHRU_HEARTBEAT_FIELDS},
    'required': ['agent_url'],
    'additionalProperties': False,
}
_PASSTHRU_LOOKUP_BODY = {
    'type': 'object',
    'properties': {
        'version': {'enum': list(ramdisk_ctl.INVENTORY_VERSIONS)},
        'inventory': {
            'type': 'object',
            'properties': {'interfaces': {
                'type': 'array',
                'items': {'type': 'object', 'properties': {
                    'mac_address': {'type': 'string'}}}}},
            'required': ['interfaces'],
        },
        'node_uuid': {'type': ['string', 'null'], 'format': 'uuid'},
    },
    'required': ['version', 'inventory'],
}
AGENT_BODIES = (_HEARTBEAT_BODY, _PASSTHRU_HEARTBEAT_BODY,
                _PASSTHRU_LOOKUP_BODY)

_FIELDS = ('fields',)

ROUTES = (
    _route('GET', '/', 'Version discovery', public=True),
    _route('GET', PATH, 'This OpenAPI document', public=True),
    _route('GET', '/v1', 'The v1 document', public=True),
    # -- nodes
    _route('GET', '/v1/nodes', 'List nodes', query=node_ctl.LIST_PARAMS),
    _route('GET', '/v1/nodes/detail', 'List nodes with details',
           query=node_ctl.LIST_PARAMS),
    _route('POST', '/v1/nodes', 'Create a node', status=201,
           body=node_schema.CREATE_BODY),
    _route('GET', NODE, 'Show a node', query=_FIELDS),
    _route('PATCH', NODE, 'Change a node (JSON patch)',
           query=['reset_interfaces'], body=common_schema.JSON_PATCH,
           patch_fields=node_schema.FIELD_BODIES),
    _route('DELETE', NODE, 'Delete a node', status=204),
    _route('GET', NODE + '/states', 'The states of a node'),
    _route('PUT', NODE + '/states/power', 'Change the power state',
           status=202, body=node_schema.POWER_BODY),
    _route('PUT', NODE + '/states/provision', 'Change the provision state',
           status=202, body=node_schema.PROVISION_BODY),
    _route('GET', NODE + '/states/console',
           'Whether the console is enabled, and how to reach it'),
    _route('PUT', NODE + '/states/console', 'Enable or disable the console',
           status=202, body=node_schema.CONSOLE_BODY),
    _route('PUT', NODE + '/states/raid',
           'Set the target RAID configuration', status=204,
           body=node_schema.RAID_BODY, since=versions.RAID_CONFIG),
    _route('GET', NODE + '/validate', 'Validate the driver interfaces of '
           'a node'),
    _route('GET', NODE + '/management/boot_device',
           'The boot device of a node'),
    _route('GET', NODE + '/management/boot_device/supported',
           'The boot devices a node supports'),
    _route('PUT', NODE + '/management/boot_device',
           'Set the boot device of a node', status=204,
           body=node_schema.BOOT_DEVICE_BODY),
    _route('PUT', NODE + '/management/inject_nmi',
           'Inject a non-maskable interrupt', status=204,
           body=node_schema.INJECT_NMI_BODY, body_required=False,
           since=versions.INJECT_NMI),
    _route('GET', NODE + '/management/indicators',
           'The indicators of a node\'s components',
           since=versions.INDICATORS),
    _route('GET', NODE + '/management/indicators/{indicator}',
           'The state of an indicator (<indicator>@<component>)',
           since=versions.INDICATORS),
    _route('PUT', NODE + '/management/indicators/{indicator}',
           'Set the state of an indicator', status=204,
           body=node_schema.INDICATOR_BODY, since=versions.INDICATORS),
    _route('PUT', NODE + '/states/boot_mode', 'Set the boot mode',
           status=202, body=node_schema.BOOT_MODE_BODY,
           since=versions.CHANGE_BOOT_MODE),
    _route('PUT', NODE + '/states/secure_boot',
           'Turn secure boot on or off', status=202,
           body=node_schema.SECURE_BOOT_BODY,
           since=versions.CHANGE_BOOT_MODE),
    _route('GET', NODE + '/history', 'The history of a node',
           query=['detail', 'marker', 'limit', 'sort_dir'],
           since=versions.NODE_HISTORY),
    _route('GET', NODE + '/history/{event}', 'One event of a node\'s '
           'history', since=versions.NODE_HISTORY),
    _route('GET', NODE + '/children', 'The UUIDs of a node\'s child '
           'nodes', since=versions.PARENT_CHILD_NODES),
    _route('GET', NODE + '/firmware', 'The firmware components of a '
           'node', query=['fields'], since=versions.FIRMWARE_INTERFACE),
    _route('GET', NODE + '/vmedia', 'The virtual media devices of a node',
           since=versions.VMEDIA_GET, response=ARRAY),
    _route('POST', NODE + '/vmedia', 'Attach virtual media to a node',
           status=204, body=node_vmedia_ctl.BODY, since=versions.VMEDIA),
    _route('DELETE', NODE + '/vmedia', 'Detach virtual media from a node',
           status=204, query=['device_types'], since=versions.VMEDIA),
    _route('GET', '/v1/shards', 'The shards and their node counts',
           since=versions.NODE_SHARD),
    _route('GET', NODE + '/inventory', 'The inventory a node\'s agent '
           'gave at its last inspection', since=versions.NODE_INVENTORY),
    _route('GET', NODE + '/bios', 'The BIOS settings of a node',
           query=['detail', 'fields'], since=versions.BIOS_INTERFACE),
    _route('GET', NODE + '/bios/{setting_name}', 'One BIOS setting of a '
           'node', since=versions.BIOS_INTERFACE),
    _route('PUT', NODE + '/maintenance', 'Set maintenance', status=202,
           query=['reason'], body=node_schema.MAINTENANCE_BODY,
           body_required=False),
    _route('DELETE', NODE + '/maintenance', 'Clear maintenance',
           status=202),
    _route('GET', NODE + '/traits', 'List the traits of a node',
           since=versions.TRAITS),
    _route('PUT', NODE + '/traits', 'Replace the traits of a node',
           status=204, body=node_schema.TRAITS_BODY, since=versions.TRAITS),
    _route('DELETE', NODE + '/traits', 'Remove every trait of a node',
           status=204, since=versions.TRAITS),
    _route('PUT', NODE + '/traits/{trait}', 'Add a trait', status=204,
           since=versions.TRAITS),
    _route('DELETE', NODE + '/traits/{trait}', 'Remove a trait',
           status=204, since=versions.TRAITS),
    _route('GET', NODE + '/ports', 'List the ports of a node',
           query=port_ctl._LIST_PARAMS),
    _route('GET', NODE + '/ports/detail',
           'List the ports of a node with details',
           query=port_ctl._LIST_PARAMS),
    _route('GET', NODE + '/portgroups', 'List the port groups of a node',
           query=portgroup_ctl.LIST_PARAMS,
           since=portgroup_view.SUBRESOURCES),
    _route('GET', NODE + '/portgroups/detail',
           'List the port groups of a node with details',
           query=portgroup_ctl.LIST_PARAMS,
           since=portgroup_view.SUBRESOURCES),
    _route('GET', NODE + '/allocation', 'The allocation of a node',
           query=_FIELDS, since=versions.ALLOCATIONS),
    _route('DELETE', NODE + '/allocation', 'Delete the allocation of a '
           'node', status=204, since=versions.ALLOCATIONS),
    _route('GET', NODE + '/vifs', 'List the VIFs attached to a node',
           since=node_vifs_ctl.VIFS),
    _route('POST', NODE + '/vifs', 'Attach a VIF to a node', status=204,
           body=node_vifs_schema.ATTACH_BODY, since=node_vifs_ctl.VIFS),
    _route('DELETE', NODE + '/vifs/{node_vif_ident}',
           'Detach a VIF from a node', status=204,
           since=node_vifs_ctl.VIFS),
    _route('GET', NODE + '/vendor_passthru/methods',
           'The vendor passthru methods of a node'),
    *[_route(verb, NODE + '/vendor_passthru', 'Call a vendor passthru '
             'method of a node (202 when it is asynchronous)',
             query=['method'], body=node_schema.VENDOR_PASSTHRU_BODY,
             body_required=False)
      for verb in _PASSTHRU_VERBS],
    *[_route(verb, NODE + '/vendor_passthru/{method_name}', 'Call a '
             'vendor passthru method of a node, named in the path',
             body=node_schema.VENDOR_PASSTHRU_BODY, body_required=False)
      for verb in _PASSTHRU_VERBS],
    _route('POST', NODE + '/vendor_passthru/heartbeat',
           'Agent heartbeat (vendor passthru form)', status=202,
           body=_PASSTHRU_HEARTBEAT_BODY, public=True),
    # -- ports
    _route('GET', '/v1/ports', 'List ports',
           query=port_ctl._LIST_PARAMS + port_ctl._FILTER_PARAMS),
    _route('GET', '/v1/ports/detail', 'List ports with details',
           query=port_ctl._LIST_PARAMS + port_ctl._FILTER_PARAMS),
    _route('POST', '/v1/ports', 'Create a port', status=201,
           body=port_schema.CREATE_BODY),
    _route('GET', PORT, 'Show a port', query=_FIELDS),
    _route('PATCH', PORT, 'Change a port (JSON patch)',
           body=common_schema.JSON_PATCH,
           patch_fields=port_schema.FIELD_BODIES),
    _route('DELETE', PORT, 'Delete a port', status=204),
    # -- port groups
    _route('GET', '/v1/portgroups', 'List port groups',
           query=portgroup_ctl.LIST_PARAMS + portgroup_ctl.FILTER_PARAMS,
           since=portgroup_view.PORTGROUPS),
    _route('GET', '/v1/portgroups/detail', 'List port groups with details',
           query=portgroup_ctl.LIST_PARAMS + portgroup_ctl.FILTER_PARAMS,
           since=portgroup_view.PORTGROUPS),
    _route('POST', '/v1/portgroups', 'Create a port group', status=201,
           body=portgroup_schema.CREATE_BODY,
           since=portgroup_view.PORTGROUPS),
    _route('GET', PORTGROUP, 'Show a port group (by UUID or name)',
           query=_FIELDS, since=portgroup_view.PORTGROUPS),
    _route('PATCH', PORTGROUP, 'Change a port group (JSON patch)',
           body=common_schema.JSON_PATCH,
           patch_fields=portgroup_schema.FIELD_BODIES,
           since=portgroup_view.PORTGROUPS),
    _route('DELETE', PORTGROUP, 'Delete a port group (400 if it has '
           'ports)', status=204, since=portgroup_view.PORTGROUPS),
    _route('GET', PORTGROUP + '/ports', 'List the ports of a port group',
           query=port_ctl._LIST_PARAMS, since=portgroup_view.SUBRESOURCES),
    _route('GET', PORTGROUP + '/ports/detail',
           'List the ports of a port group with details',
           query=port_ctl._LIST_PARAMS, since=portgroup_view.SUBRESOURCES),
    # -- volume connectors and targets
    _route('GET', '/v1/volume', 'Links to the volume connectors and targets',
           since=volume_ctl.VOLUME),
    _route('GET', '/v1/volume/connectors', 'List volume connectors',
           query=volume_ctl.LIST_PARAMS + volume_ctl.FILTER_PARAMS,
           since=volume_ctl.VOLUME),
    _route('POST', '/v1/volume/connectors', 'Create a volume connector',
           status=201, body=volume_schema.CONNECTOR_CREATE_BODY,
           since=volume_ctl.VOLUME),
    _route('GET', VOLUME_CONNECTOR, 'Show a volume connector',
           query=_FIELDS, since=volume_ctl.VOLUME),
    _route('PATCH', VOLUME_CONNECTOR, 'Change a volume connector (JSON '
           'patch; node powered off)', body=common_schema.JSON_PATCH,
           patch_fields=volume_schema.CONNECTOR_FIELD_BODIES,
           since=volume_ctl.VOLUME),
    _route('DELETE', VOLUME_CONNECTOR, 'Delete a volume connector (node '
           'powered off, or enroll, manageable or adopt failed)',
           status=204, since=volume_ctl.VOLUME),
    _route('GET', '/v1/volume/targets', 'List volume targets',
           query=volume_ctl.LIST_PARAMS + volume_ctl.FILTER_PARAMS,
           since=volume_ctl.VOLUME),
    _route('POST', '/v1/volume/targets', 'Create a volume target',
           status=201, body=volume_schema.TARGET_CREATE_BODY,
           since=volume_ctl.VOLUME),
    _route('GET', VOLUME_TARGET, 'Show a volume target', query=_FIELDS,
           since=volume_ctl.VOLUME),
    _route('PATCH', VOLUME_TARGET, 'Change a volume target (JSON patch; '
           'node powered off)', body=common_schema.JSON_PATCH,
           patch_fields=volume_schema.TARGET_FIELD_BODIES,
           since=volume_ctl.VOLUME),
    _route('DELETE', VOLUME_TARGET, 'Delete a volume target (node powered '
           'off, or enroll, manageable or adopt failed)', status=204,
           since=volume_ctl.VOLUME),
    _route('GET', NODE + '/volume', 'Links to the volume connectors and '
           'targets of a node', since=volume_ctl.VOLUME),
    _route('GET', NODE + '/volume/connectors',
           'List the volume connectors of a node',
           query=volume_ctl.LIST_PARAMS, since=volume_ctl.VOLUME),
    _route('GET', NODE + '/volume/targets',
           'List the volume targets of a node',
           query=volume_ctl.LIST_PARAMS, since=volume_ctl.VOLUME),
    # -- chassis
    _route('GET', '/v1/chassis', 'List chassis',
           query=chassis_ctl.LIST_PARAMS),
    _route('GET', '/v1/chassis/detail', 'List chassis with details',
           query=chassis_ctl.LIST_PARAMS),
    _route('POST', '/v1/chassis', 'Create a chassis', status=201,
           body=chassis_schema.CREATE_BODY),
    _route('GET', CHASSIS, 'Show a chassis', query=_FIELDS),
    _route('PATCH', CHASSIS, 'Change a chassis (JSON patch)',
           body=common_schema.JSON_PATCH,
           patch_fields=chassis_schema.FIELD_BODIES),
    _route('DELETE', CHASSIS, 'Delete a chassis (400 if it has nodes)',
           status=204),
    _route('GET', CHASSIS + '/nodes', 'List the nodes of a chassis',
           query=node_ctl.CHASSIS_NODES_PARAMS),
    _route('GET', CHASSIS + '/nodes/detail',
           'List the nodes of a chassis with details',
           query=node_ctl.CHASSIS_NODES_PARAMS),
    # -- allocations
    _route('GET', '/v1/allocations', 'List allocations',
           query=allocation_ctl.LIST_PARAMS, since=versions.ALLOCATIONS),
    _route('POST', '/v1/allocations', 'Create an allocation', status=201,
           body=allocation_schema.CREATE_BODY, since=versions.ALLOCATIONS),
    _route('GET', ALLOCATION, 'Show an allocation', query=_FIELDS,
           since=versions.ALLOCATIONS),
    _route('PATCH', ALLOCATION, 'Change an allocation (JSON patch)',
           body=common_schema.JSON_PATCH,
           patch_fields=allocation_schema.FIELD_BODIES,
           since=versions.ALLOCATION_UPDATE),
    _route('DELETE', ALLOCATION, 'Delete an allocation', status=204,
           since=versions.ALLOCATIONS),
    # -- deploy templates
    _route('GET', '/v1/deploy_templates', 'List deploy templates',
           query=deploy_template_ctl.LIST_PARAMS,
           since=deploy_template_view.DEPLOY_TEMPLATES),
    _route('POST', '/v1/deploy_templates', 'Create a deploy template',
           status=201, body=deploy_template_schema.CREATE_BODY,
           since=deploy_template_view.DEPLOY_TEMPLATES),
    _route('GET', DEPLOY_TEMPLATE, 'Show a deploy template', query=_FIELDS,
           since=deploy_template_view.DEPLOY_TEMPLATES),
    _route('PATCH', DEPLOY_TEMPLATE, 'Change a deploy template (JSON patch)',
           body=common_schema.JSON_PATCH,
           patch_fields=deploy_template_schema.FIELD_BODIES,
           since=deploy_template_view.DEPLOY_TEMPLATES),
    _route('DELETE', DEPLOY_TEMPLATE, 'Delete a deploy template',
           status=204, since=deploy_template_view.DEPLOY_TEMPLATES),
    # -- inspection rules
    _route('GET', '/v1/inspection_rules', 'List inspection rules',
           query=inspection_rule_ctl.LIST_PARAMS,
           since=versions.INSPECTION_RULES),
    _route('POST', '/v1/inspection_rules', 'Create an inspection rule',
           status=201, body=inspection_rule_schema.CREATE_BODY,
           since=versions.INSPECTION_RULES),
    _route('GET', INSPECTION_RULE, 'Show an inspection rule',
           query=_FIELDS, since=versions.INSPECTION_RULES),
    _route('PATCH', INSPECTION_RULE, 'Change an inspection rule (JSON '
           'patch)', body=common_schema.JSON_PATCH,
           patch_fields=inspection_rule_schema.FIELD_BODIES,
           since=versions.INSPECTION_RULES),
    _route('DELETE', '/v1/inspection_rules', 'Delete all inspection '
           'rules (the built-in ones stay)', status=204,
           since=versions.INSPECTION_RULES),
    _route('DELETE', INSPECTION_RULE, 'Delete an inspection rule',
           status=204, since=versions.INSPECTION_RULES),
    # -- runbooks
    _route('GET', '/v1/runbooks', 'List runbooks',
           query=runbook_ctl.LIST_PARAMS, since=versions.RUNBOOKS),
    _route('POST', '/v1/runbooks', 'Create a runbook', status=201,
           body=runbook_schema.CREATE_BODY, since=versions.RUNBOOKS),
    _route('GET', RUNBOOK, 'Show a runbook', query=_FIELDS,
           since=versions.RUNBOOKS),
    _route('PATCH', RUNBOOK, 'Change a runbook (JSON patch)',
           body=common_schema.JSON_PATCH,
           patch_fields=runbook_schema.FIELD_BODIES,
           since=versions.RUNBOOKS),
    _route('DELETE', RUNBOOK, 'Delete a runbook', status=204,
           since=versions.RUNBOOKS),
    _route('GET', RUNBOOK + '/traits', 'The traits a runbook is approved '
           'for', since=versions.RUNBOOK_TRAITS),
    _route('PUT', RUNBOOK + '/traits', 'Replace a runbook\'s traits',
           status=204, body=runbook_schema.TRAITS_BODY,
           since=versions.RUNBOOK_TRAITS),
    _route('DELETE', RUNBOOK + '/traits', 'Remove all of a runbook\'s '
           'traits', status=204, since=versions.RUNBOOK_TRAITS),
    _route('PUT', RUNBOOK + '/traits/{trait}', 'Add a trait to a runbook',
           status=204, since=versions.RUNBOOK_TRAITS),
    _route('DELETE', RUNBOOK + '/traits/{trait}', 'Remove a trait from a '
           'runbook', status=204, since=versions.RUNBOOK_TRAITS),
    # -- events from the networking service
    _route('POST', '/v1/events', 'Report network events', status=204,
           body=event_schema.CREATE_BODY, since=event_ctl.EVENTS),
    # -- conductors and drivers
    _route('GET', '/v1/conductors', 'List conductors',
           query=conductor_ctl._LIST_PARAMS, since=versions.CONDUCTORS),
    _route('GET', '/v1/conductors/{hostname}', 'Show a conductor',
           query=_FIELDS, since=versions.CONDUCTORS),
    _route('GET', '/v1/drivers', 'List drivers',
           query=['type', 'detail', 'fields']),
    _route('GET', '/v1/drivers/{driver_name}', 'Show a driver',
           query=_FIELDS),
    _route('GET', '/v1/drivers/{driver_name}/properties',
           'The properties of a driver'),
    _route('GET', '/v1/drivers/{driver_name}/raid/logical_disk_properties',
           'The properties of a logical disk in a target RAID '
           'configuration', since=versions.RAID_CONFIG),
    _route('GET', '/v1/drivers/{driver_name}/vendor_passthru/methods',
           'The vendor passthru methods of a driver'),
    *[_route(verb, '/v1/drivers/{driver_name}/vendor_passthru',
             'Call a vendor passthru method of a driver (202 when it is '
             'asynchronous)', query=['method'],
             body=node_schema.VENDOR_PASSTHRU_BODY, body_required=False)
      for verb in _PASSTHRU_VERBS],
    *[_route(verb, '/v1/drivers/{driver_name}/vendor_passthru/'
             '{method_name}', 'Call a vendor passthru method of a driver, '
             'named in the path', body=node_schema.VENDOR_PASSTHRU_BODY,
             body_required=False)
      for verb in _PASSTHRU_VERBS],
    _route('POST', '/v1/drivers/{driver_name}/vendor_passthru/lookup',
           'Agent lookup (vendor passthru form)',
           body=_PASSTHRU_LOOKUP_BODY, public=True),
    # -- the agent's
    _route('GET', '/v1/lookup', 'Agent lookup',
           query=['addresses', 'node_uuid'], public=True,
           since=versions.AGENT_LOOKUP),
    _route('POST', '/v1/heartbeat/{node_ident}', 'Agent heartbeat',
           status=202, body=_HEARTBEAT_BODY, body_required=False,
           public=True, since=versions.AGENT_LOOKUP),
    # 1.84, and 1.1 for ironic-inspector's agents (404 in between).
    _route('POST', '/v1/continue_inspection', 'The inventory of an '
           'inspecting agent', status=202, query=['node_uuid'],
           body=inspection_callback.BODY, public=True),
    # -- boot sessions (BOS v2's shape; no microversion)
    _route('GET', BOOT, 'The boot sessions API version'),
    _route('GET', BOOT + '/sessiontemplates', 'List session templates',
           response=ARRAY),
    _route('GET', BOOT_TEMPLATE, 'Show a session template'),
    _route('PUT', BOOT_TEMPLATE, 'Create or replace a session template',
           body=boot_schema.TEMPLATE_BODY),
    _route('PATCH', BOOT_TEMPLATE, 'Change a session template (merged)',
           body=boot_schema.TEMPLATE_PATCH_BODY),
    _route('DELETE', BOOT_TEMPLATE, 'Delete a session template',
           status=204),
    _route('GET', BOOT + '/sessiontemplatesvalid/{template_name}',
           'Validate a session template ("Valid" or the messages)',
           response=STRING),
    _route('GET', BOOT + '/sessiontemplatetemplate',
           'An example session template'),
    _route('GET', BOOT + '/sessions', 'List sessions',
           query=boot_sessions.FILTER_PARAMS, response=ARRAY),
    _route('POST', BOOT + '/sessions', 'Create a session', status=201,
           body=boot_schema.SESSION_BODY),
    _route('DELETE', BOOT + '/sessions',
           'Delete the sessions the filters select', status=204,
           query=boot_sessions.FILTER_PARAMS),
    _route('POST', BOOT + '/sessions/preview',
           'What a session would act on (changes nothing)',
           body=boot_schema.SESSION_BODY),
    _route('GET', BOOT_SESSION, 'Show a session'),
    _route('DELETE', BOOT_SESSION, 'Delete a session record', status=204),
    _route('GET', BOOT_SESSION + '/status', 'The extended status of a '
           'session'),
    _route('POST', BOOT_SESSION + '/abort', 'Abort a session'),
    _route('GET', BOOT + '/components', 'List components',
           query=boot_components.LIST_PARAMS, response=ARRAY),
    _route('PATCH', BOOT + '/components',
           'Change components (records with ids, or a patch and filters)',
           query=['skip_bad_ids'], body=boot_schema.COMPONENTS_PATCH_BODY,
           response=ARRAY),
    _route('PUT', BOOT + '/components', 'Replace components (records with '
           'ids)', body=boot_schema.COMPONENTS_PUT_BODY, response=ARRAY),
    _route('GET', BOOT_COMPONENT, 'Show a component'),
    _route('PATCH', BOOT_COMPONENT, 'Change a component',
           body=boot_schema.COMPONENT_BODY),
    _route('PUT', BOOT_COMPONENT, 'Replace a component',
           body=boot_schema.COMPONENT_BODY),
    _route('POST', BOOT_COMPONENT + '/report',
           'The booted OS reports its referral token', status=204,
           body=boot_schema.REPORT_BODY, public=True),
    _route('POST', BOOT + '/applystaged',
           'Start the sessions staged on components',
           body=boot_schema.APPLYSTAGED_BODY),
    _route('GET', BOOT + '/options', 'The boot options in force'),
    _route('PATCH', BOOT + '/options', 'Set boot options',
           body=boot_schema.OPTIONS_BODY),
    # -- host OS configuration (Mirantis's shapes; no microversion)
    _route('GET', HOSTOS, 'The host OS configuration API version'),
    _route('GET', HOSTOS + '/modules', 'List module versions',
           query=hostos_modules.LIST_PARAMS),
    _route('POST', HOSTOS + '/modules',
           'Register a module version (verified asynchronously)',
           status=202, body=hostos_schema.MODULE_BODY),
    _route('GET', HOSTOS_MODULE, 'List the versions of a module'),
    _route('GET', HOSTOS_VERSION, 'Show a module version'),
    _route('PATCH', HOSTOS_VERSION,
           'Change a module version (JSON patch; description only)',
           body=common_schema.JSON_PATCH,
           patch_fields=hostos_schema.MODULE_FIELD_BODIES),
    _route('DELETE', HOSTOS_VERSION, 'Delete an unused module version',
           status=204),
    _route('GET', HOSTOS + '/configurations', 'List configurations',
           query=hostos_configurations.LIST_PARAMS),
    _route('POST', HOSTOS + '/configurations', 'Create a configuration',
           status=201, body=hostos_schema.CONFIGURATION_BODY),
    _route('GET', HOSTOS_CONFIGURATION,
           'Show a configuration with its node counts'),
    _route('PATCH', HOSTOS_CONFIGURATION,
           'Change a configuration (JSON patch)',
           body=common_schema.JSON_PATCH,
           patch_fields={
               name: hostos_schema.CONFIGURATION_BODY
               for name in hostos_schema.CONFIGURATION_PATCH_FIELDS}),
    _route('DELETE', HOSTOS_CONFIGURATION,
           'Delete a configuration (deleting until every node dropped its '
           'items; 204 when none holds any)', status=202),
    _route('GET', HOSTOS_CONFIGURATION + '/nodes',
           'The state of a configuration\'s items on each node',
           query=hostos_configurations.NODES_PARAMS),
    _route('POST', HOSTOS_CONFIGURATION + '/reapply',
           'Run the items of a configuration again', status=202,
           body=hostos_schema.REAPPLY_BODY, body_required=False),
    _route('POST', HOSTOS_CONFIGURATION + '/resume',
           'Lift the pause of a configuration\'s rollout'),
    _route('POST', HOSTOS_HEARTBEAT,
           'Host agent heartbeat (its token authenticates it)',
           body=hostos_schema.HEARTBEAT_BODY, public=True),
    _route('DELETE', HOSTOS + '/agents/{node_ident}',
           'Reset the host agent token of a node', status=204),
    # -- accelerators (read-only; no microversion)
    _route('GET', ACCELERATORS, 'The accelerators API version'),
    _route('GET', ACCELERATORS + '/devices', 'List accelerator devices',
           query=accelerators_ctl.DEVICE_PARAMS),
    _route('GET', ACCELERATORS + '/devices/{device_uuid}',
           'Show an accelerator device'),
    _route('GET', ACCELERATORS + '/deployables', 'List deployables',
           query=accelerators_ctl.DEPLOYABLE_PARAMS),
    _route('GET', ACCELERATORS + '/deployables/{deployable_uuid}',
           'Show a deployable'),
    _route('GET', ACCELERATORS + '/attach_handles', 'List attach handles',
           query=accelerators_ctl.ATTACH_HANDLE_PARAMS),
    _route('GET', ACCELERATORS + '/attach_handles/{attach_handle_uuid}',
           'Show an attach handle'),
    _route('GET', NODE + '/accelerators',
           'The accelerators of a node: devices, deployables, attach '
           'handles, attachments, traits with total and free counts'),
    _route('POST', NODE + '/accelerators/discover',
           'Take the inventory of a node\'s accelerators from its agent '
           'now (409 when no agent is up)', status=202),
)
