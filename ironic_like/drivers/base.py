"""What a hardware type and its interfaces must provide.

A node's driver is a composition: one hardware type (which interfaces it
supports and which it uses by default) plus one implementation per
interface, each loaded by name through stevedore.
"""

import abc

# The interface kinds a node has, in the order they are loaded.
INTERFACE_KINDS = ('power', 'management', 'deploy', 'boot')


class BaseInterface(metaclass=abc.ABCMeta):
    """One interface implementation. Instances are shared by all nodes."""

    def validate(self, task):
        """Raise InvalidParameterValue/MissingParameterValue if the node's
        driver_info does not suit this interface."""


class PowerInterface(BaseInterface):

    @abc.abstractmethod
    def get_power_state(self, task):
        """Return the node's real power state (states.POWER_ON/OFF)."""

    @abc.abstractmethod
    def set_power_state(self, task, power_state, timeout=None):
        """Turn the node on or off and return when it is."""

    @abc.abstractmethod
    def reboot(self, task, timeout=None):
        """Power cycle the node; it ends powered on."""

    def request_power_state(self, task, power_state):
        """Ask for ``power_state`` and return without waiting for it
        (boot sessions re-read the power state instead of holding a thread
        per node). Interfaces that can only wait do so."""
        self.set_power_state(task, power_state)

    def get_supported_power_states(self, task):
        from ironic_like.common import states
        return [states.POWER_ON, states.POWER_OFF, states.REBOOT]


class ManagementInterface(BaseInterface):

    @abc.abstractmethod
    def set_boot_device(self, task, device, persistent=False):
        """Make the node boot from ``device`` (disk, pxe, ...)."""

    @abc.abstractmethod
    def get_boot_device(self, task):
        """Return {'boot_device': ..., 'persistent': bool}."""


class DeployInterface(BaseInterface):

    @abc.abstractmethod
    def deploy(self, task):
        """Write the instance onto the node. Return None when done, or
        states.DEPLOYWAIT when the rest happens on a callback."""

    @abc.abstractmethod
    def tear_down(self, task):
        """Undo deploy(); the node ends powered off."""

    def clean(self, task, steps=None):
        """Run cleaning steps. Return None when done, or states.CLEANWAIT
        when the rest happens on a callback."""


class FlowDeployInterface(BaseInterface):
    """A deploy interface whose work the conductor runs as its node flows
    (conductor/flows/: one taskflow flow per phase, progress saved in the
    database, resumed by another conductor after a take-over) instead of
    calling methods here: deploy, tear-down, cleaning, the agent's
    heartbeats and aborts. The interface validates the node; the flows do
    the work through the node's boot and power interfaces and the agent
    client."""


def runs_flows(deploy_interface):
    """Whether the conductor runs ``deploy_interface``'s work as node
    flows (a FlowDeployInterface) rather than calling its methods."""
    return isinstance(deploy_interface, FlowDeployInterface)


class BootInterface(BaseInterface):

    @abc.abstractmethod
    def prepare_ramdisk(self, task):
        """Make the node boot the deploy ramdisk."""

    @abc.abstractmethod
    def clean_up_ramdisk(self, task):
        """Undo prepare_ramdisk()."""

    def prepare_os_boot(self, task, kernel, initrd, kernel_parameters):
        """Make the node network-boot ``kernel`` and ``initrd`` with
        ``kernel_parameters`` from now on (a boot session's image: the
        role BSS plays for BOS)."""
        from ironic_like.common import exception
        raise exception.InvalidParameterValue(
            err='Boot interface %s of node %s cannot boot a kernel and '
                'initrd over the network.' % (
                    task.node.boot_interface, task.node.uuid),
            field='boot_interface')


class HardwareType(metaclass=abc.ABCMeta):
    """Which interface implementations a kind of machine can use.

    ``supported_<kind>_interfaces`` lists names; the first is the default.
    """

    supported_power_interfaces = ()
    supported_management_interfaces = ()
    supported_deploy_interfaces = ()
    supported_boot_interfaces = ()

    def supported(self, kind):
        return list(getattr(self, 'supported_%s_interfaces' % kind))

    def default(self, kind):
        supported = self.supported(kind)
        return supported[0] if supported else None
