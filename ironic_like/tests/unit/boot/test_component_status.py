"""Component status (common/boot/component_status.py): BOS's computed
status, and the status operator's decision table row by row."""

import datetime
import itertools

from ironic_like.common.boot import component_status as cs
from ironic_like.common.boot import options
from ironic_like.tests import base

NOW = datetime.datetime(2026, 2, 6, 12, 0, 0, tzinfo=datetime.timezone.utc)
OPTIONS = options.effective({})
BOOTED = {'kernel': 'http://img/k', 'initrd': 'http://img/i',
          'kernel_parameters': 'console=ttyS0 bos_update_frequency=4h'}
OLD = {'kernel': 'http://img/old-k', 'initrd': 'http://img/i',
       'kernel_parameters': 'console=ttyS0 bos_update_frequency=4h'}


def ago(seconds):
    return NOW - datetime.timedelta(seconds=seconds)


def component(desired=BOOTED, actual=None, action=None, seconds_ago=0,
              failed=False, phase='', override='', configuration='',
              error=None, enabled=True, event_stats=None):
    return {
        'id': 'n1',
        'desired_state': {'boot_artifacts': dict(desired or {}),
                          'configuration': configuration},
        'actual_state': {'boot_artifacts': dict(actual or {}),
                         'bss_token': 'tok' if actual else ''},
        'last_action': {'action': action, 'failed': failed,
                        'last_updated': ago(seconds_ago)},
        'status': {'phase': phase, 'status_override': override},
        'event_stats': event_stats or {'power_on_attempts': 1,
                                       'power_off_graceful_attempts': 1,
                                       'power_off_forceful_attempts': 0},
        'enabled': enabled,
        'error': error,
    }


def decide(comp, power_state, **kwargs):
    return cs.decide(comp, power_state, NOW, OPTIONS, **kwargs)


class TestComputedStatus(base.TestCase):

    def test_every_combination(self):
        actions = (None,) + cs.ACTIONS
        for phase, action, failed in itertools.product(
                cs.PHASES + ('bogus',), actions, (False, True)):
            last_action = {'action': action, 'failed': failed}
            expected = self._expected(phase, action, failed)
            self.assertEqual(expected,
                             cs.computed_status(phase, '', last_action),
                             (phase, action, failed))
            self.assertEqual(expected,
                             cs.computed_status(phase, None, last_action))
            for override in (cs.FAILED, cs.ON_HOLD):
                self.assertEqual(override, cs.computed_status(
                    phase, override, last_action))

    @staticmethod
    def _expected(phase, action, failed):
        if phase == cs.PHASE_POWERING_ON:
            if action == cs.POWERING_ON and not failed:
                return cs.POWER_ON_CALLED
            return cs.POWER_ON_PENDING
        if phase == cs.PHASE_POWERING_OFF:
            return {cs.POWERING_OFF_GRACEFULLY: cs.POWER_OFF_GRACEFULLY_CALLED,
                    cs.POWERING_OFF_FORCEFULLY: cs.POWER_OFF_FORCEFULLY_CALLED,
                    }.get(action, cs.POWER_OFF_PENDING)
        if phase == cs.PHASE_CONFIGURING:
            return cs.CONFIGURING
        return cs.STABLE

    def test_spot_values(self):
        self.assertEqual('power_on_called', cs.computed_status(
            'powering_on', '', {'action': 'powering_on', 'failed': False}))
        self.assertEqual('power_on_pending', cs.computed_status(
            'powering_on', '', {'action': 'powering_on', 'failed': True}))
        self.assertEqual('power_off_pending', cs.computed_status(
            'powering_off', '', {'action': 'session_setup'}))
        self.assertEqual('stable', cs.computed_status('', '', None))
        self.assertEqual('power_on_pending',
                         cs.computed_status('powering_on', '', None))

    def test_constants(self):
        self.assertEqual(
            ['power_on_pending', 'power_on_called', 'power_off_pending',
             'power_off_gracefully_called', 'power_off_forcefully_called',
             'configuring', 'stable', 'failed', 'on_hold'], list(cs.STATUSES))
        self.assertEqual(['powering_on', 'powering_off', 'configuring', ''],
                         list(cs.PHASES))
        self.assertEqual(
            ['actual_state_cleanup', 'apply_staged', 'newly_discovered',
             'powering_off_forcefully', 'powering_off_gracefully',
             'powering_on', 'session_setup'], list(cs.ACTIONS))


