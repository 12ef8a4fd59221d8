"""Module versions (common/hostos/semver.py): SemVer 2.0.0 precedence."""

import random

import testtools

from ironic_like.common import exception
from ironic_like.common.hostos import semver

# semver.org's precedence example plus numeric (not string) comparison.
ORDERED = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta',
           '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1',
           '1.0.0', '1.0.1', '1.2.0', '1.10.0', '2.0.0', '10.0.0']


class TestSemver(testtools.TestCase):

    def test_valid(self):
        for text in ORDERED + ['0.0.0', '1.2.7-dev', '1.0.0+build.5',
                               '1.0.0-rc.1+sha.abc-1', '1.0.0-0a.x-y',
                               '999999999.0.0']:
            self.assertTrue(semver.is_valid(text), text)

    def test_invalid(self):
        for text in (None, 1, '', '1', '1.0', 'v1.0.0', '01.0.0', '1.00.0',
                     '1.0.0-', '1.0.0-01', '1.0.0+', '1.0.0-a..b',
                     '1.0.0 ', '1.0.0\n', '1.0.0-é', '1.0.0.0',
                     '١.0.0'):
            self.assertFalse(semver.is_valid(text), repr(text))

    def test_precedence(self):
        shuffled = list(ORDERED)
        random.Random(4).shuffle(shuffled)
        self.assertEqual(ORDERED, sorted(shuffled, key=semver.sort_key))

    def test_brief_chain(self):
        chain = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-beta', '1.0.0',
                 '1.0.1', '1.10.0']
        for low, high in zip(chain, chain[1:]):
            self.assertLess(semver.sort_key(low), semver.sort_key(high))

    def test_build_metadata_has_no_precedence(self):
        self.assertLess(semver.sort_key('1.0.0+zzz'),
                        semver.sort_key('1.0.1'))
        self.assertLess(semver.sort_key('1.0.0-rc.1+zzz'),
                        semver.sort_key('1.0.0'))
        # Only a tie-break, for a deterministic sort.
        self.assertEqual(semver.sort_key('1.0.0')[:4],
                         semver.sort_key('1.0.0+b')[:4])

    def test_sort_key_invalid(self):
        self.assertRaises(ValueError, semver.sort_key, '1.0')
        self.assertRaises(ValueError, semver.sort_key, None)

    def test_check(self):
        self.assertEqual('1.2.3', semver.check('1.2.3', 'version'))
        exc = self.assertRaises(exception.InvalidParameterValue,
                                semver.check, '1.2', 'configs/0/version')
        self.assertEqual('configs/0/version', exc.field)
        self.assertIn("'1.2' is not a SemVer 2.0.0 version", str(exc))
