"""/v1/portgroups, /v1/nodes/{id}/portgroups, /v1/portgroups/{id}/ports
and ports' portgroup_uuid (Ironic 1.23 to 1.26)."""

import urllib.parse

from oslo_utils import uuidutils

from ironic_like.common import states
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth

MAC = '52:54:00:12:34:56'


class PortgroupTestMixin(object):

    def create_portgroup(self, node, **values):
        values['node_id'] = node.id
        return self.db.create_portgroup(values)


class TestVersionGates(base.APITestCase, PortgroupTestMixin):

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1')
        self.pg = self.create_portgroup(self.node, name='bond0',
                                        address=MAC)
        self.port = self.create_port(self.node, portgroup_id=self.pg.id)

    def test_below_1_23_every_path_is_404(self):
        for url in ('/v1/portgroups', '/v1/portgroups/detail',
                    '/v1/portgroups/bond0', '/v1/portgroups/%s' % self.pg.uuid,
                    '/v1/portgroups/bond0/ports'):
            self.get(url, version='1.22', status=404)
        self.post('/v1/portgroups', {'node_uuid': self.node.uuid},
                  version='1.22', status=404)
        self.patch('/v1/portgroups/bond0', [
            {'op': 'add', 'path': '/extra/a', 'value': 1}],
            version='1.22', status=404)
        self.delete('/v1/portgroups/bond0', version='1.22', status=404)
        self.assertNotIn('portgroups', self.get('/v1', version='1.22').json)

    def test_1_23_has_groups_not_subresources(self):
        doc = self.get('/v1', version='1.23').json
        self.assertEqual('http://localhost/v1/portgroups/',
                         doc['portgroups'][0]['href'])
        self.get('/v1/portgroups', version='1.23')
        for url in ('/v1/nodes/n1/portgroups', '/v1/portgroups/bond0/ports',
                    '/v1/portgroups/bond0/ports/detail',
                    '/v1/nodes/n1/portgroups/detail'):
            self.get(url, version='1.23', status=404)
        self.app.post_json('/v1/nodes/n1/portgroups', {},
                           headers=base.version_header('1.23'), status=404)
        # Ports: no portgroup_uuid, no portgroup filter.
        doc = self.get('/v1/ports/%s' % self.port.uuid, version='1.23').json
        self.assertNotIn('portgroup_uuid', doc)
        self.get('/v1/ports?portgroup=bond0', version='1.23', status=406)
        r = self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                    'address': '52:54:00:00:00:77',
                                    'portgroup_uuid': self.pg.uuid},
                      version='1.23', status=406)
        self.assertFault(r, 406, 'portgroup_uuid')

    def test_1_24_subresources_and_portgroup_uuid(self):
        doc = self.get('/v1/nodes/n1/portgroups', version='1.24').json
        self.assertEqual([self.pg.uuid],
                         [pg['uuid'] for pg in doc['portgroups']])
        doc = self.get('/v1/portgroups/bond0/ports', version='1.24').json
        self.assertEqual([self.port.uuid], [p['uuid'] for p in doc['ports']])
        doc = self.get('/v1/ports/%s' % self.port.uuid, version='1.24').json
        self.assertEqual(self.pg.uuid, doc['portgroup_uuid'])

    def test_mode_and_properties_from_1_26(self):
        for version in ('1.23', '1.25'):
            doc = self.get('/v1/portgroups/bond0', version=version).json
            self.assertNotIn('mode', doc)
            self.assertNotIn('properties', doc)
            self.get('/v1/portgroups/bond0?fields=mode', version=version,
                     status=406)
        doc = self.get('/v1/portgroups/bond0', version='1.26').json
        self.assertEqual('active-backup', doc['mode'])
        self.assertEqual({}, doc['properties'])


