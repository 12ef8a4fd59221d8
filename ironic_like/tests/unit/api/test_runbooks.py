"""/v1/runbooks and the runbook of a clean or service request (Ironic
1.92)."""

from unittest import mock

from oslo_utils import uuidutils

from ironic_like.common import states
from ironic_like.conductor import rpcapi
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth

URL = '/v1/runbooks'
V = '1.92'
STEPS = [{'interface': 'bios', 'step': 'apply_configuration',
          'args': {'settings': [], 'password': 'secret'}, 'order': 2},
         {'interface': 'deploy', 'step': 'erase_devices_metadata',
          'args': {}, 'order': 1}]


class RunbookBase(base.APITestCase):

    def create(self, name='CUSTOM_FIRMWARE', steps=STEPS, **values):
        values.update(name=name, steps=list(steps))
        return self.db.create_runbook(values)


class TestCrud(RunbookBase):

    def test_create_show_patch_delete(self):
        r = self.post(URL, {'name': 'CUSTOM_FIRMWARE', 'steps': STEPS,
                            'extra': {'a': 1}}, version=V)
        doc = r.json
        self.assertTrue(r.location.endswith('/v1/runbooks/' + doc['uuid']))
        self.assertEqual({'uuid', 'name', 'steps', 'disable_ramdisk',
                          'extra', 'public', 'owner', 'created_at',
                          'updated_at', 'links'}, set(doc))
        self.assertFalse(doc['public'])
        self.assertFalse(doc['disable_ramdisk'])
        self.assertIsNone(doc['owner'])
        # Step arguments are masked when shown, kept as given.
        self.assertEqual('******', doc['steps'][0]['args']['password'])
        stored = self.db.get_runbook_by_uuid(doc['uuid'])
        self.assertEqual('secret', stored.steps[0].args['password'])
        shown = self.get(URL + '/CUSTOM_FIRMWARE', version=V).json
        self.assertEqual(doc['uuid'], shown['uuid'])
        doc = self.patch(URL + '/CUSTOM_FIRMWARE', [
            {'op': 'replace', 'path': '/steps/1/order', 'value': 5},
            {'op': 'replace', 'path': '/disable_ramdisk', 'value': True},
            {'op': 'replace', 'path': '/name', 'value': 'CUSTOM_FW2'}],
            version=V).json
        self.assertEqual('CUSTOM_FW2', doc['name'])
        self.assertTrue(doc['disable_ramdisk'])
        self.assertEqual(5, doc['steps'][1]['order'])
        # The other step's real arguments survived the patch.
        stored = self.db.get_runbook_by_uuid(doc['uuid'])
        self.assertEqual('secret', stored.steps[0].args['password'])
        self.delete(URL + '/CUSTOM_FW2', version=V)
        self.get(URL + '/' + doc['uuid'], version=V, status=404)

    def test_list(self):
        a = self.create('CUSTOM_B')
        self.create('CUSTOM_A')
        items = self.get(URL, version=V).json['runbooks']
        self.assertEqual([{'uuid', 'name', 'links'}] * 2,
                         [set(i) for i in items])
        self.assertEqual(a.uuid, items[0]['uuid'])
        doc = self.get(URL + '?detail=true&sort_key=name', version=V).json
        self.assertEqual(['CUSTOM_A', 'CUSTOM_B'],
                         [i['name'] for i in doc['runbooks']])
        self.assertIn('steps', doc['runbooks'][0])
        page = self.get(URL + '?limit=1', version=V).json
        self.assertEqual(1, len(page['runbooks']))
        self.assertIn('marker=%s' % a.uuid, page['next'])
        doc = self.get(URL + '?fields=name,public', version=V).json
        self.assertEqual({'name', 'public', 'links'},
                         set(doc['runbooks'][0]))
        r = self.get(URL + '?sort_key=steps', version=V, status=400)
        self.assertFault(r, 400, 'sort_key')
        self.get(URL + '?fields=nope', version=V, status=400)

    def test_bad_bodies_change_nothing(self):
        bad = [
            ({'name': 'not-a-trait', 'steps': STEPS}, 'name'),
            ({'name': 'CUSTOM_X', 'steps': []}, 'steps'),
            ({'name': 'CUSTOM_X'}, 'steps'),
            ({'name': 'CUSTOM_X', 'steps': [
                {'interface': 'boot', 'step': 's', 'order': 1}]},
             '"boot"'),
            ({'name': 'CUSTOM_X', 'steps': [
                {'interface': 'bios', 'step': 's'}]}, 'order'),
            ({'name': 'CUSTOM_X', 'steps': [
                dict(STEPS[0]), dict(STEPS[0], order=3)]},
             'Duplicate runbook steps'),
            ({'name': 'CUSTOM_X', 'steps': STEPS, 'colour': 'red'},
             'colour'),
        ]
        for body, fragment in bad:
            r = self.post(URL, body, version=V, status=400)
            self.assertFault(r, 400, fragment)
        self.assertEqual([], self.db.get_runbook_list())
        runbook = self.create()
        r = self.patch(URL + '/' + runbook.uuid, [
            {'op': 'remove', 'path': '/steps'}], version=V, status=400)
        self.assertFault(r, 400, 'steps')
        r = self.patch(URL + '/' + runbook.uuid, [
            {'op': 'replace', 'path': '/uuid',
             'value': uuidutils.generate_uuid()}], version=V, status=400)
        self.assertEqual(runbook.uuid, self.db.get_runbook_by_id(
            runbook.id).uuid)

    def test_duplicate_name_409(self):
        self.create()
        r = self.post(URL, {'name': 'CUSTOM_FIRMWARE', 'steps': STEPS},
                      version=V, status=409)
        self.assertFault(r, 409, 'CUSTOM_FIRMWARE')

    def test_public_runbook_has_no_owner(self):
        runbook = self.create(owner='p1')
        doc = self.patch(URL + '/' + runbook.uuid, [
            {'op': 'replace', 'path': '/public', 'value': True}],
            version=V).json
        self.assertTrue(doc['public'])
        self.assertIsNone(doc['owner'])
        r = self.patch(URL + '/' + runbook.uuid, [
            {'op': 'replace', 'path': '/owner', 'value': 'p2'}],
            version=V, status=400)
        self.assertFault(r, 400, 'There cannot be an owner')
        # Private again and owned, in one patch.
        doc = self.patch(URL + '/' + runbook.uuid, [
            {'op': 'replace', 'path': '/public', 'value': False},
            {'op': 'replace', 'path': '/owner', 'value': 'p2'}],
            version=V).json
        self.assertEqual('p2', doc['owner'])

    def test_gated_below_1_92(self):
        runbook = self.create()
        self.get(URL, version='1.91', status=404)
        self.get(URL + '/' + runbook.uuid, version='1.91', status=404)
        self.post(URL, {'name': 'CUSTOM_X', 'steps': STEPS},
                  version='1.91', status=405)
        self.delete(URL + '/' + runbook.uuid, version='1.91', status=405)
        self.assertNotIn('runbooks', self.get('/v1', version='1.91').json)
        self.assertIn('runbooks', self.get('/v1', version=V).json)


