"""The clustered service behind a real keystone.

keystone (the PyPI package, SQLite, fernet tokens) runs on loopback (see
:mod:`keystone_fixture`); the API runs with ``auth_strategy = keystone``,
its keystonemiddleware authenticating as a service user of that keystone.
Every request carries a real token of a real user, and the policy
defaults decide: 401 without or with a bad token, a reader cannot write, a
project member sees only its project's nodes, a system admin does
everything and a project admin is no cloud admin (the persona table of
:mod:`ironic_like.tests.rbac_personas`, with keystone's implied roles in
the tokens). openstacksdk then finds the API through the keystone catalog
(``baremetal`` service) with password authentication.

keystone is started by the test itself, so it is never skipped; RabbitMQ
and MariaDB are required as in every functional test (a failure under
``CI=true``, a skip otherwise).
"""

import json
import os
import subprocess
import sys

import openstack
from testtools import content

from ironic_like.tests.functional import base
from ironic_like.tests.functional import keystone_fixture
from ironic_like.tests import rbac_personas

CLI_TIMEOUT = 60
WAIT_TIMEOUT = 30

# The keystone user of each persona of rbac_personas.
PERSONA_USERS = {
    'system-admin': 'sys-admin',
    'system-member': 'sys-member',
    'system-reader': 'sys-reader',
    'owner-admin': 'p1-admin',
    'owner-member': 'p1-member',
    'owner-reader': 'p1-reader',
    'other-admin': 'p2-admin',
    'service': 'svc-nova',
}


