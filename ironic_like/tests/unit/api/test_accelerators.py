"""/v1/accelerators and /v1/nodes/{node}/accelerators: the version
document, devices, deployables and attach handles (list with filters,
show), a node's accelerators, discovery on demand (the RPC mocked), and
who sees what (project scoping, 404 rather than 403 for other projects'
nodes).

The records are written through the real database API, from inventories
parsed by common/accelerators/inventory.py, as discovery writes them.
"""

import datetime
import os

import fixtures
from oslo_utils import uuidutils

from ironic_like.common.accelerators import inventory
from ironic_like.common import exception
from ironic_like.common import policy
from ironic_like.conductor import rpcapi
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth
from ironic_like.tests.unit import accelerator_samples as samples

URL = '/v1/accelerators'
RT1, RT2, FN1 = samples.RT1, samples.RT2, samples.FN1

fpga = samples.two_region_fpga
gpu = samples.plain_gpu


def qat(**kw):
    entry = {'type': 'QAT', 'vendor_id': '8086', 'product_id': '37c8',
             'pci_address': '0000:af:00.0',
             'virtual_functions': ['0000:af:00.1', '0000:af:00.2']}
    entry.update(kw)
    return entry


class AcceleratorAPITestCase(base.APITestCase):
    """Three nodes: ``mine`` (owner p1: an FPGA with two regions and a
    GPU), ``leased`` (owner p9, lessee p1: a GPU) and ``theirs`` (owner
    p2: a QAT card with two VFs). The discovery RPC is mocked."""

    def setUp(self):
        super().setUp()
        self.discover = self.useFixture(fixtures.MockPatchObject(
            rpcapi.ConductorAPI, 'discover_accelerators',
            autospec=True)).mock
        self.mine = self.create_node(name='mine', owner='p1')
        self.leased = self.create_node(name='leased', owner='p9',
                                       lessee='p1')
        self.theirs = self.create_node(name='theirs', owner='p2')
        self.populate(self.mine, [fpga(), gpu()])
        self.populate(self.leased, [gpu(pci_address='0000:18:00.0')])
        self.populate(self.theirs, [qat()])

    def populate(self, node, entries):
        return self.db.apply_accelerator_inventory(
            node.id, inventory.parse(entries), node.name or node.uuid)

    def take_handle(self, node, pci_address):
        """Reserve the attach handle at ``pci_address`` (as a plug
        does); the attachment dict."""
        [candidate] = [c for c in self.db.list_accelerator_candidates(
            node.id) if c['pci_address'] == pci_address]
        return self.db.reserve_accelerator_handle(
            node.id, {'instance_uuid': uuidutils.generate_uuid(),
                      'instance_name': 'vm', 'project_id': node.owner,
                      'request_index': 0},
            [candidate['handle_id']],
            datetime.datetime(2030, 1, 1, 12, 0, 0))

    def assert_field(self, response, status, field, *fragments):
        return self.assertFault(
            response, status,
            'Invalid input for field/attribute %s.' % field, *fragments)

    def listed(self, resource, query='', headers=None, key='pci_address'):
        url = '%s/%s%s' % (URL, resource, ('?' + query) if query else '')
        doc = self.get(url, headers=headers).json
        self.assertEqual([resource], list(doc))
        return sorted(item[key] or '' for item in doc[resource])

    def device(self, node, pci_address):
        [dev] = [d for d in self.db.list_accelerator_devices(
            {'node_id': node.id}) if d['pci_address'] == pci_address]
        return dev


