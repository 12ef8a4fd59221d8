"""The host agent against a loopback stand-in of the service."""

import json
import logging
import os
import shutil
import stat
import sys
import threading
import time

import fixtures
import testtools

from ironic_like_hostagent import agent as agent_mod
from ironic_like_hostagent import cmd
from ironic_like_hostagent import runners

from ironic_like.tests.unit.hostagent import fakes
from ironic_like.tests.utils import wait_for


def real_ansible_playbook():
    path = os.path.join(os.path.dirname(sys.executable), 'ansible-playbook')
    return path if os.access(path, os.X_OK) else shutil.which(
        'ansible-playbook')


class HostAgentTestBase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.Timeout(60, gentle=True))
        self.logs = self.useFixture(fixtures.FakeLogger(
            level=logging.DEBUG, format='%(levelname)s %(message)s'))
        self.tmp = self.useFixture(fixtures.TempDir()).path
        self.root = os.path.join(self.tmp, 'host')
        os.mkdir(self.root)
        self.api = fakes.FakeHostOSAPI().start()
        self.addCleanup(self.api.stop)
        self.ansible = fakes.write_fake_ansible(self.tmp)
        self.url, self.sha = self.api.add_archive(
            'sample-1.0.0.tgz', fakes.module_archive())
        self.node = 'node-1'

    def make_agent(self, **kw):
        kw.setdefault('ansible_playbook', self.ansible)
        return agent_mod.HostAgent(self.api.url, self.node, root=self.root,
                                   **kw)

    def items(self, config, **kw):
        kw.setdefault('ansible', self.ansible)
        return fakes.module_items(config, kw.pop('url', self.url),
                                  kw.pop('sha256', self.sha), **kw)

    def ran(self):
        """What the fake ansible-playbook recorded."""
        try:
            with open(os.path.join(self.root, 'ran.jsonl')) as f:
                return [json.loads(line) for line in f]
        except FileNotFoundError:
            return []

    def state_file(self):
        with open(os.path.join(self.root, 'var/lib/ironic-like-host-agent/'
                                          'state.json')) as f:
            return json.load(f)

    def last_reports(self):
        return {r['name']: r for r in self.api.heartbeats[-1]['reports']}


class TestToken(HostAgentTestBase):

    def test_token_first_use_stored_and_sent(self):
        agent = self.make_agent()
        agent.run_once()
        agent.run_once()
        first, second = self.api.heartbeats
        self.assertNotIn('token', first)
        self.assertEqual('node-1', first['node'])
        self.assertEqual('1.0', first['agent_version'])
        self.assertEqual('token-node-1', second['token'])
        self.assertEqual('token-node-1', self.state_file()['token'])
        mode = stat.S_IMODE(os.stat(os.path.join(
            self.root, 'var/lib/ironic-like-host-agent/state.json')).st_mode)
        self.assertEqual(0o600, mode)
        # A restarted agent reads it back.
        self.make_agent().run_once()
        self.assertEqual('token-node-1', self.api.heartbeats[-1]['token'])
        self.assertEqual(3, len(self.api.heartbeats))

    def test_unauthorized_keeps_trying_at_the_interval(self):
        self.api.tokens[self.node] = 'somebody-else'
        agent = self.make_agent()
        self.assertEqual(0, agent.run_once())
        self.assertTrue(agent.unauthorized)
        self.assertEqual(1, agent.heartbeat_errors)
        self.assertEqual(10, agent.next_delay())
        self.assertIn('reset', self.logs.output)
        self.assertIn('401', self.logs.output)

    def test_network_error_backs_off_up_to_the_interval(self):
        agent = agent_mod.HostAgent('http://127.0.0.1:9', self.node,
                                    root=self.root)
        agent.interval_override = 3
        delays = []
        for _ in range(4):
            self.assertEqual(0, agent.run_once())
            delays.append(agent.next_delay())
        self.assertEqual([1, 2, 3, 3], delays)
        self.assertEqual(4, agent.heartbeat_errors)
        self.assertIsNotNone(agent.last_error)


