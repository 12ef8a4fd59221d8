"""A node's VIFs (virtual network interfaces: Neutron ports, say) listed,
attached and detached on the node's conductor, under the node's lock.

With the ``flat`` network interface (and any other that is not ``noop``)
this does what Ironic's flat interface does, without Neutron: a VIF is
recorded in the internal_info (key ``tenant_vif_port_id``) of one free
port group or port of the node. That record *is* the attachment: listing
reads it back, detaching removes it, and the ports and port groups show
it in their internal_info. With ``noop`` nothing is recorded: the node
lists no VIFs and every attach and detach succeeds, as in Ironic, where
that interface leaves the wiring to whoever cabled the node.

Ironic checks no provision state for this; the node's exclusive lock is
its rule. While deploying, cleaning or any other work holds the lock the
call fails with NodeLocked (409); otherwise it proceeds, also on an
active node (Nova attaches VIFs to a running instance) and in deploy
wait. Tear-down leaves the records alone, as in Ironic: Nova detaches
its VIFs itself when it deletes the instance.
"""

import collections

from oslo_log import log

from ironic_like.common import exception
from ironic_like.conductor import locks
from ironic_like.drivers import loader

LOG = log.getLogger(__name__)

# Ironic's key, so that clients reading a port's internal_info (1.18) or
# a group's find the VIF where they look for it.
VIF_KEY = 'tenant_vif_port_id'
# The network interface that attaches nothing.
NOOP = 'noop'

PORT = 'Port'
PORTGROUP = 'Portgroup'


def network_interface(node):
    """The node's network interface, by Ironic's rule: the node's own
    choice, else the default of its hardware type (None if neither is
    known, which the caller treats as flat: recording is the safe side,
    since a VIF silently dropped would be lost to Nova)."""
    if node.network_interface:
        return node.network_interface
    try:
        return loader.hardware_type(node.driver).default('network')
    except exception.DriverNotFound:
        return None


def _records_vifs(task):
    # Validated first, as Ironic's conductor does: a node whose network
    # settings are wrong gets no VIF either.
    network = getattr(task.driver, 'network', None)
    if network is not None:
        network.validate(task)
    return network_interface(task.node) != NOOP


def attached_vif(obj):
    """The VIF recorded on a port or port group, or None."""
    return (obj.internal_info or {}).get(VIF_KEY)


def _ports_and_groups(task):
    """[(PORT, port)...] and [(PORTGROUP, group)...] of the node."""
    ports = [(PORT, p) for p in task.ports]
    groups = [(PORTGROUP, g)
              for g in task.db.get_portgroups_by_node_id(task.node.id)]
    return ports, groups


def _usable(port):
    """Whether the port's wiring allows a VIF (Ironic's rule): a smart NIC
    must say which host and port it is, in local_link_connection, and
    only a smart NIC may; an InfiniBand port (extra client-id) is found
    by the subnet manager and always usable."""
    if (port.extra or {}).get('client-id'):
        return True
    llc = port.local_link_connection or {}
    names_smartnic = bool(llc.get('hostname')) and bool(llc.get('port_id'))
    return names_smartnic == bool(port.is_smartnic)


def _refuse_twice(vif_id, objects):
    for kind, obj in objects:
        if attached_vif(obj) == vif_id:
            raise exception.VifAlreadyAttached(
                vif=vif_id, object_type=kind, object_uuid=obj.uuid)