class TestVersion(AcceleratorAPITestCase):

    def test_version_document(self):
        doc = self.get(URL).json
        self.assertEqual('v1', doc['id'])
        self.assertEqual('1.0', doc['version'])
        self.assertEqual('1.0', doc['min_version'])
        rels = {link['rel']: link['href'] for link in doc['links']}
        self.assertEqual({
            'self': 'http://localhost/v1/accelerators',
            'devices': 'http://localhost/v1/accelerators/devices',
            'deployables': 'http://localhost/v1/accelerators/deployables',
            'attach_handles':
                'http://localhost/v1/accelerators/attach_handles'}, rels)

    def test_no_microversion_needed(self):
        self.app.get(URL)
        self.app.get(URL + '/devices?node=mine')
        self.app.get('/v1/nodes/mine/accelerators')

    def test_unknown_query_parameter(self):
        for url in (URL, URL + '/devices', URL + '/deployables',
                    URL + '/attach_handles',
                    URL + '/devices/%s' % uuidutils.generate_uuid(),
                    '/v1/nodes/mine/accelerators'):
            r = self.get(url + '?foo=1', status=400)
            self.assert_field(r, 400, 'foo', 'Unknown argument')
        # Filters of one collection are unknown to another.
        r = self.get(URL + '/attach_handles?vendor=8086', status=400)
        self.assert_field(r, 400, 'vendor')
        r = self.get(URL + '/devices?device=%s'
                     % uuidutils.generate_uuid(), status=400)
        self.assert_field(r, 400, 'device')

    def test_read_only(self):
        dev = self.device(self.mine, '0000:3b:00.0')
        self.post(URL + '/devices', {'type': 'GPU'}, status=405)
        self.app.delete(URL + '/devices/%s' % dev['uuid'], status=405)
        self.app.patch_json(URL + '/devices/%s' % dev['uuid'], [],
                            status=405)


