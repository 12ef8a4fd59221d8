"""Authentication strategies and policy enforcement."""

import base64
import os

import bcrypt
import fixtures

from ironic_like.api import versions
from ironic_like.api.middleware import basic_auth
from ironic_like.common import exception
from ironic_like.common import policy
from ironic_like.common import states
from ironic_like.tests import rbac_personas
from ironic_like.tests.unit.api import base

MAX = versions.MAX_VERSION_STRING
TOO_NEW = versions.to_string((1, versions.MAX_VERSION[1] + 1))


def _basic(user, password):
    token = base64.b64encode(('%s:%s' % (user, password)).encode())
    return {'Authorization': 'Basic %s' % token.decode()}


class TestHttpBasic(base.APITestCase):

    auth_strategy = 'http_basic'

    def setUp(self):
        self.tmp = self.useFixture(fixtures.TempDir()).path
        self.user_file = os.path.join(self.tmp, 'htpasswd')
        hashed = bcrypt.hashpw(b's3cret', bcrypt.gensalt(rounds=4))
        with open(self.user_file, 'w') as f:
            f.write('# comment\n')
            f.write('admin:%s\n' % hashed.decode())
            f.write('md5user:$apr1$abc$def\n')
        super().setUp()

    def make_app(self, **kwargs):
        self.config(http_basic_auth_user_file=self.user_file)
        return super().make_app(**kwargs)

    def test_valid_credentials(self):
        node = self.create_node()
        doc = self.get('/v1/nodes', headers=_basic('admin', 's3cret')).json
        self.assertEqual([node.uuid], [n['uuid'] for n in doc['nodes']])
        # Second time served from the verified-credential memory.
        self.get('/v1/nodes', headers=_basic('admin', 's3cret'))

    def test_missing_credentials_401(self):
        r = self.get('/v1/nodes', status=401)
        self.assertFault(r, 401)
        self.assertEqual('Basic realm="Baremetal API"',
                         r.headers['WWW-Authenticate'])
        self.assertEqual(MAX, r.headers['X-OpenStack-Ironic-API-Version'])

    def test_bad_credentials_401(self):
        for headers in (_basic('admin', 'wrong'), _basic('nobody', 'x'),
                        _basic('md5user', 'x'),
                        {'Authorization': 'Bearer abc'},
                        {'Authorization': 'Basic !!!'}):
            r = self.get('/v1/nodes', headers=headers, status=401)
            self.assertFault(r, 401)
            self.assertIn('WWW-Authenticate', r.headers)

    def test_wrong_password_after_success_still_401(self):
        self.get('/v1/nodes', headers=_basic('admin', 's3cret'))
        self.get('/v1/nodes', headers=_basic('admin', 's3cret!'),
                 status=401)

    def test_user_file_change_is_noticed(self):
        self.get('/v1/nodes', headers=_basic('admin', 's3cret'))
        hashed = bcrypt.hashpw(b'new', bcrypt.gensalt(rounds=4))
        with open(self.user_file, 'w') as f:
            f.write('admin:%s\n' % hashed.decode())
        self.get('/v1/nodes', headers=_basic('admin', 's3cret'),
                 status=401)
        self.get('/v1/nodes', headers=_basic('admin', 'new'))

    def test_public_routes_need_no_credentials(self):
        self.assertIn('versions', self.app.get('/').json)
        self.assertEqual('v1', self.app.get('/v1').json['id'])
        self.assertEqual('v1', self.app.get('/v1/').json['id'])

    def test_identity_headers_are_ignored(self):
        # A basic-auth user is an admin whatever headers say (under
        # keystone, no role at all is a 403).
        self.get('/v1/conductors', headers=dict(
            _basic('admin', 's3cret'),
            **{'X-Roles': 'nothing', 'X-Project-Id': 'p'}))

    def test_missing_user_file_fails_at_setup(self):
        self.config(http_basic_auth_user_file=os.path.join(self.tmp, 'no'))
        self.assertRaises(OSError, basic_auth.BasicAuthMiddleware,
                          None, os.path.join(self.tmp, 'no'))


