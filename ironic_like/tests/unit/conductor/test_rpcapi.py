"""The RPC client: routing node calls to the ring owner, and fail-over."""

import datetime
import types
from unittest import mock

import oslo_messaging as messaging
from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.conductor import hash_ring
from ironic_like.conductor import manager
from ironic_like.conductor import rpcapi
from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.db.sqlalchemy import models
from ironic_like.tests import base
from ironic_like.tests.unit.conductor import utils as cond_utils
from ironic_like.tests.unit.db import utils


def _node(uuid=None, node_id=1):
    return types.SimpleNamespace(uuid=uuid or uuidutils.generate_uuid(),
                                 id=node_id, driver=utils.FAKE_HW,
                                 conductor_group='')


def _with_mocked_client(test, hosts):
    """Register ``hosts`` as alive conductors; give ``test`` a real
    ConductorAPI whose RPC client is a mock (test.cctxt: its prepared
    context)."""
    for host in hosts:
        utils.register_conductor(host)
    test.context = ctx.get_admin_context()
    test.api = rpcapi.ConductorAPI()
    test.api.client = mock.Mock()
    test.cctxt = test.api.client.prepare.return_value


class TestRouting(base.TestCase):

    def setUp(self):
        super().setUp()
        self.config(rpc_node_call_attempts=3, rpc_node_call_timeout=7)
        for host in ('c1', 'c2', 'c3'):
            utils.register_conductor(host)
        self.context = ctx.get_admin_context()
        self.api = rpcapi.ConductorAPI()
        self.client = mock.Mock()
        self.api.client = self.client
        self.cctxt = self.client.prepare.return_value

    def _servers(self):
        return [c.kwargs['server'] for c in self.client.prepare.call_args_list]

    def test_call_goes_to_the_owner(self):
        node = _node()
        owner = hash_ring.HashRingManager().get_owner(node.uuid,
                                                      utils.FAKE_HW, '')
        self.cctxt.call.return_value = 'result'
        self.assertEqual('result', self.api.set_maintenance(
            self.context, node, True, reason='r'))
        self.client.prepare.assert_called_once_with(
            topic=rpcapi.TOPIC, server=owner, version=mock.ANY, timeout=7)
        self.cctxt.call.assert_called_once_with(
            self.context, 'set_maintenance', node_id=1, mode=True,
            reason='r')
        self.assertEqual(owner, self.api.owner_of(node))

    def test_create_node_routes_on_the_future_uuid(self):
        uuid = uuidutils.generate_uuid()
        owner = hash_ring.HashRingManager().get_owner(uuid, utils.FAKE_HW,
                                                      '')
        self.api.create_node(self.context, {'uuid': uuid,
                                            'driver': utils.FAKE_HW})
        self.assertEqual([owner], self._servers())
        self.cctxt.call.assert_called_once_with(
            self.context, 'create_node',
            values={'uuid': uuid, 'driver': utils.FAKE_HW})

    def test_silent_owner_is_skipped(self):
        node = _node()
        owners = hash_ring.HashRingManager().get_owners(
            node.uuid, utils.FAKE_HW, '', count=3)
        self.cctxt.call.side_effect = [messaging.MessagingTimeout('late'),
                                       'ok']
        self.assertEqual('ok', self.api.destroy_node(self.context, node))
        self.assertEqual(owners[:2], self._servers())
        # The silent host stays aside for the next calls too ...
        self.cctxt.call.side_effect = None
        self.cctxt.call.return_value = 'again'
        self.api.destroy_node(self.context, node)
        self.assertEqual(owners[1], self._servers()[-1])
        self.assertEqual(owners[1], self.api.owner_of(node))

    def test_silent_host_forgiven_after_heartbeat_timeout(self):
        node = _node()
        owners = hash_ring.HashRingManager().get_owners(
            node.uuid, utils.FAKE_HW, '', count=2)
        self.cctxt.call.side_effect = [messaging.MessagingTimeout('late'),
                                       'ok']
        clock = [1000.0]
        with mock.patch.object(rpcapi.time, 'monotonic',
                               side_effect=lambda: clock[0]):
            self.api.destroy_node(self.context, node)
            self.assertEqual(owners[1], self.api.owner_of(node))
            clock[0] += 61
            self.assertEqual(owners[0], self.api.owner_of(node))

    def test_nobody_answers(self):
        node = _node()
        self.cctxt.call.side_effect = messaging.MessagingTimeout('late')
        e = self.assertRaises(exception.ConductorUnavailable,
                              self.api.destroy_node, self.context, node)
        self.assertEqual(503, e.code)
        self.assertEqual(3, self.cctxt.call.call_count)
        self.assertEqual(3, len(set(self._servers())))
        for host in ('c1', 'c2', 'c3'):
            self.assertIn(host, str(e))

    def test_all_silent_lately_are_asked_again(self):
        # After a broker restart every conductor may be marked silent:
        # the next calls still go somewhere (they used to get NoValidHost,
        # a 400, until the marks expired).
        node = _node()
        self.cctxt.call.side_effect = messaging.MessagingTimeout('late')
        self.assertRaises(exception.ConductorUnavailable,
                          self.api.destroy_node, self.context, node)
        self.cctxt.call.side_effect = None
        self.cctxt.call.return_value = 'back'
        self.assertEqual('back', self.api.destroy_node(self.context, node))
        self.assertIn(self.api.owner_of(node), ('c1', 'c2', 'c3'))
        # A backfill goes through a conductor too.
        self.assertEqual('back', self.api.create_allocation(
            self.context, {'uuid': uuidutils.generate_uuid(), 'node_id': 1}))

    def test_attempts_bounded(self):
        self.config(rpc_node_call_attempts=2)
        self.cctxt.call.side_effect = messaging.MessagingTimeout('late')
        self.assertRaises(exception.ConductorUnavailable,
                          self.api.destroy_node, self.context, _node())
        self.assertEqual(2, self.cctxt.call.call_count)

    def test_no_valid_host(self):
        node = _node()
        node.driver = 'no-such-hw'
        self.assertRaises(exception.NoValidHost, self.api.destroy_node,
                          self.context, node)
        self.client.prepare.assert_not_called()

    def test_remote_errors_are_not_retried(self):
        self.cctxt.call.side_effect = exception.NodeLocked(node='n',
                                                           host='h')
        self.assertRaises(exception.NodeLocked, self.api.destroy_node,
                          self.context, _node())
        self.assertEqual(1, self.cctxt.call.call_count)


