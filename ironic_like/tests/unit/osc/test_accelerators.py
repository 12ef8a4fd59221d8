"""``openstack baremetal accelerator ...``, ``node accelerators`` and
``node accelerator discover``: options to requests, columns, errors, the
--wait of a discovery."""

import configparser
import io

from osc_lib import exceptions as osc_exc
import testtools

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import accelerator as acc
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes
from ironic_like.tests.unit.osc import test_plugin

DEVICE_UUID = '5be26c0b-03f2-4d2e-ae87-c02d7f33c127'
DEPLOYABLE_UUID = '6be26c0b-03f2-4d2e-ae87-c02d7f33c128'
HANDLE_UUID = '7be26c0b-03f2-4d2e-ae87-c02d7f33c129'
ATTACHMENT_UUID = '8be26c0b-03f2-4d2e-ae87-c02d7f33c12a'
REGION_TYPE = '9be26c0b-03f2-4d2e-ae87-c02d7f33c12b'
FUNCTION = 'abe26c0b-03f2-4d2e-ae87-c02d7f33c12c'
TRAIT = 'CUSTOM_FPGA_INTEL_REGION_' + REGION_TYPE.upper().replace('-', '_')
NODE_ACC_PATH = '/v1/nodes/node-0/accelerators'
DISCOVER_PATH = NODE_ACC_PATH + '/discover'


def device(**fields):
    doc = {'uuid': DEVICE_UUID, 'node_uuid': fakes.NODE_UUID,
           'type': 'FPGA', 'vendor': '8086', 'vendor_name': 'Intel',
           'model': 'PAC Arria10', 'product_id': '09c4',
           'pci_address': '0000:5e:00.0',
           'std_board_info': {'slot': 3}, 'status': 'enabled',
           'in_use': False, 'created_at': '2024-05-01T10:00:00',
           'updated_at': None}
    doc.update(fields)
    return doc


def deployable(**fields):
    doc = {'uuid': DEPLOYABLE_UUID, 'node_uuid': fakes.NODE_UUID,
           'device_uuid': DEVICE_UUID, 'parent_uuid': None,
           'root_uuid': DEPLOYABLE_UUID,
           'name': 'node-0_0000:5e:00.0_region0', 'kind': 'region',
           'num_accelerators': 1, 'driver_name': 'fpga_agent',
           'resource_class': 'FPGA', 'region_type_uuid': REGION_TYPE,
           'partial_reconfiguration': True, 'function_uuid': FUNCTION,
           'function_name': 'gzip', 'bitstream_id': 'img-1',
           'created_at': '2024-05-01T10:00:00', 'updated_at': None}
    doc.update(fields)
    return doc


def handle(**fields):
    doc = {'uuid': HANDLE_UUID, 'node_uuid': fakes.NODE_UUID,
           'device_uuid': DEVICE_UUID, 'deployable_uuid': DEPLOYABLE_UUID,
           'attach_type': 'PCI', 'attach_info': {'bdf': '0000:5e:00.1'},
           'pci_address': '0000:5e:00.1', 'resource_class': 'FPGA',
           'traits': [TRAIT], 'in_use': True, 'status': 'available',
           'attachment_uuid': ATTACHMENT_UUID,
           'created_at': '2024-05-01T10:00:00', 'updated_at': None}
    doc.update(fields)
    return doc


def attachment(**fields):
    doc = {'uuid': ATTACHMENT_UUID, 'node_uuid': fakes.NODE_UUID,
           'instance_uuid': 'inst-1', 'instance_name': 'vm-1',
           'project_id': 'p1', 'request_index': 0,
           'deployable_uuid': DEPLOYABLE_UUID,
           'attach_handle_uuid': HANDLE_UUID,
           'pci_address': '0000:5e:00.1', 'bitstream_id': 'img-1',
           'state': 'attached', 'conductor': 'c1', 'deadline': None,
           'last_error': None, 'created_at': '2024-05-01T10:00:00',
           'updated_at': None}
    doc.update(fields)
    return doc


def node_accelerators(state='done', error=None, reported_at='t1',
                      **fields):
    doc = {'devices': [device(in_use=True)],
           'deployables': [deployable()],
           'attach_handles': [handle()],
           'attachments': [attachment()],
           'traits': [{'name': TRAIT, 'kind': 'trait', 'total': 2,
                       'free': 1},
                      {'name': 'FPGA', 'kind': 'resource_class',
                       'total': 2, 'free': 1}],
           'discovery': None if state is None else {
               'state': state, 'error': error,
               'reported_at': reported_at}}
    doc.update(fields)
    return doc


