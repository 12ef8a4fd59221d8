"""The CLI side of API 1.111-1.115, as python-ironicclient 6.3.0 has it:
a port's available_for_dynamic_portgroup and a port group's
dynamic_portgroup (1.111, shown only), a runbook's description and the
runbook trait commands (1.112), the project (1.113) and the state,
target_provision_state and duration_seconds (1.115) of node history
events, and firmware components (1.114: their columns stay 6.3.0's).

Each option and command: what it sends, the version the request
carries, and its refusal below its version before any request."""

import configparser
import importlib
import os

from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import plugin
from ironic_like.osc.v1 import node_history as history_cmds
from ironic_like.osc.v1 import node_management as mgmt_cmds
from ironic_like.osc.v1 import port as port_cmds
from ironic_like.osc.v1 import portgroup as pg_cmds
from ironic_like.osc.v1 import runbook as rb
from ironic_like.osc.v1 import runbook_traits as rbt
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes

RB_UUID = '6be26c0b-03f2-4d2e-ae87-c02d7f33c128'
PG_UUID = '7be26c0b-03f2-4d2e-ae87-c02d7f33c129'
STEPS = [{'interface': 'bios', 'step': 'apply_configuration',
          'args': {'settings': []}, 'order': 1}]
STEPS_JSON = ('[{"interface": "bios", "step": "apply_configuration", '
              '"args": {"settings": []}, "order": 1}]')
SETUP_CFG = os.path.join(os.path.dirname(__file__), '..', '..', '..', '..',
                         'setup.cfg')


def runbook(**fields):
    doc = {'uuid': RB_UUID, 'name': 'fw-update', 'steps': STEPS,
           'disable_ramdisk': False, 'extra': {}, 'public': False,
           'owner': None, 'description': 'Update the firmware',
           'traits': ['CUSTOM_FW', 'CUSTOM_GPU'], 'created_at': 'c',
           'updated_at': None, 'links': [{'href': 'x', 'rel': 'self'}]}
    doc.update(fields)
    return doc


def add(path, value):
    return {'op': 'add', 'path': path, 'value': value}


def remove(path):
    return {'op': 'remove', 'path': path}


class NewFieldsTestCase(base.CommandTestCase):
    """A server of API 1.115, negotiated (the plugin's own cap)."""

    MAX_VERSION = '1.115'

    def use_version(self, version):
        """Requests from now on carry ``version``, as with
        --os-baremetal-api-version."""
        self.client = self.app.client_manager.baremetal = http.Client(
            self.session, fakes.ENDPOINT, version)
        self.session.requests = []

    def assertVersion(self, version, request=None):
        request = request or self.last()
        self.assertEqual(version, request.headers[http.VERSION_HEADER])

    def assertRefused(self, version, command_class, argv, what, needed):
        """At ``version`` the command fails naming ``what`` and the
        version ``needed``, and sends nothing."""
        self.use_version(version)
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              command_class, argv)
        self.assertIn('%s: API version %s or later is needed' % (
            what, needed), str(e))
        self.assertIn('version %s was requested' % http.version_string(
            version), str(e))
        self.assertEqual([], self.session.requests)
        return e


