"""The allocation flow and its conductor module, through the real
in-process conductor (fake:// RPC, private SQLite)."""

import datetime
import threading
import time
from unittest import mock

from oslo_utils import timeutils
from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import allocation_runner
from ironic_like.conductor import allocations
from ironic_like.conductor.flows import allocation as flow
from ironic_like.conductor import rpcapi
from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.db.sqlalchemy import models
from ironic_like.tests import base
from ironic_like.tests.unit.allocations import utils
from ironic_like.tests import utils as test_utils


class AllocationFlowTestCase(base.TestCase):

    def setUp(self):
        super().setUp()
        self.config(node_locked_retry_attempts=1, group='conductor')
        self.conductor = self.useFixture(base.ConductorFixture())
        self.api = rpcapi.ConductorAPI()
        self.context = ctx.get_admin_context()

    def _allocate(self, **values):
        values.setdefault('uuid', uuidutils.generate_uuid())
        values.setdefault('resource_class', 'baremetal')
        uuid = self.api.create_allocation(self.context, values)
        self.assertEqual(values['uuid'], uuid)
        return utils.wait_for_allocation(self.db, uuid)

    def assertFreed(self, node_id, allocation_id):
        """The node has no instance nor allocation, and the allocation is
        gone."""
        node = self.db.get_node_by_id(node_id)
        self.assertIsNone(node.instance_uuid)
        self.assertIsNone(node.allocation_id)
        self.assertRaises(exception.AllocationNotFound,
                          self.db.get_allocation_by_id, allocation_id)

    def test_flow_shape(self):
        f = flow.get_flow()
        names = [atom.name for atom in f]
        self.assertEqual(['allocation-mark-error-on-revert',
                          'allocation-find-candidates',
                          'allocation-reserve-node'], names)
        self.assertEqual({flow.ALLOCATION_IDS, flow.CONDUCTOR}, f.requires)
        self.assertEqual({flow.REQUESTS, flow.CANDIDATES, flow.NODE_UUIDS},
                         f.provides)

    def test_allocates_matching_node(self):
        utils.make_free_node(self.db, resource_class='other')
        utils.make_free_node(self.db, traits=['CUSTOM_A'])
        wanted = utils.make_free_node(self.db,
                                      traits=['CUSTOM_A', 'CUSTOM_B', 'X'])
        allocation = self._allocate(traits=['CUSTOM_A', 'CUSTOM_B'])
        self.assertEqual(states.ALLOCATION_ACTIVE, allocation.state)
        self.assertEqual(wanted.id, allocation.node_id)
        node = self.db.get_node_by_id(wanted.id)
        self.assertEqual(allocation.uuid, node.instance_uuid)
        self.assertEqual(allocation.id, node.allocation_id)
        self.assertEqual(['CUSTOM_A', 'CUSTOM_B'],
                         node.instance_info['traits'])
        self.assertEqual(self.conductor.host, allocation.conductor_affinity)

    def test_candidate_nodes_limit_the_choice(self):
        utils.make_free_node(self.db)
        chosen = utils.make_free_node(self.db)
        allocation = self._allocate(candidate_nodes=[chosen.uuid])
        self.assertEqual(chosen.id, allocation.node_id)

    def test_node_named_as_the_allocation_first(self):
        # API 1.79, as Ironic: with many free nodes, the one named as the
        # allocation is taken every time.
        for i in range(8):
            utils.make_free_node(self.db, name='other-%d' % i)
        named = utils.make_free_node(self.db, name='compute-7')
        allocation = self._allocate(name='compute-7')
        self.assertEqual(named.id, allocation.node_id)

    def test_named_node_that_does_not_match_is_not_taken(self):
        utils.make_free_node(self.db, name='compute-8',
                             resource_class='other')
        free = utils.make_free_node(self.db, name='spare')
        allocation = self._allocate(name='compute-8')
        self.assertEqual(free.id, allocation.node_id)

    def test_no_node_of_class(self):
        utils.make_free_node(self.db, resource_class='other')
        allocation = self._allocate()
        self.assertEqual(states.ALLOCATION_ERROR, allocation.state)
        self.assertIn('no node has resource class baremetal',
                      allocation.last_error)

    def test_no_node_with_traits(self):
        utils.make_free_node(self.db, traits=['CUSTOM_A'])
        allocation = self._allocate(traits=['CUSTOM_A', 'CUSTOM_B'])
        self.assertEqual(states.ALLOCATION_ERROR, allocation.state)
        self.assertIn('has all of the traits CUSTOM_A, CUSTOM_B',
                      allocation.last_error)

    def test_all_busy(self):
        node = utils.make_free_node(self.db)
        self._allocate()
        allocation = self._allocate()
        self.assertEqual(states.ALLOCATION_ERROR, allocation.state)
        self.assertIn('is available', allocation.last_error)
        self.assertIsNotNone(self.db.get_node_by_id(node.id).allocation_id)

    def test_locked_node_is_skipped_for_the_next(self):
        locked = utils.make_free_node(self.db)
        free = utils.make_free_node(self.db)
        self.db.reserve_node('somebody-else', locked.id)
        allocation = self._allocate()
        self.assertEqual(free.id, allocation.node_id)
        self.assertIsNone(self.db.get_node_by_id(locked.id).instance_uuid)

    def test_only_locked_nodes_end_in_error_after_passes(self):
        locked = utils.make_free_node(self.db)
        self.db.reserve_node('somebody-else', locked.id)
        with mock.patch.object(flow, 'RESERVE_PASS_DELAY', 0):
            allocation = self._allocate()
        self.assertEqual(states.ALLOCATION_ERROR, allocation.state)
        self.assertIn('locked by other work', allocation.last_error)

    def test_taken_over_allocation_is_not_reserved(self):
        node = utils.make_free_node(self.db)
        created = self.db.create_allocation(
            {'resource_class': 'baremetal', 'conductor_affinity': 'other',
             'state': states.ALLOCATING})
        self.assertRaises(exception.AllocationTakenOver,
                          self.db.reserve_node_for_allocation,
                          created.id, node.id, self.conductor.host)
        # The node reservation was rolled back with the lost CAS.
        self.assertIsNone(self.db.get_node_by_id(node.id).instance_uuid)
        self.assertEqual(states.ALLOCATING,
                         self.db.get_allocation_by_id(created.id).state)

    def test_node_taken_meanwhile_is_not_reserved_twice(self):
        node = utils.make_free_node(self.db)
        first, second = [self.db.create_allocation(
            {'resource_class': 'baremetal', 'state': states.ALLOCATING,
             'conductor_affinity': 'me'}) for _ in range(2)]
        self.assertEqual(node.uuid, self.db.reserve_node_for_allocation(
            first.id, node.id, 'me'))
        # The second one found the same candidate before the first won it.
        self.assertIsNone(self.db.reserve_node_for_allocation(
            second.id, node.id, 'me'))
        self.assertEqual(first.uuid,
                         self.db.get_node_by_id(node.id).instance_uuid)
        second = self.db.get_allocation_by_id(second.id)
        self.assertEqual(states.ALLOCATING, second.state)
        self.assertIsNone(second.node_id)

    def test_flow_rerun_is_idempotent(self):
        node = utils.make_free_node(self.db)
        allocation = self._allocate()
        flow.run([allocation.id], self.conductor.host)
        again = self.db.get_allocation_by_id(allocation.id)
        self.assertEqual(states.ALLOCATION_ACTIVE, again.state)
        self.assertEqual(node.id, again.node_id)

    def test_duplicate_uuid_and_name(self):
        utils.make_free_node(self.db)
        first = self._allocate(name='one')
        self.assertRaises(exception.AllocationAlreadyExists,
                          self._allocate, uuid=first.uuid)
        self.assertRaises(exception.AllocationDuplicateName,
                          self._allocate, name='one')

    def test_uuid_of_an_instance_is_refused(self):
        node = utils.make_free_node(self.db,
                                    instance_uuid=uuidutils.generate_uuid())
        self.assertRaises(exception.InstanceAssociated, self._allocate,
                          uuid=node.instance_uuid)

    def test_backfill(self):
        instance = uuidutils.generate_uuid()
        node = utils.make_free_node(self.db, provision_state=states.ACTIVE,
                                    instance_uuid=instance,
                                    traits=['CUSTOM_A'])
        allocation = self._allocate(uuid=instance, node_id=node.id,
                                    traits=['CUSTOM_A'])
        self.assertEqual(states.ALLOCATION_ACTIVE, allocation.state)
        self.assertEqual(node.id, allocation.node_id)
        self.assertEqual(allocation.id,
                         self.db.get_node_by_id(node.id).allocation_id)

    def test_backfill_refusals(self):
        free = utils.make_free_node(self.db)
        self.assertRaises(exception.InvalidState, self._allocate,
                          node_id=free.id)
        active = utils.make_free_node(
            self.db, provision_state=states.ACTIVE,
            instance_uuid=uuidutils.generate_uuid())
        e = self.assertRaises(exception.InvalidParameterValue,
                              self._allocate, node_id=active.id)
        self.assertEqual('uuid', e.field)
        e = self.assertRaises(exception.InvalidParameterValue,
                              self._allocate, node_id=active.id,
                              uuid=active.instance_uuid,
                              traits=['CUSTOM_MISSING'])
        self.assertEqual('traits', e.field)
        self.assertEqual([], self.db.get_allocation_list())

    def test_destroy_frees_node(self):
        node = utils.make_free_node(self.db)
        allocation = self._allocate()
        self.api.destroy_allocation(self.context, allocation, node=node)
        self.assertFreed(node.id, allocation.id)

    def test_destroy_refused_on_active_node(self):
        node = utils.make_free_node(self.db)
        allocation = self._allocate()
        self.db.update_node(node.id, {'provision_state': states.ACTIVE})
        self.assertRaises(exception.InvalidState,
                          self.api.destroy_allocation, self.context,
                          allocation, node=node)
        self.db.update_node(node.id, {'maintenance': True})
        self.api.destroy_allocation(self.context, allocation, node=node)
        self.assertIsNone(self.db.get_node_by_id(node.id).allocation_id)

    def test_destroy_node_in_maintenance_deletes_allocation(self):
        node = utils.make_free_node(self.db)
        allocation = self._allocate()
        self.db.update_node(node.id, {'maintenance': True})
        self.api.destroy_node(self.context, self.db.get_node_by_id(node.id))
        self.assertRaises(exception.AllocationNotFound,
                          self.db.get_allocation_by_id, allocation.id)

    def test_unsetting_instance_uuid_deletes_allocation(self):
        node = utils.make_free_node(self.db)
        allocation = self._allocate()
        node = self.db.get_node_by_id(node.id)
        self.api.update_node(self.context, node, {'instance_uuid': None})
        self.assertFreed(node.id, allocation.id)

    def test_unsetting_instance_uuid_of_active_node_conflicts(self):
        node = utils.make_free_node(self.db)
        allocation = self._allocate()
        node = self.db.update_node(node.id,
                                   {'provision_state': states.ACTIVE})
        self.assertRaises(exception.InvalidState, self.api.update_node,
                          self.context, node, {'instance_uuid': None})
        self.assertEqual(allocation.uuid,
                         self.db.get_node_by_id(node.id).instance_uuid)

    def test_tear_down_deletes_allocation(self):
        node = utils.make_free_node(self.db)
        allocation = self._allocate()
        self.db.update_node(node.id, {'provision_state': states.ACTIVE})
        node = self.db.get_node_by_id(node.id)
        self.api.do_provisioning_action(self.context, node, 'deleted')
        for _ in range(200):
            node = self.db.get_node_by_id(node.id)
            if node.provision_state == states.AVAILABLE and \
                    not node.reservation:
                break
            time.sleep(0.02)
        self.assertEqual(states.AVAILABLE, node.provision_state)
        self.assertFreed(node.id, allocation.id)


