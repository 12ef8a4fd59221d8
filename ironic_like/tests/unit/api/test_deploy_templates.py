"""/v1/deploy_templates (API 1.55)."""

import urllib.parse

from oslo_utils import uuidutils

from ironic_like.tests.unit.api import base

URL = '/v1/deploy_templates'
STEP = {'interface': 'bios', 'step': 'apply_configuration',
        'args': {'settings': [{'name': 'LogicalProc', 'value': 'Enabled'}]},
        'priority': 150}


def _query(url):
    return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)


class DeployTemplateBase(base.APITestCase):

    def create(self, name='CUSTOM_HT_ON', steps=(STEP,), **values):
        values.update(name=name, steps=list(steps))
        return self.db.create_deploy_template(values)


class TestRead(DeployTemplateBase):

    def setUp(self):
        super().setUp()
        self.t1 = self.create('CUSTOM_B', extra={'row': 'a'})
        self.t2 = self.create('CUSTOM_A')

    def test_short_list(self):
        items = self.get(URL).json['deploy_templates']
        self.assertEqual([{'uuid', 'name', 'links'}] * 2,
                         [set(t) for t in items])
        self.assertEqual([self.t1.uuid, self.t2.uuid],
                         [t['uuid'] for t in items])
        self.assertEqual(
            [{'href': 'http://localhost/v1/deploy_templates/%s'
                      % self.t1.uuid, 'rel': 'self'},
             {'href': 'http://localhost/deploy_templates/%s' % self.t1.uuid,
              'rel': 'bookmark'}], items[0]['links'])

    def test_detail(self):
        doc = self.get(URL + '?detail=true').json['deploy_templates'][0]
        self.assertEqual({'uuid', 'name', 'steps', 'extra', 'created_at',
                          'updated_at', 'links'}, set(doc))
        self.assertEqual([STEP], doc['steps'])
        self.assertEqual({'row': 'a'}, doc['extra'])
        self.assertTrue(doc['created_at'].endswith('+00:00'))
        self.get(URL + '?detail=maybe', status=400)
        self.get(URL + '?detail=true&fields=uuid', status=400)

    def test_fields(self):
        items = self.get(URL + '?fields=steps').json['deploy_templates']
        self.assertEqual({'steps', 'links'}, set(items[0]))
        doc = self.get('%s/%s?fields=name' % (URL, self.t1.uuid)).json
        self.assertEqual({'name': 'CUSTOM_B'},
                         {k: v for k, v in doc.items() if k != 'links'})
        r = self.get(URL + '?fields=nope', status=400)
        self.assertFault(r, 400, 'nope')

    def test_pagination_and_sort(self):
        doc = self.get(URL + '?limit=1').json
        self.assertEqual([self.t1.uuid],
                         [t['uuid'] for t in doc['deploy_templates']])
        self.assertTrue(doc['next'].startswith(
            'http://localhost/v1/deploy_templates?'))
        self.assertEqual([self.t1.uuid], _query(doc['next'])['marker'])
        rest = self.get(doc['next'].replace('http://localhost', '')).json
        self.assertEqual([self.t2.uuid],
                         [t['uuid'] for t in rest['deploy_templates']])
        # A full page always links the next one, which is empty here.
        last = self.get(rest['next'].replace('http://localhost', '')).json
        self.assertEqual({'deploy_templates': []}, last)
        names = [t['name'] for t in self.get(
            URL + '?sort_key=name').json['deploy_templates']]
        self.assertEqual(['CUSTOM_A', 'CUSTOM_B'], names)
        names = [t['name'] for t in self.get(
            URL + '?sort_key=name&sort_dir=desc').json['deploy_templates']]
        self.assertEqual(['CUSTOM_B', 'CUSTOM_A'], names)
        self.get(URL + '?sort_key=extra', status=400)
        self.get(URL + '?sort_dir=up', status=400)
        self.get(URL + '?marker=nope', status=400)
        self.get(URL + '?marker=%s' % uuidutils.generate_uuid(), status=400)
        self.get(URL + '?limit=-1', status=400)
        self.get(URL + '?unknown=1', status=400)

    def test_get_by_uuid_or_name(self):
        for ident in (self.t1.uuid, 'CUSTOM_B'):
            doc = self.get('%s/%s' % (URL, ident)).json
            self.assertEqual(self.t1.uuid, doc['uuid'])
            self.assertEqual([STEP], doc['steps'])
        for ident in (uuidutils.generate_uuid(), 'CUSTOM_NONE'):
            r = self.get('%s/%s' % (URL, ident), status=404)
            self.assertFault(r, 404, ident)

    def test_hidden_below_1_55(self):
        for url in (URL, '%s/%s' % (URL, self.t1.uuid)):
            self.get(url, version='1.54', status=404)
        self.post(URL, {'name': 'CUSTOM_X', 'steps': [STEP]},
                  version='1.54', status=404)
        self.patch('%s/%s' % (URL, self.t1.uuid),
                   [{'op': 'replace', 'path': '/extra', 'value': {}}],
                   version='1.54', status=404)
        self.delete('%s/%s' % (URL, self.t1.uuid), version='1.54',
                    status=404)
        self.assertEqual(2, len(self.db.get_deploy_template_list()))
        self.assertNotIn('deploy_templates',
                         self.get('/v1', version='1.54').json)
        root = self.get('/v1', version='1.55').json
        self.assertEqual(
            'http://localhost/v1/deploy_templates/',
            root['deploy_templates'][0]['href'])


