"""Accelerators (/v1/accelerators and /v1/nodes/{node}/accelerators,
doc/accelerators.md "API"): what a deployment can check without
accelerator hardware.

The version document of its own; the three read-only collections are
well-formed and take their filters; bad filters are refused naming the
field, unknown records are not found; a fake-hardware node made by the
test has an empty accelerators document with every key, and discovery on
it is refused (409: no agent up); only an admin may discover. Nothing here
needs devices to exist: the lists may hold other nodes' records, and are
only checked for their shape.
"""

import json

from tempest.lib.common.utils import data_utils
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base

RESOURCES = ('devices', 'deployables', 'attach_handles')
NODE_KEYS = ('devices', 'deployables', 'attach_handles', 'attachments',
             'traits', 'discovery')
DISCOVER_RULE = 'baremetal:accelerator:discover'


def faultstring(exc):
    """The message of an error answer (Ironic's ``error_message``, a
    JSON document holding ``faultstring``), or the body as text."""
    body = exc.resp_body
    if isinstance(body, dict) and 'error_message' in body:
        inner = body['error_message']
        if isinstance(inner, str):
            try:
                inner = json.loads(inner)
            except ValueError:
                return inner
        if isinstance(inner, dict):
            return inner.get('faultstring', '')
    return str(body)


class AcceleratorsTestBase(base.BaseBaremetalLikeTest):
    """The accelerators client of tempest's system admin. The
    accelerators paths take no microversion; ``min_microversion`` is the
    baremetal client's, creating the tests' nodes (names from 1.5, owners
    from 1.50)."""

    min_microversion = '1.50'

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.accelerators = cls.make_accelerators_client(cls.os_system_admin)

    @staticmethod
    def make_accelerators_client(manager):
        return manager.baremetal_like_accelerators.AcceleratorsClient()

    def listers(self, client=None):
        client = client or self.accelerators
        return {'devices': client.list_devices,
                'deployables': client.list_deployables,
                'attach_handles': client.list_attach_handles}

    def assertRefused(self, exc_class, fragments, func, *args, **kwargs):
        """``func`` raises ``exc_class`` whose message holds every one of
        ``fragments``; the message."""
        exc = self.assertRaises(exc_class, func, *args, **kwargs)
        message = faultstring(exc)
        self.assertNotIn('Traceback', message)
        for fragment in fragments:
            self.assertIn(fragment, message)
        return message

    def assertBadField(self, field, func, **params):
        return self.assertRefused(
            lib_exc.BadRequest,
            ['Invalid input for field/attribute %s.' % field], func,
            **params)

    def assertListed(self, resource, doc):
        """A list answer: the collection under its key, nothing else;
        every record with a UUID, its node and its links."""
        self.assertEqual([resource], list(doc))
        self.assertIsInstance(doc[resource], list)
        for item in doc[resource]:
            self.assertIn('uuid', item)
            self.assertIn('node_uuid', item)
            rels = {link['rel']: link['href'] for link in item['links']}
            self.assertTrue(rels['self'].endswith(
                '/v1/accelerators/%s/%s' % (resource, item['uuid'])),
                rels)
            self.assertIn('bookmark', rels)
        return doc[resource]


