"""/v1/nodes/{id}/bios with the BIOS registry fields (1.74)."""

from ironic_like.tests.unit.api import test_node_console_bios_raid as base

REGISTRY = ['name', 'value', 'attribute_type', 'allowable_values',
            'lower_bound', 'max_length', 'min_length', 'read_only',
            'reset_required', 'unique', 'upper_bound']
ALWAYS = ['created_at', 'updated_at', 'links']


class TestBiosRegistry(base._Base):

    def setUp(self):
        super().setUp()
        node = self.create_node(bios_interface='fake')
        base.TestBios._manage(self, node)
        self.url = '/v1/nodes/%s/bios' % node.uuid

    def test_detail_shows_the_registry(self):
        doc = self.get(self.url + '?detail=True', version='1.74').json
        boot = doc['bios'][0]
        self.assertEqual(sorted(REGISTRY + ALWAYS), sorted(boot))
        self.assertEqual(('BootMode', 'Uefi', 'Enumeration',
                          ['Bios', 'Uefi'], False, True),
                         (boot['name'], boot['value'],
                          boot['attribute_type'], boot['allowable_values'],
                          boot['read_only'], boot['reset_required']))
        self.assertIsNone(boot['upper_bound'])
        # Without detail: name and value, as before.
        doc = self.get(self.url, version='1.74').json
        self.assertEqual(sorted(['name', 'value'] + ALWAYS),
                         sorted(doc['bios'][0]))

    def test_fields(self):
        doc = self.get(self.url + '?fields=name,read_only',
                       version='1.74').json
        self.assertEqual(
            [('SecureBoot', True)],
            [(s['name'], s['read_only']) for s in doc['bios']
             if s['name'] == 'SecureBoot'])
        self.assertEqual(sorted(['name', 'read_only'] + ALWAYS),
                         sorted(doc['bios'][0]))
        r = self.get(self.url + '?fields=colour', version='1.74',
                     status=400)
        self.assertFault(r, 400, 'colour')
        r = self.get(self.url + '?fields=name&detail=True', version='1.74',
                     status=400)
        self.assertFault(r, 400, 'detail=True and fields')

    def test_one_setting(self):
        doc = self.get(self.url + '/SecureBoot', version='1.74').json
        self.assertEqual(sorted(REGISTRY + ALWAYS),
                         sorted(doc['SecureBoot']))
        doc = self.get(self.url + '/SecureBoot', version='1.73').json
        self.assertEqual(sorted(['name', 'value'] + ALWAYS),
                         sorted(doc['SecureBoot']))

    def test_query_refused_below_1_74(self):
        for query in ('?detail=True', '?fields=name'):
            r = self.get(self.url + query, version='1.73', status=400)
            self.assertFault(r, 400, 'Invalid query parameter')