def _free(ports, groups, port_uuid=None, portgroup_uuid=None):
    """The ports and groups a new VIF may go to.

    A port in a group is used through its group: the group is free when
    it has no VIF and at least one usable member without one. A group
    whose member already carries a VIF (recorded on the port itself)
    cannot be used as a whole; its other free members are offered one by
    one instead, so the two VIFs never share a link.

    ``port_uuid`` (API 1.67) narrows the choice to that port, which must
    then be outside any group; ``portgroup_uuid`` to that group as a
    whole (as Ironic narrows them).
    """
    free = []
    members = collections.defaultdict(list)
    split = set()
    for kind, port in ports:
        if (port_uuid and port.uuid != port_uuid) or not _usable(port):
            continue
        if attached_vif(port):
            split.add(port.portgroup_id)
        elif port.portgroup_id is None and not portgroup_uuid:
            free.append((kind, port))
        else:
            members[port.portgroup_id].append((kind, port))
    if port_uuid:
        return free
    for kind, group in groups:
        if ((portgroup_uuid and group.uuid != portgroup_uuid)
                or attached_vif(group)):
            continue
        if group.id in split:
            if not portgroup_uuid:
                free.extend(members[group.id])
        elif members[group.id]:
            free.append((kind, group))
    return free


def _preference(candidate):
    # Groups first (a bond is what the node was cabled for), then ports
    # that boot from the network. Ironic also prefers the VIF's physical
    # networks; without Neutron a VIF has none, so every port qualifies.
    kind, obj = candidate
    if kind == PORTGROUP:
        return (1, 1)
    return (0, 1 if obj.pxe_enabled else 0)


def _write(db, kind, obj, internal_info):
    if kind == PORTGROUP:
        db.update_portgroup(obj.id, {'internal_info': internal_info})
    else:
        db.update_port(obj.id, {'internal_info': internal_info})


def vif_list(context, node_id):
    """[{'id': vif}...]: the VIFs recorded on the node's ports, then on
    its groups."""
    with locks.acquire(context, node_id, shared=True,
                       purpose='list vifs') as task:
        if not _records_vifs(task):
            return []
        ports, groups = _ports_and_groups(task)
        return [{'id': attached_vif(obj)} for _kind, obj in ports + groups
                if attached_vif(obj)]


def vif_attach(context, node_id, vif_info):
    """Record VIF ``vif_info['id']`` on a free group or port of the node.

    The other keys of ``vif_info`` are accepted and ignored: Ironic hands
    them to Neutron, which this service does not talk to.
    """
    vif_id = (vif_info or {}).get('id')
    if not vif_id:
        raise exception.MissingParameterValue(
            err='A VIF needs an "id".', field='id')
    with locks.acquire(context, node_id, purpose='attach vif') as task:
        if not _records_vifs(task):
            LOG.debug('Node %s uses the noop network interface: VIF %s is '
                      'not recorded', task.node.uuid, vif_id)
            return
        ports, groups = _ports_and_groups(task)
        _refuse_twice(vif_id, ports + groups)
        free = _free(ports, groups, vif_info.get('port_uuid'),
                     vif_info.get('portgroup_uuid'))
        if not free:
            raise exception.NoFreePhysicalPorts(vif=vif_id)
        # A stable sort: among equals the first listed (oldest) wins.
        kind, target = sorted(free, key=_preference, reverse=True)[0]
        info = dict(target.internal_info or {})
        info[VIF_KEY] = vif_id
        _write(task.db, kind, target, info)
        LOG.info('VIF %(vif)s attached to node %(node)s through %(kind)s '
                 '%(target)s', {'vif': vif_id, 'node': task.node.uuid,
                                'kind': kind.lower(),
                                'target': target.uuid})


def vif_detach(context, node_id, vif_id):
    """Remove VIF ``vif_id`` from the group or port it is recorded on."""
    with locks.acquire(context, node_id, purpose='detach vif') as task:
        if not _records_vifs(task):
            LOG.debug('Node %s uses the noop network interface: nothing '
                      'to detach for VIF %s', task.node.uuid, vif_id)
            return
        ports, groups = _ports_and_groups(task)
        for kind, obj in groups + ports:
            if attached_vif(obj) == vif_id:
                info = dict(obj.internal_info or {})
                info.pop(VIF_KEY, None)
                _write(task.db, kind, obj, info)
                LOG.info('VIF %(vif)s detached from node %(node)s',
                         {'vif': vif_id, 'node': task.node.uuid})
                return
        raise exception.VifNotAttached(vif=vif_id, node=task.node.uuid)
