"""Boot sessions in the lab: a machine whose boot configuration carries a
referral token boots an OS and reports; failure options, also through the
Redfish emulator wrapper."""

import hashlib
import logging
import os
import socket
import sys
import time

import fixtures
import requests
import testtools

from ironic_like_lab import redfish_emulator
from ironic_like_lab import simulator
from ironic_like_lab import virtual

from ironic_like.tests.unit.lab import fakes
from ironic_like.tests.unit.lab import test_simulator
from ironic_like.tests.unit.lab.test_simulator import mac
from ironic_like.tests.utils import wait_for

KERNEL = os.urandom(256 * 1024 + 7)
INITRD = os.urandom(1024 * 1024 + 3)


class OSBootTestBase(test_simulator.SimulatorTestBase):

    def setUp(self):
        super().setUp()
        self.sim.boot_config_url = self.images.url + '/macs/{mac}.ipxe'
        os.mkdir(os.path.join(self.images.directory, 'macs'))
        self.kernel_url = self.images.add('vmlinuz', KERNEL)
        self.initrd_url = self.images.add('initrd.img', INITRD)
        self.reports = fakes.RecordingServer().start()
        self.addCleanup(self.reports.stop)

    def report_url(self, component='node-7'):
        return '%s/v1/boot/components/%s/report' % (
            self.reports.url, component)

    def write_session_script(self, mac_address, token='abc123',
                             component='node-7', frequency='4h',
                             report_url=True, kernel=None, initrd=None):
        """The script the boot-session service writes."""
        params = ['console=ttyS0', 'bos_update_frequency=%s' % frequency,
                  'bss_referral_token=%s' % token,
                  'bos_component=%s' % component]
        if report_url:
            params.append('bos_report_url=%s' % (
                self.report_url(component) if report_url is True
                else report_url))
        self.images.add(
            'macs/%s.ipxe' % mac_address,
            ('#!ipxe\nkernel %s %s initrd=initrd\n'
             'initrd --name initrd %s\nboot\n'
             % (kernel or self.kernel_url, ' '.join(params),
                initrd or self.initrd_url)).encode())

    def add_machine(self, index=1, **options):
        return self.sim.add_agent({'id': 'm%d' % index, 'macs': [mac(index)],
                                   'options': options})

    def power_on(self, agent):
        resp = self.session.post('%s/power' % self.control,
                                 json={'system': agent.id,
                                       'power_state': 'On'})
        self.assertEqual(202, resp.status_code, resp.text)

    def wait_reports(self, count, timeout=10):
        wait_for(lambda: len(self.reports.received('POST')) >= count,
                 timeout, message=lambda: 'reports: %s'
                 % self.reports.received())
        return self.reports.received('POST')


