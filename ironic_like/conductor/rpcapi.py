"""Client side of the conductor RPC API.

Node-bound calls go to the topic of the node's owner on the hash ring. If
the owner does not answer within [DEFAULT]rpc_node_call_timeout (it may have
just died), the client rebuilds the ring, sets the silent host aside and
tries the next owner, so an API worker is never held for the broker's long
default timeout.

Version history:
    1.0 - initial API: nodes, ports, power, provisioning, maintenance, traits
    1.1 - create_allocation, destroy_allocation
    1.2 - heartbeat (agent heartbeats, checked against the agent token)
    1.3 - heartbeat(forwarded=...): a conductor hands a heartbeat to the
          conductor holding the node's lock (a cast)
    1.4 - wake_boot_operators (a fanout cast: boot-session work is there)
    1.5 - verify_hostos_module (a cast to the module name's owner)
    1.6 - discover_accelerators (the node's inventory, taken now)
    1.7 - create_portgroup, update_portgroup, destroy_portgroup
    1.8 - validate_driver_interfaces, get_boot_device, set_boot_device,
          get_supported_boot_devices, inject_nmi, get_console_information,
          set_console_mode, set_target_raid_config
    1.9 - vif_list, vif_attach, vif_detach
    1.10 - create_volume_connector, update_volume_connector,
           destroy_volume_connector, create_volume_target,
           update_volume_target, destroy_volume_target
    1.11 - Ironic 1.63 onwards: get_supported_indicators,
           get_indicator_state, set_indicator_state;
           heartbeat(agent_verify_ca=...), set_boot_mode,
           set_secure_boot_state
    1.12 - start_allocation (a cast: the API stores new allocations
           itself)
    1.13 - continue_inspection (Ironic 1.84: the inventory an agent
           posted)
    1.14 - attach_virtual_media, detach_virtual_media (Ironic 1.89)
    1.15 - get_virtual_media (Ironic 1.93)
"""

import datetime
import random
import threading
import time
import types

from oslo_log import log
import oslo_messaging as messaging
from oslo_utils import timeutils

from ironic_like.common import exception
from ironic_like.common import rpc
from ironic_like.common import states
from ironic_like.conductor import allocations
from ironic_like.conductor import hash_ring
from ironic_like.conf import CONF
from ironic_like.db import api as db_api

LOG = log.getLogger(__name__)

TOPIC = 'ironic_like.conductor_manager'
# 1.11: Ironic 1.63-1.80 (indicators, boot mode, history...).
# 1.12: start_allocation.
# 1.13: continue_inspection.
# 1.14: attach_virtual_media, detach_virtual_media.
# 1.15: get_virtual_media.
# 1.16: vendor_passthru, get_node_vendor_passthru_methods,
#       driver_vendor_passthru, get_driver_vendor_passthru_methods.
# 1.17: attach_virtual_media's image_download_source ("local").
RPC_API_VERSION = '1.17'


# Clock difference tolerated between this process and the conductor that
# stamped a row, when deciding whether a row changed since a call began.
_CLOCK_SKEW = datetime.timedelta(seconds=5)


def _fresh(node_uuid):
    """The node as it is now, or None if it is gone."""
    try:
        return db_api.get_instance().get_node_by_uuid(node_uuid)
    except exception.NodeNotFound:
        return None


def _stored_by(allocation_uuid, hosts):
    """Whether the allocation ``allocation_uuid`` exists and one of
    ``hosts`` stored it."""
    if not allocation_uuid:
        return False
    try:
        allocation = db_api.get_instance().get_allocation_by_uuid(
            allocation_uuid)
    except exception.AllocationNotFound:
        return False
    return allocation.conductor_affinity in hosts


def _since(stamp, started):
    return stamp is not None and stamp >= started - _CLOCK_SKEW