def ok(doc):
    return fakes.FakeResponse(200, doc)


class AcceleratorTestCase(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.clock = fakes.FakeClock()
        self.app.stderr = io.StringIO()

    def run_command(self, command_class, argv):
        cmd, parsed = self.parse(command_class, argv)
        cmd.clock = self.clock.monotonic
        cmd.sleep = self.clock.sleep
        return cmd.take_action(parsed)

    def assertNoVersionHeader(self):
        # /v1/accelerators takes no Ironic microversion: nothing
        # negotiated, nothing sent.
        self.assertEqual([], [r for r in self.session.requests
                              if r.path == '/'])
        for request in self.requests():
            self.assertNotIn(http.VERSION_HEADER, request.headers)

    def list_params(self, command_class, path, key, argv):
        """The query of ``argv``."""
        self.session.route('GET', path, ok({key: []}))
        self.run_command(command_class, argv)
        self.assertEqual(path, self.last().path)
        return self.last().params


# -- devices ----------------------------------------------------------------

class TestDevices(AcceleratorTestCase):

    PATH = '/v1/accelerators/devices'

    def params(self, argv):
        return self.list_params(acc.ListAcceleratorDevice, self.PATH,
                                'devices', argv)

    def test_list(self):
        self.session.route('GET', self.PATH, ok({'devices': [
            device(), device(uuid='d2', type='GPU', vendor='10de',
                             model=None, status='missing', in_use=True)]}))
        titles, rows = self.rows(self.run_command(acc.ListAcceleratorDevice,
                                                  []))
        self.assertRequest(self.last(), 'GET', self.PATH, params={})
        self.assertEqual(('UUID', 'Node', 'Type', 'Vendor', 'Model',
                          'PCI Address', 'Status', 'In Use'), titles)
        self.assertEqual([
            (DEVICE_UUID, fakes.NODE_UUID, 'FPGA', '8086', 'PAC Arria10',
             '0000:5e:00.0', 'enabled', False),
            ('d2', fakes.NODE_UUID, 'GPU', '10de', None, '0000:5e:00.0',
             'missing', True)], rows)
        self.assertNoVersionHeader()

    def test_list_long(self):
        self.session.route('GET', self.PATH, ok({'devices': [
            device(new_field='x', links=[{'rel': 'self'}])]}))
        titles, rows = self.rows(self.run_command(acc.ListAcceleratorDevice,
                                                  ['--long']))
        self.assertEqual(('UUID', 'Node', 'Type', 'Vendor', 'Model',
                          'PCI Address', 'Status', 'In Use', 'Product ID',
                          'Vendor Name', 'Board Info', 'Created At',
                          'Updated At', 'New Field'), titles)
        self.assertEqual(('09c4', 'Intel', {'slot': 3},
                          '2024-05-01T10:00:00', None, 'x'), rows[0][8:])
        self.assertEqual({}, self.last().params)

    def test_each_filter(self):
        self.assertEqual({'node': 'node-0'}, self.params(['--node',
                                                          'node-0']))
        self.assertEqual({'type': 'FPGA'}, self.params(['--type', 'fpga']))
        self.assertEqual({'vendor': '8086'}, self.params(['--vendor',
                                                          '8086']))
        self.assertEqual({'in_use': 'true'}, self.params(['--in-use']))
        self.assertEqual({'in_use': 'false'}, self.params(['--free']))
        self.assertEqual({'status': 'missing'},
                         self.params(['--status', 'missing']))

    def test_filters_together(self):
        self.assertEqual(
            {'node': fakes.NODE_UUID, 'type': 'GPU', 'vendor': '10de',
             'in_use': 'false', 'status': 'enabled'},
            self.params(['--node', fakes.NODE_UUID, '--type', 'GPU',
                         '--vendor', '10de', '--free', '--status',
                         'enabled', '--long']))

    def test_in_use_and_free_exclusive(self):
        self.assertParseFails(acc.ListAcceleratorDevice,
                              ['--in-use', '--free'])

    def test_bad_status(self):
        self.assertParseFails(acc.ListAcceleratorDevice,
                              ['--status', 'broken'])

    def test_follows_pages(self):
        self.session.route('GET', self.PATH, *[
            ok({'devices': [device()],
                'next': 'http://elsewhere/v1/accelerators/devices?'
                        'marker=%s' % DEVICE_UUID}),
            ok({'devices': [device(uuid='d2')]})])
        _titles, rows = self.rows(self.run_command(
            acc.ListAcceleratorDevice, ['--type', 'FPGA']))
        self.assertEqual(2, len(rows))
        self.assertEqual({'type': 'FPGA', 'marker': DEVICE_UUID},
                         self.last().params)

    def test_list_error(self):
        self.session.route('GET', self.PATH, fakes.fault(
            400, 'Invalid boolean value for in_use: "maybe"'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              acc.ListAcceleratorDevice, ['--in-use'])
        self.assertEqual('Invalid boolean value for in_use: "maybe" '
                         '(HTTP 400)', str(e))

    def test_show(self):
        self.session.route('GET', self.PATH + '/' + DEVICE_UUID,
                           ok(device(links=[{'rel': 'self'}])))
        shown = self.as_dict(self.run_command(acc.ShowAcceleratorDevice,
                                              [DEVICE_UUID]))
        self.assertEqual('FPGA', shown['type'])
        self.assertEqual('0000:5e:00.0', shown['pci_address'])
        self.assertEqual({'slot': 3}, shown['std_board_info']._value)
        self.assertNotIn('links', shown)
        self.assertNoVersionHeader()

    def test_show_not_found(self):
        self.session.route('GET', self.PATH + '/nope', fakes.fault(
            404, 'Accelerator device nope could not be found.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              acc.ShowAcceleratorDevice, ['nope'])
        self.assertEqual('Accelerator device nope could not be found. '
                         '(HTTP 404)', str(e))

    def test_show_quotes_the_uuid(self):
        self.session.route('GET', self.PATH + '/a%2Fb', ok(device()))
        self.run_command(acc.ShowAcceleratorDevice, ['a/b'])
        self.assertEqual(self.PATH + '/a%2Fb', self.last().path)

    def test_show_needs_uuid(self):
        self.assertParseFails(acc.ShowAcceleratorDevice, [])


# -- deployables ------------------------------------------------------------

class TestDeployables(AcceleratorTestCase):

    PATH = '/v1/accelerators/deployables'

    def params(self, argv):
        return self.list_params(acc.ListAcceleratorDeployable, self.PATH,
                                'deployables', argv)

    def test_list(self):
        self.session.route('GET', self.PATH, ok({'deployables': [
            deployable(),
            deployable(uuid='dp2', kind='device', function_name=None,
                       function_uuid=None, region_type_uuid=None,
                       bitstream_id=None),
            deployable(uuid='dp3', kind='function', function_name=None)]}))
        titles, rows = self.rows(self.run_command(
            acc.ListAcceleratorDeployable, []))
        self.assertEqual(('UUID', 'Node', 'Name', 'Kind', 'Resource Class',
                          'Region Type', 'Function', 'Bitstream'), titles)
        self.assertEqual(
            (DEPLOYABLE_UUID, fakes.NODE_UUID,
             'node-0_0000:5e:00.0_region0', 'region', 'FPGA', REGION_TYPE,
             'gzip', 'img-1'), rows[0])
        self.assertEqual((None, None, None), rows[1][5:])
        # No function name: its UUID.
        self.assertEqual(FUNCTION, rows[2][6])
        self.assertNoVersionHeader()

    def test_list_long(self):
        self.session.route('GET', self.PATH, ok({'deployables': [
            deployable()]}))
        titles, rows = self.rows(self.run_command(
            acc.ListAcceleratorDeployable, ['--long']))
        for title in ('Device UUID', 'Parent UUID', 'Root UUID',
                      'Num Accelerators', 'Driver Name',
                      'Partial Reconfiguration', 'Function UUID',
                      'Function Name', 'Created At', 'Updated At'):
            self.assertIn(title, titles)
        shown = dict(zip(titles, rows[0]))
        self.assertEqual('fpga_agent', shown['Driver Name'])
        self.assertEqual(FUNCTION, shown['Function UUID'])
        self.assertEqual(len(titles), len(set(titles)))

    def test_each_filter(self):
        self.assertEqual({'node': 'node-0'},
                         self.params(['--node', 'node-0']))
        self.assertEqual({'device': DEVICE_UUID},
                         self.params(['--device', DEVICE_UUID]))
        self.assertEqual({'type': 'FPGA'}, self.params(['--type', 'FPGA']))
        self.assertEqual({'vendor': '10ee'},
                         self.params(['--vendor', '10ee']))
        self.assertEqual({}, self.params([]))

    def test_no_in_use_filter(self):
        self.assertParseFails(acc.ListAcceleratorDeployable, ['--in-use'])

    def test_show(self):
        self.session.route('GET', self.PATH + '/' + DEPLOYABLE_UUID,
                           ok(deployable()))
        shown = self.as_dict(self.run_command(acc.ShowAcceleratorDeployable,
                                              [DEPLOYABLE_UUID]))
        self.assertEqual('region', shown['kind'])
        self.assertEqual('gzip', shown['function_name'])

    def test_show_not_found(self):
        self.session.route('GET', self.PATH + '/' + DEPLOYABLE_UUID,
                           fakes.fault(404, 'Accelerator deployable %s '
                                            'could not be found.'
                                       % DEPLOYABLE_UUID))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              acc.ShowAcceleratorDeployable,
                              [DEPLOYABLE_UUID])
        self.assertEqual('Accelerator deployable %s could not be found. '
                         '(HTTP 404)' % DEPLOYABLE_UUID, str(e))


# -- attach handles ---------------------------------------------------------

class TestAttachHandles(AcceleratorTestCase):

    PATH = '/v1/accelerators/attach_handles'

    def params(self, argv):
        return self.list_params(acc.ListAcceleratorAttachHandle, self.PATH,
                                'attach_handles', argv)

    def test_list(self):
        self.session.route('GET', self.PATH, ok({'attach_handles': [
            handle(), handle(uuid='h2', in_use=False, status='missing',
                             traits=[])]}))
        titles, rows = self.rows(self.run_command(
            acc.ListAcceleratorAttachHandle, []))
        self.assertEqual(('UUID', 'Node', 'PCI Address', 'Type', 'In Use',
                          'Status', 'Traits'), titles)
        self.assertEqual([
            (HANDLE_UUID, fakes.NODE_UUID, '0000:5e:00.1', 'PCI', True,
             'available', [TRAIT]),
            ('h2', fakes.NODE_UUID, '0000:5e:00.1', 'PCI', False, 'missing',
             [])], rows)
        self.assertNoVersionHeader()

    def test_list_long(self):
        self.session.route('GET', self.PATH, ok({'attach_handles': [
            handle()]}))
        titles, rows = self.rows(self.run_command(
            acc.ListAcceleratorAttachHandle, ['--long']))
        shown = dict(zip(titles, rows[0]))
        self.assertEqual({'bdf': '0000:5e:00.1'}, shown['Attach Info'])
        self.assertEqual(ATTACHMENT_UUID, shown['Attachment UUID'])
        self.assertEqual(DEPLOYABLE_UUID, shown['Deployable UUID'])
        self.assertEqual('FPGA', shown['Resource Class'])

    def test_each_filter(self):
        self.assertEqual({'node': 'node-0'},
                         self.params(['--node', 'node-0']))
        self.assertEqual({'device': DEVICE_UUID},
                         self.params(['--device', DEVICE_UUID]))
        self.assertEqual({'in_use': 'true'}, self.params(['--in-use']))
        self.assertEqual({'in_use': 'false'}, self.params(['--free']))

    def test_in_use_and_free_exclusive(self):
        self.assertParseFails(acc.ListAcceleratorAttachHandle,
                              ['--free', '--in-use'])

    def test_show(self):
        self.session.route('GET', self.PATH + '/' + HANDLE_UUID,
                           ok(handle()))
        shown = self.as_dict(self.run_command(
            acc.ShowAcceleratorAttachHandle, [HANDLE_UUID]))
        self.assertEqual('PCI', shown['attach_type'])
        self.assertEqual([TRAIT], shown['traits']._value)
        self.assertNoVersionHeader()

    def test_show_not_found(self):
        self.session.route('GET', self.PATH + '/h9', fakes.fault(
            404, 'Accelerator attach handle h9 could not be found.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              acc.ShowAcceleratorAttachHandle, ['h9'])
        self.assertEqual('Accelerator attach handle h9 could not be found. '
                         '(HTTP 404)', str(e))


# -- node accelerators ------------------------------------------------------

class TestNodeAccelerators(AcceleratorTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('GET', NODE_ACC_PATH, ok(node_accelerators()))

    def test_traits_by_default(self):
        titles, rows = self.rows(self.run_command(acc.ShowNodeAccelerators,
                                                  ['node-0']))
        self.assertRequest(self.last(), 'GET', NODE_ACC_PATH)
        # No microversion (a node is named by name or UUID whatever the
        # version): nothing negotiated.
        self.assertNoVersionHeader()
        self.assertEqual(('Name', 'Kind', 'Total', 'Free'), titles)
        self.assertEqual([(TRAIT, 'trait', 2, 1),
                          ('FPGA', 'resource_class', 2, 1)], rows)

    def test_traits_then_discovery_state(self):
        cmd, parsed = self.parse(acc.ShowNodeAccelerators, ['node-0'])
        self.assertEqual(0, cmd.run(parsed))
        out = self.app.stdout.getvalue()
        self.assertIn('| %s | trait' % TRAIT, out)
        self.assertEqual('Accelerator discovery: done (reported at t1).\n',
                         self.app.stderr.getvalue())

    def test_discovery_state_texts(self):
        self.assertEqual(
            'Accelerator discovery: never run (openstack baremetal node '
            'accelerator discover n1).', acc.discovery_text({}, 'n1'))
        self.assertEqual(
            'Accelerator discovery: failed: no agent answered (reported '
            'at t2).',
            acc.discovery_text({'state': 'failed',
                                'error': 'no agent\n answered',
                                'reported_at': 't2'}, 'n1'))
        self.assertEqual('Accelerator discovery: discovering.',
                         acc.discovery_text({'state': 'discovering'},
                                            'n1'))

    def test_never_discovered(self):
        self.session.route('GET', NODE_ACC_PATH, ok(node_accelerators(
            state=None, traits=[], devices=[])))
        cmd, parsed = self.parse(acc.ShowNodeAccelerators, ['node-0'])
        self.assertEqual(0, cmd.run(parsed))
        self.assertIn('never run', self.app.stderr.getvalue())

    def test_sections(self):
        expected = {
            'devices': (('UUID', 'Type', 'Vendor', 'Model', 'PCI Address',
                         'Status', 'In Use'),
                        (DEVICE_UUID, 'FPGA', '8086', 'PAC Arria10',
                         '0000:5e:00.0', 'enabled', True)),
            'deployables': (('UUID', 'Name', 'Kind', 'Resource Class',
                             'Region Type', 'Function', 'Bitstream'),
                            (DEPLOYABLE_UUID, 'node-0_0000:5e:00.0_region0',
                             'region', 'FPGA', REGION_TYPE, 'gzip',
                             'img-1')),
            'attach_handles': (('UUID', 'PCI Address', 'Type', 'In Use',
                                'Status', 'Traits'),
                               (HANDLE_UUID, '0000:5e:00.1', 'PCI', True,
                                'available', [TRAIT])),
            'attachments': (('UUID', 'Instance UUID', 'Request Index',
                             'State', 'PCI Address', 'Bitstream',
                             'Last Error'),
                            (ATTACHMENT_UUID, 'inst-1', 0, 'attached',
                             '0000:5e:00.1', 'img-1', None)),
        }
        for section, (titles, row) in expected.items():
            result = self.rows(self.run_command(
                acc.ShowNodeAccelerators, ['node-0', '--section', section]))
            self.assertEqual((titles, [row]), result, section)

    def test_section_with_dashes(self):
        titles, _rows = self.rows(self.run_command(
            acc.ShowNodeAccelerators,
            ['node-0', '--section', 'attach-handles']))
        self.assertEqual('PCI Address', titles[1])

    def test_section_long(self):
        titles, rows = self.rows(self.run_command(
            acc.ShowNodeAccelerators,
            ['node-0', '--section', 'attachments', '--long']))
        shown = dict(zip(titles, rows[0]))
        self.assertEqual('vm-1', shown['Instance Name'])
        self.assertEqual('c1', shown['Conductor'])
        # One node: no node column.
        self.assertNotIn('Node', titles)
        self.assertNotIn('Node UUID', titles)

    def test_section_without_discovery_line(self):
        cmd, parsed = self.parse(acc.ShowNodeAccelerators,
                                 ['node-0', '--section', 'devices'])
        self.assertEqual(0, cmd.run(parsed))
        self.assertEqual('', self.app.stderr.getvalue())

    def test_bad_section(self):
        self.assertParseFails(acc.ShowNodeAccelerators,
                              ['node-0', '--section', 'regions'])

    def test_missing_section_is_empty(self):
        self.session.route('GET', NODE_ACC_PATH, ok({'traits': []}))
        titles, rows = self.rows(self.run_command(
            acc.ShowNodeAccelerators, ['node-0', '--section', 'devices']))
        self.assertEqual('UUID', titles[0])
        self.assertEqual([], rows)

    def test_node_not_found(self):
        self.session.route('GET', '/v1/nodes/n9/accelerators', fakes.fault(
            404, 'Node n9 could not be found.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              acc.ShowNodeAccelerators, ['n9'])
        self.assertEqual('Node n9 could not be found. (HTTP 404)', str(e))


# -- discover ---------------------------------------------------------------

class TestDiscover(AcceleratorTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('POST', DISCOVER_PATH, fakes.FakeResponse(202))

    def polls(self, *docs):
        self.session.route('GET', NODE_ACC_PATH, *[ok(d) for d in docs])

    def test_discover(self):
        self.assertIsNone(self.run_command(acc.DiscoverNodeAccelerators,
                                           ['node-0']))
        self.assertEqual([('POST', DISCOVER_PATH)],
                         [(r.method, r.path) for r in self.requests()])
        self.assertEqual({}, self.last().body)
        self.assertNoVersionHeader()
        self.assertEqual('', self.app.stdout.getvalue())

    def test_discover_refused(self):
        self.session.route('POST', DISCOVER_PATH, fakes.fault(
            409, 'No agent of node node-0 is up: accelerators can only be '
                 'discovered while the agent runs.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              acc.DiscoverNodeAccelerators, ['node-0'])
        self.assertEqual('No agent of node node-0 is up: accelerators can '
                         'only be discovered while the agent runs. '
                         '(HTTP 409)', str(e))

    def test_wait_done(self):
        self.polls(node_accelerators(reported_at='t0'),
                   node_accelerators(state='discovering', reported_at='t0'),
                   node_accelerators(state='discovering', reported_at='t0'),
                   node_accelerators(reported_at='t1'))
        self.run_command(acc.DiscoverNodeAccelerators, ['node-0', '--wait'])
        self.assertEqual([('GET', NODE_ACC_PATH), ('POST', DISCOVER_PATH)]
                         + [('GET', NODE_ACC_PATH)] * 3,
                         [(r.method, r.path) for r in self.requests()])
        self.assertEqual([0.5, 1.0], self.clock.sleeps)
        self.assertNoVersionHeader()
        self.assertEqual('', self.app.stdout.getvalue())
        # Not a terminal: no progress line.
        self.assertEqual('', self.app.stderr.getvalue())

    def test_wait_failed(self):
        self.polls(node_accelerators(reported_at='t0'),
                   node_accelerators(state='discovering'),
                   node_accelerators(state='failed', error='Agent of node '
                                     'node-0 did not answer: timed out'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              acc.DiscoverNodeAccelerators,
                              ['node-0', '--wait', '60'])
        self.assertEqual('Accelerator discovery of node node-0 failed: '
                         'Agent of node node-0 did not answer: timed out',
                         str(e))

    def test_wait_timeout(self):
        self.polls(node_accelerators(state='discovering'))
        e = self.assertRaises(common.WaitTimeout, self.run_command,
                              acc.DiscoverNodeAccelerators,
                              ['node-0', '--wait', '3'])
        self.assertEqual('Timed out after 3 seconds: Waiting for the '
                         'accelerator discovery of node node-0: it is '
                         'discovering.', str(e))
        self.assertEqual(3, sum(self.clock.sleeps))

    def test_wait_is_bounded_by_default(self):
        cmd, parsed = self.parse(acc.DiscoverNodeAccelerators,
                                 ['node-0', '--wait'])
        self.assertEqual(acc.DEFAULT_WAIT, parsed.wait_timeout)
        self.polls(node_accelerators(state='discovering'))
        self.assertRaises(common.WaitTimeout, self.run_command,
                          acc.DiscoverNodeAccelerators, ['node-0', '--wait'])
        self.assertEqual(acc.DEFAULT_WAIT, sum(self.clock.sleeps))

    def test_wait_needs_a_positive_timeout(self):
        self.assertParseFails(acc.DiscoverNodeAccelerators,
                              ['node-0', '--wait', '0'])
        self.assertParseFails(acc.DiscoverNodeAccelerators,
                              ['node-0', '--wait', 'soon'])

    def test_wait_not_started_yet(self):
        # Never discovered: the discovery has not begun until a state
        # shows.
        self.polls(node_accelerators(state=None),
                   node_accelerators(state=None),
                   node_accelerators(reported_at='t1'))
        self.run_command(acc.DiscoverNodeAccelerators, ['node-0', '--wait'])
        self.assertEqual([0.5], self.clock.sleeps)

    def test_previous_failure_is_not_this_one(self):
        # The failure of the previous discovery, unchanged right after the
        # request, is not believed; the new one is.
        old = node_accelerators(state='failed', error='old', reported_at='t0')
        self.polls(old, old, node_accelerators(reported_at='t1'))
        self.run_command(acc.DiscoverNodeAccelerators, ['node-0', '--wait'])
        self.assertEqual([0.5], self.clock.sleeps)

    def test_unchanged_done_settles(self):
        # A discovery finding nothing new writes nothing: once settled,
        # the unchanged state is believed.
        self.polls(node_accelerators(reported_at='t0'))
        self.run_command(acc.DiscoverNodeAccelerators, ['node-0', '--wait'])
        self.assertGreaterEqual(sum(self.clock.sleeps), acc.SETTLE_TIME)
        self.assertLess(sum(self.clock.sleeps), acc.SETTLE_TIME + 2.5)

    def test_unchanged_failure_believed_at_the_timeout(self):
        old = node_accelerators(state='failed', error='no agent')
        self.polls(old)
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              acc.DiscoverNodeAccelerators,
                              ['node-0', '--wait', '2'])
        self.assertEqual('Accelerator discovery of node node-0 failed: '
                         'no agent', str(e))

    def test_wait_node_not_found(self):
        self.session.route('GET', NODE_ACC_PATH, fakes.fault(
            404, 'Node node-0 could not be found.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              acc.DiscoverNodeAccelerators,
                              ['node-0', '--wait'])
        self.assertIn('could not be found. (HTTP 404)', str(e))
        # Nothing asked of a node that is not there.
        self.assertNotIn('POST', [r.method for r in self.requests()])

    def test_progress_on_a_terminal(self):
        class Tty(io.StringIO):
            def isatty(self):
                return True
        self.app.stderr = Tty()
        self.polls(node_accelerators(reported_at='t0'),
                   node_accelerators(state='discovering'),
                   node_accelerators(reported_at='t1'))
        self.run_command(acc.DiscoverNodeAccelerators, ['node-0', '--wait'])
        self.assertIn('Waiting for the accelerator discovery of node '
                      'node-0: it is discovering (0s)',
                      self.app.stderr.getvalue())


class TestEntryPoints(testtools.TestCase):
    """setup.cfg registers the accelerator commands (test_plugin checks
    that every command resolves to a documented command class)."""

    def test_accelerator_commands(self):
        parser = configparser.ConfigParser()
        parser.read(test_plugin.SETUP_CFG)
        lines = parser.get('entry_points',
                           'openstack.baremetal.v1').strip().splitlines()
        commands = dict(line.replace(' ', '').split('=', 1)
                        for line in lines)
        expected = {
            'accelerator_device_list': 'ListAcceleratorDevice',
            'accelerator_device_show': 'ShowAcceleratorDevice',
            'accelerator_deployable_list': 'ListAcceleratorDeployable',
            'accelerator_deployable_show': 'ShowAcceleratorDeployable',
            'accelerator_attach_handle_list': 'ListAcceleratorAttachHandle',
            'accelerator_attach_handle_show': 'ShowAcceleratorAttachHandle',
            'node_accelerators': 'ShowNodeAccelerators',
            'node_accelerator_discover': 'DiscoverNodeAccelerators'}
        for name, attr in expected.items():
            self.assertEqual('ironic_like.osc.v1.accelerator:' + attr,
                             commands.get('baremetal_' + name), name)
