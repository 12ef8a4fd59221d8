"""/v1/conductors and /v1/drivers."""

import datetime

from oslo_utils import timeutils
import sqlalchemy as sa

from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.db.sqlalchemy import models
from ironic_like.tests.unit.api import base


def _age_conductor(hostname, seconds):
    """Make a conductor's last heartbeat ``seconds`` old."""
    then = timeutils.utcnow() - datetime.timedelta(seconds=seconds)
    with sa_api.get_engine().begin() as conn:
        conn.execute(sa.update(models.Conductor)
                     .where(models.Conductor.hostname == hostname)
                     .values(updated_at=then))


class TestConductors(base.APITestCase):

    def setUp(self):
        super().setUp()
        self.db.register_conductor('b-host', 'g1', ['fake-hardware',
                                                    'other-type'])
        self.db.register_conductor('dead-host', '', ['fake-hardware'])
        _age_conductor('dead-host', 3600)

    def test_hidden_before_1_49(self):
        r = self.get('/v1/conductors', version='1.48', status=404)
        self.assertFault(r, 404)
        self.get('/v1/conductors/b-host', version='1.48', status=404)

    def test_list(self):
        doc = self.get('/v1/conductors').json
        conductors = doc['conductors']
        self.assertEqual(['b-host', 'dead-host', 'test-conductor'],
                         [c['hostname'] for c in conductors])
        self.assertEqual({'hostname', 'conductor_group', 'alive', 'links'},
                         set(conductors[0]))
        alive = {c['hostname']: c['alive'] for c in conductors}
        self.assertEqual({'b-host': True, 'dead-host': False,
                          'test-conductor': True}, alive)
        self.assertEqual('g1', conductors[0]['conductor_group'])
        self.assertEqual('http://localhost/v1/conductors/b-host',
                         conductors[0]['links'][0]['href'])

    def test_offline_is_not_alive(self):
        self.db.unregister_conductor('b-host')
        doc = self.get('/v1/conductors/b-host').json
        self.assertFalse(doc['alive'])

    def test_detail_and_fields(self):
        doc = self.get('/v1/conductors?detail=True').json['conductors'][0]
        self.assertEqual(['fake-hardware', 'other-type'], doc['drivers'])
        self.assertIn('created_at', doc)
        self.assertIn('updated_at', doc)
        doc = self.get('/v1/conductors?fields=hostname,drivers'
                       ).json['conductors'][0]
        self.assertEqual({'hostname', 'drivers', 'links'}, set(doc))
        self.get('/v1/conductors?fields=nope', status=400)

    def test_pagination(self):
        doc = self.get('/v1/conductors?limit=2').json
        self.assertEqual(2, len(doc['conductors']))
        self.assertIn('marker=dead-host', doc['next'])
        rest = self.get(doc['next'].replace('http://localhost', '')).json
        self.assertEqual(['test-conductor'],
                         [c['hostname'] for c in rest['conductors']])
        self.assertNotIn('next', rest)
        self.get('/v1/conductors?marker=nobody', status=400)
        self.get('/v1/conductors?sort_key=online', status=400)
        doc = self.get('/v1/conductors?sort_dir=desc').json
        self.assertEqual('test-conductor', doc['conductors'][0]['hostname'])

    def test_get_one(self):
        doc = self.get('/v1/conductors/b-host').json
        self.assertEqual('b-host', doc['hostname'])
        self.assertTrue(doc['alive'])
        self.assertEqual(['fake-hardware', 'other-type'], doc['drivers'])
        r = self.get('/v1/conductors/nobody', status=404)
        self.assertFault(r, 404, 'nobody')


class TestDrivers(base.APITestCase):

    def setUp(self):
        super().setUp()
        self.db.register_conductor('b-host', '', ['fake-hardware',
                                                  'other-type'])
        self.db.register_conductor('dead-host', '', ['dead-type'])
        _age_conductor('dead-host', 3600)

    def test_list(self):
        drivers = self.get('/v1/drivers').json['drivers']
        self.assertEqual(['fake-hardware', 'other-type'],
                         [d['name'] for d in drivers])
        self.assertEqual(['b-host', 'test-conductor'], drivers[0]['hosts'])
        self.assertEqual('dynamic', drivers[0]['type'])
        self.assertEqual('http://localhost/v1/drivers/fake-hardware',
                         drivers[0]['links'][0]['href'])
        self.assertNotIn('default_power_interface', drivers[0])

    def test_type_hidden_before_1_30(self):
        drivers = self.get('/v1/drivers', version='1.29').json['drivers']
        self.assertNotIn('type', drivers[0])
        self.get('/v1/drivers?type=dynamic', version='1.29', status=406)
        self.get('/v1/drivers?detail=true', version='1.29', status=406)

    def test_type_filter(self):
        self.assertEqual([], self.get('/v1/drivers?type=classic'
                                      ).json['drivers'])
        self.assertEqual(2, len(self.get('/v1/drivers?type=dynamic'
                                         ).json['drivers']))
        r = self.get('/v1/drivers?type=fancy', status=400)
        self.assertFault(r, 400, 'field/attribute type')

    def test_detail(self):
        drivers = self.get('/v1/drivers?detail=True').json['drivers']
        fake = drivers[0]
        self.assertEqual('fake', fake['default_power_interface'])
        self.assertIn('fake', fake['enabled_deploy_interfaces'])

    def test_get_one(self):
        doc = self.get('/v1/drivers/fake-hardware').json
        self.assertEqual('fake-hardware', doc['name'])
        self.assertEqual(['b-host', 'test-conductor'], doc['hosts'])
        self.assertEqual('fake', doc['default_boot_interface'])
        self.assertEqual({}, self.get(
            '/v1/drivers/fake-hardware/properties').json)

    def test_unknown_driver_404(self):
        r = self.get('/v1/drivers/nope', status=404)
        self.assertFault(r, 404, 'nope')
        self.get('/v1/drivers/dead-type', status=404)
        self.get('/v1/drivers/nope/properties', status=404)
