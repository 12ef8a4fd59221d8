"""Nodes: create, show, list (filters, fields, pagination), update,
power and provision states, maintenance, traits, delete; the API root and
microversion negotiation; what project users may see and do."""

from tempest.lib.common.utils import data_utils
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base


class TestApiVersions(base.BaseBaremetalLikeTest):
    """The root documents and the microversion range."""

    @decorators.idempotent_id('1be86763-630c-4aac-a140-f2faf6cc73a3')
    def test_root_advertises_versions(self):
        root = self.client.get_root()
        version = root['default_version']
        self.assertEqual('v1', version['id'])
        self.assertEqual(base.CONF.baremetal_like.max_microversion,
                         version['version'])
        v1 = self.client.get_v1()
        self.assertEqual('v1', v1['id'])
        self.assertIn('nodes', v1)

    @decorators.idempotent_id('48a5f7bf-4e0b-4f9a-aea0-cffdd84afd23')
    def test_microversion_echoed_and_negotiated(self):
        with self.client.microversion('1.31'):
            resp = self.client.list_nodes()
        self.assertEqual('1.31',
                         resp.response['x-openstack-ironic-api-version'])
        self.assertEqual('baremetal 1.31',
                         resp.response['openstack-api-version'])
        self.assertEqual('1.1', resp.response[
            'x-openstack-ironic-api-minimum-version'])
        with self.client.microversion('latest'):
            resp = self.client.list_nodes()
        self.assertEqual(
            resp.response['x-openstack-ironic-api-maximum-version'],
            resp.response['x-openstack-ironic-api-version'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('d09ba367-6ceb-4895-ad1d-9622e976c953')
    def test_unsupported_microversion(self):
        for version in ('1.0', '1.999', '2.1'):
            with self.client.microversion(version):
                self.assertRaises(lib_exc.NotAcceptable,
                                  self.client.list_nodes)
        with self.client.microversion('one.two'):
            self.assertRaises(lib_exc.BadRequest, self.client.list_nodes)


class TestNodes(base.BaseBaremetalLikeTest):

    min_microversion = '1.52'

    @decorators.idempotent_id('da0e4882-b391-48b3-9e6f-8d71994d5a9f')
    def test_create_show_delete(self):
        node = self.create_node(properties={'cpus': 2},
                                resource_class='tempest-rc',
                                description='made by tempest')
        self.assertEqual('enroll', node['provision_state'])
        shown = self.client.show_node(node['name'])
        for field in ('uuid', 'driver', 'resource_class', 'description',
                      'properties', 'allocation_uuid'):
            self.assertEqual(node[field], shown[field])
        self.client.delete_node(node['uuid'])
        self.assertRaises(lib_exc.NotFound, self.client.show_node,
                          node['uuid'])

    @decorators.idempotent_id('66c0b2b6-ed65-41f5-b22f-b546b9159012')
    def test_list_filters_fields_and_pages(self):
        resource_class = base.rand_name('tempest-rc')
        uuids = sorted(self.create_node(resource_class=resource_class)['uuid']
                       for _ in range(3))
        listed = self.client.list_nodes(resource_class=resource_class)
        self.assertEqual(uuids, sorted(n['uuid'] for n in listed['nodes']))
        # fields: only those (and links).
        listed = self.client.list_nodes(resource_class=resource_class,
                                        fields=['uuid', 'driver'])
        for node in listed['nodes']:
            self.assertEqual({'uuid', 'driver', 'links'}, set(node))
        # detail: every field.
        detailed = self.client.list_nodes(detail=True,
                                          resource_class=resource_class)
        self.assertIn('driver_info', detailed['nodes'][0])
        # limit and marker, following "next".
        page = self.client.list_nodes(resource_class=resource_class,
                                      limit=2, sort_key='uuid')
        self.assertEqual(uuids[:2], [n['uuid'] for n in page['nodes']])
        self.assertIn('next', page)
        page = self.client.list_nodes(resource_class=resource_class,
                                      limit=2, sort_key='uuid',
                                      marker=uuids[1])
        self.assertEqual(uuids[2:], [n['uuid'] for n in page['nodes']])

    @decorators.idempotent_id('4ce368b9-7e21-445d-94ba-fb89341bf0c9')
    def test_update(self):
        node = self.create_node()
        updated = self.client.update_node(node['uuid'], [
            {'op': 'add', 'path': '/extra/tempest', 'value': 'yes'},
            {'op': 'replace', 'path': '/properties', 'value': {'cpus': 8}},
            {'op': 'replace', 'path': '/description', 'value': 'patched'}])
        self.assertEqual({'tempest': 'yes'}, updated['extra'])
        self.assertEqual({'cpus': 8}, updated['properties'])
        self.assertEqual('patched', updated['description'])
        updated = self.client.update_node(node['uuid'], [
            {'op': 'remove', 'path': '/extra/tempest'}])
        self.assertEqual({}, updated['extra'])

    @decorators.idempotent_id('fef015e2-3681-4665-aa29-d7718595cf2f')
    def test_power_and_states(self):
        node = self.create_node()
        self.client.set_node_power_state(node['uuid'], 'power on')
        self.wait_for(lambda: self.client.show_node_states(node['uuid'])[
            'power_state'] == 'power on', 'power on')
        self.client.set_node_power_state(node['uuid'], 'power off')
        self.wait_for(lambda: self.client.show_node_states(node['uuid'])[
            'power_state'] == 'power off', 'power off')

    @decorators.idempotent_id('356f7799-cfd1-4254-a751-e1a320eb56ce')
    def test_provision_manage_provide(self):
        node = self.make_available_node()
        self.assertEqual('available', node['provision_state'])
        self.assertIsNotNone(node['power_state'])

    @decorators.idempotent_id('30acd3ad-7b86-4280-b191-caa3cf90bcda')
    def test_maintenance(self):
        node = self.create_node()
        self.client.set_maintenance(node['uuid'], 'tempest says so')
        shown = self.client.show_node(node['uuid'])
        self.assertTrue(shown['maintenance'])
        self.assertEqual('tempest says so', shown['maintenance_reason'])
        self.client.unset_maintenance(node['uuid'])
        shown = self.client.show_node(node['uuid'])
        self.assertFalse(shown['maintenance'])
        self.assertIsNone(shown['maintenance_reason'])

    @decorators.idempotent_id('fd8a9167-add6-4d8d-af91-f1fe5bd24615')
    def test_traits(self):
        node = self.create_node()
        self.client.set_node_traits(node['uuid'], ['CUSTOM_A', 'CUSTOM_B'])
        self.client.add_node_trait(node['uuid'], 'CUSTOM_C')
        self.client.remove_node_trait(node['uuid'], 'CUSTOM_A')
        traits = self.client.list_node_traits(node['uuid'])['traits']
        self.assertEqual(['CUSTOM_B', 'CUSTOM_C'], sorted(traits))
        self.assertRaises(lib_exc.BadRequest, self.client.add_node_trait,
                          node['uuid'], 'not a trait')

    @decorators.attr(type='negative')
    @decorators.idempotent_id('371dadeb-9774-4839-8c33-c4a7f34b84de')
    def test_errors(self):
        self.assertRaises(lib_exc.NotFound, self.client.show_node,
                          data_utils.rand_uuid())
        self.assertRaises(lib_exc.BadRequest, self.client.create_node,
                          driver='no-such-hardware')
        self.assertRaises(lib_exc.BadRequest, self.client.create_node,
                          driver='fake-hardware', bogus_field=1)
        node = self.create_node()
        self.assertRaises(lib_exc.Conflict, self.client.create_node,
                          driver='fake-hardware', name=node['name'])
        self.assertRaises(lib_exc.BadRequest, self.client.update_node,
                          node['uuid'], [{'op': 'replace',
                                          'path': '/allocation_uuid',
                                          'value': data_utils.rand_uuid()}])
        self.assertRaises(lib_exc.BadRequest, self.client.list_nodes,
                          bogus='1')
        self.assertRaises(lib_exc.BadRequest,
                          self.client.set_node_provision_state,
                          node['uuid'], 'no-such-verb')

    @decorators.attr(type='negative')
    @decorators.idempotent_id('92f530e0-ee97-482f-952d-afe99db99906')
    def test_fields_by_microversion(self):
        node = self.create_node()
        # allocation_uuid exists from 1.52: asking for it before is 406.
        with self.client.microversion('1.51'):
            self.assertNotIn('allocation_uuid',
                             self.client.show_node(node['uuid']))
            self.assertRaises(lib_exc.NotAcceptable, self.client.show_node,
                              node['uuid'], fields='allocation_uuid')


class TestNodesProjectScoped(base.BaseBaremetalLikeTest):
    """What project users see: the nodes their project owns, nothing
    else; a reader cannot change them, a member cannot create nodes, and
    a project admin is no cloud admin."""

    credentials = ['system_admin', 'project_admin', 'project_member',
                   'project_reader']
    min_microversion = '1.50'

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.project_admin_client = cls.make_client(cls.os_project_admin)
        cls.member_client = cls.make_client(cls.os_project_member)
        cls.reader_client = cls.make_client(cls.os_project_reader)

    @decorators.idempotent_id('c2f24220-548e-4655-8192-545ae185d11c')
    def test_member_sees_own_nodes_only(self):
        # tempest's project member and reader share one project.
        project = self.os_project_member.credentials.project_id
        owned = self.create_node(owner=project)
        others = [self.create_node(owner=data_utils.rand_uuid_hex()),
                  self.create_node()]
        for client in (self.member_client, self.reader_client):
            listed = client.list_nodes()['nodes']
            self.assertEqual([owned['uuid']], [n['uuid'] for n in listed])
            self.assertEqual(owned['uuid'],
                             client.show_node(owned['name'])['uuid'])
            for other in others:
                self.assertRaises(lib_exc.NotFound, client.show_node,
                                  other['uuid'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('e88d3dc4-fa54-4c36-9276-416435d6d850')
    def test_member_cannot_create_or_delete(self):
        project = self.os_project_member.credentials.project_id
        owned = self.create_node(owner=project)
        self.assertRaises(lib_exc.Forbidden, self.member_client.create_node,
                          driver='fake-hardware')
        self.assertRaises(lib_exc.Forbidden, self.member_client.delete_node,
                          owned['uuid'])
        # The member may operate its node: power it on.
        self.member_client.set_node_power_state(owned['uuid'], 'power on')

    @decorators.attr(type='negative')
    @decorators.idempotent_id('f5278464-3166-4ca6-85af-0ec49668b36b')
    def test_project_admin_is_not_cloud_admin(self):
        # tempest's project admin shares the member's project.
        project = self.os_project_admin.credentials.project_id
        owned = self.create_node(owner=project)
        other = self.create_node(owner=data_utils.rand_uuid_hex())
        client = self.project_admin_client
        listed = client.list_nodes()['nodes']
        self.assertEqual([owned['uuid']], [n['uuid'] for n in listed])
        self.assertRaises(lib_exc.NotFound, client.show_node, other['uuid'])
        # Ironic's self-owned nodes ([api]project_admin_can_manage_own_
        # nodes, on by default): it enrols nodes its project then owns,
        # and deletes them, nothing else.
        mine = client.create_node(driver='fake-hardware')
        self.assertEqual(project, mine['owner'])
        client.delete_node(mine['uuid'])
        self.assertRaises(lib_exc.BadRequest, client.create_node,
                          driver='fake-hardware',
                          owner=data_utils.rand_uuid_hex())
        self.assertRaises(lib_exc.NotFound, client.delete_node,
                          other['uuid'])
        # Ironic's per-field rules: it fills in its node's extra, but
        # moves it to no other conductor group.
        updated = client.update_node(owned['uuid'], [
            {'op': 'add', 'path': '/extra/a', 'value': 'b'}])
        self.assertEqual({'a': 'b'}, updated['extra'])
        self.assertRaises(lib_exc.Forbidden, client.update_node,
                          owned['uuid'], [{'op': 'add',
                                           'path': '/conductor_group',
                                           'value': 'g1'}])
        self.assertRaises(lib_exc.Forbidden, client.create_port,
                          node_uuid=owned['uuid'],
                          address=data_utils.rand_mac_address())
        with client.microversion('1.49'):
            self.assertRaises(lib_exc.Forbidden, client.list_conductors)
        # It operates its project's node as a member does.
        client.set_node_power_state(owned['uuid'], 'power on')

    @decorators.attr(type='negative')
    @decorators.idempotent_id('c61d972a-217c-4286-8f9b-07aceed4d1c6')
    def test_reader_cannot_change(self):
        project = self.os_project_reader.credentials.project_id
        owned = self.create_node(owner=project)
        self.assertEqual(owned['uuid'], self.reader_client.show_node(
            owned['uuid'])['uuid'])
        self.assertRaises(lib_exc.Forbidden, self.reader_client.update_node,
                          owned['uuid'], [{'op': 'add', 'path': '/extra/a',
                                           'value': 'b'}])
        self.assertRaises(lib_exc.Forbidden,
                          self.reader_client.set_node_power_state,
                          owned['uuid'], 'power on')
