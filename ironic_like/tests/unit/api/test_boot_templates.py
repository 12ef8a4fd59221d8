"""GET /v1/boot, /v1/boot/sessiontemplates, sessiontemplatesvalid and
sessiontemplatetemplate."""

from ironic_like.api.controllers.v1.boot import templates as templates_ctl
from ironic_like.tests.unit.api import boot_base
from ironic_like.tests.unit.api import test_auth

URL = '/v1/boot/sessiontemplates'


class TestVersion(boot_base.BootAPITestCase):

    def test_version_document(self):
        doc = self.get('/v1/boot').json
        self.assertEqual('v2', doc['id'])
        self.assertEqual('2.50.0-compatible', doc['bos_version'])
        self.assertIn({'href': 'http://localhost/v1/boot', 'rel': 'self'},
                      doc['links'])
        self.assertIn({'href': 'http://localhost/v1/boot/sessions',
                       'rel': 'sessions'}, doc['links'])
        for addition in ('preview', 'abort', 'takeover', 'report'):
            self.assertIn(addition, doc['additions'])

    def test_no_microversion_needed(self):
        # Ironic's microversion does not apply: none sent is fine.
        self.assertEqual('v2', self.app.get('/v1/boot').json['id'])
        self.assertEqual([], self.app.get(URL).json)

    def test_unknown_query_parameter_400(self):
        r = self.get('/v1/boot?x=1', status=400)
        self.assertFault(r, 400, 'x')