class TestReadPortgroups(base.APITestCase, PortgroupTestMixin):

    def setUp(self):
        super().setUp()
        self.n1 = self.create_node(name='n1')
        self.n2 = self.create_node(name='n2')
        self.pg1 = self.create_portgroup(self.n1, name='bond0',
                                         address='52:54:00:00:00:01',
                                         extra={'a': 1})
        self.pg2 = self.create_portgroup(self.n2, name='bond1',
                                         address='52:54:00:00:00:02')

    def test_short_list(self):
        groups = self.get('/v1/portgroups').json['portgroups']
        self.assertEqual([{'uuid', 'address', 'name', 'links'}] * 2,
                         [set(pg) for pg in groups])
        self.assertEqual(
            {'href': 'http://localhost/v1/portgroups/%s' % self.pg1.uuid,
             'rel': 'self'}, groups[0]['links'][0])

    def test_detail(self):
        for url in ('/v1/portgroups/detail', '/v1/portgroups?detail=true'):
            groups = self.get(url).json['portgroups']
            by_uuid = {pg['uuid']: pg for pg in groups}
            doc = by_uuid[self.pg1.uuid]
            self.assertEqual(self.n1.uuid, doc['node_uuid'])
            self.assertEqual(self.n2.uuid,
                             by_uuid[self.pg2.uuid]['node_uuid'])
            self.assertEqual({'a': 1}, doc['extra'])
            self.assertEqual({}, doc['internal_info'])
            self.assertTrue(doc['standalone_ports_supported'])
            self.assertEqual('active-backup', doc['mode'])
            self.assertEqual({}, doc['properties'])
            self.assertEqual('bond0', doc['name'])
            self.assertTrue(doc['created_at'].endswith('+00:00'))
            self.assertEqual(
                'http://localhost/v1/portgroups/%s/ports' % self.pg1.uuid,
                doc['ports'][0]['href'])
        self.get('/v1/portgroups?detail=true', version='1.42', status=406)
        self.get('/v1/portgroups/detail?detail=true', status=400)
        self.get('/v1/portgroups?detail=true&fields=name', status=400)

    def test_fields(self):
        groups = self.get('/v1/portgroups?fields=name,node_uuid').json[
            'portgroups']
        self.assertEqual({'name', 'node_uuid', 'links'}, set(groups[0]))
        self.get('/v1/portgroups?fields=nope', status=400)
        self.get('/v1/portgroups/detail?fields=name', status=400)

    def test_filters(self):
        def uuids(query):
            return [pg['uuid'] for pg in
                    self.get('/v1/portgroups?' + query).json['portgroups']]
        self.assertEqual([self.pg1.uuid], uuids('node=n1'))
        self.assertEqual([self.pg2.uuid], uuids('node=%s' % self.n2.uuid))
        self.assertEqual([self.pg1.uuid], uuids('address=52:54:00:00:00:01'))
        self.assertEqual([self.pg1.uuid], uuids('address=52-54-00-00-00-01'))
        self.assertEqual([], uuids('address=52:54:00:00:00:99'))

    def test_bad_filters(self):
        self.get('/v1/portgroups?node=nobody', status=404)
        r = self.get('/v1/portgroups?address=zz', status=400)
        self.assertFault(r, 400, 'field/attribute address')
        self.get('/v1/portgroups?node=n1&address=52:54:00:00:00:01',
                 status=400)
        r = self.get('/v1/portgroups?node_uuid=%s' % self.n1.uuid,
                     status=400)
        self.assertFault(r, 400, 'node_uuid')

    def test_pagination(self):
        doc = self.get('/v1/portgroups?limit=1').json
        self.assertEqual(1, len(doc['portgroups']))
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(
            doc['next']).query)
        self.assertEqual([doc['portgroups'][0]['uuid']], query['marker'])
        rest = self.get(doc['next'].replace('http://localhost', '')).json
        self.assertEqual([self.pg2.uuid],
                         [pg['uuid'] for pg in rest['portgroups']])
        self.get('/v1/portgroups?marker=nope', status=400)
        self.get('/v1/portgroups?marker=%s' % uuidutils.generate_uuid(),
                 status=400)
        self.get('/v1/portgroups?sort_key=extra', status=400)
        names = [pg['name'] for pg in self.get(
            '/v1/portgroups?sort_key=name&sort_dir=desc').json['portgroups']]
        self.assertEqual(['bond1', 'bond0'], names)

    def test_node_portgroups(self):
        doc = self.get('/v1/nodes/n1/portgroups').json
        self.assertEqual([self.pg1.uuid],
                         [pg['uuid'] for pg in doc['portgroups']])
        doc = self.get('/v1/nodes/%s/portgroups/detail' % self.n1.uuid).json
        self.assertEqual(self.n1.uuid, doc['portgroups'][0]['node_uuid'])
        self.get('/v1/nodes/nobody/portgroups', status=404)
        self.get('/v1/nodes/n1/portgroups?node=n2', status=400)
        self.create_portgroup(self.n1)
        doc = self.get('/v1/nodes/n1/portgroups?limit=1').json
        self.assertTrue(doc['next'].startswith(
            'http://localhost/v1/nodes/n1/portgroups?'))
        r = self.app.post_json('/v1/nodes/n1/portgroups', {},
                               headers=base.LATEST, status=405)
        self.assertFault(r, 405)

    def test_get_one_by_uuid_or_name(self):
        for ident in (self.pg1.uuid, 'bond0'):
            doc = self.get('/v1/portgroups/%s' % ident).json
            self.assertEqual(self.pg1.uuid, doc['uuid'])
            self.assertEqual('52:54:00:00:00:01', doc['address'])
        doc = self.get('/v1/portgroups/bond0?fields=address').json
        self.assertEqual({'address', 'links'}, set(doc))

    def test_get_one_errors(self):
        r = self.get('/v1/portgroups/%s' % uuidutils.generate_uuid(),
                     status=404)
        self.assertFault(r, 404)
        self.get('/v1/portgroups/nope', status=404)
        r = self.get('/v1/portgroups/no%20pe', status=400)
        self.assertFault(r, 400, 'logical name or UUID')
        self.get('/v1/portgroups/bond0/nothing', status=404)