class TestDevices(AcceleratorAPITestCase):

    def test_list(self):
        doc = self.get(URL + '/devices').json
        self.assertEqual(4, len(doc['devices']))
        by_address = {(d['node_uuid'], d['pci_address']): d
                      for d in doc['devices']}
        dev = by_address[(self.mine.uuid, '0000:5e:00.0')]
        self.assertEqual('FPGA', dev['type'])
        self.assertEqual('8086', dev['vendor'])
        self.assertEqual('Intel', dev['vendor_name'])
        self.assertEqual('PAC Arria10', dev['model'])
        self.assertEqual('09c4', dev['product_id'])
        self.assertEqual('enabled', dev['status'])
        self.assertFalse(dev['in_use'])
        self.assertEqual(['0000:5e:00.1', '0000:5e:00.2'],
                         dev['std_board_info']['virtual_functions'])
        self.assertTrue(uuidutils.is_uuid_like(dev['uuid']))
        self.assertEqual([
            {'href': 'http://localhost/v1/accelerators/devices/%s'
                     % dev['uuid'], 'rel': 'self'},
            {'href': 'http://localhost/accelerators/devices/%s'
                     % dev['uuid'], 'rel': 'bookmark'}], dev['links'])
        # Times as the rest of the API prints them.
        self.assertTrue(dev['created_at'].endswith('+00:00'),
                        dev['created_at'])
        self.assertIn('updated_at', dev)

    def test_show(self):
        dev = self.device(self.mine, '0000:3b:00.0')
        doc = self.get(URL + '/devices/%s' % dev['uuid']).json
        self.assertEqual(dev['uuid'], doc['uuid'])
        self.assertEqual(self.mine.uuid, doc['node_uuid'])
        self.assertEqual('GPU', doc['type'])
        self.assertEqual('10de', doc['vendor'])
        self.assertEqual('self', doc['links'][0]['rel'])
        self.assertTrue(doc['created_at'].endswith('+00:00'))

    def test_show_unknown_404(self):
        uuid = uuidutils.generate_uuid()
        r = self.get(URL + '/devices/%s' % uuid, status=404)
        self.assertFault(r, 404, 'device', uuid)
        r = self.get(URL + '/devices/not-a-uuid', status=404)
        self.assertFault(r, 404, 'device', 'not-a-uuid')
        # A deployable's UUID is not a device's.
        dep = self.db.list_accelerator_deployables(
            {'node_id': self.mine.id})[0]
        self.get(URL + '/devices/%s' % dep['uuid'], status=404)
        self.get(URL + '/devices/%s/extra' % dep['uuid'], status=404)

    def test_filter_node_by_uuid_or_name(self):
        self.assertEqual(['0000:3b:00.0', '0000:5e:00.0'],
                         self.listed('devices', 'node=mine'))
        self.assertEqual(['0000:3b:00.0', '0000:5e:00.0'],
                         self.listed('devices', 'node=%s' % self.mine.uuid))
        self.assertEqual(['0000:af:00.0'],
                         self.listed('devices', 'node=theirs'))
        empty = self.create_node(name='empty')
        self.assertEqual([], self.listed('devices', 'node=empty'))
        self.assertEqual([], self.listed('devices',
                                         'node=%s' % empty.uuid))

    def test_filter_unknown_node_404(self):
        r = self.get(URL + '/devices?node=nobody', status=404)
        self.assertFault(r, 404, 'nobody')
        uuid = uuidutils.generate_uuid()
        r = self.get(URL + '/devices?node=%s' % uuid, status=404)
        self.assertFault(r, 404, uuid)

    def test_filter_type(self):
        self.assertEqual(['0000:18:00.0', '0000:3b:00.0'],
                         self.listed('devices', 'type=GPU'))
        # Any case, as in the inventory.
        self.assertEqual(['0000:18:00.0', '0000:3b:00.0'],
                         self.listed('devices', 'type=gpu'))
        self.assertEqual(['0000:5e:00.0'],
                         self.listed('devices', 'type=FPGA&node=mine'))
        self.assertEqual([], self.listed('devices', 'type=AICHIP'))

    def test_filter_vendor_id_or_name(self):
        self.assertEqual(['0000:5e:00.0', '0000:af:00.0'],
                         self.listed('devices', 'vendor=8086'))
        self.assertEqual(['0000:5e:00.0', '0000:af:00.0'],
                         self.listed('devices', 'vendor=0x8086'))
        self.assertEqual(['0000:18:00.0', '0000:3b:00.0'],
                         self.listed('devices', 'vendor=nvidia'))
        self.assertEqual(['0000:5e:00.0', '0000:af:00.0'],
                         self.listed('devices', 'vendor=Intel'))
        self.assertEqual([], self.listed('devices', 'vendor=1002'))

    def test_filter_in_use_and_status(self):
        self.assertEqual(4, len(self.listed('devices', 'in_use=false')))
        self.assertEqual([], self.listed('devices', 'in_use=true'))
        self.take_handle(self.mine, '0000:3b:00.0')
        self.assertEqual(['0000:3b:00.0'],
                         self.listed('devices', 'in_use=true'))
        self.assertEqual(['0000:18:00.0', '0000:5e:00.0', '0000:af:00.0'],
                         self.listed('devices', 'in_use=False'))
        [dev] = self.get(URL + '/devices?in_use=true').json['devices']
        self.assertTrue(dev['in_use'])
        # The GPU vanishes while in use: kept, missing.
        self.populate(self.mine, [fpga()])
        self.assertEqual(['0000:3b:00.0'],
                         self.listed('devices', 'status=missing'))
        self.assertEqual(['0000:18:00.0', '0000:5e:00.0', '0000:af:00.0'],
                         self.listed('devices', 'status=enabled'))
        self.assertEqual([], self.listed('devices',
                                         'status=missing&node=leased'))

    def test_bad_filters_400_name_the_field(self):
        cases = [('in_use=yes', 'in_use'), ('in_use=1', 'in_use'),
                 ('in_use=', 'in_use'), ('type=FP-GA', 'type'),
                 ('type=', 'type'), ('type=%s' % ('A' * 33), 'type'),
                 ('type=GPU%0A', 'type'), ('status=gone', 'status'),
                 ('status=', 'status'), ('vendor=', 'vendor'),
                 ('vendor=%s' % ('v' * 256), 'vendor'),
                 ('vendor=80%0A86', 'vendor'), ('node=', 'node')]
        for query, field in cases:
            r = self.get(URL + '/devices?' + query, status=400)
            self.assert_field(r, 400, field)


