"""POST /v1/continue_inspection (Ironic 1.84): the inventory an
inspecting agent posts, with a running conductor and fake power and
boot."""

from ironic_like.api.middleware import public_routes
from ironic_like.common import agent_token
from ironic_like.common import bmc_lookup
from ironic_like.common import states
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.conductor import test_inspection

URL = '/v1/continue_inspection'
V = '1.84'
BOOT_MAC = test_inspection.BOOT_MAC
INVENTORY = test_inspection.INVENTORY


def _settled(node):
    return node.provision_state not in states.TRANSIENT_STATES


class TestContinueInspection(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.config(lookup_failures_per_minute=0, group='agent')
        self.node = self.create_node(
            provision_state=states.MANAGEABLE, deploy_interface='agent',
            boot_interface='fake', inspect_interface='agent',
            driver_info={'redfish_address': 'https://10.1.2.3:8000'})
        self.create_port(self.node, address=BOOT_MAC)
        self.put('/v1/nodes/%s/states/provision' % self.node.uuid,
                 {'target': 'inspect'})
        self.wait_for(self.node.uuid,
                      lambda n: n.provision_state == states.INSPECTWAIT)

    def _finished(self):
        return self.wait_for(self.node.uuid, _settled)

    def test_post_at_1_84(self):
        doc = self.post(URL, {'inventory': INVENTORY, 'extra': 'data'},
                        version=V, status=202).json
        # A lookup's answer: the agent heartbeats with this token next.
        self.assertEqual(self.node.uuid, doc['node']['uuid'])
        token = doc['config']['agent_token']
        self.assertTrue(doc['config']['agent_token_required'])
        node = self._finished()
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertEqual(4, node.properties['cpus'])
        kept = self.get('/v1/nodes/%s/inventory' % self.node.uuid,
                        version=V).json
        self.assertEqual(INVENTORY, kept['inventory'])
        self.assertEqual('data', kept['plugin_data']['extra'])
        self.assertNotEqual(agent_token.MASK, token)

    def test_post_at_1_1_answers_as_inspector(self):
        doc = self.post(URL, {'inventory': INVENTORY}, version='1.1',
                        status=202).json
        self.assertEqual({'uuid': self.node.uuid}, doc)
        self.assertEqual(states.MANAGEABLE, self._finished().provision_state)

    def test_by_node_uuid(self):
        inventory = dict(INVENTORY, interfaces=[
            {'name': 'eth9', 'mac_address': '52:54:00:99:99:99'}])
        self.post(URL + '?node_uuid=%s' % self.node.uuid,
                  {'inventory': inventory}, version=V, status=202)
        self.assertEqual(states.MANAGEABLE, self._finished().provision_state)

    def test_by_bmc_address(self):
        inventory = dict(INVENTORY, bmc_address='10.1.2.3', interfaces=[
            {'name': 'eth9', 'mac_address': '52:54:00:99:99:99'}])
        self.post(URL, {'inventory': inventory}, version=V, status=202)
        self.assertEqual(states.MANAGEABLE, self._finished().provision_state)

    def test_by_resolved_bmc_address(self):
        # A BMC named by host name: matched by the address it resolved to
        # when the inspection started (Ironic's lookup cache).
        node = self.db.get_node_by_id(self.node.id)
        self.db.update_node(node.id, {
            'driver_info': {'redfish_address': 'https://bmc-7.example.com'},
            'driver_internal_info': dict(node.driver_internal_info, **{
                bmc_lookup.CACHE: ['bmc-7.example.com', '10.7.7.7']})})
        inventory = dict(INVENTORY, bmc_address='10.7.7.7', interfaces=[
            {'name': 'eth9', 'mac_address': '52:54:00:99:99:99'}])
        self.post(URL, {'inventory': inventory}, version=V, status=202)
        self.assertEqual(states.MANAGEABLE, self._finished().provision_state)

    def test_other_versions_404(self):
        for version in ('1.2', '1.83'):
            self.post(URL, {'inventory': INVENTORY}, version=version,
                      status=404)
        # node_uuid came with 1.84.
        self.post(URL + '?node_uuid=%s' % self.node.uuid,
                  {'inventory': INVENTORY}, version='1.1', status=404)
        self.assertEqual(states.INSPECTWAIT, self.db.get_node_by_id(
            self.node.id).provision_state)

    def test_bad_bodies_400(self):
        for body, field in (({}, 'inventory'),
                            ({'inventory': {'interfaces': []}},
                             'non-empty'),
                            ({'inventory': {'interfaces': [{}]}},
                             'mac_address'),
                            ({'inventory': {'interfaces': [
                                {'mac_address': 'nonsense'}]}},
                             'inventory.interfaces')):
            r = self.post(URL, body, version=V, status=400)
            self.assertFault(r, 400, field)
        r = self.post(URL + '?node_uuid=nope', {'inventory': INVENTORY},
                      version=V, status=400)
        self.assertFault(r, 400, 'node_uuid')
        self.assertEqual(states.INSPECTWAIT, self.db.get_node_by_id(
            self.node.id).provision_state)

    def test_no_matching_node_404(self):
        inventory = dict(INVENTORY, interfaces=[
            {'name': 'eth9', 'mac_address': '52:54:00:99:99:99'}])
        r = self.post(URL, {'inventory': inventory}, version=V, status=404)
        self.assertIn('No node is waiting', r.json['error_message'])
        # A MAC of one node and the BMC of another: neither is updated.
        other = self.create_node(provision_state=states.INSPECTWAIT,
                                 driver_info={'ipmi_address': '10.9.9.9'})
        self.post(URL, {'inventory': dict(INVENTORY,
                                          bmc_address='10.9.9.9')},
                  version=V, status=404)
        self.assertEqual(states.INSPECTWAIT, self.db.get_node_by_id(
            other.id).provision_state)

    def test_node_not_waiting_404(self):
        self.put('/v1/nodes/%s/states/provision' % self.node.uuid,
                 {'target': 'abort'})
        self.wait_for(self.node.uuid,
                      lambda n: n.provision_state == states.INSPECTFAIL)
        self.post(URL, {'inventory': INVENTORY}, version=V, status=404)
        self.assertEqual({}, {k: v for k, v in self.db.get_node_by_id(
            self.node.id).properties.items() if k == 'cpus'})

    def test_public_route(self):
        self.assertTrue(public_routes.is_public(URL))


NEW_MAC = '52:54:00:77:00:01'
UNKNOWN = dict(INVENTORY, interfaces=[
    {'name': 'eth0', 'mac_address': NEW_MAC, 'ipv4_address': '10.0.7.2'}],
    boot={'current_boot_mode': 'uefi', 'pxe_interface': NEW_MAC})


class TestAutoDiscovery(base.APITestCase):
    """[auto_discovery]: inspection data naming no node enrolls one, as
    Ironic's auto-discovery does."""

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.config(lookup_failures_per_minute=0, group='agent')

    def _discovered(self):
        nodes = self.db.get_node_list()
        self.assertEqual(1, len(nodes), nodes)
        return nodes[0]

    def test_disabled_by_default(self):
        self.post(URL, {'inventory': UNKNOWN}, version=V, status=404)
        self.assertEqual([], self.db.get_node_list())

    def test_enrolls_and_records_the_machine(self):
        self.config(enabled=True, driver='fake-hardware',
                    group='auto_discovery')
        doc = self.post(URL, {'inventory': UNKNOWN, 'extra': 'x'},
                        version=V, status=202).json
        node = self._discovered()
        self.assertEqual(node.uuid, doc['node']['uuid'])
        self.assertTrue(doc['config']['agent_token'])
        node = self.wait_for(node.uuid,
                             lambda n: n.properties.get('cpus') == 4)
        # Recorded as an inspection records it; left in "enroll".
        self.assertEqual(states.ENROLL, node.provision_state)
        self.assertEqual('fake-hardware', node.driver)
        self.assertEqual('aarch64', node.properties['cpu_arch'])
        self.assertIsNone(node.last_error)
        self.assertEqual([NEW_MAC], [
            p.address for p in self.db.get_ports_by_node_id(node.id)])
        kept = self.get('/v1/nodes/%s/inventory' % node.uuid,
                        version=V).json
        self.assertIs(True, kept['plugin_data']['auto_discovered'])
        self.assertEqual('x', kept['plugin_data']['extra'])
        self.wait_for(node.uuid, lambda n: n.reservation is None)
        # The same machine again: its port names it now, and it is not
        # waiting for inspection (404, nothing enrolled twice).
        self.post(URL, {'inventory': UNKNOWN}, version=V, status=404)
        self._discovered()

    def test_known_nodes_never_enrolled_again(self):
        self.config(enabled=True, driver='fake-hardware',
                    group='auto_discovery')
        known = self.create_node(provision_state=states.MANAGEABLE)
        self.create_port(known, address=NEW_MAC)
        self.post(URL, {'inventory': UNKNOWN}, version=V, status=404)
        # A node_uuid names a node: never enrolled either.
        self.post(URL + '?node_uuid=%s' % known.uuid,
                  {'inventory': dict(UNKNOWN, interfaces=[
                      {'name': 'x', 'mac_address': '52:54:00:77:00:09'}])},
                  version=V, status=404)
        self.assertEqual([known.uuid],
                         [n.uuid for n in self.db.get_node_list()])

    def test_without_a_driver_or_with_a_bad_one(self):
        self.config(enabled=True, group='auto_discovery')
        self.post(URL, {'inventory': UNKNOWN}, version=V, status=404)
        self.config(driver='no-such-hardware', group='auto_discovery')
        r = self.post(URL, {'inventory': UNKNOWN}, version=V, status=404)
        self.assertIn('No node is waiting', r.json['error_message'])
        self.assertEqual([], self.db.get_node_list())

    def test_bad_inventory_leaves_the_node_without_it(self):
        # An inventory inspection cannot use: refused (400) by the
        # conductor before anything is recorded; the enrolled node stays
        # for the operator to see (as Ironic leaves it).
        self.config(enabled=True, driver='fake-hardware',
                    group='auto_discovery')
        bad = dict(UNKNOWN, memory={'physical_mb': 'lots'})
        r = self.post(URL, {'inventory': bad}, version=V, status='*')
        node = self._discovered()
        self.assertEqual(states.ENROLL, node.provision_state)
        self.assertEqual({}, node.properties or {})
        self.assertEqual([], self.db.get_ports_by_node_id(node.id))
        self.assertEqual(400, r.status_int, r.text)
