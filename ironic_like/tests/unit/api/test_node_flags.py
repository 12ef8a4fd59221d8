"""/v1/nodes: protected (1.48), retired (1.61), automated_clean (1.47)
and fault (1.42) through the API and the real conductor."""

from oslo_utils import uuidutils

from ironic_like.common import states
from ironic_like.tests.unit.api import base


def _replace(path, value):
    return [{'op': 'replace', 'path': '/%s' % path, 'value': value}]


class TestNodeFlags(base.APITestCase):

    with_conductor = True

    def _active(self):
        return self.create_node(provision_state=states.ACTIVE,
                                power_state=states.POWER_ON,
                                instance_uuid=uuidutils.generate_uuid())

    def test_fields_appear_at_their_versions(self):
        node = self.create_node()
        url = '/v1/nodes/%s' % node.uuid
        gates = [('fault', '1.42'), ('automated_clean', '1.47'),
                 ('protected', '1.48'), ('protected_reason', '1.48'),
                 ('retired', '1.61'), ('retired_reason', '1.61')]
        for field, version in gates:
            major, minor = version.split('.')
            before = '%s.%d' % (major, int(minor) - 1)
            self.assertNotIn(field, self.get(url, version=before).json)
            self.assertIn(field, self.get(url, version=version).json)
        doc = self.get(url, version='1.61').json
        self.assertIs(False, doc['protected'])
        self.assertIs(False, doc['retired'])
        self.assertIsNone(doc['automated_clean'])
        self.assertIsNone(doc['fault'])

    def test_patch_refused_below_the_version(self):
        node = self._active()
        r = self.patch('/v1/nodes/%s' % node.uuid, _replace('protected',
                                                            True),
                       version='1.47', status=406)
        self.assertFault(r, 406, 'protected')
        self.assertFalse(self.db.get_node_by_id(node.id).protected)

    def test_protect_and_refuse_undeploy(self):
        node = self._active()
        url = '/v1/nodes/%s' % node.uuid
        doc = self.patch(url, _replace('protected', True)
                         + _replace('protected_reason', 'prod'),
                         version='1.48').json
        self.assertIs(True, doc['protected'])
        self.assertEqual('prod', doc['protected_reason'])
        r = self.put(url + '/states/provision', {'target': 'deleted'},
                     version='1.48', status=403)
        self.assertFault(r, 403, 'protected')
        r = self.delete(url, status=403)
        self.assertFault(r, 403, 'protected')
        self.assertEqual(states.ACTIVE,
                         self.db.get_node_by_id(node.id).provision_state)
        # Removing protected clears the reason.
        doc = self.patch(url, [{'op': 'remove', 'path': '/protected'}],
                         version='1.48').json
        self.assertIs(False, doc['protected'])
        self.assertIsNone(doc['protected_reason'])

    def test_protect_outside_active_is_409(self):
        node = self.create_node(provision_state=states.MANAGEABLE)
        r = self.patch('/v1/nodes/%s' % node.uuid,
                       _replace('protected', True), version='1.48',
                       status=409)
        self.assertFault(r, 409, 'manageable')

    def test_reason_without_flag_is_400(self):
        node = self._active()
        for field in ('protected_reason', 'retired_reason'):
            r = self.patch('/v1/nodes/%s' % node.uuid,
                           _replace(field, 'why'), version='1.61',
                           status=400)
            self.assertFault(r, 400, field)

    def test_retire_and_refuse_provide(self):
        node = self.create_node(provision_state=states.MANAGEABLE)
        url = '/v1/nodes/%s' % node.uuid
        doc = self.patch(url, _replace('retired', True)
                         + _replace('retired_reason', 'EOL'),
                         version='1.61').json
        self.assertIs(True, doc['retired'])
        r = self.put(url + '/states/provision', {'target': 'provide'},
                     version='1.61', status=400)
        self.assertFault(r, 400, 'retired')
        self.assertEqual(states.MANAGEABLE,
                         self.db.get_node_by_id(node.id).provision_state)

    def test_retire_available_is_409(self):
        node = self.create_node(provision_state=states.AVAILABLE)
        r = self.patch('/v1/nodes/%s' % node.uuid,
                       _replace('retired', True), version='1.61',
                       status=409)
        self.assertFault(r, 409, 'manageable')

    def test_create_with_retired_and_automated_clean(self):
        doc = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                      'retired': True,
                                      'automated_clean': True},
                        version='1.61').json
        self.assertIs(True, doc['retired'])
        self.assertIs(True, doc['automated_clean'])
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'protected': True},
                      version='1.61', status=400)
        self.assertFault(r, 400, 'protected')

    def test_filters(self):
        faulty = self.create_node(maintenance=True, fault='power failure')
        retired = self.create_node(provision_state=states.MANAGEABLE,
                                   retired=True)
        plain = self.create_node()
        uuids = lambda r: sorted(n['uuid'] for n in r.json['nodes'])  # noqa
        self.assertEqual(
            [faulty.uuid],
            uuids(self.get('/v1/nodes?fault=power%20failure',
                           version='1.42')))
        self.assertEqual(
            [retired.uuid],
            uuids(self.get('/v1/nodes?retired=true', version='1.61')))
        self.assertEqual(
            sorted([faulty.uuid, plain.uuid]),
            uuids(self.get('/v1/nodes?retired=false', version='1.61')))
        r = self.get('/v1/nodes?fault=power%20failure', version='1.41',
                     status=406)
        self.assertFault(r, 406, 'fault')
        r = self.get('/v1/nodes?fault=on%20fire', version='1.42',
                     status=400)
        self.assertFault(r, 400, 'fault', 'power failure')


class TestStringBooleans(base.APITestCase):
    """python-ironicclient sends "True" for --retired and the like; Ironic
    takes it, so must we (and still refuses what is no boolean)."""

    with_conductor = True

    def test_patch_and_create_take_boolean_strings(self):
        node = self.create_node(provision_state=states.MANAGEABLE)
        url = '/v1/nodes/%s' % node.uuid
        doc = self.patch(url, _replace('retired', 'True'),
                         version='1.61').json
        self.assertIs(True, doc['retired'])
        doc = self.patch(url, _replace('retired', 'false'),
                         version='1.61').json
        self.assertIs(False, doc['retired'])
        doc = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                      'automated_clean': '1'},
                        version='1.61').json
        self.assertIs(True, doc['automated_clean'])
        r = self.patch(url, _replace('retired', 'maybe'), version='1.61',
                       status=400)
        self.assertFault(r, 400, 'retired')
        self.assertFalse(self.db.get_node_by_id(node.id).retired)
