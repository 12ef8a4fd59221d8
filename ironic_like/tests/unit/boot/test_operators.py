"""The boot-session operators, run one loop at a time over fake hardware
on SQLite, with a controllable clock: reboot, shutdown, staged sessions,
boot-wait retries, forceful power off, abort, limits and conflicts."""

import datetime
from unittest import mock

from oslo_utils import timeutils

from ironic_like.common.boot import component_status as cs
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.boot import component_writes
from ironic_like.conductor.boot import session_status
from ironic_like.conductor.boot import sessions
from ironic_like.conductor.boot import staged
from ironic_like.conductor import hash_ring
from ironic_like.conductor.operators import base as base_operator
from ironic_like.conductor.operators import runner
from ironic_like.drivers.modules import fake
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils

HOST = 'test-conductor'
KERNEL = 'http://images.example/vmlinuz'
INITRD = 'http://images.example/initrd.img'

# The order in which a reboot's hand-offs happen; each run is one loop.
CYCLE = ('session_setup', 'status', 'power_off_graceful',
         'power_off_forceful', 'status', 'power_on', 'status',
         'configuration', 'session_completion')


class OperatorTestCase(base.TestCase):

    def setUp(self):
        super().setUp()
        utils.register_conductor(HOST)
        self.operators = runner.BootOperators(HOST,
                                              hash_ring.HashRingManager(),
                                              self.db)
        # No RPC fan-out from these tests: every operator is here.
        self.operators.ctx.wake_everywhere = lambda *names: None
        self.now = timeutils.utcnow()
        timeutils.set_time_override(self.now)
        self.addCleanup(timeutils.clear_time_override)
        self.nodes = {}
        for i in range(4):
            name = 'n%d' % i
            labels = {'group.compute': '', 'role': 'Compute'}
            if i == 3:
                labels = {'role': 'Application', 'subrole': 'UAN'}
            node = utils.create_test_node(
                name=name, labels=labels, power_state=states.POWER_ON,
                properties={'cpu_arch': 'x86_64'},
                driver_internal_info={fake.FAKE_POWER_KEY: states.POWER_ON})
            self.nodes[name] = node
        self.db.put_boot_template('compute', {
            'boot_sets': {'compute': {
                'name': 'compute', 'kernel': KERNEL, 'initrd': INITRD,
                'kernel_parameters': 'console=ttyS0',
                'node_groups': ['compute']}},
            'enable_cfs': False})

    def advance(self, seconds):
        self.now += datetime.timedelta(seconds=seconds)
        timeutils.set_time_override(self.now)

    def options(self, **overrides):
        from ironic_like.common.boot import options
        return dict(options.effective(self.db.get_boot_options()),
                    **overrides)

    def run_op(self, name, **overrides):
        self.operators.ctx.operators[name].run_once(self.options(**overrides))

    def cycle(self, rounds=1, report=True):
        for _ in range(rounds):
            for name in CYCLE:
                self.run_op(name)
                if report and name == 'power_on':
                    self.report_all()

    def component(self, name):
        component, _node = self.db.get_boot_component(self.nodes[name].id)
        return component

    def report_all(self):
        """What each booted OS's reporter does."""
        for name, node in self.nodes.items():
            component = self.component(name)
            token = (component.desired_state or {}).get('bss_token')
            if token and self.power(name) == states.POWER_ON:
                try:
                    component_writes.report(self.db, name, token)
                except exception.Conflict:
                    pass

    def power(self, name):
        node = self.db.get_node_by_id(self.nodes[name].id)
        return node.driver_internal_info.get(fake.FAKE_POWER_KEY)

    def create(self, **values):
        body = {'name': 's1', 'operation': 'reboot',
                'template_name': 'compute'}
        body.update(values)
        return sessions.create_session(self.db, body)


