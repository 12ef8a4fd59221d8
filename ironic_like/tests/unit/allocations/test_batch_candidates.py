"""A reservation picks its best-fit node and takes it in one
transaction, so concurrent reservations never fail on a node another one
took (issue 14); the node named as the allocation is tried first."""

import threading
from unittest import mock

from oslo_db import exception as db_exc

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import allocation as flow
from ironic_like.tests import base
from ironic_like.tests.unit.allocations import utils


def _stored(db, count, **values):
    """``count`` allocations of this conductor ('me'), `allocating`."""
    values.setdefault('resource_class', 'baremetal')
    values.update(state=states.ALLOCATING, conductor_affinity='me')
    return [db.create_allocation(dict(values)).id for _ in range(count)]


class ReserveBestFitTestCase(base.TestCase):

    def _stored(self, count, **values):
        return _stored(self.db, count, **values)

    def _request(self, allocation_id):
        return self.db.get_allocation_request(allocation_id)

    def test_best_fit_taken_with_traits_in_instance_info(self):
        utils.make_free_node(self.db, traits=['CUSTOM_A', 'CUSTOM_B'])
        fit = utils.make_free_node(self.db, traits=['CUSTOM_A'],
                                   instance_info={'kept': 1})
        utils.make_free_node(self.db)
        allocation_id, = self._stored(1, traits=['CUSTOM_A'])
        self.assertEqual(fit.uuid, self.db.reserve_best_fit_node(
            allocation_id, 'me', self._request(allocation_id)))
        node = self.db.get_node_by_id(fit.id)
        self.assertEqual(allocation_id, node.allocation_id)
        self.assertEqual({'kept': 1, 'traits': ['CUSTOM_A']},
                         node.instance_info)
        allocation = self.db.get_allocation_by_id(allocation_id)
        self.assertEqual(states.ALLOCATION_ACTIVE, allocation.state)
        self.assertEqual(fit.id, allocation.node_id)

    def test_locked_and_taken_nodes_are_passed_over(self):
        locked = utils.make_free_node(self.db)
        taken = utils.make_free_node(self.db)
        free = utils.make_free_node(self.db)
        self.db.reserve_node('somebody-else', locked.id)
        first, second = self._stored(2)
        self.assertEqual(taken.uuid, self.db.reserve_best_fit_node(
            first, 'me', self._request(first)))
        self.assertEqual(free.uuid, self.db.reserve_best_fit_node(
            second, 'me', self._request(second)))
        third, = self._stored(1)
        self.assertIsNone(self.db.reserve_best_fit_node(
            third, 'me', self._request(third)))

    def test_candidate_nodes_and_owner_respected(self):
        utils.make_free_node(self.db, owner='p1')
        mine = utils.make_free_node(self.db, owner='p2')
        allocation_id, = self._stored(1, owner='p2')
        self.assertEqual(mine.uuid, self.db.reserve_best_fit_node(
            allocation_id, 'me', self._request(allocation_id)))
        listed = utils.make_free_node(self.db)
        utils.make_free_node(self.db)
        other_id, = self._stored(1, candidate_nodes=[listed.uuid])
        self.assertEqual(listed.uuid, self.db.reserve_best_fit_node(
            other_id, 'me', self._request(other_id)))

    def test_taken_over_allocation_takes_nothing(self):
        node = utils.make_free_node(self.db)
        allocation_id, = self._stored(1)
        request = self._request(allocation_id)
        self.assertRaises(exception.AllocationTakenOver,
                          self.db.reserve_best_fit_node, allocation_id,
                          'another-conductor', request)
        self.assertIsNone(self.db.get_node_by_id(node.id).allocation_id)

    def test_concurrent_reservations_take_distinct_nodes(self):
        nodes = {utils.make_free_node(self.db).id for _ in range(6)}
        ids = self._stored(6)
        requests = {i: self._request(i) for i in ids}
        won = []
        errors = []

        def reserve(allocation_id):
            try:
                won.append(self.db.reserve_best_fit_node(
                    allocation_id, 'me', requests[allocation_id]))
            except Exception as e:
                errors.append(e)

        threads = [threading.Thread(target=reserve, args=(i,))
                   for i in ids]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        self.assertEqual([], errors)
        self.assertEqual(6, len(set(won)))
        self.assertNotIn(None, won)
        self.assertEqual(nodes, {self.db.get_allocation_by_id(i).node_id
                                 for i in ids})


