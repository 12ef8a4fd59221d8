"""``openstack baremetal boot session ...``: requests, the --wait
progress on a terminal and elsewhere, exit status and the status
breakdown."""

import io
import json

from osc_lib import exceptions as osc_exc

from ironic_like.osc import common
from ironic_like.osc.v1 import boot_session as bs
from ironic_like.osc.v1 import boot_status
from ironic_like.osc.v1 import progress
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes

STATUS_PATH = '/v1/boot/sessions/s1/status'


class TtyStream(io.StringIO):
    def isatty(self):
        return True


def session(**fields):
    doc = {'name': 's1', 'tenant': None, 'operation': 'reboot',
           'template_name': 'compute', 'limit': None, 'stage': False,
           'include_disabled': False, 'components': 'n1,n2,n3,n4',
           'status': {'status': 'pending', 'start_time': '2024-05-01T10:00:00',
                      'end_time': None, 'error': None},
           'links': [{'rel': 'self', 'href': 'x'}]}
    doc.update(fields)
    return doc


def status(state='running', off=0, on=0, cfg=0, stable=0, failed=0,
           total=4, failed_nodes=None, **extra):
    """A status answer as the server builds it (grouped counts)."""
    statuses = {'power_off_pending': off, 'power_on_called': on,
                'configuring': cfg, 'stable': stable, 'failed': failed}
    done = stable + failed
    doc = {
        'status': state, 'managed_components_count': total,
        'phases': {'percent_complete': round(100.0 * done / total, 2),
                   'percent_powering_off': 100.0 * off / total,
                   'percent_powering_on': 100.0 * on / total,
                   'percent_configuring': 100.0 * cfg / total},
        'percent_successful': 100.0 * stable / total,
        'percent_failed': 100.0 * failed / total, 'percent_staged': 0.0,
        'error_summary': {},
        'timing': {'start_time': '2024-05-01T10:00:00', 'end_time': None,
                   'duration': '0:00:10'},
        'counts': {'total': total, 'staged': 0,
                   'phase': {'powering_off': off, 'powering_on': on + failed,
                             'configuring': cfg, 'none': stable},
                   'status': {k: v for k, v in statuses.items() if v}},
        'boot_sets': {},
        'failed_nodes': failed_nodes or [],
    }
    doc.update(extra)
    return doc


def answers(*docs):
    return [fakes.FakeResponse(200, d) for d in docs]