class TestPortgroupPorts(base.APITestCase, PortgroupTestMixin):
    """Ports seen through their group: the filter, the sub-resource and
    portgroup_uuid."""

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1')
        self.pg = self.create_portgroup(self.node, name='bond0')
        self.members = [self.create_port(self.node, portgroup_id=self.pg.id)
                        for _ in range(2)]
        self.alone = self.create_port(self.node)

    def test_portgroup_filter(self):
        for ident in ('bond0', self.pg.uuid):
            doc = self.get('/v1/ports?portgroup=%s' % ident).json
            self.assertEqual(sorted(p.uuid for p in self.members),
                             sorted(p['uuid'] for p in doc['ports']))
        self.get('/v1/ports?portgroup=nope', status=404)
        # With a node filter too, both apply.
        self.create_node(name='n2')
        self.assertEqual([], self.get(
            '/v1/ports?portgroup=bond0&node=n2').json['ports'])
        self.assertEqual(2, len(self.get(
            '/v1/ports?portgroup=bond0&node=n1').json['ports']))

    def test_subresource(self):
        doc = self.get('/v1/portgroups/bond0/ports?limit=1').json
        self.assertEqual([self.members[0].uuid],
                         [p['uuid'] for p in doc['ports']])
        self.assertTrue(doc['next'].startswith(
            'http://localhost/v1/portgroups/bond0/ports?'))
        doc = self.get('/v1/portgroups/%s/ports/detail' % self.pg.uuid).json
        self.assertEqual({self.pg.uuid},
                         {p['portgroup_uuid'] for p in doc['ports']})
        self.assertEqual({self.node.uuid},
                         {p['node_uuid'] for p in doc['ports']})
        self.get('/v1/portgroups/nope/ports', status=404)
        self.get('/v1/portgroups/bond0/ports?portgroup=x', status=400)
        self.app.post_json('/v1/portgroups/bond0/ports', {},
                           headers=base.LATEST, status=405)

    def test_portgroup_uuid_in_lists(self):
        ports = self.get('/v1/ports/detail').json['ports']
        by_uuid = {p['uuid']: p['portgroup_uuid'] for p in ports}
        self.assertEqual(self.pg.uuid, by_uuid[self.members[0].uuid])
        self.assertIsNone(by_uuid[self.alone.uuid])
        doc = self.get('/v1/ports?fields=portgroup_uuid').json['ports']
        self.assertEqual({'portgroup_uuid', 'links'}, set(doc[0]))


