"""/v1/boot/sessions: create, preview, list filters, delete, status and
abort (the operators are not running: sessions stay as created)."""

import datetime

from oslo_utils import timeutils

from ironic_like.tests.unit.api import boot_base
from ironic_like.tests.unit.api import test_auth

URL = '/v1/boot/sessions'


class SessionTestCase(boot_base.BootAPITestCase):

    def setUp(self):
        super().setUp()
        self.n1 = self.boot_node('n1', groups=['compute'], role='Compute')
        self.n2 = self.boot_node('n2', groups=['compute'], role='Compute',
                                 subrole='GPU')
        self.n3 = self.boot_node('n3', groups=['compute'],
                                 cpu_arch='aarch64')
        self.n4 = self.boot_node('n4', groups=['compute'], maintenance=True)
        self.put_template()


class TestCreate(SessionTestCase):

    def test_create(self):
        r = self.create_session(name='s1', limit='n1,n2')
        self.assertEqual(201, r.status_int)
        doc = r.json
        self.assertEqual('s1', doc['name'])
        self.assertEqual('boot', doc['operation'])
        self.assertEqual('compute', doc['template_name'])
        self.assertEqual('n1,n2', doc['limit'])
        self.assertFalse(doc['stage'])
        self.assertFalse(doc['include_disabled'])
        self.assertEqual('pending', doc['status']['status'])
        self.assertIsNone(doc['status']['end_time'])
        self.assertIsNone(doc['status']['error'])
        self.assertEqual(doc, self.get(URL + '/s1').json)
        # The operators are told at once.
        self.assertTrue(self.wake.called)

    def test_template_is_copied(self):
        self.create_session(name='s1')
        self.put_template(body=boot_base.template_body(
            kernel='https://elsewhere.example/k'))
        stored = self.db.get_boot_session('s1').template
        self.assertEqual(boot_base.KERNEL,
                         stored['boot_sets']['compute']['kernel'])

    def test_name_generated(self):
        doc = self.create_session(operation='shutdown').json
        self.assertEqual(36, len(doc['name']))
        self.get(URL + '/' + doc['name'])

    def test_wake_failure_does_not_fail_the_request(self):
        self.wake.side_effect = RuntimeError('no bus')
        self.create_session(name='s1')
        self.get(URL + '/s1')

    def test_duplicate_name_409(self):
        self.create_session(name='s1')
        r = self.create_session(name='s1', status=409)
        self.assertFault(r, 409, 's1')

    def test_bad_body_400_names_the_field(self):
        cases = [
            ({'template_name': 'compute'}, 'operation'),
            ({'operation': 'boot'}, 'template_name'),
            ({'operation': 'dance', 'template_name': 'compute'},
             'operation'),
            ({'operation': 'boot', 'template_name': 'compute',
              'name': 'bad name'}, 'name'),
            ({'operation': 'boot', 'template_name': 'compute',
              'limit': 'x' * 524289}, 'limit'),
            ({'operation': 'boot', 'template_name': 'compute',
              'stage': 'yes'}, 'stage'),
            ({'operation': 'boot', 'template_name': 'compute',
              'other': 1}, 'other'),
            # Checked against the data.
            ({'operation': 'boot', 'template_name': 'nope'},
             'template_name'),
            ({'operation': 'boot', 'template_name': 'compute',
              'limit': 'n1,nosuch,&alsonot'}, 'limit'),
            ({'operation': 'boot', 'template_name': 'compute',
              'limit': 'n1,,n2'}, 'limit'),
        ]
        for body, field in cases:
            r = self.post(URL, body, status=400)
            self.assert_field(r, 400, field)
        self.assertEqual([], self.get(URL).json)
        self.assertFalse(self.wake.called)

    def test_unknown_limit_names_are_named(self):
        r = self.create_session(limit='n1,nosuch,&alsonot', status=400)
        self.assertFault(r, 400, 'nosuch', 'alsonot')

    def test_invalid_template_for_operation(self):
        self.put_template('off', body={'boot_sets': {'all': {
            'node_groups': ['compute']}}})
        self.create_session(template_name='off', operation='shutdown')
        r = self.create_session(template_name='off', status=400)
        self.assert_field(r, 400, 'template_name', 'boot artifacts')

    def test_limit_required_option(self):
        self.patch('/v1/boot/options', {'session_limit_required': True})
        r = self.create_session(status=400)
        self.assert_field(r, 400, 'limit')
        self.create_session(limit='*')

    def test_nodes_held_by_running_session_409_unless_takeover(self):
        self.create_session(name='first', limit='n1')
        self.db.update_boot_session('first', {'status': 'running'})
        self.db.update_boot_component(self.n1.id, {'enabled': True,
                                                   'session': 'first'})
        r = self.create_session(name='second', status=409)
        self.assertFault(r, 409, 'first', 'n1', 'takeover')
        self.get(URL + '/second', status=404)
        self.create_session(name='second', takeover=True)


