"""The provision state machine table."""

import testtools

from ironic_like.common import states

S = states

# The whole table, written out independently of states._TRANSITIONS so a
# change to the machine has to change this test too.
EXPECTED = {
    (S.ENROLL, 'manage'): S.VERIFYING,
    (S.VERIFYING, 'done'): S.MANAGEABLE,
    (S.VERIFYING, 'fail'): S.ENROLL,
    (S.MANAGEABLE, 'provide'): S.CLEANING,
    (S.MANAGEABLE, 'clean'): S.CLEANING,
    (S.MANAGEABLE, 'manage'): S.MANAGEABLE,
    (S.MANAGEABLE, 'adopt'): S.ADOPTING,
    (S.ADOPTING, 'done'): S.ACTIVE,
    (S.ADOPTING, 'fail'): S.ADOPTFAIL,
    (S.ADOPTFAIL, 'adopt'): S.ADOPTING,
    (S.ADOPTFAIL, 'manage'): S.MANAGEABLE,
    (S.CLEANING, 'done'): S.AVAILABLE,
    (S.CLEANING, 'wait'): S.CLEANWAIT,
    (S.CLEANING, 'fail'): S.CLEANFAIL,
    (S.CLEANING, 'abort'): S.CLEANFAIL,
    (S.CLEANWAIT, 'resume'): S.CLEANING,
    (S.CLEANWAIT, 'fail'): S.CLEANFAIL,
    (S.CLEANWAIT, 'abort'): S.CLEANFAIL,
    (S.CLEANFAIL, 'manage'): S.MANAGEABLE,
    (S.AVAILABLE, 'manage'): S.MANAGEABLE,
    (S.AVAILABLE, 'deploy'): S.DEPLOYING,
    (S.DEPLOYING, 'done'): S.ACTIVE,
    (S.DEPLOYING, 'wait'): S.DEPLOYWAIT,
    (S.DEPLOYING, 'fail'): S.DEPLOYFAIL,
    (S.DEPLOYING, 'abort'): S.DEPLOYFAIL,
    (S.DEPLOYWAIT, 'resume'): S.DEPLOYING,
    (S.DEPLOYWAIT, 'fail'): S.DEPLOYFAIL,
    (S.DEPLOYWAIT, 'abort'): S.DEPLOYFAIL,
    (S.DEPLOYFAIL, 'deploy'): S.DEPLOYING,
    (S.DEPLOYFAIL, 'rebuild'): S.DEPLOYING,
    (S.DEPLOYFAIL, 'deleted'): S.DELETING,
    (S.ACTIVE, 'rebuild'): S.DEPLOYING,
    (S.ACTIVE, 'deleted'): S.DELETING,
    (S.DELETING, 'done'): S.CLEANING,
    (S.DELETING, 'fail'): S.ERROR,
    (S.ERROR, 'rebuild'): S.DEPLOYING,
    (S.ERROR, 'deleted'): S.DELETING,
    (S.MANAGEABLE, 'inspect'): S.INSPECTING,
    (S.INSPECTFAIL, 'inspect'): S.INSPECTING,
    (S.INSPECTFAIL, 'manage'): S.MANAGEABLE,
    (S.INSPECTING, 'done'): S.MANAGEABLE,
    (S.INSPECTING, 'wait'): S.INSPECTWAIT,
    (S.INSPECTING, 'fail'): S.INSPECTFAIL,
    (S.INSPECTWAIT, 'resume'): S.INSPECTING,
    (S.INSPECTWAIT, 'done'): S.MANAGEABLE,
    (S.INSPECTWAIT, 'fail'): S.INSPECTFAIL,
    (S.INSPECTWAIT, 'abort'): S.INSPECTFAIL,
    # Rescue, as Ironic's machine.
    (S.ACTIVE, 'rescue'): S.RESCUING,
    (S.RESCUING, 'done'): S.RESCUE,
    (S.RESCUING, 'wait'): S.RESCUEWAIT,
    (S.RESCUING, 'fail'): S.RESCUEFAIL,
    (S.RESCUEWAIT, 'resume'): S.RESCUING,
    (S.RESCUEWAIT, 'fail'): S.RESCUEFAIL,
    (S.RESCUEWAIT, 'abort'): S.RESCUEFAIL,
    (S.RESCUEWAIT, 'deleted'): S.DELETING,
    (S.RESCUE, 'rescue'): S.RESCUING,
    (S.RESCUE, 'unrescue'): S.UNRESCUING,
    (S.RESCUE, 'deleted'): S.DELETING,
    (S.RESCUEFAIL, 'rescue'): S.RESCUING,
    (S.RESCUEFAIL, 'unrescue'): S.UNRESCUING,
    (S.RESCUEFAIL, 'deleted'): S.DELETING,
    (S.UNRESCUING, 'done'): S.ACTIVE,
    (S.UNRESCUING, 'fail'): S.UNRESCUEFAIL,
    (S.UNRESCUEFAIL, 'rescue'): S.RESCUING,
    (S.UNRESCUEFAIL, 'unrescue'): S.UNRESCUING,
    (S.UNRESCUEFAIL, 'deleted'): S.DELETING,
    # Holds (API 1.85).
    (S.CLEANING, 'hold'): S.CLEANHOLD,
    (S.CLEANWAIT, 'hold'): S.CLEANHOLD,
    (S.CLEANHOLD, 'unhold'): S.CLEANWAIT,
    (S.CLEANHOLD, 'abort'): S.CLEANFAIL,
    (S.DEPLOYING, 'hold'): S.DEPLOYHOLD,
    (S.DEPLOYWAIT, 'hold'): S.DEPLOYHOLD,
    (S.DEPLOYHOLD, 'unhold'): S.DEPLOYWAIT,
    (S.DEPLOYHOLD, 'abort'): S.DEPLOYFAIL,
    # Servicing (API 1.87).
    (S.ACTIVE, 'service'): S.SERVICING,
    (S.SERVICING, 'done'): S.ACTIVE,
    (S.SERVICING, 'wait'): S.SERVICEWAIT,
    (S.SERVICING, 'fail'): S.SERVICEFAIL,
    (S.SERVICING, 'hold'): S.SERVICEHOLD,
    (S.SERVICING, 'abort'): S.SERVICEFAIL,
    (S.SERVICEWAIT, 'resume'): S.SERVICING,
    (S.SERVICEWAIT, 'fail'): S.SERVICEFAIL,
    (S.SERVICEWAIT, 'abort'): S.SERVICEFAIL,
    (S.SERVICEWAIT, 'hold'): S.SERVICEHOLD,
    (S.SERVICEHOLD, 'unhold'): S.SERVICEWAIT,
    (S.SERVICEHOLD, 'abort'): S.SERVICEFAIL,
    (S.SERVICEFAIL, 'service'): S.SERVICING,
    (S.SERVICEFAIL, 'abort'): S.ACTIVE,
    (S.SERVICEFAIL, 'rescue'): S.RESCUING,
    (S.SERVICEFAIL, 'deleted'): S.DELETING,
}

