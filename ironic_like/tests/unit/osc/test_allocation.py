"""``openstack baremetal allocation ...``: arguments to requests."""

from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc.v1 import allocation as alloc_cmds
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes

PATH = '/v1/allocations/' + fakes.ALLOCATION_UUID


class TestCreateAllocation(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('POST', '/v1/allocations',
                           fakes.FakeResponse(201, fakes.allocation()))
        self.clock = fakes.FakeClock()

    def run_create(self, argv):
        cmd, parsed = self.parse(alloc_cmds.CreateAllocation, argv)
        original = cmd.wait

        def wait(ident, timeout):
            return original(ident, timeout, clock=self.clock.monotonic,
                            sleep=self.clock.sleep)
        cmd.wait = wait
        return cmd.take_action(parsed)

    def test_all_options(self):
        result = self.run_create([
            '--resource-class', 'gold', '--trait', 'CUSTOM_A',
            '--trait', 'CUSTOM_B', '--candidate-node', 'node-0',
            '--candidate-node', fakes.NODE_UUID2,
            '--uuid', fakes.ALLOCATION_UUID, '--name', 'a1',
            '--extra', 'k=v', '--extra', 'n=1', '--owner', 'p1'])
        self.assertRequest(self.last(), 'POST', '/v1/allocations', body={
            'resource_class': 'gold', 'traits': ['CUSTOM_A', 'CUSTOM_B'],
            'candidate_nodes': ['node-0', fakes.NODE_UUID2],
            'uuid': fakes.ALLOCATION_UUID, 'name': 'a1',
            'extra': {'k': 'v', 'n': 1}, 'owner': 'p1'})
        self.assertEqual('1.60', self.last().headers[http.VERSION_HEADER])
        shown = self.as_dict(result)
        self.assertEqual('allocating', shown['state'])
        self.assertNotIn('links', shown)
        self.assertEqual(1, len(self.requests()))

    def test_minimal(self):
        self.run_create(['--resource-class', 'gold'])
        self.assertEqual({'resource_class': 'gold'}, self.last().body)

    def test_backfill(self):
        self.run_create(['--node', 'node-0'])
        self.assertEqual({'node': 'node-0'}, self.last().body)

    def test_resource_class_required_without_node(self):
        e = self.assertRaises(osc_exc.CommandError, self.run_create,
                              ['--name', 'a'])
        self.assertIn('--resource-class is required', str(e))
        self.assertEqual([], self.requests())

    def test_wait_until_active(self):
        self.session.route('GET', PATH, *[
            fakes.FakeResponse(200, fakes.allocation(state=state,
                                                     node_uuid=node))
            for state, node in [('allocating', None), ('allocating', None),
                                ('active', fakes.NODE_UUID)]])
        shown = self.as_dict(self.run_create(['--resource-class', 'gold',
                                              '--wait', '60']))
        self.assertEqual('active', shown['state'])
        self.assertEqual(fakes.NODE_UUID, shown['node_uuid'])
        self.assertEqual(4, len(self.requests()))
        self.assertEqual([0.5, 1.0], self.clock.sleeps)

    def test_wait_error_prints_last_error(self):
        self.session.route('GET', PATH, fakes.FakeResponse(
            200, fakes.allocation(
                state='error',
                last_error='No available nodes found with resource class '
                           'gold.')))
        e = self.assertRaises(osc_exc.CommandError, self.run_create,
                              ['--resource-class', 'gold', '--wait'])
        self.assertEqual('Allocation %s failed: No available nodes found '
                         'with resource class gold.' % fakes.ALLOCATION_UUID,
                         str(e))

    def test_wait_timeout(self):
        self.session.route('GET', PATH, fakes.FakeResponse(
            200, fakes.allocation()))
        e = self.assertRaises(osc_exc.CommandError, self.run_create,
                              ['--resource-class', 'gold', '--wait', '3'])
        self.assertIn('Timed out after 3 seconds', str(e))
        self.assertEqual(3, sum(self.clock.sleeps))

    def test_api_error(self):
        self.session.route('POST', '/v1/allocations', fakes.fault(
            400, 'Node node-9 could not be found.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_create,
                              ['--resource-class', 'gold',
                               '--candidate-node', 'node-9'])
        self.assertEqual('Node node-9 could not be found. (HTTP 400)',
                         str(e))


class TestAllocationVersions(base.CommandTestCase):
    MAX_VERSION = '1.57'

    def test_backfill_and_owner_need_newer_server(self):
        for argv, version in ((['--node', 'n'], '1.58'),
                              (['--resource-class', 'g', '--owner', 'o'],
                               '1.60')):
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  alloc_cmds.CreateAllocation, argv)
            self.assertIn(version, str(e))
        self.assertEqual([], self.requests())


class TestAllocationsBeforeTheirTime(base.CommandTestCase):
    MAX_VERSION = '1.51'

    def test_every_command_refused(self):
        for command_class, argv in [
                (alloc_cmds.CreateAllocation, ['--resource-class', 'g']),
                (alloc_cmds.ListAllocation, []),
                (alloc_cmds.ShowAllocation, ['a']),
                (alloc_cmds.SetAllocation, ['a', '--name', 'b']),
                (alloc_cmds.UnsetAllocation, ['a', '--name']),
                (alloc_cmds.DeleteAllocation, ['a'])]:
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  command_class, argv)
            self.assertIn('the server supports versions up to 1.51',
                          str(e))
        self.assertEqual([], self.requests())


