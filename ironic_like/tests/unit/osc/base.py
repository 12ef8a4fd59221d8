"""Base of the CLI command tests: a command over a fake session."""

import io

import fixtures
import testtools

from ironic_like.osc import client as http
from ironic_like.tests.unit.osc import fakes


class CommandTestCase(testtools.TestCase):
    """``self.session`` answers; ``run(CommandClass, argv)`` parses argv
    exactly as OpenStackClient would and runs the command."""

    MAX_VERSION = '1.60'
    REQUESTED_VERSION = None

    def setUp(self):
        super().setUp()
        self.session = fakes.FakeSession(self.MAX_VERSION)
        self.client = http.Client(self.session, fakes.ENDPOINT,
                                  self.REQUESTED_VERSION)
        self.app = fakes.FakeApp(self.client)

    def make(self, command_class):
        # No cmd_name: cliff would look for command hooks of the app.
        return command_class(self.app, None)

    def parse(self, command_class, argv):
        cmd = self.make(command_class)
        parser = cmd.get_parser('openstack baremetal test')
        return cmd, parser.parse_args(argv)

    def run_command(self, command_class, argv):
        cmd, parsed = self.parse(command_class, argv)
        return cmd.take_action(parsed)

    def assertParseFails(self, command_class, argv):
        cmd = self.make(command_class)
        parser = cmd.get_parser('openstack baremetal test')
        stderr = io.StringIO()
        with fixtures.MonkeyPatch('sys.stderr', stderr):
            self.assertRaises(SystemExit, parser.parse_args, argv)
        self.assertIn('error:', stderr.getvalue())

    def requests(self):
        return self.session.api_requests()

    def last(self):
        return self.requests()[-1]

    def assertRequest(self, request, method, path, body=None, params=None):
        self.assertEqual((method, path), (request.method, request.path),
                         request)
        if body is not None:
            self.assertEqual(body, request.body)
        if params is not None:
            self.assertEqual(params, request.params)

    @staticmethod
    def as_dict(result):
        names, values = result
        return dict(zip(names, values))

    @staticmethod
    def rows(result):
        titles, rows = result
        return titles, [tuple(getattr(v, '_value', v) for v in row)
                        for row in rows]