class TestOSBoot(OSBootTestBase):

    def test_session_boot_downloads_and_reports(self):
        self.write_session_script(mac(1))
        agent = self.add_machine()
        self.power_on(agent)
        report = self.wait_reports(1)[0]
        self.assertEqual('/v1/boot/components/node-7/report', report['path'])
        self.assertEqual({'bss_token': 'abc123'}, report['body'])
        self.assertEqual('application/json',
                         report['headers']['Content-Type'])
        wait_for(lambda: agent.counters['reports'] == 1)
        detail = self.session.get('%s/agents/m1' % self.control).json()
        self.assertEqual(virtual.OS, detail['state'])
        self.assertEqual(1, detail['reports'])
        self.assertEqual(204, detail['last_report_status'])
        record = detail['records']['os_boot']
        self.assertEqual(self.kernel_url, record['kernel'])
        self.assertEqual(self.initrd_url, record['initrd'])
        self.assertEqual(len(KERNEL), record['kernel_size'])
        self.assertEqual(hashlib.sha256(KERNEL).hexdigest(),
                         record['kernel_sha256'])
        self.assertEqual(len(INITRD), record['initrd_size'])
        self.assertEqual(hashlib.sha256(INITRD).hexdigest(),
                         record['initrd_sha256'])
        self.assertEqual('abc123', record['token'])
        self.assertEqual('node-7', record['component'])
        self.assertEqual('4h', record['update_frequency'])
        self.assertIsNone(record['error'])
        self.assertIn('console=ttyS0', record['kernel_params'])
        self.assertTrue(record['kernel_params'].endswith('initrd=initrd'))
        self.assertLess(abs(time.time() - record['time']), 60)
        # The OS, not the ramdisk: no lookup, no agent API.
        self.assertEqual([], self.api.lookups)
        self.assertEqual(503, self.session.get(
            '%s/v1/commands/' % agent.url).status_code)
        health = self.session.get('%s/health' % self.control).json()
        self.assertEqual({virtual.OS: 1}, health['states'])
        self.assertEqual(1, health['reports'])
        # Every 0.75 x 4 h: nothing more for now.
        time.sleep(0.2)
        self.assertEqual(1, len(self.reports.received()))
        self.assertEqual(1, agent.counters['os_boots'])
        self.assertNotIn('abc123', '\n'.join(agent.events))

    def test_report_url_defaults_to_api(self):
        self.write_session_script(mac(1), component='x1000c0s0b0n0',
                                  report_url=False)
        agent = self.add_machine()
        agent.api_url = self.reports.url
        self.power_on(agent)
        report = self.wait_reports(1)[0]
        self.assertEqual('/v1/boot/components/x1000c0s0b0n0/report',
                         report['path'])

    def test_os_boot_delay(self):
        self.write_session_script(mac(1))
        agent = self.add_machine(os_boot_delay=0.5)
        self.power_on(agent)
        wait_for(lambda: agent.state == virtual.OS)
        booted = time.monotonic()
        self.assertEqual([], self.reports.received())
        self.wait_reports(1)
        self.assertGreater(self.reports.received()[0]['at'] - booted, 0.3)

    def test_never_report(self):
        self.write_session_script(mac(1))
        agent = self.add_machine(never_report=True)
        self.power_on(agent)
        wait_for(lambda: agent.state == virtual.OS)
        time.sleep(0.3)
        self.assertEqual([], self.reports.received())
        self.assertEqual(0, agent.counters['reports'])
        self.assertIsNone(agent.last_report_status)
        # The machine itself is up and can be powered off.
        agent.power_off()
        self.assertEqual(0, self.sim.scheduler.pending())

    def test_download_failure_stays_at_ipxe(self):
        self.write_session_script(mac(1), initrd=self.images.url + '/nope')
        self.write_session_script(mac(2), kernel='http://127.0.0.1:9/k')
        broken_initrd = self.add_machine(1)
        unreachable = self.add_machine(2)
        for agent in (broken_initrd, unreachable):
            self.power_on(agent)
        for agent in (broken_initrd, unreachable):
            wait_for(lambda: agent.state == virtual.BOOT_FAILED,
                     message=lambda: list(agent.events))
            self.assertEqual(1, agent.counters['os_boot_failures'])
            self.assertEqual(0, agent.counters['os_boots'])
            self.assertTrue(agent.powered())
        record = broken_initrd.records['os_boot']
        self.assertIn('initrd', record['error'])
        self.assertIn('404', record['error'])
        self.assertEqual(len(KERNEL), record['kernel_size'])
        self.assertIsNone(record['initrd_size'])
        self.assertTrue(any('OS boot failed' in e
                            for e in broken_initrd.events))
        self.assertIn('kernel', unreachable.records['os_boot']['error'])
        self.assertIn('ConnectionError',
                      unreachable.records['os_boot']['error'])
        time.sleep(0.2)
        self.assertEqual([], self.reports.received())
        self.assertEqual([], self.api.lookups)

    def test_report_retried_after_error(self):
        self.reports.statuses = [500, 503]
        self.write_session_script(mac(1))
        agent = self.add_machine(report_backoff=0.1)
        self.power_on(agent)
        sent = self.wait_reports(3)
        self.assertEqual([{'bss_token': 'abc123'}] * 3,
                         [r['body'] for r in sent])
        # Backoff 0.1 then 0.2 s.
        self.assertGreater(sent[1]['at'] - sent[0]['at'], 0.05)
        self.assertGreater(sent[2]['at'] - sent[1]['at'], 0.15)
        wait_for(lambda: agent.counters['reports'] == 1)
        self.assertEqual(2, agent.counters['report_errors'])
        self.assertEqual(204, agent.last_report_status)
        self.assertTrue(any('answered 500' in e for e in agent.events))
        time.sleep(0.3)
        self.assertEqual(3, len(self.reports.received()))

    def test_report_retried_while_api_down(self):
        self.write_session_script(
            mac(1), report_url='http://127.0.0.1:9/v1/boot/components/'
            'node-7/report')
        agent = self.add_machine(report_backoff=0.05,
                                 report_backoff_max=0.1)
        self.power_on(agent)
        wait_for(lambda: agent.counters['report_errors'] >= 3)
        self.assertIn('error', agent.last_report_status)
        self.assertEqual(virtual.OS, agent.state)
        agent.power_off()
        self.assertEqual(0, self.sim.scheduler.pending())

    def test_periodic_reports_stop_at_power_off(self):
        # 1 s: a report every 0.75 s (the first after [0, 0.75) s).
        self.write_session_script(mac(1), frequency='1')
        agent = self.add_machine()
        self.power_on(agent)
        self.wait_reports(3, timeout=15)
        resp = self.session.post('%s/power' % self.control,
                                 json={'system': mac(1),
                                       'power_state': 'ForceOff'})
        self.assertEqual(202, resp.status_code)
        self.assertEqual(virtual.OFF, agent.state)
        count = len(self.reports.received())
        time.sleep(1.0)
        self.assertEqual(count, len(self.reports.received()))
        self.assertEqual(0, self.sim.scheduler.pending())

    def test_reboot_reports_new_token(self):
        self.write_session_script(mac(1), token='first')
        agent = self.add_machine(report_backoff=0.05)
        self.power_on(agent)
        self.wait_reports(1)
        self.write_session_script(mac(1), token='second')
        resp = self.session.post('%s/power' % self.control,
                                 json={'system': agent.id,
                                       'power_state': 'ForceRestart'})
        self.assertEqual(202, resp.status_code)
        sent = self.wait_reports(2)
        self.assertEqual(['first', 'second'],
                         [r['body']['bss_token'] for r in sent])
        self.assertEqual(2, agent.counters['os_boots'])

    def test_ramdisk_script_still_looks_up(self):
        node_uuid = self.api.add_node([mac(1)])
        self.images.add(
            'macs/%s.ipxe' % mac(1),
            ('#!ipxe\nkernel %s ipa-api-url=%s ipa-node-uuid=%s '
             'initrd=ramdisk\ninitrd --name ramdisk %s\nboot\n'
             % (self.kernel_url, self.api.url, node_uuid,
                self.initrd_url)).encode())
        agent = self.add_machine()
        self.power_on(agent)
        self.assertTrue(wait_for(lambda: self.api.heartbeats_of(node_uuid)))
        self.assertEqual(virtual.HEARTBEATING, agent.state)
        self.assertIsNone(agent.records['os_boot'])
        self.assertEqual([], self.reports.received())


