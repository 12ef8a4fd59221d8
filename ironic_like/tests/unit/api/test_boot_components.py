"""/v1/boot/components (list filters, show, PATCH and PUT of one or many),
the public report of a booted OS, applystaged and options."""

from ironic_like.common.boot import options as boot_options
from ironic_like.tests.unit.api import boot_base
from ironic_like.tests.unit.api import test_auth

URL = '/v1/boot/components'
TOKEN = 'a' * 32


class ComponentTestCase(boot_base.BootAPITestCase):

    def setUp(self):
        super().setUp()
        self.n1 = self.boot_node('n1', groups=['compute'])
        self.n2 = self.boot_node('n2', groups=['compute'])
        self.n3 = self.boot_node('n3')
        # A node without a name: its component is named by its UUID.
        self.anon = self.create_node()

    def ids(self, query=''):
        return [c['id'] for c in self.get(URL + query).json]


class TestRead(ComponentTestCase):

    def test_every_node_is_a_component(self):
        self.assertEqual(['n1', 'n2', 'n3', self.anon.uuid], self.ids())

    def test_show_by_name_or_uuid(self):
        doc = self.get(URL + '/n1').json
        self.assertEqual('n1', doc['id'])
        self.assertEqual(doc, self.get(URL + '/' + self.n1.uuid).json)
        for key in ('actual_state', 'desired_state', 'staged_state',
                    'last_action', 'event_stats', 'status', 'enabled',
                    'error', 'session', 'retry_policy'):
            self.assertIn(key, doc)
        self.assertEqual({'phase': '', 'status': 'stable',
                          'status_override': ''}, doc['status'])
        self.assertEqual(self.anon.uuid,
                         self.get(URL + '/' + self.anon.uuid).json['id'])

    def test_show_404(self):
        r = self.get(URL + '/nope', status=404)
        self.assertFault(r, 404, 'Component nope')

    def test_filters(self):
        db = self.db
        db.update_boot_component(self.n1.id, {
            'enabled': True, 'session': 's1', 'phase': 'powering_on'})
        db.update_boot_component(self.n2.id, {
            'session': 's1', 'staged_session': 's2',
            'status_override': 'failed'})
        self.assertEqual(['n1', 'n2'], self.ids('?session=s1'))
        self.assertEqual(['n2'], self.ids('?staged_session=s2'))
        self.assertEqual(['n1'], self.ids('?enabled=true'))
        self.assertEqual(['n2', 'n3', self.anon.uuid],
                         self.ids('?enabled=false'))
        self.assertEqual(['n1'], self.ids('?phase=powering_on'))
        self.assertEqual(['n2', 'n3', self.anon.uuid], self.ids('?phase='))
        self.assertEqual(['n1'], self.ids('?status=power_on_pending'))
        self.assertEqual(['n1', 'n2'],
                         self.ids('?status=failed,power_on_pending'))
        self.assertEqual(['n1', 'n3'], self.ids('?ids=n3,n1,unknown'))
        self.assertEqual([], self.ids('?ids=unknown'))
        self.assertEqual(['n1'], self.ids('?ids=n1,n2&session=s1&'
                                          'enabled=true'))

    def test_paging(self):
        self.assertEqual(['n1', 'n2'], self.ids('?page_size=2'))
        self.assertEqual(['n3', self.anon.uuid],
                         self.ids('?start_after_id=n2&page_size=2'))
        self.assertEqual([], self.ids('?start_after_id=%s' % self.anon.uuid))
        self.assertEqual(4, len(self.ids('?page_size=0')))

    def test_bad_filters_400(self):
        for query, field in (('enabled=maybe', 'enabled'),
                             ('phase=dancing', 'phase'),
                             ('status=stable,nope', 'status'),
                             ('page_size=-1', 'page_size'),
                             ('page_size=x', 'page_size'),
                             ('page_size=1048577', 'page_size'),
                             ('start_after_id=nope', 'start_after_id'),
                             ('other=1', 'other')):
            r = self.get(URL + '?' + query, status=400)
            self.assertFault(r, 400, field)


