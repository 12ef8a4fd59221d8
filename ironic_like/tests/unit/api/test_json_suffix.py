"""A path ending in ".json" (Ironic 1.91): below 1.91 the suffix is taken
off the path and a name is looked up without it, then with it; from 1.91
(and without a version header) the path means what it says."""

from oslo_utils import uuidutils

from ironic_like.tests.unit.api import base


class TestJsonSuffix(base.APITestCase):

    def setUp(self):
        super().setUp()
        self.plain = self.create_node(name='test')
        self.dotted = self.create_node(name='other.json')

    def _node(self, path, version, status=200):
        return self.get('/v1/nodes/' + path, version=version, status=status)

    def test_below_1_91_the_suffix_is_dropped(self):
        self.assertEqual(self.plain.uuid,
                         self._node('test.json', '1.90').json['uuid'])
        self.assertEqual(self.plain.uuid,
                         self._node(self.plain.uuid + '.json', '1.90')
                         .json['uuid'])
        listed = self.get('/v1/nodes.json', version='1.90').json
        self.assertEqual(2, len(listed['nodes']))

    def test_below_1_91_a_name_with_the_suffix_is_found(self):
        # "other" is not a node: "other.json" is tried next.
        self.assertEqual(self.dotted.uuid,
                         self._node('other.json', '1.90').json['uuid'])

    def test_from_1_91_the_path_is_literal(self):
        self._node('test.json', '1.91', status=404)
        self.assertEqual(self.dotted.uuid,
                         self._node('other.json', '1.91').json['uuid'])
        self.assertEqual(self.plain.uuid,
                         self._node('test', '1.91').json['uuid'])
        self.get('/v1/nodes.json', version='1.91', status=404)

    def test_no_version_header_is_literal(self):
        # Ironic strips only for a client that asked for a version.
        # At 1.1 (no header) "<uuid>.json" is no UUID and names are not
        # allowed yet: 400.
        r = self.app.get('/v1/nodes/%s.json' % self.plain.uuid, status=400)
        self.assertIn('Expected a UUID', r.json['error_message'])

    def test_other_resources_below_1_91(self):
        self.db.create_portgroup({'uuid': uuidutils.generate_uuid(),
                                  'node_id': self.plain.id,
                                  'name': 'bond.json'})
        doc = self.get('/v1/portgroups/bond.json', version='1.90').json
        self.assertEqual('bond.json', doc['name'])
        self.get('/v1/portgroups/bond.json', version='1.91')
        self.get('/v1/portgroups/bond', version='1.91', status=404)