class TestPowerOptions(OSBootTestBase):
    """The failure options through the simulator's own /control/power."""

    def power(self, agent, state, expect=202):
        resp = self.session.post('%s/power' % self.control,
                                 json={'system': agent.id,
                                       'power_state': state})
        self.assertEqual(expect, resp.status_code, resp.text)
        return resp

    def test_fail_power_on(self):
        self.write_session_script(mac(1))
        agent = self.add_machine(fail_power_on=True)
        for state in ('On', 'ForceOn'):
            resp = self.power(agent, state, expect=500)
            self.assertEqual('simulated power-on failure',
                             resp.json()['message'])
            self.assertEqual(virtual.OFF, agent.state)
        self.assertEqual(0, agent.counters['boots'])
        # Lifted through the control API: it boots.
        resp = self.session.patch('%s/agents/m1/options' % self.control,
                                  json={'fail_power_on': None})
        self.assertEqual(200, resp.status_code)
        self.assertFalse(resp.json()['options']['fail_power_on'])
        self.power(agent, 'On')
        self.wait_reports(1)

    def test_ignore_graceful_shutdown(self):
        self.write_session_script(mac(1))
        agent = self.add_machine()
        self.power(agent, 'On')
        wait_for(lambda: agent.state == virtual.OS)
        resp = self.session.patch('%s/agents/m1/options' % self.control,
                                  json={'ignore_graceful_shutdown': True})
        self.assertEqual(200, resp.status_code)
        for state in ('GracefulShutdown', 'GracefulRestart',
                      'PushPowerButton'):
            self.power(agent, state)
            self.assertEqual(virtual.OS, agent.state)
        self.assertEqual(1, agent.counters['boots'])
        self.assertTrue(any('ignored gracefulshutdown' in e
                            for e in agent.events))
        # On of a machine already on changes nothing either.
        self.power(agent, 'On')
        self.assertEqual(1, agent.counters['boots'])
        self.power(agent, 'ForceOff')
        self.assertEqual(virtual.OFF, agent.state)

    def test_graceful_shutdown_by_default(self):
        self.write_session_script(mac(1))
        agent = self.add_machine()
        self.power(agent, 'On')
        wait_for(lambda: agent.state == virtual.OS)
        self.power(agent, 'GracefulShutdown')
        self.assertEqual(virtual.OFF, agent.state)

    def test_options_from_fleet_and_control(self):
        agents = self.sim.load_fleet_doc({
            'defaults': {'options': {'never_report': True}},
            'agents': [{'id': 'f1', 'macs': [mac(31)],
                        'ignore_graceful_shutdown': True},
                       {'id': 'f2', 'macs': [mac(32)],
                        'options': {'fail_power_on': True}}]})
        self.assertTrue(agents[0].options['never_report'])
        self.assertTrue(agents[0].options['ignore_graceful_shutdown'])
        self.assertTrue(agents[1].options['fail_power_on'])
        self.assertFalse(agents[1].options['ignore_graceful_shutdown'])
        resp = self.session.get('%s/agents/%s/options'
                                % (self.control, mac(32)))
        self.assertEqual(200, resp.status_code)
        self.assertEqual(agents[1].options, resp.json()['options'])


