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
from ironic_like.conductor import nodes
from ironic_like.conductor import ports
from ironic_like.conductor import power
from ironic_like.conductor import provisioning
from ironic_like.conductor import rpcapi


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
                  agent_status_message=None, forwarded=False):
        return agent_heartbeat.heartbeat(
            context, node_id, callback_url, agent_version, agent_token,
            agent_status, agent_status_message, forwarded=forwarded)

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

    # allocations
    def create_allocation(self, context, values, taken_from=()):
        return allocations.create_allocation(
            context, self.service.allocation_runner, self.service.host,
            values, taken_from)

    def destroy_allocation(self, context, allocation_id):
        return allocations.destroy_allocation(context, allocation_id)