class TestRuns(HostAgentTestBase):

    def test_runs_in_order_then_skips(self):
        self.api.items = self.items('web', values={'greeting': 'hi'})
        agent = self.make_agent()
        self.assertEqual(2, agent.run_once())
        self.assertEqual(1, len(self.ran()))
        record = self.ran()[0]
        self.assertEqual({'greeting': 'hi'}, record['values'])
        self.assertEqual(self.root, record['host_os_root'])
        self.assertEqual(sys.executable, record['python'])
        self.assertEqual(
            [self.ansible, '-i', 'localhost,', '-c', 'local',
             os.path.join(self.root,
                          'root/host-os-modules/sample-1.0.0/main.yaml')],
            record['argv'][:6])
        scratch = os.path.join(self.root,
                               'var/lib/ironic-like-host-agent/tmp')
        self.assertEqual({
            'HOME': scratch + '/home',
            'ANSIBLE_LOCAL_TEMP': scratch + '/local',
            'ANSIBLE_REMOTE_TEMP': scratch + '/remote',
            'ANSIBLE_NOCOLOR': '1', 'ANSIBLE_HOST_KEY_CHECKING': 'False',
            'ANSIBLE_RETRY_FILES_ENABLED': 'False'}, record['env'])
        # The results went out in a second heartbeat at once.
        self.assertEqual(2, len(self.api.heartbeats))
        reports = self.last_reports()
        self.assertEqual(['ok', 'ok'],
                         [r['state'] for r in reports.values()])
        for item in self.api.items:
            report = reports[item['name']]
            self.assertEqual(item['hash'], report['hash'])
            self.assertEqual(0, report['exit_code'])
            self.assertEqual(1, report['attempt'])
            self.assertTrue(report['started_at'].endswith('+00:00'))
            self.assertLessEqual(report['started_at'],
                                 report['finished_at'])
        self.assertEqual('PLAY RECAP ok=1',
                         reports[self.api.items[1]['name']]['output'])
        # Second pass: everything is ok with the same hash.
        self.assertEqual(0, agent.run_once())
        self.assertEqual(1, len(self.ran()))
        self.assertEqual([], self.api.heartbeats[-1]['reports'])
        self.assertEqual(sorted(i['name'] for i in self.api.items),
                         self.api.heartbeats[-1]['held'])
        self.assertEqual((2, 1, 1, 0), (agent.runs, len(self.ran()),
                                        agent.downloads, agent.skipped))

    def test_hash_change_reruns(self):
        self.api.items = self.items('web', values={'greeting': 'hi'})
        agent = self.make_agent()
        agent.run_once()
        self.api.items = self.items('web', values={'greeting': 'hello'})
        self.assertEqual(1, agent.run_once())
        self.assertEqual({'greeting': 'hello'}, self.ran()[-1]['values'])
        report = self.last_reports()[self.api.items[1]['name']]
        self.assertEqual(1, report['attempt'])
        self.assertEqual(self.api.items[1]['hash'], report['hash'])
        # Reapply: the generation changes the hash too.
        self.api.items = self.items('web', values={'greeting': 'hello'},
                                    generation=2)
        self.assertEqual(1, agent.run_once())
        self.assertEqual(3, len(self.ran()))

    def test_hold_runs_nothing_and_keeps_state(self):
        self.api.items = self.items('web')
        agent = self.make_agent()
        agent.run_once()
        names = sorted(i['name'] for i in self.api.items)
        self.api.items = None
        self.api.hold = 'node in maintenance'
        self.assertEqual(0, agent.run_once())
        self.assertEqual('node in maintenance', agent.hold)
        self.assertIsNone(agent.items)
        self.assertEqual(names, sorted(self.state_file()['items']))
        self.assertEqual(names, self.api.heartbeats[-1]['held'])
        self.assertIn('node in maintenance', self.logs.output)

    def test_item_hold_is_skipped_not_dropped(self):
        self.api.items = self.items('web')
        agent = self.make_agent()
        agent.run_once()
        url, sha = self.api.add_archive('other-1.0.0.tgz',
                                        fakes.module_archive('other'))
        self.api.items = (self.items('web', values={'v': 2}, hold=True)
                          + self.items('db', module='other', url=url,
                                       sha256=sha))
        # db's two; web's new values wait (held), its state stays.
        self.assertEqual(2, agent.run_once())
        self.assertEqual([{}, {}], [r['values'] for r in self.ran()])
        self.assertEqual(4, len(self.state_file()['items']))

    def test_failure_retried_after_retry_interval_and_blocks_its_config(
            self):
        self.api.items = (
            self.items('a', values={'exit': 3, 'print': 'boom'})
            + self.items('a', module='second', url=self.url)
            + self.items('b', values={'greeting': 'b'}))
        agent = self.make_agent()
        self.assertEqual(4, agent.run_once())
        # a: download ok, ansible failed, second module not run; b ran.
        reports = self.last_reports()
        names = [i['name'] for i in self.api.items]
        self.assertEqual({names[0]: 'ok', names[1]: 'failed',
                          names[4]: 'ok', names[5]: 'ok'},
                         {n: r['state'] for n, r in reports.items()})
        self.assertEqual(3, reports[names[1]]['exit_code'])
        self.assertEqual('boom', reports[names[1]]['output'])
        self.assertEqual([{'exit': 3, 'print': 'boom'}, {'greeting': 'b'}],
                         [r['values'] for r in self.ran()])
        self.assertEqual((1, 1), (agent.downloads, agent.skipped))
        self.assertEqual(1, agent.failures)
        # Within retry_interval: nothing, and a stays blocked.
        self.assertEqual(0, agent.run_once())
        self.assertEqual(2, len(self.ran()))
        # Once retry_interval has passed: the failed item again (attempt
        # 2), and still nothing after it.
        self.api.retry_interval = 0.2
        agent.run_once()
        time.sleep(0.3)
        self.assertEqual(1, agent.run_once())
        report = self.last_reports()[names[1]]
        self.assertEqual((2, 'failed'), (report['attempt'],
                                         report['state']))
        self.assertEqual(3, len(self.ran()))
        # Fixed (new hash): it runs, then the rest of a.
        self.api.items[:2] = self.items('a', values={'greeting': 'a'})
        self.assertEqual(3, agent.run_once())
        reports = self.last_reports()
        self.assertEqual(1, reports[names[1]]['attempt'])
        self.assertEqual('ok', reports[names[3]]['state'])

    def test_unacknowledged_reports_are_sent_again(self):
        self.api.items = self.items('web')
        agent = self.make_agent()
        agent.heartbeat()  # token, items
        self.assertEqual(2, agent.run_due())
        self.api.statuses = [500]
        self.assertFalse(agent.heartbeat())
        self.assertIn('HTTP 500', agent.last_error)
        self.assertEqual(1, agent.next_delay())
        self.assertTrue(agent.heartbeat())
        self.assertEqual(2, len(self.api.heartbeats[-1]['reports']))
        self.assertTrue(agent.heartbeat())
        self.assertEqual([], self.api.heartbeats[-1]['reports'])
        self.assertTrue(all(e['reported'] for e in
                            self.state_file()['items'].values()))

    def test_output_tail_is_at_most_4_kib(self):
        self.api.items = self.items('web', values={
            'print': 'h\u00e9llo-', 'repeat': 2000})
        agent = self.make_agent()
        agent.run_once()
        output = self.last_reports()[self.api.items[1]['name']]['output']
        self.assertLessEqual(len(output.encode('utf-8')), 4096)
        self.assertGreater(len(output.encode('utf-8')), 4090)
        self.assertTrue(output.endswith('h\u00e9llo-'))
        self.assertEqual(runners.tail(b'\xc3\xa9' * 3000),
                         '\u00e9' * 2048)
        self.assertEqual('\u00e9' * 2047 + 'x',
                         runners.tail(b'\xc3\xa9' * 3000 + b'x'))

    def test_pruning_and_held(self):
        self.api.items = self.items('a') + self.items('b')
        agent = self.make_agent()
        agent.run_once()
        a_names = sorted(i['name'] for i in self.api.items[:2])
        b_names = sorted(i['name'] for i in self.api.items[2:])
        self.api.items = self.api.items[2:]
        count = len(self.api.heartbeats)
        self.assertEqual(0, agent.run_once())
        # Still held when the service dropped them, then forgotten and
        # said so at once (a second heartbeat).
        beats = self.api.heartbeats[count:]
        self.assertEqual(2, len(beats))
        self.assertEqual(sorted(a_names + b_names), beats[0]['held'])
        self.assertEqual(b_names, beats[1]['held'])
        self.assertEqual(b_names, sorted(self.state_file()['items']))
        self.assertIn('Forgetting items no longer listed', self.logs.output)

    def test_stop_kills_a_run_and_records_nothing(self):
        self.api.items = self.items('web', values={'sleep': 30})
        agent = self.make_agent()
        thread = threading.Thread(target=agent.run_once)
        thread.start()
        wait_for(self.ran, 20)
        started = time.monotonic()
        agent.stop_event.set()
        thread.join(10)
        self.assertFalse(thread.is_alive())
        self.assertLess(time.monotonic() - started, 5)
        # The download is recorded, the killed run is not (it runs again
        # next time, as after a power cut).
        self.assertEqual([self.api.items[0]['name']],
                         list(self.state_file()['items']))
        self.assertEqual(1, agent.runs)

    def test_timeout(self):
        item = self.items('web', values={'sleep': 30})[1]
        item['params']['timeout'] = 0.3
        result = runners.run_ansible(item['params'], None, self.root,
                                     ansible_playbook=self.ansible)
        self.assertEqual(124, result.exit_code)
        self.assertIn('timed out after 0.3 s', result.output)
        result = runners.run_ansible(item['params'], None, self.root,
                                     ansible_playbook='/nonexistent/x')
        self.assertEqual(127, result.exit_code)
        self.assertIn('cannot run /nonexistent/x', result.output)

    def test_run_forever_stops(self):
        self.api.heartbeat_interval = 0.05
        self.api.items = self.items('web')
        agent = self.make_agent()
        stop = threading.Event()
        thread = threading.Thread(target=agent.run_forever, args=(stop,))
        thread.start()
        wait_for(lambda: agent.heartbeats >= 4, 10)
        stop.set()
        thread.join(10)
        self.assertFalse(thread.is_alive())
        self.assertEqual(2, agent.runs)

    def test_cmd_once(self):
        self.api.items = self.items('web')
        self.assertEqual(0, cmd.main([
            '--api-url', self.api.url, '--node', self.node,
            '--root', self.root, '--ansible-playbook', self.ansible,
            '--python', '/usr/bin/python3', '--log-level', 'DEBUG',
            '--once']))
        self.assertEqual('/usr/bin/python3', self.ran()[0]['python'])
        self.api.items = self.items('web', values={'exit': 1})
        self.assertEqual(1, cmd.main([
            '--api-url', self.api.url, '--node', self.node,
            '--root', self.root, '--ansible-playbook', self.ansible,
            '--once']))