class TestParsing(testtools.TestCase):

    SCRIPT = ('#!ipxe\n'
              'kernel http://host/k/vmlinuz console=ttyS0 '
              'bos_update_frequency=4h bss_referral_token=abc123 '
              'bos_component=node-7 bos_report_url=http://127.0.0.1:6385/'
              'v1/boot/components/node-7/report initrd=initrd\n'
              'initrd --name initrd http://host/k/initrd.img\n'
              'boot\n')

    def test_parse_os_boot_config(self):
        self.assertEqual({
            'kernel': 'http://host/k/vmlinuz',
            'initrd': 'http://host/k/initrd.img',
            'kernel_params': 'console=ttyS0 bos_update_frequency=4h '
                             'bss_referral_token=abc123 bos_component=node-7 '
                             'bos_report_url=http://127.0.0.1:6385/v1/boot/'
                             'components/node-7/report initrd=initrd',
            'token': 'abc123', 'component': 'node-7',
            'report_url': 'http://127.0.0.1:6385/v1/boot/components/'
                          'node-7/report',
            'update_frequency': '4h'},
            virtual.parse_os_boot_config(self.SCRIPT))
        # The ramdisk parser sees none of it.
        self.assertEqual({}, virtual.parse_boot_config(self.SCRIPT))

    def test_not_a_session(self):
        for text in ('', '<html>', '#!ipxe\nboot\n',
                     '#!ipxe\nkernel http://k ipa-api-url=http://a\n',
                     '#!ipxe\nkernel http://k bss_referral_token=\n'):
            self.assertIsNone(virtual.parse_os_boot_config(text), text)

    def test_options_relative_urls_no_initrd(self):
        found = virtual.parse_os_boot_config(
            '#!ipxe\nkernel --name k --timeout 5000 k/vmlinuz '
            'bss_referral_token=t\nboot\n',
            'http://h:8088/macs/52:54:00:00:00:01.ipxe')
        self.assertEqual('http://h:8088/macs/k/vmlinuz', found['kernel'])
        self.assertIsNone(found['initrd'])
        self.assertEqual('bss_referral_token=t', found['kernel_params'])
        self.assertIsNone(found['report_url'])
        self.assertIsNone(found['update_frequency'])

    def test_update_frequency(self):
        for text, seconds in (('4h', 14400), ('30m', 1800), ('1d', 86400),
                              ('2w', 1209600), ('90', 90), ('90s', 90),
                              ('1.5H', 5400), (' 10 ', 10)):
            self.assertEqual(seconds, virtual.parse_update_frequency(text))
        for text in ('', None, 'h', '4x', '-1h', '4 hours'):
            self.assertIsNone(virtual.parse_update_frequency(text), text)
        self.assertEqual(3 * 3600, virtual.report_period('4h'))
        self.assertEqual(0.75, virtual.report_period('1'))
        self.assertEqual(virtual.MIN_REPORT_PERIOD,
                         virtual.report_period('0'))
        self.assertEqual(3 * 3600, virtual.report_period('bogus'))
        self.assertEqual(3 * 3600, virtual.report_period(None))


