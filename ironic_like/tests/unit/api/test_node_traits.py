"""/v1/nodes/{id}/traits through the real conductor."""

from ironic_like.tests.unit.api import base


class TestTraits(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='t1', traits=['CUSTOM_OLD'])
        self.url = '/v1/nodes/t1/traits'

    def traits(self):
        return [t.trait for t in self.db.get_node_by_uuid(
            self.node.uuid).traits]

    def test_list(self):
        self.assertEqual({'traits': ['CUSTOM_OLD']}, self.get(self.url).json)

    def test_hidden_before_1_37(self):
        self.get(self.url, version='1.36', status=404)
        self.put(self.url + '/CUSTOM_A', version='1.36', status=404)

    def test_replace_all(self):
        r = self.put(self.url, {'traits': ['CUSTOM_B', 'CUSTOM_A',
                                           'CUSTOM_A']}, status=204)
        self.assertEqual('http://localhost/v1/nodes/t1/traits',
                         r.headers['Location'])
        self.assertEqual(['CUSTOM_A', 'CUSTOM_B'], self.traits())
        self.assertEqual(['CUSTOM_A', 'CUSTOM_B'],
                         self.get(self.url).json['traits'])

    def test_add_one(self):
        r = self.put(self.url + '/CUSTOM_NEW', status=204)
        self.assertEqual('http://localhost/v1/nodes/t1/traits/CUSTOM_NEW',
                         r.headers['Location'])
        self.assertEqual(['CUSTOM_NEW', 'CUSTOM_OLD'], self.traits())
        # Adding it again is harmless.
        self.put(self.url + '/CUSTOM_NEW', status=204)
        self.assertEqual(['CUSTOM_NEW', 'CUSTOM_OLD'], self.traits())

    def test_body_key_cannot_replace_path_trait(self):
        self.app.put_json(self.url + '/CUSTOM_PATH', {'trait': 'CUSTOM_BODY'},
                          headers=base.LATEST, status=204)
        self.assertEqual(['CUSTOM_OLD', 'CUSTOM_PATH'], self.traits())

    def test_invalid_trait_names(self):
        for name in ('lower', 'HAS-DASH', 'X' * 256):
            r = self.put(self.url + '/' + name, status=400)
            self.assertFault(r, 400, 'field/attribute trait')
        r = self.put(self.url, {'traits': ['ok_NOT']}, status=400)
        self.assertFault(r, 400, 'field/attribute traits')
        self.assertEqual(['CUSTOM_OLD'], self.traits())

    def test_bad_bodies(self):
        self.put(self.url, {'traits': 'CUSTOM_A'}, status=400)
        self.put(self.url, {}, status=400)
        r = self.put(self.url, {'traits': [], 'more': 1}, status=400)
        self.assertFault(r, 400, 'field/attribute more')
        r = self.raw('PUT', self.url, b'nope', 400)
        self.assertFault(r, 400, 'JSON')

    def test_at_most_50(self):
        many = ['CUSTOM_%d' % i for i in range(50)]
        self.put(self.url, {'traits': many}, status=204)
        r = self.put(self.url, {'traits': many + ['CUSTOM_X']}, status=400)
        self.assertFault(r, 400, 'traits')
        r = self.put(self.url + '/CUSTOM_X', status=400)
        self.assertFault(r, 400, '50')
        # Re-adding one it has is fine.
        self.put(self.url + '/CUSTOM_1', status=204)

    def test_delete_one(self):
        self.delete(self.url + '/CUSTOM_OLD')
        self.assertEqual([], self.traits())

    def test_delete_missing_trait_404(self):
        r = self.delete(self.url + '/CUSTOM_NOPE', status=404)
        self.assertFault(r, 404, 'CUSTOM_NOPE')

    def test_delete_all(self):
        self.put(self.url, {'traits': ['CUSTOM_A', 'CUSTOM_B']}, status=204)
        self.delete(self.url)
        self.assertEqual([], self.traits())

    def test_locked_409(self):
        self.db.reserve_node('other-host', self.node.id)
        self.put(self.url + '/CUSTOM_A', status=409)
        self.assertEqual(['CUSTOM_OLD'], self.traits())

    def test_unknown_node(self):
        self.get('/v1/nodes/nobody/traits', status=404)