class TestUseOnANode(RunbookBase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.runbook = self.create()
        self.node = self.create_node(provision_state=states.MANAGEABLE)
        self.db.set_node_traits(self.node.id, ['CUSTOM_FIRMWARE'])
        self.url = '/v1/nodes/%s/states/provision' % self.node.uuid

    def _sent(self, body, version=V):
        with mock.patch.object(rpcapi.ConductorAPI,
                               'do_provisioning_action') as call:
            self.put(self.url, body, version=version)
        return call.call_args[0][3]

    def test_clean_with_the_runbook_steps_in_order(self):
        params = self._sent({'target': 'clean',
                             'runbook': 'CUSTOM_FIRMWARE'})
        self.assertEqual(
            [{'interface': 'deploy', 'step': 'erase_devices_metadata',
              'args': {}},
             {'interface': 'bios', 'step': 'apply_configuration',
              'args': {'settings': [], 'password': 'secret'}}],
            params['clean_steps'])
        self.assertNotIn('disable_ramdisk', params)

    def test_service_with_the_runbook(self):
        self.db.update_node(self.node.id,
                            {'provision_state': states.ACTIVE})
        params = self._sent({'target': 'service',
                             'runbook': self.runbook.uuid})
        self.assertEqual(2, len(params['service_steps']))

    def test_disable_ramdisk_from_the_runbook(self):
        self.db.update_runbook(self.runbook.id, {'disable_ramdisk': True})
        params = self._sent({'target': 'clean',
                             'runbook': 'CUSTOM_FIRMWARE'})
        self.assertTrue(params['disable_ramdisk'])

    def test_refusals_change_nothing(self):
        cases = [
            ({'target': 'clean', 'runbook': 'CUSTOM_FIRMWARE'}, '1.91',
             406, 'runbook'),
            ({'target': 'provide', 'runbook': 'CUSTOM_FIRMWARE'}, V, 400,
             '"runbook" is only valid'),
            ({'target': 'clean', 'runbook': 'CUSTOM_FIRMWARE',
              'clean_steps': []}, V, 400, 'not both'),
            ({'target': 'clean', 'runbook': 'CUSTOM_NONE'}, V, 404,
             'CUSTOM_NONE'),
        ]
        for body, version, status, fragment in cases:
            r = self.put(self.url, body, version=version, status=status)
            self.assertFault(r, status, fragment)
        self.db.set_node_traits(self.node.id, [])
        r = self.put(self.url, {'target': 'clean',
                                'runbook': 'CUSTOM_FIRMWARE'},
                     version=V, status=400)
        self.assertFault(r, 400, 'has not been approved')
        self.assertEqual(states.MANAGEABLE, self.db.get_node_by_id(
            self.node.id).provision_state)


class TestPolicy(test_auth.KeystoneTestCase):

    def create(self, name, **values):
        values.update(name=name, steps=list(STEPS))
        return self.db.create_runbook(values)

    def setUp(self):
        super().setUp()
        self.mine = self.create('CUSTOM_MINE', owner='p1')
        self.theirs = self.create('CUSTOM_THEIRS', owner='p2')
        self.public = self.create('CUSTOM_PUBLIC', public=True)
        self.system_only = self.create('CUSTOM_SYSTEM')

    def _names(self, headers, query=''):
        doc = self.get(URL + query, headers=headers, version=V).json
        return sorted(r['name'] for r in doc['runbooks'])

    def test_project_sees_its_own_and_public(self):
        headers = self.project('reader')
        self.assertEqual(['CUSTOM_MINE', 'CUSTOM_PUBLIC'],
                         self._names(headers))
        self.get(URL + '?project=p2', headers=headers, version=V,
                 status=403)
        self.get(URL + '/CUSTOM_MINE', headers=headers, version=V)
        self.get(URL + '/CUSTOM_PUBLIC', headers=headers, version=V)
        self.get(URL + '/CUSTOM_THEIRS', headers=headers, version=V,
                 status=403)
        self.assertEqual(4, len(self._names(self.system('reader'))))
        self.assertEqual(['CUSTOM_MINE', 'CUSTOM_PUBLIC'],
                         self._names(self.system('reader'), '?project=p1'))

    def test_project_manager_creates_its_own(self):
        headers = self.project('manager')
        doc = self.post(URL, {'name': 'CUSTOM_NEW', 'steps': STEPS},
                        headers=headers, version=V).json
        self.assertEqual('p1', doc['owner'])
        r = self.post(URL, {'name': 'CUSTOM_X', 'steps': STEPS,
                            'owner': 'p2'}, headers=headers, version=V,
                      status=400)
        self.assertFault(r, 400, 'owner other than your own project')
        r = self.post(URL, {'name': 'CUSTOM_X', 'steps': STEPS,
                            'public': True}, headers=headers, version=V,
                      status=400)
        self.assertFault(r, 400, 'public runbook')
        r = self.post(URL, {'name': 'CUSTOM_X', 'steps': STEPS},
                      headers=self.project('member'), version=V,
                      status=403)
        self.assertFault(r, 403, 'baremetal:runbook:create')

    def test_changes_by_owner_managers_and_operators(self):
        patch = [{'op': 'replace', 'path': '/extra', 'value': {'a': 1}}]
        self.patch(URL + '/CUSTOM_MINE', patch,
                   headers=self.project('manager'), version=V)
        for url in ('/CUSTOM_THEIRS', '/CUSTOM_PUBLIC'):
            self.patch(URL + url, patch, headers=self.project('manager'),
                       version=V, status=403)
        self.patch(URL + '/CUSTOM_MINE', patch,
                   headers=self.project('member'), version=V, status=403)
        # Owner and public are the operators' to change.
        r = self.patch(URL + '/CUSTOM_MINE', [
            {'op': 'replace', 'path': '/owner', 'value': 'p3'}],
            headers=self.project('manager'), version=V, status=403)
        self.assertFault(r, 403, 'baremetal:runbook:update:owner')
        self.patch(URL + '/CUSTOM_MINE', [
            {'op': 'replace', 'path': '/owner', 'value': 'p3'}],
            headers=self.system('member'), version=V)
        self.delete(URL + '/CUSTOM_THEIRS', headers=self.project('manager'),
                    version=V, status=403)
        self.delete(URL + '/CUSTOM_THEIRS', headers=self.system('member'),
                    version=V)

    def test_use_needs_the_use_rule(self):
        node = self.create_node(name='n1', owner='p1',
                                provision_state=states.MANAGEABLE)
        self.db.set_node_traits(node.id, ['CUSTOM_THEIRS'])
        url = '/v1/nodes/%s/states/provision' % node.uuid
        # Keystone expands implied roles: a manager is a member too.
        headers = self.project('manager,member,reader')
        r = self.put(url, {'target': 'clean', 'runbook': 'CUSTOM_THEIRS'},
                     headers=headers, version=V, status=403)
        self.assertFault(r, 403, 'baremetal:runbook:use')
        self.assertEqual(states.MANAGEABLE, self.db.get_node_by_id(
            node.id).provision_state)
        # The project's own runbook, approved for the node, is usable.
        self.db.set_node_traits(node.id, ['CUSTOM_MINE'])
        with mock.patch.object(rpcapi.ConductorAPI,
                               'do_provisioning_action') as call:
            self.put(url, {'target': 'clean', 'runbook': 'CUSTOM_MINE'},
                     headers=headers, version=V)
        self.assertEqual(2, len(call.call_args[0][3]['clean_steps']))


class TestBounds(RunbookBase):

    def test_order_beyond_the_column_is_400(self):
        step = dict(STEPS[1], order=2 ** 31)
        r = self.post(URL, {'name': 'CUSTOM_X', 'steps': [step]},
                      version=V, status=400)
        self.assertFault(r, 400, 'steps')
        r = self.post('/v1/deploy_templates', {
            'name': 'CUSTOM_X', 'steps': [
                {'interface': 'bios', 'step': 's', 'args': {},
                 'priority': 2 ** 31}]}, version=V, status=400)
        self.assertFault(r, 400, 'steps')
        self.assertEqual([], self.db.get_runbook_list())


class TestRunbookTraits(RunbookBase):
    """1.112: runbook traits, description, names that are not traits."""

    with_conductor = True
    V112 = '1.112'

    def test_traits_subresource(self):
        doc = self.post(URL, {'name': 'firmware-upgrade', 'steps': STEPS,
                              'description': 'BIOS and BMC'},
                        version=self.V112).json
        self.assertEqual(([], 'BIOS and BMC'),
                         (doc['traits'], doc['description']))
        url = URL + '/firmware-upgrade/traits'
        self.put(url, {'traits': ['CUSTOM_B', 'CUSTOM_A']},
                 version=self.V112, status=204)
        self.assertEqual({'traits': ['CUSTOM_A', 'CUSTOM_B']},
                         self.get(url, version=self.V112).json)
        r = self.put(url + '/CUSTOM_C', version=self.V112, status=204)
        self.assertTrue(r.location.endswith(
            '/runbooks/firmware-upgrade/traits/CUSTOM_C'))
        self.delete(url + '/CUSTOM_A', version=self.V112)
        self.delete(url + '/CUSTOM_NONE', version=self.V112)
        self.assertEqual(['CUSTOM_B', 'CUSTOM_C'], self.get(
            url, version=self.V112).json['traits'])
        r = self.put(url + '/lower', version=self.V112, status=400)
        self.assertFault(r, 400, 'trait')
        r = self.put(url, {'traits': ['bad']}, version=self.V112,
                     status=400)
        self.assertFault(r, 400, 'traits')
        self.delete(url, version=self.V112)
        self.assertEqual([], self.get(url, version=self.V112).json['traits'])
        self.get(url, version='1.111', status=404)
        # Traits are not set on create (the sub-resource does it).
        r = self.post(URL, {'name': 'x', 'steps': STEPS,
                            'traits': ['CUSTOM_X']}, version=self.V112,
                      status=400)
        self.assertFault(r, 400, 'traits')

    def test_names_and_versions(self):
        r = self.post(URL, {'name': 'not-a-trait', 'steps': STEPS},
                      version='1.111', status=400)
        self.assertFault(r, 400, 'name')
        r = self.post(URL, {'name': 'CUSTOM_X', 'steps': STEPS,
                            'description': 'd'}, version='1.111',
                      status=406)
        self.assertFault(r, 406, 'description')
        # Below 1.112 a runbook is approved for the trait it is named.
        doc = self.post(URL, {'name': 'CUSTOM_OLD', 'steps': STEPS},
                        version='1.111').json
        self.assertNotIn('traits', doc)
        self.assertEqual(['CUSTOM_OLD'], self.get(
            URL + '/CUSTOM_OLD', version=self.V112).json['traits'])

    def test_use_with_traits(self):
        runbook = self.create('bios-reset')
        node = self.create_node(provision_state=states.MANAGEABLE)
        self.db.set_node_traits(node.id, ['CUSTOM_RACK7'])
        url = '/v1/nodes/%s/states/provision' % node.uuid
        r = self.put(url, {'target': 'clean', 'runbook': 'bios-reset'},
                     version=self.V112, status=400)
        self.assertFault(r, 400, 'no traits configured')
        self.db.set_runbook_traits(runbook.id, ['CUSTOM_OTHER'])
        r = self.put(url, {'target': 'clean', 'runbook': 'bios-reset'},
                     version=self.V112, status=400)
        self.assertFault(r, 400, 'CUSTOM_OTHER')
        self.db.set_runbook_traits(runbook.id, ['CUSTOM_OTHER',
                                                'CUSTOM_RACK7'])
        with mock.patch.object(rpcapi.ConductorAPI,
                               'do_provisioning_action') as call:
            self.put(url, {'target': 'clean', 'runbook': 'bios-reset'},
                     version=self.V112)
        self.assertEqual(2, len(call.call_args[0][3]['clean_steps']))