class CandidateQueryTestCase(base.TestCase):
    """The candidate query alone: no conductor runs here, whose take-over
    pass would give the powerless node a power state meanwhile."""

    def test_unavailable_nodes_are_not_candidates(self):
        utils.make_free_node(self.db, maintenance=True)
        utils.make_free_node(self.db, power_state=None)
        utils.make_free_node(self.db, provision_state=states.MANAGEABLE)
        utils.make_free_node(self.db,
                             instance_uuid=uuidutils.generate_uuid())
        free = utils.make_free_node(self.db)
        self.assertEqual([free.id],
                         self.db.allocation_candidates('baremetal'))
        self.assertEqual([], self.db.allocation_candidates('other'))


class AllocationTakeOverTestCase(base.TestCase):
    """Orphans of dead conductors, resumption on start, the CAS race."""

    def test_take_over_orphans_of_dead_conductor(self):
        utils.make_free_node(self.db)
        self.db.register_conductor('dead-host', '', ['fake-hardware'])
        orphan = self.db.create_allocation(
            {'resource_class': 'baremetal', 'state': states.ALLOCATING,
             'conductor_affinity': 'dead-host'})
        executor = mock.Mock()
        taken = allocations.take_over_orphans(executor, 'me', {'dead-host'})
        self.assertEqual([orphan.uuid], taken)
        self.assertEqual('me', self.db.get_allocation_by_id(
            orphan.id).conductor_affinity)
        executor.add.assert_called_once_with(orphan.id)

    def test_take_over_race_lost(self):
        orphan = self.db.create_allocation(
            {'resource_class': 'baremetal', 'state': states.ALLOCATING,
             'conductor_affinity': 'dead-host'})
        self.assertTrue(self.db.take_over_allocation(orphan.id, 'dead-host',
                                                     'first'))
        self.assertFalse(self.db.take_over_allocation(orphan.id, 'dead-host',
                                                      'second'))
        executor = mock.Mock()
        self.assertEqual([], allocations.take_over_orphans(
            executor, 'second', {'dead-host'}))
        executor.add.assert_not_called()
        self.assertEqual('first', self.db.get_allocation_by_id(
            orphan.id).conductor_affinity)

    def test_live_conductors_allocations_are_left_alone(self):
        allocation = self.db.create_allocation(
            {'resource_class': 'baremetal', 'state': states.ALLOCATING,
             'conductor_affinity': 'alive-host'})
        executor = mock.Mock()
        self.assertEqual([], allocations.take_over_orphans(
            executor, 'me', {'dead-host'}))
        self.assertEqual('alive-host', self.db.get_allocation_by_id(
            allocation.id).conductor_affinity)

    def test_conductor_start_resumes_own(self):
        node = utils.make_free_node(self.db)
        left = self.db.create_allocation(
            {'resource_class': 'baremetal', 'state': states.ALLOCATING,
             'conductor_affinity': 'test-conductor'})
        self.useFixture(base.ConductorFixture(host='test-conductor'))
        allocation = utils.wait_for_allocation(self.db, left.uuid)
        self.assertEqual(states.ALLOCATION_ACTIVE, allocation.state)
        self.assertEqual(node.id, allocation.node_id)

    def test_stopped_runner_refuses_and_marks_error(self):
        allocation = self.db.create_allocation(
            {'resource_class': 'baremetal', 'state': states.ALLOCATING,
             'conductor_affinity': 'me'})
        runner = allocation_runner.AllocationRunner('me', 2, 4)
        runner.stop()
        runner.add(allocation.id)
        allocation = self.db.get_allocation_by_id(allocation.id)
        self.assertEqual(states.ALLOCATION_ERROR, allocation.state)
        self.assertIn('could not start', allocation.last_error)

    def test_runner_batches_a_burst(self):
        for _ in range(10):
            utils.make_free_node(self.db)
        ids = [self.db.create_allocation(
            {'resource_class': 'baremetal', 'state': states.ALLOCATING,
             'conductor_affinity': 'me'}).id for _ in range(10)]
        batches = []
        started = threading.Event()
        release = threading.Event()
        real_run = flow.run

        def run(batch, host):
            batches.append(list(batch))
            if len(batches) == 1:
                # Hold the only worker so that the rest queue up.
                started.set()
                release.wait(10)
            real_run(batch, host)

        runner = allocation_runner.AllocationRunner('me', 1, 4)
        self.addCleanup(runner.stop)
        with mock.patch.object(flow, 'run', run):
            runner.add(ids[0])
            self.assertTrue(started.wait(10))
            for allocation_id in ids[1:]:
                runner.add(allocation_id)
            self.assertEqual(9, runner.pending())
            release.set()
            for allocation_id in ids:
                utils.wait_for_allocation(
                    self.db, self.db.get_allocation_by_id(
                        allocation_id).uuid)
        self.assertEqual([ids[:1], ids[1:5], ids[5:9], ids[9:]], batches)
        self.assertEqual(
            ['active'] * 10,
            [self.db.get_allocation_by_id(i).state for i in ids])


