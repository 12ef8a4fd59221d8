"""Ironic 1.97 to 1.115: port description, vendor and category; patch
keys with "~" or "/"; the conductor_groups filter of ports and port
groups; port group physical_network (its ports follow it) and category;
node instance_name."""

import datetime

from oslo_utils import timeutils
from oslo_utils import uuidutils

from ironic_like.common import states
from ironic_like.conductor import node_history
from ironic_like.tests.unit.api import base

MAC = '52:54:00:00:00:%02x'


def _replace(path, value):
    return [{'op': 'replace', 'path': path, 'value': value}]


class TestPortTexts(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1')

    def test_fields_at_their_versions(self):
        body = {'node_uuid': self.node.uuid, 'address': MAC % 1,
                'description': 'uplink to tor-1', 'vendor': 'mellanox',
                'category': 'storage'}
        for field, version in (('description', '1.97'),
                               ('vendor', '1.100'),
                               ('category', '1.101')):
            major, minor = version.split('.')
            before = '%s.%d' % (major, int(minor) - 1)
            r = self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                        'address': MAC % 9,
                                        field: 'x'},
                          version=before, status=406)
            self.assertFault(r, 406, field)
        doc = self.post('/v1/ports', body, version='1.101').json
        for field in ('description', 'vendor', 'category'):
            self.assertEqual(body[field], doc[field])
        url = '/v1/ports/%s' % doc['uuid']
        self.assertNotIn('vendor', self.get(url, version='1.99').json)
        self.assertIn('description', self.get(url, version='1.99').json)
        doc = self.patch(url, _replace('/vendor', 'intel'),
                         version='1.101').json
        self.assertEqual('intel', doc['vendor'])
        r = self.patch(url, _replace('/vendor', 'v' * 33), version='1.101',
                       status=400)
        self.assertFault(r, 400, 'vendor')

    def test_description_contains_filter(self):
        self.create_port(self.node, address=MAC % 1, description='Uplink A')
        self.create_port(self.node, address=MAC % 2, description='storage')
        found = self.get('/v1/ports?description_contains=link',
                         version='1.97').json['ports']
        self.assertEqual([MAC % 1], [p['address'] for p in found])
        # "%" and "_" are matched literally.
        self.assertEqual([], self.get('/v1/ports?description_contains=%25',
                                      version='1.97').json['ports'])
        self.get('/v1/ports?description_contains=link', version='1.96',
                 status=406)


class TestEscapedPatchKeys(base.APITestCase):
    """1.98: keys holding "~" or "/" are patched with RFC 6901 escapes
    (~0, ~1); the top-level field is decoded too."""

    with_conductor = True

    def test_escaped_keys(self):
        node = self.create_node(name='n1', extra={})
        doc = self.patch('/v1/nodes/n1', [
            {'op': 'add', 'path': '/extra/example.com~1role',
             'value': 'db'},
            {'op': 'add', 'path': '/extra/a~0b', 'value': 1}],
            version='1.98').json
        self.assertEqual({'example.com/role': 'db', 'a~b': 1}, doc['extra'])
        self.patch('/v1/nodes/n1', [
            {'op': 'remove', 'path': '/extra/example.com~1role'}],
            version='1.98')
        self.assertEqual({'a~b': 1},
                         self.db.get_node_by_id(node.id).extra)