class TestDeployables(AcceleratorAPITestCase):

    def test_list_and_tree(self):
        doc = self.get(URL + '/deployables?node=mine').json
        deps = doc['deployables']
        self.assertEqual(5, len(deps))
        fpga_dev = self.device(self.mine, '0000:5e:00.0')
        tree = [d for d in deps if d['device_uuid'] == fpga_dev['uuid']]
        kinds = sorted(d['kind'] for d in tree)
        self.assertEqual(['device', 'function', 'region', 'region'], kinds)
        [root] = [d for d in tree if d['kind'] == 'device']
        self.assertIsNone(root['parent_uuid'])
        self.assertEqual('mine_0000:5e:00.0', root['name'])
        for dep in tree:
            self.assertEqual(root['uuid'], dep['root_uuid'])
            self.assertEqual(self.mine.uuid, dep['node_uuid'])
        [function] = [d for d in tree if d['kind'] == 'function']
        self.assertEqual(FN1, function['function_uuid'])
        self.assertEqual('gzip', function['function_name'])
        self.assertEqual(
            'http://localhost/v1/accelerators/deployables/%s'
            % function['uuid'], function['links'][0]['href'])
        self.assertTrue(function['created_at'].endswith('+00:00'))

    def test_show(self):
        dep = self.db.list_accelerator_deployables(
            {'node_id': self.theirs.id})[0]
        doc = self.get(URL + '/deployables/%s' % dep['uuid']).json
        self.assertEqual(dep['uuid'], doc['uuid'])
        self.assertEqual('device', doc['kind'])
        self.assertEqual(self.theirs.uuid, doc['node_uuid'])
        self.assertEqual('bookmark', doc['links'][1]['rel'])
        r = self.get(URL + '/deployables/%s' % uuidutils.generate_uuid(),
                     status=404)
        self.assertFault(r, 404, 'deployable')

    def test_filters(self):
        self.assertEqual(7, len(self.listed('deployables', key='uuid')))
        gpu_dev = self.device(self.mine, '0000:3b:00.0')
        self.assertEqual(['mine_0000:3b:00.0'], self.listed(
            'deployables', 'device=%s' % gpu_dev['uuid'], key='name'))
        self.assertEqual([], self.listed(
            'deployables', 'device=%s' % uuidutils.generate_uuid(),
            key='name'))
        self.assertEqual(['leased_0000:18:00.0', 'mine_0000:3b:00.0'],
                         self.listed('deployables', 'type=GPU', key='name'))
        self.assertEqual(['leased_0000:18:00.0'], self.listed(
            'deployables', 'type=GPU&node=leased', key='name'))
        self.assertEqual(['theirs_0000:af:00.0'], self.listed(
            'deployables', 'type=QAT&vendor=8086', key='name'))
        self.assertEqual(5, len(self.listed('deployables', 'vendor=8086',
                                            key='name')))

    def test_bad_filters(self):
        for query, field, status in (
                ('device=nope', 'device', 400), ('type=a.b', 'type', 400),
                ('vendor=', 'vendor', 400)):
            r = self.get(URL + '/deployables?' + query, status=status)
            self.assert_field(r, status, field)
        r = self.get(URL + '/deployables?node=nobody', status=404)
        self.assertFault(r, 404, 'nobody')