class TestVendorPassthruCalls(base.TestCase):
    """Vendor passthru calls are sent once (a slow method must not run
    twice) and wait as long as any RPC call."""

    def setUp(self):
        super().setUp()
        self.config(rpc_node_call_attempts=3, rpc_node_call_timeout=7)

    def test_node_call_sent_once(self):
        _with_mocked_client(self, ['c1', 'c2', 'c3'])
        self.client = self.api.client
        node = _node()
        owner = hash_ring.HashRingManager().get_owner(node.uuid,
                                                      utils.FAKE_HW, '')
        self.cctxt.call.side_effect = messaging.MessagingTimeout('slow')
        self.assertRaises(messaging.MessagingTimeout,
                          self.api.vendor_passthru, self.context, node,
                          'm', 'POST', {'a': 1})
        # One conductor asked, without the short node-call timeout.
        self.client.prepare.assert_called_once_with(
            topic=rpcapi.TOPIC, server=owner, version='1.16')
        self.cctxt.call.assert_called_once_with(
            self.context, 'vendor_passthru', node_id=1, driver_method='m',
            http_method='POST', info={'a': 1})
        # And not marked silent for its other nodes.
        self.assertEqual(owner, self.api.owner_of(node))

    def test_driver_call_to_a_conductor_of_any_group(self):
        # Its only conductor is in a named group.
        utils.register_conductor('g1', group='rack-1')
        _with_mocked_client(self, [])
        self.client = self.api.client
        self.api.driver_vendor_passthru(self.context, utils.FAKE_HW, 'echo',
                                        'GET', {})
        self.client.prepare.assert_called_once_with(
            topic=rpcapi.TOPIC, server='g1', version='1.16')
        self.assertRaises(exception.NoValidHost,
                          self.api.get_driver_vendor_passthru_methods,
                          self.context, 'no-such-driver')