class TestDownloader(HostAgentTestBase):

    def module_dir(self, name='sample-1.0.0'):
        return os.path.join(self.root, 'root/host-os-modules', name)

    def test_two_configurations_one_download(self):
        self.api.items = self.items('a') + self.items('b')
        agent = self.make_agent()
        self.assertEqual(4, agent.run_once())
        self.assertEqual(1, self.api.archive_requests['sample-1.0.0.tgz'])
        self.assertEqual((1, 1), (agent.downloads, agent.skipped))
        self.assertEqual(2, len(self.ran()))
        with open(os.path.join(self.module_dir(), '.sha256')) as f:
            self.assertEqual(self.sha, f.read().strip())
        with open(os.path.join(self.module_dir(), 'main.yaml'), 'rb') as f:
            self.assertEqual(fakes.PLAYBOOK, f.read())
        self.assertIn('already unpacked',
                      self.last_reports()[self.api.items[2]['name']][
                          'output'])
        # No temporary files left next to it.
        self.assertEqual(['sample-1.0.0'], os.listdir(os.path.dirname(
            self.module_dir())))

    def test_sha_mismatch(self):
        bad = 'f' * 64
        self.api.items = self.items('a', sha256=bad)
        agent = self.make_agent()
        self.assertEqual(1, agent.run_once())
        report = self.last_reports()[self.api.items[0]['name']]
        self.assertEqual(('failed', 1), (report['state'],
                                         report['exit_code']))
        self.assertEqual("hashes are not the same: got '%s' want '%s'"
                         % (self.sha, bad), report['output'])
        self.assertFalse(os.path.exists(self.module_dir()))
        self.assertEqual([], os.listdir(os.path.dirname(self.module_dir())))
        self.assertEqual([], self.ran())

    def test_new_archive_replaces_the_directory(self):
        self.api.items = self.items('a')
        agent = self.make_agent()
        agent.run_once()
        with open(os.path.join(self.module_dir(), 'stale'), 'w') as f:
            f.write('x')
        data = fakes.build_archive({'main.yaml': b'- hosts: all\n'})
        url, sha = self.api.add_archive('v2.tgz', data)
        self.api.items = self.items('a', url=url, sha256=sha)
        # Only the downloader's hash changed (module versions are
        # immutable in the service: this cannot happen there).
        self.assertEqual(1, agent.run_once())
        self.assertEqual(['.sha256', 'main.yaml'],
                         sorted(os.listdir(self.module_dir())))
        self.assertEqual(['sample-1.0.0'], os.listdir(os.path.dirname(
            self.module_dir())))

    def test_http_error_and_unsafe_archive(self):
        url = self.api.url + '/archives/missing.tgz'
        result = runners.download({'url': url, 'sha256': self.sha,
                                   'path': '/m/x'}, self.root)
        self.assertEqual(1, result.exit_code)
        self.assertEqual('failed to perform request to fetch the module '
                         'archive: Get "%s": 404 Not Found' % url,
                         result.output)
        data = fakes.build_archive({'../evil': b'x'})
        url, sha = self.api.add_archive('evil.tgz', data)
        result = runners.download({'url': url, 'sha256': sha,
                                   'path': '/m/x'}, self.root)
        self.assertEqual(1, result.exit_code)
        self.assertIn("refusing archive member '../evil'", result.output)
        self.assertFalse(os.path.exists(os.path.join(self.root, 'm/evil')))
        self.assertEqual([], os.listdir(os.path.join(self.root, 'm')))
        result = runners.download({'url': url, 'sha256': sha,
                                   'path': '/m/../../x'}, self.root)
        self.assertIn('refusing path', result.output)