class TestKeystoneAuthToken(base.APITestCase):

    auth_strategy = 'keystone'

    def test_no_token_401(self):
        self.config(www_authenticate_uri='http://keystone.example/v3',
                    group='keystone_authtoken')
        self.app = self.make_app()
        r = self.get('/v1/nodes', status=401)
        self.assertFault(r, 401)
        self.assertIn('keystone.example', r.headers['WWW-Authenticate'])

    def test_public_routes(self):
        self.assertIn('versions', self.app.get('/').json)
        self.assertEqual('v1', self.app.get('/v1').json['id'])


class KeystoneTestCase(base.APITestCase):
    """Keystone strategy with identity headers sent directly."""

    auth_strategy = 'keystone'
    with_conductor = True

    def make_app(self, **kwargs):
        return super().make_app(skip_auth_token=True)

    @staticmethod
    def project(roles, project='p1'):
        return {'X-Roles': roles, 'X-Project-Id': project,
                'X-User-Id': 'u1'}

    @staticmethod
    def system(roles):
        return {'X-Roles': roles, 'OpenStack-System-Scope': 'all',
                'X-User-Id': 'u1'}


class TestPolicy(KeystoneTestCase):

    def setUp(self):
        super().setUp()
        self.mine = self.create_node(name='mine', owner='p1')
        self.leased = self.create_node(name='leased', owner='p9',
                                       lessee='p1')
        self.theirs = self.create_node(name='theirs', owner='p2')

    def names(self, headers, url='/v1/nodes'):
        return sorted(n['name'] for n in
                      self.get(url, headers=headers).json['nodes'])

    def test_system_reader_sees_all(self):
        self.assertEqual(['leased', 'mine', 'theirs'],
                         self.names(self.system('reader')))

    def test_system_admin_sees_all(self):
        self.assertEqual(['leased', 'mine', 'theirs'],
                         self.names(self.system('admin')))

    def test_project_admin_is_not_a_cloud_admin(self):
        # An admin of a project sees what its project owns or leases, like
        # a member; without self-owned nodes (test_self_owned_nodes) it
        # enrols, redefines and deletes nothing.
        self.config(project_admin_can_manage_own_nodes=False, group='api')
        headers = self.project('admin')
        self.assertEqual(['leased', 'mine'], self.names(headers))
        self.get('/v1/nodes/theirs', headers=headers, status=404)
        r = self.post('/v1/nodes', {'driver': 'fake-hardware'},
                      headers=headers, status=403)
        self.assertFault(r, 403, 'baremetal:node:create')
        r = self.patch('/v1/nodes/mine', [{'op': 'add',
                                           'path': '/conductor_group',
                                           'value': 'g1'}],
                       headers=headers, status=403)
        self.assertFault(r, 403, 'baremetal:node:update:conductor_group')
        self.delete('/v1/nodes/mine', headers=headers, status=403)
        self.put('/v1/nodes/mine/traits/CUSTOM_A', headers=headers,
                 status=403)
        self.get('/v1/conductors', headers=headers, status=403)
        self.get('/v1/drivers', headers=headers, status=403)
        self.get('/v1/ports', headers=headers, status=403)
        self.post('/v1/ports', {'node_uuid': self.mine.uuid,
                                'address': '52:54:00:00:00:ab'},
                  headers=headers, status=403)
        self.assertEqual(3, len(self.db.get_node_list()))

    def test_project_reader_sees_owned_and_leased(self):
        headers = self.project('reader')
        self.assertEqual(['leased', 'mine'], self.names(headers))
        self.assertEqual(['leased', 'mine'],
                         self.names(headers, '/v1/nodes/detail'))
        self.get('/v1/nodes/mine', headers=headers)
        self.get('/v1/nodes/leased', headers=headers)
        # Another project's node does not exist for this user.
        r = self.get('/v1/nodes/theirs', headers=headers, status=404)
        self.assertFault(r, 404, 'theirs')

    def test_reader_without_project_sees_nothing(self):
        self.assertEqual([], self.names({'X-Roles': 'reader'}))

    def test_no_role_403(self):
        r = self.get('/v1/nodes', headers=self.project('nothing'),
                     status=403)
        self.assertFault(r, 403, 'baremetal:node:list')

    def test_reader_cannot_write_403(self):
        headers = self.project('reader')
        r = self.post('/v1/nodes', {'driver': 'fake-hardware'},
                      headers=headers, status=403)
        self.assertFault(r, 403, 'baremetal:node:create')
        self.patch('/v1/nodes/mine', [{'op': 'add', 'path': '/extra/a',
                                       'value': 1}],
                   headers=headers, status=403)
        self.delete('/v1/nodes/mine', headers=headers, status=403)
        self.put('/v1/nodes/mine/states/power', {'target': 'power on'},
                 headers=headers, status=403)
        self.put('/v1/nodes/mine/maintenance', {}, headers=headers,
                 status=403)
        self.put('/v1/nodes/mine/traits/CUSTOM_A', headers=headers,
                 status=403)
        self.assertIsNone(self.db.get_node_by_uuid(
            self.mine.uuid).target_power_state)

    def test_system_reader_cannot_write_403(self):
        r = self.post('/v1/nodes', {'driver': 'fake-hardware'},
                      headers=self.system('reader'), status=403)
        self.assertFault(r, 403)
        self.put('/v1/nodes/theirs/states/power', {'target': 'power on'},
                 headers=self.system('reader'), status=403)

    def test_owner_member_operates_own_node(self):
        headers = self.project('member')
        self.put('/v1/nodes/mine/states/power', {'target': 'power on'},
                 headers=headers)
        self.wait_for(self.mine.uuid,
                      lambda n: n.power_state == states.POWER_ON)
        self.put('/v1/nodes/mine/maintenance', {'reason': 'r'},
                 headers=headers)
        self.assertTrue(self.db.get_node_by_uuid(self.mine.uuid).maintenance)
        # But cannot redefine its hardware nor give it away.
        self.patch('/v1/nodes/mine', [{'op': 'replace', 'path': '/driver',
                                       'value': 'fake-hardware'}],
                   headers=headers, status=403)
        self.patch('/v1/nodes/mine', [{'op': 'add', 'path': '/owner',
                                       'value': 'p2'}],
                   headers=headers, status=403)
        # A lessee member may look but not operate.
        self.put('/v1/nodes/leased/states/power', {'target': 'power on'},
                 headers=headers, status=403)
        # Another project's node stays invisible.
        self.put('/v1/nodes/theirs/states/power', {'target': 'power on'},
                 headers=headers, status=404)

    def test_system_admin_writes(self):
        self.post('/v1/nodes', {'driver': 'fake-hardware'},
                  headers=self.system('admin'))

    def test_ports_policy(self):
        port = self.create_port(self.mine)
        other = self.create_port(self.theirs)
        reader = self.project('reader')
        self.get('/v1/ports/%s' % port.uuid, headers=reader)
        self.get('/v1/ports/%s' % other.uuid, headers=reader, status=404)
        doc = self.get('/v1/ports?node=mine', headers=reader).json
        self.assertEqual([port.uuid], [p['uuid'] for p in doc['ports']])
        self.get('/v1/nodes/mine/ports', headers=reader)
        self.get('/v1/nodes/theirs/ports', headers=reader, status=404)
        r = self.get('/v1/ports', headers=reader, status=403)
        self.assertFault(r, 403, 'list_all')
        self.assertEqual(2, len(self.get(
            '/v1/ports', headers=self.system('reader')).json['ports']))
        self.post('/v1/ports', {'node_uuid': self.mine.uuid,
                                'address': '52:54:00:00:00:aa'},
                  headers=reader, status=403)
        self.patch('/v1/ports/%s' % port.uuid,
                   [{'op': 'add', 'path': '/extra/a', 'value': 1}],
                   headers=reader, status=403)
        self.delete('/v1/ports/%s' % port.uuid, headers=reader,
                    status=403)
        self.delete('/v1/ports/%s' % other.uuid, headers=reader,
                    status=404)

    def test_conductors_and_drivers_need_system_scope(self):
        self.get('/v1/conductors', headers=self.project('reader'),
                 status=403)
        self.get('/v1/conductors', headers=self.system('reader'))
        self.get('/v1/drivers', headers=self.project('reader'),
                 status=403)
        self.get('/v1/drivers', headers=self.system('reader'))

    def _policy_file(self, text):
        """Use a policy file holding ``text`` from now on."""
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'policy.yaml')
        with open(path, 'w') as f:
            f.write(text)
        self.config(policy_file=path, group='oslo_policy')
        policy.reset()

    def test_policy_file_overrides_defaults(self):
        self._policy_file('"baremetal:node:create": "role:reader"\n')
        self.post('/v1/nodes', {'driver': 'fake-hardware'},
                  headers=self.project('reader'))

    def test_policy_file_restores_project_admins(self):
        # What the release note tells operators who want the behaviour of
        # before secure RBAC: an admin of any project is a cloud admin.
        self._policy_file('"admin": "role:admin"\n')
        headers = self.project('admin')
        self.assertEqual(['leased', 'mine', 'theirs'], self.names(headers))
        self.post('/v1/nodes', {'driver': 'fake-hardware'},
                  headers=headers)
        self.delete('/v1/nodes/theirs', headers=headers)
        self.get('/v1/conductors', headers=headers)
        self.get('/v1/drivers', headers=headers)