class TestVersions(NewFieldsTestCase):

    def test_constants(self):
        self.assertEqual((1, 111), http.DYNAMIC_PORTGROUP)
        self.assertEqual((1, 112), http.RUNBOOK_TRAITS)
        self.assertEqual((1, 113), http.NODE_HISTORY_PROJECT)
        self.assertEqual((1, 114), http.FIRMWARE_HARDWARE)
        self.assertEqual((1, 115), http.NODE_HISTORY_STATES)
        self.assertEqual((1, 115), http.LAST_KNOWN_VERSION)

    def test_negotiates_up_to_1_115(self):
        for server, sent in (('1.115', '1.115'), ('1.250', '1.115'),
                             ('1.111', '1.111')):
            self.session = fakes.FakeSession(server)
            self.session.route('GET', '/v1/runbooks', fakes.FakeResponse(
                200, {'runbooks': []}))
            self.app.client_manager.baremetal = http.Client(
                self.session, fakes.ENDPOINT)
            self.run_command(rb.ListRunbook, [])
            self.assertVersion(sent)

    def test_version_option_takes_1_115(self):
        self.assertEqual(115, plugin.LAST_KNOWN_API_VERSION)
        self.assertIn('1.115', plugin.API_VERSIONS)
        self.assertNotIn('1.116', plugin.API_VERSIONS)

    def test_refusal_names_the_server_maximum(self):
        # Negotiated with a 1.111 server: the message says what it speaks.
        self.session.max_version = '1.111'
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              rbt.ListTraitsRunbook, ['fw-update'])
        self.assertEqual('Runbook trait commands: API version 1.112 or '
                         'later is needed, but the server supports '
                         'versions up to 1.111.', str(e))
        self.assertEqual([], self.requests())

    def test_entry_points(self):
        parser = configparser.ConfigParser()
        parser.read(SETUP_CFG)
        lines = parser.get('entry_points',
                           'openstack.baremetal.v1').strip().splitlines()
        commands = dict(line.replace(' ', '').split('=', 1)
                        for line in lines)
        for name, cls in (('runbook_trait_list', rbt.ListTraitsRunbook),
                          ('runbook_trait_add', rbt.AddTraitRunbook),
                          ('runbook_trait_remove', rbt.RemoveTraitRunbook)):
            module, _sep, attr = commands['baremetal_' + name].partition(
                ':')
            self.assertIs(cls, getattr(importlib.import_module(module),
                                       attr))

    def test_every_changed_parser_formats_its_help(self):
        for cls, options in (
                (rb.CreateRunbook, ['--description']),
                (rb.SetRunbook, ['--description']),
                (rb.UnsetRunbook, ['--description']),
                (rbt.ListTraitsRunbook, ['<runbook>']),
                (rbt.AddTraitRunbook, ['<runbook>', '<trait>']),
                (rbt.RemoveTraitRunbook, ['<runbook>', '<trait>',
                                          '--all'])):
            parser = self.make(cls).get_parser('openstack baremetal test')
            text = parser.format_help()
            for option in options:
                self.assertIn(option, text, cls.__name__)


class TestDynamicPortgroup(NewFieldsTestCase):
    """1.111: shown in the --long lists; python-ironicclient 6.3.0 has no
    option setting available_for_dynamic_portgroup, nor has this
    plugin."""

    def test_port_long_column(self):
        self.session.route('GET', '/v1/ports/detail', fakes.FakeResponse(
            200, {'ports': [fakes.port(
                portgroup_uuid=None, available_for_dynamic_portgroup=False,
                internal_info={})]}))
        titles, rows = self.rows(self.run_command(port_cmds.ListPort,
                                                  ['--long']))
        self.assertRequest(self.last(), 'GET', '/v1/ports/detail')
        self.assertVersion('1.115')
        index = titles.index('Available For Dynamic Portgroup')
        self.assertEqual(('Portgroup UUID', 'Internal Info'),
                         (titles[index - 1], titles[index + 1]))
        self.assertIs(False, rows[0][index])
        self.assertIn('available_for_dynamic_portgroup',
                      port_cmds.LONG_FIELDS)

    def test_port_show(self):
        self.session.route('GET', '/v1/ports/p', fakes.FakeResponse(
            200, fakes.port(available_for_dynamic_portgroup=True)))
        shown = self.as_dict(self.run_command(port_cmds.ShowPort, ['p']))
        self.assertIs(True, shown['available_for_dynamic_portgroup'])
        self.assertVersion('1.115')

    def test_no_port_option(self):
        for cls, argv in (
                (port_cmds.CreatePort, ['52:54:00:00:00:01', '--node', 'n',
                                        '--available-for-dynamic-'
                                        'portgroup']),
                (port_cmds.SetPort, ['p', '--available-for-dynamic-'
                                     'portgroup']),
                (port_cmds.UnsetPort, ['p', '--available-for-dynamic-'
                                       'portgroup'])):
            self.assertParseFails(cls, argv)

    def test_portgroup_long_column(self):
        self.session.route('GET', '/v1/portgroups/detail',
                           fakes.FakeResponse(200, {'portgroups': [{
                               'uuid': PG_UUID, 'address': None,
                               'name': 'bond0', 'category': 'c',
                               'dynamic_portgroup': True}]}))
        titles, rows = self.rows(self.run_command(pg_cmds.ListPortGroup,
                                                  ['--long']))
        self.assertVersion('1.115')
        self.assertEqual(('UUID', 'Address', 'Name', 'Category',
                          'Dynamic Portgroup'), titles)
        self.assertIs(True, rows[0][4])
        self.assertEqual('dynamic_portgroup', pg_cmds.LONG_FIELDS[-1])

    def test_portgroup_read_only(self):
        self.assertParseFails(pg_cmds.SetPortGroup,
                              ['bond0', '--dynamic-portgroup'])