class TestCreateSession(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('POST', '/v1/boot/sessions',
                           fakes.FakeResponse(201, session()))
        self.session.route('GET', '/v1/boot/sessions/s1', fakes.FakeResponse(
            200, session(status={'status': 'complete', 'error': None,
                                 'start_time': 'a', 'end_time': 'b'})))
        self.clock = fakes.FakeClock()
        self.app.stderr = io.StringIO()

    def run_create(self, argv, width=80):
        cmd, parsed = self.parse(bs.CreateBootSession, argv)
        original = cmd.wait

        def wait(name, timeout):
            return original(name, timeout, clock=self.clock.monotonic,
                            sleep=self.clock.sleep, width=width)
        cmd.wait = wait
        return cmd.take_action(parsed)

    def test_minimal(self):
        shown = self.as_dict(self.run_create(['--template', 'compute',
                                              '--operation', 'boot']))
        self.assertRequest(self.last(), 'POST', '/v1/boot/sessions',
                           body={'operation': 'boot',
                                 'template_name': 'compute'})
        self.assertEqual('s1', shown['name'])
        self.assertNotIn('links', shown)
        self.assertEqual(1, len(self.session.requests))

    def test_all_options(self):
        self.run_create(['--template', 'compute', '--operation', 'shutdown',
                         '--name', 's1', '--limit', 'n1,group1',
                         '--stage', '--include-disabled', '--takeover'])
        self.assertEqual({'operation': 'shutdown', 'template_name': 'compute',
                          'name': 's1', 'limit': 'n1,group1', 'stage': True,
                          'include_disabled': True, 'takeover': True},
                         self.last().body)

    def test_operation_and_template_required(self):
        self.assertParseFails(bs.CreateBootSession,
                              ['--template', 'compute'])
        self.assertParseFails(bs.CreateBootSession, ['--operation', 'boot'])
        self.assertParseFails(bs.CreateBootSession,
                              ['--template', 't', '--operation', 'halt'])

    def test_conflict_error(self):
        self.session.route('POST', '/v1/boot/sessions', fakes.FakeResponse(
            409, {'error_message': 'Running sessions hold nodes this '
                                   'session targets: s0: n1. Set takeover '
                                   'to take them over.'}))
        e = self.assertRaises(osc_exc.CommandError, self.run_create,
                              ['--template', 'compute', '--operation',
                               'boot'])
        self.assertIn('s0: n1', str(e))
        self.assertIn('HTTP 409', str(e))

    # -- preview ----------------------------------------------------------

    def test_preview(self):
        self.session.route('POST', '/v1/boot/sessions/preview',
                           fakes.FakeResponse(200, {
                               'template_name': 'compute',
                               'operation': 'reboot',
                               'boot_sets': {
                                   'compute': {
                                       'nodes': ['n1', 'n2'],
                                       'excluded': [
                                           {'id': 'n3', 'reason': 'disabled'},
                                           {'id': 'n4',
                                            'reason': 'session s0'}],
                                       'warnings': []},
                                   'uan': {'nodes': [], 'excluded': [
                                       {'id': 'u1', 'reason': 'limit'}],
                                       'warnings': ['node_list: unknown '
                                                    'node u9']}}}))
        names, values = self.run_create([
            '--template', 'compute', '--operation', 'reboot',
            '--limit', 'n1,n2,u1', '--preview'])
        self.assertRequest(self.last(), 'POST', '/v1/boot/sessions/preview',
                           body={'operation': 'reboot',
                                 'template_name': 'compute',
                                 'limit': 'n1,n2,u1'})
        self.assertEqual(1, len(self.requests()))
        self.assertEqual(('compute', 'uan', 'operation', 'template_name'),
                         names)
        self.assertEqual('nodes (2): n1, n2\n'
                         'excluded (2): n3 (disabled), n4 (session s0)',
                         values[0].human_readable())
        self.assertEqual('nodes (0): -\nexcluded (1): u1 (limit)\n'
                         'warning: node_list: unknown node u9',
                         values[1].human_readable())
        self.assertEqual(['n1', 'n2'], values[0].machine_readable()['nodes'])

    def test_preview_close_shapes(self):
        # A list of boot sets; excluded as {node: reason}.
        names, values = boot_status.preview_output([
            {'name': 'b', 'components': 'n1,n2',
             'excluded': {'n4': 'arch', 'n3': 'limit'}}])
        self.assertEqual(('b',), names)
        self.assertEqual('nodes (2): n1, n2\nexcluded (2): n3 (limit), '
                         'n4 (arch)', values[0].human_readable())

    def test_preview_does_not_wait(self):
        e = self.assertRaises(osc_exc.CommandError, self.run_create,
                              ['--template', 't', '--operation', 'boot',
                               '--preview', '--wait'])
        self.assertIn('nothing to --wait for', str(e))
        self.assertEqual([], self.requests())

    # -- --wait -----------------------------------------------------------

    def test_wait_plain_lines_when_counts_change(self):
        self.session.route('GET', STATUS_PATH, *answers(
            status('pending', total=4),
            status(off=4),
            status(off=4),
            status(off=2, on=2),
            status(on=2, stable=2),
            status('complete', stable=4)))
        shown = self.as_dict(self.run_create(
            ['--template', 'compute', '--operation', 'reboot', '--wait']))
        self.assertEqual('s1', shown['name'])
        self.assertEqual(['/v1/boot/sessions'] + [STATUS_PATH] * 6
                         + ['/v1/boot/sessions/s1'],
                         [r.path for r in self.requests()])
        self.assertEqual([2.0] * 5, self.clock.sleeps)
        lines = self.app.stderr.getvalue().splitlines()
        # Six polls, five different states: one line each, no \r.
        self.assertEqual([
            'Session s1 pending: 0% complete; powering off 0, powering on '
            '0, configuring 0, stable 0, failed 0 (of 4); elapsed 0:00, '
            'ETA ?',
            'Session s1 running: 0% complete; powering off 4, powering on '
            '0, configuring 0, stable 0, failed 0 (of 4); elapsed 0:02, '
            'ETA ?',
            'Session s1 running: 0% complete; powering off 2, powering on '
            '2, configuring 0, stable 0, failed 0 (of 4); elapsed 0:06, '
            'ETA ?',
            'Session s1 running: 50% complete; powering off 0, powering on '
            '2, configuring 0, stable 2, failed 0 (of 4); elapsed 0:08, '
            'ETA 0:08',
            'Session s1 complete: 100% complete; powering off 0, powering '
            'on 0, configuring 0, stable 4, failed 0 (of 4); elapsed 0:10, '
            'ETA 0:00'], lines)
        self.assertNotIn('\r', self.app.stderr.getvalue())
        self.assertEqual('', self.app.stdout.getvalue())

    def test_wait_redraws_one_line_on_a_terminal(self):
        self.app.stderr = TtyStream()
        failed_node = {'id': 'n4', 'error': 'power on failed: BMC timeout',
                       'last_action': {'action': 'powering_on',
                                       'failed': True}}
        self.session.route('GET', STATUS_PATH, *answers(
            status(off=3, on=1, total=4),
            status(on=2, stable=1, failed=1, total=4),
            status('complete', stable=3, failed=1, total=4,
                   failed_nodes=[failed_node])))
        e = self.assertRaises(osc_exc.CommandError, self.run_create,
                              ['--template', 'compute', '--operation',
                               'boot', '--wait', '600'])
        output = self.app.stderr.getvalue()
        frames = output.split('\r')[1:]
        self.assertEqual(3, len(frames))
        self.assertEqual(
            '[--------------------]   0% off:3 on:1 cfg:0 stable:0 '
            'failed:0  0:00 ETA ?', frames[0])
        self.assertEqual(
            '[##########----------]  50% off:0 on:2 cfg:0 stable:1 '
            'failed:1  0:02 ETA 0:02', frames[1])
        # The last frame stays, ended by a newline.
        self.assertEqual(
            '[####################] 100% '
            'off:0 on:0 cfg:0 stable:3 failed:1  0:04 ETA 0:00\n',
            frames[2])
        # Exit status 1 (a CommandError) naming the failed node.
        self.assertEqual(
            'Session s1 completed with 1 of 4 nodes failed (n4: power on '
            'failed: BMC timeout). See: openstack baremetal boot session '
            'status s1', str(e))

    def test_progress_line_fits_the_terminal(self):
        self.app.stderr = TtyStream()
        self.session.route('GET', STATUS_PATH, *answers(
            status(off=1000, on=2000, total=9000),
            status('complete', stable=9000, total=9000)))
        self.run_create(['--template', 'compute', '--operation', 'boot',
                         '--wait'], width=40)
        frames = self.app.stderr.getvalue().split('\r')[1:]
        self.assertEqual('[--------------------]   0% off:1000 on',
                         frames[0])
        self.assertEqual(39, len(frames[0]))
        self.assertTrue(frames[1].endswith('\n'))
        self.assertEqual(40, len(frames[1]))

    def test_wait_session_error_exits_1(self):
        self.session.route('GET', STATUS_PATH, *answers(
            status('complete', stable=1, total=4)))
        self.session.route('GET', '/v1/boot/sessions/s1', fakes.FakeResponse(
            200, session(status={'status': 'complete',
                                 'error': 'aborted'})))
        e = self.assertRaises(osc_exc.CommandError, self.run_create,
                              ['--template', 'compute', '--operation',
                               'boot', '--wait'])
        self.assertEqual('Session s1 completed with error: aborted. See: '
                         'openstack baremetal boot session status s1', str(e))

    def test_wait_failures_counted_beyond_those_named(self):
        nodes = [{'id': 'n%d' % i, 'error': 'e%d' % i} for i in range(7)]
        error = bs.outcome_error('s1', status('complete', failed=8, total=8,
                                              failed_nodes=nodes), {})
        self.assertIn('8 of 8 nodes failed (n0: e0; n1: e1; n2: e2; n3: e3; '
                      'n4: e4; and 3 more)', str(error))
        self.assertIsNone(bs.outcome_error('s1', status('complete',
                                                        stable=4), {}))

    def test_wait_timeout_is_bounded(self):
        self.session.route('GET', STATUS_PATH, *answers(
            status(off=2, stable=2)))
        e = self.assertRaises(common.WaitTimeout, self.run_create,
                              ['--template', 'compute', '--operation',
                               'boot', '--wait', '5'])
        self.assertEqual('Timed out after 5 seconds: session s1 is 50% '
                         'complete (2 of 4 nodes done).', str(e))
        self.assertEqual([2.0, 2.0, 1.0], self.clock.sleeps)
        self.assertEqual(4, len(self.requests()) - 1)

    def test_ctrl_c_stops_waiting(self):
        self.session.route('GET', STATUS_PATH, *answers(status(off=4)))

        def interrupted(seconds):
            raise KeyboardInterrupt()
        self.clock.sleep = interrupted
        self.assertRaises(KeyboardInterrupt, self.run_create,
                          ['--template', 'compute', '--operation', 'boot',
                           '--wait'])
        self.assertIn('Stopped waiting; session s1 goes on (see: openstack '
                      'baremetal boot session status s1).\n',
                      self.app.stderr.getvalue())
        # No session is fetched after the interruption.
        self.assertEqual(STATUS_PATH, self.last().path)

    def test_wait_without_timeout_polls_until_complete(self):
        self.session.route('GET', STATUS_PATH, *answers(
            *([status(on=4)] * 40 + [status('complete', stable=4)])))
        self.run_create(['--template', 'compute', '--operation', 'boot',
                         '--wait'])
        self.assertEqual(40, len(self.clock.sleeps))
        # Counts never changed while running: two lines in all.
        self.assertEqual(2, len(self.app.stderr.getvalue().splitlines()))


class TestSessionCounts(base.CommandTestCase):

    def test_from_grouped_counts(self):
        counts = boot_status.session_counts(status(
            off=1, on=2, cfg=3, stable=4, failed=5, total=20))
        self.assertEqual({'powering_off': 1, 'powering_on': 2,
                          'configuring': 3, 'stable': 4, 'failed': 5,
                          'total': 20, 'done': 9, 'percent': 45.0}, counts)

    def test_from_percents_without_counts(self):
        doc = status(off=1, on=1, stable=2, total=4)
        del doc['counts']
        counts = boot_status.session_counts(doc)
        self.assertEqual((1, 1, 0, 2, 0, 4), tuple(
            counts[k] for k in boot_status.COUNT_KEYS + ('total',)))

    def test_flat_counts(self):
        counts = boot_status.session_counts(
            {'status': 'running', 'counts': {'powering_on': 3, 'stable': 1,
                                             'total': 4}})
        self.assertEqual((0, 3, 0, 1, 0, 4, 25.0), tuple(
            counts[k] for k in boot_status.COUNT_KEYS + ('total',
                                                         'percent')))

    def test_empty_session(self):
        for state, percent in (('running', 0.0), ('complete', 100.0)):
            counts = boot_status.session_counts(
                {'status': state, 'managed_components_count': 0,
                 'phases': {'percent_complete': 0.0},
                 'counts': {'total': 0, 'phase': {}, 'status': {}}})
            self.assertEqual((0, 0, percent), (counts['total'],
                                               counts['done'],
                                               counts['percent']))

    def test_eta_and_duration(self):
        counts = {'done': 25, 'total': 100}
        self.assertEqual(30.0, progress.eta(counts, 10))
        # The rate counts from the first poll: nodes already done then
        # say nothing of it.
        self.assertEqual(75.0, progress.eta(counts, 10, (5.0, 20)))
        self.assertIsNone(progress.eta(counts, 10, (10.0, 0)))
        self.assertIsNone(progress.eta(counts, 10, (1.0, 25)))
        self.assertIsNone(progress.eta({'done': 0, 'total': 5}, 10))
        self.assertEqual(0, progress.eta({'done': 5, 'total': 5}, 0))
        self.assertEqual('1:02:03', progress.duration(3723))
        self.assertEqual('2:03', progress.duration(123.9))


class TestListShowDeleteAbort(base.CommandTestCase):

    def test_list(self):
        self.session.route('GET', '/v1/boot/sessions', fakes.FakeResponse(
            200, [session(), session(name='s2', status={
                'status': 'complete', 'start_time': 'a', 'end_time': 'b',
                'error': 'aborted'})]))
        titles, rows = self.rows(self.run_command(bs.ListBootSession, [
            '--status', 'complete', '--min-age', '1h', '--max-age', '2d']))
        self.assertRequest(self.last(), 'GET', '/v1/boot/sessions', params={
            'status': 'complete', 'min_age': '1h', 'max_age': '2d'})
        self.assertEqual(('Name', 'Operation', 'Template', 'Status',
                          'Start Time', 'End Time', 'Error'), titles)
        self.assertEqual([('s1', 'reboot', 'compute', 'pending',
                           '2024-05-01T10:00:00', None, None),
                          ('s2', 'reboot', 'compute', 'complete', 'a', 'b',
                           'aborted')], rows)

    def test_list_long_without_filters(self):
        self.session.route('GET', '/v1/boot/sessions',
                           fakes.FakeResponse(200, [session()]))
        titles, rows = self.rows(self.run_command(bs.ListBootSession,
                                                  ['--long']))
        self.assertEqual({}, self.last().params)
        self.assertEqual('Components', titles[-1])
        self.assertEqual('n1,n2,n3,n4', rows[0][-1])

    def test_list_bad_status(self):
        self.assertParseFails(bs.ListBootSession, ['--status', 'failed'])

    def test_show(self):
        self.session.route('GET', '/v1/boot/sessions/s1',
                           fakes.FakeResponse(200, session()))
        shown = self.as_dict(self.run_command(bs.ShowBootSession, ['s1']))
        self.assertEqual('reboot', shown['operation'])
        self.assertEqual('pending', shown['status']._value['status'])

    def test_delete_names(self):
        self.session.route('DELETE', '/v1/boot/sessions/.*',
                           fakes.FakeResponse(204))
        self.run_command(bs.DeleteBootSession, ['s1', 's2'])
        self.assertEqual(['/v1/boot/sessions/s1', '/v1/boot/sessions/s2'],
                         [r.path for r in self.requests()])
        self.assertEqual('Deleted session s1\nDeleted session s2\n',
                         self.app.stdout.getvalue())

    def test_delete_by_filters(self):
        self.session.route('DELETE', '/v1/boot/sessions',
                           fakes.FakeResponse(204))
        self.run_command(bs.DeleteBootSession,
                         ['--status', 'complete', '--min-age', '7d'])
        self.assertRequest(self.last(), 'DELETE', '/v1/boot/sessions',
                           params={'status': 'complete', 'min_age': '7d'})
        self.assertEqual('Deleted the sessions with min_age=7d, '
                         'status=complete\n', self.app.stdout.getvalue())

    def test_delete_names_or_filters(self):
        for argv in ([], ['s1', '--status', 'complete']):
            e = self.assertRaises(osc_exc.CommandError, self.run_command,
                                  bs.DeleteBootSession, argv)
            self.assertIn('either the names of sessions or filters', str(e))
        self.assertEqual([], self.requests())

    def test_abort(self):
        self.session.route('POST', '/v1/boot/sessions/s1/abort',
                           fakes.FakeResponse(200, session(status={
                               'status': 'complete', 'error': 'aborted'})))
        shown = self.as_dict(self.run_command(bs.AbortBootSession, ['s1']))
        self.assertRequest(self.last(), 'POST', '/v1/boot/sessions/s1/abort')
        self.assertIsNone(self.last().body)
        self.assertEqual('aborted', shown['status']._value['error'])


class TestSessionStatus(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        doc = status(on=1, stable=2, failed=1, total=4, failed_nodes=[
            {'id': 'n4', 'error': 'power on did not take within 120 s',
             'last_action': {'action': 'powering_on', 'failed': False}}],
            error_summary={'power on did not take within 120 s': {
                'count': 1, 'list': 'n4'}})
        doc['boot_sets'] = {
            'compute': {'total': 3, 'staged': 0,
                        'phase': {'none': 2, 'powering_on': 1},
                        'status': {'stable': 2, 'power_on_called': 1}},
            'uan': {'total': 1, 'staged': 0, 'phase': {'powering_on': 1},
                    'status': {'failed': 1}}}
        doc['timing']['end_time'] = None
        self.doc = doc
        self.session.route('GET', STATUS_PATH,
                           fakes.FakeResponse(200, doc))

    def test_breakdown(self):
        names, values = self.run_command(bs.StatusBootSession, ['s1'])
        self.assertEqual(STATUS_PATH, self.last().path)
        self.assertEqual(('status', 'managed_components_count', 'phases',
                          'percent_successful', 'percent_failed',
                          'percent_staged', 'counts', 'boot_sets',
                          'failed_nodes', 'error_summary', 'timing'), names)
        text = dict(zip(names, [getattr(v, 'human_readable', lambda: v)()
                                for v in values]))
        self.assertEqual('running', text['status'])
        self.assertEqual(4, text['managed_components_count'])
        self.assertEqual('complete 75%, powering off 0%, powering on 25%, '
                         'configuring 0%', text['phases'])
        self.assertEqual('50%', text['percent_successful'])
        self.assertEqual('25%', text['percent_failed'])
        self.assertEqual('total 4\n'
                         'phase: powering_on 2, none 2\n'
                         'status: stable 2, failed 1, power_on_called 1',
                         text['counts'])
        self.assertEqual('compute: total 3; phase: powering_on 1, none 2; '
                         'status: stable 2, power_on_called 1\n'
                         'uan: total 1; phase: powering_on 1; '
                         'status: failed 1', text['boot_sets'])
        self.assertEqual('n4: power on did not take within 120 s (last '
                         'action: powering_on)', text['failed_nodes'])
        self.assertEqual('power on did not take within 120 s: 1 node(s) '
                         '(n4)', text['error_summary'])
        self.assertEqual('start 2024-05-01T10:00:00, end -, duration '
                         '0:00:10', text['timing'])

    def test_json_is_the_answer_unchanged(self):
        cmd, parsed = self.parse(bs.StatusBootSession, ['s1', '-f', 'json'])
        self.assertEqual(0, cmd.run(parsed))
        self.assertEqual(self.doc, json.loads(self.app.stdout.getvalue()))

    def test_table(self):
        cmd, parsed = self.parse(bs.StatusBootSession, ['s1'])
        cmd.run(parsed)
        output = self.app.stdout.getvalue()
        self.assertIn('| failed_nodes ', output)
        self.assertIn('n4: power on did not take within 120 s', output)
        self.assertIn('uan: total 1; phase: powering_on 1; status: failed 1',
                      output)
