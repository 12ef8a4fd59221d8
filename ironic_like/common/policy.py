"""Access policy: oslo.policy rules with their defaults in code.

The defaults follow Ironic's secure RBAC. Three roles (reader < member <
admin) in two scopes:

* System scope (a token scoped to ``system: all``) is the deployment's
  operators: a system reader sees everything, a system member also
  operates and changes every node, and only a system admin enrols and
  deletes nodes and wires ports. Conductors, drivers and unfiltered lists
  need system scope.
* Project scope is a tenant: its readers see the nodes whose owner or
  lessee is their project; its members (and its admins, who get nothing
  more: an admin of a project is not an admin of the cloud) operate the
  nodes their project owns, power and provisioning, and allocate them.
  Another project's node is not found (404).
* A service user (the ``service`` role in the project named by
  ``[DEFAULT]rbac_service_project_name``), such as Nova's, acts as a system
  member while ``[DEFAULT]rbac_service_role_elevated_access`` is on; the
  ``service`` role in any other project acts on the nodes that project
  owns, as a member would.

Operators override any rule in the policy file named by oslo.policy's
usual [oslo_policy] options; ``"admin": "role:admin"`` there gives back the
old behaviour where any project's admin was a cloud admin.

The role checks also accept the higher roles, so a deployment whose tokens
do not carry implied roles still works.
"""

import sys
import time

from oslo_config import cfg
from oslo_log import log
from oslo_policy import policy

from ironic_like.common import exception
from ironic_like.common import policy_checks
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

_ENFORCER = None

# A node without an owner must never match a user without a project:
# oslo.policy compares both as strings, and str(None) == str(None).
NO_PROJECT = '<none>'

# Key of the policy target holding [DEFAULT]rbac_service_project_name (the
# name Ironic's rules use).
SERVICE_PROJECT_KEY = 'config.service_project_name'

_SCOPES = ['system', 'project']

_BASE_RULES = [
    policy.RuleDefault('reader', 'role:reader or role:member or role:admin',
                       description='Any role that may read, in the scope '
                                   'of the token.'),
    policy.RuleDefault('member', 'role:member or role:admin',
                       description='Any role that may operate, in the '
                                   'scope of the token.'),
    policy.RuleDefault('admin', 'role:admin and system_scope:all',
                       description='Administrator of the whole deployment '
                                   '(system scope). An admin of a project '
                                   'is not one; "role:admin" here makes '
                                   'every project\'s admin a cloud admin, '
                                   'as before secure RBAC.'),
    policy.RuleDefault('service_role',
                       'role:service and '
                       'project_name:%(' + SERVICE_PROJECT_KEY + ')s',
                       description='A service user (such as Nova\'s) of '
                                   'the service project; matches only '
                                   'while [DEFAULT]rbac_service_role_'
                                   'elevated_access is on.'),
    policy.RuleDefault('system_service', 'role:service and system_scope:all',
                       description='A service user with a system-scoped '
                                   'token.'),
    policy.RuleDefault('system_reader',
                       '(rule:reader and system_scope:all) or '
                       'rule:system_service or rule:service_role',
                       description='Reader of the whole deployment.'),
    policy.RuleDefault('system_member',
                       '(rule:member and system_scope:all) or '
                       'rule:system_service or rule:service_role',
                       description='Operator of the whole deployment.'),
    policy.RuleDefault('owner_reader',
                       '(rule:reader or role:service) and '
                       'project_id:%(node.owner)s',
                       description='Reader (or service user) in the project '
                                   'owning the node.'),
    policy.RuleDefault('lessee_reader',
                       'rule:reader and project_id:%(node.lessee)s',
                       description='Reader in the project leasing the '
                                   'node.'),
    policy.RuleDefault('owner_member',
                       '(rule:member or role:service) and '
                       'project_id:%(node.owner)s',
                       description='Member (or service user) of the project '
                                   'owning the node; a project admin is '
                                   'one too.'),
    policy.RuleDefault('allocation_owner_reader',
                       'rule:reader and project_id:%(allocation.owner)s',
                       description='Reader in the project owning the '
                                   'allocation.'),
    policy.RuleDefault('allocation_owner_member',
                       'rule:member and project_id:%(allocation.owner)s',
                       description='Member of the project owning the '
                                   'allocation.'),
]

# Every API rule starts with "rule:admin or", so that overriding "admin"
# alone changes who is a cloud administrator everywhere.
_ANY_READER = 'rule:admin or rule:reader or role:service'
_NODE_READER = ('rule:admin or rule:system_reader or rule:owner_reader or '
                'rule:lessee_reader')
_ALL_READER = 'rule:admin or rule:system_reader'
_NODE_OPERATOR = 'rule:admin or rule:system_member or rule:owner_member'
_SYSTEM_MEMBER = 'rule:admin or rule:system_member'
# Ironic's SYSTEM_OR_PROJECT_MEMBER: also the members of the project
# owning or leasing the node.
_PROJECT_MEMBER = (_SYSTEM_MEMBER + ' or (rule:member and '
                   '(project_id:%(node.owner)s or '
                   'project_id:%(node.lessee)s))')
