"""Host OS configuration end to end, every piece a real process: the API
and two conductors (MariaDB, RabbitMQ), sushy-tools' Redfish emulator,
the boot file server (it also serves the module archives) and the
simulated machines, which deploy their image, boot it, and then run the
real host agent (ironic_like_hostagent) with the real ansible-playbook
in a directory of their own.

Twenty nodes are deployed; ten are labelled ``tier=web``. A module's
playbook writes a file from a templated value:

* a configuration selecting ``tier=web`` runs on exactly those ten,
  each reports ok and has the file with the value; an unchanged second
  pass runs nothing; every host downloaded the archive once;
* relabelling five nodes each way moves the items;
* a module with a bad sha256 fails, a configuration using it is refused,
  no node ever gets an item of it;
* a playbook that fails reports the failure and its output, and the
  failure threshold pauses the rollout;
* reapply re-runs; a conductor killed with SIGKILL mid-rollout does not
  stop the rollout; delete waits for the clean-up, then the configuration
  disappears;
* a secret value is in no API response, no item row, no log.

Every wait is bounded; every process is stopped at the end.
"""

import collections
import hashlib
import json
import os
import time

import sqlalchemy as sa

from ironic_like.common.hostos import archive
from ironic_like.tests.functional import test_agent_deploy

NODES = 20
WEB = 10
ROLLOUT_BOUND = 240
SENTINEL = 'hostos-secret-4f7d1c9e2b'
INTERVAL = 2

GREETING_PLAYBOOK = """\
- hosts: all
  gather_facts: false
  tasks:
    - name: the host's /etc (a simulated host's root starts empty)
      file:
        path: "{{ host_os_root }}/etc"
        state: directory
    - name: the greeting, from a templated value
      copy:
        dest: "{{ host_os_root }}/etc/greeting"
        content: "{{ values.greeting }} from {{ values.site }}\\n"
    - name: "the secret arrived (its length only, never print it)"
      copy:
        dest: "{{ host_os_root }}/etc/greeting.secret-length"
        content: "{{ (secret_values | default({})).token | default('')
                     | length }}\\n"
"""

FAILING_PLAYBOOK = """\
- hosts: all
  gather_facts: false
  tasks:
    - name: refuse
      fail:
        msg: "this module always fails: {{ values.reason }}"
"""

SCHEMA = {'type': 'object', 'required': ['greeting', 'site'],
          'properties': {'greeting': {'type': 'string'},
                         'site': {'type': 'string'}},
          'additionalProperties': False}


class HostOSLab(test_agent_deploy.Lab):
    """The deploy tests' lab; module archives on its boot file server;
    responses of the API kept to look for the secret in them."""

    def __init__(self, test, count, conf=None, agent_options=None):
        super().__init__(test, count, conf, agent_options)
        self.responses = []
        os.makedirs(os.path.join(self.http_root, 'modules'))

    def api(self, method, path, body=None, expect=(200, 201, 202, 204)):
        result = super().api(method, path, body, expect)
        self.responses.append(json.dumps(result))
        return result

    def publish(self, name, version, data):
        """Serve a module archive; (url, sha256)."""
        file_name = '%s-%s.tgz' % (name, version)
        with open(os.path.join(self.http_root, 'modules', file_name),
                  'wb') as f:
            f.write(data)
        return (self.http_url + '/modules/' + file_name,
                hashlib.sha256(data).hexdigest())

    def register(self, name, version, data, sha256=None):
        url, digest = self.publish(name, version, data)
        return self.api('POST', '/v1/hostos/modules', {
            'name': name, 'version': version, 'url': url,
            'sha256sum': sha256 or digest})

    def wait_module(self, name, version):
        seen = {}

        def verified():
            seen['m'] = self.api('GET', '/v1/hostos/modules/%s/%s'
                                 % (name, version))
            return seen['m']['state'] != 'verifying'
        self.test.assertEventually(verified, 60, interval=0.5)
        return seen['m']

    def configuration(self, name):
        return self.api('GET', '/v1/hostos/configurations/%s' % name)

    def node_status(self, name):
        return {n['node_name']: n for n in self.api(
            'GET', '/v1/hostos/configurations/%s/nodes' % name)['nodes']}

    def wait_nodes(self, name, predicate, what, timeout=ROLLOUT_BOUND):
        seen = {}

        def done():
            seen['nodes'] = self.node_status(name)
            return predicate(seen['nodes'])

        def describe():
            states = collections.Counter(
                n['state'] for n in seen.get('nodes', {}).values())
            bad = [n for n in seen.get('nodes', {}).values()
                   if n['state'] not in ('ok',)][:2]
            return '%s: %s not reached: %s; e.g. %s' % (
                name, what, dict(states), json.dumps(bad)[:3000])
        self.test.assertEventually(done, timeout, interval=1,
                                   message=describe)
        return seen['nodes']

    def machine_of(self, node_name):
        return self.agent(self.names.index(node_name))

    def greeting(self, node_name):
        path = os.path.join(self.machine_of(node_name)['host_root'], 'etc',
                            'greeting')
        if not os.path.exists(path):
            return None
        with open(path) as f:
            return f.read()

    def set_labels(self, node_name, labels):
        self.api('PATCH', '/v1/nodes/%s' % node_name,
                 [{'op': 'replace', 'path': '/labels', 'value': labels}])