class ReserveAlikeTestCase(base.TestCase):
    """reserve_best_fit_nodes: allocations asking alike, one transaction."""

    def _requests(self, count, **values):
        return [self.db.get_allocation_request(i)
                for i in _stored(self.db, count, **values)]

    def test_best_fits_in_order_and_the_rest_left(self):
        worse = utils.make_free_node(self.db, traits=['CUSTOM_A',
                                                      'CUSTOM_B'])
        first = utils.make_free_node(self.db, traits=['CUSTOM_A'],
                                     instance_info={'kept': 1})
        second = utils.make_free_node(self.db, traits=['CUSTOM_A'])
        requests = self._requests(3, traits=['CUSTOM_A'])
        taken = self.db.reserve_best_fit_nodes(requests, 'me')
        self.assertEqual({requests[0]['id']: first.uuid,
                          requests[1]['id']: second.uuid}, taken)
        self.assertEqual({'kept': 1, 'traits': ['CUSTOM_A']},
                         self.db.get_node_by_id(first.id).instance_info)
        for request, node in zip(requests, (first, second)):
            allocation = self.db.get_allocation_by_id(request['id'])
            self.assertEqual(states.ALLOCATION_ACTIVE, allocation.state)
            self.assertEqual(node.id, allocation.node_id)
            self.assertEqual(request['id'],
                             self.db.get_node_by_id(node.id).allocation_id)
        # Not served: still allocating, the worse fit still free.
        self.assertEqual(states.ALLOCATING, self.db.get_allocation_by_id(
            requests[2]['id']).state)
        self.assertIsNone(self.db.get_node_by_id(worse.id).allocation_id)

    def test_locked_nodes_skipped(self):
        locked = utils.make_free_node(self.db)
        free = utils.make_free_node(self.db)
        self.db.reserve_node('somebody-else', locked.id)
        requests = self._requests(2)
        self.assertEqual({requests[0]['id']: free.uuid},
                         self.db.reserve_best_fit_nodes(requests, 'me'))

    def test_one_taken_over_takes_nothing(self):
        nodes = [utils.make_free_node(self.db) for _ in range(2)]
        requests = self._requests(2)
        self.db.update_allocation(requests[1]['id'],
                                  {'conductor_affinity': 'another'})
        self.assertEqual({}, self.db.reserve_best_fit_nodes(requests, 'me'))
        for node in nodes:
            self.assertIsNone(self.db.get_node_by_id(node.id).allocation_id)
        self.assertEqual(states.ALLOCATING, self.db.get_allocation_by_id(
            requests[0]['id']).state)

    def test_flow_groups_alike_and_reserves_the_rest_one_by_one(self):
        plain = [utils.make_free_node(self.db) for _ in range(2)]
        gpu = [utils.make_free_node(self.db, traits=['CUSTOM_GPU'])
               for _ in range(2)]
        named = utils.make_free_node(self.db, name='compute-9')
        ids = (_stored(self.db, 2) + _stored(self.db, 2,
                                             traits=['CUSTOM_GPU'])
               + _stored(self.db, 1, name='compute-9'))
        with mock.patch.object(self.db, 'reserve_best_fit_nodes',
                               wraps=self.db.reserve_best_fit_nodes) as alike:
            flow.run(ids, 'me')
        self.assertEqual([[ids[0], ids[1]], [ids[2], ids[3]]],
                         sorted([r['id'] for r in call.args[0]]
                                for call in alike.call_args_list))
        nodes = [self.db.get_allocation_by_id(i).node_id for i in ids]
        self.assertEqual({n.id for n in plain}, set(nodes[:2]))
        self.assertEqual({n.id for n in gpu}, set(nodes[2:4]))
        self.assertEqual(named.id, nodes[4])

    def test_named_node_is_not_taken_by_a_group(self):
        # compute-9 is the best fit of the plain requests too: the
        # allocation named after it gets it, even when later in the batch.
        named = utils.make_free_node(self.db, name='compute-9')
        other = utils.make_free_node(self.db)
        plain = _stored(self.db, 2)
        by_name, = _stored(self.db, 1, name='compute-9')
        with mock.patch.object(flow, 'RESERVE_PASSES', 1):
            flow.run(plain + [by_name], 'me')
        self.assertEqual(named.id,
                         self.db.get_allocation_by_id(by_name).node_id)
        self.assertEqual(
            [other.id, None],
            [self.db.get_allocation_by_id(i).node_id for i in plain])

    def test_earlier_request_served_before_a_later_group(self):
        # The only free node has the trait: the earlier trait request gets
        # it, not the group of plain requests after it.
        gpu = utils.make_free_node(self.db, traits=['CUSTOM_GPU'])
        first, = _stored(self.db, 1, traits=['CUSTOM_GPU'])
        later = _stored(self.db, 2)
        with mock.patch.object(flow, 'RESERVE_PASSES', 1):
            flow.run([first] + later, 'me')
        self.assertEqual(gpu.id, self.db.get_allocation_by_id(first).node_id)
        for allocation_id in later:
            self.assertEqual(states.ALLOCATION_ERROR,
                             self.db.get_allocation_by_id(
                                 allocation_id).state)

    def test_database_error_of_a_group_leaves_it_one_by_one(self):
        nodes = [utils.make_free_node(self.db) for _ in range(2)]
        ids = _stored(self.db, 2)
        with mock.patch.object(
                self.db, 'reserve_best_fit_nodes',
                side_effect=db_exc.DBConnectionError('gone')) as alike:
            flow.run(ids, 'me')
        alike.assert_called_once()
        self.assertEqual({n.id for n in nodes},
                         {self.db.get_allocation_by_id(i).node_id
                          for i in ids})

    def test_flow_reserves_one_by_one_what_a_group_left(self):
        nodes = [utils.make_free_node(self.db) for _ in range(3)]
        ids = _stored(self.db, 3)
        with mock.patch.object(self.db, 'reserve_best_fit_nodes',
                               return_value={}):
            flow.run(ids, 'me')
        self.assertEqual({n.id for n in nodes},
                         {self.db.get_allocation_by_id(i).node_id
                          for i in ids})


