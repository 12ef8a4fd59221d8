"""fake-hardware: every interface fake by default, for tests, demos and
labs; the agent deploy and iPXE boot can be chosen per node to drive a
simulated agent without a BMC."""

from ironic_like.drivers import base


class FakeHardware(base.HardwareType):
    supported_power_interfaces = ('fake',)
    supported_management_interfaces = ('fake',)
    supported_deploy_interfaces = ('fake', 'agent')
    supported_boot_interfaces = ('fake', 'ipxe')
