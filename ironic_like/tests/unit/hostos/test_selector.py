"""Label selectors (common/hostos/selector.py): Kubernetes semantics, except
that an empty selector selects nothing (HostOSConfiguration)."""

import testtools

from ironic_like.common import exception
from ironic_like.common.hostos import selector

LABELS = {'env': 'prod', 'tier': 'web', 'gpu': '', 'example.com/rack': 'r1'}


def expr(key, operator, *values):
    return {'key': key, 'operator': operator, 'values': list(values)}


def sel(labels=None, *exprs):
    return {'match_labels': labels or {}, 'match_expressions': list(exprs)}


class TestMatches(testtools.TestCase):

    def test_empty_selects_nothing(self):
        for empty in (None, {}, sel(), {'match_labels': None},
                      {'match_expressions': []}):
            self.assertTrue(selector.is_empty(empty), empty)
            self.assertFalse(selector.matches(empty, LABELS), empty)
            self.assertFalse(selector.matches(empty, {}), empty)

    def test_not_empty(self):
        self.assertFalse(selector.is_empty(sel({'env': 'prod'})))
        self.assertFalse(selector.is_empty(sel(None, expr('a', 'Exists'))))

    def test_match_labels(self):
        self.assertTrue(selector.matches(sel({'env': 'prod'}), LABELS))
        self.assertTrue(selector.matches(
            sel({'env': 'prod', 'tier': 'web'}), LABELS))
        self.assertFalse(selector.matches(
            sel({'env': 'prod', 'tier': 'db'}), LABELS))
        self.assertFalse(selector.matches(sel({'env': 'prod'}), None))
        # An empty value is a value: the key must be there with ''.
        self.assertTrue(selector.matches(sel({'gpu': ''}), LABELS))
        self.assertFalse(selector.matches(sel({'x': ''}), LABELS))

    def test_in(self):
        self.assertTrue(selector.matches(
            sel(None, expr('tier', 'In', 'db', 'web')), LABELS))
        self.assertFalse(selector.matches(
            sel(None, expr('tier', 'In', 'db')), LABELS))
        self.assertFalse(selector.matches(
            sel(None, expr('missing', 'In', 'db')), LABELS))

    def test_not_in(self):
        self.assertFalse(selector.matches(
            sel(None, expr('tier', 'NotIn', 'db', 'web')), LABELS))
        self.assertTrue(selector.matches(
            sel(None, expr('tier', 'NotIn', 'db')), LABELS))

    def test_not_in_matches_missing_key(self):
        # Kubernetes semantics: lacking the key is "not in" the values.
        self.assertTrue(selector.matches(
            sel(None, expr('missing', 'NotIn', 'x')), LABELS))
        self.assertTrue(selector.matches(
            sel(None, expr('missing', 'NotIn', 'x')), None))

    def test_exists(self):
        self.assertTrue(selector.matches(
            sel(None, expr('gpu', 'Exists')), LABELS))
        self.assertFalse(selector.matches(
            sel(None, expr('missing', 'Exists')), LABELS))

    def test_does_not_exist(self):
        self.assertFalse(selector.matches(
            sel(None, expr('gpu', 'DoesNotExist')), LABELS))
        self.assertTrue(selector.matches(
            sel(None, expr('missing', 'DoesNotExist')), LABELS))

    def test_everything_is_anded(self):
        selection = sel({'env': 'prod'}, expr('tier', 'In', 'web'),
                        expr('legacy', 'DoesNotExist'))
        self.assertTrue(selector.matches(selection, LABELS))
        self.assertFalse(selector.matches(
            selection, dict(LABELS, legacy='yes')))
        self.assertFalse(selector.matches(selection, dict(LABELS, env='dev')))

    def test_values_omitted_for_exists(self):
        self.assertTrue(selector.matches(
            {'match_expressions': [{'key': 'gpu', 'operator': 'Exists'}]},
            LABELS))


class TestNormalize(testtools.TestCase):

    def test_none(self):
        self.assertEqual(sel(), selector.normalize(None))

    def test_fills_and_copies(self):
        raw = {'match_expressions': [{'key': 'a', 'operator': 'Exists'}]}
        self.assertEqual(sel(None, expr('a', 'Exists')),
                         selector.normalize(raw))
        labels = {'a': 'b'}
        normalized = selector.normalize({'match_labels': labels})
        normalized['match_labels']['c'] = 'd'
        self.assertEqual({'a': 'b'}, labels)