class TestConductorGroupsFilter(base.APITestCase):

    def setUp(self):
        super().setUp()
        self.a = self.create_node(name='a', conductor_group='rack-a')
        self.b = self.create_node(name='b', conductor_group='rack-b')
        self.create_port(self.a, address=MAC % 1)
        self.create_port(self.b, address=MAC % 2)
        for node, index in ((self.a, 1), (self.b, 2)):
            self.db.create_portgroup({'uuid': uuidutils.generate_uuid(),
                                      'node_id': node.id,
                                      'name': 'pg-%d' % index})

    def test_ports_and_portgroups(self):
        ports = self.get('/v1/ports?conductor_groups=RACK-A',
                         version='1.99').json['ports']
        self.assertEqual([MAC % 1], [p['address'] for p in ports])
        ports = self.get('/v1/ports?conductor_groups=rack-a,rack-b',
                         version='1.99').json['ports']
        self.assertEqual(2, len(ports))
        groups = self.get('/v1/portgroups?conductor_groups=rack-b',
                          version='1.99').json['portgroups']
        self.assertEqual(['pg-2'], [g['name'] for g in groups])

    def test_refusals(self):
        r = self.get('/v1/ports?conductor_groups=rack-a', version='1.98',
                     status=406)
        self.assertFault(r, 406, 'conductor_groups')
        r = self.get('/v1/ports?conductor_groups=rack-a&node=a',
                     version='1.99', status=400)
        self.assertFault(r, 400, 'conductor_groups')
        r = self.get('/v1/portgroups?conductor_groups=rack-a&address=%s'
                     % (MAC % 1), version='1.99', status=400)
        self.assertFault(r, 400, 'conductor_groups')
        r = self.get('/v1/ports?conductor_groups=a,,b', version='1.99',
                     status=400)
        self.assertFault(r, 400, 'conductor_groups')


class TestPortgroupNetwork(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1',
                                     provision_state=states.MANAGEABLE)
        self.group = self.post('/v1/portgroups', {
            'node_uuid': self.node.uuid, 'name': 'bond0',
            'physical_network': 'prov', 'category': 'uplink'},
            version='1.103').json

    def test_fields_and_versions(self):
        self.assertEqual(('prov', 'uplink'),
                         (self.group['physical_network'],
                          self.group['category']))
        url = '/v1/portgroups/bond0'
        self.assertNotIn('physical_network',
                         self.get(url, version='1.101').json)
        self.assertNotIn('category', self.get(url, version='1.102').json)
        r = self.post('/v1/portgroups', {'node_uuid': self.node.uuid,
                                         'category': 'x'},
                      version='1.102', status=406)
        self.assertFault(r, 406, 'category')

    def test_members_on_the_group_network(self):
        # An empty group takes ports of its own network only.
        r = self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                    'address': MAC % 1,
                                    'portgroup_uuid': self.group['uuid'],
                                    'physical_network': 'tenant',
                                    'pxe_enabled': False},
                      version='1.103', status=409)
        self.assertFault(r, 409, 'physical network prov')
        port = self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                       'address': MAC % 1,
                                       'portgroup_uuid': self.group['uuid'],
                                       'physical_network': 'prov',
                                       'pxe_enabled': False},
                         version='1.103').json
        # Changing the group's network moves its ports with it.
        self.patch('/v1/portgroups/bond0', _replace('/physical_network',
                                                    'storage'),
                   version='1.103')
        self.assertEqual('storage', self.db.get_port_by_uuid(
            port['uuid']).physical_network)
        # A member cannot leave the group's network on its own.
        r = self.patch('/v1/ports/%s' % port['uuid'],
                       _replace('/physical_network', 'prov'),
                       version='1.103', status=409)
        self.assertFault(r, 409, 'physical network storage')


class TestInstanceName(base.APITestCase):

    with_conductor = True

    def test_field_filter_and_sync(self):
        node = self.create_node(name='n1')
        self.create_node(name='n2', instance_name='other')
        self.assertNotIn('instance_name',
                         self.get('/v1/nodes/n1', version='1.103').json)
        r = self.patch('/v1/nodes/n1', _replace('/instance_name', 'vm-1'),
                       version='1.103', status=406)
        self.assertFault(r, 406, 'instance_name')
        # Nova's display_name in instance_info names the instance.
        doc = self.patch('/v1/nodes/n1', [
            {'op': 'add', 'path': '/instance_info/display_name',
             'value': 'web-1'}], version='1.104').json
        self.assertEqual('web-1', doc['instance_name'])
        # An explicit name is kept.
        doc = self.patch('/v1/nodes/n1', [
            {'op': 'replace', 'path': '/instance_name', 'value': 'web'},
            {'op': 'add', 'path': '/instance_info/display_name',
             'value': 'web-2'}], version='1.104').json
        self.assertEqual('web', doc['instance_name'])
        found = self.get('/v1/nodes?instance_name=web',
                         version='1.104').json['nodes']
        self.assertEqual([node.uuid], [n['uuid'] for n in found])
        self.get('/v1/nodes?instance_name=web', version='1.103', status=406)
        r = self.patch('/v1/nodes/n1', _replace('/instance_name', ''),
                       version='1.104', status=400)
        self.assertFault(r, 400, 'instance_name')


