"""redfish: power, boot device, NMI, BIOS settings, hardware RAID and
out-of-band inspection through a Redfish BMC (sushy), the deploy ramdisk
booted over the network (iPXE) and driven by its agent."""

from ironic_like.drivers import base


class RedfishHardware(base.HardwareType):
    supported_power_interfaces = ('redfish',)
    supported_management_interfaces = ('redfish',)
    supported_deploy_interfaces = ('agent', 'fake')
    supported_boot_interfaces = ('ipxe', 'fake')
    # Ironic's order: redfish first (the default once enabled in
    # [DEFAULT]enabled_bios_interfaces), else no-bios.
    supported_bios_interfaces = ('redfish', 'no-bios')
    supported_firmware_interfaces = ('redfish', 'no-firmware')
    # Ironic's order: the BMC's hardware RAID first (the default once
    # enabled in [DEFAULT]enabled_raid_interfaces), else no-raid, and
    # the agent's software RAID.
    supported_raid_interfaces = ('redfish', 'no-raid', 'agent')
    # Ironic's order: out-of-band inspection through the BMC first (the
    # default once enabled in [DEFAULT]enabled_inspect_interfaces), else
    # in-band through the agent.
    supported_inspect_interfaces = ('redfish', 'agent', 'no-inspect')
    # Rescue through the agent once enabled
    # ([DEFAULT]enabled_rescue_interfaces); no-rescue stays the default.
    supported_rescue_interfaces = ('no-rescue', 'agent')
    # As Ironic's: the redfish vendor passthru (eject_vmedia), enabled by
    # default, else none.
    supported_vendor_interfaces = ('redfish', 'no-vendor')