class TestAttachHandles(AcceleratorAPITestCase):

    def test_list(self):
        doc = self.get(URL + '/attach_handles?node=mine').json
        handles = {h['pci_address']: h for h in doc['attach_handles']}
        # The FPGA's VFs, not its PF; the GPU's PF.
        self.assertEqual(['0000:3b:00.0', '0000:5e:00.1', '0000:5e:00.2'],
                         sorted(handles))
        vf = handles['0000:5e:00.1']
        self.assertEqual('PCI', vf['attach_type'])
        self.assertEqual('0000:5e:00.1', vf['attach_info']['bdf'])
        self.assertFalse(vf['in_use'])
        self.assertEqual('available', vf['status'])
        self.assertIsNone(vf['attachment_uuid'])
        self.assertEqual(self.device(self.mine, '0000:5e:00.0')['uuid'],
                         vf['device_uuid'])
        self.assertTrue(uuidutils.is_uuid_like(vf['deployable_uuid']))
        self.assertEqual(
            'http://localhost/v1/accelerators/attach_handles/%s'
            % vf['uuid'], vf['links'][0]['href'])

    def test_show(self):
        att = self.take_handle(self.theirs, '0000:af:00.2')
        doc = self.get(URL + '/attach_handles/%s'
                       % att['attach_handle_uuid']).json
        self.assertTrue(doc['in_use'])
        self.assertEqual(att['uuid'], doc['attachment_uuid'])
        self.assertEqual(self.theirs.uuid, doc['node_uuid'])
        r = self.get(URL + '/attach_handles/%s' % uuidutils.generate_uuid(),
                     status=404)
        self.assertFault(r, 404, 'attach handle')

    def test_filters(self):
        self.assertEqual(6, len(self.listed('attach_handles')))
        self.assertEqual(['0000:af:00.1', '0000:af:00.2'],
                         self.listed('attach_handles', 'node=theirs'))
        qat_dev = self.device(self.theirs, '0000:af:00.0')
        self.assertEqual(['0000:af:00.1', '0000:af:00.2'], self.listed(
            'attach_handles', 'device=%s' % qat_dev['uuid']))
        self.take_handle(self.theirs, '0000:af:00.1')
        self.assertEqual(['0000:af:00.1'],
                         self.listed('attach_handles', 'in_use=true'))
        self.assertEqual(['0000:af:00.2'], self.listed(
            'attach_handles', 'in_use=false&device=%s' % qat_dev['uuid']))
        self.assertEqual([], self.listed('attach_handles',
                                         'in_use=true&node=mine'))

    def test_bad_filters(self):
        for query, field in (('in_use=maybe', 'in_use'),
                             ('device=%s' % ('x' * 36), 'device'),
                             ('node=', 'node')):
            r = self.get(URL + '/attach_handles?' + query, status=400)
            self.assert_field(r, 400, field)
        self.get(URL + '/attach_handles?node=%s'
                 % uuidutils.generate_uuid(), status=404)