class TestValidate(testtools.TestCase):

    def assertInvalid(self, field, value, text=None):
        exc = self.assertRaises(exception.InvalidParameterValue,
                                selector.validate, value)
        self.assertEqual(field, exc.field)
        self.assertIn(field, str(exc))
        if text:
            self.assertIn(text, str(exc))
        return exc

    def test_valid(self):
        value = {'match_labels': {'example.com/rack': 'r1', 'env': ''},
                 'match_expressions': [
                     expr('tier', 'In', 'web', 'db'),
                     expr('a.b-c_d', 'NotIn', 'x'),
                     {'key': 'gpu', 'operator': 'Exists'},
                     expr('legacy', 'DoesNotExist')]}
        result = selector.validate(value)
        self.assertEqual(value['match_labels'], result['match_labels'])
        self.assertEqual([], result['match_expressions'][2]['values'])

    def test_none_and_empty_are_valid(self):
        self.assertEqual(sel(), selector.validate(None))
        self.assertEqual(sel(), selector.validate({}))

    def test_custom_field(self):
        exc = self.assertRaises(exception.InvalidParameterValue,
                                selector.validate, [], field='selector')
        self.assertEqual('selector', exc.field)

    def test_not_an_object(self):
        self.assertInvalid('machine_selector', ['env=prod'], 'object')

    def test_unknown_key(self):
        self.assertInvalid('machine_selector/foo', {'foo': 1}, 'unknown')

    def test_camel_case_hint(self):
        self.assertInvalid('machine_selector/matchLabels',
                           {'matchLabels': {'a': 'b'}}, 'match_labels')

    def test_match_labels_not_object(self):
        self.assertInvalid('machine_selector/match_labels',
                           {'match_labels': ['a']})

    def test_bad_label_keys(self):
        for key in ('', '-a', 'a-', 'a b', 'x' * 64, 'Bad_Prefix.com/a',
                    '/a', 'example.com/', 'a/b/c', '%s/a' % ('x' * 254)):
            self.assertInvalid('machine_selector/match_labels/%s'
                               % key.replace('/', '~1'),
                               {'match_labels': {key: 'v'}})

    def test_good_label_keys(self):
        for key in ('a', 'A9', 'a.b_c-d', 'x' * 63, 'example.com/a',
                    'kubernetes.io/hostname'):
            selector.validate({'match_labels': {key: 'v'}})

    def test_label_key_with_slash_is_escaped_in_pointer(self):
        self.assertInvalid('machine_selector/match_labels/example.com~1a',
                           {'match_labels': {'example.com/a': '-x'}})

    def test_bad_label_values(self):
        for value in (1, None, True, '-x', 'x' * 64, 'a b', 'é'):
            self.assertInvalid('machine_selector/match_labels/k',
                               {'match_labels': {'k': value}})

    def test_expressions_not_a_list(self):
        self.assertInvalid('machine_selector/match_expressions',
                           {'match_expressions': {'key': 'a'}})

    def test_expression_not_an_object(self):
        self.assertInvalid('machine_selector/match_expressions/0',
                           {'match_expressions': ['a']})

    def test_expression_unknown_key(self):
        self.assertInvalid(
            'machine_selector/match_expressions/0/value',
            {'match_expressions': [dict(expr('a', 'In', 'b'), value=1)]})

    def test_expression_key(self):
        self.assertInvalid('machine_selector/match_expressions/0/key',
                           {'match_expressions': [{'operator': 'Exists'}]})
        self.assertInvalid('machine_selector/match_expressions/0/key',
                           {'match_expressions': [expr('a b', 'Exists')]})

    def test_operator(self):
        for operator in (None, 'in', 'Gt', 'Equals'):
            self.assertInvalid(
                'machine_selector/match_expressions/0/operator',
                {'match_expressions': [expr('a', operator, 'x')]},
                'not one of In, NotIn, Exists, DoesNotExist')

    def test_values_required_for_in_and_not_in(self):
        for operator in ('In', 'NotIn'):
            self.assertInvalid(
                'machine_selector/match_expressions/1/values',
                {'match_expressions': [expr('a', 'Exists'),
                                       expr('b', operator)]},
                'at least one value')

    def test_no_values_for_exists(self):
        for operator in ('Exists', 'DoesNotExist'):
            self.assertInvalid(
                'machine_selector/match_expressions/0/values',
                {'match_expressions': [expr('a', operator, 'x')]},
                'takes no values')

    def test_values_must_be_a_list_of_label_values(self):
        self.assertInvalid(
            'machine_selector/match_expressions/0/values',
            {'match_expressions': [{'key': 'a', 'operator': 'In',
                                    'values': 'x'}]})
        self.assertInvalid(
            'machine_selector/match_expressions/0/values/1',
            {'match_expressions': [expr('a', 'In', 'x', 'b@d')]})

    def test_too_many_expressions(self):
        exprs = [expr('k%d' % i, 'Exists') for i in range(101)]
        self.assertInvalid('machine_selector/match_expressions',
                           {'match_expressions': exprs}, 'at most 100')
        selector.validate({'match_expressions': exprs[:100]})