class TestWritePortgroups(base.APITestCase, PortgroupTestMixin):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1')
        self.other = self.create_node(name='n2')

    def test_create(self):
        body = {'node_uuid': self.node.uuid, 'address': '52:54:00:AB:CD:EF',
                'name': 'bond0', 'extra': {'x': 1},
                'standalone_ports_supported': False, 'mode': '802.3ad',
                'properties': {'miimon': '100'}}
        r = self.post('/v1/portgroups', body)
        doc = r.json
        self.assertEqual('52:54:00:ab:cd:ef', doc['address'])
        self.assertEqual(self.node.uuid, doc['node_uuid'])
        self.assertEqual('802.3ad', doc['mode'])
        self.assertEqual('http://localhost/v1/portgroups/%s' % doc['uuid'],
                         r.headers['Location'])
        pg = self.db.get_portgroup_by_uuid(doc['uuid'])
        self.assertEqual('bond0', pg.name)
        self.assertFalse(pg.standalone_ports_supported)
        self.assertEqual({'miimon': '100'}, pg.properties)
        self.assertIsNone(self.db.get_node_by_id(self.node.id).reservation)

    def test_create_defaults(self):
        self.config(default_portgroup_mode='balance-rr')
        uuid = uuidutils.generate_uuid()
        doc = self.post('/v1/portgroups', {'node_uuid': self.node.uuid,
                                           'uuid': uuid}).json
        self.assertEqual(uuid, doc['uuid'])
        self.assertIsNone(doc['address'])
        self.assertIsNone(doc['name'])
        self.assertTrue(doc['standalone_ports_supported'])
        self.assertEqual('balance-rr', doc['mode'])
        self.assertEqual({}, doc['extra'])
        # Below 1.26 too: the group gets the default mode.
        doc = self.post('/v1/portgroups', {'node_uuid': self.node.uuid},
                        version='1.23').json
        self.assertNotIn('mode', doc)
        self.assertEqual('balance-rr', self.db.get_portgroup_by_uuid(
            doc['uuid']).mode)

    def test_create_errors(self):
        r = self.post('/v1/portgroups', {}, status=400)
        self.assertFault(r, 400, 'field/attribute node_uuid')
        r = self.post('/v1/portgroups',
                      {'node_uuid': uuidutils.generate_uuid()}, status=400)
        self.assertFault(r, 400, 'field/attribute node_uuid')
        for name in ('no pe', uuidutils.generate_uuid(), ''):
            r = self.post('/v1/portgroups', {'node_uuid': self.node.uuid,
                                             'name': name}, status=400)
            self.assertFault(r, 400, 'field/attribute name')
        r = self.post('/v1/portgroups', {'node_uuid': self.node.uuid,
                                         'address': 'nope'}, status=400)
        self.assertFault(r, 400, 'field/attribute address')
        for field in ('internal_info', 'ports', 'speed'):
            r = self.post('/v1/portgroups', {'node_uuid': self.node.uuid,
                                             field: {}}, status=400)
            self.assertFault(r, 400, 'field/attribute %s' % field)
        r = self.post('/v1/portgroups', {'node_uuid': self.node.uuid,
                                         'standalone_ports_supported': 'x'},
                      status=400)
        self.assertFault(r, 400, 'standalone_ports_supported')

    def test_mode_and_properties_refused_below_1_26(self):
        for field, value in (('mode', '802.3ad'), ('properties', {})):
            r = self.post('/v1/portgroups', {'node_uuid': self.node.uuid,
                                             field: value},
                          version='1.25', status=406)
            self.assertFault(r, 406, field)
        self.assertEqual([], self.db.get_portgroups_by_node_id(self.node.id))
        pg = self.create_portgroup(self.node)
        r = self.patch('/v1/portgroups/%s' % pg.uuid, [
            {'op': 'replace', 'path': '/mode', 'value': '802.3ad'}],
            version='1.25', status=406)
        self.assertFault(r, 406, 'mode')

    def test_duplicates_409(self):
        self.post('/v1/portgroups', {'node_uuid': self.node.uuid,
                                     'name': 'bond0', 'address': MAC})
        r = self.post('/v1/portgroups', {'node_uuid': self.other.uuid,
                                         'address': MAC.upper()},
                      status=409)
        self.assertFault(r, 409, MAC)
        r = self.post('/v1/portgroups', {'node_uuid': self.other.uuid,
                                         'name': 'bond0'}, status=409)
        self.assertFault(r, 409, 'bond0')
        # A port may have the group's address (only groups are unique).
        self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                'address': MAC})

    def test_patch(self):
        pg = self.create_portgroup(self.node, name='bond0')
        doc = self.patch('/v1/portgroups/bond0', [
            {'op': 'add', 'path': '/address', 'value': '52:54:00:FF:FF:FF'},
            {'op': 'add', 'path': '/extra/vif', 'value': 'v1'},
            {'op': 'replace', 'path': '/name', 'value': 'bond9'},
            {'op': 'replace', 'path': '/mode', 'value': '802.3ad'},
            {'op': 'add', 'path': '/properties/miimon', 'value': 100},
            {'op': 'replace', 'path': '/standalone_ports_supported',
             'value': False}]).json
        self.assertEqual('52:54:00:ff:ff:ff', doc['address'])
        self.assertEqual('bond9', doc['name'])
        pg = self.db.get_portgroup_by_id(pg.id)
        self.assertEqual({'vif': 'v1'}, pg.extra)
        self.assertEqual({'miimon': 100}, pg.properties)
        self.assertEqual('802.3ad', pg.mode)
        self.assertFalse(pg.standalone_ports_supported)
        doc = self.patch('/v1/portgroups/bond9', [
            {'op': 'remove', 'path': '/address'},
            {'op': 'remove', 'path': '/name'},
            {'op': 'remove', 'path': '/standalone_ports_supported'}]).json
        self.assertIsNone(doc['address'])
        self.assertIsNone(doc['name'])
        self.assertTrue(doc['standalone_ports_supported'])

    def test_patch_errors(self):
        pg = self.create_portgroup(self.node, name='bond0')
        url = '/v1/portgroups/%s' % pg.uuid
        for path in ('/uuid', '/created_at', '/internal_info', '/ports'):
            r = self.patch(url, [{'op': 'replace', 'path': path,
                                  'value': 'x'}], status=400)
            self.assertFault(r, 400, 'internal attribute')
        for path in ('/node_uuid', '/mode'):
            r = self.patch(url, [{'op': 'remove', 'path': path}],
                           status=400)
            self.assertFault(r, 400, 'mandatory')
        r = self.patch(url, [{'op': 'replace', 'path': '/mode',
                              'value': None}], status=400)
        self.assertFault(r, 400, 'mode')
        r = self.patch(url, [{'op': 'replace', 'path': '/name',
                              'value': 'bad name'}], status=400)
        self.assertFault(r, 400, 'field/attribute name')
        r = self.patch(url, [{'op': 'replace', 'path': '/address',
                              'value': 'bad'}], status=400)
        self.assertFault(r, 400, 'field/attribute address')
        r = self.patch(url, [{'op': 'replace', 'path': '/node_uuid',
                              'value': uuidutils.generate_uuid()}],
                       status=400)
        self.assertFault(r, 400, 'node_uuid')
        self.patch('/v1/portgroups', [], status=405)

    def test_patch_duplicates_409(self):
        self.create_portgroup(self.node, name='bond0', address=MAC)
        pg = self.create_portgroup(self.node, name='bond1')
        url = '/v1/portgroups/%s' % pg.uuid
        self.patch(url, [{'op': 'replace', 'path': '/address',
                          'value': MAC}], status=409)
        r = self.patch(url, [{'op': 'replace', 'path': '/name',
                              'value': 'bond0'}], status=409)
        self.assertFault(r, 409, 'bond0')

    def test_move_to_another_node(self):
        pg = self.create_portgroup(self.node, name='bond0')
        port = self.create_port(self.node, portgroup_id=pg.id)
        move = [{'op': 'replace', 'path': '/node_uuid',
                 'value': self.other.uuid}]
        r = self.patch('/v1/portgroups/bond0', move, status=400)
        self.assertFault(r, 400, 'contains ports')
        self.db.update_port(port.id, {'portgroup_id': None})
        doc = self.patch('/v1/portgroups/bond0', move).json
        self.assertEqual(self.other.uuid, doc['node_uuid'])
        self.assertEqual(self.other.id,
                         self.db.get_portgroup_by_id(pg.id).node_id)

    def test_move_from_deployed_node_409(self):
        node = self.create_node(provision_state=states.ACTIVE)
        pg = self.create_portgroup(node)
        self.patch('/v1/portgroups/%s' % pg.uuid, [
            {'op': 'replace', 'path': '/node_uuid',
             'value': self.other.uuid}], status=409)

    def test_standalone_off_with_pxe_member_409(self):
        pg = self.create_portgroup(self.node, name='bond0')
        self.create_port(self.node, portgroup_id=pg.id)
        self.patch('/v1/portgroups/bond0', [
            {'op': 'replace', 'path': '/standalone_ports_supported',
             'value': False}], status=409)

    def test_patch_locked_node_409(self):
        self.create_portgroup(self.node, name='bond0')
        self.db.reserve_node('other-host', self.node.id)
        self.patch('/v1/portgroups/bond0', [
            {'op': 'add', 'path': '/extra/a', 'value': 1}], status=409)

    def test_delete(self):
        pg = self.create_portgroup(self.node, name='bond0')
        port = self.create_port(self.node, portgroup_id=pg.id)
        r = self.delete('/v1/portgroups/bond0', status=400)
        self.assertFault(r, 400, 'contains ports')
        self.db.destroy_port(port.id)
        self.delete('/v1/portgroups/bond0')
        self.get('/v1/portgroups/%s' % pg.uuid, status=404)
        self.delete('/v1/portgroups/%s' % pg.uuid, status=404)
        self.delete('/v1/portgroups', status=405)

    def test_delete_node_deletes_its_groups(self):
        pg = self.create_portgroup(self.node)
        self.create_port(self.node, portgroup_id=pg.id)
        self.delete('/v1/nodes/n1')
        self.get('/v1/portgroups/%s' % pg.uuid, status=404)


