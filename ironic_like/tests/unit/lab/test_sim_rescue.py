"""The simulated agent's rescue.finalize_rescue: it records the
password's hash, stops heartbeating and counts as rescued."""

from ironic_like.conductor import rescue
from ironic_like.tests.unit.lab import test_simulator
from ironic_like_lab import virtual


class TestFinalizeRescue(test_simulator.SimulatorTestBase):

    def test_hashed_password_recorded_and_agent_stops(self):
        agent, node_uuid = self.make_agent()
        hashed = rescue.hash_password('s3cret', 'saltsalt')
        doc = self.command(agent, 'rescue.finalize_rescue',
                           {'rescue_password': hashed, 'hashed': True},
                           wait=True)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        self.assertEqual(virtual.RESCUED, agent.state)
        detail = self.session.get('%s/agents/%s'
                                  % (self.control, agent.id)).json()
        self.assertEqual(virtual.RESCUED, detail['state'])
        self.assertEqual(hashed,
                         detail['records']['rescue']['password_hash'])
        self.assertTrue(detail['records']['rescue']['hashed'])
        # Its agent is gone, as IPA's after finalize_rescue.
        beats = len(self.api.heartbeats_of(node_uuid))
        agent.force_heartbeat()
        self.assertEqual(beats, len(self.api.heartbeats_of(node_uuid)))
        resp = self.session.get('%s/v1/commands/' % agent.url)
        self.assertEqual(503, resp.status_code)
        # A boot leaves the rescue environment.
        self.boot(agent)
        self.assertEqual(virtual.HEARTBEATING, agent.state)

    def test_plain_password_never_kept(self):
        agent, _ = self.make_agent()
        doc = self.command(agent, 'rescue.finalize_rescue',
                           {'rescue_password': 'plain-one'}, wait=True)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        detail = self.session.get('%s/agents/%s'
                                  % (self.control, agent.id)).text
        self.assertNotIn('plain-one', detail)
        self.assertFalse(agent.records['rescue']['hashed'])

    def test_password_required(self):
        agent, _ = self.make_agent()
        doc = self.command(agent, 'rescue.finalize_rescue', {}, wait=True)
        self.assertEqual('FAILED', doc['command_status'], doc)
        self.assertIn('rescue_password',
                      doc['command_error']['message'])
        self.assertEqual(virtual.HEARTBEATING, agent.state)
