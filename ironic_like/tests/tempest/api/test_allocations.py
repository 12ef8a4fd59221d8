"""Allocations (seed 004): every endpoint with its normal answer, its
error codes, and the microversions that gate it.

POST/GET/DELETE /v1/allocations[/{uuid or name}],
GET/DELETE /v1/nodes/{node}/allocation, PATCH (1.57), backfill (1.58),
owner (1.60); the node's allocation_uuid and instance_uuid follow.

Each test makes its own nodes with a resource class of its own, so that
allocations of parallel tests never pick each other's nodes.
"""

from tempest.lib.common.utils import data_utils
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base


class AllocationTestBase(base.BaseBaremetalLikeTest):

    min_microversion = '1.52'

    def setUp(self):
        super().setUp()
        self.resource_class = base.rand_name('tempest-rc')

    def available_node(self, **fields):
        fields.setdefault('resource_class', self.resource_class)
        return self.make_available_node(**fields)


class TestAllocations(AllocationTestBase):

    @decorators.idempotent_id('e745b334-562b-4184-974f-d590ed84bc09')
    def test_create_show_delete(self):
        node = self.available_node()
        name = base.rand_name('tempest-alloc')
        allocation = self.create_allocation(
            resource_class=self.resource_class, name=name,
            extra={'tempest': 'yes'})
        # Created at once; the conductor's flow then reserves the node.
        self.assertIn(allocation['state'], ('allocating', 'active'))
        self.assertEqual(name, allocation['name'])
        allocation = self.wait_for_allocation(allocation['uuid'])
        self.assertEqual(node['uuid'], allocation['node_uuid'])
        self.assertIsNone(allocation['last_error'])
        self.assertEqual({'tempest': 'yes'}, allocation['extra'])
        # By name too; the node points back at it.
        self.assertEqual(allocation['uuid'],
                         self.client.show_allocation(name)['uuid'])
        node = self.client.show_node(node['uuid'])
        self.assertEqual(allocation['uuid'], node['allocation_uuid'])
        self.assertEqual(allocation['uuid'], node['instance_uuid'])
        # Deleting frees the node in the same transaction.
        self.client.delete_allocation(name)
        self.assertRaises(lib_exc.NotFound, self.client.show_allocation,
                          allocation['uuid'])
        node = self.client.show_node(node['uuid'])
        self.assertIsNone(node['allocation_uuid'])
        self.assertIsNone(node['instance_uuid'])

    @decorators.idempotent_id('093c2c52-09d1-4325-98a0-9b4e0f1867cb')
    def test_traits_and_candidates(self):
        plain = self.available_node()
        with_trait = self.available_node()
        self.client.set_node_traits(with_trait['uuid'], ['CUSTOM_GPU'])
        allocation = self.create_allocation(
            resource_class=self.resource_class, traits=['CUSTOM_GPU'])
        allocation = self.wait_for_allocation(allocation['uuid'])
        self.assertEqual(with_trait['uuid'], allocation['node_uuid'])
        self.assertEqual(['CUSTOM_GPU'], allocation['traits'])
        # Candidates by name, returned as UUIDs.
        allocation = self.create_allocation(
            resource_class=self.resource_class,
            candidate_nodes=[plain['name']])
        self.assertEqual([plain['uuid']], allocation['candidate_nodes'])
        allocation = self.wait_for_allocation(allocation['uuid'])
        self.assertEqual(plain['uuid'], allocation['node_uuid'])

    @decorators.idempotent_id('a791b55a-ecba-4577-8991-f5d704a22813')
    def test_no_match_ends_in_error(self):
        allocation = self.create_allocation(
            resource_class=self.resource_class)
        allocation = self.wait_for_allocation(allocation['uuid'],
                                              state='error')
        self.assertIsNone(allocation['node_uuid'])
        self.assertTrue(allocation['last_error'])

    @decorators.idempotent_id('c6a818ff-407f-411a-947c-3577549e7fec')
    def test_list_filters_and_fields(self):
        node = self.available_node()
        active = self.wait_for_allocation(self.create_allocation(
            resource_class=self.resource_class)['uuid'])
        failed = self.wait_for_allocation(self.create_allocation(
            resource_class=self.resource_class)['uuid'], state='error')
        listed = self.client.list_allocations(
            resource_class=self.resource_class)['allocations']
        self.assertEqual(sorted([active['uuid'], failed['uuid']]),
                         sorted(a['uuid'] for a in listed))
        listed = self.client.list_allocations(
            resource_class=self.resource_class, state='error')['allocations']
        self.assertEqual([failed['uuid']], [a['uuid'] for a in listed])
        listed = self.client.list_allocations(
            node=node['name'])['allocations']
        self.assertEqual([active['uuid']], [a['uuid'] for a in listed])
        listed = self.client.list_allocations(
            resource_class=self.resource_class,
            fields=['uuid', 'state'])['allocations']
        for allocation in listed:
            self.assertEqual({'uuid', 'state', 'links'}, set(allocation))
        shown = self.client.show_allocation(active['uuid'],
                                            fields=['uuid', 'node_uuid'])
        self.assertEqual({'uuid', 'node_uuid', 'links'}, set(shown))
        page = self.client.list_allocations(
            resource_class=self.resource_class, limit=1)
        self.assertEqual(1, len(page['allocations']))
        self.assertIn('next', page)

    @decorators.idempotent_id('47244753-d662-45ff-bce7-5af382ad3b44')
    def test_node_allocation(self):
        node = self.available_node()
        allocation = self.wait_for_allocation(self.create_allocation(
            resource_class=self.resource_class)['uuid'])
        shown = self.client.show_node_allocation(node['name'])
        self.assertEqual(allocation['uuid'], shown['uuid'])
        shown = self.client.show_node_allocation(node['uuid'],
                                                 fields=['uuid'])
        self.assertEqual({'uuid', 'links'}, set(shown))
        self.client.delete_node_allocation(node['uuid'])
        self.assertRaises(lib_exc.NotFound, self.client.show_allocation,
                          allocation['uuid'])
        self.assertIsNone(self.client.show_node(node['uuid'])[
            'instance_uuid'])

    @decorators.idempotent_id('9abc886b-1aea-4310-abe7-5bb55ad7b979')
    def test_unset_instance_uuid_deletes_allocation(self):
        node = self.available_node()
        allocation = self.wait_for_allocation(self.create_allocation(
            resource_class=self.resource_class)['uuid'])
        self.client.update_node(node['uuid'], [
            {'op': 'remove', 'path': '/instance_uuid'}])
        self.assertRaises(lib_exc.NotFound, self.client.show_allocation,
                          allocation['uuid'])
        self.assertIsNone(self.client.show_node(node['uuid'])[
            'allocation_uuid'])

    @decorators.idempotent_id('ef5ce4e7-1f04-4996-9d45-f29a1dd9b133')
    def test_delete_node_in_maintenance_deletes_allocation(self):
        node = self.available_node()
        allocation = self.wait_for_allocation(self.create_allocation(
            resource_class=self.resource_class)['uuid'])
        self.client.set_maintenance(node['uuid'], 'tempest')
        self.client.delete_node(node['uuid'])
        self.assertRaises(lib_exc.NotFound, self.client.show_allocation,
                          allocation['uuid'])


