"""Ports' internal_info (1.18, read-only) and is_smartnic (1.53)."""

from ironic_like.tests.unit.api import base


class TestPortFields(base.APITestCase):

    with_conductor = True

    def test_internal_info_is_shown_and_read_only(self):
        node = self.create_node()
        port = self.create_port(node, internal_info={'tenant_vif_port_id':
                                                     'vif-1'})
        url = '/v1/ports/%s' % port.uuid
        self.assertNotIn('internal_info', self.get(url, version='1.17').json)
        doc = self.get(url, version='1.18').json
        self.assertEqual({'tenant_vif_port_id': 'vif-1'},
                         doc['internal_info'])
        r = self.patch(url, [{'op': 'replace', 'path': '/internal_info',
                              'value': {}}], version='1.18', status=400)
        self.assertFault(r, 400, 'internal_info')
        self.assertEqual({'tenant_vif_port_id': 'vif-1'},
                         self.db.get_port_by_id(port.id).internal_info)

    def test_new_port_has_empty_internal_info(self):
        node = self.create_node()
        doc = self.post('/v1/ports', {'node_uuid': node.uuid,
                                      'address': '52:54:00:12:34:56'},
                        version='1.18').json
        self.assertEqual({}, doc['internal_info'])

    def test_is_smartnic(self):
        node = self.create_node()
        r = self.post('/v1/ports', {'node_uuid': node.uuid,
                                    'address': '52:54:00:12:34:57',
                                    'is_smartnic': True},
                      version='1.52', status=406)
        self.assertFault(r, 406, 'is_smartnic')
        doc = self.post('/v1/ports', {'node_uuid': node.uuid,
                                      'address': '52:54:00:12:34:57',
                                      'is_smartnic': True},
                        version='1.53').json
        self.assertIs(True, doc['is_smartnic'])
        url = '/v1/ports/%s' % doc['uuid']
        self.assertNotIn('is_smartnic', self.get(url, version='1.52').json)
        doc = self.patch(url, [{'op': 'remove', 'path': '/is_smartnic'}],
                         version='1.53').json
        self.assertIs(False, doc['is_smartnic'])
