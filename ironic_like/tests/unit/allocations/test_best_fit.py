"""Best-fit allocation candidates (issue 14): the free matching nodes
with the fewest traits come first, so requests without traits leave the
trait nodes to the requests that need them."""

from oslo_utils import uuidutils

from ironic_like.common import context as ctx
from ironic_like.common import states
from ironic_like.conductor import rpcapi
from ironic_like.tests import base
from ironic_like.tests.unit.allocations import utils


class TraitCountTestCase(base.TestCase):
    """The node's trait_count follows its traits, however they change."""

    def _count(self, node_id):
        return self.db.get_node_by_id(node_id).trait_count

    def test_create_counts_distinct_traits(self):
        node = utils.make_free_node(self.db, traits=['A', 'B', 'A'])
        self.assertEqual(2, self._count(node.id))
        self.assertEqual(0, self._count(utils.make_free_node(self.db).id))

    def test_set_add_delete(self):
        node = utils.make_free_node(self.db, traits=['A'])
        self.db.set_node_traits(node.id, ['B', 'C', 'D'])
        self.assertEqual(3, self._count(node.id))
        self.db.add_node_trait(node.id, 'E')
        self.db.add_node_trait(node.id, 'E')
        self.assertEqual(4, self._count(node.id))
        self.db.delete_node_trait(node.id, 'B')
        self.assertEqual(3, self._count(node.id))
        self.db.update_node(node.id, {'traits': []})
        self.assertEqual(0, self._count(node.id))


class BestFitCandidatesTestCase(base.TestCase):
    """The candidate query alone (no conductor runs here)."""

    def test_fewest_traits_first(self):
        rich = utils.make_free_node(self.db, traits=['A', 'B', 'C'])
        some = utils.make_free_node(self.db, traits=['A', 'B'])
        bare = utils.make_free_node(self.db)
        self.assertEqual([bare.id, some.id, rich.id],
                         self.db.allocation_candidates('baremetal', limit=5))
        # Asked for A: the nodes with A, fewest extra first.
        self.assertEqual([some.id, rich.id], self.db.allocation_candidates(
            'baremetal', ['A'], limit=5))

    def test_best_fit_tier_fills_the_batch_first(self):
        bare = {utils.make_free_node(self.db).id for _ in range(6)}
        rich = {utils.make_free_node(self.db, traits=['A']).id
                for _ in range(6)}
        for _ in range(10):
            found = self.db.allocation_candidates('baremetal', limit=4)
            self.assertEqual(4, len(found))
            self.assertTrue(set(found) <= bare, found)
        found = self.db.allocation_candidates('baremetal', limit=8)
        self.assertEqual(bare, set(found[:6]))
        self.assertTrue(set(found[6:]) <= rich)

    def test_ties_in_id_order(self):
        nodes = [utils.make_free_node(self.db).id for _ in range(5)]
        self.assertEqual(nodes[:3],
                         self.db.allocation_candidates('baremetal', limit=3))

    def test_taken_nodes_are_not_candidates(self):
        bare = utils.make_free_node(self.db)
        rich = utils.make_free_node(self.db, traits=['A'])
        self.db.update_node(bare.id, {'provision_state': states.ACTIVE})
        self.assertEqual([rich.id],
                         self.db.allocation_candidates('baremetal', limit=3))
        self.assertEqual([], self.db.allocation_candidates('other', limit=3))


class BestFitAllocationTestCase(base.TestCase):
    """Through the real in-process conductor: the issue's mix, where a
    perfect assignment exists, ends with every allocation served."""

    def setUp(self):
        super().setUp()
        self.conductor = self.useFixture(base.ConductorFixture())
        self.api = rpcapi.ConductorAPI()
        self.context = ctx.get_admin_context()

    def test_requests_without_traits_leave_trait_nodes(self):
        plain = {utils.make_free_node(self.db).id for _ in range(4)}
        gpu = {utils.make_free_node(self.db, traits=['CUSTOM_GPU']).id
               for _ in range(4)}
        created = []
        for index in range(8):
            values = {'uuid': uuidutils.generate_uuid(),
                      'resource_class': 'baremetal'}
            if index % 2:
                values['traits'] = ['CUSTOM_GPU']
            self.api.create_allocation(self.context, values)
            created.append(values)
        for values in created:
            allocation = utils.wait_for_allocation(self.db, values['uuid'])
            self.assertEqual(states.ALLOCATION_ACTIVE, allocation.state,
                             allocation.last_error)
            self.assertIn(allocation.node_id,
                          gpu if values.get('traits') else plain)
