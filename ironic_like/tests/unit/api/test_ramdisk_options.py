"""Ironic's options of the agent endpoints: [api]restrict_lookup (lookup
in any provision state) and [agent]require_tls (https callback URLs only),
on both forms of lookup and heartbeat."""

from ironic_like.common import states
from ironic_like.conf import agent as agent_conf
from ironic_like.tests.unit.api import test_ramdisk as base

MAC = base.MAC
OTHER_MAC = base.OTHER_MAC
TOKEN = base.TOKEN
HTTPS_URL = 'https://1.2.3.4:9999/'


class TestRestrictLookup(base.RamdiskTestCase):

    def setUp(self):
        super().setUp()
        self.db.update_node(self.node.id,
                            {'provision_state': states.ACTIVE})

    def lookup(self, query, status=200):
        return self.get('/v1/lookup?%s' % query, status=status)

    def seed_lookup(self, *macs, status=200):
        return self.post('/v1/drivers/fake-hardware/vendor_passthru/lookup',
                         {'version': 2, 'inventory': {'interfaces': [
                             {'mac_address': m} for m in macs]}},
                         status=status, version='1.1')

    def test_restricted_by_default(self):
        r = self.lookup('addresses=%s' % MAC, status=404)
        self.assertFault(r, 404, 'expects no agent')
        self.seed_lookup(MAC, status=404)
        self.assertNotIn('agent_secret_token',
                         base._info(self.db_node()))

    def test_unrestricted_any_state(self):
        self.config(restrict_lookup=False, group='api')
        doc = self.lookup('addresses=%s' % MAC).json
        self.assertEqual(self.node.uuid, doc['node']['uuid'])
        self.assertEqual(doc['config']['agent_token'],
                         base._info(self.db_node())['agent_secret_token'])
        self.lookup('node_uuid=%s' % self.node.uuid)
        doc = self.seed_lookup(MAC).json
        self.assertEqual({'uuid': self.node.uuid}, doc['node'])

    def test_unrestricted_still_needs_a_match(self):
        self.config(restrict_lookup=False, group='api')
        r = self.lookup('addresses=%s' % OTHER_MAC, status=404)
        self.assertFault(r, 404, 'No node matches')

    def test_unrestricted_several_nodes_stay_ambiguous(self):
        # Ports of several nodes, none expecting an agent: the option does
        # not make the lookup pick one of them at random.
        self.config(restrict_lookup=False, group='api')
        other = self.create_node(provision_state=states.AVAILABLE)
        self.create_port(other, address=OTHER_MAC)
        r = self.lookup('addresses=%s,%s' % (MAC, OTHER_MAC), status=404)
        self.assertFault(r, 404, 'give node_uuid')
        doc = self.lookup('addresses=%s,%s&node_uuid=%s'
                          % (MAC, OTHER_MAC, other.uuid)).json
        self.assertEqual(other.uuid, doc['node']['uuid'])


class TestRequireTLS(base.RamdiskTestCase):

    def setUp(self):
        super().setUp()
        self.set_token()

    def heartbeat(self, body, status=202):
        return self.post('/v1/heartbeat/%s' % self.node.uuid, body,
                         status=status)

    def seed_heartbeat(self, body, status=202):
        return self.post('/v1/nodes/%s/vendor_passthru/heartbeat'
                         % self.node.uuid, body, status=status,
                         version='1.1')

    def test_ironic_default_refuses_http(self):
        # The option's own default (the tests' base turns it off).
        self.assertTrue(next(opt for opt in agent_conf.opts
                             if opt.name == 'require_tls').default)

    def test_http_allowed_when_off(self):
        self.config(require_tls=False, group='agent')
        self.seed_heartbeat({'agent_url': base.URL, 'agent_token': TOKEN})
        self.assertEqual(base.URL, base._info(self.db_node())['agent_url'])

    def test_http_refused(self):
        self.config(require_tls=True, group='agent')
        r = self.seed_heartbeat({'agent_url': base.URL,
                                 'agent_token': TOKEN}, status=400)
        self.assertFault(r, 400, 'agent_url', 'https', 'require_tls')
        r = self.heartbeat({'callback_url': base.URL, 'agent_token': TOKEN},
                           status=400)
        self.assertFault(r, 400, 'callback_url', 'https')
        self.assertNotIn('agent_url', base._info(self.db_node()))

    def test_https_accepted(self):
        self.config(require_tls=True, group='agent')
        self.seed_heartbeat({'agent_url': HTTPS_URL, 'agent_token': TOKEN})
        self.assertEqual(HTTPS_URL, base._info(self.db_node())['agent_url'])
        # The scheme is case-insensitive, as everywhere in a URL.
        self.heartbeat({'callback_url': 'HTTPS://1.2.3.4:9998/',
                        'agent_token': TOKEN})
        self.assertEqual('HTTPS://1.2.3.4:9998/',
                         base._info(self.db_node())['agent_url'])