class TestRow0NoPowerState(base.TestCase):

    def test_unknown_power_state(self):
        comp = component(phase='powering_off',
                         action='powering_off_gracefully')
        for state in (None, 'undefined'):
            decision = decide(comp, state)
            self.assertEqual(cs.ON_HOLD, decision.status_override)
            self.assertTrue(decision.disable)
            self.assertEqual('Component information was not returned by the '
                             'power interface', decision.error)
            # The phase is left alone: no retry counters reset, no actual
            # state cleared.
            self.assertEqual('powering_off', decision.phase)
            self.assertFalse(decision.reset_event_stats)
            self.assertFalse(decision.clear_actual_state)

    def test_reason_is_given(self):
        decision = decide(component(), None,
                          power_error='BMC 10.0.0.1: 401 Unauthorized')
        self.assertEqual('Component information was not returned by the '
                         'power interface: BMC 10.0.0.1: 401 Unauthorized',
                         decision.error)

    def test_unexpected_power_state(self):
        decision = decide(component(), 'paused')
        self.assertEqual(cs.ON_HOLD, decision.status_override)
        self.assertIn("unexpected power state 'paused'", decision.error)

    def test_node_power_states_are_understood(self):
        comp = component(desired={})
        self.assertEqual(decide(comp, 'off'), decide(comp, 'power off'))
        self.assertEqual(decide(comp, 'on'), decide(comp, 'power on'))
        self.assertEqual('powering_off', decide(comp, 'power on').phase)

    def test_failed_component_goes_on_hold(self):
        decision = decide(component(override='failed'), None)
        self.assertEqual(cs.ON_HOLD, decision.status_override)

    def test_changes(self):
        comp = component(phase='powering_on', override='on_hold')
        self.assertEqual(
            {'enabled': False,
             'error': 'Component information was not returned by the power '
                      'interface: timeout'},
            cs.changes(comp, decide(comp, None, power_error='timeout')))


class TestRow1Failed(base.TestCase):

    def test_failed_stays_failed_and_is_disabled(self):
        comp = component(override='failed', phase='powering_on',
                         action='powering_on', seconds_ago=10)
        decision = decide(comp, 'off')
        self.assertEqual(cs.FAILED, decision.status_override)
        self.assertTrue(decision.disable)
        # The phase is still computed.
        self.assertEqual('powering_on', decision.phase)
        self.assertEqual({'enabled': False}, cs.changes(comp, decision))

    def test_failed_with_phase_change(self):
        comp = component(override='failed', phase='powering_on',
                         desired={}, actual=None)
        decision = decide(comp, 'off')
        self.assertEqual('', decision.phase)
        self.assertEqual(cs.FAILED, decision.status_override)
        self.assertTrue(decision.disable)
        self.assertTrue(decision.reset_event_stats)

    def test_on_hold_is_cleared(self):
        comp = component(override='on_hold', phase='',
                         action='session_setup')
        decision = decide(comp, 'on')
        self.assertEqual('', decision.status_override)
        self.assertFalse(decision.disable)
        self.assertEqual({'status': {'phase': 'powering_off',
                                     'status_override': ''}},
                         cs.changes(comp, decision))