class TestSecrets(HostAgentTestBase):

    def test_secret_file_private_and_removed(self):
        self.api.items = self.items(
            'web', values={'greeting': 'hi'},
            secret_values={'password': fakes.SECRET})
        agent = self.make_agent()
        self.assertEqual(2, agent.run_once())
        record = self.ran()[0]
        self.assertEqual(['password'], record['secret_keys'])
        self.assertEqual(fakes.SECRET, record['secret_ok'])
        values_file, secret_file = record['files']
        self.assertEqual(0o600, secret_file['mode'])
        self.assertEqual('@' + secret_file['path'], record['argv'][-1])
        self.assertFalse(os.path.exists(secret_file['path']))
        self.assertFalse(os.path.exists(values_file['path']))
        # Nowhere else: the log, the state file, the reports.
        self.assertNotIn(fakes.SECRET, self.logs.output)
        self.assertIn(self.api.items[1]['name'], self.logs.output)
        with open(os.path.join(self.root, 'var/lib/ironic-like-host-agent/'
                                          'state.json')) as f:
            self.assertNotIn(fakes.SECRET, f.read())
        self.assertNotIn(fakes.SECRET,
                         json.dumps(self.api.heartbeats[-1]))
        # No secret: no secret file.
        self.api.items = self.items('web', values={'greeting': 'ho'})
        agent.run_once()
        self.assertEqual(1, len(self.ran()[-1]['files']))


class TestRealAnsible(HostAgentTestBase):

    def test_playbook_writes_the_greeting(self):
        binary = real_ansible_playbook()
        if not binary:
            self.skipTest('no ansible-playbook next to %s nor on PATH '
                          '(pip install ansible-core)' % sys.executable)
        self.api.items = self.items('motd', values={'greeting': 'hello'},
                                    ansible='ansible-playbook')
        agent = self.make_agent(ansible_playbook=binary)
        self.assertEqual(2, agent.run_once())
        report = self.last_reports()[self.api.items[1]['name']]
        self.assertEqual(0, report['exit_code'], report['output'])
        self.assertIn('PLAY RECAP', report['output'])
        with open(os.path.join(self.root, 'etc/greeting')) as f:
            self.assertEqual('hello', f.read())