# Ironic's SYSTEM_MEMBER_OR_OWNER_ADMIN: the owner's admins, managers and
# service users, not its plain members.
_OWNER_ADMIN_OPERATOR = ('rule:admin or rule:system_member or '
                         '((role:admin or role:manager or role:service) '
                         'and project_id:%(node.owner)s)')
_LESSEE_MEMBER = ' or (rule:member and project_id:%(node.lessee)s)'
_SYSTEM_ADMIN = 'rule:admin or rule:system_service'
_ADMIN = 'rule:admin'
# Ironic's volume rules: creation and deletion by the operators of the
# deployment and the admins or managers of the project owning or leasing
# the node (or the owner's service user); changes also by the owner's
# members.
_VOLUME_ADMIN = ('rule:admin or rule:system_member or '
                 '((role:admin or role:manager) and '
                 '(project_id:%(node.owner)s or project_id:%(node.lessee)s))'
                 ' or (role:service and project_id:%(node.owner)s)')
_VOLUME_OPERATOR = (_NODE_OPERATOR + ' or ((role:admin or role:manager) '
                    'and project_id:%(node.lessee)s)')
# Ironic's SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN (VIFs, instance_info):
# operators of the node, and also the admin or manager of the project
# leasing it (the lessee's instance gets the VIFs).
_LESSEE_ADMIN_OPERATOR = (_NODE_OPERATOR + ' or (role:admin and '
                          'project_id:%(node.lessee)s) or (role:manager and '
                          'project_id:%(node.lessee)s)')
# Ironic's events rule: the networking service (a service user, such as
# Neutron's agent) or a cloud administrator.
_EVENT_POSTER = 'rule:admin or rule:system_service or rule:service_role'
# Ironic's runbook rules: a runbook owned by a project is read by its
# readers and changed, deleted and used by its managers (a project admin
# is one); any service user may too, as in Ironic.
_RUNBOOK_OWNER = ' and project_id:%(runbook.owner)s)'
_RUNBOOK_READER = ('rule:admin or rule:system_reader or (rule:reader'
                   + _RUNBOOK_OWNER + ' or role:service')
_RUNBOOK_ADMIN = ('rule:admin or rule:system_member or '
                  '((role:manager or role:admin)' + _RUNBOOK_OWNER
                  + ' or role:service')
_RUNBOOK_CREATOR = ('rule:admin or rule:system_member or role:manager or '
                    'role:admin or role:service')


def _op(name, check_str, description, operations):
    return policy.DocumentedRuleDefault(
        name=name, check_str=check_str, description=description,
        operations=[{'path': path, 'method': method}
                    for method, path in operations],
        scope_types=_SCOPES)


_NODE = '/nodes/{node_ident}'
_PORTGROUP = '/portgroups/{portgroup_ident}'
_VOLUME_CONNECTOR = '/volume/connectors/{volume_connector_id}'
_VOLUME_TARGET = '/volume/targets/{volume_target_id}'
_CHASSIS = '/chassis/{chassis_uuid}'
_BOOT_TEMPLATE = '/boot/sessiontemplates/{template_name}'
_BOOT_SESSION = '/boot/sessions/{session_name}'
_BOOT_COMPONENT = '/boot/components/{node_ident}'
_HOSTOS_MODULE = '/hostos/modules/{module_name}'
_HOSTOS_VERSION = _HOSTOS_MODULE + '/{module_version}'
_HOSTOS_CONFIGURATION = '/hostos/configurations/{configuration_name}'
_ACCELERATORS = '/accelerators'
_DEPLOY_TEMPLATE = '/deploy_templates/{deploy_template_ident}'
_RUNBOOK = '/runbooks/{runbook_ident}'
_INSPECTION_RULE = '/inspection_rules/{rule_id}'

