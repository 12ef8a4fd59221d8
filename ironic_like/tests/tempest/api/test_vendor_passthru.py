"""Vendor passthru (Ironic API 1.0) on the clustered service: a
fake-hardware node's ``fake`` vendor methods listed and called through
its conductor (synchronous: their value; asynchronous: 202), refused
calls, and a driver's methods."""

from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base


class TestVendorPassthru(base.BaseBaremetalLikeTest):

    min_microversion = '1.31'

    @decorators.idempotent_id('3f6a2d91-5c0e-4b7a-9e18-c4d2a7b05f63')
    def test_node_methods(self):
        node = self.create_node(vendor_interface='fake')
        methods = self.client.list_vendor_passthru_methods('nodes',
                                                           node['uuid'])
        self.assertEqual({'second_method', 'third_method_sync',
                          'fourth_method_shared_lock', 'log_passthrough'},
                         set(methods))
        self.assertEqual(['POST'],
                         methods['third_method_sync']['http_methods'])
        call = self.client.call_vendor_passthru
        self.assertEqual((200, True), call('nodes', node['uuid'],
                                           'third_method_sync',
                                           {'bar': 'meow'}))
        self.assertEqual((202, None), call('nodes', node['name'],
                                           'log_passthrough', {'x': '1'}))
        self.assertEqual((202, None), call('nodes', node['uuid'],
                                           'second_method',
                                           {'bar': 'kazoo'}))
        for method, body, http_method in (
                ('nope', {}, 'POST'),
                ('third_method_sync', {}, 'POST'),
                ('third_method_sync', {'bar': 'meow'}, 'PUT')):
            self.assertRaises(lib_exc.BadRequest, call, 'nodes',
                              node['uuid'], method, body, http_method)
        # The asynchronous call let go of the node's lock.
        self.wait_for(lambda: self.client.show_node(node['uuid'])[
            'reservation'] is None, 'node unlocked')

    @decorators.idempotent_id('a1c7e5f2-0b94-4d36-8f2a-6e9d3b7c1a48')
    def test_node_without_vendor_methods(self):
        node = self.create_node()
        methods = self.client.list_vendor_passthru_methods('nodes',
                                                           node['uuid'])
        self.assertEqual({}, dict(methods))
        self.assertRaises(lib_exc.BadRequest,
                          self.client.call_vendor_passthru, 'nodes',
                          node['uuid'], 'third_method_sync', {'bar': 'x'})

    @decorators.idempotent_id('c58b0e37-2f6d-4a19-b7c4-9d1e8a3f6b20')
    def test_driver_methods(self):
        # fake-hardware's default vendor interface is no-vendor here.
        self.assertEqual({}, dict(self.client.list_vendor_passthru_methods(
            'drivers', 'fake-hardware')))
        self.assertEqual({}, dict(self.client.list_vendor_passthru_methods(
            'drivers', 'redfish')))
        self.assertRaises(lib_exc.NotFound,
                          self.client.list_vendor_passthru_methods,
                          'drivers', 'no-such-driver')
        self.assertRaises(lib_exc.BadRequest,
                          self.client.call_vendor_passthru, 'drivers',
                          'redfish', 'eject_vmedia', {})