class TestRunbookDescription(NewFieldsTestCase):
    """--description (1.112) of runbook create, set and unset."""

    def setUp(self):
        super().setUp()
        self.session.route('POST', '/v1/runbooks', fakes.FakeResponse(
            201, runbook()))
        self.session.route('PATCH', '/v1/runbooks/fw-update',
                           fakes.FakeResponse(200, runbook()))

    def test_create(self):
        shown = self.as_dict(self.run_command(rb.CreateRunbook, [
            '--name', 'fw-update', '--steps', STEPS_JSON,
            '--description', 'Update the firmware']))
        self.assertRequest(self.last(), 'POST', '/v1/runbooks', body={
            'name': 'fw-update', 'steps': STEPS,
            'description': 'Update the firmware'})
        self.assertVersion('1.115')
        self.assertEqual('Update the firmware', shown['description'])
        self.assertEqual(['CUSTOM_FW', 'CUSTOM_GPU'],
                         shown['traits']._value)

    def test_create_at_1_112(self):
        self.use_version((1, 112))
        self.run_command(rb.CreateRunbook, [
            '--name', 'fw-update', '--steps', STEPS_JSON,
            '--description', 'd'])
        self.assertEqual('d', self.last().body['description'])
        self.assertVersion('1.112')

    def test_create_without_description_at_1_92(self):
        self.use_version((1, 92))
        self.run_command(rb.CreateRunbook, [
            '--name', 'CUSTOM_FW', '--steps', STEPS_JSON])
        self.assertEqual({'name': 'CUSTOM_FW', 'steps': STEPS},
                         self.last().body)
        self.assertVersion('1.92')

    def test_create_refused_below(self):
        self.assertRefused((1, 111), rb.CreateRunbook, [
            '--name', 'CUSTOM_FW', '--steps', STEPS_JSON,
            '--description', 'd'], '--description', '1.112')

    def test_set(self):
        self.run_command(rb.SetRunbook, ['fw-update', '--name', 'fw2',
                                         '--description', 'new text'])
        self.assertRequest(self.last(), 'PATCH', '/v1/runbooks/fw-update',
                           body=[add('/name', 'fw2'),
                                 add('/description', 'new text')])
        self.assertVersion('1.115')
        self.use_version((1, 112))
        self.run_command(rb.SetRunbook, ['fw-update', '--description', 'x'])
        self.assertEqual([add('/description', 'x')], self.last().body)
        self.assertVersion('1.112')

    def test_set_refused_below(self):
        self.assertRefused((1, 111), rb.SetRunbook,
                           ['fw-update', '--owner', 'p', '--description',
                            'd'], '--description', '1.112')

    def test_set_other_fields_at_1_111(self):
        self.use_version((1, 111))
        self.run_command(rb.SetRunbook, ['fw-update', '--owner', 'p'])
        self.assertEqual([add('/owner', 'p')], self.last().body)
        self.assertVersion('1.111')

    def test_unset(self):
        self.run_command(rb.UnsetRunbook, ['fw-update', '--description',
                                           '--owner'])
        self.assertRequest(self.last(), 'PATCH', '/v1/runbooks/fw-update',
                           body=[remove('/description'), remove('/owner')])
        self.assertVersion('1.115')

    def test_unset_refused_below(self):
        self.assertRefused((1, 111), rb.UnsetRunbook,
                           ['fw-update', '--description'], '--description',
                           '1.112')

    def test_unset_takes_no_value(self):
        self.assertParseFails(rb.UnsetRunbook,
                              ['fw-update', '--description', 'x'])