class TestPersonas(KeystoneTestCase):
    """The persona x action table of :mod:`rbac_personas`, with identity
    headers as keystonemiddleware sets them (one role each: the policy
    must not rely on implied roles)."""

    NODES = [('mine', rbac_personas.OWNER, None),
             ('spare', rbac_personas.OWNER, None),
             ('theirs', rbac_personas.OTHER, None),
             ('leased', 'p9', rbac_personas.OWNER)]

    def setUp(self):
        super().setUp()
        self.nodes = {name: self.create_node(name=name, owner=owner,
                                             lessee=lessee)
                      for name, owner, lessee in self.NODES}

    @staticmethod
    def headers(persona):
        scope, role = rbac_personas.PERSONAS[persona]
        if scope == 'system':
            return {'X-Roles': role, 'OpenStack-System-Scope': 'all',
                    'X-User-Id': persona}
        if scope == 'service':
            return {'X-Roles': role, 'X-Project-Id': 'svc-id',
                    'X-Project-Name': 'service', 'X-User-Id': persona}
        return {'X-Roles': role, 'X-Project-Id': scope,
                'X-Project-Name': scope, 'X-User-Id': persona}

    def actual(self, headers):
        """What the table's columns give for ``headers``."""
        result = {'list': sorted(
            n['name'] for n in
            self.get('/v1/nodes', headers=headers).json['nodes'])}
        mine = self.nodes['mine'].uuid

        def status(call, *args, **kwargs):
            return call(*args, headers=headers, status='*',
                        **kwargs).status_int
        result['show_mine'] = status(self.get, '/v1/nodes/mine')
        result['show_theirs'] = status(self.get, '/v1/nodes/theirs')
        result['create'] = status(self.post, '/v1/nodes',
                                  {'driver': 'fake-hardware'})
        result['patch'] = status(self.patch, '/v1/nodes/mine',
                                 [{'op': 'add', 'path': '/extra/a',
                                   'value': 'b'}])
        result['power'] = status(self.put, '/v1/nodes/mine/states/power',
                                 {'target': 'power on'})
        if result['power'] == 202:
            self.wait_for(mine, lambda n: n.power_state == states.POWER_ON)
        result['provision'] = status(
            self.put, '/v1/nodes/mine/states/provision',
            {'target': 'manage'})
        if result['provision'] == 202:
            self.wait_for(mine, lambda n: n.provision_state ==
                          states.MANAGEABLE)
        result['delete'] = status(self.delete, '/v1/nodes/spare')
        return result

    def check(self, persona):
        expected = rbac_personas.expected(persona)
        expected['list'] = rbac_personas.visible(expected['list'],
                                                 self.NODES)
        self.assertEqual(expected, self.actual(self.headers(persona)))
        # What was refused did not happen.
        node = self.db.get_node_by_uuid(self.nodes['mine'].uuid)
        if expected['patch'] != 200:
            self.assertEqual({}, node.extra)
        if expected['power'] != 202:
            self.assertEqual(states.POWER_OFF, node.power_state)
        if expected['provision'] != 202:
            self.assertEqual(states.ENROLL, node.provision_state)
        created = 1 if expected['create'] == 201 else 0
        deleted = 1 if expected['delete'] == 204 else 0
        self.assertEqual(len(self.NODES) + created - deleted,
                         len(self.db.get_node_list()))

    def test_system_admin(self):
        self.check('system-admin')

    def test_system_member(self):
        self.check('system-member')

    def test_system_reader(self):
        self.check('system-reader')

    def test_owner_admin(self):
        self.check('owner-admin')

    def test_owner_member(self):
        self.check('owner-member')

    def test_owner_reader(self):
        self.check('owner-reader')

    def test_other_project_admin(self):
        self.check('other-admin')

    def test_service_user(self):
        self.check('service')

    def test_implied_roles_change_nothing(self):
        # Real tokens carry the implied roles (admin implies member and
        # reader): a project admin is still only a member.
        headers = dict(self.headers('owner-admin'),
                       **{'X-Roles': 'admin,manager,member,reader'})
        expected = rbac_personas.expected('owner-admin')
        expected['list'] = rbac_personas.visible(expected['list'],
                                                 self.NODES)
        self.assertEqual(expected, self.actual(headers))

    def test_service_user_without_elevated_access(self):
        # Then the service project is a project like any other: its
        # service users see and operate the nodes it owns only.
        self.config(rbac_service_role_elevated_access=False)
        headers = self.headers('service')
        self.assertEqual([], sorted(
            n['name'] for n in
            self.get('/v1/nodes', headers=headers).json['nodes']))
        self.get('/v1/nodes/mine', headers=headers, status=404)
        self.patch('/v1/nodes/mine', [{'op': 'add', 'path': '/extra/a',
                                       'value': 'b'}],
                   headers=headers, status=404)
        self.get('/v1/conductors', headers=headers, status=403)

    def test_service_role_in_owner_project(self):
        # The service role acts for its own project as a member would.
        headers = {'X-Roles': 'service', 'X-Project-Id': 'p1',
                   'X-Project-Name': 'p1', 'X-User-Id': 'svc'}
        self.assertEqual(['leased', 'mine', 'spare'], sorted(
            n['name'] for n in
            self.get('/v1/nodes', headers=headers).json['nodes']))
        self.get('/v1/nodes/theirs', headers=headers, status=404)
        self.put('/v1/nodes/mine/states/power', {'target': 'power on'},
                 headers=headers)
        # It enrols nodes its project then owns (Ironic's self-owned
        # nodes), and deletes none.
        node = self.post('/v1/nodes', {'driver': 'fake-hardware'},
                         headers=headers).json
        self.assertEqual('p1', node['owner'])
        self.delete('/v1/nodes/spare', headers=headers, status=403)

    def test_system_scoped_service_user(self):
        # A service with a system-scoped token (an inspector enrolling
        # what it discovers) may create nodes and ports, not delete nodes.
        headers = {'X-Roles': 'service', 'OpenStack-System-Scope': 'all',
                   'X-User-Id': 'svc'}
        node = self.post('/v1/nodes', {'driver': 'fake-hardware'},
                         headers=headers).json
        self.post('/v1/ports', {'node_uuid': node['uuid'],
                                'address': '52:54:00:00:00:ac'},
                  headers=headers)
        self.delete('/v1/nodes/%s' % node['uuid'], headers=headers,
                    status=403)