class TestKeystone(base.FunctionalTestCase):

    def setUp(self):
        super().setUp()
        self.keystone = keystone_fixture.KeystoneFixture()
        self.addOnException(self._attach_keystone_log)
        self.useFixture(self.keystone)
        # The catalog entry needs the API's URL before the API starts:
        # make the cluster, register its URL, then start it (as
        # start_cluster does).
        cluster = base.Cluster(
            database=self.class_database(), work_dir=self.work_dir(),
            conductors=1, api_workers=1,
            conf={'DEFAULT': {'auth_strategy': 'keystone'},
                  'keystone_authtoken': self.keystone.authtoken_options()})
        self.watch(cluster)
        self.keystone.register_baremetal(cluster.url)
        self.cluster = self.useFixture(cluster)
        self.tokens = {}

    def _attach_keystone_log(self, exc_info):
        self.addDetail('log-keystone', content.text_content(
            self.keystone.log_text()))

    def token(self, user):
        if user not in self.tokens:
            self.tokens[user] = self.keystone.token(user)
        return self.tokens[user]

    def call(self, user, method, path, json=None, headers=None):
        all_headers = {}
        if user is not None:
            all_headers['X-Auth-Token'] = self.token(user)
        all_headers.update(headers or {})
        return self.cluster.request(method, path, json=json,
                                    headers=all_headers)

    def assertStatus(self, status, response):
        self.assertEqual(status, response.status_code,
                         '%s %s: %s' % (response.request.method,
                                        response.request.url,
                                        response.text))
        return response

    def node_names(self, user):
        r = self.assertStatus(200, self.call(user, 'GET', '/v1/nodes'))
        return sorted(n['name'] for n in r.json()['nodes'])

    def test_tokens_and_policy(self):
        ks = self.keystone
        p1, p2 = ks.project_ids['p1'], ks.project_ids['p2']

        # No token, a bad token: 401 naming keystone; public routes open.
        r = self.assertStatus(401, self.call(None, 'GET', '/v1/nodes'))
        self.assertIn(ks.base_url, r.headers.get('WWW-Authenticate', ''))
        self.assertIn('error_message', r.json())
        r = self.assertStatus(401, self.call(
            None, 'GET', '/v1/nodes',
            headers={'X-Auth-Token': 'gAAAAAB-not-a-token'}))
        self.assertIn('WWW-Authenticate', r.headers)
        self.assertStatus(200, self.call(None, 'GET', '/'))
        self.assertStatus(200, self.call(None, 'GET', '/v1'))

        # The system admin enrols nodes of p1 and p2 and one of nobody.
        uuids = {}
        for name, owner in (('n-p1', p1), ('n-p2', p2), ('n-free', None)):
            body = {'name': name, 'driver': 'fake-hardware'}
            if owner:
                body['owner'] = owner
            r = self.assertStatus(201, self.call('sys-admin', 'POST',
                                                 '/v1/nodes', json=body))
            self.assertEqual(owner, r.json()['owner'])
            uuids[name] = r.json()['uuid']
        every = ['n-free', 'n-p1', 'n-p2']
        self.assertEqual(every, self.node_names('sys-admin'))

        # The system reader reads everything and writes nothing.
        self.assertEqual(every, self.node_names('sys-reader'))
        self.assertStatus(200, self.call('sys-reader', 'GET',
                                         '/v1/nodes/n-p2'))
        self.assertStatus(403, self.call(
            'sys-reader', 'POST', '/v1/nodes',
            json={'name': 'n-x', 'driver': 'fake-hardware'}))
        self.assertStatus(403, self.call(
            'sys-reader', 'PATCH', '/v1/nodes/n-p1',
            json=[{'op': 'add', 'path': '/extra/a', 'value': 'b'}]))
        self.assertStatus(403, self.call(
            'sys-reader', 'PUT', '/v1/nodes/n-p1/states/power',
            json={'target': 'power on'}))

        # Project members and readers see their project's nodes only.
        self.assertEqual(['n-p1'], self.node_names('p1-member'))
        self.assertEqual(['n-p1'], self.node_names('p1-reader'))
        self.assertEqual(['n-p2'], self.node_names('p2-member'))
        self.assertStatus(200, self.call('p1-member', 'GET',
                                         '/v1/nodes/n-p1'))
        for ident in ('n-p2', uuids['n-p2'], 'n-free'):
            self.assertStatus(404, self.call('p1-member', 'GET',
                                             '/v1/nodes/%s' % ident))
        self.assertStatus(404, self.call('p2-member', 'GET',
                                         '/v1/nodes/n-p1'))
        self.assertStatus(403, self.call(
            'p1-member', 'POST', '/v1/nodes',
            json={'name': 'n-x', 'driver': 'fake-hardware'}))
        self.assertStatus(403, self.call('p1-member', 'DELETE',
                                         '/v1/nodes/n-p1'))

        # A reader cannot power its project's node; a member can, but not
        # another project's node.
        self.assertStatus(403, self.call(
            'p1-reader', 'PUT', '/v1/nodes/n-p1/states/power',
            json={'target': 'power on'}))
        self.assertStatus(202, self.call(
            'p1-member', 'PUT', '/v1/nodes/n-p1/states/power',
            json={'target': 'power on'}))
        self.assertStatus(404, self.call(
            'p1-member', 'PUT', '/v1/nodes/n-p2/states/power',
            json={'target': 'power on'}))

        # The admin creates, changes and deletes nodes and ports.
        r = self.assertStatus(201, self.call(
            'sys-admin', 'POST', '/v1/ports',
            json={'node_uuid': uuids['n-p1'],
                  'address': '52:54:00:12:34:56'}))
        port = r.json()['uuid']
        self.assertStatus(403, self.call(
            'p1-member', 'POST', '/v1/ports',
            json={'node_uuid': uuids['n-p1'],
                  'address': '52:54:00:12:34:57'}))
        r = self.assertStatus(200, self.call(
            'sys-admin', 'PATCH', '/v1/ports/%s' % port,
            json=[{'op': 'add', 'path': '/extra/switch', 'value': 'sw1'}]))
        self.assertEqual({'switch': 'sw1'}, r.json()['extra'])
        # Project users list ports by node (the service refuses an
        # unfiltered list to them); another project's node is not found.
        r = self.assertStatus(200, self.call(
            'p1-reader', 'GET', '/v1/ports?node=%s' % uuids['n-p1']))
        self.assertEqual([port], [p['uuid'] for p in r.json()['ports']])
        r = self.assertStatus(200, self.call(
            'p1-reader', 'GET', '/v1/nodes/n-p1/ports'))
        self.assertEqual([port], [p['uuid'] for p in r.json()['ports']])
        self.assertStatus(403, self.call('p1-reader', 'GET', '/v1/ports'))
        self.assertStatus(404, self.call('p2-member', 'GET',
                                         '/v1/nodes/n-p1/ports'))
        r = self.assertStatus(200, self.call('sys-reader', 'GET',
                                             '/v1/ports'))
        self.assertEqual([port], [p['uuid'] for p in r.json()['ports']])
        r = self.assertStatus(200, self.call(
            'sys-admin', 'PATCH', '/v1/nodes/n-p1',
            json=[{'op': 'add', 'path': '/extra/rack', 'value': 'r1'}]))
        self.assertEqual({'rack': 'r1'}, r.json()['extra'])
        self.assertStatus(204, self.call('sys-admin', 'DELETE',
                                         '/v1/ports/%s' % port))
        self.assertStatus(204, self.call('sys-admin', 'DELETE',
                                         '/v1/nodes/n-free'))
        self.assertEqual(['n-p1', 'n-p2'], self.node_names('sys-reader'))

        # A project-scoped admin is not a cloud admin: the bootstrap admin
        # (the admin role on the system and on the admin project) scoped
        # to its project sees that project's nodes (none at first) and
        # enrols only nodes its project owns (Ironic's self-owned nodes);
        # scoped to the system it sees and does everything.
        admin_token = ks.admin_session.get_token()
        r = self.assertStatus(200, self.cluster.request(
            'GET', '/v1/nodes', headers={'X-Auth-Token': admin_token}))
        self.assertEqual([], r.json()['nodes'])
        own = self.assertStatus(201, self.cluster.request(
            'POST', '/v1/nodes', json={'driver': 'fake-hardware'},
            headers={'X-Auth-Token': admin_token})).json()
        self.assertEqual(ks.admin_session.get_project_id(), own['owner'])
        self.assertStatus(204, self.cluster.request(
            'DELETE', '/v1/nodes/%s' % own['uuid'],
            headers={'X-Auth-Token': admin_token}))
        # Not for another project.
        self.assertStatus(400, self.cluster.request(
            'POST', '/v1/nodes', json={'driver': 'fake-hardware',
                                       'owner': 'another-project'},
            headers={'X-Auth-Token': admin_token}))
        for method, path, body in (
                ('GET', '/v1/conductors', None),
                ('GET', '/v1/drivers', None)):
            self.assertStatus(403, self.cluster.request(
                method, path, json=body,
                headers={'X-Auth-Token': admin_token}))
        self.assertStatus(404, self.cluster.request(
            'DELETE', '/v1/nodes/n-p2',
            headers={'X-Auth-Token': admin_token}))
        system_token = ks.session('admin', keystone_fixture.ADMIN_PASSWORD,
                                  system=True).get_token()
        r = self.assertStatus(200, self.cluster.request(
            'GET', '/v1/nodes', headers={'X-Auth-Token': system_token}))
        self.assertEqual(2, len(r.json()['nodes']))
        self.assertStatus(200, self.cluster.request(
            'GET', '/v1/conductors',
            headers={'X-Auth-Token': system_token}))

        # openstacksdk finds the API in the catalog (password auth).
        def connect(user, **scope):
            conn = openstack.connect(
                auth_url=ks.url, username=user,
                password=keystone_fixture.PASSWORD,
                user_domain_id='default', region_name=keystone_fixture.REGION,
                interface='public', load_yaml_config=False,
                load_envvars=False, **scope)
            self.addCleanup(conn.close)
            return conn

        conn = connect('sys-reader', system_scope='all')
        self.assertEqual(self.cluster.url + '/v1',
                         conn.baremetal.get_endpoint().rstrip('/'))
        self.assertEqual(['n-p1', 'n-p2'],
                         sorted(n.name for n in conn.baremetal.nodes()))
        conn = connect('p2-member', project_name='p2',
                       project_domain_id='default')
        self.assertEqual([uuids['n-p2']],
                         [n.id for n in conn.baremetal.nodes()])

        # So does the openstack CLI (its baremetal commands).
        env = {k: v for k, v in os.environ.items()
               if not k.startswith('OS_')}
        env.update({'OS_AUTH_URL': ks.url, 'OS_USERNAME': 'p1-reader',
                    'OS_PASSWORD': keystone_fixture.PASSWORD,
                    'OS_USER_DOMAIN_ID': 'default',
                    'OS_PROJECT_NAME': 'p1', 'OS_PROJECT_DOMAIN_ID': 'default',
                    'OS_REGION_NAME': keystone_fixture.REGION,
                    'OS_INTERFACE': 'public', 'OS_IDENTITY_API_VERSION': '3',
                    'PYTHONWARNINGS': 'ignore'})
        cli = os.path.join(os.path.dirname(sys.executable), 'openstack')
        result = subprocess.run(
            [cli, 'baremetal', 'node', 'list', '-f', 'json'],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL, env=env, timeout=CLI_TIMEOUT)
        self.assertEqual(0, result.returncode, result.stderr.decode())
        listed = json.loads(result.stdout)
        self.assertEqual([('n-p1', uuids['n-p1'])],
                         [(n['Name'], n['UUID']) for n in listed])

    # -- the persona table ---------------------------------------------

    def wait_node(self, ident, predicate, what):
        def reached():
            r = self.call('sys-reader', 'GET', '/v1/nodes/%s' % ident)
            node = r.json() if r.status_code == 200 else None
            return (node and predicate(node)
                    and node.get('reservation') is None)
        base.wait_for(reached, WAIT_TIMEOUT,
                      message='node %s never %s' % (ident, what))

    def persona_actual(self, persona, nodes):
        """The table's columns for ``persona`` (its keystone user), on
        fresh nodes ``mine-<persona>`` and ``spare-<persona>`` of p1;
        ``nodes`` lists every node, updated with what it creates and
        deletes."""
        user = PERSONA_USERS[persona]
        p1 = self.keystone.project_ids[rbac_personas.OWNER]
        mine, spare = 'mine-%s' % persona, 'spare-%s' % persona
        for name in (mine, spare):
            self.assertStatus(201, self.call(
                'sys-admin', 'POST', '/v1/nodes',
                json={'name': name, 'driver': 'fake-hardware',
                      'owner': p1}))
            nodes.append((name, rbac_personas.OWNER, None))
        r = self.assertStatus(200, self.call(user, 'GET', '/v1/nodes'))
        result = {'list': sorted(n['name'] for n in r.json()['nodes'])}

        def status(method, path, body=None):
            return self.call(user, method, path, json=body).status_code
        result['show_mine'] = status('GET', '/v1/nodes/%s' % mine)
        result['show_theirs'] = status('GET', '/v1/nodes/theirs')
        new = 'new-%s' % persona
        result['create'] = status('POST', '/v1/nodes',
                                  {'name': new, 'driver': 'fake-hardware'})
        if result['create'] == 201:
            nodes.append((new, rbac_personas.created_owner(persona), None))
        result['patch'] = status('PATCH', '/v1/nodes/%s' % mine,
                                 [{'op': 'add', 'path': '/extra/a',
                                   'value': 'b'}])
        result['power'] = status('PUT', '/v1/nodes/%s/states/power' % mine,
                                 {'target': 'power on'})
        if result['power'] == 202:
            self.wait_node(mine, lambda n: n['power_state'] == 'power on',
                           'powered on')
        result['provision'] = status(
            'PUT', '/v1/nodes/%s/states/provision' % mine,
            {'target': 'manage'})
        if result['provision'] == 202:
            self.wait_node(mine,
                           lambda n: n['provision_state'] == 'manageable',
                           'became manageable')
        result['delete'] = status('DELETE', '/v1/nodes/%s' % spare)
        if result['delete'] == 204:
            nodes.remove((spare, rbac_personas.OWNER, None))
        return result

    def test_personas(self):
        """rbac_personas.TABLE with real tokens: keystone's implied roles
        (an admin token also carries member and reader) change nothing,
        and the service role works for a service user of the service
        project."""
        # (The API has no lessee field: the unit tests cover leases.)
        p2 = self.keystone.project_ids[rbac_personas.OTHER]
        nodes = [('theirs', rbac_personas.OTHER, None),
                 ('nobodys', None, None)]
        for name, owner in (('theirs', p2), ('nobodys', None)):
            body = {'name': name, 'driver': 'fake-hardware'}
            if owner:
                body['owner'] = owner
            self.assertStatus(201, self.call('sys-admin', 'POST',
                                             '/v1/nodes', json=body))
        expected, actual = {}, {}
        for persona in rbac_personas.TABLE:
            row = rbac_personas.expected(persona)
            before = list(nodes)
            got = self.persona_actual(persona, nodes)
            # Listed: the nodes there were when it listed (its own two
            # fresh ones included, what it created or deleted not).
            listed_from = before + [
                ('mine-%s' % persona, rbac_personas.OWNER, None),
                ('spare-%s' % persona, rbac_personas.OWNER, None)]
            row['list'] = rbac_personas.visible(row['list'], listed_from)
            expected[persona] = row
            actual[persona] = got
        self.assertEqual(expected, actual)