class TestWrite(ComponentTestCase):

    def test_patch(self):
        doc = self.patch(URL + '/n1', {
            'enabled': True, 'retry_policy': -1,
            'desired_state': {'boot_artifacts': {'kernel': 'k',
                                                 'initrd': 'i',
                                                 'kernel_parameters': 'p'}},
            'session': 's1'}).json
        self.assertTrue(doc['enabled'])
        # BOS's rule: enabling puts the component on hold until the status
        # operator has looked at it.
        self.assertEqual('on_hold', doc['status']['status_override'])
        self.assertEqual('on_hold', doc['status']['status'])
        self.assertEqual(-1, doc['retry_policy'])
        self.assertEqual('k', doc['desired_state']['boot_artifacts'][
            'kernel'])
        self.assertIn('last_updated', doc['desired_state'])
        self.assertEqual('s1', doc['session'])
        self.assertEqual(doc, self.get(URL + '/n1').json)
        self.assertTrue(self.wake.called)

    def test_patch_by_uuid_and_id_in_body_ignored(self):
        doc = self.patch(URL + '/' + self.n1.uuid,
                         {'id': 'n2', 'error': 'x'}).json
        self.assertEqual('n1', doc['id'])
        self.assertEqual('x', doc['error'])
        self.assertEqual('', self.get(URL + '/n2').json['error'])

    def test_patch_400_names_the_field(self):
        cases = [
            ({'enabled': 'yes'}, 'enabled'),
            ({'retry_policy': -2}, 'retry_policy'),
            ({'retry_policy': 1048577}, 'retry_policy'),
            ({'status': {'phase': 'dancing'}}, 'status'),
            ({'status': {'status_override': 'whatever'}}, 'status'),
            ({'last_action': {'action': 'dancing'}}, 'last_action'),
            ({'session': 'bad name'}, 'session'),
            ({'desired_state': {'configuration': 'x' * 128}},
             'desired_state'),
            ({'event_stats': {'power_on_attempts': -1}}, 'event_stats'),
            ({'unknown': 1}, 'unknown'),
        ]
        for body, field in cases:
            r = self.patch(URL + '/n1', body, status=400)
            self.assert_field(r, 400, field)
        r = self.patch(URL + '/n1', {}, status=400)
        self.assertFault(r, 400)
        self.assertFalse(self.get(URL + '/n1').json['enabled'])
        self.assertFalse(self.wake.called)

    def test_patch_404(self):
        r = self.patch(URL + '/nope', {'enabled': False}, status=404)
        self.assertFault(r, 404, 'nope')

    def test_actual_state_refused_while_powering_off_409(self):
        self.db.update_boot_component(self.n1.id, {
            'enabled': True, 'phase': 'powering_off',
            'last_action': {'action': 'powering_off_gracefully'}})
        r = self.patch(URL + '/n1', {'actual_state': {
            'boot_artifacts': {'kernel': 'k'}}}, status=409)
        self.assertFault(r, 409, 'n1')

    def test_put_replaces(self):
        self.patch(URL + '/n1', {
            'error': 'old', 'session': 's1', 'retry_policy': 5,
            'desired_state': {'boot_artifacts': {'kernel': 'k'}},
            'status': {'phase': 'powering_on',
                       'status_override': 'failed'}})
        doc = self.put(URL + '/n1', {'staged_state': {'session': 's2'}},
                       status=200).json
        self.assertEqual('s2', doc['staged_state']['session'])
        # What the record does not give is cleared.
        self.assertNotIn('boot_artifacts', doc['desired_state'])
        self.assertEqual(('', '', None, False),
                         (doc['error'], doc['session'], doc['retry_policy'],
                          doc['enabled']))
        self.assertEqual({'phase': '', 'status': 'stable',
                          'status_override': ''}, doc['status'])
        r = self.put(URL + '/n1', {'enabled': 1}, status=400)
        self.assert_field(r, 400, 'enabled')
        self.put(URL + '/nope', {'enabled': False}, status=404)

    def test_bulk_patch_records(self):
        docs = self.patch(URL, [{'id': 'n1', 'error': 'a'},
                                {'id': self.n2.uuid, 'error': 'b'}]).json
        self.assertEqual([('n1', 'a'), ('n2', 'b')],
                         [(d['id'], d['error']) for d in docs])
        self.assertTrue(self.wake.called)

    def test_bulk_patch_filters(self):
        docs = self.patch(URL, {'patch': {'error': 'x'},
                                'filters': {'ids': 'n1,n3'}}).json
        self.assertEqual(['n1', 'n3'], [d['id'] for d in docs])
        self.db.update_boot_component(self.n2.id, {'session': 's1'})
        docs = self.patch(URL, {'patch': {'error': 'y'},
                                'filters': {'session': 's1'}}).json
        self.assertEqual(['n2'], [d['id'] for d in docs])
        self.assertEqual('y', self.get(URL + '/n2').json['error'])
        self.assertEqual([], self.patch(URL, {
            'patch': {'error': 'y'}, 'filters': {'session': 'none'}}).json)

    def test_bulk_patch_unknown_id_404_changes_nothing(self):
        r = self.patch(URL, [{'id': 'n1', 'error': 'a'},
                             {'id': 'nope', 'error': 'b'}], status=404)
        self.assertFault(r, 404, 'nope')
        r = self.patch(URL, {'patch': {'error': 'x'},
                             'filters': {'ids': 'n1,nope'}}, status=404)
        self.assertFault(r, 404, 'nope')
        self.assertEqual('', self.get(URL + '/n1').json['error'])

    def test_bulk_patch_skip_bad_ids(self):
        docs = self.patch(URL + '?skip_bad_ids=true',
                          [{'id': 'n1', 'error': 'a'},
                           {'id': 'nope', 'error': 'b'}]).json
        self.assertEqual(['n1'], [d['id'] for d in docs])
        r = self.patch(URL + '?skip_bad_ids=maybe', [], status=400)
        self.assertFault(r, 400, 'skip_bad_ids')

    def test_bulk_patch_400_names_the_field(self):
        r = self.patch(URL, [{'id': 'n1'}, {'id': 'n2', 'enabled': 'x'}],
                       status=400)
        self.assert_field(r, 400, 'enabled', 'record 1', 'n2')
        r = self.patch(URL, [{'error': 'no id'}], status=400)
        self.assert_field(r, 400, 'id', 'record 0')
        r = self.patch(URL, {'patch': {'enabled': 'x'},
                             'filters': {'ids': 'n1'}}, status=400)
        self.assert_field(r, 400, 'patch')
        r = self.patch(URL, {'patch': {}}, status=400)
        self.assert_field(r, 400, 'filters')
        for filters in ({'ids': 'n1', 'session': 's1'}, {'ids': ''}):
            r = self.patch(URL, {'patch': {'error': 'x'},
                                 'filters': filters}, status=400)
            self.assert_field(r, 400, 'filters')
        r = self.patch(URL, 'text', status=400)
        self.assertFault(r, 400, 'array', 'patch')
        self.assertEqual('', self.get(URL + '/n1').json['error'])

    def test_bulk_put(self):
        docs = self.put(URL, [{'id': 'n1', 'error': 'a'},
                              {'id': 'n2', 'retry_policy': 2}],
                        status=200).json
        self.assertEqual([('n1', 'a', None), ('n2', '', 2)],
                         [(d['id'], d['error'], d['retry_policy'])
                          for d in docs])
        r = self.put(URL, [{'id': 'n1', 'error': 'b'}, {'id': 'nope'}],
                     status=404)
        self.assertFault(r, 404, 'nope')
        self.assertEqual('a', self.get(URL + '/n1').json['error'])
        r = self.put(URL, {'id': 'n1'}, status=400)
        self.assertFault(r, 400, 'array')