class ConductorAPI(object):

    def __init__(self, ring=None):
        target = messaging.Target(topic=TOPIC, version=RPC_API_VERSION)
        self.client = rpc.get_client(target,
                                     version_cap=CONF.rpc_version_cap)
        self.ring = ring or hash_ring.HashRingManager()
        # host -> monotonic time it last failed to answer; such hosts are
        # skipped until the ring is rebuilt without them or they heartbeat.
        self._silent = {}
        self._silent_lock = threading.Lock()

    # -- routing ---------------------------------------------------------

    def _silent_hosts(self):
        horizon = time.monotonic() - CONF.conductor.heartbeat_timeout
        with self._silent_lock:
            for host, since in list(self._silent.items()):
                if since < horizon:
                    del self._silent[host]
            return set(self._silent)

    def _mark_silent(self, host):
        with self._silent_lock:
            self._silent[host] = time.monotonic()
        self.ring.reset()

    def _owner(self, node, tried):
        """The node's owner among the conductors not ``tried`` yet,
        passing over those silent lately; when every candidate was silent
        lately (e.g. all of them while the broker restarted), the silent
        ones are asked again rather than no one."""
        args = (node.uuid, node.driver, node.conductor_group)
        try:
            return self.ring.get_owner(
                *args, ignore=self._silent_hosts().union(tried))
        except exception.NoValidHost:
            return self.ring.get_owner(*args, ignore=set(tried))

    def owner_of(self, node):
        """The host the API would send a call about ``node`` to."""
        return self._owner(node, [])

    def _call_node(self, context, node, method, version=None, outcome=None,
                   **kwargs):
        """Call ``method`` on the node's owner, trying the next owner when
        one is silent. ``outcome(error, started)``, if given, tells whether
        a retried call failed only because a silent conductor did the work
        after all (then it returns (True, result), the caller's result)."""
        tried = []
        last_error = None
        started = timeutils.utcnow()
        for _attempt in range(CONF.rpc_node_call_attempts):
            try:
                host = self._owner(node, tried)
            except exception.NoValidHost as e:
                if tried:
                    break
                raise e
            cctxt = self.client.prepare(
                topic=TOPIC, server=host, version=version or '1.0',
                timeout=CONF.rpc_node_call_timeout)
            try:
                return cctxt.call(context, method, **kwargs)
            except exception.IronicLikeException as e:
                if not tried or outcome is None:
                    raise
                done, result = outcome(e, started)
                if not done:
                    raise
                LOG.info('%(method)s of node %(node)s was done by silent '
                         'conductor %(host)s after all: %(error)s',
                         {'method': method, 'node': node.uuid,
                          'host': tried[-1], 'error': e})
                return result
            except messaging.MessagingTimeout as e:
                LOG.warning('Conductor %(host)s did not answer %(method)s '
                            'for node %(node)s within %(timeout)s s; trying '
                            'another conductor.',
                            {'host': host, 'method': method,
                             'node': node.uuid,
                             'timeout': CONF.rpc_node_call_timeout})
                self._mark_silent(host)
                tried.append(host)
                last_error = e
        raise exception.ConductorUnavailable(
            node=node.uuid,
            reason='conductors %s did not answer (%s)'
                   % (', '.join(tried) or 'none', last_error))

    # -- nodes -----------------------------------------------------------

    def create_node(self, context, values):
        """Create a node on its future owner, which checks that it can load
        the driver and interfaces. ``values`` must hold the uuid."""
        future = types.SimpleNamespace(
            uuid=values['uuid'], driver=values['driver'],
            conductor_group=values.get('conductor_group') or '')

        def created(error, started):
            # The silent conductor created it: same uuid, created since
            # this call began.
            if not isinstance(error, exception.NodeAlreadyExists):
                return False, None
            node = _fresh(values['uuid'])
            return (node is not None and node.driver == values['driver'] and
                    _since(node.created_at, started)), values['uuid']

        return self._call_node(context, future, 'create_node',
                               outcome=created, values=values)

    def update_node(self, context, node, values, reset_interfaces=False):
        return self._call_node(context, node, 'update_node',
                               node_id=node.id, values=values,
                               reset_interfaces=reset_interfaces)

    def destroy_node(self, context, node):
        def destroyed(error, started):
            return isinstance(error, exception.NodeNotFound), None

        return self._call_node(context, node, 'destroy_node',
                               outcome=destroyed, node_id=node.id)

    def change_node_power_state(self, context, node, target, timeout=None):
        def started_change(error, started):
            # The silent conductor started it: the node is locked by its
            # worker, or already there, and was written since.
            if not isinstance(error, (exception.NodeLocked,
                                      exception.InvalidState)):
                return False, None
            now = _fresh(node.uuid)
            wanted = states.POWER_TARGETS.get(target)
            return (now is not None and _since(now.updated_at, started) and
                    wanted in (now.target_power_state, now.power_state)
                    ), None

        return self._call_node(context, node, 'change_node_power_state',
                               outcome=started_change, node_id=node.id,
                               target=target, timeout=timeout)

    def do_provisioning_action(self, context, node, event, params=None):
        before = node.provision_state

        def moved(error, started):
            # The silent conductor took the action: the node left the
            # state this call found it in, since the call began.
            if not isinstance(error, (exception.InvalidStateRequested,
                                      exception.InvalidState,
                                      exception.NodeLocked)):
                return False, None
            now = _fresh(node.uuid)
            return (now is not None and now.provision_state != before and
                    _since(now.provision_updated_at, started)), None

        return self._call_node(context, node, 'do_provisioning_action',
                               outcome=moved, node_id=node.id, event=event,
                               params=params or {})

    def set_maintenance(self, context, node, mode, reason=None):
        return self._call_node(context, node, 'set_maintenance',
                               node_id=node.id, mode=mode, reason=reason)

    def set_node_traits(self, context, node, traits):
        return self._call_node(context, node, 'set_node_traits',
                               node_id=node.id, traits=traits)

    def add_node_trait(self, context, node, trait):
        return self._call_node(context, node, 'add_node_trait',
                               node_id=node.id, trait=trait)

    def remove_node_traits(self, context, node, traits=None):
        """Remove ``traits`` (all when None)."""
        return self._call_node(context, node, 'remove_node_traits',
                               node_id=node.id, traits=traits)

    def heartbeat(self, context, node, callback_url, agent_version=None,
                  agent_token=None, agent_status=None,
                  agent_status_message=None, agent_verify_ca=None):
        """An agent's heartbeat, to the node's owner. Returns True if it
        was recorded, False if the node was locked (acknowledged only)."""
        extra = {}
        version = '1.2'
        if agent_verify_ca is not None:
            # Only 1.11 conductors know it.
            version = '1.11'
            extra['agent_verify_ca'] = agent_verify_ca
        return self._call_node(context, node, 'heartbeat', version=version,
                               node_id=node.id, callback_url=callback_url,
                               agent_version=agent_version,
                               agent_token=agent_token,
                               agent_status=agent_status,
                               agent_status_message=agent_status_message,
                               **extra)

    def continue_inspection(self, context, node, inventory, plugin_data):
        """The inventory an agent posted (API 1.84), to the node's owner."""
        def taken(error, started):
            # A silent conductor took it after all: the node left
            # "inspect wait" since the call began.
            if not isinstance(error, exception.NotFound):
                return False, None
            now = _fresh(node.uuid)
            return (now is not None
                    and now.provision_state != states.INSPECTWAIT
                    and _since(now.provision_updated_at, started)), None
        return self._call_node(context, node, 'continue_inspection',
                               version='1.13', outcome=taken,
                               node_id=node.id, inventory=inventory,
                               plugin_data=plugin_data)

    def forward_heartbeat(self, context, host, node_id, callback_url,
                          agent_version=None, agent_token=None,
                          agent_status=None, agent_status_message=None,
                          agent_verify_ca=None):
        """Hand a heartbeat to conductor ``host``, which holds the node's
        lock (a cast: the agent was answered already). Returns False when
        the version cap forbids it."""
        version = '1.3' if agent_verify_ca is None else '1.11'
        if not self.client.can_send_version(version):
            return False
        extra = {}
        if agent_verify_ca is not None:
            extra['agent_verify_ca'] = agent_verify_ca
        cctxt = self.client.prepare(topic=TOPIC, server=host,
                                    version=version)
        cctxt.cast(context, 'heartbeat', node_id=node_id,
                   callback_url=callback_url, agent_version=agent_version,
                   agent_token=agent_token, agent_status=agent_status,
                   agent_status_message=agent_status_message,
                   forwarded=True, **extra)
        return True

    # -- boot sessions ---------------------------------------------------

    def wake_boot_operators(self, context, operators=None, node_ids=None):
        """Wake the named boot-session operators (all when None) on every
        conductor, for ``node_ids`` only if given (a conductor that does
        not own them finds nothing to do): a fanout cast, nobody waits.
        Polling finds the work anyway; this only saves the wait."""
        if not self.client.can_send_version('1.4'):
            return False
        cctxt = self.client.prepare(topic=TOPIC, fanout=True, version='1.4')
        cctxt.cast(context, 'wake_boot_operators', operators=operators,
                   node_ids=node_ids)
        return True

    # -- host OS configuration --------------------------------------------

    def verify_hostos_module(self, context, module_id, module_name):
        """Have the conductor owning the module's name verify it (a
        cast: the module shows ``verifying`` until it is done). False if
        no conductor can take it now; the owner's periodic pass verifies
        it later anyway."""
        if not self.client.can_send_version('1.5'):
            return False
        try:
            host = self.ring.owner_of_key('hostos-module:%s' % module_name)
        except exception.NoValidHost:
            return False
        cctxt = self.client.prepare(topic=TOPIC, server=host, version='1.5')
        cctxt.cast(context, 'verify_hostos_module', module_id=module_id)
        return True

    # -- accelerators ----------------------------------------------------

    def discover_accelerators(self, context, node):
        """Take the node's accelerator inventory from its agent now (a
        call to the node's conductor; InvalidState when no agent is up)."""
        return self._call_node(context, node, 'discover_accelerators',
                               version='1.6', node_id=node.id)

    # -- ports -----------------------------------------------------------

    def create_port(self, context, node, values):
        return self._call_node(context, node, 'create_port',
                               node_id=node.id, values=values)

    def update_port(self, context, node, port_id, values):
        return self._call_node(context, node, 'update_port',
                               node_id=node.id, port_id=port_id,
                               values=values)

    def destroy_port(self, context, node, port_id):
        return self._call_node(context, node, 'destroy_port',
                               node_id=node.id, port_id=port_id)

    # -- port groups -----------------------------------------------------
    # Written on the node's conductor under its lock, as ports are.

    def _call_portgroup(self, context, node, method, **kwargs):
        if not self.client.can_send_version('1.7'):
            # During a rolling upgrade (version cap below 1.7) a conductor
            # may not know the method: a clear 503, not oslo.messaging's
            # version cap error.
            raise exception.ConductorUnavailable(
                node=node.uuid,
                reason='port groups need conductor RPC API 1.7, above '
                       '[DEFAULT]rpc_version_cap')
        return self._call_node(context, node, method, version='1.7',
                               node_id=node.id, **kwargs)

    def create_portgroup(self, context, node, values):
        return self._call_portgroup(context, node, 'create_portgroup',
                                    values=values)

    def update_portgroup(self, context, node, portgroup_id, values):
        return self._call_portgroup(context, node, 'update_portgroup',
                                    portgroup_id=portgroup_id,
                                    values=values)

    def destroy_portgroup(self, context, node, portgroup_id):
        return self._call_portgroup(context, node, 'destroy_portgroup',
                                    portgroup_id=portgroup_id)

    # -- node interfaces (validate, management, console, RAID) -----------
    # On the node's conductor, which has the drivers and the BMC in reach.

    def _call_interfaces(self, context, node, method, version='1.8',
                         **kwargs):
        if not self.client.can_send_version(version):
            # A conductor below the version does not know the method
            # (rolling upgrade): a clear 503 rather than a version cap
            # error.
            raise exception.ConductorUnavailable(
                node=node.uuid,
                reason='%s needs conductor RPC API %s, above '
                       '[DEFAULT]rpc_version_cap' % (method, version))
        return self._call_node(context, node, method, version=version,
                               node_id=node.id, **kwargs)

    def validate_driver_interfaces(self, context, node):
        return self._call_interfaces(context, node,
                                     'validate_driver_interfaces')

    def get_boot_device(self, context, node):
        return self._call_interfaces(context, node, 'get_boot_device')

    def get_supported_boot_devices(self, context, node):
        return self._call_interfaces(context, node,
                                     'get_supported_boot_devices')

    def set_boot_device(self, context, node, device, persistent=False):
        return self._call_interfaces(context, node, 'set_boot_device',
                                     device=device, persistent=persistent)

    def inject_nmi(self, context, node):
        return self._call_interfaces(context, node, 'inject_nmi')

    def attach_virtual_media(self, context, node, device_type, image_url,
                             image_download_source=None):
        """``image_download_source`` None: Ironic's default, ``local``,
        or ``http`` while a conductor below 1.17 may get the call (a
        rolling upgrade: the BMC reads the URL, as it did before)."""
        if image_download_source is None:
            image_download_source = (
                'local' if self.client.can_send_version('1.17')
                else 'http')
        if image_download_source == 'http':
            # What every conductor since 1.14 does.
            return self._call_interfaces(
                context, node, 'attach_virtual_media', version='1.14',
                device_type=device_type, image_url=image_url)
        return self._call_interfaces(
            context, node, 'attach_virtual_media', version='1.17',
            device_type=device_type, image_url=image_url,
            image_download_source=image_download_source)

    def detach_virtual_media(self, context, node, device_types=None):
        return self._call_interfaces(context, node, 'detach_virtual_media',
                                     version='1.14',
                                     device_types=device_types)

    def get_virtual_media(self, context, node):
        return self._call_interfaces(context, node, 'get_virtual_media',
                                     version='1.15')

    # vendor passthru (API 1.0)
    def _check_vendor_version(self, method, what):
        if not self.client.can_send_version('1.16'):
            raise exception.ConductorUnavailable(
                node=what, reason='%s needs conductor RPC API 1.16, above '
                                  '[DEFAULT]rpc_version_cap' % method)

    def vendor_passthru(self, context, node, driver_method, http_method,
                        info):
        """One call to the node's owner, as Ironic makes it: never sent
        again to another conductor (a method that outlasted
        rpc_node_call_timeout would run twice), and waited for as long as
        any RPC call (rpc_response_timeout), since a synchronous method
        may talk to a slow BMC."""
        self._check_vendor_version('vendor_passthru', node.uuid)
        cctxt = self.client.prepare(topic=TOPIC,
                                    server=self._owner(node, []),
                                    version='1.16')
        return cctxt.call(context, 'vendor_passthru', node_id=node.id,
                          driver_method=driver_method,
                          http_method=http_method, info=info)

    def get_node_vendor_passthru_methods(self, context, node):
        return self._call_interfaces(context, node,
                                     'get_node_vendor_passthru_methods',
                                     version='1.16')

    def _call_driver(self, context, driver_name, method, **kwargs):
        """One call of ``method`` to any alive conductor serving hardware
        type ``driver_name``, whatever its conductor group (Ironic's rule
        for driver-level calls), waited for as vendor_passthru is."""
        self._check_vendor_version(method, '(driver %s)' % driver_name)
        host = self.ring.random_host_serving(driver_name)
        cctxt = self.client.prepare(topic=TOPIC, server=host,
                                    version='1.16')
        return cctxt.call(context, method, driver_name=driver_name,
                          **kwargs)

    def driver_vendor_passthru(self, context, driver_name, driver_method,
                               http_method, info):
        return self._call_driver(context, driver_name,
                                 'driver_vendor_passthru',
                                 driver_method=driver_method,
                                 http_method=http_method, info=info)

    def get_driver_vendor_passthru_methods(self, context, driver_name):
        return self._call_driver(context, driver_name,
                                 'get_driver_vendor_passthru_methods')

    def set_boot_mode(self, context, node, mode):
        return self._call_interfaces(context, node, 'set_boot_mode',
                                     version='1.11', mode=mode)

    def set_secure_boot_state(self, context, node, state):
        return self._call_interfaces(context, node, 'set_secure_boot_state',
                                     version='1.11', state=state)

    def get_supported_indicators(self, context, node):
        return self._call_interfaces(context, node,
                                     'get_supported_indicators',
                                     version='1.11')

    def get_indicator_state(self, context, node, component, indicator):
        return self._call_interfaces(context, node, 'get_indicator_state',
                                     version='1.11', component=component,
                                     indicator=indicator)

    def set_indicator_state(self, context, node, component, indicator,
                            state):
        return self._call_interfaces(context, node, 'set_indicator_state',
                                     version='1.11', component=component,
                                     indicator=indicator, state=state)

    def get_console_information(self, context, node):
        return self._call_interfaces(context, node,
                                     'get_console_information')

    def set_console_mode(self, context, node, enabled):
        return self._call_interfaces(context, node, 'set_console_mode',
                                     enabled=enabled)

    def set_target_raid_config(self, context, node, target_raid_config):
        return self._call_interfaces(context, node,
                                     'set_target_raid_config',
                                     target_raid_config=target_raid_config)

    # -- VIFs ------------------------------------------------------------
    # On the node's conductor, under the node's lock (the list under a
    # shared one), as Ironic: the network interface decides what a VIF is.

    def _call_vifs(self, context, node, method, **kwargs):
        if not self.client.can_send_version('1.9'):
            # A conductor below 1.9 does not know the method (rolling
            # upgrade): a clear 503 rather than a version cap error.
            raise exception.ConductorUnavailable(
                node=node.uuid,
                reason='%s needs conductor RPC API 1.9, above '
                       '[DEFAULT]rpc_version_cap' % method)
        return self._call_node(context, node, method, version='1.9',
                               node_id=node.id, **kwargs)

    def vif_list(self, context, node):
        return self._call_vifs(context, node, 'vif_list')

    def vif_attach(self, context, node, vif_info):
        return self._call_vifs(context, node, 'vif_attach',
                               vif_info=vif_info)

    def vif_detach(self, context, node, vif_id):
        return self._call_vifs(context, node, 'vif_detach', vif_id=vif_id)

    # -- volume connectors and targets -----------------------------------
    # Written on the node's conductor under its lock, as ports are.

    def _call_volumes(self, context, node, method, **kwargs):
        if not self.client.can_send_version('1.10'):
            # A conductor below 1.10 does not know the method (rolling
            # upgrade): a clear 503 rather than a version cap error.
            raise exception.ConductorUnavailable(
                node=node.uuid,
                reason='%s needs conductor RPC API 1.10, above '
                       '[DEFAULT]rpc_version_cap' % method)
        return self._call_node(context, node, method, version='1.10',
                               node_id=node.id, **kwargs)

    @staticmethod
    def _created(duplicate, uuid):
        """The outcome of a retried create: the silent conductor stored
        the row after all when the retry finds its UUID taken."""
        def outcome(error, started):
            return isinstance(error, duplicate), uuid
        return outcome

    def create_volume_connector(self, context, node, values):
        return self._call_volumes(
            context, node, 'create_volume_connector', values=values,
            outcome=self._created(exception.VolumeConnectorAlreadyExists,
                                  values.get('uuid')))

    def update_volume_connector(self, context, node, connector_id, values):
        return self._call_volumes(context, node, 'update_volume_connector',
                                  connector_id=connector_id, values=values)

    def destroy_volume_connector(self, context, node, connector_id):
        return self._call_volumes(context, node, 'destroy_volume_connector',
                                  connector_id=connector_id)

    def create_volume_target(self, context, node, values):
        return self._call_volumes(
            context, node, 'create_volume_target', values=values,
            outcome=self._created(exception.VolumeTargetAlreadyExists,
                                  values.get('uuid')))

    def update_volume_target(self, context, node, target_id, values):
        return self._call_volumes(context, node, 'update_volume_target',
                                  target_id=target_id, values=values)

    def destroy_volume_target(self, context, node, target_id):
        return self._call_volumes(context, node, 'destroy_volume_target',
                                  target_id=target_id)

    # -- allocations -----------------------------------------------------

    def create_allocation(self, context, values):
        """Store a new allocation for a random alive conductor and tell
        it to start (a cast); return its uuid.

        The API writes the row itself, so a POST waits for no conductor:
        a lost cast (the broker restarting) only delays the allocation
        until that conductor's periodic sweep finds it, and a conductor
        that dies is taken over as any other. A backfill (``node_id``)
        goes through a conductor, which locks the node.
        """
        if self._allocation_by_call(values):
            return self._create_allocation_call(context, values)
        return self._store_and_start(context, values).uuid

    def store_allocation(self, context, values, uuid_given=True):
        """create_allocation, returning the allocation's row as stored.

        :param uuid_given: False when values['uuid'] is one the API has
            just made up: no node can hold it as its instance_uuid, so the
            query that would refuse it is saved.
        """
        if self._allocation_by_call(values):
            uuid = self._create_allocation_call(context, values)
            return db_api.get_instance().get_allocation_by_uuid(uuid)
        return self._store_and_start(context, values, uuid_given)

    def _allocation_by_call(self, values):
        """A backfill, or any allocation while [DEFAULT]rpc_version_cap is
        below 1.12 (a rolling upgrade: older conductors do not know
        start_allocation), is created by a conductor's answer."""
        return (values.get('node_id') is not None or
                not self.client.can_send_version('1.12'))

    def _store_and_start(self, context, values, uuid_given=True):
        hosts = sorted(self.ring.hosts - self._silent_hosts()) or sorted(
            self.ring.hosts)
        if not hosts:
            raise exception.NoValidHost(
                reason='no alive conductor to process the allocation')
        host = random.choice(hosts)
        allocation = allocations.store_new(
            values, host, refuse_instance_uuid=uuid_given)
        cctxt = self.client.prepare(topic=TOPIC, server=host,
                                    version='1.12', retry=0)
        try:
            cctxt.cast(context, 'start_allocation',
                       allocation_id=allocation.id)
        except Exception as e:
            LOG.warning('Could not ask conductor %s to start allocation %s '
                        '(%s); its periodic check starts it.', host,
                        allocation.uuid, e)
        return allocation

    def _create_allocation_call(self, context, values):
        """Create an allocation on a random alive conductor (a backfill).

        If that conductor does not answer, another one is asked and told
        which were silent, so it can take over a row the silent one may
        already have stored: no allocation is left `allocating` with
        nobody working on it.
        """
        tried = []
        last_error = None
        for _attempt in range(CONF.rpc_node_call_attempts):
            untried = self.ring.hosts - set(tried)
            # Silent lately ones only when there is nobody else (see
            # _owner).
            hosts = sorted(untried - self._silent_hosts()) or sorted(untried)
            if not hosts:
                if tried:
                    break
                raise exception.NoValidHost(
                    reason='no alive conductor to process the allocation')
            host = random.choice(hosts)
            cctxt = self.client.prepare(topic=TOPIC, server=host,
                                        version='1.1',
                                        timeout=CONF.rpc_node_call_timeout)
            try:
                return cctxt.call(context, 'create_allocation',
                                  values=values, taken_from=tried)
            except messaging.MessagingTimeout as e:
                LOG.warning('Conductor %s did not answer create_allocation '
                            'within %s s; trying another conductor.', host,
                            CONF.rpc_node_call_timeout)
                self._mark_silent(host)
                tried.append(host)
                last_error = e
        if tried and _stored_by(values.get('uuid'), tried):
            # The request reached a conductor that stored the allocation
            # (and works on it, or a take-over will) but its answer was
            # lost, e.g. while the broker restarted: the truth is that it
            # was created.
            LOG.info('Allocation %s was stored by silent conductor(s) %s '
                     'after all', values['uuid'], ', '.join(tried))
            return values['uuid']
        raise exception.ConductorUnavailable(
            node='(allocation %s)' % values.get('uuid'),
            reason='conductors %s did not answer (%s)'
                   % (', '.join(tried) or 'none', last_error))

    def destroy_allocation(self, context, allocation, node=None):
        """Delete an allocation on its node's owner (it locks the node),
        or on any alive conductor when it has no node."""
        if node is not None:
            return self._call_node(context, node, 'destroy_allocation',
                                   version='1.1',
                                   allocation_id=allocation.id)
        host = self.ring.random_host()
        cctxt = self.client.prepare(topic=TOPIC, server=host, version='1.1',
                                    timeout=CONF.rpc_node_call_timeout)
        return cctxt.call(context, 'destroy_allocation',
                          allocation_id=allocation.id)