_API_RULES = [
    _op('baremetal:node:list', _ANY_READER,
        'List nodes (only those of the project without list_all).',
        [('GET', '/nodes'), ('GET', '/nodes/detail')]),
    _op('baremetal:node:list_all', _ALL_READER,
        'List all nodes, not only those of the project.',
        [('GET', '/nodes')]),
    _op('baremetal:node:get', _NODE_READER, 'Show a node.',
        [('GET', _NODE), ('GET', _NODE + '/states')]),
    _op('baremetal:node:create', _SYSTEM_ADMIN, 'Create a node.',
        [('POST', '/nodes')]),
    # PATCH: one rule per field touched (api/controllers/v1/
    # node_patch_policy.py), Ironic's names and defaults; the fields
    # without one of their own fall under baremetal:node:update.
    _op('baremetal:node:update', _PROJECT_MEMBER,
        'Change the fields of a node that have no rule of their own '
        '(description, maintenance, resource_class...).',
        [('PATCH', _NODE)]),
    _op('baremetal:node:update_extra', _PROJECT_MEMBER,
        'Change a node\'s extra field.', [('PATCH', _NODE)]),
    _op('baremetal:node:update_instance_info', _LESSEE_ADMIN_OPERATOR,
        'Change a node\'s instance_info field.', [('PATCH', _NODE)]),
    _op('baremetal:node:update:driver_info', _NODE_OPERATOR,
        'Change a node\'s driver_info field.', [('PATCH', _NODE)]),
    _op('baremetal:node:update:properties', _NODE_OPERATOR,
        'Change a node\'s properties field.', [('PATCH', _NODE)]),
    _op('baremetal:node:update:chassis_uuid', _ADMIN,
        'Move a node to another chassis.', [('PATCH', _NODE)]),
    _op('baremetal:node:update:instance_uuid', _NODE_OPERATOR,
        'Change a node\'s instance_uuid field.', [('PATCH', _NODE)]),
    _op('baremetal:node:update:lessee', _NODE_OPERATOR,
        'Change a node\'s lessee.', [('PATCH', _NODE)]),
    _op('baremetal:node:update:owner', _SYSTEM_MEMBER,
        'Change a node\'s owner.', [('PATCH', _NODE)]),
    _op('baremetal:node:update_owner_provisioned', _ADMIN,
        'Change the owner of a deployed (active) node; refused with 409 '
        'otherwise.', [('PATCH', _NODE)]),
    _op('baremetal:node:update:driver_interfaces', _OWNER_ADMIN_OPERATOR,
        'Change a node\'s driver or any of its *_interface fields.',
        [('PATCH', _NODE)]),
    _op('baremetal:node:update:network_data', _NODE_OPERATOR,
        'Change a node\'s network_data field.', [('PATCH', _NODE)]),
    _op('baremetal:node:update:conductor_group', _SYSTEM_MEMBER,
        'Move a node to another conductor group.', [('PATCH', _NODE)]),
    _op('baremetal:node:update:name', _NODE_OPERATOR,
        'Rename a node.', [('PATCH', _NODE)]),
    _op('baremetal:node:update:retired', _NODE_OPERATOR,
        'Change a node\'s retired and retired_reason fields.',
        [('PATCH', _NODE)]),
    _op('baremetal:node:update:shard', _ADMIN,
        'Move a node to another shard.', [('PATCH', _NODE)]),
    _op('baremetal:node:update:parent_node', _SYSTEM_MEMBER,
        'Make a node the child of another, or no one\'s child.',
        [('PATCH', _NODE)]),
    _op('baremetal:node:update:disable_power_off', _SYSTEM_ADMIN,
        'Allow or forbid powering a node off (disable_power_off).',
        [('PATCH', _NODE)]),
    _op('baremetal:node:firmware:get', _NODE_READER,
        'Read the firmware components of a node.',
        [('GET', _NODE + '/firmware')]),
    _op('baremetal:node:vmedia:attach', _PROJECT_MEMBER,
        'Attach a virtual media device to a node.',
        [('POST', _NODE + '/vmedia')]),
    _op('baremetal:node:vmedia:detach', _PROJECT_MEMBER,
        'Detach a virtual media device from a node.',
        [('DELETE', _NODE + '/vmedia')]),
    _op('baremetal:node:vmedia:get', _NODE_READER,
        'List the virtual media devices of a node.',
        [('GET', _NODE + '/vmedia')]),
    _op('baremetal:shards:get', _ALL_READER,
        'List the shards and how many nodes each has.',
        [('GET', '/shards')]),
    _op('baremetal:node:disable_cleaning', _ADMIN,
        'Turn automated cleaning of a node off (automated_clean false).',
        [('PATCH', _NODE)]),
    _op('baremetal:node:delete', _ADMIN, 'Delete a node.',
        [('DELETE', _NODE)]),
    # Ironic's self-owned nodes ([api]project_admin_can_manage_own_nodes):
    # a project's admin enrols nodes its project then owns, and deletes
    # them.
    _op('baremetal:node:create:self_owned_node', 'role:admin or role:service',
        'Create a node owned by the project of the requester (a '
        'project-scoped token); tried before baremetal:node:create.',
        [('POST', '/nodes')]),
    _op('baremetal:node:delete:self_owned_node',
        'role:admin and project_id:%(node.owner)s',
        'Delete a node owned by the project of the requester; tried when '
        'baremetal:node:delete refuses.',
        [('DELETE', _NODE)]),
    _op('baremetal:node:set_power_state', _NODE_OPERATOR,
        'Change the power state of a node.',
        [('PUT', _NODE + '/states/power')]),
    _op('baremetal:node:set_provision_state', _NODE_OPERATOR,
        'Change the provision state of a node.',
        [('PUT', _NODE + '/states/provision')]),
    _op('baremetal:node:set_provision_state:service_steps',
        _LESSEE_ADMIN_OPERATOR,
        'Run service steps (arbitrary steps) on an active node.',
        [('PUT', _NODE + '/states/provision')]),
    _op('baremetal:node:set_maintenance', _NODE_OPERATOR,
        'Put a node in maintenance.',
        [('PUT', _NODE + '/maintenance')]),
    _op('baremetal:node:clear_maintenance', _NODE_OPERATOR,
        'Take a node out of maintenance.',
        [('DELETE', _NODE + '/maintenance')]),
    # Driver interfaces of a node: Ironic's names; its defaults (the
    # operators of the node, the readers of it for its BIOS settings).
    _op('baremetal:node:validate', _NODE_OPERATOR,
        'Validate a node\'s driver interfaces.',
        [('GET', _NODE + '/validate')]),
    _op('baremetal:node:get_boot_device', _NODE_OPERATOR,
        'Retrieve a node\'s boot device.',
        [('GET', _NODE + '/management/boot_device')]),
    _op('baremetal:node:get_supported_boot_devices', _NODE_OPERATOR,
        'Retrieve the boot devices a node\'s management interface '
        'supports.',
        [('GET', _NODE + '/management/boot_device/supported')]),
    _op('baremetal:node:set_boot_device', _NODE_OPERATOR,
        'Change a node\'s boot device.',
        [('PUT', _NODE + '/management/boot_device')]),
    _op('baremetal:node:inject_nmi', _NODE_OPERATOR,
        'Inject a non-maskable interrupt into a node.',
        [('PUT', _NODE + '/management/inject_nmi')]),
    _op('baremetal:node:history:get',
        'rule:admin or rule:system_reader or rule:owner_reader',
        'Read the history of a node (its errors and faults).',
        [('GET', _NODE + '/history'),
         ('GET', _NODE + '/history/{event}')]),
    # Ironic's SYSTEM_OR_OWNER_READER: not the lessee.
    _op('baremetal:node:inventory:get',
        'rule:admin or rule:system_reader or rule:owner_reader',
        'Read the inventory a node\'s agent gave at its last inspection.',
        [('GET', _NODE + '/inventory')]),
    # As Ironic's SYSTEM_OR_PROJECT_MEMBER: a lessee's members too.
    _op('baremetal:node:set_boot_mode', _NODE_OPERATOR + _LESSEE_MEMBER,
        'Change the boot mode of a node.',
        [('PUT', _NODE + '/states/boot_mode')]),
    _op('baremetal:node:set_secure_boot', _NODE_OPERATOR + _LESSEE_MEMBER,
        'Turn secure boot of a node on or off.',
        [('PUT', _NODE + '/states/secure_boot')]),
    _op('baremetal:node:get_indicator_state', _NODE_READER,
        'List the indicators of a node\'s components and read their '
        'states.',
        [('GET', _NODE + '/management/indicators'),
         ('GET', _NODE + '/management/indicators/{indicator}')]),
    _op('baremetal:node:set_indicator_state', _NODE_OPERATOR,
        'Set the state of an indicator of a node\'s component.',
        [('PUT', _NODE + '/management/indicators/{indicator}')]),
    _op('baremetal:node:get_console', _NODE_OPERATOR,
        'Get a node\'s console connection information.',
        [('GET', _NODE + '/states/console')]),
    _op('baremetal:node:set_console_state', _NODE_OPERATOR,
        'Enable or disable a node\'s console.',
        [('PUT', _NODE + '/states/console')]),
    _op('baremetal:node:set_raid_state', _NODE_OPERATOR,
        'Set a node\'s target RAID configuration.',
        [('PUT', _NODE + '/states/raid')]),
    _op('baremetal:bios:get', _NODE_READER,
        'Retrieve a node\'s BIOS settings.',
        [('GET', _NODE + '/bios'),
         ('GET', _NODE + '/bios/{setting_name}')]),
    _op('baremetal:node:traits:list', _NODE_READER, 'List node traits.',
        [('GET', _NODE + '/traits')]),
    _op('baremetal:node:traits:set', _SYSTEM_MEMBER,
        'Set or add node traits.',
        [('PUT', _NODE + '/traits'), ('PUT', _NODE + '/traits/{trait}')]),
    _op('baremetal:node:traits:delete', _SYSTEM_MEMBER,
        'Remove node traits.',
        [('DELETE', _NODE + '/traits'),
         ('DELETE', _NODE + '/traits/{trait}')]),
    _op('baremetal:node:vif:list', _NODE_READER,
        'List VIFs attached to node', [('GET', _NODE + '/vifs')]),
    _op('baremetal:node:vif:attach', _LESSEE_ADMIN_OPERATOR,
        'Attach a VIF to a node', [('POST', _NODE + '/vifs')]),
    _op('baremetal:node:vif:detach', _LESSEE_ADMIN_OPERATOR,
        'Detach a VIF from a node',
        [('DELETE', _NODE + '/vifs/{node_vif_ident}')]),
    _op('baremetal:events:post', _EVENT_POSTER,
        'Post events (from the networking service).',
        [('POST', '/events')]),
    _op('baremetal:port:list', _ANY_READER,
        'List ports (only of the project\'s nodes without list_all).',
        [('GET', '/ports'), ('GET', _NODE + '/ports')]),
    _op('baremetal:port:list_all', _ALL_READER,
        'List the ports of all nodes.', [('GET', '/ports')]),
    _op('baremetal:port:get', _NODE_READER, 'Show a port.',
        [('GET', '/ports/{port_id}')]),
    _op('baremetal:port:create', _SYSTEM_ADMIN, 'Create a port.',
        [('POST', '/ports')]),
    _op('baremetal:port:update', _SYSTEM_MEMBER, 'Change a port.',
        [('PATCH', '/ports/{port_id}')]),
    _op('baremetal:port:delete', _SYSTEM_ADMIN, 'Delete a port.',
        [('DELETE', '/ports/{port_id}')]),
    # Port groups: the rules of ports (a group is wiring, as a port is).
    _op('baremetal:portgroup:list', _ANY_READER,
        'List port groups (only of the project\'s nodes without '
        'list_all).',
        [('GET', '/portgroups'), ('GET', '/portgroups/detail'),
         ('GET', _NODE + '/portgroups')]),
    _op('baremetal:portgroup:list_all', _ALL_READER,
        'List the port groups of all nodes.', [('GET', '/portgroups')]),
    _op('baremetal:portgroup:get', _NODE_READER, 'Show a port group.',
        [('GET', _PORTGROUP)]),
    _op('baremetal:portgroup:create', _SYSTEM_ADMIN, 'Create a port group.',
        [('POST', '/portgroups')]),
    _op('baremetal:portgroup:update', _SYSTEM_MEMBER,
        'Change a port group.', [('PATCH', _PORTGROUP)]),
    _op('baremetal:portgroup:delete', _SYSTEM_ADMIN,
        'Delete a port group.', [('DELETE', _PORTGROUP)]),
    # Volume connectors and targets: Ironic's names and defaults. Unlike
    # ports, a project wires its own nodes' storage: the admins and
    # managers of the owning or leasing project create and delete, the
    # owner's members (and the lessee's admins) change.
    _op('baremetal:volume:list', _ANY_READER,
        'List volume connectors and targets (only of the project\'s nodes '
        'without list_all).',
        [('GET', '/volume/connectors'), ('GET', '/volume/targets'),
         ('GET', _NODE + '/volume/connectors'),
         ('GET', _NODE + '/volume/targets')]),
    _op('baremetal:volume:list_all', _ALL_READER,
        'List the volume connectors and targets of all nodes.',
        [('GET', '/volume/connectors'), ('GET', '/volume/targets'),
         ('GET', _NODE + '/volume/connectors'),
         ('GET', _NODE + '/volume/targets')]),
    _op('baremetal:volume:get', _NODE_READER,
        'Show a volume connector or target, and the /volume links.',
        [('GET', '/volume'), ('GET', _NODE + '/volume'),
         ('GET', _VOLUME_CONNECTOR), ('GET', _VOLUME_TARGET)]),
    _op('baremetal:volume:create', _VOLUME_ADMIN,
        'Create a volume connector or target.',
        [('POST', '/volume/connectors'), ('POST', '/volume/targets')]),
    _op('baremetal:volume:update', _VOLUME_OPERATOR,
        'Change a volume connector or target.',
        [('PATCH', _VOLUME_CONNECTOR), ('PATCH', _VOLUME_TARGET)]),
    _op('baremetal:volume:delete', _VOLUME_ADMIN,
        'Delete a volume connector or target.',
        [('DELETE', _VOLUME_CONNECTOR), ('DELETE', _VOLUME_TARGET)]),
    _op('baremetal:volume:view_target_properties',
        'rule:admin or rule:system_reader or role:admin',
        'See the properties of volume targets (connection details, maybe '
        'credentials); others see them redacted.',
        [('GET', '/volume/targets'), ('GET', _VOLUME_TARGET),
         ('GET', _NODE + '/volume/targets')]),
    # Chassis: Ironic's rules (readers of the whole deployment; writes by
    # its admins, changes by its members as for ports).
    _op('baremetal:chassis:get', _ALL_READER,
        'List and show chassis.',
        [('GET', '/chassis'), ('GET', '/chassis/detail'),
         ('GET', _CHASSIS)]),
    _op('baremetal:chassis:create', _SYSTEM_ADMIN, 'Create a chassis.',
        [('POST', '/chassis')]),
    _op('baremetal:chassis:update', _SYSTEM_MEMBER, 'Change a chassis.',
        [('PATCH', _CHASSIS)]),
    _op('baremetal:chassis:delete', _SYSTEM_ADMIN,
        'Delete a chassis (one without nodes).',
        [('DELETE', _CHASSIS)]),
    # Deploy templates: Ironic's rules (readers of the whole deployment;
    # writes by its admins: a template changes every deploy asking for
    # its trait).
    _op('baremetal:deploy_template:get', _ALL_READER,
        'List and show deploy templates.',
        [('GET', '/deploy_templates'), ('GET', _DEPLOY_TEMPLATE)]),
    _op('baremetal:deploy_template:create', _SYSTEM_ADMIN,
        'Create a deploy template.', [('POST', '/deploy_templates')]),
    _op('baremetal:deploy_template:update', _SYSTEM_ADMIN,
        'Change a deploy template.', [('PATCH', _DEPLOY_TEMPLATE)]),
    _op('baremetal:deploy_template:delete', _SYSTEM_ADMIN,
        'Delete a deploy template.', [('DELETE', _DEPLOY_TEMPLATE)]),
    # Inspection rules (1.96): Ironic's rules (readers of the whole
    # deployment; writes by its admins: a rule acts on every node
    # inspected).
    _op('baremetal:inspection_rule:get', _ALL_READER,
        'List and show inspection rules.',
        [('GET', '/inspection_rules'), ('GET', _INSPECTION_RULE)]),
    _op('baremetal:inspection_rule:list_all', _ALL_READER,
        'List all inspection rules (Ironic has the rule; the list needs '
        'only baremetal:inspection_rule:get).',
        [('GET', '/inspection_rules')]),
    _op('baremetal:inspection_rule:create', _SYSTEM_ADMIN,
        'Create an inspection rule.', [('POST', '/inspection_rules')]),
    _op('baremetal:inspection_rule:update', _SYSTEM_ADMIN,
        'Change an inspection rule.', [('PATCH', _INSPECTION_RULE)]),
    _op('baremetal:inspection_rule:delete', _SYSTEM_ADMIN,
        'Delete an inspection rule, or all the stored ones (DELETE on '
        'the collection, as Ironic).',
        [('DELETE', '/inspection_rules'), ('DELETE', _INSPECTION_RULE)]),
    # Runbooks (1.92): Ironic's rules. A project's runbooks are its own;
    # public ones (system-owned) may be read and used by every project.
    _op('baremetal:runbook:get', _RUNBOOK_READER,
        'Show a runbook (public runbooks are shown to anyone who may '
        'list runbooks).', [('GET', _RUNBOOK)]),
    _op('baremetal:runbook:list', _ANY_READER,
        'List runbooks (only the project\'s and the public ones without '
        'list_all).', [('GET', '/runbooks')]),
    _op('baremetal:runbook:list_all', _ALL_READER,
        'List the runbooks of all projects.', [('GET', '/runbooks')]),
    _op('baremetal:runbook:create', _RUNBOOK_CREATOR,
        'Create a runbook (a project\'s own, unless system-scoped).',
        [('POST', '/runbooks')]),
    _op('baremetal:runbook:update', _RUNBOOK_ADMIN, 'Change a runbook.',
        [('PATCH', _RUNBOOK)]),
    _op('baremetal:runbook:update:public', _SYSTEM_MEMBER,
        'Make a runbook public or not.', [('PATCH', _RUNBOOK + '/public')]),
    _op('baremetal:runbook:update:owner', _SYSTEM_MEMBER,
        'Set or unset the owner of a runbook.',
        [('PATCH', _RUNBOOK + '/owner')]),
    _op('baremetal:runbook:delete', _RUNBOOK_ADMIN, 'Delete a runbook.',
        [('DELETE', _RUNBOOK)]),
    _op('baremetal:runbook:use', _RUNBOOK_ADMIN,
        'Clean or service a node with a runbook.',
        [('PUT', _NODE + '/states/provision')]),
    _op('baremetal:allocation:list', _ANY_READER,
        'List allocations (only the project\'s without list_all).',
        [('GET', '/allocations')]),
    _op('baremetal:allocation:list_all', _ALL_READER,
        'List the allocations of all projects.',
        [('GET', '/allocations')]),
    _op('baremetal:allocation:get',
        'rule:admin or rule:system_reader or rule:allocation_owner_reader',
        'Show an allocation.',
        [('GET', '/allocations/{allocation_id}'),
         ('GET', _NODE + '/allocation')]),
    _op('baremetal:allocation:create',
        'rule:admin or rule:system_member or rule:member',
        'Create an allocation (project users: for their own project).',
        [('POST', '/allocations')]),
    _op('baremetal:allocation:create_any_owner', _SYSTEM_MEMBER,
        'Create an allocation for any owner (or none).',
        [('POST', '/allocations')]),
    _op('baremetal:allocation:update',
        'rule:admin or rule:system_member or rule:allocation_owner_member',
        'Change the name or extra of an allocation.',
        [('PATCH', '/allocations/{allocation_id}')]),
    _op('baremetal:allocation:delete',
        'rule:admin or rule:system_member or rule:allocation_owner_member',
        'Delete an allocation and free its node.',
        [('DELETE', '/allocations/{allocation_id}'),
         ('DELETE', _NODE + '/allocation')]),
    # Vendor passthru: admins only, as Ironic's SYSTEM_ADMIN rules.
    _op('baremetal:node:vendor_passthru', _ADMIN,
        'Access vendor-specific Node functions.',
        [('GET', _NODE + '/vendor_passthru/methods')] +
        [(verb, _NODE + '/vendor_passthru?method={method_name}')
         for verb in ('GET', 'PUT', 'POST', 'PATCH', 'DELETE')]),
    _op('baremetal:driver:vendor_passthru', _ADMIN,
        'Access vendor-specific Driver functions.',
        [('GET', '/drivers/{driver_name}/vendor_passthru/methods')] +
        [(verb, '/drivers/{driver_name}/vendor_passthru?method='
                '{method_name}')
         for verb in ('GET', 'PUT', 'POST', 'PATCH', 'DELETE')]),
    _op('baremetal:conductor:get', _ALL_READER, 'List and show conductors.',
        [('GET', '/conductors'), ('GET', '/conductors/{hostname}')]),
    _op('baremetal:driver:get', _ALL_READER, 'List and show drivers.',
        [('GET', '/drivers'), ('GET', '/drivers/{driver_name}')]),
    _op('baremetal:driver:get_properties', _ALL_READER,
        'View the driver_info properties a driver understands.',
        [('GET', '/drivers/{driver_name}/properties')]),
    _op('baremetal:driver:get_raid_logical_disk_properties', _ALL_READER,
        'View the properties of a logical disk in a driver\'s RAID '
        'configuration.',
        [('GET', '/drivers/{driver_name}/raid/logical_disk_properties')]),
    # Boot sessions (/v1/boot, BOS v2's shape). The report of a booted OS
    # (POST /boot/components/{id}/report) is a public route: the referral
    # token issued to the component authenticates it, no rule applies.
    # Readers of the whole fleet only: a component shows its referral
    # token, which is what authenticates the booted OS's reports.
    _op('baremetal:boot:get', _ALL_READER,
        'Read boot sessions: templates, sessions and their status, '
        'components, options; preview a session.',
        [('GET', '/boot'), ('GET', '/boot/sessiontemplates'),
         ('GET', _BOOT_TEMPLATE),
         ('GET', '/boot/sessiontemplatesvalid/{template_name}'),
         ('GET', '/boot/sessiontemplatetemplate'),
         ('GET', '/boot/sessions'), ('POST', '/boot/sessions/preview'),
         ('GET', _BOOT_SESSION), ('GET', _BOOT_SESSION + '/status'),
         ('GET', '/boot/components'), ('GET', _BOOT_COMPONENT),
         ('GET', '/boot/options')]),
    _op('baremetal:boot:write', _ADMIN,
        'Change boot sessions: templates, sessions (create, abort, '
        'delete), components, applystaged, options.',
        [('PUT', _BOOT_TEMPLATE), ('PATCH', _BOOT_TEMPLATE),
         ('DELETE', _BOOT_TEMPLATE), ('POST', '/boot/sessions'),
         ('DELETE', '/boot/sessions'), ('DELETE', _BOOT_SESSION),
         ('POST', _BOOT_SESSION + '/abort'),
         ('PATCH', '/boot/components'), ('PUT', '/boot/components'),
         ('PATCH', _BOOT_COMPONENT), ('PUT', _BOOT_COMPONENT),
         ('POST', '/boot/applystaged'), ('PATCH', '/boot/options')]),
    # Host OS configuration (/v1/hostos). The host agent's heartbeat
    # (POST /hostos/agents/heartbeat) is a public route: the host agent
    # token authenticates it, no rule applies.
    _op('baremetal:hostos:get', _ALL_READER,
        'Read host OS configuration: modules, configurations and the '
        'state of their items on each node.',
        [('GET', '/hostos'), ('GET', '/hostos/modules'),
         ('GET', _HOSTOS_MODULE), ('GET', _HOSTOS_VERSION),
         ('GET', '/hostos/configurations'), ('GET', _HOSTOS_CONFIGURATION),
         ('GET', _HOSTOS_CONFIGURATION + '/nodes')]),
    _op('baremetal:hostos:write', _ADMIN,
        'Change host OS configuration: register, change and delete '
        'modules; create, change, delete, reapply and resume '
        'configurations; reset the host agent token of a node.',
        [('POST', '/hostos/modules'),
         ('PATCH', _HOSTOS_VERSION),
         ('DELETE', _HOSTOS_VERSION),
         ('POST', '/hostos/configurations'),
         ('PATCH', _HOSTOS_CONFIGURATION),
         ('DELETE', _HOSTOS_CONFIGURATION),
         ('POST', _HOSTOS_CONFIGURATION + '/reapply'),
         ('POST', _HOSTOS_CONFIGURATION + '/resume'),
         ('DELETE', '/hostos/agents/{node_ident}')]),
    # Accelerators (/v1/accelerators, doc/accelerators.md). A project
    # reader sees the devices of the nodes its project owns or leases
    # (lists are narrowed to them; another project's are not found).
    _op('baremetal:accelerator:get', _NODE_READER,
        'Read accelerators: devices, deployables and attach handles, and '
        'the accelerators of a node (attachments, traits, discovery).',
        [('GET', _ACCELERATORS),
         ('GET', _ACCELERATORS + '/devices'),
         ('GET', _ACCELERATORS + '/devices/{device_uuid}'),
         ('GET', _ACCELERATORS + '/deployables'),
         ('GET', _ACCELERATORS + '/deployables/{deployable_uuid}'),
         ('GET', _ACCELERATORS + '/attach_handles'),
         ('GET', _ACCELERATORS + '/attach_handles/{attach_handle_uuid}'),
         ('GET', _NODE + '/accelerators')]),
    _op('baremetal:accelerator:discover', _ADMIN,
        'Take the inventory of a node\'s accelerators from its agent now.',
        [('POST', _NODE + '/accelerators/discover')]),
]