class TestRow2PoweredOff(base.TestCase):

    def test_desired_off_is_done(self):
        comp = component(desired={}, phase='powering_off',
                         action='powering_off_gracefully', actual=BOOTED)
        decision = decide(comp, 'off')
        self.assertEqual('', decision.phase)
        self.assertTrue(decision.disable)
        self.assertIsNone(decision.error)
        self.assertTrue(decision.reset_event_stats)
        self.assertTrue(decision.clear_actual_state)
        self.assertEqual(
            {'status': {'phase': ''}, 'enabled': False,
             'actual_state': {'boot_artifacts': {'kernel': '', 'initrd': '',
                                                 'kernel_parameters': ''},
                              'bss_token': ''},
             'event_stats': {'power_on_attempts': 0,
                             'power_off_graceful_attempts': 0,
                             'power_off_forceful_attempts': 0}},
            cs.changes(comp, decision))

    def test_desired_off_without_disabling(self):
        decision = cs.decide(component(desired={}), 'off', NOW,
                             dict(OPTIONS,
                                  disable_components_on_completion=False))
        self.assertEqual('', decision.phase)
        self.assertFalse(decision.disable)

    def test_desired_boot_powers_on(self):
        comp = component(phase='powering_off',
                         action='powering_off_gracefully')
        decision = decide(comp, 'off')
        self.assertEqual('powering_on', decision.phase)
        self.assertFalse(decision.disable)
        self.assertFalse(decision.last_action_failed)
        self.assertTrue(decision.clear_actual_state)
        self.assertFalse(decision.reset_event_stats)

    def test_power_on_still_within_wait(self):
        comp = component(phase='powering_on', action='powering_on',
                         seconds_ago=120)
        decision = decide(comp, 'off')
        self.assertEqual('powering_on', decision.phase)
        self.assertFalse(decision.last_action_failed)
        self.assertIsNone(decision.error)
        self.assertEqual({}, cs.changes(comp, decision))

    def test_power_on_wait_elapsed(self):
        comp = component(phase='powering_on', action='powering_on',
                         seconds_ago=121)
        decision = decide(comp, 'off')
        self.assertEqual('powering_on', decision.phase)
        self.assertTrue(decision.last_action_failed)
        self.assertFalse(decision.disable)
        self.assertEqual('power on did not complete within '
                         'max_power_on_wait_time (120 s)', decision.error)
        self.assertEqual({'last_action': {'failed': True},
                          'error': decision.error},
                         cs.changes(comp, decision))

    def test_power_on_wait_elapsed_already_recorded(self):
        comp = component(phase='powering_on', action='powering_on',
                         seconds_ago=500, failed=True,
                         error='power on did not complete within '
                               'max_power_on_wait_time (120 s)')
        self.assertEqual({}, cs.changes(comp, decide(comp, 'off')))

    def test_power_on_wait_follows_the_option(self):
        comp = component(phase='powering_on', action='powering_on',
                         seconds_ago=31)
        decision = cs.decide(comp, 'off', NOW,
                             dict(OPTIONS, max_power_on_wait_time=30))
        self.assertTrue(decision.last_action_failed)
        self.assertIn('(30 s)', decision.error)

    def test_other_last_action_never_fails(self):
        comp = component(phase='powering_off',
                         action='powering_off_forcefully', seconds_ago=9999)
        self.assertFalse(decide(comp, 'off').last_action_failed)

    def test_missing_time_counts_as_elapsed(self):
        comp = component(phase='powering_on', action='powering_on')
        comp['last_action']['last_updated'] = None
        self.assertTrue(decide(comp, 'off').last_action_failed)


class TestRow3DesiredOff(base.TestCase):

    def test_powered_on_and_desired_off(self):
        for desired in ({}, None, {'kernel': '', 'initrd': 'http://i'}):
            comp = component(desired=desired, actual=BOOTED)
            decision = decide(comp, 'on')
            self.assertEqual('powering_off', decision.phase)
            self.assertFalse(decision.disable)
            self.assertFalse(decision.clear_actual_state)

    def test_staying_in_powering_off_keeps_actual_state(self):
        comp = component(desired={}, actual=BOOTED, phase='powering_off')
        decision = decide(comp, 'on')
        self.assertFalse(decision.clear_actual_state)
        self.assertEqual({}, cs.changes(comp, decision))