class TestParse(testtools.TestCase):

    def test_blank(self):
        for text in (None, '', '   '):
            self.assertEqual(sel(), selector.parse(text))

    def test_every_form(self):
        self.assertEqual(
            sel({'env': 'prod', 'zone': 'a'},
                expr('tier', 'In', 'web', 'db'),
                expr('legacy', 'DoesNotExist'),
                expr('gpu', 'Exists'),
                expr('os', 'NotIn', 'win'),
                expr('arch', 'NotIn', 'arm', 'ppc')),
            selector.parse('env=prod,zone==a,tier in (web,db),!legacy,gpu,'
                           'os!=win,arch notin (arm,ppc)'))

    def test_whitespace(self):
        self.assertEqual(
            sel({'env': 'prod'}, expr('tier', 'In', 'web', 'db'),
                expr('legacy', 'DoesNotExist'), expr('os', 'NotIn', 'w')),
            selector.parse('  env = prod ,  tier  in  ( web , db ) , '
                           '! legacy , os != w '))

    def test_no_space_before_parenthesis(self):
        self.assertEqual(sel(None, expr('a', 'NotIn', 'x')),
                         selector.parse('a notin(x)'))

    def test_prefixed_key_and_empty_value(self):
        self.assertEqual(sel({'example.com/rack': '', 'b': 'c'}),
                         selector.parse('example.com/rack=,b=c'))

    def test_repeated_key_keeps_the_and(self):
        parsed = selector.parse('a=x,a=y')
        self.assertEqual(sel({'a': 'x'}, expr('a', 'In', 'y')), parsed)
        self.assertFalse(selector.matches(parsed, {'a': 'x'}))
        self.assertFalse(selector.matches(parsed, {'a': 'y'}))
        self.assertEqual(sel({'a': 'x'}), selector.parse('a=x,a==x'))

    def test_parsed_selectors_match(self):
        parsed = selector.parse('env=prod,tier in (web,db),!legacy,gpu')
        self.assertTrue(selector.matches(parsed, LABELS))
        self.assertFalse(selector.matches(parsed, dict(LABELS, legacy='1')))

    def test_round_trip(self):
        for text in ('env=prod',
                     'env=prod,tier in (web,db),!legacy,gpu',
                     'a!=b,c notin (d,e),f in (g)',
                     'example.com/rack=r1,x=',
                     'a in (x,)'):
            parsed = selector.parse(text)
            self.assertEqual(text, selector.to_string(parsed))
            self.assertEqual(parsed,
                             selector.parse(selector.to_string(parsed)))

    def test_to_string_of_api_selector(self):
        value = selector.validate(
            {'match_labels': {'a': 'b'},
             'match_expressions': [expr('c', 'In', 'd'),
                                   expr('e', 'NotIn', 'f', 'g'),
                                   expr('h', 'Exists')]})
        self.assertEqual('a=b,c in (d),e notin (f,g),h',
                         selector.to_string(value))
        self.assertEqual(value, selector.parse(selector.to_string(value)))

    def assertParseError(self, text, term, field='label_selector'):
        kwargs = {} if field == 'label_selector' else {'field': field}
        exc = self.assertRaises(exception.InvalidParameterValue,
                                selector.parse, text, **kwargs)
        self.assertEqual(field, exc.field)
        self.assertIn(field, str(exc))
        self.assertIn(repr(term), str(exc))
        return exc

    def test_errors_name_the_term(self):
        for text, term in [
                ('env=prod,a b', 'a b'),
                ('env=prod,a=b=c', 'a=b=c'),
                ('a in x', 'a in x'),
                ('a in (x', 'a in (x'),
                ('a > 3', 'a > 3'),
                ('a=-x', 'a=-x'),
                ('-a', '-a'),
                ('a,,b', ''),
                ('a,', ''),
                ('a in (x,y)z', 'a in (x,y)z'),
                ('a notin (b@c)', 'a notin (b@c)')]:
            self.assertParseError(text, term)

    def test_unbalanced(self):
        self.assertParseError('a in (x))', 'a in (x))')

    def test_custom_field(self):
        self.assertParseError('a b', 'a b', field='selector')

    def test_too_many_terms(self):
        text = ','.join('k%d' % i for i in range(101))
        exc = self.assertRaises(exception.InvalidParameterValue,
                                selector.parse, text)
        self.assertIn('at most 100', str(exc))


class TestIndexTerms(testtools.TestCase):

    def test_positive_terms(self):
        value = sel({'env': 'prod'}, expr('tier', 'In', 'web', 'db'),
                    expr('gpu', 'Exists'), expr('os', 'NotIn', 'w'),
                    expr('legacy', 'DoesNotExist'))
        self.assertEqual([('env', ['prod']), ('tier', ['web', 'db']),
                          ('gpu', None)],
                         selector.index_terms(value))

    def test_no_positive_term(self):
        for value in (None, sel(), sel(None, expr('os', 'NotIn', 'w')),
                      sel(None, expr('x', 'DoesNotExist'))):
            self.assertEqual([], selector.index_terms(value))

    def test_candidates_superset_of_matches(self):
        # Every node the selector matches has the key of every term, with
        # one of its values: the index never misses a node.
        value = sel({'env': 'prod'}, expr('tier', 'In', 'web', 'db'),
                    expr('gpu', 'Exists'))
        nodes = [{'env': 'prod', 'tier': 'web', 'gpu': ''},
                 {'env': 'prod', 'tier': 'db', 'gpu': 'x'},
                 {'env': 'dev', 'tier': 'web', 'gpu': ''},
                 {'env': 'prod', 'tier': 'web'}]
        for labels in nodes:
            if selector.matches(value, labels):
                for key, values in selector.index_terms(value):
                    self.assertIn(key, labels)
                    if values is not None:
                        self.assertIn(labels[key], values)
