"""The API microversions this service speaks, and when each feature came.

Ironic introduced fields, parameters and endpoints one microversion at a
time; clients (openstacksdk, python-ironicclient) rely on exactly those
numbers, so a feature here is gated on Ironic's version for it. A new
feature adds a constant below and raises MAX_VERSION.
"""

# The range a client may ask for. No header means MIN_VERSION.
MIN_VERSION = (1, 1)
MAX_VERSION = (1, 115)

# The only major version; the URL prefix is /v1.
BASE_VERSION = 1

# Features, by the version Ironic introduced them in.
NODE_NAME = (1, 5)
FIELDS_PARAM = (1, 8)
ENROLL_ON_CREATE = (1, 11)
RAID_CONFIG = (1, 12)
ABORT_VERB = (1, 13)
CLEAN_VERB = (1, 15)
ADOPT_VERB = (1, 17)
PORT_INTERNAL_INFO = (1, 18)
PORT_PXE_AND_LLC = (1, 19)
DRIVER_FILTER = (1, 16)
RESOURCE_CLASS = (1, 21)
# /v1/portgroups; then (PORTGROUPS) the node and port group
# sub-resources and ports' portgroup_uuid; then their mode and properties.
PORTGROUPS_API = (1, 23)
PORTGROUPS = (1, 24)
PORTGROUP_MODE = (1, 26)
# A node's VIFs; the networking service's events.
VIFS = (1, 28)
EVENTS = (1, 54)
# A PATCH may take a node out of its chassis.
UNSET_CHASSIS_UUID = (1, 25)
SOFT_POWER = (1, 27)
DYNAMIC_DRIVERS = (1, 30)
NODE_INTERFACES = (1, 31)
# The node interfaces that came apart from the 1.31 set; PUT
# /v1/nodes/{id}/management/inject_nmi; /v1/nodes/{id}/bios.
NETWORK_INTERFACE = (1, 20)
STORAGE_INTERFACE = (1, 33)
RESCUE_INTERFACE = (1, 38)
BIOS_INTERFACE = (1, 40)
INJECT_NMI = (1, 29)
PHYSICAL_NETWORK = (1, 34)
TRAITS = (1, 37)
NODE_FAULT = (1, 42)
DETAIL_PARAM = (1, 43)
DEPLOY_STEP = (1, 44)
RESET_INTERFACES = (1, 45)
CONDUCTOR_GROUP = (1, 46)
AUTOMATED_CLEAN = (1, 47)
PROTECTED = (1, 48)
CONDUCTORS = (1, 49)
OWNER = (1, 50)
DESCRIPTION = (1, 51)
ALLOCATIONS = (1, 52)
PORT_SMARTNIC = (1, 53)
ALLOCATION_UPDATE = (1, 57)
ALLOCATION_BACKFILL = (1, 58)
ALLOCATION_OWNER = (1, 60)
# GET /v1/lookup and POST /v1/heartbeat/{node} (the agent's endpoints).
AGENT_LOOKUP = (1, 22)
# agent_version in a heartbeat.
AGENT_VERSION_HEARTBEAT = (1, 36)
# The node's retired and retired_reason fields (constants here).
RETIRED = (1, 61)
# agent_token in lookup answers and heartbeats.
AGENT_TOKEN = (1, 62)
MANAGE_VERBS = (1, 4)
INSPECTION_TIMES = (1, 6)
# The 'inspect wait' provision state (older clients see 'inspecting').
INSPECT_WAIT = (1, 39)
# 'abort' of 'inspect wait'.
INSPECT_ABORT = (1, 41)
# The rescue and unrescue provision targets, with rescue_password.
RESCUE = (1, 38)
CLEAN_STEP = (1, 7)
# /v1/nodes/{id}/management/indicators.
INDICATORS = (1, 63)
# network_type in a port's local_link_connection.
LLC_NETWORK_TYPE = (1, 64)
# The node's lessee field and ?lessee= filter.
LESSEE = (1, 65)
# The node's network_data field.
NETWORK_DATA = (1, 66)
# port_uuid / portgroup_uuid in a VIF attach.
VIF_ATTACH_PORT = (1, 67)
# agent_verify_ca in a heartbeat.
HEARTBEAT_VERIFY_CA = (1, 68)
# deploy_steps with the active and rebuild targets.
DEPLOY_STEPS_ARG = (1, 69)
# disable_ramdisk with manual cleaning.
CLEAN_DISABLE_RAMDISK = (1, 70)
# Only a signifier: the API has scope-based (system/project) roles.
SCOPED_RBAC = (1, 71)
# agent_status and agent_status_message in a heartbeat.
HEARTBEAT_STATUS = (1, 72)
# The deploy/undeploy aliases of active/deleted.
DEPLOY_VERBS = (1, 73)
# The BIOS registry fields of a setting.
BIOS_REGISTRY = (1, 74)
# The node's boot_mode and secure_boot fields; then (1.76) setting them.
BOOT_MODE = (1, 75)
CHANGE_BOOT_MODE = (1, 76)
# fields= on the drivers list and a driver.
DRIVER_FIELDS = (1, 77)
# /v1/nodes/{id}/history.
NODE_HISTORY = (1, 78)
# An allocation prefers the candidate named as the allocation.
ALLOCATION_NAME_MATCH = (1, 79)
# Project members may create (and delete) nodes their project owns.
SELF_OWNED_NODES = (1, 80)
# /v1/nodes/{id}/inventory.
NODE_INVENTORY = (1, 81)
# The node's shard, the shard and sharded filters, /v1/shards.
NODE_SHARD = (1, 82)
# Child nodes: the parent_node field, the include_children and
# parent_node filters, /v1/nodes/{id}/children.
PARENT_CHILD_NODES = (1, 83)
# POST /v1/continue_inspection: the inventory an inspecting agent posts
# (also at 1.1, as ironic-inspector's drop-in replacement).
CONTINUE_INSPECTION = (1, 84)
# The unhold verb (clean hold, deploy hold).
UNHOLD_VERB = (1, 85)
# The firmware interface and /v1/nodes/{id}/firmware.
FIRMWARE_INTERFACE = (1, 86)
# The service verb, service_steps and the node's service_step.
SERVICE = (1, 87)
# The port's name (and ports looked up by it).
PORT_NAME = (1, 88)
# Attaching and detaching virtual media.
VMEDIA = (1, 89)
# The OVN VTEP switch keys of a port's local_link_connection.
OVN_VTEP = (1, 90)
# A path ending in ".json" means what it says (below: the suffix is taken
# off, and a name is looked up without it, then with it).
JSON_SUFFIX_LITERAL = (1, 91)
# /v1/runbooks and the runbook of a clean or service request.
RUNBOOKS = (1, 92)
# Reading a node's virtual media devices.
VMEDIA_GET = (1, 93)
# A port created with node_ident (the node's UUID or name).
PORT_NODE_IDENT = (1, 94)
# The node's disable_power_off flag.
DISABLE_POWER_OFF = (1, 95)
# /v1/inspection_rules, applied at the end of each inspection.
INSPECTION_RULES = (1, 96)
# The port's description (and the description_contains filter).
PORT_DESCRIPTION = (1, 97)
# JSON patch paths with keys holding "~" or "/" (RFC 6901 escapes).
PATCH_ESCAPED_KEYS = (1, 98)
# The conductor_groups filter of the port and port group lists.
CONDUCTOR_GROUPS_FILTER = (1, 99)
# The port's vendor, then its category.
PORT_VENDOR = (1, 100)
PORT_CATEGORY = (1, 101)
# The port group's physical_network, then its category.
PORTGROUP_PHYSICAL_NETWORK = (1, 102)
PORTGROUP_CATEGORY = (1, 103)
# The node's instance_name (and the instance_name filter).
INSTANCE_NAME = (1, 104)
# The OVN VTEP keys of a local_link_connection are refused again.
OVN_VTEP_REMOVED = (1, 105)
# The shard filter of the port group list.
PORTGROUP_SHARD = (1, 106)
# Only a signifier: X-OpenStack-Request-Id on every answer (it always is).
REQUEST_ID_HEADER = (1, 107)
# disable_ramdisk with the service verb.
SERVICE_DISABLE_RAMDISK = (1, 108)
# The node's health (as its BMC reports it).
NODE_HEALTH = (1, 109)
# abort in "wait call-back": the deploy fails, no cleaning.
DEPLOY_WAIT_ABORT = (1, 110)
# The port's available_for_dynamic_portgroup, the group's
# dynamic_portgroup.
DYNAMIC_PORTGROUP = (1, 111)
# Runbook traits (and descriptions, names not traits).
RUNBOOK_TRAITS = (1, 112)
# The project of a node history event.
NODE_HISTORY_PROJECT = (1, 113)
# The vendor, model and serial number of a firmware component.
FIRMWARE_HARDWARE = (1, 114)
# The states and duration of a node history event.
NODE_HISTORY_STATES = (1, 115)


def to_string(version):
    return '%d.%d' % version


MIN_VERSION_STRING = to_string(MIN_VERSION)
MAX_VERSION_STRING = to_string(MAX_VERSION)