class TestEmulatorPowerFaults(test_simulator.SimulatorTestBase):
    """The Redfish emulator wrapper's FakeDriver, in this process."""

    def setUp(self):
        super().setUp()
        from sushy_tools.emulator.resources.systems import fakedriver
        self.fakedriver = fakedriver
        # The patches change sushy-tools' module: undo them afterwards.
        self.useFixture(fixtures.MockPatchObject(
            fakedriver.FakeDriver, 'set_power_state',
            fakedriver.FakeDriver.set_power_state))
        self.useFixture(fixtures.MockPatchObject(
            fakedriver, 'random', fakedriver.random))
        redfish_emulator.patch_power_delay(0)
        redfish_emulator.patch_power_faults()
        self.tmp = self.useFixture(fixtures.TempDir()).path

    def driver(self, systems, notification_url=None):
        config = {'SUSHY_EMULATOR_FAKE_SYSTEMS': systems,
                  'SUSHY_EMULATOR_STATE_DIR': os.path.join(
                      self.tmp, 'state-%d' % len(os.listdir(self.tmp))),
                  'EXTERNAL_NOTIFICATION_URL': (
                      notification_url or self.control + '/power')}
        driver_class = self.fakedriver.FakeDriver.initialize(
            config, logging.getLogger(__name__))
        return driver_class()

    def machine(self, index, **options):
        agent = self.sim.add_agent({'id': 'e%d' % index,
                                    'macs': [mac(index)],
                                    'options': options})
        system = redfish_emulator.make_system('lab-%d' % index, mac(index),
                                              uuid=agent.id)
        return agent, system

    def test_fail_power_on(self):
        from sushy_tools import error
        agent, system = self.machine(1, fail_power_on=True)
        driver = self.driver([system])
        for state in ('On', 'ForceOn'):
            exc = self.assertRaises(error.FishyError,
                                    driver.set_power_state, 'e1', state)
            self.assertEqual(500, exc.code)
            self.assertEqual('simulated power-on failure', str(exc))
        self.assertEqual('Off', driver.get_power_state('e1'))
        self.assertEqual(virtual.OFF, agent.state)
        agent.set_options({'fail_power_on': None})
        driver.set_power_state('e1', 'On')
        self.assertEqual('On', driver.get_power_state('e1'))
        # The notification booted the machine (no boot configuration:
        # the ramdisk).
        self.assertTrue(agent.powered())

    def test_ignore_graceful_shutdown(self):
        agent, system = self.machine(1, ignore_graceful_shutdown=True)
        other, other_system = self.machine(2)
        # Found by MAC when the system's uuid is not an agent's.
        other_system['uuid'] = 'bmc-side-uuid'
        driver = self.driver([system, other_system])
        for identity in ('e1', 'bmc-side-uuid'):
            driver.set_power_state(identity, 'On')
            self.assertEqual('On', driver.get_power_state(identity))
        self.assertTrue(agent.powered())
        self.assertTrue(other.powered())
        for state in ('GracefulShutdown', 'GracefulRestart'):
            self.assertIsNone(driver.set_power_state('e1', state))
            self.assertEqual('On', driver.get_power_state('e1'))
        self.assertEqual(1, agent.counters['boots'])
        self.assertTrue(agent.powered())
        # Another machine shuts down gracefully.
        driver.set_power_state('bmc-side-uuid', 'GracefulShutdown')
        self.assertEqual('Off', driver.get_power_state('bmc-side-uuid'))
        self.assertFalse(other.powered())
        # ForceOff is never ignored.
        driver.set_power_state('e1', 'ForceOff')
        self.assertEqual('Off', driver.get_power_state('e1'))
        self.assertFalse(agent.powered())

    def test_simulator_down_applies_reset(self):
        log = self.useFixture(fixtures.FakeLogger(
            name=redfish_emulator.__name__, level=logging.WARNING))
        agent, system = self.machine(1, fail_power_on=True)
        system['external_notifier'] = False
        driver = self.driver([system], 'http://127.0.0.1:9/control/power')
        started = time.monotonic()
        driver.set_power_state('e1', 'On')
        self.assertEqual('On', driver.get_power_state('e1'))
        driver.set_power_state('e1', 'GracefulShutdown')
        self.assertEqual('Off', driver.get_power_state('e1'))
        self.assertLess(time.monotonic() - started, 10)
        self.assertIn('did not give the options of e1', log.output)

    def test_other_notification_url_not_asked(self):
        listener = fakes.RecordingServer(default_status=200).start()
        self.addCleanup(listener.stop)
        agent, system = self.machine(1, fail_power_on=True)
        driver = self.driver([system], listener.url + '/notify')
        driver.set_power_state('e1', 'On')
        self.assertEqual('On', driver.get_power_state('e1'))
        self.assertEqual(['PUT', 'PUT'],
                         [r['method'] for r in listener.received()])

    def test_unknown_system_left_to_sushy(self):
        from sushy_tools import error
        agent, system = self.machine(1)
        driver = self.driver([system])
        self.assertRaises(error.NotFound, driver.set_power_state, 'nope',
                          'On')

    def test_simulator_url(self):
        self.assertEqual('http://h:1', redfish_emulator.simulator_url(
            'http://h:1/control/power'))
        self.assertEqual('http://h:1/sim', redfish_emulator.simulator_url(
            'http://h:1/sim/control/power/'))
        self.assertIsNone(redfish_emulator.simulator_url('http://h/notify'))
        self.assertIsNone(redfish_emulator.simulator_url(None))

    def test_patch_checks_sushy_tools(self):
        # Idempotent, and loud when sushy-tools changed its method.
        redfish_emulator.patch_power_faults()

        def set_power_state(self, identity, state, extra=None):
            pass
        self.fakedriver.FakeDriver.set_power_state = set_power_state
        self.assertRaises(RuntimeError, redfish_emulator.patch_power_faults)


