"""The session limit (common/boot/limit.py): BOS's left fold, plus the
rejection of unknown names and empty tokens that BOS lets through."""

from ironic_like.common.boot import limit
from ironic_like.tests import base

BOOT_SET = {'n1', 'n2', 'n3', 'n4'}
NAMES = {
    'n1': {'n1'}, 'n2': {'n2'}, 'n3': {'n3'}, 'n4': {'n4'},
    'outside': {'o1'},
    'Compute': {'n1', 'n2', 'n3'},
    'Compute_Worker': {'n2', 'n3'},
    'rack1': {'n1', 'n4', 'o1'},
    'empty': set(),
}


class Resolver(object):

    def __init__(self):
        self.calls = []

    def __call__(self, name):
        self.calls.append(name)
        return NAMES.get(name)


def select(text, nodes=BOOT_SET):
    return limit.apply(text, nodes, Resolver())


class TestParse(base.TestCase):

    def test_no_limit(self):
        for text in (None, '', '*'):
            self.assertIsNone(limit.parse(text), text)

    def test_operators(self):
        self.assertEqual([('|', 'a'), ('&', 'g'), ('!', 'x'), ('|', 'all')],
                         limit.parse('a,&g,!x,all'))

    def test_only_first_character_is_an_operator(self):
        self.assertEqual([('&', '!x'), ('!', '&y')], limit.parse('&!x,!&y'))

    def test_spaces_are_kept(self):
        self.assertEqual([('|', 'a'), ('|', ' b')], limit.parse('a, b'))

    def test_empty_tokens(self):
        for text, positions, names in [
                ('a,', [2], ['']),
                (',b', [1], ['']),
                ('a,,b', [2], ['']),
                ('&', [1], ['&']),
                ('!', [1], ['!']),
                ('a,&,!,', [2, 3, 4], ['&', '!', ''])]:
            exc = self.assertRaises(limit.LimitError, limit.parse, text)
            self.assertEqual(names, exc.names, text)
            for position in positions:
                self.assertIn('empty token at position %d' % position,
                              str(exc))

    def test_not_a_string(self):
        self.assertRaises(limit.LimitError, limit.parse, ['a'])

    def test_limit_error_is_a_value_error(self):
        self.assertTrue(issubclass(limit.LimitError, ValueError))


class TestApply(base.TestCase):

    def test_no_limit_is_the_boot_set(self):
        for text in (None, '', '*'):
            result = select(text)
            self.assertEqual(BOOT_SET, result)
            self.assertIsInstance(result, set)

    def test_all_and_star(self):
        self.assertEqual(BOOT_SET, select('all'))
        self.assertEqual(BOOT_SET, select('*,n1'))

    def test_all_then_exclude(self):
        self.assertEqual({'n2', 'n3', 'n4'}, select('all,!n1'))

    def test_exclude_then_all_excludes_nothing(self):
        # Left fold: the exclusion ran on an empty accumulator.
        self.assertEqual(BOOT_SET, select('!n1,all'))

    def test_exclude_alone_selects_nothing(self):
        self.assertEqual(set(), select('!n1'))

    def test_leading_intersection_selects_nothing(self):
        self.assertEqual(set(), select('&Compute'))

    def test_intersection(self):
        self.assertEqual({'n1'}, select('Compute,&rack1'))
        self.assertEqual({'n1', 'n4'}, select('all,&rack1'))

    def test_role_and_subrole(self):
        self.assertEqual({'n2', 'n3'}, select('Compute_Worker'))
        self.assertEqual({'n1'}, select('Compute,!Compute_Worker'))

    def test_order_matters(self):
        self.assertEqual({'n1', 'n4'}, select('Compute,!Compute_Worker,n4'))
        self.assertEqual({'n1'}, select('Compute,n4,!Compute_Worker,&rack1,'
                                        '!n4'))
        self.assertEqual({'n1', 'n4'}, select('Compute,!Compute_Worker,'
                                              '&rack1,n4'))

    def test_union_and_names(self):
        self.assertEqual({'n1', 'n3'}, select('n1,n3'))

    def test_result_stays_inside_the_boot_set(self):
        self.assertEqual({'n1', 'n4'}, select('rack1'))
        self.assertEqual(set(), select('outside'))

    def test_a_known_name_with_no_members(self):
        self.assertEqual(set(), select('empty'))

    def test_unknown_names_are_all_named(self):
        resolve = Resolver()
        exc = self.assertRaises(limit.LimitError, limit.apply,
                                'n1,typo,!nope,&typo', BOOT_SET, resolve)
        self.assertEqual(['typo', 'nope'], exc.names)
        self.assertIn("'typo'", str(exc))
        self.assertIn("'nope'", str(exc))
        # Each name is looked up once.
        self.assertEqual(['n1', 'typo', 'nope'], resolve.calls)

    def test_spaces_make_an_unknown_name(self):
        exc = self.assertRaises(limit.LimitError, select, 'n1, n2')
        self.assertEqual([' n2'], exc.names)
        exc = self.assertRaises(limit.LimitError, select, 'n1 ')
        self.assertEqual(['n1 '], exc.names)

    def test_all_is_not_resolved(self):
        resolve = Resolver()
        limit.apply('all,!*,&all', BOOT_SET, resolve)
        self.assertEqual([], resolve.calls)

    def test_empty_token_fails_before_resolution(self):
        resolve = Resolver()
        exc = self.assertRaises(limit.LimitError, limit.apply, 'typo,',
                                BOOT_SET, resolve)
        self.assertEqual([''], exc.names)
        self.assertEqual([], resolve.calls)

    def test_parsed_limit_is_accepted(self):
        self.assertEqual({'n2', 'n3', 'n4'},
                         limit.apply(limit.parse('all,!n1'), BOOT_SET,
                                     Resolver()))

    def test_boot_set_nodes_may_be_any_iterable(self):
        self.assertEqual({'n1'}, limit.apply('n1', ['n1', 'n2'], Resolver()))
