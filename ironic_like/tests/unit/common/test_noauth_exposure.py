"""noauth is for loopback only: ironic-like-api and ironic-like-all refuse
to start when every caller would be an administrator from the network,
unless [api]allow_insecure_noauth is set (then they warn)."""

import logging
import socket
from unittest import mock

import fixtures
from oslo_config import fixture as config_fixture
import testtools

from ironic_like.cmd import all as all_cmd
from ironic_like.cmd import api as api_cmd
from ironic_like.common import service
from ironic_like.conf import CONF


class TestIsLoopback(testtools.TestCase):

    def test_addresses(self):
        for host in ('127.0.0.1', '127.1.2.3', '::1', '[::1]',
                     '::ffff:127.0.0.1'):
            self.assertTrue(service.is_loopback(host), host)
        for host in ('0.0.0.0', '::', '10.0.0.5', '192.168.1.1',
                     'fe80::1', '2001:db8::1', ''):
            self.assertFalse(service.is_loopback(host), host)

    def test_names_are_resolved(self):
        self.assertTrue(service.is_loopback('localhost'))

        def fake_getaddrinfo(host, port):
            return {
                'both': [(socket.AF_INET, 0, 0, '', ('127.0.0.1', 0)),
                         (socket.AF_INET, 0, 0, '', ('10.0.0.1', 0))],
                'lo6': [(socket.AF_INET6, 0, 0, '', ('::1', 0, 0, 0))],
            }[host]

        with mock.patch.object(socket, 'getaddrinfo', fake_getaddrinfo):
            # Reachable from elsewhere through one of its addresses.
            self.assertFalse(service.is_loopback('both'))
            self.assertTrue(service.is_loopback('lo6'))
        with mock.patch.object(socket, 'getaddrinfo',
                               side_effect=socket.gaierror('no')):
            self.assertFalse(service.is_loopback('nowhere.invalid'))


class TestCheckNoauthExposure(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.cfg = self.useFixture(config_fixture.Config(CONF))
        self.logs = self.useFixture(fixtures.FakeLogger(
            name=service.__name__, level=logging.WARNING))

    def test_defaults_refuse(self):
        # The defaults: noauth on every interface.
        self.assertEqual('noauth', CONF.auth_strategy)
        self.assertEqual('0.0.0.0', CONF.api.host_ip)
        self.assertFalse(CONF.api.allow_insecure_noauth)
        e = self.assertRaises(service.UnsafeConfiguration,
                              service.check_noauth_exposure)
        for name in ('auth_strategy', 'noauth', '[api]host_ip', '0.0.0.0',
                     '[api]allow_insecure_noauth'):
            self.assertIn(name, str(e))

    def test_loopback_is_fine(self):
        for host in ('127.0.0.1', '::1'):
            self.cfg.config(host_ip=host, group='api')
            service.check_noauth_exposure()
        self.assertEqual('', self.logs.output)

    def test_other_strategies_are_fine(self):
        self.cfg.config(host_ip='10.0.0.5', group='api')
        for strategy in ('keystone', 'http_basic'):
            self.cfg.config(auth_strategy=strategy)
            service.check_noauth_exposure()
        self.assertEqual('', self.logs.output)

    def test_allowed_with_a_warning(self):
        self.cfg.config(host_ip='10.0.0.5', group='api')
        self.cfg.config(allow_insecure_noauth=True, group='api')
        service.check_noauth_exposure()
        self.assertIn('noauth', self.logs.output)
        self.assertIn('10.0.0.5', self.logs.output)
        self.assertIn('allow_insecure_noauth', self.logs.output)


class TestCommandsRefuse(testtools.TestCase):
    """The console scripts stop before serving anything."""

    def setUp(self):
        super().setUp()
        self.cfg = self.useFixture(config_fixture.Config(CONF))
        self.useFixture(fixtures.FakeLogger(name=service.__name__))
        # Configuration comes from the fixture, not from argv.
        self.useFixture(fixtures.MockPatchObject(
            service, 'prepare_service'))

    def test_api_refuses(self):
        self.cfg.config(host_ip='0.0.0.0', group='api')
        with mock.patch.object(api_cmd, 'wsgi_server') as server:
            e = self.assertRaises(SystemExit, api_cmd.main)
        self.assertIn('ironic-like-api', str(e.code))
        self.assertIn('allow_insecure_noauth', str(e.code))
        server.serve_one.assert_not_called()
        server.Supervisor.assert_not_called()

    def test_api_starts_when_allowed(self):
        self.cfg.config(host_ip='0.0.0.0', allow_insecure_noauth=True,
                        api_workers=1, group='api')
        with mock.patch.object(api_cmd, 'wsgi_server') as server:
            api_cmd.main()
        server.serve_one.assert_called_once_with(
            mock.ANY, '0.0.0.0', CONF.api.port, CONF.api.threads_per_worker)

    def test_api_on_loopback_starts(self):
        self.cfg.config(host_ip='127.0.0.1', api_workers=1, group='api')
        with mock.patch.object(api_cmd, 'wsgi_server') as server:
            api_cmd.main()
        server.serve_one.assert_called_once()

    def test_all_refuses_before_touching_anything(self):
        self.cfg.config(host_ip='10.1.2.3', group='api')
        with mock.patch.object(all_cmd, 'migration') as migration, \
                mock.patch.object(all_cmd, 'service') as conductor:
            e = self.assertRaises(SystemExit, all_cmd.main)
        self.assertIn('ironic-like-all', str(e.code))
        self.assertIn('10.1.2.3', str(e.code))
        migration.upgrade.assert_not_called()
        conductor.ConductorService.assert_not_called()

    def test_all_defaults_to_loopback_and_starts(self):
        # Embedded mode: noauth on 127.0.0.1 unless told otherwise.
        with mock.patch.object(all_cmd, 'migration'), \
                mock.patch.object(all_cmd, 'service'), \
                mock.patch.object(all_cmd, 'conductor_cmd'), \
                mock.patch.object(all_cmd.rpc, 'init'), \
                mock.patch.object(all_cmd.rpc, 'cleanup'), \
                mock.patch.object(all_cmd, 'wsgi_server') as server:
            all_cmd.main()
        server.make_server.assert_called_once_with(
            mock.ANY, '127.0.0.1', CONF.api.port,
            CONF.api.threads_per_worker)
