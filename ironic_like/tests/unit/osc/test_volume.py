"""``openstack baremetal volume connector|target ...``: arguments to
requests."""

from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc.v1 import volume
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes

VC_UUID = '6be26c0b-03f2-4d2e-ae87-c02d7f33c128'
VT_UUID = '7be26c0b-03f2-4d2e-ae87-c02d7f33c129'


def connector(**fields):
    doc = {'uuid': VC_UUID, 'node_uuid': fakes.NODE_UUID, 'type': 'iqn',
           'connector_id': 'iqn.2010-10.org.openstack:n', 'extra': {},
           'links': []}
    doc.update(fields)
    return doc


def target(**fields):
    doc = {'uuid': VT_UUID, 'node_uuid': fakes.NODE_UUID,
           'volume_type': 'iscsi', 'boot_index': 0, 'volume_id': 'v1',
           'properties': {}, 'extra': {}, 'links': []}
    doc.update(fields)
    return doc


class TestVolumeConnector(base.CommandTestCase):

    MAX_VERSION = '1.61'

    def setUp(self):
        super().setUp()
        self.session.route('GET', '/v1/nodes/node-0', fakes.FakeResponse(
            200, {'uuid': fakes.NODE_UUID}))
        self.session.route('POST', '/v1/volume/connectors',
                           fakes.FakeResponse(201, connector()))
        self.session.route('GET', '/v1/volume/connectors',
                           fakes.FakeResponse(200, {'connectors': [
                               connector()]}))
        self.session.route('GET', '/v1/volume/connectors/%s' % VC_UUID,
                           fakes.FakeResponse(200, connector()))
        self.session.route('PATCH', '/v1/volume/connectors/%s' % VC_UUID,
                           fakes.FakeResponse(200, connector()))
        self.session.route('DELETE', '/v1/volume/connectors/.*',
                           fakes.FakeResponse(204))

    def test_create(self):
        shown = self.as_dict(self.run_command(
            volume.CreateVolumeConnector, [
                '--node', 'node-0', '--type', 'iqn',
                '--connector-id', 'iqn.x', '--uuid', VC_UUID,
                '--extra', 'a=1']))
        self.assertRequest(self.last(), 'POST', '/v1/volume/connectors',
                           body={'node_uuid': fakes.NODE_UUID, 'type': 'iqn',
                                 'connector_id': 'iqn.x', 'uuid': VC_UUID,
                                 'extra': {'a': 1}})
        self.assertEqual('1.61', self.last().headers[http.VERSION_HEADER])
        self.assertEqual(VC_UUID, shown['uuid'])
        self.assertNotIn('links', shown)

    def test_create_required_and_type(self):
        self.assertParseFails(volume.CreateVolumeConnector,
                              ['--node', 'n', '--type', 'iqn'])
        self.assertParseFails(volume.CreateVolumeConnector, [
            '--node', 'n', '--type', 'nope', '--connector-id', 'x'])

    def test_list(self):
        titles, rows = self.rows(self.run_command(
            volume.ListVolumeConnector, ['--node', 'node-0']))
        self.assertEqual(('UUID', 'Node UUID', 'Type', 'Connector ID'),
                         titles)
        self.assertEqual([(VC_UUID, fakes.NODE_UUID, 'iqn',
                           'iqn.2010-10.org.openstack:n')], rows)
        self.assertRequest(self.last(), 'GET', '/v1/volume/connectors',
                           params={'node': 'node-0'})

    def test_list_long(self):
        titles, _rows = self.rows(self.run_command(
            volume.ListVolumeConnector, ['--long', '--limit', '1']))
        self.assertEqual({'detail': 'True', 'limit': 1},
                         self.last().params)
        self.assertIn('Extra', titles)

    def test_show(self):
        shown = self.as_dict(self.run_command(volume.ShowVolumeConnector,
                                              [VC_UUID]))
        self.assertEqual('iqn', shown['type'])

    def test_set_unset(self):
        self.run_command(volume.SetVolumeConnector, [
            VC_UUID, '--node', fakes.NODE_UUID2, '--type', 'ip',
            '--connector-id', '10.0.0.1', '--extra', 'k=v'])
        self.assertEqual([
            {'op': 'add', 'path': '/node_uuid', 'value': fakes.NODE_UUID2},
            {'op': 'add', 'path': '/type', 'value': 'ip'},
            {'op': 'add', 'path': '/connector_id', 'value': '10.0.0.1'},
            {'op': 'add', 'path': '/extra/k', 'value': 'v'}],
            self.last().body)
        self.run_command(volume.UnsetVolumeConnector,
                         [VC_UUID, '--extra', 'k'])
        self.assertEqual([{'op': 'remove', 'path': '/extra/k'}],
                         self.last().body)

    def test_delete(self):
        self.run_command(volume.DeleteVolumeConnector, ['a', 'b'])
        self.assertEqual(['/v1/volume/connectors/a',
                          '/v1/volume/connectors/b'],
                         [r.path for r in self.requests()])