class TestPreview(SessionTestCase):

    def test_preview_changes_nothing(self):
        doc = self.post(URL + '/preview', {
            'operation': 'boot', 'template_name': 'compute',
            'limit': 'compute,!n2'}, status=200).json
        compute = doc['boot_sets']['compute']
        self.assertEqual(['n1'], compute['nodes'])
        reasons = {e['id']: e['reason'] for e in compute['excluded']}
        self.assertEqual({'n2': 'limit', 'n3': 'arch', 'n4': 'disabled'},
                         reasons)
        self.assertEqual([], self.get(URL).json)
        self.assertFalse(self.wake.called)

    def test_preview_include_disabled(self):
        doc = self.post(URL + '/preview', {
            'operation': 'boot', 'template_name': 'compute',
            'include_disabled': True}, status=200).json
        self.assertEqual(['n1', 'n2', 'n4'],
                         doc['boot_sets']['compute']['nodes'])

    def test_preview_errors(self):
        r = self.post(URL + '/preview', {'operation': 'boot',
                                         'template_name': 'nope'},
                      status=400)
        self.assert_field(r, 400, 'template_name')
        r = self.post(URL + '/preview', {'operation': 'boot',
                                         'template_name': 'compute',
                                         'limit': 'zz'}, status=400)
        self.assert_field(r, 400, 'limit', 'zz')


class TestListAndDelete(SessionTestCase):

    def setUp(self):
        super().setUp()
        for name in ('a', 'b', 'c'):
            self.create_session(name=name)
        self.db.update_boot_session('b', {'status': 'running'})
        self.db.update_boot_session('c', {'status': 'complete'})
        old = timeutils.utcnow() - datetime.timedelta(days=3)
        self.db.update_boot_session('a', {'created_at': old})

    def names(self, query=''):
        return sorted(s['name'] for s in self.get(URL + query).json)

    def test_list_is_a_plain_array(self):
        self.assertEqual(['a', 'b', 'c'], self.names())

    def test_filters(self):
        self.assertEqual(['b'], self.names('?status=running'))
        self.assertEqual(['a'], self.names('?min_age=2d'))
        self.assertEqual(['b', 'c'], self.names('?max_age=1d'))
        self.assertEqual(['b', 'c'], self.names('?max_age=30m'))
        self.assertEqual([], self.names('?min_age=1w'))
        self.assertEqual(['a', 'b', 'c'], self.names('?min_age=0'))
        self.assertEqual([], self.names('?min_age=9999999w'))
        self.assertEqual(['c'], self.names('?status=complete&max_age=1h'))

    def test_bad_filters_400(self):
        for query, field in (('status=done', 'status'),
                             ('min_age=3', 'min_age'),
                             ('max_age=1y', 'max_age'),
                             ('max_age=99999999w', 'max_age'),
                             ('min_age=01d', 'min_age'),
                             ('limit=1', 'limit')):
            r = self.get(URL + '?' + query, status=400)
            self.assertFault(r, 400, field)

    def test_delete_one(self):
        self.assertEqual(204, self.delete(URL + '/a').status_int)
        self.assertEqual(['b', 'c'], self.names())
        r = self.delete(URL + '/a', status=404)
        self.assertFault(r, 404, 'a')

    def test_delete_filtered(self):
        self.delete(URL + '?status=complete')
        self.assertEqual(['a', 'b'], self.names())
        self.delete(URL + '?min_age=1d')
        self.assertEqual(['b'], self.names())
        r = self.delete(URL + '?status=x', status=400)
        self.assertFault(r, 400, 'status')
        self.assertEqual(['b'], self.names())
        self.delete(URL)
        self.assertEqual([], self.names())

    def test_get_404(self):
        r = self.get(URL + '/nope', status=404)
        self.assertFault(r, 404, 'nope')