class StrayAllocationTestCase(base.TestCase):
    """Allocations the API stored for a live conductor whose start cast
    was lost: the conductor's periodic check starts them, once."""

    def _stored(self, age, conductor='me'):
        allocation = self.db.create_allocation(
            {'resource_class': 'baremetal', 'state': states.ALLOCATING,
             'conductor_affinity': conductor})
        with sa_api.main_context_manager.writer.using(
                ctx.get_admin_context()) as session:
            session.execute(sa.update(models.Allocation).where(
                models.Allocation.id == allocation.id).values(
                created_at=timeutils.utcnow() - datetime.timedelta(
                    seconds=age)))
        return allocation

    def test_old_unknown_ones_are_started(self):
        old = self._stored(120)
        self._stored(1)          # its cast may still be on its way
        self._stored(120, conductor='other')
        runner = mock.Mock()
        runner.known.return_value = set()
        self.assertEqual([old.uuid],
                         allocations.resume_stray(runner, 'me', 60))
        runner.add.assert_called_once_with(old.id)

    def test_known_ones_are_left(self):
        old = self._stored(120)
        runner = mock.Mock()
        runner.known.return_value = {old.id}
        self.assertEqual([], allocations.resume_stray(runner, 'me', 60))
        runner.add.assert_not_called()

    def test_runner_runs_an_allocation_once(self):
        utils.make_free_node(self.db)
        allocation = self._stored(0)
        runs = []
        release = threading.Event()

        def run(batch, host):
            runs.append(list(batch))
            release.wait(10)

        runner = allocation_runner.AllocationRunner('me', 2, 4)
        self.addCleanup(runner.stop)
        with mock.patch.object(flow, 'run', run):
            runner.add(allocation.id)
            # A sweep and a late cast while it is queued or running.
            runner.add(allocation.id)
            self.assertEqual({allocation.id}, runner.known())
            runner.add(allocation.id)
            release.set()
            test_utils.wait_for(lambda: not runner.known(), 10,
                                message='runner still busy')
        self.assertEqual([[allocation.id]], runs)


