"""The BMC addresses inspection data is matched against."""

import socket
import types
from unittest import mock

from ironic_like.common import bmc_lookup
from ironic_like.tests import base


def _info(address):
    return (socket.AF_INET, socket.SOCK_STREAM, socket.SOL_TCP, '',
            (address, 0))


class BMCLookupTestCase(base.TestCase):

    def test_hosts(self):
        self.assertEqual({'bmc-7.example.com', '10.1.2.3', 'fd00::7'},
                         bmc_lookup.hosts({
                             'redfish_address': 'https://BMC-7.example.com'
                                                ':8000/redfish',
                             'ipmi_address': '10.1.2.3',
                             'other_address': 'http://[fd00::7]/x',
                             'redfish_username': 'admin',
                             'empty_address': ''}))
        self.assertEqual(set(), bmc_lookup.hosts(None))

    def test_resolve_adds_addresses_without_loopback(self):
        def getaddrinfo(host, port, proto=0):
            if host == 'nowhere.example.com':
                raise socket.gaierror('no such host')
            return {'bmc-7.example.com': [_info('10.7.7.7'),
                                          _info('fe80::7%eth0'),
                                          _info('127.0.1.1')],
                    '10.1.2.3': [_info('10.1.2.3')]}[host]
        with mock.patch.object(socket, 'getaddrinfo', getaddrinfo):
            found = bmc_lookup.resolve({
                'redfish_address': 'https://bmc-7.example.com',
                'ipmi_address': '10.1.2.3',
                'x_address': 'nowhere.example.com'}, 'node-1')
        self.assertEqual(['10.1.2.3', '10.7.7.7', 'bmc-7.example.com',
                          'fe80::7', 'nowhere.example.com'], found)

    def test_addresses_of_a_node(self):
        node = types.SimpleNamespace(
            driver_info={'redfish_address': 'https://bmc-7.example.com'},
            driver_internal_info={bmc_lookup.CACHE: ['10.7.7.7']})
        self.assertEqual({'bmc-7.example.com', '10.7.7.7'},
                         bmc_lookup.addresses(node))
        node.driver_internal_info = None
        self.assertEqual({'bmc-7.example.com'}, bmc_lookup.addresses(node))