class TestReboot(OperatorTestCase):

    def test_reboot_completes_with_desired_artifacts(self):
        self.create(limit='compute,!n2')
        self.cycle()
        boot_session = self.db.get_boot_session('s1')
        self.assertEqual(sessions.COMPLETE, boot_session.status)
        self.assertEqual(['n0', 'n1'], boot_session.components)
        for name in ('n0', 'n1'):
            component = self.component(name)
            self.assertEqual(cs.STABLE, component.status)
            self.assertFalse(component.enabled)
            desired = component.desired_state['boot_artifacts']
            self.assertEqual(desired,
                             component.actual_state['boot_artifacts'])
            self.assertEqual(KERNEL, desired['kernel'])
            self.assertIn('console=ttyS0', desired['kernel_parameters'])
            self.assertIn('bos_update_frequency=4h',
                          desired['kernel_parameters'])
            # The boot interface got the token on the command line.
            node = self.db.get_node_by_id(self.nodes[name].id)
            booted = node.driver_internal_info[fake.FakeBoot.KEY]
            self.assertIn('bss_referral_token=%s'
                          % component.desired_state['bss_token'],
                          booted['kernel_parameters'])
        # Left out by the limit, and not in the group: untouched.
        for name in ('n2', 'n3'):
            self.assertIsNone(self.component(name).session)
        status = session_status.build(self.db,
                                      self.db.get_boot_session('s1'))
        self.assertEqual(100.0, status['percent_successful'])
        self.assertEqual({'stable': 2}, status['counts']['status'])
        self.assertEqual(2, status['boot_sets']['compute']['total'])

    def test_status_is_frozen_at_completion(self):
        self.create()
        self.cycle()
        frozen = self.db.get_boot_session('s1').final_status
        self.assertEqual(3, frozen['managed_components_count'])
        # A later session taking the nodes does not change it.
        self.create(name='s2')
        self.run_op('session_setup')
        self.assertEqual(frozen, session_status.build(
            self.db, self.db.get_boot_session('s1')))

    def test_completed_session_is_not_frozen_again(self):
        # Two completion passes that both read the session running (two
        # conductors that both thought they owned it): the second must
        # not rewrite the end time and status a client already read.
        self.create()
        self.cycle()
        first = self.db.get_boot_session('s1')
        self.advance(30)
        self.assertRaises(exception.BootSessionConflict,
                          session_status.freeze, self.db, 's1', {})
        with mock.patch.object(self.db, 'list_boot_session_names',
                               return_value=['s1']):
            self.run_op('session_completion')
        again = self.db.get_boot_session('s1')
        self.assertEqual(first.end_time, again.end_time)
        self.assertEqual(first.final_status, again.final_status)
        # Nor does an abort after the completion.
        self.assertRaises(exception.BootSessionConflict,
                          sessions.abort_session, self.db, 's1')
        self.assertEqual(first.final_status,
                         self.db.get_boot_session('s1').final_status)

    def test_abort_leaves_finished_components_alone(self):
        # Every component done, the completion not run yet: an abort
        # then completes the session as aborted but does not mark the
        # finished components (the completion could have won).
        self.create(limit='n0,n1')
        for name in CYCLE[:-1]:
            self.run_op(name)
            if name == 'power_on':
                self.report_all()
        self.assertEqual(cs.STABLE, self.component('n0').status)
        boot_session = sessions.abort_session(self.db, 's1')
        self.assertEqual(sessions.COMPLETE, boot_session.status)
        self.assertEqual(sessions.ABORTED, boot_session.error)
        for name in ('n0', 'n1'):
            self.assertIsNone(self.component(name).error)
            self.assertEqual(cs.STABLE, self.component(name).status)

    def test_no_node_powered_on_twice_for_one_attempt(self):
        self.create(limit='n0')
        calls = []
        real = fake.FakePower.request_power_state

        def counting(iface, task, power_state):
            calls.append((task.node.name, power_state))
            return real(iface, task, power_state)

        with mock.patch.object(fake.FakePower, 'request_power_state',
                               counting):
            self.run_op('session_setup')
            for _ in range(3):
                self.run_op('status')
                self.run_op('power_off_graceful')
                self.run_op('status')
                self.run_op('power_on')
                self.run_op('power_on')  # a second loop finds nothing
        self.assertEqual([('n0', states.SOFT_POWER_OFF),
                          ('n0', states.POWER_ON)], calls)
        self.assertEqual(1, self.component('n0').event_stats[
            'power_on_attempts'])


