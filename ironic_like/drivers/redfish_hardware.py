"""redfish: power and boot device through a Redfish BMC (sushy), the
deploy ramdisk booted over the network (iPXE) and driven by its agent."""

from ironic_like.drivers import base


class RedfishHardware(base.HardwareType):
    supported_power_interfaces = ('redfish',)
    supported_management_interfaces = ('redfish',)
    supported_deploy_interfaces = ('agent', 'fake')
    supported_boot_interfaces = ('ipxe', 'fake')