class TestReport(ComponentTestCase):

    def setUp(self):
        super().setUp()
        self.db.add_boot_artifacts(TOKEN, self.n1.id, 'k', 'i', 'p')
        self.db.add_boot_artifacts('b' * 32, self.n2.id, 'k2', 'i2', 'p2')

    def report(self, ident, body, status=204, app=None):
        return (app or self.app).post_json(
            '%s/%s/report' % (URL, ident), body, status=status)

    def test_report_sets_actual_state(self):
        r = self.report('n1', {'bss_token': TOKEN})
        self.assertEqual(b'', r.body)
        actual = self.get(URL + '/n1').json['actual_state']
        self.assertEqual({'kernel': 'k', 'initrd': 'i',
                          'kernel_parameters': 'p'},
                         actual['boot_artifacts'])
        self.assertEqual(TOKEN, actual['bss_token'])
        self.assertTrue(self.wake.called)

    def test_token_of_another_component_403(self):
        r = self.report('n1', {'bss_token': 'b' * 32}, status=403)
        self.assertFault(r, 403, 'n1')
        r = self.report('n1', {'bss_token': 'c' * 32}, status=403)
        self.assertFault(r, 403, 'n1')
        # An unknown component looks the same (nothing to probe).
        r = self.report('nope', {'bss_token': TOKEN}, status=403)
        self.assertFault(r, 403, 'nope')
        self.assertEqual({}, self.get(URL + '/n1').json['actual_state'])
        self.assertFalse(self.wake.called)

    def test_bad_body_400(self):
        for body, field in (({}, 'bss_token'), ({'bss_token': ''},
                                                'bss_token'),
                            ({'bss_token': 1}, 'bss_token'),
                            ({'bss_token': TOKEN, 'x': 1}, 'x')):
            r = self.report('n1', body, status=400)
            self.assert_field(r, 400, field)

    def test_not_taken_while_powering_off_409(self):
        self.db.update_boot_component(self.n1.id, {
            'enabled': True, 'phase': 'powering_off',
            'last_action': {'action': 'powering_off_gracefully'}})
        r = self.report('n1', {'bss_token': TOKEN}, status=409)
        self.assertFault(r, 409, 'n1')

    def test_only_post(self):
        self.app.get(URL + '/n1/report', status=405)
        self.app.put_json(URL + '/n1/report', {}, status=405)