class TestAllocationRequestedVersion(base.CommandTestCase):
    REQUESTED_VERSION = (1, 52)

    def test_set_needs_1_57(self):
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              alloc_cmds.SetAllocation, ['a', '--name', 'b'])
        self.assertIn('version 1.52 was requested', str(e))


class TestListAllocation(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('GET', '/v1/allocations', fakes.FakeResponse(
            200, {'allocations': [fakes.allocation(
                state='active', node_uuid=fakes.NODE_UUID, name='a1')]}))

    def test_default(self):
        titles, rows = self.rows(self.run_command(alloc_cmds.ListAllocation,
                                                  []))
        self.assertEqual(('UUID', 'Name', 'Resource Class', 'State',
                          'Node UUID'), titles)
        self.assertEqual([(fakes.ALLOCATION_UUID, 'a1', 'gold', 'active',
                           fakes.NODE_UUID)], rows)
        self.assertEqual({}, self.last().params)

    def test_filters(self):
        self.run_command(alloc_cmds.ListAllocation, [
            '--state', 'active', '--resource-class', 'gold',
            '--node', 'node-0', '--owner', 'p', '--limit', '10',
            '--sort', 'created_at:desc'])
        self.assertEqual({'state': 'active', 'resource_class': 'gold',
                          'node': 'node-0', 'owner': 'p', 'limit': 10,
                          'sort_key': 'created_at', 'sort_dir': 'desc'},
                         self.last().params)

    def test_fields(self):
        titles, _rows = self.rows(self.run_command(
            alloc_cmds.ListAllocation, ['--fields', 'uuid', 'state']))
        self.assertEqual({'fields': 'uuid,state'}, self.last().params)
        self.assertEqual(('UUID', 'State'), titles)

    def test_long(self):
        titles, _rows = self.rows(self.run_command(alloc_cmds.ListAllocation,
                                                   ['--long']))
        self.assertEqual(('UUID', 'Name', 'Resource Class', 'State',
                          'Node UUID', 'Last Error', 'Traits',
                          'Candidate Nodes', 'Owner', 'Extra'), titles)


class TestShowSetUnsetDeleteAllocation(base.CommandTestCase):

    def test_show(self):
        self.session.route('GET', '/v1/allocations/a1', fakes.FakeResponse(
            200, fakes.allocation(name='a1')))
        shown = self.as_dict(self.run_command(alloc_cmds.ShowAllocation,
                                              ['a1']))
        self.assertEqual('a1', shown['name'])

    def test_show_fields(self):
        self.session.route('GET', '/v1/allocations/a1', fakes.FakeResponse(
            200, {'uuid': fakes.ALLOCATION_UUID, 'state': 'active'}))
        self.run_command(alloc_cmds.ShowAllocation,
                         ['a1', '--fields', 'uuid', 'state'])
        self.assertEqual({'fields': 'uuid,state'}, self.last().params)

    def test_set(self):
        self.session.route('PATCH', '/v1/allocations/a1',
                           fakes.FakeResponse(200, fakes.allocation()))
        self.run_command(alloc_cmds.SetAllocation,
                         ['a1', '--name', 'a2', '--extra', 'k=v'])
        self.assertEqual([{'op': 'add', 'path': '/name', 'value': 'a2'},
                          {'op': 'add', 'path': '/extra/k', 'value': 'v'}],
                         self.last().body)

    def test_unset(self):
        self.session.route('PATCH', '/v1/allocations/a1',
                           fakes.FakeResponse(200, fakes.allocation()))
        self.run_command(alloc_cmds.UnsetAllocation,
                         ['a1', '--name', '--extra', 'k'])
        self.assertEqual([{'op': 'remove', 'path': '/name'},
                          {'op': 'remove', 'path': '/extra/k'}],
                         self.last().body)

    def test_set_unset_nothing(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          alloc_cmds.SetAllocation, ['a1'])
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          alloc_cmds.UnsetAllocation, ['a1'])

    def test_delete(self):
        self.session.route('DELETE', '/v1/allocations/.*',
                           fakes.FakeResponse(204))
        self.session.route('DELETE', '/v1/allocations/busy', fakes.fault(
            409, 'Allocation busy is active on node n1 which is active.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              alloc_cmds.DeleteAllocation,
                              ['a1', 'busy', 'a2'])
        self.assertEqual(['/v1/allocations/a1', '/v1/allocations/busy',
                          '/v1/allocations/a2'],
                         [r.path for r in self.requests()])
        self.assertEqual('Deleted allocation a1\nDeleted allocation a2\n',
                         self.app.stdout.getvalue())
        self.assertEqual('Failed to delete allocation busy: Allocation busy '
                         'is active on node n1 which is active. (HTTP 409)',
                         str(e))