class TestFailures(OperatorTestCase):

    def test_never_reporting_is_retried_then_failed_with_the_cause(self):
        self.create(limit='n0')
        for _ in range(4):
            self.cycle(report=False)
            self.advance(1201)
        self.cycle(report=False)
        component = self.component('n0')
        self.assertEqual(cs.FAILED, component.status)
        self.assertFalse(component.enabled)
        self.assertIn('did not report within max_boot_wait_time',
                      component.error)
        self.assertEqual(3, component.event_stats['power_on_attempts'])
        boot_session = self.db.get_boot_session('s1')
        self.assertEqual(sessions.COMPLETE, boot_session.status)
        status = boot_session.final_status
        self.assertEqual(100.0, status['percent_failed'])
        self.assertEqual('n0', status['failed_nodes'][0]['id'])

    def test_ignored_graceful_shutdown_is_forced_after_the_wait(self):
        self.create(limit='n0')
        real = fake.FakePower.request_power_state

        def ignoring_graceful(iface, task, power_state):
            if power_state != states.SOFT_POWER_OFF:
                return real(iface, task, power_state)

        with mock.patch.object(fake.FakePower, 'request_power_state',
                               ignoring_graceful):
            self.run_op('session_setup')
            self.run_op('status')
            self.run_op('power_off_graceful')
            self.run_op('status')
            self.run_op('power_off_forceful')
            self.assertEqual(cs.POWER_OFF_GRACEFULLY_CALLED,
                             self.component('n0').status)
            self.assertEqual(states.POWER_ON, self.power('n0'))
            self.advance(301)
            self.run_op('power_off_forceful')
        self.assertEqual(states.POWER_OFF, self.power('n0'))
        self.assertEqual(cs.POWER_OFF_FORCEFULLY_CALLED,
                         self.component('n0').status)
        self.cycle()
        self.assertEqual(cs.STABLE, self.component('n0').status)

    def test_power_on_failure_records_the_bmc_error(self):
        self.create(limit='n0')

        def failing(iface, task, power_state):
            if power_state == states.POWER_ON:
                raise exception.PowerStateFailure('BMC says: no power budget')
            task.update_node({'driver_internal_info': dict(
                task.node.driver_internal_info,
                **{fake.FAKE_POWER_KEY: states.POWER_OFF})})

        with mock.patch.object(fake.FakePower, 'request_power_state',
                               failing):
            for _ in range(4):
                self.cycle()
        component = self.component('n0')
        self.assertEqual(cs.FAILED, component.status)
        self.assertIn('no power budget', component.error)
        self.assertIn('powering_on failed', component.error)

    def test_a_configuration_that_does_not_exist_fails_the_component(self):
        self.db.update_boot_template('compute', {
            'enable_cfs': True, 'cfs': {'configuration': 'site-config'}})
        self.create(limit='n0')
        for _ in range(3):
            self.cycle()
        component = self.component('n0')
        self.assertEqual(cs.FAILED, component.status)
        self.assertIn("host OS configuration 'site-config' failed",
                      component.error)

    def test_configured_when_the_host_os_configuration_is_ok(self):
        self.db.create_hostos_module({
            'name': 'motd', 'version': '1.0.0', 'url': 'http://x/m.tgz',
            'sha256sum': 'a' * 64, 'state': 'available',
            'playbook': 'main.yaml'})
        configuration = self.db.create_hostos_configuration({
            'name': 'site-config',
            'machine_selector': {'match_labels': {'role': 'Compute'}},
            'configs': [{'module': 'motd', 'module_version': '1.0.0',
                         'values': {}}],
            'secret_values': [None]})
        self.db.sync_hostos_items([configuration.id])
        self.db.update_boot_template('compute', {
            'enable_cfs': True, 'cfs': {'configuration': 'site-config'}})
        self.create(limit='n0')
        self.cycle()
        component = self.component('n0')
        self.assertEqual(cs.CONFIGURING, component.status)
        self.assertIn('waiting for host OS configuration site-config',
                      component.error)
        # The node's host agent reports every item done.
        items = self.db.list_hostos_items(configuration.id,
                                          [self.nodes['n0'].id])
        _, token, _, _, _ = self.db.hostos_heartbeat(
            self.nodes['n0'].uuid, None, '1', [], [])
        self.db.hostos_heartbeat(
            self.nodes['n0'].uuid, token, '1',
            [{'name': row.name, 'hash': row.spec_hash, 'state': 'ok',
              'exit_code': 0} for row, _, _ in items], [])
        for name in ('configuration', 'status', 'session_completion'):
            self.run_op(name)
        self.assertEqual(cs.STABLE, self.component('n0').status)
        self.assertEqual(sessions.COMPLETE,
                         self.db.get_boot_session('s1').status)


