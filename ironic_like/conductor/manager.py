"""The conductor's RPC endpoint: a thin dispatcher.

Each method hands over to the module that owns the capability; this file
holds no logic of its own.
"""

import inspect

import oslo_messaging as messaging

from ironic_like.common import exception

from ironic_like.conductor import accelerators
from ironic_like.conductor import agent_heartbeat
from ironic_like.conductor import allocations
from ironic_like.conductor import console
from ironic_like.conductor import inspection
from ironic_like.conductor import management
from ironic_like.conductor import nodes
from ironic_like.conductor import portgroups
from ironic_like.conductor import ports
from ironic_like.conductor import power
from ironic_like.conductor import provisioning
from ironic_like.conductor import raid
from ironic_like.conductor import rpcapi
from ironic_like.conductor import validation
from ironic_like.conductor import vendor_passthru
from ironic_like.conductor import vifs
from ironic_like.conductor import vmedia
from ironic_like.conductor import volumes


def _user_errors_expected(cls):
    """Our own exceptions (bad input, NodeLocked, conflicts) are answers to
    the caller, not conductor failures: oslo.messaging then logs them at
    debug level instead of as errors with a traceback."""
    expect = messaging.expected_exceptions(exception.IronicLikeException)
    for name, member in list(vars(cls).items()):
        if inspect.isfunction(member) and not name.startswith('_'):
            setattr(cls, name, expect(member))
    return cls