def list_policies():
    """Every default rule (the oslo.policy.policies entry point)."""
    return _BASE_RULES + _API_RULES


# Seconds between two looks for the policy file and policy.d on disk.
POLICY_FILE_CHECK_INTERVAL = 5


class _Enforcer(policy.Enforcer):
    """oslo.policy's Enforcer, looking for its files at most every
    POLICY_FILE_CHECK_INTERVAL seconds instead of at every check.

    Without a policy file (the usual case: the defaults are in code) the
    Enforcer searched every config directory for it, and for policy.d,
    at each check: a tenth of an API worker's time under a burst of
    allocations (issue 14). An edited or new file still takes effect,
    within the interval.
    """

    _checked_at = None

    def load_rules(self, force_reload=False):
        now = time.monotonic()
        if (not force_reload and self.rules and self._checked_at is not None
                and now - self._checked_at < POLICY_FILE_CHECK_INTERVAL):
            return
        super().load_rules(force_reload)
        self._checked_at = now

    def clear(self):
        super().clear()
        self._checked_at = None


def get_enforcer():
    """The process's Enforcer, with our defaults registered."""
    global _ENFORCER
    if _ENFORCER is None:
        policy_checks.install()
        enforcer = _Enforcer(cfg.CONF)
        enforcer.register_defaults(list_policies())
        _ENFORCER = enforcer
    return _ENFORCER