class TestShutdownAndAbort(OperatorTestCase):

    def test_shutdown(self):
        self.create(operation='shutdown', limit='n0,n1')
        self.cycle()
        for name in ('n0', 'n1'):
            self.assertEqual(states.POWER_OFF, self.power(name))
            self.assertEqual(cs.STABLE, self.component(name).status)
        self.assertEqual(states.POWER_ON, self.power('n2'))
        self.assertEqual(sessions.COMPLETE,
                         self.db.get_boot_session('s1').status)

    def test_abort_stops_power_actions(self):
        self.create()
        self.run_op('session_setup')
        self.run_op('status')
        sessions.abort_session(self.db, 's1')
        self.cycle()
        for name in ('n0', 'n1', 'n2'):
            self.assertEqual(states.POWER_ON, self.power(name))
            self.assertFalse(self.component(name).enabled)
        boot_session = self.db.get_boot_session('s1')
        self.assertEqual('aborted', boot_session.error)
        self.assertEqual(sessions.COMPLETE, boot_session.status)


class TestStaged(OperatorTestCase):

    def _staged(self, clear_stage):
        self.db.set_boot_options({'clear_stage': clear_stage})
        self.create(stage=True, limit='n0')
        self.cycle()
        component = self.component('n0')
        self.assertFalse(component.enabled)
        self.assertEqual('s1', component.staged_state['session'])
        self.assertEqual(sessions.RUNNING,
                         self.db.get_boot_session('s1').status)
        outcome = staged.apply_staged(self.db, ['n0', 'n1', 'nope'])
        self.assertEqual({'succeeded': ['n0'], 'failed': ['nope'],
                          'ignored': ['n1']}, outcome)
        self.cycle()
        self.assertEqual(cs.STABLE, self.component('n0').status)
        return self.db.get_boot_session('s1')

    def test_clear_stage_true_completes(self):
        boot_session = self._staged(True)
        self.assertEqual(sessions.COMPLETE, boot_session.status)
        self.assertEqual({}, self.component('n0').staged_state)

    def test_clear_stage_false_never_completes(self):
        # BOS's code, not the seed's prose: with the default the staged
        # state stays, so the staged session never completes.
        boot_session = self._staged(False)
        self.assertEqual(sessions.RUNNING, boot_session.status)
        self.assertEqual('s1', self.component('n0').staged_state['session'])