class TestRetriedCallsTellTheTruth(base.TestCase):
    """A call that timed out on a conductor that did the work anyway, and
    was retried on another, reports the work as done."""

    def setUp(self):
        super().setUp()
        self.config(rpc_node_call_attempts=2, rpc_node_call_timeout=7)
        _with_mocked_client(self, ('c1', 'c2'))

    def _silent_but_done(self, work, retry_error):
        """The first conductor does ``work`` but does not answer in time;
        the second answers ``retry_error``."""
        def call(context, method, **kwargs):
            if self.cctxt.call.call_count == 1:
                work()
                raise messaging.MessagingTimeout('late')
            raise retry_error
        self.cctxt.call.side_effect = call

    def test_create_node(self):
        uuid = uuidutils.generate_uuid()
        self._silent_but_done(
            lambda: utils.create_test_node(uuid=uuid),
            exception.NodeAlreadyExists(uuid=uuid))
        self.assertEqual(uuid, self.api.create_node(
            self.context, {'uuid': uuid, 'driver': utils.FAKE_HW}))

    def test_create_node_that_existed_before_is_still_a_conflict(self):
        node = utils.create_test_node()
        with sa_api._writer() as session:
            session.execute(sa.update(models.Node).where(
                models.Node.id == node.id).values(
                    created_at=node.created_at -
                    datetime.timedelta(hours=1)))
        self._silent_but_done(
            lambda: None, exception.NodeAlreadyExists(uuid=node.uuid))
        self.assertRaises(exception.NodeAlreadyExists,
                          self.api.create_node, self.context,
                          {'uuid': node.uuid, 'driver': utils.FAKE_HW})

    def test_destroy_node(self):
        node = utils.create_test_node()
        self._silent_but_done(lambda: self.db.destroy_node(node.id),
                              exception.NodeNotFound(node=node.uuid))
        self.assertIsNone(self.api.destroy_node(self.context, node))

    def test_provisioning_action(self):
        node = utils.create_test_node(provision_state='available')
        self._silent_but_done(
            lambda: self.db.update_node(node.id, {
                'provision_state': 'deploying'}),
            exception.InvalidStateRequested(action='deploy', node=node.uuid,
                                            state='deploying'))
        self.assertIsNone(self.api.do_provisioning_action(
            self.context, node, 'deploy'))

    def test_provisioning_action_refused_for_another_reason(self):
        node = utils.create_test_node(provision_state='available')
        self._silent_but_done(
            lambda: None,
            exception.InvalidStateRequested(action='deploy', node=node.uuid,
                                            state='available'))
        self.assertRaises(exception.InvalidStateRequested,
                          self.api.do_provisioning_action, self.context,
                          node, 'deploy')

    def test_power_change(self):
        node = utils.create_test_node(power_state='power off')
        self._silent_but_done(
            lambda: self.db.update_node(node.id, {
                'target_power_state': 'power on'}),
            exception.NodeLocked(node=node.uuid, host='c1'))
        self.assertIsNone(self.api.change_node_power_state(
            self.context, node, 'power on'))

    def _allocation_values(self):
        # A backfill: the allocations that still go through a conductor's
        # answer (new ones are stored by the API, TestAllocationCast).
        return {'uuid': uuidutils.generate_uuid(), 'resource_class': 'rc',
                'node_id': utils.create_test_node().id}

    def test_create_allocation_stored_but_unanswered(self):
        # Every conductor asked was silent (e.g. the broker restarted), but
        # the first had stored the allocation: it was created.
        values = self._allocation_values()

        def call(context, method, **kwargs):
            if self.cctxt.call.call_count == 1:
                self.db.create_allocation(dict(
                    values, conductor_affinity=self.api.client.prepare
                    .call_args.kwargs['server']))
            raise messaging.MessagingTimeout('late')
        self.cctxt.call.side_effect = call
        self.assertEqual(values['uuid'], self.api.create_allocation(
            self.context, values))

    def test_create_allocation_nobody_stored(self):
        self.cctxt.call.side_effect = messaging.MessagingTimeout('late')
        self.assertRaises(exception.ConductorUnavailable,
                          self.api.create_allocation, self.context,
                          self._allocation_values())

    def test_create_allocation_stored_by_someone_not_asked(self):
        # Same uuid, stored by a conductor this call never asked: not ours.
        values = self._allocation_values()
        self.db.create_allocation(dict(values, conductor_affinity='other'))
        self.cctxt.call.side_effect = messaging.MessagingTimeout('late')
        self.assertRaises(exception.ConductorUnavailable,
                          self.api.create_allocation, self.context, values)

    def test_first_attempt_errors_are_never_reinterpreted(self):
        node = utils.create_test_node()
        self.db.destroy_node(node.id)
        self.cctxt.call.side_effect = exception.NodeNotFound(node=node.uuid)
        self.assertRaises(exception.NodeNotFound, self.api.destroy_node,
                          self.context, node)