class TestRow4Booted(base.TestCase):

    def booted(self, configuration='', phase='powering_on'):
        return component(actual=BOOTED, action='powering_on',
                         seconds_ago=60, phase=phase,
                         configuration=configuration)

    def test_no_configuration_is_done(self):
        comp = self.booted()
        decision = decide(comp, 'on')
        self.assertEqual('', decision.phase)
        self.assertTrue(decision.disable)
        self.assertTrue(decision.reset_event_stats)
        self.assertFalse(decision.clear_actual_state)
        self.assertIsNone(decision.error)

    def test_done_without_disabling(self):
        decision = cs.decide(self.booted(), 'on', NOW,
                             dict(OPTIONS,
                                  disable_components_on_completion=False))
        self.assertEqual('', decision.phase)
        self.assertFalse(decision.disable)

    def test_match_ignores_none_versus_empty(self):
        comp = component(desired=dict(BOOTED, kernel_parameters=''),
                         actual=dict(BOOTED, kernel_parameters=None))
        self.assertTrue(cs.artifacts_match(comp))
        self.assertEqual('', decide(comp, 'on').phase)

    def test_configuration_not_available_yet(self):
        comp = self.booted(configuration='compute-23.4')
        decision = decide(comp, 'on')
        self.assertEqual('configuring', decision.phase)
        self.assertFalse(decision.disable)
        self.assertIsNone(decision.error)
        self.assertEqual('', decision.status_override)

    def test_configured(self):
        decision = decide(self.booted('compute-23.4', phase='configuring'),
                          'on', configuration_status='configured')
        self.assertEqual('', decision.phase)
        self.assertTrue(decision.disable)
        self.assertTrue(decision.reset_event_stats)

    def test_configuration_failed(self):
        comp = self.booted('compute-23.4', phase='configuring')
        decision = decide(comp, 'on', configuration_status='failed')
        self.assertEqual('configuring', decision.phase)
        self.assertTrue(decision.disable)
        self.assertEqual(cs.FAILED, decision.status_override)
        self.assertEqual("host OS configuration 'compute-23.4' failed",
                         decision.error)
        self.assertEqual({'status': {'status_override': 'failed'},
                          'enabled': False, 'error': decision.error},
                         cs.changes(comp, decision))

    def test_configuration_pending(self):
        decision = decide(self.booted('compute-23.4'), 'on',
                          configuration_status='pending')
        self.assertEqual('configuring', decision.phase)
        self.assertFalse(decision.disable)
        self.assertEqual('', decision.status_override)

    def test_configuration_status_is_case_insensitive(self):
        decision = decide(self.booted('c'), 'on',
                          configuration_status='Configured')
        self.assertEqual('', decision.phase)

    def test_invalid_configuration_status(self):
        decision = decide(self.booted('compute-23.4'), 'on',
                          configuration_status='weird')
        self.assertEqual('configuring', decision.phase)
        self.assertTrue(decision.disable)
        self.assertEqual(cs.FAILED, decision.status_override)
        self.assertEqual("host OS configuration 'compute-23.4' is not "
                         "reporting a valid configuration status for this "
                         "component: 'weird'", decision.error)

    def test_booted_after_boot_wait_still_counts(self):
        # M wins over the boot wait: a late report is still a success.
        comp = component(actual=BOOTED, action='powering_on',
                         seconds_ago=99999, phase='powering_on')
        self.assertEqual('', decide(comp, 'on').phase)


class TestRow5Booting(base.TestCase):

    def test_within_boot_wait(self):
        for actual in (None, OLD):
            comp = component(actual=actual, action='powering_on',
                             seconds_ago=1200, phase='powering_on')
            decision = decide(comp, 'on')
            self.assertEqual('powering_on', decision.phase)
            self.assertFalse(decision.disable)
            self.assertIsNone(decision.error)
            self.assertEqual({}, cs.changes(comp, decision))

    def test_boot_wait_follows_the_option(self):
        comp = component(action='powering_on', seconds_ago=601,
                         phase='powering_on')
        decision = cs.decide(comp, 'on', NOW,
                             dict(OPTIONS, max_boot_wait_time=600))
        self.assertEqual('powering_off', decision.phase)
        self.assertIn('(600 s)', decision.error)