class TestStatusAndAbort(SessionTestCase):

    def setUp(self):
        super().setUp()
        self.create_session(name='s1', limit='n1,n2')
        self.db.update_boot_session('s1', {'status': 'running',
                                           'components': ['n1', 'n2']})
        for node, status_override, error in (
                (self.n1, None, None), (self.n2, 'failed', 'boom')):
            self.db.update_boot_component(node.id, {
                'enabled': status_override is None, 'session': 's1',
                'boot_set': 'compute', 'phase': 'powering_on',
                'status_override': status_override, 'error': error})
        self.wake.reset_mock()

    def test_status(self):
        doc = self.get(URL + '/s1/status').json
        self.assertEqual('running', doc['status'])
        self.assertEqual(2, doc['managed_components_count'])
        self.assertEqual(50.0, doc['percent_failed'])
        self.assertEqual(50.0, doc['phases']['percent_complete'])
        self.assertEqual(50.0, doc['phases']['percent_powering_on'])
        self.assertEqual({'count': 1, 'list': 'n2'},
                         doc['error_summary']['boom'])
        self.assertEqual(['n2'], [f['id'] for f in doc['failed_nodes']])
        self.assertIn('compute', doc['boot_sets'])
        self.assertEqual(2, doc['counts']['total'])
        for key in ('start_time', 'end_time', 'duration'):
            self.assertIn(key, doc['timing'])

    def test_status_404(self):
        r = self.get(URL + '/nope/status', status=404)
        self.assertFault(r, 404, 'nope')

    def test_abort(self):
        doc = self.post(URL + '/s1/abort', None, status=200).json
        self.assertEqual('complete', doc['status']['status'])
        self.assertEqual('aborted', doc['status']['error'])
        self.assertIsNotNone(doc['status']['end_time'])
        component, _node = self.db.get_boot_component(self.n1.id)
        self.assertFalse(component.enabled)
        self.assertTrue(self.wake.called)
        # Frozen: the status no longer follows the components.
        frozen = self.get(URL + '/s1/status').json
        self.assertEqual('complete', frozen['status'])
        self.db.update_boot_component(self.n1.id, {'session': None})
        self.assertEqual(frozen, self.get(URL + '/s1/status').json)
        r = self.post(URL + '/s1/abort', None, status=409)
        self.assertFault(r, 409, 's1')

    def test_abort_404(self):
        r = self.post(URL + '/nope/abort', None, status=404)
        self.assertFault(r, 404, 'nope')

    def test_unknown_subresource_404(self):
        self.get(URL + '/s1/nope', status=404)
        self.post(URL + '/s1/nope', {}, status=404)


class TestSessionPolicy(test_auth.KeystoneTestCase, SessionTestCase):

    with_conductor = False

    def put_template(self, name='compute', body=None, status=200, **kw):
        kw.setdefault('headers', self.system('admin'))
        return super().put_template(name, body, status, **kw)

    def test_readers_read_and_preview(self):
        self.post(URL, {'operation': 'boot', 'template_name': 'compute',
                        'name': 's1'}, headers=self.system('admin'))
        for headers in (self.system('reader'),):
            self.get(URL, headers=headers)
            self.get(URL + '/s1', headers=headers)
            self.get(URL + '/s1/status', headers=headers)
            self.post(URL + '/preview', {'operation': 'boot',
                                         'template_name': 'compute'},
                      headers=headers, status=200)

    def test_readers_cannot_write(self):
        self.post(URL, {'operation': 'boot', 'template_name': 'compute',
                        'name': 's1'}, headers=self.system('admin'))
        for headers in (self.system('reader'), self.system('member'),
                        self.project('admin')):
            r = self.post(URL, {'operation': 'boot',
                                'template_name': 'compute'},
                          headers=headers, status=403)
            self.assertFault(r, 403, 'baremetal:boot:write')
            self.post(URL + '/s1/abort', None, headers=headers, status=403)
            self.delete(URL + '/s1', headers=headers, status=403)
            self.delete(URL, headers=headers, status=403)
        self.assertEqual(['s1'], [s['name'] for s in self.get(
            URL, headers=self.system('reader')).json])
        self.assertEqual('pending', self.get(
            URL + '/s1', headers=self.system('reader')).json['status'][
                'status'])