class TestAllocationCast(base.TestCase):
    """A new allocation is stored by the caller for an alive conductor,
    which is told to start it by a cast: no answer is awaited."""

    def setUp(self):
        super().setUp()
        _with_mocked_client(self, ('c1', 'c2'))

    def _values(self, **kw):
        return dict({'uuid': uuidutils.generate_uuid(),
                     'resource_class': 'rc'}, **kw)

    def test_stored_then_cast(self):
        values = self._values(traits=['CUSTOM_A'])
        self.assertEqual(values['uuid'],
                         self.api.create_allocation(self.context, values))
        stored = self.db.get_allocation_by_uuid(values['uuid'])
        self.assertEqual('allocating', stored.state)
        host = self.api.client.prepare.call_args.kwargs['server']
        self.assertIn(host, ('c1', 'c2'))
        self.assertEqual(host, stored.conductor_affinity)
        self.assertEqual(['CUSTOM_A'], [t.trait for t in stored.traits])
        self.cctxt.cast.assert_called_once_with(
            self.context, 'start_allocation', allocation_id=stored.id)
        self.cctxt.call.assert_not_called()

    def test_lost_cast_still_creates(self):
        # The conductor's sweep (allocations.resume_stray) starts it.
        self.cctxt.cast.side_effect = messaging.MessageDeliveryFailure('x')
        values = self._values()
        self.assertEqual(values['uuid'],
                         self.api.create_allocation(self.context, values))
        self.assertEqual('allocating', self.db.get_allocation_by_uuid(
            values['uuid']).state)

    def test_silent_conductor_not_chosen(self):
        self.api._mark_silent('c1')
        for _ in range(5):
            self.api.create_allocation(self.context, self._values())
            self.assertEqual(
                'c2', self.api.client.prepare.call_args.kwargs['server'])

    def test_refusals_store_nothing(self):
        node = utils.create_test_node(instance_uuid=uuidutils.generate_uuid())
        self.assertRaises(exception.InstanceAssociated,
                          self.api.create_allocation, self.context,
                          self._values(uuid=node.instance_uuid))
        self.assertRaises(exception.InvalidParameterValue,
                          self.api.create_allocation, self.context,
                          self._values(state='active'))
        self.assertEqual([], self.db.get_allocation_list())
        self.cctxt.cast.assert_not_called()

    def test_older_conductors_create_it(self):
        # A rolling upgrade: start_allocation is above the version cap, so
        # a conductor creates the allocation, as before 1.12.
        self.api.client.can_send_version.return_value = False
        values = self._values()

        def call(context, method, **kwargs):
            self.assertEqual('create_allocation', method)
            self.db.create_allocation(dict(kwargs['values'],
                                           conductor_affinity='c1'))
            return kwargs['values']['uuid']
        self.cctxt.call.side_effect = call
        allocation = self.api.store_allocation(self.context, values)
        self.assertEqual(values['uuid'], allocation.uuid)
        self.cctxt.cast.assert_not_called()

    def test_no_conductor(self):
        self.db.unregister_conductor('c1')
        self.db.unregister_conductor('c2')
        self.api.ring.reset()
        self.assertRaises(exception.NoValidHost, self.api.create_allocation,
                          self.context, self._values())
        self.assertEqual([], self.db.get_allocation_list())