class TestNodeAccelerators(AcceleratorAPITestCase):

    def test_everything_about_a_node(self):
        att = self.take_handle(self.mine, '0000:5e:00.1')
        doc = self.get('/v1/nodes/mine/accelerators').json
        self.assertEqual(self.mine.uuid, doc['node_uuid'])
        self.assertEqual(['0000:3b:00.0', '0000:5e:00.0'],
                         sorted(d['pci_address'] for d in doc['devices']))
        self.assertEqual(5, len(doc['deployables']))
        self.assertEqual(3, len(doc['attach_handles']))
        for key in ('devices', 'deployables', 'attach_handles'):
            for item in doc[key]:
                self.assertEqual(self.mine.uuid, item['node_uuid'])
                self.assertEqual(
                    'http://localhost/v1/accelerators/%s/%s'
                    % (key, item['uuid']), item['links'][0]['href'])
                self.assertTrue(item['created_at'].endswith('+00:00'))
        [attachment] = doc['attachments']
        self.assertEqual(att['uuid'], attachment['uuid'])
        self.assertEqual('pending', attachment['state'])
        self.assertEqual('0000:5e:00.1', attachment['pci_address'])
        self.assertEqual('2030-01-01T12:00:00+00:00',
                         attachment['deadline'])
        for key in ('id', 'node_id', 'attach_handle_id'):
            self.assertNotIn(key, attachment)
        traits = {t['name']: t for t in doc['traits']}
        self.assertEqual({'kind': 'resource_class', 'total': 2, 'free': 1,
                          'name': 'FPGA'}, traits['FPGA'])
        self.assertEqual(1, traits['PGPU']['free'])
        self.assertIn('CUSTOM_GPU_NVIDIA_1DB4', traits)
        self.assertEqual('done', doc['discovery']['state'])
        self.assertTrue(doc['discovery']['reported_at'].endswith('+00:00'))
        self.assertNotIn('digest', doc['discovery'])
        # Accelerator traits are not the node's (operator) traits.
        self.assertEqual([], self.get('/v1/nodes/mine/traits').json[
            'traits'])

    def test_by_uuid_and_empty_node(self):
        doc = self.get('/v1/nodes/%s/accelerators' % self.theirs.uuid).json
        self.assertEqual(2, len(doc['attach_handles']))
        empty = self.create_node(name='empty')
        doc = self.get('/v1/nodes/empty/accelerators').json
        for key in ('devices', 'deployables', 'attach_handles',
                    'attachments', 'traits'):
            self.assertEqual([], doc[key], key)
        self.assertIsNone(doc['discovery'])
        self.assertEqual(empty.uuid, doc['node_uuid'])

    def test_unknown_node_404(self):
        r = self.get('/v1/nodes/nobody/accelerators', status=404)
        self.assertFault(r, 404, 'nobody')
        self.post('/v1/nodes/nobody/accelerators/discover', {}, status=404)
        self.assertFalse(self.discover.called)

    def test_discover_202(self):
        r = self.app.post('/v1/nodes/mine/accelerators/discover',
                          status=202)
        self.assertEqual(b'', r.body)
        self.discover.assert_called_once()
        _self, context, node = self.discover.call_args[0]
        self.assertEqual(self.mine.uuid, node.uuid)
        self.assertTrue(context.is_admin)
        self.post('/v1/nodes/%s/accelerators/discover' % self.theirs.uuid,
                  {}, status=202)
        self.assertEqual(self.theirs.uuid,
                         self.discover.call_args[0][2].uuid)

    def test_discover_without_agent_409(self):
        self.discover.side_effect = exception.InvalidState(
            'Node mine has no agent up: its accelerators cannot be '
            'discovered now.')
        r = self.post('/v1/nodes/mine/accelerators/discover', {},
                      status=409)
        self.assertFault(r, 409, 'no agent up')

    def test_methods(self):
        self.get('/v1/nodes/mine/accelerators/discover', status=405)
        self.app.post('/v1/nodes/mine/accelerators', status=405)
        self.app.delete('/v1/nodes/mine/accelerators', status=405)
        self.get('/v1/nodes/mine/accelerators/other', status=[404, 405])
        r = self.app.post('/v1/nodes/mine/accelerators/discover?foo=1',
                          status=400)
        self.assert_field(r, 400, 'foo')
        self.assertFalse(self.discover.called)