class FindAndReserveTestCase(base.TestCase):

    def _stored(self, count, **values):
        return _stored(self.db, count, **values)

    def test_named_node_is_the_candidate(self):
        utils.make_free_node(self.db, name='spare')
        named = utils.make_free_node(self.db, name='compute-1')
        plain = self._stored(2)
        by_name = self._stored(1, name='compute-1')
        pending, candidates = flow.FindCandidates().execute(
            plain + by_name, 'me')
        self.assertEqual(plain + by_name, [r['id'] for r in pending])
        self.assertEqual({str(by_name[0]): [named.id]}, candidates)

    def test_finished_allocations_are_left_out(self):
        utils.make_free_node(self.db)
        done, = self._stored(1)
        self.db.fail_allocation(done, 'me', 'x')
        pending, candidates = flow.FindCandidates().execute([done], 'me')
        self.assertEqual(([], {}), (pending, candidates))

    def test_named_node_not_free_falls_back_to_best_fit(self):
        named = utils.make_free_node(self.db, name='compute-2')
        other = utils.make_free_node(self.db)
        self.db.reserve_node('somebody-else', named.id)
        allocation_id, = self._stored(1, name='compute-2')
        flow.run([allocation_id], 'me')
        self.assertEqual(other.id,
                         self.db.get_allocation_by_id(allocation_id).node_id)

    def test_none_matching_fails_with_the_reason(self):
        utils.make_free_node(self.db, resource_class='other')
        allocation_id, = self._stored(1)
        with mock.patch.object(flow, 'RESERVE_PASSES', 1):
            flow.run([allocation_id], 'me')
        allocation = self.db.get_allocation_by_id(allocation_id)
        self.assertEqual(states.ALLOCATION_ERROR, allocation.state)
        self.assertIn('no node has resource class baremetal',
                      allocation.last_error)

    def test_batch_ends_active_on_distinct_nodes(self):
        for _ in range(5):
            utils.make_free_node(self.db)
        ids = self._stored(5)
        flow.run(ids, 'me')
        nodes = [self.db.get_allocation_by_id(i).node_id for i in ids]
        self.assertEqual(5, len(set(nodes)))
        self.assertNotIn(None, nodes)

    def test_node_ids_by_name(self):
        node = utils.make_free_node(self.db, name='n-1')
        utils.make_free_node(self.db, name='n-2')
        self.assertEqual({'n-1': node.id},
                         self.db.node_ids_by_name(['n-1', None, '', 'x']))
        self.assertEqual({}, self.db.node_ids_by_name([None]))