class TestEmulatorProcess(test_simulator.SimulatorTestBase):
    """``python -m ironic_like_lab.redfish_emulator`` against the
    simulator: the Redfish answers."""

    def test_reset_faults_over_redfish(self):
        tmp = self.useFixture(fixtures.TempDir()).path
        agent = self.sim.add_agent({'id': 'r1', 'macs': [mac(1)],
                                    'options': {'fail_power_on': True}})
        system = redfish_emulator.make_system('lab-1', mac(1), uuid='r1')
        config = os.path.join(tmp, 'emulator.conf')
        redfish_emulator.write_config(config, [system],
                                      os.path.join(tmp, 'state'),
                                      self.control + '/power')
        with socket.socket() as s:
            s.bind(('127.0.0.1', 0))
            port = s.getsockname()[1]
        proc = fakes.spawn(self, [
            sys.executable, '-m', 'ironic_like_lab.redfish_emulator',
            '--config', config, '-i', '127.0.0.1', '--port', str(port)])
        url = 'http://127.0.0.1:%d/redfish/v1/Systems/r1' % port

        def answers():
            self.assertIsNone(proc.poll(), 'the emulator exited')
            return self.session.get(url, timeout=5).ok
        wait_for(answers, 30, 0.1, retry_on=(requests.ConnectionError,))

        def reset(kind):
            return self.session.post(
                url + '/Actions/ComputerSystem.Reset',
                json={'ResetType': kind}, timeout=10)

        resp = reset('On')
        self.assertEqual(500, resp.status_code)
        self.assertIn('simulated power-on failure',
                      resp.json()['error']['message'])
        self.assertEqual('Off', self.session.get(url).json()['PowerState'])
        self.assertEqual(virtual.OFF, agent.state)
        agent.set_options({'fail_power_on': False,
                           'ignore_graceful_shutdown': True})
        self.assertEqual(204, reset('On').status_code)
        self.assertEqual('On', self.session.get(url).json()['PowerState'])
        self.assertTrue(agent.powered())
        self.assertEqual(204, reset('GracefulShutdown').status_code)
        self.assertEqual('On', self.session.get(url).json()['PowerState'])
        self.assertTrue(agent.powered())
        self.assertEqual(204, reset('ForceOff').status_code)
        self.assertEqual('Off', self.session.get(url).json()['PowerState'])
        self.assertFalse(agent.powered())


class TestSimulatorConstants(testtools.TestCase):

    def test_failure_messages_agree(self):
        self.assertEqual(simulator.POWER_ON_FAILURE,
                         redfish_emulator.POWER_ON_FAILURE)