class TestPolicy(test_auth.KeystoneTestCase, AcceleratorAPITestCase):

    with_conductor = False

    def test_admin_and_system_reader_see_all(self):
        for headers in (self.system('admin'), self.system('reader')):
            self.assertEqual(4, len(self.listed('devices',
                                                headers=headers)))
            self.assertEqual(6, len(self.listed('attach_handles',
                                                headers=headers)))
            self.get('/v1/nodes/theirs/accelerators', headers=headers)
            dev = self.device(self.theirs, '0000:af:00.0')
            self.get(URL + '/devices/%s' % dev['uuid'], headers=headers)

    def test_project_reader_sees_owned_and_leased(self):
        for role in ('reader', 'member', 'admin'):
            headers = self.project(role)
            self.get(URL, headers=headers)
            self.assertEqual(['0000:18:00.0', '0000:3b:00.0',
                              '0000:5e:00.0'],
                             self.listed('devices', headers=headers))
            self.assertEqual(6, len(self.listed('deployables',
                                                headers=headers,
                                                key='uuid')))
            self.assertEqual(4, len(self.listed('attach_handles',
                                                headers=headers)))
            self.assertEqual(['0000:18:00.0'], self.listed(
                'devices', 'node=leased', headers=headers))
            self.get('/v1/nodes/mine/accelerators', headers=headers)
            self.get('/v1/nodes/leased/accelerators', headers=headers)
            dev = self.device(self.mine, '0000:5e:00.0')
            self.get(URL + '/devices/%s' % dev['uuid'], headers=headers)

    def test_other_project_sees_nothing_of_mine(self):
        headers = self.project('reader', project='p2')
        self.assertEqual(['0000:af:00.0'],
                         self.listed('devices', headers=headers))
        headers = self.project('reader', project='p3')
        for resource in ('devices', 'deployables', 'attach_handles'):
            self.assertEqual([], self.listed(resource, headers=headers))
        # Another project's node and records are not found, not refused.
        r = self.get('/v1/nodes/mine/accelerators', headers=headers,
                     status=404)
        self.assertFault(r, 404, 'mine')
        r = self.get(URL + '/devices?node=mine', headers=headers,
                     status=404)
        self.assertFault(r, 404, 'mine')
        dev = self.device(self.mine, '0000:5e:00.0')
        r = self.get(URL + '/devices/%s' % dev['uuid'], headers=headers,
                     status=404)
        self.assertFault(r, 404, dev['uuid'])
        dep = self.db.list_accelerator_deployables(
            {'node_id': self.mine.id})[0]
        self.get(URL + '/deployables/%s' % dep['uuid'], headers=headers,
                 status=404)
        handle = self.db.list_accelerator_attach_handles(
            {'node_id': self.leased.id})[0]
        self.get(URL + '/attach_handles/%s' % handle['uuid'],
                 headers=headers, status=404)

    def _policy_file(self, text):
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'policy.yaml')
        with open(path, 'w') as f:
            f.write(text)
        self.config(policy_file=path, group='oslo_policy')
        policy.reset()

    def test_rule_narrowed_to_owners(self):
        # A policy letting owners' readers in but not lessees': the
        # leased node's records leave lists, and its shows are refused.
        self._policy_file('"baremetal:accelerator:get": "rule:admin or '
                          'rule:system_reader or rule:owner_reader"\n')
        headers = self.project('reader')
        self.assertEqual(['0000:3b:00.0', '0000:5e:00.0'],
                         self.listed('devices', headers=headers))
        self.assertEqual(3, len(self.listed('attach_handles',
                                            headers=headers)))
        dev = self.device(self.leased, '0000:18:00.0')
        self.get(URL + '/devices/%s' % dev['uuid'], headers=headers,
                 status=403)
        self.get('/v1/nodes/leased/accelerators', headers=headers,
                 status=403)

    def test_no_role_or_no_project_403(self):
        for headers in (self.project('nothing'), {'X-Roles': 'reader'}):
            for url in (URL, URL + '/devices', URL + '/deployables',
                        URL + '/attach_handles'):
                r = self.get(url, headers=headers, status=403)
                self.assertFault(r, 403, 'baremetal:accelerator:get')

    def test_discover_admin_only(self):
        for headers in (self.project('admin'), self.project('member'),
                        self.system('reader'), self.system('member')):
            r = self.post('/v1/nodes/mine/accelerators/discover', {},
                          headers=headers, status=403)
            self.assertFault(r, 403, 'baremetal:accelerator:discover')
        # Another project's node: not found.
        self.post('/v1/nodes/theirs/accelerators/discover', {},
                  headers=self.project('admin'), status=404)
        self.assertFalse(self.discover.called)
        self.post('/v1/nodes/mine/accelerators/discover', {},
                  headers=self.system('admin'), status=202)
        self.assertEqual(self.mine.uuid,
                         self.discover.call_args[0][2].uuid)
