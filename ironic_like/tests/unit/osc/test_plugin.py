"""The OpenStackClient plugin module."""

import argparse
import configparser
import importlib
import os
from unittest import mock

import fixtures
from osc_lib import exceptions as osc_exc
import testtools

from ironic_like.osc import client as http
from ironic_like.osc import plugin

SETUP_CFG = os.path.join(os.path.dirname(__file__), '..', '..', '..', '..',
                         'setup.cfg')


class FakeInstance(object):

    def __init__(self, version, endpoint='http://h:6385'):
        self._api_version = {'baremetal': version}
        self.session = object()
        self.region_name = 'RegionOne'
        self.interface = None
        self.endpoint = endpoint
        self.asked = None

    def get_endpoint_for_service_type(self, service_type, region_name=None,
                                      interface=None):
        self.asked = (service_type, region_name, interface)
        return self.endpoint


class TestPlugin(testtools.TestCase):

    def test_module_attributes(self):
        self.assertEqual('baremetal', plugin.API_NAME)
        self.assertEqual('os_baremetal_api_version',
                         plugin.API_VERSION_OPTION)
        self.assertIn('1', plugin.API_VERSIONS)
        self.assertIn('1.52', plugin.API_VERSIONS)
        self.assertIn('1.60', plugin.API_VERSIONS)
        self.assertEqual('1', plugin.DEFAULT_API_VERSION)
        self.assertTrue(plugin.check_api_version('1.99'))

    def test_make_client_negotiates_by_default(self):
        instance = FakeInstance('1')
        client = plugin.make_client(instance)
        self.assertIsInstance(client, http.Client)
        self.assertIsNone(client.requested_version)
        self.assertIs(instance.session, client.session)
        self.assertEqual('http://h:6385', client.endpoint)
        self.assertEqual(('baremetal', 'RegionOne', 'public'),
                         instance.asked)

    def test_make_client_latest_negotiates(self):
        client = plugin.make_client(FakeInstance('latest'))
        self.assertIsNone(client.requested_version)

    def test_make_client_fixed_version(self):
        client = plugin.make_client(FakeInstance('1.52'))
        self.assertEqual((1, 52), client.requested_version)
        self.assertEqual((1, 52), client.version)

    def test_make_client_bad_version(self):
        self.assertRaises(osc_exc.CommandError, plugin.make_client,
                          FakeInstance('one'))

    def test_make_client_without_endpoint(self):
        e = self.assertRaises(osc_exc.CommandError, plugin.make_client,
                              FakeInstance('1', endpoint=None))
        self.assertIn('--os-endpoint', str(e))


class TestOptionParser(testtools.TestCase):

    def parse(self, argv):
        parser = plugin.build_option_parser(argparse.ArgumentParser())
        return parser.parse_args(argv).os_baremetal_api_version

    def test_default_leaves_it_to_clouds_yaml(self):
        # None: clouds.yaml's baremetal_api_version, else
        # DEFAULT_API_VERSION (negotiation), as OpenStackClient reads it.
        self.useFixture(fixtures.EnvironmentVariable(
            'OS_BAREMETAL_API_VERSION'))
        self.assertIsNone(self.parse([]))

    def test_environment_latest(self):
        self.useFixture(fixtures.EnvironmentVariable(
            'OS_BAREMETAL_API_VERSION', 'latest'))
        self.assertEqual('1', self.parse([]))

    def test_environment(self):
        self.useFixture(fixtures.EnvironmentVariable(
            'OS_BAREMETAL_API_VERSION', '1.46'))
        self.assertEqual('1.46', self.parse([]))

    def test_explicit_and_latest(self):
        self.assertEqual('1.52',
                         self.parse(['--os-baremetal-api-version', '1.52']))
        self.assertEqual('1',
                         self.parse(['--os-baremetal-api-version',
                                     'latest']))

    def test_invalid(self):
        with mock.patch('sys.stderr'):
            self.assertRaises(SystemExit, self.parse,
                              ['--os-baremetal-api-version', 'x'])
            self.assertRaises(SystemExit, self.parse,
                              ['--os-baremetal-api-version', '2.1'])


class TestEntryPoints(testtools.TestCase):
    """setup.cfg registers the plugin and every command, each resolving
    to a command class."""

    def entry_points(self, group):
        parser = configparser.ConfigParser()
        parser.read(SETUP_CFG)
        lines = parser.get('entry_points', group).strip().splitlines()
        return dict(line.replace(' ', '').split('=', 1) for line in lines)

    def test_plugin(self):
        self.assertEqual('ironic_like.osc.plugin', self.entry_points(
            'openstack.cli.extension')['baremetal'])

    def test_commands(self):
        commands = self.entry_points('openstack.baremetal.v1')
        for name in ['node_create', 'node_list', 'node_show', 'node_set',
                     'node_unset', 'node_delete', 'node_manage',
                     'node_provide', 'node_deploy', 'node_undeploy',
                     'node_clean', 'node_abort', 'node_rebuild',
                     'node_power_on', 'node_power_off', 'node_reboot',
                     'node_maintenance_set', 'node_maintenance_unset',
                     'node_add_trait', 'node_remove_trait',
                     'node_trait_list', 'port_create', 'port_list',
                     'port_show', 'port_set', 'port_delete', 'driver_list',
                     'driver_show', 'conductor_list', 'conductor_show',
                     'allocation_create', 'allocation_list',
                     'allocation_show', 'allocation_set',
                     'allocation_unset', 'allocation_delete']:
            self.assertIn('baremetal_' + name, commands)
        for name, target in commands.items():
            module, _sep, attr = target.partition(':')
            command_class = getattr(importlib.import_module(module), attr)
            self.assertTrue(callable(command_class.take_action), name)
            self.assertTrue(command_class.__doc__, name)
