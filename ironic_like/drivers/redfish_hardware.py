"""redfish: power and boot device through a Redfish BMC (sushy).

Deploy and boot are ``fake`` until the agent deploy and network boot
interfaces exist; list only interfaces that have an entry point.
"""

from ironic_like.drivers import base


class RedfishHardware(base.HardwareType):
    supported_power_interfaces = ('redfish',)
    supported_management_interfaces = ('redfish',)
    supported_deploy_interfaces = ('fake',)
    supported_boot_interfaces = ('fake',)