ALL_EVENTS = sorted({e for (_s, e) in EXPECTED} | set(S.VERBS.values()))
ALL_STATES = sorted({s for (s, _e) in EXPECTED} | set(EXPECTED.values()))


class TestTransitions(testtools.TestCase):

    def test_table_is_the_expected_one(self):
        table = {(s, e): d for s, e, d in states.transitions()}
        self.assertEqual(EXPECTED, table)

    def test_every_transition(self):
        for (source, event), dest in EXPECTED.items():
            self.assertEqual(dest, states.next_state(source, event),
                             (source, event))
            self.assertTrue(states.is_allowed(source, event))

    def test_everything_else_is_refused(self):
        for source in ALL_STATES:
            for event in ALL_EVENTS:
                if (source, event) in EXPECTED:
                    continue
                self.assertIsNone(states.next_state(source, event),
                                  (source, event))
                self.assertFalse(states.is_allowed(source, event))

    def test_unknown_state_or_event(self):
        self.assertIsNone(states.next_state('nonsense', 'manage'))
        self.assertIsNone(states.next_state(S.ENROLL, 'nonsense'))
        self.assertIsNone(states.next_state(None, 'manage'))
        self.assertFalse(states.is_allowed(S.INSPECTING, 'abort'))

    def test_shared_machine_not_mutated(self):
        # next_state works on a copy: asking twice gives the same answer.
        self.assertEqual(S.VERIFYING, states.next_state(S.ENROLL, 'manage'))
        self.assertEqual(S.VERIFYING, states.next_state(S.ENROLL, 'manage'))
        self.assertEqual(S.MANAGEABLE,
                         states.next_state(S.VERIFYING, 'done'))