@_user_errors_expected
class ConductorManager(object):

    target = messaging.Target(version=rpcapi.RPC_API_VERSION)

    def __init__(self, service):
        self.service = service

    @property
    def _executor(self):
        return self.service.executor

    # nodes
    def create_node(self, context, values):
        return nodes.create_node(context, values)

    def update_node(self, context, node_id, values, reset_interfaces=False):
        return nodes.update_node(context, node_id, values, reset_interfaces)

    def destroy_node(self, context, node_id):
        return nodes.destroy_node(context, node_id)

    def set_maintenance(self, context, node_id, mode, reason=None):
        return nodes.set_maintenance(context, node_id, mode, reason)

    def set_node_traits(self, context, node_id, traits):
        return nodes.set_node_traits(context, node_id, traits)

    def add_node_trait(self, context, node_id, trait):
        return nodes.add_node_trait(context, node_id, trait)

    def remove_node_traits(self, context, node_id, traits=None):
        return nodes.remove_node_traits(context, node_id, traits)

    # power and provisioning
    def change_node_power_state(self, context, node_id, target,
                                timeout=None):
        return power.change_node_power_state(context, self._executor,
                                             node_id, target, timeout)

    def do_provisioning_action(self, context, node_id, event, params=None):
        return provisioning.do_provisioning_action(
            context, self._executor, node_id, event, params)

    # agents
    def heartbeat(self, context, node_id, callback_url, agent_version=None,
                  agent_token=None, agent_status=None,
                  agent_status_message=None, forwarded=False,
                  agent_verify_ca=None):
        return agent_heartbeat.heartbeat(
            context, node_id, callback_url, agent_version, agent_token,
            agent_status, agent_status_message,
            agent_verify_ca=agent_verify_ca, forwarded=forwarded)

    # boot sessions
    def wake_boot_operators(self, context, operators=None, node_ids=None):
        self.service.wake_boot_operators(operators, node_ids)

    # host OS configuration
    def verify_hostos_module(self, context, module_id):
        self._executor.submit(self.service.verify_hostos_module, module_id)

    # accelerators
    def discover_accelerators(self, context, node_id):
        return accelerators.discover(context, node_id)

    # ports
    def create_port(self, context, node_id, values):
        return ports.create_port(context, node_id, values)

    def update_port(self, context, node_id, port_id, values):
        return ports.update_port(context, node_id, port_id, values)

    def destroy_port(self, context, node_id, port_id):
        return ports.destroy_port(context, node_id, port_id)

    # port groups
    def create_portgroup(self, context, node_id, values):
        return portgroups.create_portgroup(context, node_id, values)

    def update_portgroup(self, context, node_id, portgroup_id, values):
        return portgroups.update_portgroup(context, node_id, portgroup_id,
                                           values)

    def destroy_portgroup(self, context, node_id, portgroup_id):
        return portgroups.destroy_portgroup(context, node_id, portgroup_id)

    # node interfaces
    def validate_driver_interfaces(self, context, node_id):
        return validation.validate_driver_interfaces(context, node_id)

    def get_boot_device(self, context, node_id):
        return management.get_boot_device(context, node_id)

    def get_supported_boot_devices(self, context, node_id):
        return management.get_supported_boot_devices(context, node_id)

    def set_boot_device(self, context, node_id, device, persistent=False):
        return management.set_boot_device(context, node_id, device,
                                          persistent)

    def inject_nmi(self, context, node_id):
        return management.inject_nmi(context, node_id)

    def set_boot_mode(self, context, node_id, mode):
        return management.set_boot_mode(context, self._executor, node_id,
                                        mode)

    def continue_inspection(self, context, node_id, inventory, plugin_data):
        return inspection.continue_inspection(context, node_id, inventory,
                                              plugin_data)

    def attach_virtual_media(self, context, node_id, device_type,
                             image_url, image_download_source='http'):
        return vmedia.attach(context, self._executor, node_id, device_type,
                             image_url, image_download_source)

    def detach_virtual_media(self, context, node_id, device_types=None):
        return vmedia.detach(context, self._executor, node_id, device_types)

    def get_virtual_media(self, context, node_id):
        return vmedia.get(context, node_id)

    # vendor passthru (API 1.0)
    def vendor_passthru(self, context, node_id, driver_method, http_method,
                        info):
        return vendor_passthru.call_node(context, self._executor, node_id,
                                         driver_method, http_method, info)

    def get_node_vendor_passthru_methods(self, context, node_id):
        return vendor_passthru.node_methods(context, node_id)

    def driver_vendor_passthru(self, context, driver_name, driver_method,
                               http_method, info):
        return vendor_passthru.call_driver(context, self._executor,
                                           driver_name, driver_method,
                                           http_method, info)

    def get_driver_vendor_passthru_methods(self, context, driver_name):
        return vendor_passthru.driver_methods(driver_name)

    def set_secure_boot_state(self, context, node_id, state):
        return management.set_secure_boot_state(context, self._executor,
                                                node_id, state)

    def get_supported_indicators(self, context, node_id):
        return management.get_supported_indicators(context, node_id)

    def get_indicator_state(self, context, node_id, component, indicator):
        return management.get_indicator_state(context, node_id, component,
                                              indicator)

    def set_indicator_state(self, context, node_id, component, indicator,
                            state):
        return management.set_indicator_state(context, node_id, component,
                                              indicator, state)

    def get_console_information(self, context, node_id):
        return console.get_console_information(context, node_id)

    def set_console_mode(self, context, node_id, enabled):
        return console.set_console_mode(context, self._executor, node_id,
                                        enabled)

    def set_target_raid_config(self, context, node_id, target_raid_config):
        return raid.set_target_raid_config(context, node_id,
                                           target_raid_config)

    # VIFs
    def vif_list(self, context, node_id):
        return vifs.vif_list(context, node_id)

    def vif_attach(self, context, node_id, vif_info):
        return vifs.vif_attach(context, node_id, vif_info)

    def vif_detach(self, context, node_id, vif_id):
        return vifs.vif_detach(context, node_id, vif_id)

    # volume connectors and targets
    def create_volume_connector(self, context, node_id, values):
        return volumes.create_volume_connector(context, node_id, values)

    def update_volume_connector(self, context, node_id, connector_id,
                                values):
        return volumes.update_volume_connector(context, node_id,
                                               connector_id, values)

    def destroy_volume_connector(self, context, node_id, connector_id):
        return volumes.destroy_volume_connector(context, node_id,
                                                connector_id)

    def create_volume_target(self, context, node_id, values):
        return volumes.create_volume_target(context, node_id, values)

    def update_volume_target(self, context, node_id, target_id, values):
        return volumes.update_volume_target(context, node_id, target_id,
                                            values)

    def destroy_volume_target(self, context, node_id, target_id):
        return volumes.destroy_volume_target(context, node_id, target_id)

    # allocations
    def create_allocation(self, context, values, taken_from=()):
        return allocations.create_allocation(
            context, self.service.allocation_runner, self.service.host,
            values, taken_from)

    def start_allocation(self, context, allocation_id):
        return allocations.start(self.service.allocation_runner,
                                 allocation_id)

    def destroy_allocation(self, context, allocation_id):
        return allocations.destroy_allocation(context, allocation_id)