class TestCreate(DeployTemplateBase):

    def test_create(self):
        body = {'name': 'CUSTOM_HT_ON', 'steps': [STEP],
                'extra': {'a': 'b'}}
        r = self.post(URL, body)
        doc = r.json
        self.assertTrue(uuidutils.is_uuid_like(doc['uuid']))
        self.assertEqual('http://localhost/v1/deploy_templates/%s'
                         % doc['uuid'], r.headers['Location'])
        self.assertEqual([STEP], doc['steps'])
        self.assertEqual({'a': 'b'}, doc['extra'])
        stored = self.db.get_deploy_template_by_name('CUSTOM_HT_ON')
        self.assertEqual(doc['uuid'], stored.uuid)

    def test_create_with_uuid_string_priority_and_null_extra(self):
        given = uuidutils.generate_uuid()
        doc = self.post(URL, {
            'uuid': given, 'name': 'HW_CPU_X86_VMX', 'extra': None,
            'steps': [dict(STEP, priority='10'),
                      {'interface': 'deploy', 'step': 'burn_in',
                       'args': {}, 'priority': 0}]}).json
        self.assertEqual(given, doc['uuid'])
        self.assertEqual({}, doc['extra'])
        self.assertEqual([10, 0], [s['priority'] for s in doc['steps']])

    def _refused(self, body, *fragments, status=400):
        r = self.post(URL, body, status=status)
        self.assertFault(r, status, *fragments)
        return r

    def test_invalid_bodies(self):
        good = {'name': 'CUSTOM_OK', 'steps': [STEP]}
        # The name is a trait.
        for name in ('lower_case', 'CUSTOM-DASH', '', 'A' * 256):
            self._refused(dict(good, name=name), 'name')
        self._refused({'steps': [STEP]}, 'name')
        # Steps: at least one, each complete and valid.
        self._refused({'name': 'CUSTOM_OK'}, 'steps')
        self._refused(dict(good, steps=[]), 'steps')
        for key in ('interface', 'step', 'args', 'priority'):
            step = dict(STEP)
            del step[key]
            self._refused(dict(good, steps=[step]), key)
        for bad in ({'interface': 'boot'}, {'interface': 'vendor'},
                    {'priority': -1}, {'priority': 'high'},
                    {'priority': 1.5}, {'args': []}, {'step': ''},
                    {'unknown': 1}):
            self._refused(dict(good, steps=[dict(STEP, **bad)]))
        self._refused(dict(good, uuid='nope'), 'uuid')
        self._refused(dict(good, created_at='now'), 'created_at')
        self._refused(dict(good, extra=[]), 'extra')
        self.assertEqual([], self.db.get_deploy_template_list())

    def test_every_interface_is_accepted(self):
        for i, interface in enumerate(('deploy', 'bios', 'raid',
                                       'management', 'power')):
            self.post(URL, {'name': 'CUSTOM_%d' % i,
                            'steps': [dict(STEP, interface=interface)]})

    def test_duplicate_steps(self):
        r = self._refused({'name': 'CUSTOM_OK',
                           'steps': [STEP, dict(STEP, priority=1)]},
                          'Duplicate deploy steps',
                          'bios.apply_configuration')
        self.assertIsNotNone(r)
        # Same step name on another interface is fine.
        self.post(URL, {'name': 'CUSTOM_OK',
                        'steps': [STEP, dict(STEP, interface='raid')]})

    def test_conflicts(self):
        doc = self.post(URL, {'name': 'CUSTOM_OK', 'steps': [STEP]}).json
        self._refused({'name': 'CUSTOM_OK', 'steps': [STEP]},
                      'CUSTOM_OK', status=409)
        self._refused({'name': 'CUSTOM_OTHER', 'steps': [STEP],
                       'uuid': doc['uuid']}, doc['uuid'], status=409)


