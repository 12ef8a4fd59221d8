"""Nodes in the API."""

from ironic_like.api import versions as v
from ironic_like.api.views import base
from ironic_like.common import agent_token
from ironic_like.common import current_steps
from ironic_like.common import states
from ironic_like.drivers import base as drivers_base
from ironic_like.drivers import loader

# The interface fields Ironic added apart from the 1.31 set.
INTERFACE_VERSIONS = {
    'network': v.NETWORK_INTERFACE,
    'storage': v.STORAGE_INTERFACE,
    'rescue': v.RESCUE_INTERFACE,
    'bios': v.BIOS_INTERFACE,
    'firmware': v.FIRMWARE_INTERFACE,
}


def interface_since(kind):
    """The version the ``<kind>_interface`` fields appeared in."""
    return INTERFACE_VERSIONS.get(kind, v.NODE_INTERFACES)


def default_interfaces(driver):
    """{kind: default interface} of a hardware type ({} if unknown).

    A node with no interface of its own uses its type's default; showing
    that (as Ironic does) beats showing null. Not cached across requests:
    some defaults follow the [DEFAULT]default_/enabled_<kind>_interface(s)
    options.
    """
    try:
        hw = loader.hardware_type(driver)
    except Exception:
        return {}
    return {kind: hw.default(kind) for kind in drivers_base.INTERFACE_KINDS}


def _interface(kind):
    name = '%s_interface' % kind

    def make(ctx):
        # The defaults of each hardware type, once per request.
        defaults = {}

        def get(node):
            own = getattr(node, name)
            if own:
                return own
            if node.driver not in defaults:
                defaults[node.driver] = default_interfaces(
                    node.driver).get(kind)
            return defaults[node.driver]
        return get
    return base.Field(name, interface_since(kind), [name, 'driver'], make)


def _dict_column(name, since):
    """A JSON column shown as {} when unset, as Ironic shows it."""
    def make(ctx):
        return lambda node: getattr(node, name) or {}
    return base.Field(name, since, [name], make)


def _node_links(sub, since=v.MIN_VERSION):
    def make(ctx):
        root = ctx.base_url
        return lambda node: [
            {'href': '%s/v1/nodes/%s/%s' % (root, node.uuid, sub),
             'rel': 'self'},
            {'href': '%s/nodes/%s/%s' % (root, node.uuid, sub),
             'rel': 'bookmark'},
        ]
    return base.Field(sub, since, ['uuid'], make)


def hide_agent_secrets(info):
    """driver_internal_info with the agent token masked, as Ironic shows
    it (the same dict when it holds none)."""
    if not info or agent_token.TOKEN_KEY not in info:
        return info
    return agent_token.masked(info)


def _driver_internal_info_make(ctx):
    return lambda node: hide_agent_secrets(node.driver_internal_info)


def _step_field(name, version, current):
    """clean_step, deploy_step, service_step: the step the node is at."""
    return base.Field(name, version,
                      ['provision_state', 'driver_internal_info'],
                      lambda ctx: current)


def _traits_make(ctx):
    return lambda node: [t.trait for t in node.traits]


def _allocation_uuid_make(ctx):
    return ctx.allocation_uuid_of


class UuidsOf(object):
    """node -> the UUID of the record its ``id_column`` names (allocation,
    chassis), for the nodes of one response, looked up in one query
    (load, with ``lookup(ids) -> {id: uuid}``) rather than one per node."""

    def __init__(self, lookup, id_column):
        self._lookup = lookup
        self._column = id_column
        self._uuids = {}

    def load(self, nodes):
        column = self._column
        ids = {getattr(n, column, None) for n in nodes} - {None}
        self._uuids = self._lookup(ids) if ids else {}

    def __call__(self, node):
        record_id = getattr(node, self._column)
        if record_id is None:
            return None
        return self._uuids.get(record_id)


class AllocationUuids(UuidsOf):

    def __init__(self, db):
        super().__init__(db.get_allocation_uuids, 'allocation_id')


class ChassisUuids(UuidsOf):

    def __init__(self, db):
        super().__init__(db.get_chassis_uuids, 'chassis_id')


def _no_allocations(node):
    return None


def _no_chassis(node):
    return None


def _chassis_uuid_make(ctx):
    return ctx.chassis_uuid_of


def _provision_state_make(ctx):
    # States newer than the client's version show as their older name
    # ('inspect wait' is 'inspecting' before 1.39, as in Ironic).
    version = getattr(ctx, 'version', v.MAX_VERSION)
    return lambda node: states.shown_state(node.provision_state, version)


def _conductor_make(ctx):
    # The owner on the hash ring, computed in memory (ctx.owner_of).
    return ctx.owner_of