class TestAllowedEvents(testtools.TestCase):

    def test_allowed_events(self):
        for state in ALL_STATES:
            expected = sorted(e for (s, e) in EXPECTED
                              if s == state and e not in S.INTERNAL_EVENTS)
            self.assertEqual(expected, states.allowed_events(state), state)

    def test_examples(self):
        self.assertEqual(['manage'], states.allowed_events(S.ENROLL))
        self.assertEqual(['adopt', 'clean', 'inspect', 'manage',
                          'provide'],
                         states.allowed_events(S.MANAGEABLE))
        self.assertEqual(['abort'], states.allowed_events(S.INSPECTWAIT))
        self.assertEqual(['inspect', 'manage'],
                         states.allowed_events(S.INSPECTFAIL))
        self.assertEqual(['deleted', 'rebuild', 'rescue', 'service'],
                         states.allowed_events(S.ACTIVE))
        self.assertEqual(['abort', 'deleted'],
                         states.allowed_events(S.RESCUEWAIT))
        self.assertEqual(['deleted', 'rescue', 'unrescue'],
                         states.allowed_events(S.RESCUE))
        self.assertEqual(['abort'], states.allowed_events(S.DEPLOYWAIT))
        # Transient states offer nothing to the API but abort where it
        # is safe (between two steps of the work).
        for state in (S.CLEANING, S.DEPLOYING):
            self.assertEqual(['abort'], states.allowed_events(state), state)
        for state in (S.VERIFYING, S.DELETING, S.ADOPTING):
            self.assertEqual([], states.allowed_events(state), state)

    def test_internal_events_never_offered(self):
        for state in ALL_STATES:
            self.assertEqual(
                set(), S.INTERNAL_EVENTS & set(states.allowed_events(state)))

    def test_verbs_map_to_api_events(self):
        for verb, event in S.VERBS.items():
            self.assertNotIn(event, S.INTERNAL_EVENTS, verb)
            self.assertTrue(
                any(e == event for (_s, e) in EXPECTED), verb)
        self.assertEqual('deploy', S.VERBS['active'])
        self.assertEqual('deleted', S.VERBS['undeploy'])


class TestTargets(testtools.TestCase):

    def test_target_for(self):
        cases = [
            ('manage', S.ENROLL, S.MANAGEABLE),
            ('provide', S.MANAGEABLE, S.AVAILABLE),
            ('clean', S.MANAGEABLE, S.MANAGEABLE),
            ('deploy', S.AVAILABLE, S.ACTIVE),
            ('deploy', S.DEPLOYFAIL, S.ACTIVE),
            ('rebuild', S.ACTIVE, S.ACTIVE),
            ('deleted', S.ACTIVE, S.AVAILABLE),
            ('adopt', S.MANAGEABLE, S.ACTIVE),
            ('abort', S.DEPLOYWAIT, None),
            ('abort', S.CLEANWAIT, None),
            ('inspect', S.MANAGEABLE, S.MANAGEABLE),
            ('inspect', S.INSPECTFAIL, S.MANAGEABLE),
            ('abort', S.INSPECTWAIT, None),
            ('rescue', S.ACTIVE, S.RESCUE),
            ('rescue', S.RESCUEFAIL, S.RESCUE),
            ('unrescue', S.RESCUE, S.ACTIVE),
            ('abort', S.RESCUEWAIT, None),
        ]
        for event, source, target in cases:
            self.assertEqual(target, states.target_for(event, source),
                             (event, source))


class TestStateSets(testtools.TestCase):

    def test_every_state_is_classified_once(self):
        groups = [S.TRANSIENT_STATES, S.WAIT_STATES, S.STABLE_STATES,
                  S.HOLD_STATES]
        for state in ALL_STATES:
            self.assertEqual(1, sum(state in g for g in groups), state)

    def test_transient_states_can_fail(self):
        # A conductor that takes over a node left in a transient state
        # fires 'fail'; every transient state of the machine must allow it.
        for state in S.TRANSIENT_STATES & set(ALL_STATES):
            self.assertTrue(states.is_allowed(state, 'fail'), state)

    def test_delete_and_update_allowed_are_stable(self):
        self.assertTrue(S.DELETE_ALLOWED_STATES <= S.STABLE_STATES)
        self.assertTrue(S.UPDATE_ALLOWED_STATES <= S.STABLE_STATES)
        self.assertNotIn(S.ACTIVE, S.DELETE_ALLOWED_STATES)

    def test_inspect_wait_shown_as_inspecting_before_1_39(self):
        self.assertEqual(S.INSPECTING, S.shown_state(S.INSPECTWAIT, (1, 38)))
        self.assertEqual(S.INSPECTWAIT,
                         S.shown_state(S.INSPECTWAIT, (1, 39)))
        self.assertEqual(S.CLEANWAIT, S.shown_state(S.CLEANWAIT, (1, 1)))

    def test_power_targets(self):
        self.assertEqual(S.POWER_ON, S.POWER_TARGETS[S.REBOOT])
        self.assertEqual(S.POWER_OFF, S.POWER_TARGETS[S.SOFT_POWER_OFF])
        self.assertEqual(set(S.POWER_TARGETS.values()),
                         {S.POWER_ON, S.POWER_OFF})