class HostOSTestCase(test_agent_deploy.AgentDeployTestCase):

    TIMEOUT = 900

    def start_lab(self):
        conf = {'hostos': {'agent_heartbeat_interval': INTERVAL,
                           'retry_interval': 5, 'reconcile_interval': 5,
                           'delete_timeout': 120}}
        lab = HostOSLab(self, NODES, conf,
                        agent_options={'host_agent_interval': INTERVAL})
        lab.names = [s['name'] for s in lab.systems]
        for index, system in enumerate(lab.systems):
            node = lab.api('POST', '/v1/nodes', {
                'name': system['name'], 'driver': 'redfish',
                'deploy_interface': 'agent', 'boot_interface': 'ipxe',
                'labels': {'tier': 'web' if index < WEB else 'db'},
                'driver_info': lab.emulator.driver_info(system['uuid'])})
            lab.api('POST', '/v1/ports', {
                'node_uuid': node['uuid'],
                'address': system['nics'][0]['mac']})
            lab.nodes.append(node['uuid'])
        lab.make_available()
        lab.set_image()
        lab.provision('active')
        lab.wait_for('active')
        return lab

    def test_host_os_configuration(self):
        lab = self.start_lab()
        web = set(lab.names[:WEB])

        # -- a module whose sha256 is wrong fails, and nothing uses it.
        bad = archive.make_module('greeting', '0.9.0', GREETING_PLAYBOOK)
        lab.register('greeting', '0.9.0', bad, sha256='0' * 64)
        module = lab.wait_module('greeting', '0.9.0')
        self.assertEqual('error', module['state'])
        self.assertIn("hashes are not the same: got '%s' want '%s'"
                      % (hashlib.sha256(bad).hexdigest(), '0' * 64),
                      module['error'])
        resp = lab.cluster.request('POST', '/v1/hostos/configurations', json={
            'name': 'never', 'machine_selector': {
                'match_labels': {'tier': 'web'}},
            'configs': [{'module': 'greeting', 'module_version': '0.9.0',
                         'values': {}}]})
        self.assertEqual(409, resp.status_code, resp.text)
        self.assertIn('error', resp.json()['error_message'])

        # -- the good module, and a configuration selecting tier=web.
        lab.register('greeting', '1.0.0', archive.make_module(
            'greeting', '1.0.0', GREETING_PLAYBOOK, schema=SCHEMA))
        self.assertEqual('available',
                         lab.wait_module('greeting', '1.0.0')['state'])
        body = {'name': 'motd',
                'machine_selector': {'match_labels': {'tier': 'web'}},
                'configs': [{'module': 'greeting',
                             'module_version': '1.0.0',
                             'values': {'greeting': 'hello',
                                        'site': 'lab'},
                             'secret_values': {'token': SENTINEL}}]}
        resp = lab.cluster.request('POST', '/v1/hostos/configurations',
                                   json=dict(body, name='typo', configs=[
                                       dict(body['configs'][0], values={
                                           'greeting': 7, 'site': 'x'})]))
        self.assertEqual(400, resp.status_code, resp.text)
        self.assertIn('configs/0/values/greeting', resp.text)
        created = lab.api('POST', '/v1/hostos/configurations', body)
        self.assertEqual(WEB, created['nodes']['selected'])

        nodes = lab.wait_nodes('motd', lambda ns: len(ns) == WEB and all(
            n['state'] == 'ok' for n in ns.values()), 'all ok')
        self.assertEqual(web, set(nodes))
        for name in lab.names:
            expected = 'hello from lab\n' if name in web else None
            self.assertEqual(expected, lab.greeting(name), name)
        for name in web:
            agent = lab.machine_of(name)['host_agent']
            self.assertEqual(1, agent['downloads'], name)
            with open(os.path.join(lab.machine_of(name)['host_root'], 'etc',
                                   'greeting.secret-length')) as f:
                # (ansible renders a lone number as a number: no newline)
                self.assertEqual(str(len(SENTINEL)), f.read().strip())

        # -- an unchanged second pass runs nothing.
        runs = {name: lab.machine_of(name)['host_agent']['runs']
                for name in web}
        beats = {name: lab.machine_of(name)['host_agent']['heartbeats']
                 for name in web}
        self.assertEventually(lambda: all(
            lab.machine_of(name)['host_agent']['heartbeats'] >= beats[name]
            + 2 for name in web), 60, interval=1)
        self.assertEqual(runs, {name: lab.machine_of(name)['host_agent'][
            'runs'] for name in web})

        # -- relabel five nodes each way: the items move.
        leaving = sorted(web)[:5]
        joining = lab.names[WEB:WEB + 5]
        for name in leaving:
            lab.set_labels(name, {'tier': 'db'})
        for name in joining:
            lab.set_labels(name, {'tier': 'web'})
        moved = (web - set(leaving)) | set(joining)
        lab.wait_nodes('motd', lambda ns: set(ns) == moved and all(
            n['state'] == 'ok' for n in ns.values()), 'items moved')
        for name in joining:
            self.assertEqual('hello from lab\n', lab.greeting(name))
        for name in leaving:
            # Nothing is rolled back: the file stays; the agent dropped
            # the items (it holds none of this configuration any more).
            self.assertEqual('hello from lab\n', lab.greeting(name))
            self.assertEventually(lambda: not any(
                h.startswith('host-os-') and '-motd-' in h
                for h in lab.machine_of(name)['host_agent']['held']),
                60, interval=1)

        # -- reapply on two nodes re-runs exactly there.
        again = sorted(moved)[:2]
        runs = {name: lab.machine_of(name)['host_agent']['runs']
                for name in moved}
        lab.api('POST', '/v1/hostos/configurations/motd/reapply',
                {'nodes': again})
        self.assertEventually(lambda: all(
            lab.machine_of(name)['host_agent']['runs'] > runs[name]
            for name in again), ROLLOUT_BOUND, interval=1)
        lab.wait_nodes('motd', lambda ns: all(
            n['state'] == 'ok' for n in ns.values()), 'ok after reapply')
        for name in sorted(moved - set(again)):
            self.assertEqual(runs[name],
                             lab.machine_of(name)['host_agent']['runs'])

        # -- a failing playbook: its output, and the threshold pauses.
        lab.register('refuse', '1.0.0', archive.make_module(
            'refuse', '1.0.0', FAILING_PLAYBOOK))
        lab.wait_module('refuse', '1.0.0')
        lab.api('POST', '/v1/hostos/configurations', {
            'name': 'bad', 'max_concurrent': 2, 'failure_threshold': 2,
            'machine_selector': {'match_labels': {'tier': 'db'}},
            'configs': [{'module': 'refuse', 'module_version': '1.0.0',
                         'values': {'reason': 'by design'}}]})

        def paused():
            return lab.configuration('bad')['status'] == 'paused'
        self.assertEventually(paused, ROLLOUT_BOUND, interval=1)
        status = lab.node_status('bad')
        failed = [n for n in status.values() if n['state'] == 'failed']
        self.assertEqual(2, len(failed), json.dumps(status)[:3000])
        self.assertEqual(NODES - WEB - 2, len(
            [n for n in status.values() if n['state'] == 'waiting']))
        ansible = [i for i in failed[0]['items']
                   if i['runner'] == 'ansible'][0]
        self.assertNotEqual(0, ansible['exit_code'])
        self.assertIn('this module always fails: by design',
                      ansible['output'])
        self.assertIn('2 node(s) failed', lab.configuration('bad')[
            'status_reason'])

        # -- a conductor killed mid-rollout: the rollout completes.
        lab.api('POST', '/v1/hostos/configurations', {
            'name': 'motd2', 'max_concurrent': 5,
            'machine_selector': {'match_labels': {'tier': 'web'}},
            'configs': [{'module': 'greeting', 'module_version': '1.0.0',
                         'values': {'greeting': 'bonjour', 'site': 'lab'},
                         'order': 1}]})
        victim = sorted(lab.cluster.conductors)[0]
        lab.cluster.conductors[victim].kill9()
        lab.wait_nodes('motd2', lambda ns: len(ns) == WEB and all(
            n['state'] == 'ok' for n in ns.values()), 'all ok')

        # -- delete: deleting until every node dropped the items.
        lab.api('DELETE', '/v1/hostos/configurations/motd2')

        def gone():
            resp = lab.cluster.request('GET',
                                       '/v1/hostos/configurations/motd2')
            if resp.status_code == 200:
                self.assertIn(resp.json()['status'], ('deleting',))
            return resp.status_code == 404
        self.assertEventually(gone, ROLLOUT_BOUND, interval=1)

        # -- the secret: in no API answer, no item row, no log.
        lab.responses.append(json.dumps(lab.configuration('motd')))
        lab.responses.append(json.dumps(lab.node_status('motd')))
        for text in lab.responses:
            self.assertNotIn(SENTINEL, text)
        self.assertIn('******', json.dumps(lab.configuration('motd')))
        with lab.cluster.database.engine.connect() as conn:
            rows = conn.execute(sa.text('SELECT * FROM hostos_items')).all()
        self.assertTrue(rows)
        self.assertNotIn(SENTINEL, json.dumps([list(r) for r in rows],
                                              default=str))
        for root, _dirs, files in os.walk(lab.work_dir):
            for file_name in files:
                if not file_name.endswith('.log'):
                    continue
                with open(os.path.join(root, file_name), 'rb') as f:
                    self.assertNotIn(SENTINEL.encode(), f.read(),
                                     file_name)
        self.note('checked', 'rollout, relabel, reapply, failure, kill, '
                  'delete, secrets at %s' % time.strftime('%H:%M:%S'))
