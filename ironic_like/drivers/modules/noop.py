"""Ironic's no-op interfaces: ``no-bios``, ``no-console``,
``no-firmware``, ``no-inspect``, ``no-raid``, ``no-rescue``, ``no-vendor``
(every operation refused with UnsupportedDriverExtension) and the
``noop`` storage and network interfaces (nothing to do, so nothing
fails).

A node's validation (GET /v1/nodes/{id}/validate) shows the refusing ones
as not supported: their validate() raises UnsupportedDriverExtension too.
"""

from ironic_like.common import exception
from ironic_like.drivers import base


class _Refusing(object):
    """validate() of an interface that does nothing at all."""

    kind = None

    def validate(self, task):
        raise base.unsupported(task, self.kind)


class NoBIOS(_Refusing, base.BIOSInterface):
    kind = 'bios'


class NoConsole(_Refusing, base.ConsoleInterface):
    kind = 'console'


class NoFirmware(_Refusing, base.FirmwareInterface):
    kind = 'firmware'


class NoInspect(_Refusing, base.InspectInterface):
    kind = 'inspect'


class NoRAID(_Refusing, base.RAIDInterface):
    kind = 'raid'

    def get_logical_disk_properties(self):
        # No task here: the API names the hardware type in its answer.
        raise exception.UnsupportedDriverExtension(
            driver='(no-raid)', extension='raid')


class NoRescue(_Refusing, base.RescueInterface):
    kind = 'rescue'


class NoVendor(_Refusing, base.VendorInterface):
    kind = 'vendor'


class NoopStorage(base.StorageInterface):
    """The node boots from its local disk: no volumes to attach."""


class NoopNetwork(base.NetworkInterface):
    """The ports' networking is left to whoever cabled them."""
