"""Virtual media (API 1.89, read 1.93) and health (1.109) through Redfish,
against a mocked BMC."""

import types
from unittest import mock

import sushy

from ironic_like.common import exception
from ironic_like.drivers.modules import redfish_vendor
from ironic_like.tests.unit.drivers import test_firmware
from ironic_like.tests.unit.drivers import test_redfish


def _device(*types, inserted=False, image=None):
    return mock.Mock(media_types=list(types), inserted=inserted,
                     image=image)


class _WithVirtualMedia(test_redfish._SushyTest):
    """A BMC with a CD/DVD drive (inserted) and a USB stick."""

    def setUp(self):
        super().setUp()
        self.cd = _device(sushy.VirtualMediaType.CD,
                          sushy.VirtualMediaType.DVD, inserted=True,
                          image='http://x/old.iso')
        self.usb = _device(sushy.VirtualMediaType.USB_STICK)
        manager = mock.Mock()
        manager.virtual_media.get_members.return_value = [self.usb, self.cd]
        self.system.managers = [manager]


class TestRedfishVirtualMedia(_WithVirtualMedia):

    def test_attach_ejects_then_inserts(self):
        self.management.attach_virtual_media(test_firmware._task(), 'cdrom',
                                             'http://x/boot.iso')
        self.cd.eject_media.assert_called_once_with()
        self.cd.insert_media.assert_called_once_with(
            'http://x/boot.iso', inserted=True, write_protected=True)
        self.usb.insert_media.assert_not_called()

    def test_no_such_device(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.management.attach_virtual_media,
                              test_firmware._task(), 'floppy', 'http://x/f')
        self.assertEqual('device_type', e.field)

    def test_detach_only_inserted_and_wanted(self):
        self.management.detach_virtual_media(test_firmware._task(),
                                             ['disk'])
        self.usb.eject_media.assert_not_called()   # not inserted
        self.cd.eject_media.assert_not_called()    # not asked for
        self.management.detach_virtual_media(test_firmware._task(), None)
        self.cd.eject_media.assert_called_once_with()

    def test_get_lists_every_device(self):
        self.assertEqual(
            [{'media_types': ['USBStick'], 'inserted': False, 'image': ''},
             {'media_types': ['CD', 'DVD'], 'inserted': True,
              'image': 'http://x/old.iso'}],
            self.management.get_virtual_media(test_firmware._task()))


class TestRedfishVendorEject(_WithVirtualMedia):
    """The redfish vendor interface's eject_vmedia (Ironic's passthru
    method): the virtual media detach of the node's management."""

    def setUp(self):
        super().setUp()
        self.vendor = redfish_vendor.RedfishVendor()
        self.task = test_firmware._task()
        self.task.driver = types.SimpleNamespace(
            management=self.management)

    def test_routes(self):
        routes = self.vendor.vendor_routes
        self.assertEqual(['create_subscription', 'delete_subscription',
                          'eject_vmedia', 'get_all_subscriptions',
                          'get_subscription'], sorted(routes))
        self.assertEqual(['POST'], routes['eject_vmedia']['http_methods'])
        self.assertTrue(routes['eject_vmedia']['async'])
        self.assertEqual({}, self.vendor.driver_routes)

    def test_eject_one_kind_or_all(self):
        self.usb.inserted = True
        self.vendor.validate(self.task, method='eject_vmedia',
                             http_method='POST', boot_device='usb')
        self.vendor.eject_vmedia(self.task, http_method='POST',
                                 boot_device='usb')
        self.usb.eject_media.assert_called_once_with()
        self.cd.eject_media.assert_not_called()    # not asked for
        self.vendor.eject_vmedia(self.task, http_method='POST',
                                 boot_device='dvd')
        self.cd.eject_media.assert_called_once_with()

    def test_eject_all(self):
        self.usb.inserted = True
        self.vendor.eject_vmedia(self.task, http_method='POST')
        self.usb.eject_media.assert_called_once_with()
        self.cd.eject_media.assert_called_once_with()

    def test_bad_boot_device(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.vendor.validate, self.task,
                              method='eject_vmedia', http_method='POST',
                              boot_device='tape')
        self.assertEqual('boot_device', e.field)
        self.assertIn('cd, dvd, floppy, usb', str(e))


class TestRedfishHealth(test_redfish._SushyTest):
    """The system's Status.Health (API 1.109)."""

    def test_health(self):
        for reported, expected in ((sushy.Health.OK, 'OK'),
                                   (sushy.Health.CRITICAL, 'Critical'),
                                   (None, None)):
            self.system.status = mock.Mock(health=reported)
            self.assertEqual(expected, self.management.get_node_health(
                test_firmware._task()))
        self.system.status = None
        self.assertIsNone(self.management.get_node_health(
            test_firmware._task()))
