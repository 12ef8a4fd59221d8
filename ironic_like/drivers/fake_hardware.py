"""fake-hardware: every interface fake by default, for tests, demos and
labs; the agent deploy and iPXE boot can be chosen per node to drive a
simulated agent without a BMC."""

from ironic_like.drivers import base


class FakeHardware(base.HardwareType):
    supported_power_interfaces = ('fake',)
    supported_management_interfaces = ('fake',)
    supported_deploy_interfaces = ('fake', 'agent')
    supported_boot_interfaces = ('fake', 'ipxe')
    # As Ironic's fake-hardware: the fakes first (the default when
    # enabled), then the no-op ones.
    supported_bios_interfaces = ('fake', 'no-bios')
    supported_console_interfaces = ('fake', 'no-console')
    supported_firmware_interfaces = ('fake', 'no-firmware')
    # As Ironic's: the fake first (the default once enabled in
    # [DEFAULT]enabled_inspect_interfaces), then the others.
    supported_inspect_interfaces = ('fake', 'no-inspect', 'agent')
    # As Ironic's: the fake, then no-raid and the agent's.
    supported_raid_interfaces = ('fake', 'no-raid', 'agent')
    # no-rescue stays the default; the agent rescue drives a simulated
    # agent as the agent deploy does.
    supported_rescue_interfaces = ('no-rescue', 'agent')
    # As Ironic's: the fake vendor passthru methods once enabled in
    # [DEFAULT]enabled_vendor_interfaces (not by default), else none.
    supported_vendor_interfaces = ('fake', 'no-vendor')
