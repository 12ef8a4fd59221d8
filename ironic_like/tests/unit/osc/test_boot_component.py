"""``openstack baremetal boot component ...``: arguments to requests."""

from osc_lib import exceptions as osc_exc

from ironic_like.osc.v1 import boot_component as comp
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes


def component(**fields):
    doc = {'id': 'n1',
           'actual_state': {'boot_artifacts': {}, 'bss_token': '',
                            'last_updated': None},
           'desired_state': {'boot_artifacts': {'kernel': 'http://k'},
                             'configuration': 'cfg', 'bss_token': 't',
                             'last_updated': 'x'},
           'staged_state': {'session': 's2'},
           'last_action': {'action': 'powering_on', 'failed': False,
                           'last_updated': '2024-05-01T10:00:00'},
           'event_stats': {'power_on_attempts': 1},
           'status': {'phase': 'powering_on', 'status': 'power_on_called',
                      'status_override': ''},
           'enabled': True, 'error': '', 'session': 's1', 'retry_policy': 3}
    doc.update(fields)
    return doc


class TestListComponent(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('GET', '/v1/boot/components', fakes.FakeResponse(
            200, [component(), component(id='n2', enabled=False,
                                         error='BMC timeout',
                                         status={'phase': '',
                                                 'status': 'failed'})]))

    def test_default(self):
        titles, rows = self.rows(self.run_command(comp.ListBootComponent,
                                                  []))
        self.assertEqual({}, self.last().params)
        self.assertEqual(('ID', 'Enabled', 'Phase', 'Status', 'Session',
                          'Last Action', 'Error'), titles)
        self.assertEqual([('n1', True, 'powering_on', 'power_on_called',
                           's1', 'powering_on', ''),
                          ('n2', False, '', 'failed', 's1', 'powering_on',
                           'BMC timeout')], rows)

    def test_filters(self):
        self.run_command(comp.ListBootComponent, [
            '--session', 's1', '--staged-session', 's2', '--enabled',
            'false', '--phase', 'powering_on', '--status',
            'failed,on_hold', '--ids', 'n1,n2'])
        self.assertRequest(self.last(), 'GET', '/v1/boot/components',
                           params={'session': 's1', 'staged_session': 's2',
                                   'enabled': 'false',
                                   'phase': 'powering_on',
                                   'status': 'failed,on_hold',
                                   'ids': 'n1,n2'})

    def test_enabled_true(self):
        self.run_command(comp.ListBootComponent, ['--enabled', 'yes'])
        self.assertEqual({'enabled': 'true'}, self.last().params)

    def test_bad_boolean(self):
        self.assertParseFails(comp.ListBootComponent, ['--enabled', 'maybe'])

    def test_long(self):
        titles, rows = self.rows(self.run_command(comp.ListBootComponent,
                                                  ['--long']))
        self.assertEqual(len(comp.LONG_FIELDS), len(titles))
        long_row = dict(zip(titles, rows[0]))
        self.assertEqual('s2', long_row['Staged Session'])
        self.assertEqual('cfg', long_row['Desired Configuration'])
        self.assertEqual(3, long_row['Retry Policy'])


class TestShowComponent(base.CommandTestCase):

    def test_show(self):
        self.session.route('GET', '/v1/boot/components/n1',
                           fakes.FakeResponse(200, component()))
        shown = self.as_dict(self.run_command(comp.ShowBootComponent,
                                              ['n1']))
        self.assertEqual('n1', shown['id'])
        self.assertEqual('power_on_called',
                         shown['status']._value['status'])


class TestSetComponent(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('PATCH', '/v1/boot/components/n1',
                           fakes.FakeResponse(200, component()))
        self.session.route('PATCH', '/v1/boot/components',
                           fakes.FakeResponse(200, [component(),
                                                    component(id='n2')]))

    def test_one(self):
        self.run_command(comp.SetBootComponent, [
            'n1', '--disable', '--retry-policy', '5', '--clear-error',
            '--clear-staged'])
        self.assertRequest(self.last(), 'PATCH', '/v1/boot/components/n1',
                           body={'enabled': False, 'retry_policy': 5,
                                 'error': '',
                                 'staged_state': {
                                     'boot_artifacts': {
                                         'kernel': '',
                                         'kernel_parameters': '',
                                         'initrd': ''},
                                     'configuration': '', 'session': ''}})
        self.assertEqual('', self.app.stdout.getvalue())

    def test_enable(self):
        self.run_command(comp.SetBootComponent, ['n1', '--enable'])
        self.assertEqual({'enabled': True}, self.last().body)

    def test_bulk_by_session(self):
        self.run_command(comp.SetBootComponent,
                         ['--session', 's1', '--enable'])
        self.assertRequest(self.last(), 'PATCH', '/v1/boot/components',
                           body={'patch': {'enabled': True},
                                 'filters': {'session': 's1'}})
        self.assertEqual('Updated 2 components\n',
                         self.app.stdout.getvalue())

    def test_bulk_by_ids(self):
        self.run_command(comp.SetBootComponent,
                         ['--ids', 'n1,n2,', '--clear-error'])
        self.assertRequest(self.last(), 'PATCH', '/v1/boot/components',
                           body={'patch': {'error': ''},
                                 'filters': {'ids': 'n1,n2'}})

    def test_exactly_one_selector(self):
        for argv in (['--enable'], ['n1', '--session', 's', '--enable'],
                     ['--ids', 'a', '--session', 's', '--enable']):
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  comp.SetBootComponent, argv)
            self.assertIn('exactly one of <component>, --session or --ids',
                          str(e))
        self.assertEqual([], self.requests())

    def test_nothing_to_set(self):
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              comp.SetBootComponent, ['n1'])
        self.assertIn('Nothing to set', str(e))
        self.assertEqual([], self.requests())

    def test_enable_disable_exclusive(self):
        self.assertParseFails(comp.SetBootComponent,
                              ['n1', '--enable', '--disable'])
