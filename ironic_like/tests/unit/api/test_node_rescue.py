"""The rescue and unrescue provision targets (API 1.38) and the rescue
password: required, only with "rescue", never shown."""

from ironic_like.common import states
from ironic_like.tests.unit.api import base

PASSWORD = 'hunter2-rescue'


class TestRescueVerbs(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.config(enabled_rescue_interfaces=['no-rescue', 'agent'])
        self.config(rescue_kernel='http://127.0.0.1:9/k',
                    rescue_ramdisk='http://127.0.0.1:9/r', group='conductor')
        self.node = self.create_node(
            provision_state=states.ACTIVE, deploy_interface='agent',
            rescue_interface='agent',
            instance_info={'image_source': 'http://127.0.0.1:9/img'})
        self.url = '/v1/nodes/%s/states/provision' % self.node.uuid

    def test_rescue_then_password_masked(self):
        self.put(self.url, {'target': 'rescue',
                            'rescue_password': PASSWORD}, version='1.38')
        node = self.wait_for(
            self.node.uuid, lambda n: n.provision_state == states.RESCUEWAIT)
        self.assertEqual(PASSWORD, node.instance_info['rescue_password'])
        for url in ('/v1/nodes/%s' % self.node.uuid, '/v1/nodes/detail'):
            text = self.get(url).text
            self.assertNotIn(PASSWORD, text)
            self.assertNotIn('$6$', text)
        doc = self.get('/v1/nodes/%s' % self.node.uuid).json
        self.assertEqual('******', doc['instance_info']['rescue_password'])
        self.assertEqual('******',
                         doc['instance_info']['hashed_rescue_password'])
        self.assertEqual(states.RESCUEWAIT, doc['provision_state'])
        self.assertEqual(states.RESCUE, doc['target_provision_state'])
        # Abort from rescue wait, as Ironic allows it.
        self.put(self.url, {'target': 'abort'}, version='1.38')
        node = self.wait_for(
            self.node.uuid, lambda n: n.provision_state == states.RESCUEFAIL)
        self.assertNotIn('rescue_password', node.instance_info)

    def test_verbs_need_1_38(self):
        for target, body in (('rescue', {'rescue_password': PASSWORD}),
                             ('unrescue', {})):
            r = self.put(self.url, dict(body, target=target),
                         version='1.37', status=406)
            self.assertFault(r, 406, target, '1.38')
        self.assertEqual(states.ACTIVE, self.db.get_node_by_uuid(
            self.node.uuid).provision_state)

    def test_password_required_and_not_blank(self):
        for body in ({}, {'rescue_password': ''},
                     {'rescue_password': '  \t'},
                     {'rescue_password': None}):
            r = self.put(self.url, dict(body, target='rescue'),
                         version='1.38', status=400)
            self.assertFault(r, 400, 'rescue_password')

    def test_password_must_be_a_string(self):
        r = self.put(self.url, {'target': 'rescue', 'rescue_password': 5},
                     version='1.38', status=400)
        self.assertFault(r, 400, 'rescue_password')

    def test_password_only_with_rescue(self):
        r = self.put(self.url, {'target': 'rebuild',
                                'rescue_password': PASSWORD},
                     version='1.38', status=400)
        self.assertFault(r, 400, 'rescue_password')
        r = self.put(self.url, {'target': 'rebuild',
                                'rescue_password': PASSWORD},
                     version='1.37', status=400)
        self.assertFault(r, 400, 'rescue_password', '1.38')

    def test_unrescue_not_from_active(self):
        r = self.put(self.url, {'target': 'unrescue'}, version='1.38',
                     status=400)
        self.assertFault(r, 400, 'unrescue', states.ACTIVE)

    def test_no_rescue_interface_is_400(self):
        node = self.create_node(provision_state=states.ACTIVE,
                                deploy_interface='agent',
                                rescue_interface='no-rescue')
        r = self.put('/v1/nodes/%s/states/provision' % node.uuid,
                     {'target': 'rescue', 'rescue_password': PASSWORD},
                     version='1.38', status=400)
        self.assertFault(r, 400, 'rescue')
        node = self.db.get_node_by_uuid(node.uuid)
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertNotIn('rescue_password', node.instance_info or {})
