"""fields on GET /v1/drivers and /v1/drivers/{name} (1.77)."""

from ironic_like.tests.unit.api import base


class TestDriverFields(base.APITestCase):

    with_conductor = True

    def test_list_fields(self):
        doc = self.get('/v1/drivers?fields=name,hosts', version='1.77').json
        self.assertIn('fake-hardware', [d['name'] for d in doc['drivers']])
        for driver in doc['drivers']:
            self.assertEqual({'name', 'hosts', 'links'}, set(driver))
        # Only links when no field is named (Ironic's sanitize_dict).
        doc = self.get('/v1/drivers?fields=', version='1.77').json
        self.assertEqual([{'links'}], [set(d) for d in doc['drivers']][:1])

    def test_list_fields_are_those_of_the_short_form(self):
        # Without detail a driver has no interfaces: asking for one is 400.
        r = self.get('/v1/drivers?fields=name,default_deploy_interface',
                     version='1.77', status=400)
        self.assertFault(r, 400, 'default_deploy_interface')
        doc = self.get('/v1/drivers?fields=type,properties',
                       version='1.77').json
        self.assertEqual({'type', 'properties', 'links'},
                         set(doc['drivers'][0]))
        self.get('/v1/drivers?fields=name&detail=False', version='1.77')

    def test_detail_and_fields_400(self):
        r = self.get('/v1/drivers?detail=True&fields=name', version='1.77',
                     status=400)
        self.assertFault(r, 400, 'detail=True and fields')
        # Before the version check, as Ironic.
        self.get('/v1/drivers?detail=True&fields=name', version='1.76',
                 status=400)

    def test_show_fields(self):
        doc = self.get('/v1/drivers/fake-hardware?fields=name,type,'
                       'default_deploy_interface', version='1.77').json
        self.assertEqual({'name': 'fake-hardware', 'type': 'dynamic',
                          'default_deploy_interface': 'fake'},
                         {k: v for k, v in doc.items() if k != 'links'})
        self.assertIn('links', doc)

    def test_no_fields_unchanged(self):
        full = self.get('/v1/drivers/fake-hardware', version='1.77').json
        self.assertIn('enabled_power_interfaces', full)
        listed = self.get('/v1/drivers', version='1.77').json['drivers']
        self.assertEqual({'name', 'hosts', 'links', 'properties', 'type'},
                         set(listed[0]))

    def test_406_below_1_77_and_400_unknown(self):
        for url in ('/v1/drivers?fields=name',
                    '/v1/drivers/fake-hardware?fields=name'):
            r = self.get(url, version='1.76', status=406)
            self.assertFault(r, 406, 'fields')
            r = self.get(url + ',colour', version='1.77', status=400)
            self.assertFault(r, 400, 'colour')

    def test_unknown_driver_404(self):
        self.get('/v1/drivers/nope?fields=name', version='1.77', status=404)