class TestApplyStaged(ComponentTestCase):

    def test_apply(self):
        self.put_template()
        self.create_session(name='staged', stage=True)
        self.db.update_boot_component(self.n1.id, {
            'staged_state': {'session': 'staged', 'configuration': '',
                             'boot_artifacts': {
                                 'kernel': 'k', 'initrd': 'i',
                                 'kernel_parameters': 'p'}},
            'staged_session': 'staged'})
        self.wake.reset_mock()
        doc = self.post('/v1/boot/applystaged',
                        {'xnames': ['n1', 'n2', 'nope']}, status=200).json
        self.assertEqual({'succeeded': ['n1'], 'failed': ['nope'],
                          'ignored': ['n2']}, doc)
        component = self.get(URL + '/n1').json
        self.assertTrue(component['enabled'])
        self.assertEqual('staged', component['session'])
        self.assertEqual('k', component['desired_state']['boot_artifacts'][
            'kernel'])
        self.assertTrue(self.wake.called)

    def test_nothing_staged(self):
        self.assertEqual({'succeeded': [], 'failed': [], 'ignored': []},
                         self.post('/v1/boot/applystaged', {},
                                   status=200).json)
        self.assertFalse(self.wake.called)

    def test_bad_body_400(self):
        for body, field in (({'xnames': 'n1'}, 'xnames'),
                            ({'xnames': ['']}, 'xnames'),
                            ({'nodes': []}, 'nodes')):
            r = self.post('/v1/boot/applystaged', body, status=400)
            self.assert_field(r, 400, field)


