"""/v1/inspection_rules (Ironic 1.96)."""

from oslo_utils import uuidutils

from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth

URL = '/v1/inspection_rules'
V = '1.96'
ACTIONS = [{'op': 'set-attribute',
            'args': {'path': '/driver_info/ipmi_address',
                     'value': '{inventory[bmc_address]}'}}]
CONDITIONS = [{'op': 'contains',
               'args': {'value': '{inventory[system_vendor][manufacturer]}',
                        'regex': '(?i)dell'}}]


class RuleBase(base.APITestCase):

    def create(self, **values):
        values.setdefault('actions', ACTIONS)
        values.setdefault('conditions', [])
        values.setdefault('priority', 0)
        values.setdefault('phase', 'main')
        values.setdefault('sensitive', False)
        return self.db.create_inspection_rule(values)


class TestCrud(RuleBase):

    def test_create_show_patch_delete(self):
        r = self.post(URL, {'description': 'Dell BMC', 'priority': 100,
                            'conditions': CONDITIONS, 'actions': ACTIONS},
                      version=V)
        doc = r.json
        self.assertTrue(r.location.endswith('/v1/inspection_rules/'
                                            + doc['uuid']))
        self.assertEqual({'uuid', 'description', 'priority', 'sensitive',
                          'phase', 'conditions', 'actions', 'created_at',
                          'updated_at', 'links'}, set(doc))
        self.assertEqual(('main', False, 100),
                         (doc['phase'], doc['sensitive'], doc['priority']))
        self.assertEqual(CONDITIONS, doc['conditions'])
        url = URL + '/' + doc['uuid']
        self.assertEqual(ACTIONS, self.get(url, version=V).json['actions'])
        doc = self.patch(url, [
            {'op': 'replace', 'path': '/priority', 'value': 5},
            {'op': 'add', 'path': '/actions/-', 'value': {
                'op': 'add-trait', 'args': {'name': 'CUSTOM_DELL'}}}],
            version=V).json
        self.assertEqual(5, doc['priority'])
        self.assertEqual(['set-attribute', 'add-trait'],
                         [a['op'] for a in doc['actions']])
        self.delete(url, version=V)
        self.get(url, version=V, status=404)

    def test_loops_shown_with_multiple(self):
        doc = self.post(URL, {'conditions': [
            {'op': 'eq', 'args': {'values': ['{item}', 'x']},
             'loop': ['x', 'y']}], 'actions': ACTIONS}, version=V).json
        self.assertEqual('any', doc['conditions'][0]['multiple'])

    def test_sensitive_rules_hide_their_operations(self):
        doc = self.post(URL, {'sensitive': True, 'actions': ACTIONS},
                        version=V).json
        self.assertIsNone(doc['actions'])
        self.assertIsNone(doc['conditions'])
        url = URL + '/' + doc['uuid']
        r = self.patch(url, [{'op': 'replace', 'path': '/sensitive',
                              'value': False}], version=V, status=400)
        self.assertFault(r, 400, 'sensitive flag unset')
        stored = self.db.get_inspection_rule_by_uuid(doc['uuid'])
        self.assertEqual(ACTIONS, stored.actions)

    def test_list(self):
        a = self.create(priority=1, description='a')
        self.create(priority=9, phase='main')
        items = self.get(URL, version=V).json['inspection_rules']
        self.assertEqual([{'uuid', 'priority', 'phase', 'description',
                           'links'}] * 2, [set(i) for i in items])
        self.assertEqual(a.uuid, items[0]['uuid'])
        doc = self.get(URL + '?detail=true&sort_key=priority&sort_dir=desc',
                       version=V).json
        self.assertEqual([9, 1], [i['priority']
                                  for i in doc['inspection_rules']])
        self.assertIn('actions', doc['inspection_rules'][0])
        self.assertEqual([], self.get(URL + '?phase=other', version=V)
                         .json['inspection_rules'])
        page = self.get(URL + '?limit=1', version=V).json
        self.assertIn('marker=%s' % a.uuid, page['next'])
        r = self.get(URL + '?sort_key=actions', version=V, status=400)
        self.assertFault(r, 400, 'sort_key')

    def test_bad_bodies_change_nothing(self):
        bad = [
            ({}, 'actions'),
            ({'actions': []}, 'actions'),
            ({'actions': [{'op': 'explode', 'args': {}}]}, 'explode'),
            ({'actions': [{'op': 'add-trait', 'args': {}}]}, 'name'),
            ({'actions': [{'op': 'add-trait', 'args': {'name': 'X'},
                           'extra': 1}]}, 'extra'),
            ({'actions': ACTIONS, 'conditions': [
                {'op': 'eq', 'args': {'value': 1}}]}, 'values'),
            ({'actions': ACTIONS, 'phase': 'early'}, 'phase'),
            ({'actions': ACTIONS, 'priority': 10000}, 'priority'),
            ({'actions': ACTIONS, 'priority': -1}, 'priority'),
            ({'actions': ACTIONS, 'conditions': [
                {'op': 'eq', 'args': {'values': [1, 1]},
                 'loop': [1], 'multiple': 'most'}]}, '"most"'),
        ]
        for body, fragment in bad:
            r = self.post(URL, body, version=V, status=400)
            self.assertFault(r, 400, fragment)
        self.assertEqual([], self.db.get_inspection_rule_list())
        rule = self.create()
        r = self.patch(URL + '/' + rule.uuid, [
            {'op': 'remove', 'path': '/actions'}], version=V, status=400)
        self.assertFault(r, 400, 'actions')
        r = self.patch(URL + '/' + rule.uuid, [
            {'op': 'replace', 'path': '/actions/0/args', 'value': {}}],
            version=V, status=400)
        self.assertFault(r, 400, 'path')
        self.assertEqual(ACTIONS, self.db.get_inspection_rule_by_uuid(
            rule.uuid).actions)

    def test_by_uuid_only(self):
        r = self.get(URL + '/not-a-uuid', version=V, status=400)
        self.assertFault(r, 400, 'not-a-uuid')
        self.get(URL + '/' + uuidutils.generate_uuid(), version=V,
                 status=404)

    def test_gated_below_1_96(self):
        rule = self.create()
        self.get(URL, version='1.95', status=404)
        self.get(URL + '/' + rule.uuid, version='1.95', status=404)
        self.post(URL, {'actions': ACTIONS}, version='1.95', status=405)
        self.delete(URL + '/' + rule.uuid, version='1.95', status=405)
        self.assertNotIn('inspection_rules',
                         self.get('/v1', version='1.95').json)
        self.assertIn('inspection_rules', self.get('/v1', version=V).json)


