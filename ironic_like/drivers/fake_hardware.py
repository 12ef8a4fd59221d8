"""fake-hardware: every interface is fake; for tests, demos and labs."""

from ironic_like.drivers import base


class FakeHardware(base.HardwareType):
    supported_power_interfaces = ('fake',)
    supported_management_interfaces = ('fake',)
    supported_deploy_interfaces = ('fake',)
    supported_boot_interfaces = ('fake',)