class TestRunbookColumns(NewFieldsTestCase):
    """description and traits in runbook list --long and show."""

    def test_list_long(self):
        self.session.route('GET', '/v1/runbooks', fakes.FakeResponse(
            200, {'runbooks': [runbook()]}))
        titles, rows = self.rows(self.run_command(rb.ListRunbook,
                                                  ['--long']))
        self.assertRequest(self.last(), 'GET', '/v1/runbooks',
                           params={'detail': 'True'})
        self.assertVersion('1.115')
        # python-ironicclient 6.3.0's order.
        self.assertEqual(('UUID', 'Name', 'Description', 'Traits',
                          'Disable Ramdisk', 'Owner', 'Public', 'Steps',
                          'Extra', 'Created At', 'Updated At'), titles)
        self.assertEqual(('Update the firmware',
                          ['CUSTOM_FW', 'CUSTOM_GPU']), rows[0][2:4])

    def test_list_long_of_an_older_server(self):
        doc = runbook()
        del doc['description'], doc['traits']
        self.session.route('GET', '/v1/runbooks', fakes.FakeResponse(
            200, {'runbooks': [doc]}))
        titles, _rows = self.run_command(rb.ListRunbook, ['--long'])
        self.assertNotIn('Description', titles)
        self.assertNotIn('Traits', titles)

    def test_show(self):
        self.session.route('GET', '/v1/runbooks/fw-update',
                           fakes.FakeResponse(200, runbook()))
        shown = self.as_dict(self.run_command(rb.ShowRunbook,
                                              ['fw-update']))
        self.assertEqual('Update the firmware', shown['description'])
        self.assertEqual(['CUSTOM_FW', 'CUSTOM_GPU'],
                         shown['traits']._value)
        self.assertVersion('1.115')


