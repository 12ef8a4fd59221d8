"""``openstack baremetal node ...`` for child nodes (API 1.83): the
--parent-node option of node create/set/unset, the node list's
--include-children and --parent-node, ``node children list``."""

from osc_lib import exceptions as osc_exc

from ironic_like.osc.v1 import node as node_cmds
from ironic_like.osc.v1 import node_children as children_cmds
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes
from ironic_like.tests.unit.osc import test_node_newer

CHILDREN = ['1be26c0b-03f2-4d2e-ae87-c02d7f33c123',
            '2be26c0b-03f2-4d2e-ae87-c02d7f33c123']


class TestChildNodes(base.CommandTestCase):

    MAX_VERSION = '1.83'

    def setUp(self):
        super().setUp()
        test_node_newer.route_node_writes_and_lists(self.session)
        self.session.route('GET', '/v1/nodes/n/children', fakes.FakeResponse(
            200, {'children': CHILDREN, 'links': {}}))

    def test_create_set_unset(self):
        self.run_command(node_cmds.CreateNode,
                         ['--driver', 'fake-hardware', '--parent-node', 'p'])
        self.assertEqual('p', self.last().body['parent_node'])
        self.run_command(node_cmds.SetNode, ['n', '--parent-node', 'q'])
        self.assertEqual([{'op': 'add', 'path': '/parent_node',
                           'value': 'q'}], self.last().body)
        self.run_command(node_cmds.UnsetNode, ['n', '--parent-node'])
        self.assertEqual([{'op': 'remove', 'path': '/parent_node'}],
                         self.last().body)

    def test_list_options(self):
        self.run_command(node_cmds.ListNode, ['--include-children'])
        self.assertEqual('True', self.last().params['include_children'])
        self.run_command(node_cmds.ListNode, ['--parent-node', 'p'])
        self.assertEqual('p', self.last().params['parent_node'])
        self.assertNotIn('include_children', self.last().params)
        # One or the other.
        self.assertRaises(SystemExit, self.run_command, node_cmds.ListNode,
                          ['--include-children', '--parent-node', 'p'])

    def test_children_list(self):
        columns, values = self.run_command(children_cmds.ListNodeChildren,
                                           ['n'])
        self.assertEqual(('children',), columns)
        self.assertEqual((CHILDREN,), values)
        self.assertEqual('/v1/nodes/n/children', self.last().path)


class TestChildNodesOldServer(base.CommandTestCase):

    MAX_VERSION = '1.82'

    def test_refused(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          children_cmds.ListNodeChildren, ['n'])
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          node_cmds.ListNode, ['--include-children'])