FIELDS = base.registry(
    base.column('uuid'),
    base.column('name', v.NODE_NAME),
    base.column('description', v.DESCRIPTION),
    base.column('driver'),
    base.masked_column('driver_info'),
    # Read-only; holds agent_url and agent_last_heartbeat, and the agent
    # token, which is never shown.
    base.Field('driver_internal_info', v.MIN_VERSION,
               ['driver_internal_info'], _driver_internal_info_make),
    base.masked_column('instance_info'),
    base.column('instance_uuid'),
    base.column('properties'),
    base.column('extra'),
    # Ours: key/value labels (host configuration selects nodes by them).
    base.column('labels'),
    base.column('power_state'),
    base.column('target_power_state'),
    base.Field('provision_state', v.MIN_VERSION, ['provision_state'],
               _provision_state_make),
    base.column('target_provision_state'),
    base.datetime_column('provision_updated_at'),
    base.column('maintenance'),
    base.column('maintenance_reason'),
    base.column('last_error'),
    base.column('reservation'),
    base.column('resource_class', v.RESOURCE_CLASS),
    base.column('conductor_group', v.CONDUCTOR_GROUP),
    base.column('owner', v.OWNER),
    base.column('lessee', v.LESSEE),
    base.column('shard', v.NODE_SHARD),
    base.column('parent_node', v.PARENT_CHILD_NODES),
    _dict_column('network_data', v.NETWORK_DATA),
    base.column('boot_mode', v.BOOT_MODE),
    base.column('secure_boot', v.BOOT_MODE),
    base.Field('traits', v.TRAITS, ['traits'], _traits_make),
    base.Field('conductor', v.CONDUCTORS,
               ['uuid', 'driver', 'conductor_group'], _conductor_make),
    base.Field('allocation_uuid', v.ALLOCATIONS, ['allocation_id'],
               _allocation_uuid_make),
    base.Field('chassis_uuid', v.MIN_VERSION, ['chassis_id'],
               _chassis_uuid_make),
    base.datetime_column('created_at'),
    base.datetime_column('updated_at'),
    *[_interface(kind) for kind in drivers_base.INTERFACE_KINDS],
    base.column('console_enabled'),
    base.datetime_column('inspection_started_at', v.INSPECTION_TIMES),
    base.datetime_column('inspection_finished_at', v.INSPECTION_TIMES),
    _step_field('clean_step', v.CLEAN_STEP, current_steps.clean_step),
    _dict_column('raid_config', v.RAID_CONFIG),
    _dict_column('target_raid_config', v.RAID_CONFIG),
    base.column('fault', v.NODE_FAULT),
    _step_field('deploy_step', v.DEPLOY_STEP, current_steps.deploy_step),
    _step_field('service_step', v.SERVICE, current_steps.service_step),
    base.column('automated_clean', v.AUTOMATED_CLEAN),
    base.column('disable_power_off', v.DISABLE_POWER_OFF),
    base.column('instance_name', v.INSTANCE_NAME),
    base.column('health', v.NODE_HEALTH),
    base.column('protected', v.PROTECTED),
    base.column('protected_reason', v.PROTECTED),
    base.column('retired', v.RETIRED),
    base.column('retired_reason', v.RETIRED),
    base.links_field('nodes', 'uuid'),
    _node_links('ports'),
    _node_links('states'),
    _node_links('portgroups', v.PORTGROUPS),
)

# GET /v1/nodes without detail: Ironic's short form.
SHORT = ['uuid', 'name', 'instance_uuid', 'power_state', 'provision_state',
         'maintenance', 'links']

# The node states document (GET /v1/nodes/{id}/states).
STATES = ['console_enabled', 'last_error', 'power_state', 'provision_state',
          'provision_updated_at', 'target_power_state',
          'target_provision_state', 'raid_config', 'target_raid_config']


def view(version, base_url, owner_of, fields=None, detail=True,
         names=None, allocation_uuid_of=_no_allocations,
         chassis_uuid_of=_no_chassis):
    """A View of nodes for one request.

    ``allocation_uuid_of`` is an AllocationUuids loaded with the nodes
    to render (when the view shows allocation_uuid), ``chassis_uuid_of``
    a ChassisUuids likewise."""
    if names is None:
        names = base.select(FIELDS, version, fields,
                            None if detail else SHORT)
    else:
        names = [n for n in names if FIELDS[n].since <= version]
    ctx = base.ViewContext(base_url, owner_of=owner_of, version=version,
                           allocation_uuid_of=allocation_uuid_of,
                           chassis_uuid_of=chassis_uuid_of)
    return base.View(FIELDS, names, ctx)


def raw_values(node, names, computed=None):
    """Unmasked field values of ``node``: the document a JSON patch is
    applied to (masked values must never be written back).

    ``computed`` maps the names that are not columns (chassis_uuid) to a
    function of the node giving their value."""
    computed = computed or {}
    return {name: (computed[name](node) if name in computed
                   else getattr(node, name)) for name in names}