class TestTwoConductors(base.TestCase):
    """Two real conductors in this process: each call reaches the owner."""

    def setUp(self):
        super().setUp()
        self.config(takeover_check_interval=3600,
                    sync_power_state_interval=0, group='conductor')
        self.useFixture(cond_utils.RunningConductor('c1'))
        self.useFixture(cond_utils.RunningConductor('c2'))
        self.context = ctx.get_admin_context()
        self.api = rpcapi.ConductorAPI()

    def test_calls_reach_the_ring_owner(self):
        seen = []
        real = manager.ConductorManager.set_maintenance

        def record(endpoint, context, node_id, mode, reason=None):
            seen.append((node_id, endpoint.service.host))
            return real(endpoint, context, node_id, mode, reason)

        ring = hash_ring.HashRingManager()
        expected = []
        with mock.patch.object(manager.ConductorManager, 'set_maintenance',
                               record):
            for host in ('c1', 'c2', 'c2', 'c1'):
                uuid = uuidutils.generate_uuid()
                while ring.get_owner(uuid, utils.FAKE_HW, '') != host:
                    uuid = uuidutils.generate_uuid()
                node = utils.create_test_node(uuid=uuid)
                expected.append((node.id, host))
                self.api.set_maintenance(self.context, node, True)
        self.assertEqual(expected, seen)


class TestVirtualMediaCalls(base.TestCase):
    """attach_virtual_media: "http" as every conductor since 1.14 takes
    it; "local" needs 1.17, a clear 503 under a lower version cap."""

    def setUp(self):
        super().setUp()
        _with_mocked_client(self, ['c1'])
        self.client = self.api.client
        self.node = _node()

    def test_http_is_a_1_14_call(self):
        self.api.attach_virtual_media(self.context, self.node, 'cdrom',
                                      'http://x/a.iso',
                                      image_download_source='http')
        self.assertEqual('1.14',
                         self.client.prepare.call_args[1]['version'])
        self.cctxt.call.assert_called_once_with(
            self.context, 'attach_virtual_media', node_id=1,
            device_type='cdrom', image_url='http://x/a.iso')

    def test_local_is_a_1_17_call(self):
        self.api.attach_virtual_media(self.context, self.node, 'cdrom',
                                      'http://x/a.iso',
                                      image_download_source='local')
        self.assertEqual('1.17',
                         self.client.prepare.call_args[1]['version'])
        self.cctxt.call.assert_called_once_with(
            self.context, 'attach_virtual_media', node_id=1,
            device_type='cdrom', image_url='http://x/a.iso',
            image_download_source='local')

    def test_default_is_local_unless_capped(self):
        self.api.attach_virtual_media(self.context, self.node, 'cdrom',
                                      'http://x/a.iso')
        self.assertEqual('local', self.cctxt.call.call_args[1][
            'image_download_source'])
        # A rolling upgrade: conductors below 1.17 get what they know.
        self.client.can_send_version.side_effect = (
            lambda version: version != '1.17')
        self.api.attach_virtual_media(self.context, self.node, 'cdrom',
                                      'http://x/a.iso')
        self.assertEqual('1.14',
                         self.client.prepare.call_args[1]['version'])
        self.assertNotIn('image_download_source',
                         self.cctxt.call.call_args[1])

    def test_local_under_a_lower_cap(self):
        self.client.can_send_version.side_effect = (
            lambda version: version != '1.17')
        exc = self.assertRaises(exception.ConductorUnavailable,
                                self.api.attach_virtual_media,
                                self.context, self.node, 'cdrom',
                                'http://x/a.iso',
                                image_download_source='local')
        self.assertIn('1.17', str(exc))
        self.cctxt.call.assert_not_called()