class TestNodeListFilters(base.APITestCase):
    """Filters of Ironic's node list that need no microversion of their
    own: description_contains, project, and conductor (1.49)."""

    with_conductor = True

    def test_description_contains_and_project(self):
        a = self.create_node(name='a', description='Rack 12, slot 3',
                             owner='p1')
        b = self.create_node(name='b', description='rack 7', lessee='p1')
        self.create_node(name='c', owner='p2')
        found = self.get('/v1/nodes?description_contains=slot').json
        self.assertEqual([a.uuid], [n['uuid'] for n in found['nodes']])
        found = self.get('/v1/nodes?project=p1').json
        self.assertEqual({a.uuid, b.uuid},
                         {n['uuid'] for n in found['nodes']})

    def test_conductor(self):
        node = self.create_node(name='a')
        conductor = self.get('/v1/nodes/a?fields=conductor',
                             version='1.49').json['conductor']
        self.assertTrue(conductor)
        found = self.get('/v1/nodes?conductor=%s' % conductor,
                         version='1.49').json['nodes']
        self.assertEqual([node.uuid], [n['uuid'] for n in found])
        self.assertEqual([], self.get('/v1/nodes?conductor=elsewhere',
                                      version='1.49').json['nodes'])
        self.get('/v1/nodes?conductor=%s' % conductor, version='1.48',
                 status=406)
        # The next link follows the page read, filtered or not.
        self.create_node(name='b')
        page = self.get('/v1/nodes?conductor=elsewhere&limit=1',
                        version='1.49').json
        self.assertEqual([], page['nodes'])
        self.assertIn('marker=%s' % node.uuid, page['next'])


class TestNodeListProjectPolicy(base.APITestCase):

    auth_strategy = 'keystone'

    def make_app(self, **kwargs):
        return super().make_app(skip_auth_token=True)

    def test_other_project_403(self):
        self.create_node(name='a', owner='p1')
        headers = {'X-Roles': 'reader', 'X-Project-Id': 'p1',
                   'X-User-Id': 'u1'}
        self.assertEqual(1, len(self.get('/v1/nodes?project=p1',
                                         headers=headers).json['nodes']))
        self.get('/v1/nodes?project=p2', headers=headers, status=403)


class TestPortgroupShardFilter(base.APITestCase):
    """1.106: ?shard= on the port group list."""

    def test_shard(self):
        a = self.create_node(name='a', shard='s1')
        b = self.create_node(name='b', shard='s2')
        for node in (a, b):
            self.db.create_portgroup({'uuid': uuidutils.generate_uuid(),
                                      'node_id': node.id,
                                      'name': 'pg-' + node.name})
        groups = self.get('/v1/portgroups?shard=s1',
                          version='1.106').json['portgroups']
        self.assertEqual(['pg-a'], [g['name'] for g in groups])
        self.get('/v1/portgroups?shard=s1', version='1.105', status=406)
        r = self.get('/v1/portgroups?shard=s1&node=a', version='1.106',
                     status=400)
        self.assertFault(r, 400, 'shard')


class TestNodeHealth(base.APITestCase):
    """1.109: the node's health, read only."""

    def test_field(self):
        self.create_node(name='n1', health='Warning')
        self.assertNotIn('health', self.get('/v1/nodes/n1',
                                            version='1.108').json)
        self.assertEqual('Warning', self.get('/v1/nodes/n1',
                                             version='1.109').json['health'])
        r = self.patch('/v1/nodes/n1', _replace('/health', 'OK'),
                       version='1.109', status=400)
        self.assertFault(r, 400, 'health')