# Ironic's reserved step names: the conductor runs them during the
# deploy, whatever interface they name.
RESERVED = [
    {'interface': 'power', 'step': 'power_off', 'args': {}, 'priority': 90},
    {'interface': 'deploy', 'step': 'wait', 'args': {'seconds': '5'},
     'priority': 80},
    {'interface': 'management', 'step': 'reboot', 'args': {},
     'priority': 70},
    {'interface': 'deploy', 'step': 'hold', 'args': {}, 'priority': 60},
    {'interface': 'bios', 'step': 'power_on', 'args': {}, 'priority': 50},
    {'interface': 'deploy', 'step': 'wait', 'args': {}, 'priority': 40}]


class TestReservedSteps(DeployTemplateBase):

    def test_reserved_steps_accepted(self):
        # Two "wait" steps need two interfaces (no two steps of a
        # template share interface and name).
        steps = RESERVED[:-1] + [dict(RESERVED[-1], interface='raid')]
        doc = self.post(URL, {'name': 'CUSTOM_CYCLE', 'steps': steps}).json
        self.assertEqual(steps, doc['steps'])

    def test_wait_seconds_must_be_whole(self):
        for seconds in ('soon', -1, 1.5, True):
            r = self.post(URL, {'name': 'CUSTOM_CYCLE', 'steps': [
                dict(RESERVED[1], args={'seconds': seconds})]}, status=400)
            self.assertFault(r, 400, 'field/attribute steps', 'seconds')
        self.assertEqual([], self.db.get_deploy_template_list())

    def test_child_node_options_refused(self):
        # Ironic's deploy step schema has neither option, nor its
        # template step table: 400 naming the option, as Ironic's.
        for option, value in (('execute_on_child_nodes', True),
                              ('limit_child_node_execution', [])):
            r = self.post(URL, {'name': 'CUSTOM_CYCLE', 'steps': [
                dict(RESERVED[0], **{option: value})]}, status=400)
            self.assertFault(r, 400, 'field/attribute steps', option)
        self.assertEqual([], self.db.get_deploy_template_list())

    def test_patch_checked_alike(self):
        template = self.create('CUSTOM_CYCLE', steps=RESERVED[:2])
        url = '%s/%s' % (URL, template.uuid)
        r = self.patch(url, [{'op': 'replace', 'path': '/steps/1/args',
                              'value': {'seconds': 'soon'}}], status=400)
        self.assertFault(r, 400, 'field/attribute steps', 'seconds')
        r = self.patch(url, [{'op': 'add',
                              'path': '/steps/0/execute_on_child_nodes',
                              'value': True}], status=400)
        self.assertFault(r, 400, 'execute_on_child_nodes')
        doc = self.patch(url, [{'op': 'replace', 'path': '/steps/1/args',
                                'value': {'seconds': 3}}]).json
        self.assertEqual({'seconds': 3}, doc['steps'][1]['args'])