class TestSelection(OperatorTestCase):

    def test_preview_names_every_exclusion(self):
        self.db.update_node(self.nodes['n1'].id, {'maintenance': True})
        self.db.update_node(self.nodes['n2'].id,
                            {'properties': {'cpu_arch': 'aarch64'}})
        result = sessions.preview(self.db, {
            'operation': 'reboot', 'template_name': 'compute',
            'limit': 'all,!n0'})
        boot_set = result['boot_sets']['compute']
        self.assertEqual([], boot_set['nodes'])
        self.assertEqual([{'id': 'n0', 'reason': 'limit'},
                          {'id': 'n1', 'reason': 'disabled'},
                          {'id': 'n2', 'reason': 'arch'}],
                         boot_set['excluded'])

    def test_unknown_limit_names_are_refused(self):
        error = self.assertRaises(exception.InvalidParameterValue,
                                  self.create, limit='compute,nosuch')
        self.assertEqual('limit', error.field)
        self.assertIn('nosuch', str(error))
        self.assertRaises(exception.BootSessionNotFound,
                          self.db.get_boot_session, 's1')

    def test_roles_and_subroles(self):
        self.db.put_boot_template('uan', {'boot_sets': {'uan': {
            'name': 'uan', 'kernel': KERNEL, 'initrd': INITRD,
            'node_roles_groups': ['Application_UAN']}}})
        result = sessions.preview(self.db, {'operation': 'boot',
                                            'template_name': 'uan'})
        self.assertEqual(['n3'], result['boot_sets']['uan']['nodes'])

    def test_nodes_of_a_running_session_need_takeover(self):
        self.create(limit='n0,n1')
        self.run_op('session_setup')
        error = self.assertRaises(exception.BootSessionConflict,
                                  self.create, name='s2')
        self.assertIn('s1: n0, n1', str(error))
        self.create(name='s2', takeover=True)
        self.run_op('session_setup')
        self.assertEqual('s2', self.component('n0').session)
        self.assertEqual(['n0', 'n1', 'n2'],
                         self.db.get_boot_session('s2').components)

    def test_no_nodes_completes_with_bos_error(self):
        self.create(limit='n3')  # not in the boot set
        self.run_op('session_setup')
        boot_session = self.db.get_boot_session('s1')
        self.assertEqual(sessions.COMPLETE, boot_session.status)
        self.assertEqual('No nodes were found to act upon.',
                         boot_session.error)


class TestCleanups(OperatorTestCase):

    def test_session_cleanup_ttl(self):
        self.create(limit='n3')
        self.run_op('session_setup')
        self.advance(7 * 86400 - 10)
        self.run_op('session_cleanup')
        self.db.get_boot_session('s1')
        self.advance(20)
        self.run_op('session_cleanup')
        self.assertRaises(exception.BootSessionNotFound,
                          self.db.get_boot_session, 's1')

    def test_session_cleanup_zero_disables(self):
        self.db.set_boot_options({'cleanup_completed_session_ttl': '0d'})
        self.create(limit='n3')
        self.run_op('session_setup')
        self.advance(30 * 86400)
        self.run_op('session_cleanup')
        self.db.get_boot_session('s1')

    def test_actual_state_cleanup_ttl(self):
        self.create(limit='n0')
        self.cycle()
        self.assertTrue(self.component('n0').actual_state)
        self.advance(4 * 3600 - 10)
        self.run_op('actual_state_cleanup')
        self.assertTrue(self.component('n0').actual_state)
        self.advance(20)
        self.run_op('actual_state_cleanup')
        component = self.component('n0')
        self.assertEqual({}, component.actual_state)
        self.assertEqual(cs.ACTUAL_STATE_CLEANUP,
                         component.last_action['action'])

    def test_discovery_repairs_missing_components(self):
        from ironic_like.db.sqlalchemy import api as sa_api
        from ironic_like.db.sqlalchemy import models
        with sa_api._writer() as session:
            session.query(models.BootComponent).filter_by(
                node_id=self.nodes['n0'].id).delete()
        self.assertRaises(exception.BootComponentNotFound,
                          self.db.get_boot_component, self.nodes['n0'].id)
        self.run_op('discovery')
        self.assertFalse(self.component('n0').enabled)