class TestPolicyModule(base.APITestCase):

    def test_list_policies_documented(self):
        names = {rule.name for rule in policy.list_policies()}
        for name in ('baremetal:node:get', 'baremetal:node:create',
                     'baremetal:node:set_power_state',
                     'baremetal:port:create', 'baremetal:conductor:get',
                     'baremetal:driver:get', 'baremetal:node:list_all'):
            self.assertIn(name, names)

    def test_authorize(self):
        from ironic_like.common import context
        reader = context.RequestContext(roles=['reader'], project_id='p')
        admin = context.get_admin_context()
        target = {'node.owner': 'p', 'node.lessee': policy.NO_PROJECT}
        policy.authorize('baremetal:node:get', target, reader)
        policy.authorize('baremetal:node:create', {}, admin)
        self.assertRaises(exception.HTTPForbidden, policy.authorize,
                          'baremetal:node:create', {}, reader)

    def test_unowned_node_does_not_match_projectless_user(self):
        from ironic_like.common import context
        user = context.RequestContext(roles=['member'])
        node = self.create_node(owner=None)
        self.assertFalse(policy.check('baremetal:node:set_power_state',
                                      policy.node_target(node), user))

    def test_oslo_policy_enforcer_entry_point(self):
        self.useFixture(fixtures.MonkeyPatch(
            'sys.argv', ['oslopolicy-policy-generator', '--namespace',
                         'ironic_like', '--output-file=/tmp/x']))
        enforcer = policy.get_oslo_policy_enforcer()
        self.assertIn('baremetal:node:get', enforcer.registered_rules)
