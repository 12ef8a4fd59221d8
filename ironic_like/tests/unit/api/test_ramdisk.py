"""The deploy agent's endpoints: lookup and heartbeat, in Ironic's current
form (GET /v1/lookup, POST /v1/heartbeat/{node}) and the seed's vendor
passthru form, through the real in-process conductor."""

import json

from oslo_utils import uuidutils

from ironic_like.api.middleware import public_routes
from ironic_like.api import versions
from ironic_like.common import agent_token
from ironic_like.common import states
from ironic_like.conf import CONF
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit import accelerator_samples as samples

MAC = '52:54:00:12:34:56'
OTHER_MAC = '52:54:00:ab:cd:ef'
TOKEN = 'the-secret-agent-token'
URL = 'http://1.2.3.4:9999/'


def _info(node_ish):
    return node_ish.driver_internal_info or {}


class RamdiskTestCase(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(provision_state=states.DEPLOYWAIT,
                                     power_state=states.POWER_ON,
                                     properties={'cpus': 4},
                                     instance_info={'image_source': 'x',
                                                    'configdrive': 'cd'})
        self.port = self.create_port(self.node, address=MAC)

    def db_node(self):
        return self.db.get_node_by_uuid(self.node.uuid)

    def set_token(self, token=TOKEN, **extra):
        info = dict(_info(self.db_node()), agent_secret_token=token, **extra)
        self.db.update_node(self.node.id, {'driver_internal_info': info})


class TestLookup(RamdiskTestCase):

    def lookup(self, query, status=200, version=None):
        return self.get('/v1/lookup?%s' % query, status=status,
                        version=version)

    def test_lookup_generates_token(self):
        doc = self.lookup('addresses=%s' % MAC.upper()).json
        self.assertEqual({'node', 'config'}, set(doc))
        self.assertEqual(
            {'uuid', 'properties', 'instance_info', 'driver_internal_info'},
            set(doc['node']))
        self.assertEqual(self.node.uuid, doc['node']['uuid'])
        self.assertEqual({'cpus': 4}, doc['node']['properties'])
        self.assertEqual('******', doc['node']['instance_info']['configdrive'])
        config = doc['config']
        self.assertEqual(300, config['heartbeat_timeout'])
        self.assertTrue(config['agent_token_required'])
        token = config['agent_token']
        self.assertGreater(len(token), 30)
        self.assertEqual(token, _info(self.db_node())['agent_secret_token'])
        # The node part of the answer never shows the token.
        self.assertEqual(
            '******',
            doc['node']['driver_internal_info']['agent_secret_token'])
        self.assertNotIn(token, json.dumps(doc['node']))

    def test_heartbeat_timeout_option(self):
        self.config(heartbeat_timeout=42, group='agent')
        doc = self.lookup('addresses=%s' % MAC).json
        self.assertEqual(42, doc['config']['heartbeat_timeout'])

    def test_invalid_addresses_ignored(self):
        doc = self.lookup('addresses=nonsense,%s' % MAC).json
        self.assertEqual(self.node.uuid, doc['node']['uuid'])

    def test_second_lookup_masks_token(self):
        first = self.lookup('addresses=%s' % MAC).json['config']
        second = self.lookup('addresses=%s' % MAC).json['config']
        self.assertEqual('******', second['agent_token'])
        self.assertEqual(first['agent_token'],
                         _info(self.db_node())['agent_secret_token'])

    def test_pregenerated_token_not_handed_out(self):
        self.set_token(agent_secret_token_pregenerated=True)
        config = self.lookup('addresses=%s' % MAC).json['config']
        self.assertEqual('******', config['agent_token'])
        self.assertEqual(TOKEN, _info(self.db_node())['agent_secret_token'])

    def test_by_node_uuid(self):
        doc = self.lookup('node_uuid=%s' % self.node.uuid).json
        self.assertEqual(self.node.uuid, doc['node']['uuid'])

    def test_uuid_and_addresses(self):
        doc = self.lookup('addresses=%s&node_uuid=%s'
                          % (MAC, self.node.uuid)).json
        self.assertEqual(self.node.uuid, doc['node']['uuid'])

    def test_uuid_of_another_node(self):
        other = self.create_node(provision_state=states.CLEANWAIT)
        r = self.lookup('addresses=%s&node_uuid=%s' % (MAC, other.uuid),
                        status=404)
        self.assertFault(r, 404, 'another node')

    def test_no_match(self):
        r = self.lookup('addresses=%s' % OTHER_MAC, status=404)
        self.assertFault(r, 404, 'No node matches')
        self.lookup('node_uuid=%s' % uuidutils.generate_uuid(), status=404)

    def test_wrong_state(self):
        self.db.update_node(self.node.id,
                            {'provision_state': states.ACTIVE})
        r = self.lookup('addresses=%s' % MAC, status=404)
        self.assertFault(r, 404, 'expects no agent', '"active"')
        self.assertNotIn('agent_secret_token', _info(self.db_node()))

    def test_every_lookup_state(self):
        for state in states.LOOKUP_ALLOWED_STATES:
            self.db.update_node(self.node.id, {'provision_state': state})
            self.lookup('addresses=%s' % MAC)

    def test_several_nodes_the_waiting_one_wins(self):
        other = self.create_node(provision_state=states.AVAILABLE)
        self.create_port(other, address=OTHER_MAC)
        doc = self.lookup('addresses=%s,%s' % (OTHER_MAC, MAC)).json
        self.assertEqual(self.node.uuid, doc['node']['uuid'])

    def test_nothing_to_look_up(self):
        r = self.lookup('addresses=foo', status=400)
        self.assertFault(r, 400, 'MAC')
        self.lookup('node_uuid=not-a-uuid', status=400)
        self.lookup('bogus=1', status=400)

    def test_locked_node_conflict(self):
        self.db.update_node(self.node.id, {'reservation': 'someone'})
        self.lookup('addresses=%s' % MAC, status=409)
        self.assertNotIn('agent_secret_token', _info(self.db_node()))

    def test_microversions(self):
        self.lookup('addresses=%s' % MAC, status=404, version='1.21')
        doc = self.lookup('addresses=%s' % MAC, version='1.61').json
        self.assertEqual({'heartbeat_timeout': 300}, doc['config'])
        self.assertNotIn('agent_secret_token', _info(self.db_node()))
        doc = self.lookup('addresses=%s' % MAC, version='1.62').json
        self.assertIn('agent_token', doc['config'])


class TestSeedLookup(RamdiskTestCase):

    def lookup(self, body, status=200, driver='fake-hardware'):
        return self.post('/v1/drivers/%s/vendor_passthru/lookup' % driver,
                         body, status=status, version='1.1')

    def inventory(self, *macs, version=2):
        return {'version': version,
                'inventory': {
                    'interfaces': [{'name': 'eth%d' % i, 'mac_address': m}
                                   for i, m in enumerate(macs)],
                    'cpu': {'count': 4}, 'disks': [{'name': '/dev/sda'}],
                    'memory': {'physical_mb': 4096}}}

    def test_lookup(self):
        doc = self.lookup(self.inventory(OTHER_MAC, MAC.upper())).json
        self.assertEqual(300, doc['heartbeat_timeout'])
        self.assertEqual({'uuid': self.node.uuid}, doc['node'])
        self.assertEqual(doc['agent_token'],
                         _info(self.db_node())['agent_secret_token'])
        self.assertEqual({'heartbeat_timeout': 300,
                          'agent_token': doc['agent_token'],
                          'agent_token_required': True}, doc['config'])
        again = self.lookup(self.inventory(MAC)).json
        self.assertEqual('******', again['agent_token'])
        self.assertEqual('******', again['config']['agent_token'])

    def test_lookup_records_accelerators(self):
        body = self.inventory(MAC)
        body['inventory']['accelerators'] = [samples.gpu()]
        self.lookup(body)
        handles = self.db.list_accelerator_attach_handles(
            {'node_id': self.node.id})
        self.assertEqual(['0000:3b:00.0'],
                         [h['pci_address'] for h in handles])

    def test_lookup_with_bad_accelerators_still_finds_the_node(self):
        body = self.inventory(MAC)
        body['inventory']['accelerators'] = [{'type': 'GPU'}]
        doc = self.lookup(body).json
        self.assertEqual({'uuid': self.node.uuid}, doc['node'])
        state = self.db.get_accelerator_discovery(self.node.id)
        self.assertEqual('failed', state['state'])
        self.assertIn('inventory.accelerators[0]', state['error'])
        # Without the key, nothing is touched.
        self.lookup(self.inventory(MAC))
        self.assertEqual('failed', self.db.get_accelerator_discovery(
            self.node.id)['state'])

    def test_bad_version(self):
        r = self.lookup(self.inventory(MAC, version=3), status=400)
        self.assertFault(r, 400, 'field/attribute version.',
                         'Unsupported inventory version 3')
        self.lookup(self.inventory(MAC, version=None), status=400)

    def test_bad_inventory(self):
        r = self.lookup({'version': 2}, status=400)
        self.assertFault(r, 400, 'field/attribute inventory.')
        r = self.lookup({'version': 2, 'inventory': {}}, status=400)
        self.assertFault(r, 400, 'inventory.interfaces')
        r = self.lookup(self.inventory('junk'), status=400)
        self.assertFault(r, 400, 'mac_address')

    def test_no_match(self):
        r = self.lookup(self.inventory(OTHER_MAC), status=404)
        self.assertFault(r, 404, 'No node matches')

    def test_wrong_state(self):
        self.db.update_node(self.node.id,
                            {'provision_state': states.AVAILABLE})
        r = self.lookup(self.inventory(MAC), status=404)
        self.assertFault(r, 404, 'expects no agent')


class TestHeartbeat(RamdiskTestCase):

    def setUp(self):
        super().setUp()
        self.set_token()

    def heartbeat(self, body, status=202, ident=None, version=None):
        return self.post('/v1/heartbeat/%s' % (ident or self.node.uuid),
                         body, status=status, version=version)

    def test_heartbeat_recorded(self):
        r = self.heartbeat({'callback_url': URL, 'agent_token': TOKEN,
                            'agent_version': '9.1.0'})
        self.assertEqual(b'', r.body)
        info = _info(self.db_node())
        self.assertEqual(URL, info['agent_url'])
        self.assertEqual('9.1.0', info['agent_version'])
        self.assertIn('agent_last_heartbeat', info)
        self.assertIsNone(self.db_node().reservation)

    def test_agent_status(self):
        self.heartbeat({'callback_url': URL, 'agent_token': TOKEN,
                        'agent_status': 'start',
                        'agent_status_message': 'booted'})
        info = _info(self.db_node())
        self.assertEqual('start', info['agent_status'])
        self.assertEqual('booted', info['agent_status_message'])

    def assertNothingRecorded(self):
        info = _info(self.db_node())
        self.assertNotIn('agent_url', info)
        self.assertNotIn('agent_last_heartbeat', info)
        self.assertEqual(TOKEN, info['agent_secret_token'])

    def test_missing_token(self):
        r = self.heartbeat({'callback_url': URL}, status=401)
        self.assertFault(r, 401, 'agent token')
        self.assertNothingRecorded()

    def test_wrong_token(self):
        self.heartbeat({'callback_url': URL, 'agent_token': 'nope'},
                       status=401)
        self.heartbeat({'callback_url': URL, 'agent_token': '******'},
                       status=401)
        self.assertNothingRecorded()

    def test_no_token_on_node(self):
        self.db.update_node(self.node.id, {'driver_internal_info': {}})
        self.heartbeat({'callback_url': URL, 'agent_token': TOKEN},
                       status=401)

    def test_locked_node_acknowledged(self):
        self.db.update_node(self.node.id, {'reservation': 'busy-host'})
        self.heartbeat({'callback_url': URL, 'agent_token': TOKEN})
        self.assertNothingRecorded()
        self.assertEqual('busy-host', self.db_node().reservation)

    def test_locked_node_wrong_token(self):
        self.db.update_node(self.node.id, {'reservation': 'busy-host'})
        self.heartbeat({'callback_url': URL, 'agent_token': 'nope'},
                       status=401)

    def test_unknown_node(self):
        self.heartbeat({'callback_url': URL, 'agent_token': TOKEN},
                       ident=uuidutils.generate_uuid(), status=404)

    def test_by_name(self):
        self.db.update_node(self.node.id, {'name': 'agent-node'})
        self.heartbeat({'callback_url': URL, 'agent_token': TOKEN},
                       ident='agent-node')
        self.assertEqual(URL, _info(self.db_node())['agent_url'])

    def test_bad_bodies(self):
        r = self.heartbeat({'agent_token': TOKEN}, status=400)
        self.assertFault(r, 400, 'callback_url')
        r = self.heartbeat({'callback_url': 'ftp://x/', 'agent_token': TOKEN},
                           status=400)
        self.assertFault(r, 400, 'callback_url')
        r = self.heartbeat({'callback_url': URL, 'agent_token': TOKEN,
                            'bogus': 1}, status=400)
        self.assertFault(r, 400, 'bogus')
        r = self.heartbeat({'callback_url': URL, 'agent_token': 5},
                           status=400)
        self.assertFault(r, 400, 'agent_token')
        self.assertNothingRecorded()

    def test_callback_url_checked(self):
        for url in ('http://agent:s3cr3t@1.2.3.4:9999/', 'gopher://1.2.3.4/',
                    'http:///v1', 'http://1.2.3.4:9999/?x=1'):
            r = self.heartbeat({'callback_url': url, 'agent_token': TOKEN},
                               status=400)
            message = self.assertFault(r, 400, 'callback_url')
            self.assertNotIn('s3cr3t', message)
        self.assertNothingRecorded()

    def test_allowed_callback_networks(self):
        self.config(allowed_callback_networks=['10.0.0.0/8'],
                    group='agent')
        r = self.heartbeat({'callback_url': URL, 'agent_token': TOKEN},
                           status=400)
        self.assertFault(r, 400, 'callback_url', '1.2.3.4',
                         'allowed_callback_networks')
        self.heartbeat({'callback_url': 'http://agent.test:9999/',
                        'agent_token': TOKEN}, status=400)
        self.assertNothingRecorded()
        # Any address of the networks, not only the node's ports'.
        self.heartbeat({'callback_url': 'http://10.9.8.7:9999/',
                        'agent_token': TOKEN})
        self.assertEqual('http://10.9.8.7:9999/',
                         _info(self.db_node())['agent_url'])

    def test_microversions(self):
        self.heartbeat({'callback_url': URL}, status=404, version='1.21')
        r = self.heartbeat({'callback_url': URL, 'agent_version': '1'},
                           status=400, version='1.35')
        self.assertFault(r, 400, 'agent_version')
        r = self.heartbeat({'callback_url': URL, 'agent_token': TOKEN},
                           status=400, version='1.61')
        self.assertFault(r, 400, 'agent_token', '1.62')
        # Without the token field an old agent cannot authenticate.
        self.heartbeat({'callback_url': URL}, status=401, version='1.61')
        self.assertNothingRecorded()
        self.heartbeat({'callback_url': URL, 'agent_token': TOKEN},
                       version='1.62')


class TestSeedHeartbeat(RamdiskTestCase):

    def setUp(self):
        super().setUp()
        self.set_token()

    def heartbeat(self, body, status=202, ident=None):
        return self.post('/v1/nodes/%s/vendor_passthru/heartbeat'
                         % (ident or self.node.uuid), body, status=status,
                         version='1.1')

    def test_heartbeat(self):
        self.heartbeat({'agent_url': URL, 'agent_token': TOKEN})
        info = _info(self.db_node())
        self.assertEqual(URL, info['agent_url'])
        self.assertIn('agent_last_heartbeat', info)

    def test_unknown_node(self):
        self.heartbeat({'agent_url': URL, 'agent_token': TOKEN},
                       ident=uuidutils.generate_uuid(), status=404)

    def test_token_required(self):
        self.heartbeat({'agent_url': URL}, status=401)
        self.heartbeat({'agent_url': URL, 'agent_token': 'x'}, status=401)
        self.assertNotIn('agent_url', _info(self.db_node()))

    def test_bad_body(self):
        r = self.heartbeat({'agent_token': TOKEN}, status=400)
        self.assertFault(r, 400, 'agent_url')
        r = self.heartbeat({'agent_url': 'http://u:p@1.2.3.4:1',
                            'agent_token': TOKEN}, status=400)
        self.assertFault(r, 400, 'agent_url', 'user name or password')
        self.config(allowed_callback_networks=['10.0.0.0/8'],
                    group='agent')
        r = self.heartbeat({'agent_url': URL, 'agent_token': TOKEN},
                           status=400)
        self.assertFault(r, 400, 'agent_url', 'allowed_callback_networks')
        self.assertNotIn('agent_url', _info(self.db_node()))
        self.heartbeat({'agent_url': URL, 'agent_token': TOKEN, 'x': 1},
                       status=400)

    def test_full_cycle_with_seed_lookup(self):
        self.db.update_node(self.node.id, {'driver_internal_info': {}})
        doc = self.post('/v1/drivers/fake-hardware/vendor_passthru/lookup',
                        {'version': 2, 'inventory': {
                            'interfaces': [{'mac_address': MAC}]}},
                        status=200, version='1.1').json
        self.heartbeat({'agent_url': URL,
                        'agent_token': doc['agent_token']})
        self.assertEqual(URL, _info(self.db_node())['agent_url'])


class TestTokenHidden(RamdiskTestCase):

    def test_node_views(self):
        self.set_token(agent_url=URL)
        for url in ('/v1/nodes/%s' % self.node.uuid, '/v1/nodes/detail',
                    '/v1/nodes?detail=True',
                    '/v1/nodes/%s?fields=driver_internal_info'
                    % self.node.uuid):
            body = self.get(url).text
            self.assertNotIn(TOKEN, body, url)
            self.assertIn(URL, body, url)

    def test_driver_internal_info_read_only(self):
        self.db.update_node(self.node.id,
                            {'provision_state': states.MANAGEABLE})
        self.patch('/v1/nodes/%s' % self.node.uuid,
                   [{'op': 'add', 'path': '/driver_internal_info/agent_url',
                     'value': URL}], status=400)

    def test_retired_fields(self):
        doc = self.get('/v1/nodes/%s' % self.node.uuid).json
        self.assertFalse(doc['retired'])
        self.assertIsNone(doc['retired_reason'])
        doc = self.get('/v1/nodes/%s' % self.node.uuid, version='1.60').json
        self.assertNotIn('retired', doc)


class TestPublicRoutes(RamdiskTestCase):
    """With keystone, the agent's routes need no keystone token (the agent
    token authenticates), everything else still does."""

    auth_strategy = 'keystone'

    def setUp(self):
        super().setUp()
        self.config(www_authenticate_uri='http://keystone.example/v3',
                    group='keystone_authtoken')
        self.app = self.make_app()

    def test_agent_routes_public(self):
        doc = self.get('/v1/lookup?addresses=%s' % MAC).json
        token = doc['config']['agent_token']
        self.post('/v1/heartbeat/%s' % self.node.uuid,
                  {'callback_url': URL, 'agent_token': token}, status=202)
        self.post('/v1/nodes/%s/vendor_passthru/heartbeat' % self.node.uuid,
                  {'agent_url': URL, 'agent_token': token}, status=202)
        self.post('/v1/drivers/fake-hardware/vendor_passthru/lookup',
                  {'version': 2,
                   'inventory': {'interfaces': [{'mac_address': MAC}]}},
                  status=200)

    def test_other_routes_protected(self):
        self.get('/v1/nodes/%s' % self.node.uuid, status=401)
        self.post('/v1/nodes/%s/vendor_passthru/other' % self.node.uuid,
                  {}, status=401)

    def test_patterns(self):
        for path in ('/v1/lookup', '/v1/heartbeat/abc',
                     '/v1/drivers/d/vendor_passthru/lookup',
                     '/v1/nodes/n/vendor_passthru/heartbeat'):
            self.assertTrue(public_routes.is_public(path), path)
        for path in ('/v1/nodes', '/v1/heartbeat/a/b', '/v1/lookupx',
                     '/v1/nodes/n/vendor_passthru/heartbeat/x',
                     '/v1/drivers/d/vendor_passthru'):
            self.assertFalse(public_routes.is_public(path), path)


class TestVersionConstants(base.APITestCase):

    def test_max_version(self):
        self.assertEqual((1, 115), versions.MAX_VERSION)
        self.assertEqual('agent_secret_token', agent_token.TOKEN_KEY)
        self.assertEqual(300, CONF.agent.heartbeat_timeout)
