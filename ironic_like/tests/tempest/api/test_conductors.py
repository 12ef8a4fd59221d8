"""Conductors (1.49+) and drivers: the clustered deployment's conductors
are alive and serve the enabled hardware types."""

from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base

CONF = base.CONF


class TestConductors(base.BaseBaremetalLikeTest):

    min_microversion = '1.49'

    @decorators.idempotent_id('753d0117-bad2-4586-b441-5ee98c6059c2')
    def test_list_and_show(self):
        conductors = self.client.list_conductors()['conductors']
        alive = [c for c in conductors if c['alive']]
        self.assertGreaterEqual(
            len(alive), max(1, CONF.baremetal_like.expected_conductors),
            conductors)
        detailed = self.client.list_conductors(detail=True)['conductors']
        for conductor in detailed:
            if conductor['alive']:
                self.assertTrue(set(
                    CONF.baremetal_like.enabled_hardware_types)
                    <= set(conductor['drivers']), conductor)
        shown = self.client.show_conductor(alive[0]['hostname'])
        self.assertEqual(alive[0]['hostname'], shown['hostname'])
        self.assertIn('conductor_group', shown)
        page = self.client.list_conductors(limit=1)
        self.assertEqual(1, len(page['conductors']))

    @decorators.attr(type='negative')
    @decorators.idempotent_id('ad431212-e30e-4278-81de-005c2bbc5beb')
    def test_errors(self):
        self.assertRaises(lib_exc.NotFound, self.client.show_conductor,
                          'no-such-conductor')
        with self.client.microversion('1.48'):
            self.assertRaises(lib_exc.NotFound, self.client.list_conductors)

    @decorators.idempotent_id('b1da1161-185c-490b-abce-06e2e0b37d9a')
    def test_node_conductor_field(self):
        node = self.create_node()
        hosts = [c['hostname'] for c in
                 self.client.list_conductors()['conductors']]
        self.assertIn(self.client.show_node(node['uuid'])['conductor'],
                      hosts)


class TestConductorsPolicy(base.BaseBaremetalLikeTest):

    credentials = ['system_admin', 'project_member']
    min_microversion = '1.49'

    @decorators.attr(type='negative')
    @decorators.idempotent_id('6d293592-f59e-41f3-8f16-4d10d7aaff6f')
    def test_project_member_forbidden(self):
        client = self.make_client(self.os_project_member)
        self.assertRaises(lib_exc.Forbidden, client.list_conductors)


class TestDrivers(base.BaseBaremetalLikeTest):

    min_microversion = '1.31'

    @decorators.idempotent_id('5c224d19-c2f6-4644-a9f5-c25a8a0c2d11')
    def test_list_and_show(self):
        drivers = {d['name']: d for d in
                   self.client.list_drivers()['drivers']}
        hosts = {c['hostname'] for c in self._conductors() if c['alive']}
        for name in CONF.baremetal_like.enabled_hardware_types:
            self.assertIn(name, drivers)
            # Served by every alive conductor (same configuration).
            self.assertEqual(hosts, set(drivers[name]['hosts']))
            shown = self.client.show_driver(name)
            self.assertEqual(name, shown['name'])
            self.assertEqual('dynamic', shown['type'])
            self.assertIn('default_deploy_interface', shown)
        listed = self.client.list_drivers(type='dynamic')['drivers']
        self.assertEqual(set(drivers), {d['name'] for d in listed})

    def _conductors(self):
        with self.client.microversion('1.49'):
            return self.client.list_conductors()['conductors']

    @decorators.attr(type='negative')
    @decorators.idempotent_id('a47ca301-9dbb-457d-80e1-1ebac6bdcf62')
    def test_errors(self):
        self.assertRaises(lib_exc.NotFound, self.client.show_driver,
                          'no-such-driver')
        self.assertRaises(lib_exc.BadRequest, self.client.list_drivers,
                          type='no-such-type')