class TestTemplates(boot_base.BootAPITestCase):

    def test_put_get_list(self):
        r = self.put_template()
        self.assertEqual(200, r.status_int)
        doc = r.json
        self.assertEqual('compute', doc['name'])
        self.assertIsNone(doc['tenant'])
        self.assertEqual('compute nodes', doc['description'])
        self.assertFalse(doc['enable_cfs'])
        # Stored as BOS stores it: the boot set without its name.
        self.assertEqual(boot_base.BOOT_SET, doc['boot_sets']['compute'])
        self.assertEqual([{'href': 'http://localhost%s/compute' % URL,
                           'rel': 'self'}], doc['links'])
        self.assertEqual(doc, self.get(URL + '/compute').json)
        self.put_template('other')
        self.assertEqual(['compute', 'other'],
                         [t['name'] for t in self.get(URL).json])

    def test_list_is_a_plain_array(self):
        self.assertEqual([], self.get(URL).json)

    def test_put_replaces(self):
        self.put_template()
        body = boot_base.template_body()
        body['description'] = 'new'
        body['boot_sets'] = {'gpu': dict(boot_base.BOOT_SET,
                                         node_groups=['gpu'])}
        doc = self.put_template(body=body).json
        self.assertEqual('new', doc['description'])
        self.assertEqual(['gpu'], list(doc['boot_sets']))

    def test_put_read_back_round_trip(self):
        # What GET shows (name, tenant, links) can be written back as it
        # is.
        body = boot_base.template_body()
        del body['description']
        doc = self.put_template(body=body).json
        self.assertNotIn('description', doc)
        again = self.put_template(body=doc).json
        self.assertEqual(doc, again)
        # An empty description reads as none.
        doc = self.put_template(body=dict(doc, description='')).json
        self.assertNotIn('description', doc)

    def test_boot_set_name_kept_only_if_equal(self):
        body = boot_base.template_body(name='compute')
        self.assertNotIn('name',
                         self.put_template(body=body).json['boot_sets'][
                             'compute'])
        body = boot_base.template_body(name='other')
        r = self.put_template(body=body, status=400)
        self.assert_field(r, 400, 'boot_sets.compute.name', 'its key')

    def test_enable_cfs_defaults_to_true(self):
        body = boot_base.template_body()
        del body['enable_cfs']
        self.assertTrue(self.put_template(body=body).json['enable_cfs'])

    def test_manifest_boot_set(self):
        body = boot_base.template_body(
            kernel=None, initrd=None, path='https://x.example/m.json',
            type='http')
        for name in ('kernel', 'initrd'):
            del body['boot_sets']['compute'][name]
        doc = self.put_template(body=body).json
        self.assertEqual('http', doc['boot_sets']['compute']['type'])

    def test_shutdown_only_template_needs_no_artifacts(self):
        body = {'boot_sets': {'all': {'node_groups': ['compute']}}}
        self.put_template('off', body=body)
        msg = self.get('/v1/boot/sessiontemplatesvalid/off').json
        self.assertIn('needs boot artifacts', msg)

    def test_bad_input_400_names_the_field(self):
        cases = [
            ('bad name!', boot_base.template_body(), 'name'),
            ('-x', boot_base.template_body(), 'name'),
            ('t', {'description': 'no boot sets'}, 'boot_sets'),
            ('t', {'boot_sets': {}}, 'boot_sets'),
            ('t', dict(boot_base.template_body(), extra=1), 'extra'),
            ('t', dict(boot_base.template_body(), enable_cfs='yes'),
             'enable_cfs'),
            ('t', dict(boot_base.template_body(), description='x' * 1024),
             'description'),
            ('t', dict(boot_base.template_body(),
                       cfs={'configuration': 'x' * 128}), 'cfs'),
            ('t', boot_base.template_body(arch='SPARC'), 'boot_sets'),
            ('t', boot_base.template_body(unknown=1), 'boot_sets'),
            ('t', boot_base.template_body(kernel_parameters='x' * 4097),
             'boot_sets'),
            ('t', {'boot_sets': {'bad name': boot_base.BOOT_SET}},
             'boot_sets'),
            # What the schema cannot say: named after the boot set.
            ('t', boot_base.template_body(node_groups=[]),
             'boot_sets.compute'),
            ('t', boot_base.template_body(kernel='ftp://x/k'),
             'boot_sets.compute.kernel'),
            ('t', boot_base.template_body(path='https://x/m',
                                          type='s3'),
             'boot_sets.compute.type'),
        ]
        for name, body, field in cases:
            r = self.put('%s/%s' % (URL, name), body, status=400)
            self.assert_field(r, 400, field)
        self.assertEqual([], self.get(URL).json)

    def test_malformed_body_400(self):
        self.put_template()
        r = self.raw('PUT', URL + '/compute', b'{nope', 400)
        self.assertFault(r, 400, 'not valid JSON')
        r = self.put(URL + '/compute', [1], status=400)
        self.assertFault(r, 400, 'JSON object')

    def test_put_without_name_405(self):
        self.put(URL, boot_base.template_body(), status=405)

    def test_get_404(self):
        r = self.get(URL + '/nope', status=404)
        self.assertFault(r, 404, 'nope')

    def test_delete(self):
        self.put_template()
        self.assertEqual(204, self.delete(URL + '/compute').status_int)
        self.get(URL + '/compute', status=404)
        r = self.delete(URL + '/compute', status=404)
        self.assertFault(r, 404, 'compute')