class TestAllocationsNegative(AllocationTestBase):

    @decorators.attr(type='negative')
    @decorators.idempotent_id('47a03973-df80-470f-b5b3-4be6cdab25ef')
    def test_create_bad_request(self):
        rc = self.resource_class
        bad = [
            # 400: unknown candidate, bad resource class, bad traits,
            # bad name, unknown field, missing resource class.
            {'resource_class': rc, 'candidate_nodes': ['no-such-node']},
            {'resource_class': rc,
             'candidate_nodes': [data_utils.rand_uuid()]},
            {'resource_class': 'x' * 81},
            {'resource_class': rc, 'traits': 'CUSTOM_A'},
            {'resource_class': rc, 'traits': ['not a trait']},
            {'resource_class': rc, 'name': 'bad name!'},
            {'resource_class': rc, 'node_id': 1},
            {'name': base.rand_name('tempest-alloc')},
        ]
        for body in bad:
            self.assertRaises(lib_exc.BadRequest,
                              self.client.create_allocation, **body)
        self.assertEqual([], self.client.list_allocations(
            resource_class=rc)['allocations'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('06c952ea-c2f1-462e-8ed1-cd22534e655b')
    def test_create_conflict(self):
        # 409 (the seed's "406 Conflict"): a UUID or a name taken, or a
        # UUID that is a node's instance_uuid.
        name = base.rand_name('tempest-alloc')
        allocation = self.create_allocation(resource_class=self.resource_class,
                                            name=name)
        self.assertRaises(lib_exc.Conflict, self.client.create_allocation,
                          resource_class=self.resource_class,
                          uuid=allocation['uuid'])
        self.assertRaises(lib_exc.Conflict, self.client.create_allocation,
                          resource_class=self.resource_class, name=name)
        instance = data_utils.rand_uuid()
        node = self.create_node()
        self.client.update_node(node['uuid'], [
            {'op': 'add', 'path': '/instance_uuid', 'value': instance}])
        self.assertRaises(lib_exc.Conflict, self.client.create_allocation,
                          resource_class=self.resource_class, uuid=instance)

    @decorators.attr(type='negative')
    @decorators.idempotent_id('b397767c-1e3d-49fc-aaf8-48064c60fbdb')
    def test_list_bad_request(self):
        for params in ({'state': 'no-such-state'},
                       {'resource_class': 'x' * 81},
                       {'node': 'no-such-node'},
                       {'fields': 'uuid,no_such_field'},
                       {'bogus': '1'}):
            self.assertRaises(lib_exc.BadRequest,
                              self.client.list_allocations, **params)

    @decorators.attr(type='negative')
    @decorators.idempotent_id('34bbac49-e043-4b52-8717-9a25028d3c5f')
    def test_show_and_delete_errors(self):
        for ident in (data_utils.rand_uuid(), 'no-such-allocation'):
            self.assertRaises(lib_exc.NotFound, self.client.show_allocation,
                              ident)
            self.assertRaises(lib_exc.NotFound,
                              self.client.delete_allocation, ident)
        allocation = self.create_allocation(resource_class=self.resource_class)
        self.assertRaises(lib_exc.BadRequest, self.client.show_allocation,
                          allocation['uuid'], fields='no_such_field')

    @decorators.attr(type='negative')
    @decorators.idempotent_id('5f0459d7-f7f8-4001-913e-5748caebcd7c')
    def test_node_allocation_errors(self):
        self.assertRaises(lib_exc.NotFound, self.client.show_node_allocation,
                          data_utils.rand_uuid())
        node = self.create_node()
        # No allocation.
        self.assertRaises(lib_exc.NotFound, self.client.show_node_allocation,
                          node['uuid'])
        self.assertRaises(lib_exc.NotFound,
                          self.client.delete_node_allocation, node['uuid'])
        # An instance_uuid set directly is not an allocation: 400.
        self.client.update_node(node['uuid'], [
            {'op': 'add', 'path': '/instance_uuid',
             'value': data_utils.rand_uuid()}])
        self.assertRaises(lib_exc.BadRequest,
                          self.client.show_node_allocation, node['uuid'])
        self.assertRaises(lib_exc.BadRequest,
                          self.client.show_node_allocation, node['uuid'],
                          fields='no_such_field')

    @decorators.attr(type='negative')
    @decorators.idempotent_id('bf195f9c-a771-4e44-abac-134065030f0e')
    def test_delete_refused_while_active(self):
        node = self.available_node()
        allocation = self.wait_for_allocation(self.create_allocation(
            resource_class=self.resource_class)['uuid'])
        # fake-hardware deploys at once.
        self.client.set_node_provision_state(node['uuid'], 'active')
        self.wait_for_provision_state(node['uuid'], 'active')
        self.assertRaises(lib_exc.Conflict, self.client.delete_allocation,
                          allocation['uuid'])
        self.assertRaises(lib_exc.Conflict, self.client.update_node,
                          node['uuid'], [{'op': 'remove',
                                          'path': '/instance_uuid'}])
        # Tearing the node down releases it (and deletes the allocation).
        self.client.set_node_provision_state(node['uuid'], 'deleted')
        self.wait_for_provision_state(node['uuid'], 'available')
        self.assertRaises(lib_exc.NotFound, self.client.show_allocation,
                          allocation['uuid'])


class TestAllocationMicroversions(AllocationTestBase):
    """What each microversion allows."""

    min_microversion = '1.60'

    @decorators.attr(type='negative')
    @decorators.idempotent_id('c7f0b109-47de-4219-a31f-fa0034e0ebdd')
    def test_hidden_before_1_52(self):
        node = self.create_node()
        with self.client.microversion('1.51'):
            self.assertRaises(lib_exc.NotFound, self.client.list_allocations)
            self.assertRaises(lib_exc.NotFound, self.client.create_allocation,
                              resource_class=self.resource_class)
            self.assertRaises(lib_exc.NotFound, self.client.show_allocation,
                              data_utils.rand_uuid())
            self.assertRaises(lib_exc.NotFound,
                              self.client.delete_allocation,
                              data_utils.rand_uuid())
            self.assertRaises(lib_exc.NotFound,
                              self.client.show_node_allocation, node['uuid'])
            self.assertNotIn('allocation_uuid',
                             self.client.show_node(node['uuid']))

    @decorators.idempotent_id('616c73d1-1d5d-40d5-b064-ff74703c0832')
    def test_update_from_1_57(self):
        allocation = self.create_allocation(resource_class=self.resource_class)
        patch = [{'op': 'add', 'path': '/name',
                  'value': base.rand_name('tempest-alloc')},
                 {'op': 'add', 'path': '/extra/a', 'value': 'b'}]
        with self.client.microversion('1.56'):
            # Ironic's answer: the method does not exist yet.
            self.assertRaises(lib_exc.UnexpectedResponseCode,
                              self.client.update_allocation,
                              allocation['uuid'], patch)
        with self.client.microversion('1.57'):
            updated = self.client.update_allocation(allocation['uuid'],
                                                    patch)
        self.assertEqual(patch[0]['value'], updated['name'])
        self.assertEqual({'a': 'b'}, updated['extra'])
        # Only name and extra may change.
        self.assertRaises(lib_exc.BadRequest, self.client.update_allocation,
                          allocation['uuid'],
                          [{'op': 'replace', 'path': '/resource_class',
                            'value': 'other'}])

    @decorators.idempotent_id('513e2f2d-e937-4644-9b9c-26ed557cae4f')
    def test_backfill_from_1_58(self):
        # Backfilling records an allocation for a node deployed without
        # one (Ironic's rule: the node must be active).
        node = self.available_node()
        self.client.set_node_provision_state(node['uuid'], 'active')
        self.wait_for_provision_state(node['uuid'], 'active')
        with self.client.microversion('1.57'):
            self.assertRaises(lib_exc.NotAcceptable,
                              self.client.create_allocation,
                              node=node['uuid'])
        with self.client.microversion('1.58'):
            allocation = self.create_allocation(node=node['uuid'])
        # A backfilled allocation is active at once, on that node.
        self.assertEqual('active', allocation['state'])
        self.assertEqual(node['uuid'], allocation['node_uuid'])
        self.assertEqual(allocation['uuid'], self.client.show_node(
            node['uuid'])['allocation_uuid'])

    @decorators.idempotent_id('736c6e17-cc2b-467b-a729-938940b077d7')
    def test_owner_from_1_60(self):
        owner = data_utils.rand_uuid_hex()
        with self.client.microversion('1.59'):
            self.assertRaises(lib_exc.NotAcceptable,
                              self.client.create_allocation,
                              resource_class=self.resource_class,
                              owner=owner)
            self.assertRaises(lib_exc.NotAcceptable,
                              self.client.list_allocations, owner=owner)
        allocation = self.create_allocation(resource_class=self.resource_class,
                                            owner=owner)
        self.assertEqual(owner, allocation['owner'])
        listed = self.client.list_allocations(owner=owner)['allocations']
        self.assertEqual([allocation['uuid']], [a['uuid'] for a in listed])
        with self.client.microversion('1.59'):
            self.assertNotIn('owner', self.client.show_allocation(
                allocation['uuid']))


class TestAllocationsProjectScoped(AllocationTestBase):
    """A project member allocates for its project only, among the nodes
    its project owns, and sees only its project's allocations."""

    credentials = ['system_admin', 'project_member']
    min_microversion = '1.60'

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.member_client = cls.make_client(cls.os_project_member)

    @decorators.idempotent_id('5e513ef9-e80e-43a1-a726-2dd5983ffce8')
    def test_member_allocates_own_nodes(self):
        project = self.os_project_member.credentials.project_id
        self.available_node()  # nobody's: not for the member
        owned = self.available_node(owner=project)
        allocation = self.create_allocation(
            client=self.member_client, resource_class=self.resource_class)
        self.assertEqual(project, allocation['owner'])
        allocation = self.wait_for_allocation(allocation['uuid'])
        self.assertEqual(owned['uuid'], allocation['node_uuid'])
        other = self.create_allocation(resource_class=self.resource_class)
        listed = self.member_client.list_allocations()['allocations']
        self.assertEqual([allocation['uuid']], [a['uuid'] for a in listed])
        self.assertRaises(lib_exc.NotFound,
                          self.member_client.show_allocation, other['uuid'])
        self.assertRaises(lib_exc.Forbidden,
                          self.member_client.create_allocation,
                          resource_class=self.resource_class,
                          owner=data_utils.rand_uuid_hex())
        self.member_client.delete_allocation(allocation['uuid'])