class TestOptions(boot_base.BootAPITestCase):

    URL = '/v1/boot/options'

    def test_defaults(self):
        self.assertEqual(boot_options.DEFAULTS, self.get(self.URL).json)

    def test_patch(self):
        doc = self.patch(self.URL, {'polling_frequency': 5,
                                    'logging_level': 'debug',
                                    'clear_stage': True}).json
        self.assertEqual(5, doc['polling_frequency'])
        self.assertEqual('DEBUG', doc['logging_level'])
        self.assertTrue(doc['clear_stage'])
        self.assertEqual(doc, self.get(self.URL).json)
        self.assertEqual(boot_options.DEFAULTS['max_boot_wait_time'],
                         doc['max_boot_wait_time'])

    def test_patch_400_names_the_option(self):
        cases = [
            ({'nope': 1}, 'nope'),
            ({'polling_frequency': 'x'}, 'polling_frequency'),
            ({'polling_frequency': -1}, 'polling_frequency'),
            ({'default_retry_policy': 1048577}, 'default_retry_policy'),
            ({'clear_stage': 'true'}, 'clear_stage'),
            ({'component_actual_state_ttl': '0h'},
             'component_actual_state_ttl'),
            ({'cleanup_completed_session_ttl': '3y'},
             'cleanup_completed_session_ttl'),
            ({'logging_level': 'LOUD'}, 'logging_level'),
            # One bad option and nothing is stored.
            ({'polling_frequency': 7, 'bss_read_timeout': 1},
             'bss_read_timeout'),
        ]
        for body, field in cases:
            r = self.patch(self.URL, body, status=400)
            self.assert_field(r, 400, field)
        self.assertEqual(boot_options.DEFAULTS, self.get(self.URL).json)
        r = self.patch(self.URL, {}, status=400)
        self.assertFault(r, 400)


class TestComponentPolicy(test_auth.KeystoneTestCase, ComponentTestCase):

    with_conductor = False

    def test_readers_read(self):
        for headers in (self.system('reader'),):
            self.get(URL, headers=headers)
            self.get(URL + '/n1', headers=headers)
            self.get('/v1/boot/options', headers=headers)

    def test_project_readers_cannot_read(self):
        # A component shows its referral token, the credential of the
        # booted OS's reports: fleet readers only.
        self.get('/v1/boot/components', headers=self.project('reader'),
                 status=403)
        self.get('/v1/boot/sessions', headers=self.project('reader'),
                 status=403)

    def test_readers_cannot_write(self):
        for headers in (self.system('reader'), self.system('member'),
                        self.project('admin')):
            for method, url, body in (
                    ('PATCH', URL + '/n1', {'error': 'x'}),
                    ('PUT', URL + '/n1', {'error': 'x'}),
                    ('PATCH', URL, [{'id': 'n1', 'error': 'x'}]),
                    ('PUT', URL, [{'id': 'n1', 'error': 'x'}]),
                    ('POST', '/v1/boot/applystaged', {'xnames': ['n1']}),
                    ('PATCH', '/v1/boot/options', {'clear_stage': True})):
                r = self.app.request(url, method=method, status=403,
                                     json=body, headers=headers)
                self.assertFault(r, 403, 'baremetal:boot:write')
        self.assertEqual('', self.get(
            URL + '/n1', headers=self.system('reader')).json['error'])
        self.patch(URL + '/n1', {'error': 'x'},
                   headers=self.system('admin'))

    def test_report_is_public(self):
        self.db.add_boot_artifacts(TOKEN, self.n1.id, 'k', 'i', 'p')
        # No identity at all (the route bypasses authentication).
        self.app.post_json(URL + '/n1/report', {'bss_token': TOKEN},
                           status=204)
        self.app.post_json(URL + '/n1/report', {'bss_token': 'x'},
                           status=403)
        # The rest of the API is not public.
        self.app.get(URL + '/n1', status=403)


class TestReportBehindKeystone(ComponentTestCase):
    """The real authentication middleware: no token needed to report."""

    auth_strategy = 'keystone'

    def setUp(self):
        super().setUp()
        self.config(www_authenticate_uri='http://keystone.example/v3',
                    group='keystone_authtoken')
        self.app = self.make_app()
        self.db.add_boot_artifacts(TOKEN, self.n1.id, 'k', 'i', 'p')

    def test_report_needs_no_keystone_token(self):
        self.app.post_json(URL + '/n1/report', {'bss_token': TOKEN},
                           status=204)
        self.app.post_json(URL + '/n1/report', {'bss_token': 'x'},
                           status=403)
        self.app.get(URL + '/n1', status=401)
        self.app.post_json(URL + '/n1', {}, status=401)