class TestPortsInGroups(base.APITestCase, PortgroupTestMixin):
    """portgroup_uuid on port create and patch (1.24)."""

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1')
        self.other = self.create_node(name='n2')
        self.pg = self.create_portgroup(self.node, name='bond0')

    def test_create_in_group(self):
        doc = self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                      'address': MAC,
                                      'portgroup_uuid': self.pg.uuid}).json
        self.assertEqual(self.pg.uuid, doc['portgroup_uuid'])
        self.assertEqual(self.pg.id, self.db.get_port_by_uuid(
            doc['uuid']).portgroup_id)

    def test_group_on_another_node_400(self):
        foreign = self.create_portgroup(self.other)
        r = self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                    'address': MAC,
                                    'portgroup_uuid': foreign.uuid},
                      status=400)
        self.assertFault(r, 400, 'field/attribute portgroup_uuid')
        port = self.create_port(self.node)
        r = self.patch('/v1/ports/%s' % port.uuid, [
            {'op': 'replace', 'path': '/portgroup_uuid',
             'value': foreign.uuid}], status=400)
        self.assertFault(r, 400, 'field/attribute portgroup_uuid')
        # Moving the port with its group set elsewhere: the conductor's
        # check, named the same.
        self.db.update_port(port.id, {'portgroup_id': self.pg.id})
        r = self.patch('/v1/ports/%s' % port.uuid, [
            {'op': 'replace', 'path': '/node_uuid',
             'value': self.other.uuid}], status=400)
        self.assertFault(r, 400, 'field/attribute portgroup_uuid')
        doc = self.patch('/v1/ports/%s' % port.uuid, [
            {'op': 'replace', 'path': '/node_uuid', 'value': self.other.uuid},
            {'op': 'replace', 'path': '/portgroup_uuid',
             'value': foreign.uuid}]).json
        self.assertEqual(foreign.uuid, doc['portgroup_uuid'])
        self.assertEqual(self.other.uuid, doc['node_uuid'])

    def test_patch_membership(self):
        port = self.create_port(self.node)
        url = '/v1/ports/%s' % port.uuid
        doc = self.patch(url, [{'op': 'add', 'path': '/portgroup_uuid',
                                'value': self.pg.uuid}]).json
        self.assertEqual(self.pg.uuid, doc['portgroup_uuid'])
        doc = self.patch(url, [{'op': 'remove',
                                'path': '/portgroup_uuid'}]).json
        self.assertIsNone(doc['portgroup_uuid'])
        self.assertIsNone(self.db.get_port_by_id(port.id).portgroup_id)
        self.patch(url, [{'op': 'add', 'path': '/portgroup_uuid',
                          'value': self.pg.uuid}], version='1.23',
                   status=406)

    def test_membership_of_a_deployed_node_409(self):
        node = self.create_node(provision_state=states.ACTIVE)
        pg = self.create_portgroup(node)
        port = self.create_port(node)
        self.patch('/v1/ports/%s' % port.uuid, [
            {'op': 'add', 'path': '/portgroup_uuid', 'value': pg.uuid}],
            status=409)

    def test_pxe_enabled_needs_standalone_support_409(self):
        self.db.update_portgroup(self.pg.id,
                                 {'standalone_ports_supported': False})
        r = self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                    'address': MAC, 'pxe_enabled': True,
                                    'portgroup_uuid': self.pg.uuid},
                      status=409)
        self.assertFault(r, 409, "doesn't support standalone ports")
        doc = self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                      'address': MAC, 'pxe_enabled': False,
                                      'portgroup_uuid': self.pg.uuid}).json
        self.patch('/v1/ports/%s' % doc['uuid'], [
            {'op': 'replace', 'path': '/pxe_enabled', 'value': True}],
            status=409)


