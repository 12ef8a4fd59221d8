"""Node interfaces on the conductor, over RPC: validation, management,
console, BIOS caching on verify, target RAID configuration."""

from unittest import mock

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import rpcapi
from ironic_like.drivers.modules import fake
from ironic_like.tests.unit.conductor import utils as cond_utils
from ironic_like.tests.unit.db import utils


class TestNodeInterfaces(cond_utils.ConductorTestCase):

    def setUp(self):
        super().setUp()
        self.config(enabled_console_interfaces=['fake', 'no-console'],
                    enabled_raid_interfaces=['fake', 'no-raid'],
                    enabled_bios_interfaces=['fake', 'no-bios'])

    def test_validate(self):
        node = utils.create_test_node(console_interface='no-console')
        result = self.api.validate_driver_interfaces(self.context, node)
        self.assertEqual({'result': True}, result['power'])
        self.assertIsNone(result['console']['result'])
        self.assertNotIn('vendor', result)
        # Shared lock: a locked node is still validated.
        self.db.update_node(node.id, {'reservation': 'someone'})
        self.assertIn('power', self.api.validate_driver_interfaces(
            self.context, node))

    def test_boot_device(self):
        node = utils.create_test_node()
        self.api.set_boot_device(self.context, node, 'cdrom', True)
        self.assertEqual({'boot_device': 'cdrom', 'persistent': True},
                         self.api.get_boot_device(self.context, node))
        self.assertIn('pxe', self.api.get_supported_boot_devices(
            self.context, node))
        self.assertIsNone(self.db.get_node_by_id(node.id).reservation)
        self.db.update_node(node.id, {'reservation': 'someone'})
        self.assertRaises(exception.NodeLocked, self.api.set_boot_device,
                          self.context, node, 'pxe')
        self.assertRaises(exception.NodeLocked, self.api.inject_nmi,
                          self.context, node)

    def test_console(self):
        node = utils.create_test_node(console_interface='fake')
        self.assertRaises(exception.NodeConsoleNotEnabled,
                          self.api.get_console_information, self.context,
                          node)
        self.api.set_console_mode(self.context, node, True)
        utils.wait_for_node(node.uuid, lambda n: n.console_enabled)
        self.assertIn('url', self.api.get_console_information(
            self.context, node))

    def test_console_failure_recorded(self):
        node = utils.create_test_node(console_interface='fake')
        with mock.patch.object(fake.FakeConsole, 'start_console',
                               side_effect=RuntimeError('no proxy')):
            self.api.set_console_mode(self.context, node, True)
            node = utils.wait_for_node(node.uuid,
                                       lambda n: n.last_error is not None)
        self.assertIn('no proxy', node.last_error)
        self.assertFalse(node.console_enabled)

    def test_bios_cached_on_manage_and_failure_ignored(self):
        node = utils.create_test_node(bios_interface='fake',
                                      provision_state=states.ENROLL)
        self.api.do_provisioning_action(self.context, node, 'manage', None)
        utils.wait_for_node(
            node.uuid, lambda n: n.provision_state == states.MANAGEABLE)
        self.assertEqual(3, len(self.db.get_bios_settings(node.id)))
        other = utils.create_test_node(bios_interface='fake',
                                       provision_state=states.ENROLL)
        with mock.patch.object(fake.FakeBIOS, 'get_bios_settings',
                               side_effect=RuntimeError('bmc down')):
            self.api.do_provisioning_action(self.context, other, 'manage',
                                            None)
            other = utils.wait_for_node(
                other.uuid,
                lambda n: n.provision_state == states.MANAGEABLE)
        self.assertEqual([], self.db.get_bios_settings(other.id))

    def test_target_raid_config(self):
        config = {'logical_disks': [{'size_gb': 10, 'raid_level': '0'}]}
        node = utils.create_test_node(raid_interface='fake')
        self.api.set_target_raid_config(self.context, node, config)
        self.assertEqual(config,
                         self.db.get_node_by_id(node.id).target_raid_config)
        self.assertRaises(exception.InvalidParameterValue,
                          self.api.set_target_raid_config, self.context,
                          node, {'logical_disks': [{}]})
        plain = utils.create_test_node(raid_interface='no-raid')
        self.assertRaises(exception.UnsupportedDriverExtension,
                          self.api.set_target_raid_config, self.context,
                          plain, {})

    def test_version_cap(self):
        self.config(rpc_version_cap='1.7')
        api = rpcapi.ConductorAPI()
        node = utils.create_test_node()
        e = self.assertRaises(exception.ConductorUnavailable,
                              api.validate_driver_interfaces, self.context,
                              node)
        self.assertIn('1.8', str(e))