class TestRow6Reboot(base.TestCase):

    def test_boot_wait_elapsed_without_report(self):
        comp = component(action='powering_on', seconds_ago=1201,
                         phase='powering_on')
        decision = decide(comp, 'on')
        self.assertEqual('powering_off', decision.phase)
        self.assertFalse(decision.disable)
        self.assertFalse(decision.last_action_failed)
        self.assertEqual('the booted OS did not report within '
                         'max_boot_wait_time (1200 s)', decision.error)
        self.assertEqual({'status': {'phase': 'powering_off'},
                          'error': decision.error},
                         cs.changes(comp, decision))

    def test_boot_wait_elapsed_with_other_artifacts(self):
        comp = component(actual=OLD, action='powering_on', seconds_ago=1201,
                         phase='powering_on')
        decision = decide(comp, 'on')
        self.assertEqual('powering_off', decision.phase)
        self.assertEqual('the booted OS reported boot artifacts other than '
                         'the desired ones (kernel differ) within '
                         'max_boot_wait_time (1200 s)', decision.error)

    def test_reboot_needed(self):
        for action in (None, 'session_setup', 'apply_staged',
                       'powering_off_gracefully', 'actual_state_cleanup'):
            comp = component(actual=OLD, action=action, phase='')
            decision = decide(comp, 'on')
            self.assertEqual('powering_off', decision.phase, action)
            self.assertIsNone(decision.error)
            self.assertFalse(decision.clear_actual_state)
            self.assertFalse(decision.reset_event_stats)

    def test_nothing_reported_and_not_powered_on_by_us(self):
        comp = component(actual=None, action='session_setup')
        self.assertEqual('powering_off', decide(comp, 'on').phase)


class TestTimeHandling(base.TestCase):

    def test_naive_and_text_times(self):
        comp = component(phase='powering_on', action='powering_on')
        comp['last_action']['last_updated'] = '2026-02-06T11:57:00Z'
        self.assertTrue(decide(comp, 'off').last_action_failed)
        comp['last_action']['last_updated'] = datetime.datetime(
            2026, 2, 6, 11, 59, 0)
        self.assertFalse(decide(comp, 'off').last_action_failed)
        naive_now = NOW.replace(tzinfo=None)
        self.assertTrue(cs.decide(comp, 'off', naive_now + datetime.timedelta(
            seconds=61), OPTIONS).last_action_failed)

    def test_options_may_be_partial(self):
        comp = component(phase='powering_on', action='powering_on',
                         seconds_ago=121)
        self.assertTrue(cs.decide(comp, 'off', NOW, {}).last_action_failed)
        self.assertTrue(cs.decide(comp, 'off', NOW, None).last_action_failed)


class TestChanges(base.TestCase):

    def test_nothing_to_change(self):
        comp = component(phase='configuring', configuration='c',
                         actual=BOOTED)
        self.assertEqual({}, cs.changes(comp, decide(comp, 'on')))

    def test_unchanged_sentinel(self):
        comp = component(phase='powering_on', override='on_hold')
        decision = cs.Decision(phase=cs.UNCHANGED,
                               status_override=cs.UNCHANGED)
        self.assertEqual({}, cs.changes(comp, decision))

    def test_same_error_is_not_rewritten(self):
        comp = component(error='boom')
        decision = cs.Decision(phase='', error='boom')
        self.assertNotIn('error', cs.changes(comp, decision))

    def test_sparse_component(self):
        comp = {'id': 'n1', 'enabled': True, 'status': None,
                'last_action': None, 'desired_state': None,
                'actual_state': None}
        decision = decide(comp, 'off')
        self.assertEqual('', decision.phase)
        self.assertEqual({'enabled': False}, cs.changes(comp, decision))