class TestPortgroupPolicy(test_auth.KeystoneTestCase, PortgroupTestMixin):

    def setUp(self):
        super().setUp()
        self.mine = self.create_node(name='mine', owner='p1')
        self.theirs = self.create_node(name='theirs', owner='p2')
        self.my_pg = self.create_portgroup(self.mine, name='my-bond')
        self.their_pg = self.create_portgroup(self.theirs, name='their-bond')
        self.create_port(self.theirs, portgroup_id=self.their_pg.id)

    def test_project_member(self):
        headers = self.project('member')
        # Lists: only by one of the project's nodes.
        r = self.get('/v1/portgroups', headers=headers, status=403)
        self.assertFault(r, 403, 'baremetal:portgroup:list_all')
        doc = self.get('/v1/portgroups?node=mine', headers=headers).json
        self.assertEqual([self.my_pg.uuid],
                         [pg['uuid'] for pg in doc['portgroups']])
        self.get('/v1/nodes/mine/portgroups', headers=headers)
        self.get('/v1/portgroups/my-bond', headers=headers)
        self.get('/v1/portgroups/my-bond/ports', headers=headers)
        # Another project's group does not exist for this user.
        self.get('/v1/portgroups/their-bond', headers=headers, status=404)
        self.get('/v1/portgroups/their-bond/ports', headers=headers,
                 status=404)
        self.get('/v1/ports?portgroup=their-bond', headers=headers,
                 status=404)
        self.get('/v1/nodes/theirs/portgroups', headers=headers,
                 status=404)
        # Writes are the cloud's.
        r = self.post('/v1/portgroups', {'node_uuid': self.mine.uuid},
                      headers=headers, status=403)
        self.assertFault(r, 403, 'baremetal:portgroup:create')
        r = self.patch('/v1/portgroups/my-bond', [
            {'op': 'add', 'path': '/extra/a', 'value': 1}],
            headers=headers, status=403)
        self.assertFault(r, 403, 'baremetal:portgroup:update')
        r = self.delete('/v1/portgroups/my-bond', headers=headers,
                        status=403)
        self.assertFault(r, 403, 'baremetal:portgroup:delete')
        self.delete('/v1/portgroups/their-bond', headers=headers,
                    status=404)
        self.assertEqual(2, len(self.db.get_portgroup_list()))

    def test_system_roles(self):
        reader = self.system('reader')
        self.assertEqual(2, len(self.get(
            '/v1/portgroups', headers=reader).json['portgroups']))
        self.post('/v1/portgroups', {'node_uuid': self.mine.uuid},
                  headers=reader, status=403)
        member = self.system('member')
        self.patch('/v1/portgroups/my-bond', [
            {'op': 'add', 'path': '/extra/a', 'value': 1}], headers=member)
        self.delete('/v1/portgroups/my-bond', headers=member, status=403)
        admin = self.system('admin')
        self.post('/v1/portgroups', {'node_uuid': self.mine.uuid},
                  headers=admin)
        self.delete('/v1/portgroups/my-bond', headers=admin)