class TestDeleteAll(RuleBase):
    """DELETE /v1/inspection_rules: every stored rule (Ironic's "Delete
    All Inspection Rules")."""

    def test_deletes_every_stored_rule(self):
        kept = [self.create(), self.create(sensitive=True, priority=9),
                self.create(phase='other', description='x')]
        r = self.delete(URL, version=V)
        self.assertEqual(b'', r.body)
        self.assertEqual([], self.get(URL, version=V)
                         .json['inspection_rules'])
        for rule in kept:
            self.get(URL + '/' + rule.uuid, version=V, status=404)
        # Nothing left: still 204.
        self.delete(URL, version=V)

    def test_refused_requests_delete_nothing(self):
        rule = self.create()
        r = self.delete(URL + '?confirm=true', version=V, status=400)
        self.assertFault(r, 400, 'confirm')
        self.delete(URL, version='1.95', status=405)
        self.assertEqual([rule.uuid], [r.uuid for r in
                                       self.db.get_inspection_rule_list()])

    def test_one_rule_still_by_uuid(self):
        a, b = self.create(), self.create()
        self.delete(URL + '/' + a.uuid, version=V)
        self.assertEqual([b.uuid], [r.uuid for r in
                                    self.db.get_inspection_rule_list()])
        r = self.delete(URL + '/not-a-uuid', version=V, status=400)
        self.assertFault(r, 400, 'not-a-uuid')
        self.delete(URL + '/' + a.uuid, version=V, status=404)


class TestPolicy(test_auth.KeystoneTestCase):

    def test_readers_read_admins_write(self):
        rule = self.db.create_inspection_rule({
            'actions': ACTIONS, 'conditions': [], 'priority': 0,
            'phase': 'main', 'sensitive': False})
        url = URL + '/' + rule.uuid
        for headers in (self.project('admin,member,reader'),):
            r = self.get(URL, headers=headers, version=V, status=403)
            self.assertFault(r, 403, 'baremetal:inspection_rule:get')
        reader = self.system('reader')
        self.get(url, headers=reader, version=V)
        r = self.post(URL, {'actions': ACTIONS}, headers=self.system(
            'member,reader'), version=V, status=403)
        self.assertFault(r, 403, 'baremetal:inspection_rule:create')
        self.delete(url, headers=reader, version=V, status=403)
        self.delete(url, headers=self.system('admin,member,reader'),
                    version=V)

    def test_delete_all_by_system_admins_only(self):
        rule = self.db.create_inspection_rule({
            'actions': ACTIONS, 'conditions': [], 'priority': 0,
            'phase': 'main', 'sensitive': False})
        for headers in (self.system('member,reader'),
                        self.project('admin,member,reader')):
            r = self.delete(URL, headers=headers, version=V, status=403)
            self.assertFault(r, 403, 'baremetal:inspection_rule:delete')
        self.assertEqual([rule.uuid], [r.uuid for r in
                                       self.db.get_inspection_rule_list()])
        self.delete(URL, headers=self.system('admin,member,reader'),
                    version=V)
        self.assertEqual([], self.db.get_inspection_rule_list())


class TestPriorityString(RuleBase):

    def test_digits_accepted(self):
        # python-ironicclient's --priority sends a string.
        doc = self.post(URL, {'priority': '42', 'actions': ACTIONS},
                        version=V).json
        self.assertEqual(42, doc['priority'])
        r = self.post(URL, {'priority': 'high', 'actions': ACTIONS},
                      version=V, status=400)
        self.assertFault(r, 400, 'priority')