class TestPowerOnCaps(OperatorTestCase):

    def _statuses(self):
        return sorted(self.component(n).status for n in ('n0', 'n1', 'n2'))

    def _to_power_on(self):
        self.create()
        self.run_op('session_setup')
        self.run_op('status')
        self.run_op('power_off_graceful')
        self.run_op('status')
        self.assertEqual([cs.POWER_ON_PENDING] * 3, self._statuses())

    def test_session_cap(self):
        self.db.set_boot_options({'session_max_concurrent_power_on': 2})
        self._to_power_on()
        self.run_op('power_on')
        self.assertEqual([cs.POWER_ON_CALLED, cs.POWER_ON_CALLED,
                          cs.POWER_ON_PENDING], self._statuses())
        self.run_op('power_on')  # still two booting: no room
        self.assertEqual(1, self._statuses().count(cs.POWER_ON_PENDING))
        self.report_all()
        self.run_op('status')
        self.run_op('power_on')
        self.assertNotIn(cs.POWER_ON_PENDING, self._statuses())

    def test_fleet_cap(self):
        self.config(max_concurrent_power_on=1, group='boot')
        self._to_power_on()
        self.run_op('power_on')
        self.assertEqual(2, self._statuses().count(cs.POWER_ON_PENDING))


class TestWakeUps(base.TestCase):
    """With polling every hour, a session still runs to completion: each
    hand-off wakes the operator that acts next."""

    def test_session_completes_without_polling(self):
        from ironic_like.common import context as ctx
        from ironic_like.conductor import rpcapi
        from ironic_like.tests.unit.conductor import utils as cond_utils
        from ironic_like.tests import utils as test_utils
        self.config(takeover_check_interval=3600,
                    sync_power_state_interval=0, group='conductor')
        self.config(operators_enabled=True, group='boot')
        self.db.set_boot_options({'polling_frequency': 3600,
                                  'discovery_frequency': 3600})
        conductor = self.useFixture(cond_utils.RunningConductor())
        node = utils.create_test_node(
            name='w0', labels={'group.compute': ''},
            power_state=states.POWER_OFF,
            properties={'cpu_arch': 'x86_64'})
        self.db.put_boot_template('compute', {'boot_sets': {'compute': {
            'kernel': KERNEL, 'initrd': INITRD,
            'node_groups': ['compute']}}, 'enable_cfs': False})
        sessions.create_session(self.db, {
            'name': 'w', 'operation': 'boot', 'template_name': 'compute'})
        api = rpcapi.ConductorAPI()
        context = ctx.get_admin_context()
        api.wake_boot_operators(context, ['session_setup'])

        def booting():
            component, _n = self.db.get_boot_component(node.id)
            return (component.status == cs.POWER_ON_CALLED
                    and component.desired_state.get('bss_token')
                    and component)
        component = test_utils.wait_for(booting, timeout=20)
        component_writes.report(self.db, 'w0',
                                component.desired_state['bss_token'])
        api.wake_boot_operators(context, ['status'])
        test_utils.wait_for(
            lambda: self.db.get_boot_session('w').status == 'complete',
            timeout=20)
        loops = conductor.service.boot_operators.stats()
        # Woken, not polled: each ran a handful of loops, not one per
        # hour.
        self.assertGreaterEqual(loops['power_on']['loops'], 2)


class TestTargetedWakeUps(OperatorTestCase):

    def test_status_woken_for_some_nodes_looks_at_those_only(self):
        self.create(limit='n0,n1')
        self.run_op('session_setup')
        status = self.operators.ctx.operators['status']
        status.run_once(self.options(), {self.nodes['n0'].id})
        self.assertEqual(cs.POWER_OFF_PENDING, self.component('n0').status)
        self.assertEqual(cs.ON_HOLD, self.component('n1').status)

    def test_wake_and_schedule_queue_targets(self):
        status = self.operators.ctx.operators['status']
        status._take_work(15)  # the first loop is a full pass
        status.wake([7])
        self.assertEqual((False, {7}), status._take_work(15))
        status.schedule(8, 0)
        with mock.patch.object(base_operator.time, 'monotonic',
                               return_value=base_operator.time.monotonic()
                               + 1):
            self.assertEqual((False, {8}), status._take_work(15))
        status.wake()
        self.assertTrue(status._take_work(15)[0])
        # Operators that are not targeted make a full pass on any wake.
        power_on = self.operators.ctx.operators['power_on']
        power_on._take_work(15)
        power_on.wake([7])
        self.assertEqual((True, set()), power_on._take_work(15))
