"""tools/ci_failures.py: the end of each failed test's traceback, read
from stestr's output as .ci/run keeps it."""

import testtools

from ironic_like.tests import utils as test_utils


_LOG = """\
{0} pkg.test_a.TestA.test_ok [0.1s] ... ok
{1} pkg.test_b.TestB.test_bad [12.5s] ... FAILED

Captured note:
~~~~~~~~~~~~~
    not part of the traceback

Captured traceback:
~~~~~~~~~~~~~~~~~~~
    Traceback (most recent call last):
      File "x.py", line 3, in test_bad
        self.fail()
    AssertionError: session reboot-all did not complete

{0} pkg.test_c.TestC.test_ok [0.2s] ... ok

Captured traceback:
~~~~~~~~~~~~~~~~~~~
    Traceback: of no failed test

{1} pkg.test_d.TestD.test_two [1.0s] ... FAILED

Captured traceback:
~~~~~~~~~~~~~~~~~~~
    AssertionError: first

Captured traceback-1:
~~~~~~~~~~~~~~~~~~~~~
    RuntimeError: cleanup failed
"""


def _load():
    return test_utils.load_tool('ci_failures')


class TestCiFailures(testtools.TestCase):

    def test_traceback_of_each_failed_test(self):
        found = list(_load().tracebacks(_LOG.splitlines(True)))
        self.assertEqual(['pkg.test_b.TestB.test_bad',
                          'pkg.test_d.TestD.test_two',
                          'pkg.test_d.TestD.test_two'],
                         [test for test, _ in found])
        self.assertEqual(['RuntimeError: cleanup failed'], found[2][1])
        test, body = found[0]
        self.assertEqual('pkg.test_b.TestB.test_bad', test)
        self.assertEqual('Traceback (most recent call last):', body[0])
        self.assertEqual(
            'AssertionError: session reboot-all did not complete', body[-1])
        self.assertNotIn('not part of the traceback', '\n'.join(body))

    def test_passing_run_yields_nothing(self):
        lines = _LOG.replace('FAILED', 'ok').splitlines(True)
        self.assertEqual([], list(_load().tracebacks(lines)))