def reset():
    """Forget the Enforcer (tests, or after the config changed)."""
    global _ENFORCER
    if _ENFORCER is not None:
        _ENFORCER.clear()
    _ENFORCER = None


def get_oslo_policy_enforcer():
    """Entry point for the oslopolicy-* command line tools.

    They pass their own --namespace/--output-file options, which our
    config does not know, so those are stripped before parsing.
    """
    args = []
    argv = sys.argv[1:]
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        name = arg.lstrip('-').split('=', 1)[0]
        if name in ('namespace', 'output-file', 'output_file'):
            skip = '=' not in arg
            continue
        args.append(arg)
    cfg.CONF(args, project='ironic_like')
    return get_enforcer()


def node_target(node):
    """Policy target of a node (or of a port, with its node)."""
    return {'node.owner': getattr(node, 'owner', None) or NO_PROJECT,
            'node.lessee': getattr(node, 'lessee', None) or NO_PROJECT}


def runbook_target(runbook):
    """Policy target of a runbook."""
    return {'runbook.owner': getattr(runbook, 'owner', None) or NO_PROJECT}


def check(rule, target, context):
    """True if ``context`` passes ``rule`` on ``target``."""
    if (CONF.rbac_service_role_elevated_access
            and CONF.rbac_service_project_name):
        target = dict(target)
        target[SERVICE_PROJECT_KEY] = CONF.rbac_service_project_name
    creds = getattr(context, 'policy_creds', None)
    return get_enforcer().authorize(rule, target,
                                    creds() if creds else context,
                                    do_raise=False)


def authorize(rule, target, context):
    """Raise exception.HTTPForbidden (403) unless the rule passes."""
    if not check(rule, target, context):
        LOG.debug('Policy %s refused for user %s project %s', rule,
                  getattr(context, 'user_id', None),
                  getattr(context, 'project_id', None))
        raise exception.HTTPForbidden(resource=rule)
