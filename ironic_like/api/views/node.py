"""Nodes in the API."""

import threading

from ironic_like.api import versions as v
from ironic_like.api.views import base
from ironic_like.common import agent_token
from ironic_like.drivers import base as drivers_base
from ironic_like.drivers import loader

_defaults = {}
_defaults_lock = threading.Lock()


def default_interfaces(driver):
    """{kind: default interface} of a hardware type ({} if unknown).

    A node with no interface of its own uses its type's default; showing
    that (as Ironic does) beats showing null.
    """
    found = _defaults.get(driver)
    if found is None:
        try:
            hw = loader.hardware_type(driver)
            found = {kind: hw.default(kind)
                     for kind in drivers_base.INTERFACE_KINDS}
        except Exception:
            found = {}
        with _defaults_lock:
            _defaults[driver] = found
    return found


def _interface(kind):
    name = '%s_interface' % kind

    def make(ctx):
        def get(node):
            return (getattr(node, name)
                    or default_interfaces(node.driver).get(kind))
        return get
    return base.Field(name, v.NODE_INTERFACES, [name, 'driver'], make)


def _node_links(sub):
    def make(ctx):
        root = ctx.base_url
        return lambda node: [
            {'href': '%s/v1/nodes/%s/%s' % (root, node.uuid, sub),
             'rel': 'self'},
            {'href': '%s/nodes/%s/%s' % (root, node.uuid, sub),
             'rel': 'bookmark'},
        ]
    return base.Field(sub, v.MIN_VERSION, ['uuid'], make)


def hide_agent_secrets(info):
    """driver_internal_info with the agent token masked, as Ironic shows
    it (the same dict when it holds none)."""
    if not info or agent_token.TOKEN_KEY not in info:
        return info
    return agent_token.masked(info)


def _driver_internal_info_make(ctx):
    return lambda node: hide_agent_secrets(node.driver_internal_info)


def _traits_make(ctx):
    return lambda node: [t.trait for t in node.traits]


def _allocation_uuid_make(ctx):
    return ctx.allocation_uuid_of


class AllocationUuids(object):
    """node -> the UUID of its allocation, for the nodes of one response,
    looked up in one query (load) rather than one per node."""

    def __init__(self, db):
        self._db = db
        self._uuids = {}

    def load(self, nodes):
        ids = {getattr(n, 'allocation_id', None) for n in nodes} - {None}
        self._uuids = self._db.get_allocation_uuids(ids) if ids else {}

    def __call__(self, node):
        allocation_id = node.allocation_id
        if allocation_id is None:
            return None
        return self._uuids.get(allocation_id)


def _no_allocations(node):
    return None


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
    base.column('provision_state'),
    base.column('target_provision_state'),
    base.datetime_column('provision_updated_at'),
    base.column('maintenance'),
    base.column('maintenance_reason'),
    base.column('last_error'),
    base.column('reservation'),
    base.column('resource_class', v.RESOURCE_CLASS),
    base.column('conductor_group', v.CONDUCTOR_GROUP),
    base.column('owner', v.OWNER),
    base.Field('traits', v.TRAITS, ['traits'], _traits_make),
    base.Field('conductor', v.CONDUCTORS,
               ['uuid', 'driver', 'conductor_group'], _conductor_make),
    base.Field('allocation_uuid', v.ALLOCATIONS, ['allocation_id'],
               _allocation_uuid_make),
    base.datetime_column('created_at'),
    base.datetime_column('updated_at'),
    _interface('boot'),
    _interface('deploy'),
    _interface('management'),
    _interface('power'),
    # Ironic fields of features this service does not have.
    base.constant('console_enabled', False),
    base.constant('chassis_uuid', None),
    base.constant('inspection_started_at', None, v.INSPECTION_TIMES),
    base.constant('inspection_finished_at', None, v.INSPECTION_TIMES),
    base.constant('clean_step', {}, v.CLEAN_STEP),
    base.constant('raid_config', {}, v.RAID_CONFIG),
    base.constant('target_raid_config', {}, v.RAID_CONFIG),
    base.constant('fault', None, v.NODE_FAULT),
    base.constant('deploy_step', {}, v.DEPLOY_STEP),
    base.constant('automated_clean', None, v.AUTOMATED_CLEAN),
    base.constant('protected', False, v.PROTECTED),
    base.constant('protected_reason', None, v.PROTECTED),
    base.constant('retired', False, v.RETIRED),
    base.constant('retired_reason', None, v.RETIRED),
    base.links_field('nodes', 'uuid'),
    _node_links('ports'),
    _node_links('states'),
)

# GET /v1/nodes without detail: Ironic's short form.
SHORT = ['uuid', 'name', 'instance_uuid', 'power_state', 'provision_state',
         'maintenance', 'links']

# The node states document (GET /v1/nodes/{id}/states).
STATES = ['console_enabled', 'last_error', 'power_state', 'provision_state',
          'provision_updated_at', 'target_power_state',
          'target_provision_state', 'raid_config', 'target_raid_config']


def view(version, base_url, owner_of, fields=None, detail=True,
         names=None, allocation_uuid_of=_no_allocations):
    """A View of nodes for one request.

    ``allocation_uuid_of`` is an AllocationUuids loaded with the nodes
    to render (when the view shows allocation_uuid)."""
    if names is None:
        names = base.select(FIELDS, version, fields,
                            None if detail else SHORT)
    else:
        names = [n for n in names if FIELDS[n].since <= version]
    ctx = base.ViewContext(base_url, owner_of=owner_of,
                           allocation_uuid_of=allocation_uuid_of)
    return base.View(FIELDS, names, ctx)


def raw_values(node, names):
    """Unmasked field values of ``node``: the document a JSON patch is
    applied to (masked values must never be written back)."""
    return {name: getattr(node, name) for name in names}
