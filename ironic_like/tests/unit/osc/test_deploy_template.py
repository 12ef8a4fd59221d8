"""``openstack baremetal deploy template ...``: arguments to requests."""

import fixtures
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc.v1 import deploy_template as dt
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes

UUID = '5be26c0b-03f2-4d2e-ae87-c02d7f33c127'
STEPS = [{'interface': 'bios', 'step': 'apply_configuration',
          'args': {'settings': []}, 'priority': 150}]
STEPS_JSON = ('[{"interface": "bios", "step": "apply_configuration", '
              '"args": {"settings": []}, "priority": 150}]')


def template(**fields):
    doc = {'uuid': UUID, 'name': 'CUSTOM_RAID1', 'steps': STEPS,
           'extra': {}, 'created_at': 'c', 'updated_at': None,
           'links': []}
    doc.update(fields)
    return doc


class TestDeployTemplate(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('POST', '/v1/deploy_templates',
                           fakes.FakeResponse(201, template()))
        self.session.route('GET', '/v1/deploy_templates',
                           fakes.FakeResponse(200, {'deploy_templates': [
                               template()]}))
        self.session.route('GET', '/v1/deploy_templates/CUSTOM_RAID1',
                           fakes.FakeResponse(200, template()))
        self.session.route('PATCH', '/v1/deploy_templates/CUSTOM_RAID1',
                           fakes.FakeResponse(200, template()))
        self.session.route('DELETE', '/v1/deploy_templates/.*',
                           fakes.FakeResponse(204))

    def test_create(self):
        shown = self.as_dict(self.run_command(dt.CreateDeployTemplate, [
            'CUSTOM_RAID1', '--steps', STEPS_JSON, '--uuid', UUID,
            '--extra', 'a=1']))
        self.assertRequest(self.last(), 'POST', '/v1/deploy_templates',
                           body={'name': 'CUSTOM_RAID1', 'steps': STEPS,
                                 'uuid': UUID, 'extra': {'a': 1}})
        self.assertEqual('1.60', self.last().headers[http.VERSION_HEADER])
        self.assertEqual('CUSTOM_RAID1', shown['name'])
        self.assertNotIn('links', shown)

    def test_create_steps_from_file(self):
        path = self.useFixture(fixtures.TempDir()).join('steps.yaml')
        with open(path, 'w') as f:
            f.write('- interface: bios\n  step: apply_configuration\n'
                    '  args: {settings: []}\n  priority: 150\n')
        self.run_command(dt.CreateDeployTemplate,
                         ['CUSTOM_RAID1', '--steps', path])
        self.assertEqual(STEPS, self.last().body['steps'])

    def test_create_needs_steps_list(self):
        self.assertParseFails(dt.CreateDeployTemplate, ['CUSTOM_X'])
        for steps in ('{"a": 1}', 'not json'):
            self.assertRaises(osc_exc.CommandError, self.run_command,
                              dt.CreateDeployTemplate,
                              ['CUSTOM_X', '--steps', steps])
        self.assertEqual([], self.requests())

    def test_list(self):
        titles, rows = self.rows(self.run_command(dt.ListDeployTemplate,
                                                  []))
        self.assertEqual(('UUID', 'Name'), titles)
        self.assertEqual([(UUID, 'CUSTOM_RAID1')], rows)
        self.assertRequest(self.last(), 'GET', '/v1/deploy_templates',
                           params={})

    def test_list_long_and_paging(self):
        titles, _rows = self.rows(self.run_command(dt.ListDeployTemplate, [
            '--long', '--limit', '2', '--marker', UUID,
            '--sort', 'name:desc']))
        self.assertRequest(self.last(), 'GET', '/v1/deploy_templates',
                           params={'detail': 'True', 'limit': 2,
                                   'marker': UUID, 'sort_key': 'name',
                                   'sort_dir': 'desc'})
        self.assertEqual(('UUID', 'Name', 'Steps', 'Extra', 'Created At',
                          'Updated At'), titles)

    def test_list_fields(self):
        self.run_command(dt.ListDeployTemplate, ['--fields', 'uuid,steps'])
        self.assertEqual({'fields': 'uuid,steps'}, self.last().params)

    def test_show(self):
        shown = self.as_dict(self.run_command(dt.ShowDeployTemplate,
                                              ['CUSTOM_RAID1']))
        self.assertEqual(UUID, shown['uuid'])

    def test_set(self):
        self.run_command(dt.SetDeployTemplate, [
            'CUSTOM_RAID1', '--name', 'CUSTOM_RAID5', '--steps', STEPS_JSON,
            '--extra', 'k=v'])
        self.assertRequest(self.last(), 'PATCH',
                           '/v1/deploy_templates/CUSTOM_RAID1', body=[
                               {'op': 'add', 'path': '/name',
                                'value': 'CUSTOM_RAID5'},
                               {'op': 'add', 'path': '/steps',
                                'value': STEPS},
                               {'op': 'add', 'path': '/extra/k',
                                'value': 'v'}])

    def test_set_nothing(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          dt.SetDeployTemplate, ['CUSTOM_RAID1'])

    def test_unset(self):
        self.run_command(dt.UnsetDeployTemplate,
                         ['CUSTOM_RAID1', '--extra', 'k'])
        self.assertEqual([{'op': 'remove', 'path': '/extra/k'}],
                         self.last().body)

    def test_delete(self):
        self.run_command(dt.DeleteDeployTemplate, ['a', 'b'])
        self.assertEqual(['/v1/deploy_templates/a',
                          '/v1/deploy_templates/b'],
                         [r.path for r in self.requests()])
        self.assertIn('Deleted template a', self.app.stdout.getvalue())


class TestDeployTemplateOldServer(base.CommandTestCase):

    MAX_VERSION = '1.54'

    def test_refused(self):
        for command_class, argv in (
                (dt.CreateDeployTemplate, ['CUSTOM_X', '--steps', '[]']),
                (dt.ListDeployTemplate, []),
                (dt.ShowDeployTemplate, ['x']),
                (dt.SetDeployTemplate, ['x', '--name', 'y']),
                (dt.UnsetDeployTemplate, ['x', '--extra', 'k']),
                (dt.DeleteDeployTemplate, ['x'])):
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  command_class, argv)
            self.assertIn('Deploy template commands: API version 1.55',
                          str(e))
        self.assertEqual([], self.requests())