class TestDynamicPortgroupFields(base.APITestCase):
    """1.111: a port's available_for_dynamic_portgroup (true unless
    said), a port group's read-only dynamic_portgroup."""

    with_conductor = True

    def test_fields(self):
        node = self.create_node(name='n1')
        doc = self.post('/v1/ports', {'node_uuid': node.uuid,
                                      'address': MAC % 1},
                        version='1.111').json
        self.assertIs(True, doc['available_for_dynamic_portgroup'])
        url = '/v1/ports/%s' % doc['uuid']
        doc = self.patch(url, _replace('/available_for_dynamic_portgroup',
                                       False), version='1.111').json
        self.assertIs(False, doc['available_for_dynamic_portgroup'])
        doc = self.patch(url, [{'op': 'remove', 'path':
                                '/available_for_dynamic_portgroup'}],
                         version='1.111').json
        self.assertIs(True, doc['available_for_dynamic_portgroup'])
        self.assertNotIn('available_for_dynamic_portgroup',
                         self.get(url, version='1.110').json)
        group = self.post('/v1/portgroups', {'node_uuid': node.uuid},
                          version='1.111').json
        self.assertIs(False, group['dynamic_portgroup'])
        r = self.patch('/v1/portgroups/%s' % group['uuid'],
                       _replace('/dynamic_portgroup', True),
                       version='1.111', status=400)
        self.assertFault(r, 400, 'dynamic_portgroup')


class TestHistoryAndFirmwareFields(base.APITestCase):
    """1.113 and 1.115: a history event's project, states and duration;
    1.114: a firmware component's vendor, model and serial number."""

    def test_history_fields(self):
        node = self.create_node(name='n1', provision_state=states.AVAILABLE)
        self.db.record_node_history({
            'node_id': node.id, 'event': 'x', 'event_type': 'power',
            'severity': 'ERROR', 'project': 'p1', 'state': 'available',
            'target_provision_state': None, 'duration_seconds': 42})
        url = '/v1/nodes/n1/history?detail=True'
        event = self.get(url, version='1.115').json['history'][0]
        self.assertEqual(('p1', 'available', None, 42),
                         (event['project'], event['state'],
                          event['target_provision_state'],
                          event['duration_seconds']))
        event = self.get(url, version='1.113').json['history'][0]
        self.assertEqual('p1', event['project'])
        self.assertNotIn('duration_seconds', event)
        event = self.get(url, version='1.112').json['history'][0]
        self.assertNotIn('project', event)

    def test_history_records_states(self):
        node = self.create_node(
            name='n1', provision_state=states.DEPLOYWAIT,
            target_provision_state=states.ACTIVE,
            provision_updated_at=timeutils.utcnow() - datetime.timedelta(
                seconds=30))
        node_history.record(node, 'it happened', 'deployment')
        event = self.db.get_node_history_list(node.id)[0]
        self.assertEqual((states.DEPLOYWAIT, states.ACTIVE),
                         (event.state, event.target_provision_state))
        self.assertGreaterEqual(event.duration_seconds, 30)

    def test_firmware_fields(self):
        node = self.create_node(name='n1')
        self.db.sync_firmware_components(node.id, [
            {'component': 'bmc', 'current_version': '1.0',
             'model': 'iDRAC 9'}])
        url = '/v1/nodes/n1/firmware'
        bmc = self.get(url, version='1.114').json['firmware'][0]
        self.assertEqual(('iDRAC 9', None, None),
                         (bmc['model'], bmc['vendor'],
                          bmc['serial_number']))
        self.assertNotIn('model', self.get(url, version='1.113').json[
            'firmware'][0])
        self.get(url + '?fields=model', version='1.113', status=400)
        doc = self.get(url + '?fields=model', version='1.114').json
        self.assertEqual('iDRAC 9', doc['firmware'][0]['model'])
