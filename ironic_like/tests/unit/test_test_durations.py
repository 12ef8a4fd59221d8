"""tools/test_durations.py: the durations of the long tests recorded
from stestr's output, and loaded into a stestr repository as a subunit
stream, where its scheduler reads them."""

import io
import os
import tempfile

from stestr.commands import load
from stestr.repository import util as repo_util
import testtools

from ironic_like.tests import utils as test_utils


_LOG = """\
{0} pkg.test_a.TestA.test_long [12.34s] ... ok
{1} pkg.test_b.TestB.test_short [0.2s] ... ok
{1} pkg.test_c.TestC.test_failed [3.0s] ... FAILED
{0} ironic_like.tests.tempest.api.test_x.T.test_y [9.0s] ... ok
Captured traceback: {0} not.a.line [1.0s] ... ok
{0} pkg.test_a.TestA.test_long [20.0s] ... ok
"""


def _tool():
    return test_utils.load_tool('test_durations')


class TestTestDurations(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.tool = _tool()
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(__import__('shutil').rmtree, self.tmp)

    def test_record_keeps_the_long_tests(self):
        path = os.path.join(self.tmp, 'log')
        with open(path, 'w') as f:
            f.write(_LOG)
        # The last duration of a test seen twice; short ones and the
        # tempest plugin's left out; a failed test's duration counts.
        self.assertEqual({'pkg.test_a.TestA.test_long': 20.0,
                          'pkg.test_c.TestC.test_failed': 3.0},
                         self.tool.record([path]))

    def test_stream_loads_into_a_repository(self):
        out = io.BytesIO()
        self.tool.stream({'pkg.t.T.test_a': 12.5, 'pkg.t.T.test_b': 0.7},
                         out)
        path = os.path.join(self.tmp, 'durations.subunit')
        with open(path, 'wb') as f:
            f.write(out.getvalue())
        # As .ci/run does: stestr load --force-init.
        self.assertEqual(0, load.load(force_init=True, streams=[path],
                                      repo_url=self.tmp,
                                      stdout=io.StringIO()))
        repo = repo_util.get_repo_open(repo_url=self.tmp)
        times = repo.get_test_times(['pkg.t.T.test_a', 'pkg.t.T.test_b',
                                     'pkg.t.T.test_new'])
        self.assertEqual({'pkg.t.T.test_a': 12.5, 'pkg.t.T.test_b': 0.7},
                         {k: round(v, 3) for k, v in times['known'].items()})
        self.assertEqual({'pkg.t.T.test_new'}, set(times['unknown']))