class TestRunbookTraits(NewFieldsTestCase):
    """baremetal runbook trait list / add / remove (1.112)."""

    def setUp(self):
        super().setUp()
        s = self.session
        s.route('GET', '/v1/runbooks/fw-update/traits', fakes.FakeResponse(
            200, {'traits': ['CUSTOM_FW', 'CUSTOM_GPU']}))
        s.route('PUT', '/v1/runbooks/fw-update/traits/[A-Z_]+',
                fakes.FakeResponse(204))
        s.route('DELETE', '/v1/runbooks/fw-update/traits(/[A-Z_]+)?',
                fakes.FakeResponse(204))

    def output(self):
        return self.app.stdout.getvalue()

    def test_list(self):
        titles, rows = self.rows(self.run_command(rbt.ListTraitsRunbook,
                                                  ['fw-update']))
        self.assertEqual(('Traits',), titles)
        self.assertEqual([('CUSTOM_FW',), ('CUSTOM_GPU',)], rows)
        self.assertRequest(self.last(), 'GET',
                           '/v1/runbooks/fw-update/traits')
        self.assertVersion('1.115')

    def test_list_at_1_112(self):
        self.use_version((1, 112))
        self.run_command(rbt.ListTraitsRunbook, ['fw-update'])
        self.assertVersion('1.112')

    def test_list_quotes_the_runbook(self):
        self.session.route('GET', '/v1/runbooks/a%2Fb/traits',
                           fakes.FakeResponse(200, {'traits': []}))
        _titles, rows = self.rows(self.run_command(rbt.ListTraitsRunbook,
                                                   ['a/b']))
        self.assertEqual([], rows)

    def test_add(self):
        self.run_command(rbt.AddTraitRunbook,
                         ['fw-update', 'CUSTOM_FW', 'CUSTOM_GPU'])
        first, second = self.requests()
        self.assertRequest(first, 'PUT',
                           '/v1/runbooks/fw-update/traits/CUSTOM_FW')
        self.assertRequest(second, 'PUT',
                           '/v1/runbooks/fw-update/traits/CUSTOM_GPU')
        for request in (first, second):
            self.assertIsNone(request.body)
            self.assertVersion('1.115', request)
        self.assertEqual('Added trait CUSTOM_FW\nAdded trait CUSTOM_GPU\n',
                         self.output())

    def test_add_needs_a_trait(self):
        self.assertParseFails(rbt.AddTraitRunbook, ['fw-update'])

    def test_add_goes_on_after_a_failure(self):
        self.session.route('PUT', '/v1/runbooks/fw-update/traits/bad',
                           fakes.fault(400, 'Invalid trait "bad".'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              rbt.AddTraitRunbook,
                              ['fw-update', 'bad', 'CUSTOM_FW'])
        self.assertIn('Failed to add trait bad: Invalid trait "bad".',
                      str(e))
        self.assertEqual(2, len(self.requests()))
        self.assertEqual('Added trait CUSTOM_FW\n', self.output())

    def test_remove(self):
        self.run_command(rbt.RemoveTraitRunbook,
                         ['fw-update', 'CUSTOM_FW', 'CUSTOM_GPU'])
        self.assertEqual(
            [('DELETE', '/v1/runbooks/fw-update/traits/CUSTOM_FW'),
             ('DELETE', '/v1/runbooks/fw-update/traits/CUSTOM_GPU')],
            [(r.method, r.path) for r in self.requests()])
        self.assertVersion('1.115')
        self.assertEqual('Removed trait CUSTOM_FW\n'
                         'Removed trait CUSTOM_GPU\n', self.output())

    def test_remove_all(self):
        self.run_command(rbt.RemoveTraitRunbook, ['fw-update', '--all'])
        self.assertEqual([('DELETE', '/v1/runbooks/fw-update/traits')],
                         [(r.method, r.path) for r in self.requests()])
        self.assertVersion('1.115')
        self.assertEqual('Removed all traits from runbook fw-update\n',
                         self.output())

    def test_remove_traits_or_all(self):
        self.assertParseFails(rbt.RemoveTraitRunbook, ['fw-update'])
        self.assertParseFails(rbt.RemoveTraitRunbook,
                              ['fw-update', '--all', 'CUSTOM_FW'])
        self.assertParseFails(rbt.RemoveTraitRunbook,
                              ['fw-update', 'CUSTOM_FW', '--all'])
        self.assertEqual([], self.requests())

    def test_remove_reports_each_failure(self):
        self.session.route('DELETE',
                           '/v1/runbooks/fw-update/traits/CUSTOM_X',
                           fakes.fault(404, 'Trait CUSTOM_X not found.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              rbt.RemoveTraitRunbook,
                              ['fw-update', 'CUSTOM_X', 'CUSTOM_FW'])
        self.assertIn('Failed to remove trait CUSTOM_X: Trait CUSTOM_X '
                      'not found.', str(e))
        self.assertEqual(2, len(self.requests()))
        self.assertEqual('Removed trait CUSTOM_FW\n', self.output())

    def test_refused_below_1_112(self):
        for cls, argv in (
                (rbt.ListTraitsRunbook, ['fw-update']),
                (rbt.AddTraitRunbook, ['fw-update', 'CUSTOM_FW']),
                (rbt.RemoveTraitRunbook, ['fw-update', 'CUSTOM_FW']),
                (rbt.RemoveTraitRunbook, ['fw-update', '--all'])):
            self.assertRefused((1, 111), cls, argv,
                               'Runbook trait commands', '1.112')


class TestNodeHistory(NewFieldsTestCase):
    """project (1.113); state, target_provision_state and
    duration_seconds (1.115) of node history --long and get."""

    EVENT = {'uuid': 'e1', 'created_at': '2026-11-24T01:00:00+00:00',
             'severity': 'INFO', 'event': 'Deployed',
             'event_type': 'provisioning', 'conductor': 'c1',
             'user': 'u1', 'project': 'p1', 'state': 'active',
             'target_provision_state': None, 'duration_seconds': 42,
             'links': []}
    BASE_TITLES = ('UUID', 'Created At', 'Severity', 'Event Type', 'Event',
                   'Conductor', 'User')

    def setUp(self):
        super().setUp()
        self.session.route('GET', '/v1/nodes/n/history', fakes.FakeResponse(
            200, {'history': [self.EVENT]}))
        self.session.route('GET', '/v1/nodes/n/history/e1',
                           fakes.FakeResponse(200, self.EVENT))

    def test_list_long(self):
        titles, rows = self.rows(self.run_command(
            history_cmds.ListNodeHistory, ['n', '--long']))
        self.assertEqual({'detail': 'True'}, self.last().params)
        self.assertVersion('1.115')
        self.assertEqual(self.BASE_TITLES + (
            'Project', 'State', 'Target Provision State',
            'Duration (seconds)'), titles)
        self.assertEqual(('p1', 'active', None, 42), rows[0][7:])

    def test_list_long_at_1_113_and_1_114(self):
        for version in ((1, 113), (1, 114)):
            self.use_version(version)
            titles, rows = self.rows(self.run_command(
                history_cmds.ListNodeHistory, ['n', '--long']))
            self.assertEqual(self.BASE_TITLES + ('Project',), titles)
            self.assertEqual('p1', rows[0][7])
            self.assertVersion(http.version_string(version))

    def test_list_long_below_1_113(self):
        self.use_version((1, 112))
        titles, _rows = self.run_command(history_cmds.ListNodeHistory,
                                         ['n', '--long'])
        self.assertEqual(self.BASE_TITLES, titles)

    def test_list_short_unchanged(self):
        titles, _rows = self.run_command(history_cmds.ListNodeHistory,
                                         ['n'])
        self.assertEqual(('UUID', 'Created At', 'Severity', 'Event'),
                         titles)
        self.assertEqual({}, self.last().params)

    def test_list_long_empty(self):
        self.session.route('GET', '/v1/nodes/n/history', fakes.FakeResponse(
            200, {'history': []}))
        titles, rows = self.rows(self.run_command(
            history_cmds.ListNodeHistory, ['n', '--long']))
        self.assertEqual(11, len(titles))
        self.assertEqual([], rows)

    def test_get(self):
        shown = self.as_dict(self.run_command(history_cmds.ShowNodeHistory,
                                              ['n', 'e1']))
        self.assertRequest(self.last(), 'GET', '/v1/nodes/n/history/e1')
        self.assertVersion('1.115')
        for name in ('project', 'state', 'target_provision_state',
                     'duration_seconds'):
            self.assertIn(name, shown)
        self.assertEqual(42, shown['duration_seconds'])
        self.assertNotIn('links', shown)


class TestFirmware(NewFieldsTestCase):
    """1.114: vendor, model and serial_number of firmware components;
    python-ironicclient 6.3.0 keeps its firmware list columns, so does
    this plugin (the fields stay out of the table)."""

    COMPONENT = {'component': 'bmc', 'initial_version': '1.0',
                 'current_version': '1.2', 'last_version_flashed': '1.2',
                 'created_at': '2026-11-26T00:00:00+00:00',
                 'updated_at': None, 'vendor': 'Contoso',
                 'model': 'BMC-9', 'serial_number': 'SN123'}

    def test_columns_are_6_3_0_s(self):
        self.session.route('GET', '/v1/nodes/n/firmware', fakes.FakeResponse(
            200, {'firmware': [self.COMPONENT]}))
        for version in (None, (1, 114), (1, 113)):
            if version:
                self.use_version(version)
            titles, rows = self.rows(self.run_command(
                mgmt_cmds.ListFirmwareNode, ['n']))
            self.assertRequest(self.last(), 'GET', '/v1/nodes/n/firmware')
            self.assertVersion(http.version_string(version or (1, 115)))
            self.assertEqual(('component', 'initial_version',
                              'current_version', 'last_version_flashed',
                              'created_at', 'updated_at'), titles)
            self.assertEqual(('bmc', '1.0', '1.2', '1.2'), rows[0][:4])