class TestPatch(boot_base.BootAPITestCase):

    def setUp(self):
        super().setUp()
        body = boot_base.template_body(cfs={'configuration': 'a'})
        body['boot_sets']['gpu'] = dict(boot_base.BOOT_SET,
                                        node_groups=['gpu'])
        self.put_template(body=body)

    def test_merge(self):
        doc = self.patch(URL + '/compute', {
            'description': 'changed', 'enable_cfs': True,
            'cfs': {'configuration': 'base'},
            'boot_sets': {'compute': {'kernel_parameters': 'quiet',
                                      'cfs': {'configuration': 'c'}},
                          'new': dict(boot_base.BOOT_SET,
                                      node_list=['n1'])}}).json
        self.assertEqual('changed', doc['description'])
        self.assertTrue(doc['enable_cfs'])
        self.assertEqual({'configuration': 'base'}, doc['cfs'])
        compute = doc['boot_sets']['compute']
        self.assertEqual('quiet', compute['kernel_parameters'])
        self.assertEqual({'configuration': 'c'}, compute['cfs'])
        # Fields not in the patch are kept; other boot sets too.
        self.assertEqual(['compute'], compute['node_groups'])
        self.assertEqual(['compute', 'gpu', 'new'],
                         sorted(doc['boot_sets']))
        self.assertEqual(doc, self.get(URL + '/compute').json)

    def test_only_some_fields(self):
        for field, value in (('name', 'x'), ('tenant', 't'),
                             ('links', []), ('other', 1)):
            r = self.patch(URL + '/compute', {field: value}, status=400)
            self.assert_field(r, 400, field)

    def test_result_must_be_valid(self):
        r = self.patch(URL + '/compute', {'boot_sets': {'compute': {
            'kernel': 'not a url'}}}, status=400)
        self.assert_field(r, 400, 'boot_sets.compute.kernel')
        doc = self.get(URL + '/compute').json
        self.assertEqual(boot_base.KERNEL,
                         doc['boot_sets']['compute']['kernel'])

    def test_404(self):
        r = self.patch(URL + '/nope', {'description': 'x'}, status=404)
        self.assertFault(r, 404, 'nope')


class TestValidAndExample(boot_base.BootAPITestCase):

    def test_valid(self):
        self.put_template()
        self.assertEqual('Valid',
                         self.get('/v1/boot/sessiontemplatesvalid/'
                                  'compute').json)

    def test_warnings_are_reported(self):
        r = self.put_template(body={'boot_sets': {'compute': {
            'kernel': boot_base.KERNEL, 'node_groups': ['compute']}}})
        self.assertEqual(200, r.status_int)
        msg = self.get('/v1/boot/sessiontemplatesvalid/compute').json
        self.assertIn('no initrd', msg)

    def test_invalid_messages(self):
        self.put_template(body={'boot_sets': {'compute': {
            'node_list': ['n1']}}})
        msg = self.get('/v1/boot/sessiontemplatesvalid/compute').json
        self.assertNotEqual('Valid', msg)
        self.assertIn('boot artifacts', msg)

    def test_valid_404(self):
        r = self.get('/v1/boot/sessiontemplatesvalid/nope', status=404)
        self.assertFault(r, 404, 'nope')

    def test_example_can_be_stored_and_is_valid(self):
        example = self.get('/v1/boot/sessiontemplatetemplate').json
        self.assertEqual(templates_ctl.EXAMPLE_TEMPLATE, example)
        self.put_template('example', body=example)
        self.assertEqual('Valid', self.get(
            '/v1/boot/sessiontemplatesvalid/example').json)


class TestTemplatePolicy(test_auth.KeystoneTestCase,
                         boot_base.BootAPITestCase):

    with_conductor = False

    def test_readers_read(self):
        self.put_template(headers=self.system('admin'))
        for headers in (self.system('reader'),):
            self.get('/v1/boot', headers=headers)
            self.get(URL, headers=headers)
            self.get(URL + '/compute', headers=headers)
            self.get('/v1/boot/sessiontemplatesvalid/compute',
                     headers=headers)
            self.get('/v1/boot/sessiontemplatetemplate', headers=headers)

    def test_only_admin_writes(self):
        self.put_template(headers=self.system('admin'))
        for headers in (self.system('reader'), self.system('member'),
                        self.project('admin'), self.project('reader')):
            r = self.put_template('x', headers=headers, status=403)
            self.assertFault(r, 403, 'baremetal:boot:write')
            self.patch(URL + '/compute', {'description': 'x'},
                       headers=headers, status=403)
            self.delete(URL + '/compute', headers=headers, status=403)
        self.assertEqual(['compute'], [t['name'] for t in self.get(
            URL, headers=self.system('reader')).json])

    def test_no_role_403(self):
        r = self.get(URL, headers=self.project('nothing'), status=403)
        self.assertFault(r, 403, 'baremetal:boot:get')