class TestPatch(DeployTemplateBase):

    def setUp(self):
        super().setUp()
        self.template = self.create(
            steps=[STEP, {'interface': 'deploy', 'step': 'burn_in',
                          'args': {}, 'priority': 5}])
        self.url = '%s/%s' % (URL, self.template.uuid)

    def test_patch_name_extra_and_step_priority(self):
        doc = self.patch(self.url, [
            {'op': 'replace', 'path': '/name', 'value': 'CUSTOM_NEW'},
            {'op': 'add', 'path': '/extra/k', 'value': 'v'},
            {'op': 'replace', 'path': '/steps/0/priority', 'value': 7},
        ]).json
        self.assertEqual('CUSTOM_NEW', doc['name'])
        self.assertEqual({'k': 'v'}, doc['extra'])
        self.assertEqual([7, 5], [s['priority'] for s in doc['steps']])
        stored = self.db.get_deploy_template_by_uuid(self.template.uuid)
        self.assertEqual([7, 5], [s.priority for s in stored.steps])
        # By name too.
        doc = self.patch('%s/CUSTOM_NEW' % URL, [
            {'op': 'remove', 'path': '/extra'}]).json
        self.assertEqual({}, doc['extra'])

    def test_patch_steps_whole_and_items(self):
        new = {'interface': 'raid', 'step': 'create_configuration',
               'args': {}, 'priority': 1}
        doc = self.patch(self.url, [
            {'op': 'replace', 'path': '/steps', 'value': [new]}]).json
        self.assertEqual([new], doc['steps'])
        doc = self.patch(self.url, [
            {'op': 'add', 'path': '/steps/-', 'value': STEP}]).json
        self.assertEqual([new, STEP], doc['steps'])
        doc = self.patch(self.url, [
            {'op': 'remove', 'path': '/steps/0'}]).json
        self.assertEqual([STEP], doc['steps'])

    def test_refused_patches(self):
        cases = [
            ([{'op': 'replace', 'path': '/name', 'value': 'bad name'}],
             400, 'name'),
            ([{'op': 'remove', 'path': '/name'}], 400, 'name'),
            ([{'op': 'remove', 'path': '/steps'}], 400, 'steps'),
            ([{'op': 'replace', 'path': '/steps', 'value': []}], 400,
             'steps'),
            ([{'op': 'replace', 'path': '/steps/0/priority',
               'value': -1}], 400, 'steps'),
            ([{'op': 'replace', 'path': '/steps/1/interface',
               'value': 'boot'}], 400, 'steps'),
            ([{'op': 'add', 'path': '/steps/-', 'value': STEP}], 400,
             'Duplicate deploy steps'),
            ([{'op': 'replace', 'path': '/uuid',
               'value': uuidutils.generate_uuid()}], 400, 'uuid'),
            ([{'op': 'replace', 'path': '/nope', 'value': 1}], 400,
             'nope'),
            ([{'op': 'replace', 'path': '/steps/9/priority',
               'value': 1}], 400, ''),
        ]
        for ops, status, fragment in cases:
            r = self.patch(self.url, ops, status=status)
            self.assertFault(r, status, fragment)
        stored = self.db.get_deploy_template_by_uuid(self.template.uuid)
        self.assertEqual('CUSTOM_HT_ON', stored.name)
        self.assertEqual([150, 5], [s.priority for s in stored.steps])

    def test_rename_conflict_and_missing(self):
        self.create('CUSTOM_TAKEN')
        r = self.patch(self.url, [{'op': 'replace', 'path': '/name',
                                   'value': 'CUSTOM_TAKEN'}], status=409)
        self.assertFault(r, 409, 'CUSTOM_TAKEN')
        self.patch('%s/%s' % (URL, uuidutils.generate_uuid()),
                   [{'op': 'replace', 'path': '/extra', 'value': {}}],
                   status=404)
        self.app.patch_json(URL, [], headers=base.LATEST, status=405)

    def test_no_change_is_fine(self):
        doc = self.patch(self.url, [
            {'op': 'replace', 'path': '/name', 'value': 'CUSTOM_HT_ON'}]).json
        self.assertEqual('CUSTOM_HT_ON', doc['name'])


class TestDelete(DeployTemplateBase):

    def test_delete(self):
        template = self.create()
        other = self.create('CUSTOM_OTHER')
        self.delete('%s/%s' % (URL, template.uuid))
        self.get('%s/%s' % (URL, template.uuid), status=404)
        self.delete('%s/CUSTOM_OTHER' % URL)
        self.get('%s/%s' % (URL, other.uuid), status=404)
        self.delete('%s/%s' % (URL, template.uuid), status=404)
        self.app.delete(URL, headers=base.LATEST, status=405)


class TestPolicy(DeployTemplateBase):

    auth_strategy = 'keystone'

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

    def setUp(self):
        super().setUp()
        self.template = self.create()
        self.url = '%s/%s' % (URL, self.template.uuid)

    def _refused(self, headers, reads=True):
        if reads:
            for url in (URL, self.url):
                r = self.get(url, headers=headers, status=403)
                self.assertFault(r, 403, 'baremetal:deploy_template:get')
        r = self.post(URL, {'name': 'CUSTOM_X', 'steps': [STEP]},
                      headers=headers, status=403)
        self.assertFault(r, 403, 'baremetal:deploy_template:create')
        r = self.patch(self.url, [{'op': 'replace', 'path': '/extra',
                                   'value': {'a': 1}}], headers=headers,
                       status=403)
        self.assertFault(r, 403, 'baremetal:deploy_template:update')
        r = self.delete(self.url, headers=headers, status=403)
        self.assertFault(r, 403, 'baremetal:deploy_template:delete')

    def test_project_users_refused(self):
        for roles in ('reader', 'member', 'admin'):
            self._refused(self.project(roles))
        self.assertEqual({}, self.db.get_deploy_template_by_id(
            self.template.id).extra)

    def test_system_reader_reads_only(self):
        headers = self.system('reader')
        self.get(URL, headers=headers)
        self.get(self.url, headers=headers)
        self._refused(headers, reads=False)
        self._refused(self.system('member'), reads=False)

    def test_system_admin_writes(self):
        headers = self.system('admin')
        self.post(URL, {'name': 'CUSTOM_X', 'steps': [STEP]},
                  headers=headers)
        self.patch(self.url, [{'op': 'replace', 'path': '/extra',
                               'value': {'a': 1}}], headers=headers)
        self.delete(self.url, headers=headers)