class TestVolumeTarget(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('POST', '/v1/volume/targets',
                           fakes.FakeResponse(201, target()))
        self.session.route('GET', '/v1/volume/targets',
                           fakes.FakeResponse(200, {'targets': [target()]}))
        self.session.route('GET', '/v1/volume/targets/%s' % VT_UUID,
                           fakes.FakeResponse(200, target()))
        self.session.route('PATCH', '/v1/volume/targets/%s' % VT_UUID,
                           fakes.FakeResponse(200, target()))
        self.session.route('DELETE', '/v1/volume/targets/.*',
                           fakes.FakeResponse(204))

    def test_create(self):
        self.run_command(volume.CreateVolumeTarget, [
            '--node', fakes.NODE_UUID, '--type', 'iscsi',
            '--boot-index', '0', '--volume-id', 'v1',
            '--property', 'target_lun=0', '--extra', 'a=b'])
        self.assertRequest(self.last(), 'POST', '/v1/volume/targets', body={
            'node_uuid': fakes.NODE_UUID, 'volume_type': 'iscsi',
            'boot_index': 0, 'volume_id': 'v1',
            'properties': {'target_lun': 0}, 'extra': {'a': 'b'}})
        self.assertEqual(1, len(self.requests()))

    def test_create_required(self):
        self.assertParseFails(volume.CreateVolumeTarget, [
            '--node', 'n', '--type', 'iscsi', '--volume-id', 'v'])
        self.assertParseFails(volume.CreateVolumeTarget, [
            '--node', 'n', '--type', 'iscsi', '--volume-id', 'v',
            '--boot-index', 'first'])

    def test_list(self):
        titles, rows = self.rows(self.run_command(volume.ListVolumeTarget,
                                                  []))
        self.assertEqual(('UUID', 'Node UUID', 'Volume Type', 'Boot Index',
                          'Volume ID'), titles)
        self.assertEqual([(VT_UUID, fakes.NODE_UUID, 'iscsi', 0, 'v1')],
                         rows)

    def test_show(self):
        shown = self.as_dict(self.run_command(volume.ShowVolumeTarget,
                                              [VT_UUID, '--fields',
                                               'uuid']))
        self.assertEqual({'fields': 'uuid'}, self.last().params)
        self.assertEqual(VT_UUID, shown['uuid'])

    def test_set_unset(self):
        self.run_command(volume.SetVolumeTarget, [
            VT_UUID, '--type', 'fibre_channel', '--boot-index', '1',
            '--volume-id', 'v2', '--property', 'lun=1'])
        self.assertEqual([
            {'op': 'add', 'path': '/volume_type', 'value': 'fibre_channel'},
            {'op': 'add', 'path': '/boot_index', 'value': 1},
            {'op': 'add', 'path': '/volume_id', 'value': 'v2'},
            {'op': 'add', 'path': '/properties/lun', 'value': 1}],
            self.last().body)
        self.run_command(volume.UnsetVolumeTarget,
                         [VT_UUID, '--property', 'lun', '--extra', 'e'])
        self.assertEqual([{'op': 'remove', 'path': '/properties/lun'},
                          {'op': 'remove', 'path': '/extra/e'}],
                         self.last().body)

    def test_delete_failure(self):
        self.session.route('DELETE', '/v1/volume/targets/b',
                           fakes.fault(404, 'Volume target b could not be '
                                            'found.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              volume.DeleteVolumeTarget, ['a', 'b'])
        self.assertIn('volume target b', str(e))
        self.assertIn('Deleted volume target a', self.app.stdout.getvalue())


class TestVolumeOldServer(base.CommandTestCase):

    MAX_VERSION = '1.31'

    def test_refused(self):
        for command_class, argv in (
                (volume.CreateVolumeConnector, [
                    '--node', fakes.NODE_UUID, '--type', 'iqn',
                    '--connector-id', 'x']),
                (volume.ListVolumeConnector, []),
                (volume.ShowVolumeConnector, ['x']),
                (volume.SetVolumeConnector, ['x', '--node', 'n']),
                (volume.UnsetVolumeConnector, ['x', '--extra', 'k']),
                (volume.DeleteVolumeConnector, ['x']),
                (volume.CreateVolumeTarget, [
                    '--node', fakes.NODE_UUID, '--type', 'iscsi',
                    '--boot-index', '0', '--volume-id', 'v']),
                (volume.ListVolumeTarget, ['--node', 'n']),
                (volume.ShowVolumeTarget, ['x']),
                (volume.SetVolumeTarget, ['x', '--volume-id', 'v']),
                (volume.UnsetVolumeTarget, ['x', '--extra', 'k']),
                (volume.DeleteVolumeTarget, ['x'])):
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  command_class, argv)
            self.assertIn('API version 1.32', str(e))
        self.assertEqual([], self.requests())