class AllocationRetryTestCase(base.TestCase):
    """The API retries a create on another conductor when the first did
    not answer in time; the first may have stored it already."""

    def _stored(self, state, conductor='silent'):
        return self.db.create_allocation(
            {'resource_class': 'baremetal', 'state': state,
             'conductor_affinity': conductor})

    def test_finished_by_the_silent_one_is_the_answer(self):
        stored = self._stored(states.ALLOCATION_ACTIVE)
        executor = mock.Mock()
        uuid = allocations.create_allocation(
            None, executor, 'me', {'uuid': stored.uuid,
                                   'resource_class': 'baremetal'},
            taken_from=['silent'])
        self.assertEqual(stored.uuid, uuid)
        executor.add.assert_not_called()
        self.assertEqual(1, len(self.db.get_allocation_list()))
        self.assertEqual('silent', self.db.get_allocation_by_id(
            stored.id).conductor_affinity)

    def test_in_progress_at_the_silent_one_is_taken_over(self):
        stored = self._stored(states.ALLOCATING)
        executor = mock.Mock()
        uuid = allocations.create_allocation(
            None, executor, 'me', {'uuid': stored.uuid,
                                   'resource_class': 'baremetal'},
            taken_from=['silent'])
        self.assertEqual(stored.uuid, uuid)
        executor.add.assert_called_once_with(stored.id)
        self.assertEqual('me', self.db.get_allocation_by_id(
            stored.id).conductor_affinity)

    def test_someone_elses_is_a_conflict(self):
        stored = self._stored(states.ALLOCATING, conductor='busy-but-fine')
        self.assertRaises(exception.AllocationAlreadyExists,
                          allocations.create_allocation, None, mock.Mock(),
                          'me', {'uuid': stored.uuid,
                                 'resource_class': 'baremetal'},
                          taken_from=['silent'])