class TestAccelerators(AcceleratorsTestBase):

    @decorators.idempotent_id('c6254928-0a58-4d96-ad8e-695e7df4c3ef')
    def test_version_document(self):
        doc = self.accelerators.show_version()
        # Its own version, not an Ironic microversion (none is sent).
        self.assertEqual('v1', doc['id'])
        self.assertEqual('CURRENT', doc['status'])
        self.assertEqual('1.0', doc['version'])
        self.assertEqual('1.0', doc['min_version'])
        rels = {link['rel']: link['href'] for link in doc['links']}
        self.assertEqual({'self'} | set(RESOURCES), set(rels))
        self.assertTrue(rels['self'].endswith('/v1/accelerators'), rels)
        for name in RESOURCES:
            self.assertTrue(
                rels[name].endswith('/v1/accelerators/%s' % name), rels)
            self.assertTrue(rels[name].startswith(rels['self']), rels)
        self.assertBadField('foo', self.accelerators.show_version, foo=1)

    @decorators.idempotent_id('4a3b6bae-f34d-404b-842d-3f849dfb75be')
    def test_lists_well_formed(self):
        for resource, lister in self.listers().items():
            items = self.assertListed(resource, lister())
            # What a list shows, a show shows (when there is anything).
            if items:
                show = getattr(self.accelerators,
                               'show_%s' % resource.rstrip('s'))
                shown = show(items[0]['uuid'])
                self.assertEqual(items[0]['uuid'], shown['uuid'])
                self.assertEqual(items[0]['node_uuid'], shown['node_uuid'])

    @decorators.idempotent_id('a7e3b670-ebab-4f82-8368-0caa88c554c1')
    def test_filters_accepted(self):
        client = self.accelerators
        for params in ({'type': 'GPU'}, {'type': 'fpga'},
                       {'vendor': '8086'}, {'vendor': 'NVIDIA Corp'},
                       {'in_use': True}, {'in_use': False},
                       {'status': 'enabled'}, {'status': 'missing'},
                       {'type': 'FPGA', 'vendor': '8086', 'in_use': False,
                        'status': 'enabled'}):
            devices = self.assertListed('devices',
                                        client.list_devices(**params))
            for device in devices:
                if 'in_use' in params:
                    self.assertEqual(params['in_use'], device['in_use'])
                if 'status' in params:
                    self.assertEqual(params['status'], device['status'])
        device = data_utils.rand_uuid()
        self.assertEqual([], self.assertListed('deployables', (
            client.list_deployables(device=device, type='FPGA',
                                    vendor='8086'))))
        self.assertEqual([], self.assertListed('attach_handles', (
            client.list_attach_handles(device=device, in_use=True))))
        self.assertListed('attach_handles',
                          client.list_attach_handles(in_use=False))
        # A node of the test's own, by UUID or name: nothing of it.
        node = self.create_node()
        for ident in (node['uuid'], node['name']):
            for resource, lister in self.listers().items():
                self.assertEqual([], self.assertListed(
                    resource, lister(node=ident)))
        # An unknown node is not found (as /v1/nodes/{node} is).
        missing = base.rand_name('tempest-no-such-node')
        for lister in self.listers().values():
            self.assertRefused(lib_exc.NotFound, [missing], lister,
                               node=missing)

    @decorators.attr(type='negative')
    @decorators.idempotent_id('e2e5f02e-6360-4323-9d0d-e9366a355315')
    def test_bad_filters_name_the_field(self):
        client = self.accelerators
        self.assertBadField('in_use', client.list_devices, in_use='maybe')
        self.assertBadField('status', client.list_devices, status='bogus')
        self.assertBadField('type', client.list_devices, type='FP-GA')
        self.assertBadField('in_use', client.list_attach_handles,
                            in_use='maybe')
        self.assertBadField('device', client.list_deployables,
                            device='not-a-uuid')
        # Unknown parameters, and those of another collection.
        for lister in self.listers().values():
            message = self.assertBadField('foo', lister, foo='1')
            self.assertIn('Unknown argument', message)
        self.assertBadField('status', client.list_deployables,
                            status='enabled')
        self.assertBadField('vendor', client.list_attach_handles,
                            vendor='8086')

    @decorators.attr(type='negative')
    @decorators.idempotent_id('738b1ceb-f00b-4c28-ad4b-1aad5ad42b38')
    def test_unknown_uuids_404(self):
        client = self.accelerators
        uuid = data_utils.rand_uuid()
        for kind, show in (('device', client.show_device),
                           ('deployable', client.show_deployable),
                           ('attach handle', client.show_attach_handle)):
            self.assertRefused(lib_exc.NotFound, [kind, uuid], show, uuid)
            self.assertRefused(lib_exc.NotFound, [kind], show,
                               'not-a-uuid')
        self.assertRefused(lib_exc.NotFound, [uuid],
                           client.show_node_accelerators, uuid)
        self.assertRefused(lib_exc.NotFound, [uuid],
                           client.discover_node_accelerators, uuid)

    @decorators.idempotent_id('6e9503a5-6b8e-4306-96e4-fe1e2c216e07')
    def test_node_without_accelerators(self):
        node = self.create_node()
        for ident in (node['uuid'], node['name']):
            doc = self.accelerators.show_node_accelerators(ident)
            self.assertEqual(node['uuid'], doc['node_uuid'])
            for key in NODE_KEYS:
                self.assertIn(key, doc)
            for key in NODE_KEYS[:-1]:
                self.assertEqual([], doc[key], key)
            # Never discovered.
            self.assertIsNone(doc['discovery'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('3ceaf6f5-ce31-49b7-8fef-9bf824323093')
    def test_discover_without_agent_409(self):
        node = self.create_node()
        message = self.assertRefused(
            lib_exc.Conflict, [node['uuid'], 'no agent up'],
            self.accelerators.discover_node_accelerators, node['uuid'])
        self.assertNotIn('Traceback', message)
        # Nothing changed.
        doc = self.accelerators.show_node_accelerators(node['uuid'])
        self.assertIsNone(doc['discovery'])
        self.assertEqual([], doc['devices'])


class TestAcceleratorsProjectScoped(AcceleratorsTestBase):
    """Project users: a project reads its nodes' accelerators, not other
    projects' (404, not 403); nobody but an admin discovers."""

    credentials = ['system_admin', 'project_admin', 'project_member',
                   'project_reader']

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.project_admin_accelerators = cls.make_accelerators_client(
            cls.os_project_admin)
        cls.member_accelerators = cls.make_accelerators_client(
            cls.os_project_member)
        cls.reader_accelerators = cls.make_accelerators_client(
            cls.os_project_reader)

    @decorators.attr(type='negative')
    @decorators.idempotent_id('7b39fe10-0397-4f49-b180-cfb1cf2ea1c0')
    def test_non_admin_cannot_discover(self):
        # tempest's project admin and member share one project.
        project = self.os_project_member.credentials.project_id
        owned = self.create_node(owner=project)
        other = self.create_node(owner=data_utils.rand_uuid_hex())
        for client in (self.project_admin_accelerators,
                       self.member_accelerators, self.reader_accelerators):
            # It sees its node, may not discover it...
            client.show_node_accelerators(owned['uuid'])
            self.assertRefused(lib_exc.Forbidden, [DISCOVER_RULE],
                               client.discover_node_accelerators,
                               owned['uuid'])
            # ...and does not even see another project's.
            self.assertRaises(lib_exc.NotFound,
                              client.discover_node_accelerators,
                              other['uuid'])
        # The admin may (and is told there is no agent).
        self.assertRaises(lib_exc.Conflict,
                          self.accelerators.discover_node_accelerators,
                          owned['uuid'])

    @decorators.idempotent_id('bed1a888-446d-4f6f-befb-81b79d5b2bdb')
    def test_project_reads_own_nodes_only(self):
        project = self.os_project_reader.credentials.project_id
        owned = self.create_node(owner=project)
        other = self.create_node(owner=data_utils.rand_uuid_hex())
        client = self.reader_accelerators
        self.assertEqual('v1', client.show_version()['id'])
        doc = client.show_node_accelerators(owned['uuid'])
        self.assertEqual(owned['uuid'], doc['node_uuid'])
        for resource, lister in self.listers(client).items():
            self.assertEqual([], self.assertListed(
                resource, lister(node=owned['uuid'])))
            # The project's lists hold its nodes' records only.
            for item in self.assertListed(resource, lister()):
                self.assertNotEqual(other['uuid'], item['node_uuid'])
            self.assertRefused(lib_exc.NotFound, [other['uuid']], lister,
                               node=other['uuid'])
        self.assertRefused(lib_exc.NotFound, [other['uuid']],
                           client.show_node_accelerators, other['uuid'])
