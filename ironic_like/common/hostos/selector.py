"""Kubernetes label selectors over node labels, with Mirantis's exception.

A selector is ``{'match_labels': {key: value}, 'match_expressions':
[{'key', 'operator', 'values'}]}``, every term ANDed, with the Kubernetes
meaning of each operator (In, NotIn, Exists, DoesNotExist; NotIn also
matches a node lacking the key). One deliberate difference, after
HostOSConfiguration: an EMPTY (or missing) selector selects NO node, so that
a configuration cannot reach every machine by accident. Kubernetes selects
everything with an empty selector.

``parse`` reads the string form of ``GET /v1/nodes?label_selector=``
(``env=prod,tier in (web,db),!legacy,gpu``); ``index_terms`` tells which
(key, value) pairs of a label index can narrow the candidate nodes.
"""

import re

from ironic_like.common import exception

IN = 'In'
NOT_IN = 'NotIn'
EXISTS = 'Exists'
DOES_NOT_EXIST = 'DoesNotExist'
OPERATORS = (IN, NOT_IN, EXISTS, DOES_NOT_EXIST)
# Operators that need values, and those that must have none.
_WITH_VALUES = (IN, NOT_IN)

MAX_EXPRESSIONS = 100

# Kubernetes label syntax (apimachinery validation): a name or value is at
# most 63 characters, alphanumeric at both ends; a key may have a DNS
# subdomain prefix (at most 253 characters) and a slash.
_NAME = re.compile(r'[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?')
_DNS_SUBDOMAIN = re.compile(
    r'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
_MAX_NAME = 63
_MAX_PREFIX = 253

_SELECTOR_KEYS = ('match_labels', 'match_expressions')
_EXPRESSION_KEYS = ('key', 'operator', 'values')
# What a Kubernetes user is likely to type instead of our snake_case.
_CAMEL = {'matchLabels': 'match_labels',
          'matchExpressions': 'match_expressions'}


def pointer_token(text):
    """Escape one JSON pointer (RFC 6901) token: label keys hold '/'."""
    return str(text).replace('~', '~0').replace('/', '~1')


def label_key_error(key):
    """Why ``key`` is not a Kubernetes label key, or None if it is one."""
    if not isinstance(key, str):
        return 'a label key must be a string, not %r' % (key,)
    prefix, slash, name = key.rpartition('/')
    if slash:
        if not prefix:
            return 'label key %r has an empty prefix before "/"' % key
        if (len(prefix) > _MAX_PREFIX
                or not _DNS_SUBDOMAIN.fullmatch(prefix)):
            return ('label key %r: the prefix must be a DNS subdomain '
                    '(lowercase alphanumerics, "-" and ".", at most %d '
                    'characters)' % (key, _MAX_PREFIX))
    if not name:
        return 'label key %r has an empty name' % key
    if len(name) > _MAX_NAME or not _NAME.fullmatch(name):
        return ('label key %r: the name must be at most %d characters, '
                'alphanumerics, "-", "_" and ".", beginning and ending '
                'with an alphanumeric' % (key, _MAX_NAME))
    return None


def label_value_error(value):
    """Why ``value`` is not a Kubernetes label value, or None if it is."""
    if not isinstance(value, str):
        return 'a label value must be a string, not %r' % (value,)
    if value and (len(value) > _MAX_NAME or not _NAME.fullmatch(value)):
        return ('label value %r must be empty or at most %d characters, '
                'alphanumerics, "-", "_" and ".", beginning and ending '
                'with an alphanumeric' % (value, _MAX_NAME))
    return None


def normalize(selector):
    """The selector with both keys present (copies; no validation)."""
    selector = selector or {}
    return {
        'match_labels': dict(selector.get('match_labels') or {}),
        'match_expressions': [
            {'key': expr.get('key'), 'operator': expr.get('operator'),
             'values': list(expr.get('values') or [])}
            for expr in selector.get('match_expressions') or []],
    }


def is_empty(selector):
    """An empty selector: no terms at all, hence (here) no node."""
    if not selector:
        return True
    return (not selector.get('match_labels')
            and not selector.get('match_expressions'))


def _invalid(field, err):
    raise exception.InvalidParameterValue(
        err='%s: %s' % (field, err), field=field)


def _check_keys(obj, allowed, field):
    for key in obj:
        if key not in allowed:
            hint = ''
            if key in _CAMEL:
                hint = ' (did you mean "%s"?)' % _CAMEL[key]
            _invalid('%s/%s' % (field, pointer_token(key)),
                     'unknown field %r%s; allowed: %s'
                     % (key, hint, ', '.join(allowed)))


def validate(selector, field='machine_selector'):
    """Check a selector from a request body and return it normalized.

    Raises InvalidParameterValue whose ``field`` is the JSON pointer of the
    offending part, e.g. ``machine_selector/match_expressions/1/values``.
    A missing or empty selector is valid (and selects nothing).
    """
    if selector is None:
        return normalize(None)
    if not isinstance(selector, dict):
        _invalid(field, 'a label selector must be an object')
    _check_keys(selector, _SELECTOR_KEYS, field)

    labels = selector.get('match_labels')
    labels_field = field + '/match_labels'
    if labels is not None:
        if not isinstance(labels, dict):
            _invalid(labels_field, 'must be an object of label key to '
                                   'label value')
        for key, value in labels.items():
            key_field = '%s/%s' % (labels_field, pointer_token(key))
            err = label_key_error(key) or label_value_error(value)
            if err:
                _invalid(key_field, err)

    exprs = selector.get('match_expressions')
    exprs_field = field + '/match_expressions'
    if exprs is not None:
        if not isinstance(exprs, list):
            _invalid(exprs_field, 'must be a list of expressions')
        if len(exprs) > MAX_EXPRESSIONS:
            _invalid(exprs_field, 'at most %d expressions, got %d'
                     % (MAX_EXPRESSIONS, len(exprs)))
        for index, expr in enumerate(exprs):
            _validate_expression(expr, '%s/%d' % (exprs_field, index))
    return normalize(selector)


def _validate_expression(expr, field):
    if not isinstance(expr, dict):
        _invalid(field, 'an expression must be an object with key, '
                        'operator and values')
    _check_keys(expr, _EXPRESSION_KEYS, field)
    if 'key' not in expr:
        _invalid(field + '/key', 'the key is required')
    err = label_key_error(expr['key'])
    if err:
        _invalid(field + '/key', err)
    operator = expr.get('operator')
    if operator not in OPERATORS:
        _invalid(field + '/operator', 'operator %r is not one of %s'
                 % (operator, ', '.join(OPERATORS)))
    values = expr.get('values')
    values_field = field + '/values'
    if values is not None and not isinstance(values, list):
        _invalid(values_field, 'must be a list of label values')
    if operator in _WITH_VALUES and not values:
        _invalid(values_field, 'operator %s needs at least one value'
                 % operator)
    if operator not in _WITH_VALUES and values:
        _invalid(values_field, 'operator %s takes no values' % operator)
    for index, value in enumerate(values or ()):
        err = label_value_error(value)
        if err:
            _invalid('%s/%d' % (values_field, index), err)


def _expression_matches(key, operator, values, labels):
    if operator == IN:
        return key in labels and labels[key] in values
    if operator == NOT_IN:
        # Kubernetes: a node without the key is "not in" any value set.
        return key not in labels or labels[key] not in values
    if operator == EXISTS:
        return key in labels
    if operator == DOES_NOT_EXIST:
        return key not in labels
    raise ValueError('unknown selector operator %r' % (operator,))


def matches(selector, labels):
    """Whether a node with ``labels`` (dict or None) is selected.

    An empty selector selects nothing (Mirantis), every term is ANDed.
    """
    if is_empty(selector):
        return False
    labels = labels or {}
    for key, value in (selector.get('match_labels') or {}).items():
        if key not in labels or labels[key] != value:
            return False
    for expr in selector.get('match_expressions') or ():
        if not _expression_matches(expr.get('key'), expr.get('operator'),
                                   expr.get('values') or (), labels):
            return False
    return True


def index_terms(selector):
    """The positive terms as (key, values or None), for a label index.

    A node can only be selected if it has, for each term, the key (None:
    any value) with one of the values, so the caller may take the
    candidates of the most selective term from a (key, value) index and
    filter them with matches(). Returns [] when the selector has no
    positive term (only NotIn / DoesNotExist, or empty): the caller must
    then scan every node (an empty selector still selects none).
    """
    selector = selector or {}
    terms = [(key, [value]) for key, value
             in (selector.get('match_labels') or {}).items()]
    for expr in selector.get('match_expressions') or ():
        if expr.get('operator') == IN:
            terms.append((expr['key'], list(expr.get('values') or ())))
        elif expr.get('operator') == EXISTS:
            terms.append((expr['key'], None))
    return terms


# The string form: terms separated by commas outside parentheses.
_TOKEN = r'[^\s,()=!<>]+'
_EXISTS_RE = re.compile(r'\s*(?P<key>%s)\s*' % _TOKEN)
_NOT_EXISTS_RE = re.compile(r'\s*!\s*(?P<key>%s)\s*' % _TOKEN)
_EQUALITY_RE = re.compile(
    r'\s*(?P<key>%s)\s*(?P<op>==|=|!=)\s*(?P<value>%s)?\s*'
    % (_TOKEN, _TOKEN))
_SET_RE = re.compile(
    r'\s*(?P<key>%s)\s+(?P<op>in|notin)\s*\((?P<values>[^()]*)\)\s*'
    % _TOKEN)


def _split_terms(text, field):
    terms, depth, start = [], 0, 0
    for pos, char in enumerate(text):
        if char == '(':
            depth += 1
        elif char == ')':
            depth -= 1
            if depth < 0:
                break
        elif char == ',' and depth == 0:
            terms.append(text[start:pos])
            start = pos + 1
    if depth != 0:
        _parse_error(field, text, 'unbalanced parentheses')
    terms.append(text[start:])
    return terms


def _parse_error(field, term, err):
    raise exception.InvalidParameterValue(
        err='%s: invalid term %r: %s' % (field, term.strip(), err),
        field=field)


def _parse_term(term, field):
    """(key, operator, values) of one term of the string form."""
    match = _NOT_EXISTS_RE.fullmatch(term)
    if match:
        return match.group('key'), DOES_NOT_EXIST, []
    match = _EXISTS_RE.fullmatch(term)
    if match:
        return match.group('key'), EXISTS, []
    match = _EQUALITY_RE.fullmatch(term)
    if match:
        operator = NOT_IN if match.group('op') == '!=' else IN
        return match.group('key'), operator, [match.group('value') or '']
    match = _SET_RE.fullmatch(term)
    if match:
        # As in Kubernetes, "()" is the one empty value [''].
        values = [value.strip()
                  for value in match.group('values').split(',')]
        operator = IN if match.group('op') == 'in' else NOT_IN
        return match.group('key'), operator, values
    _parse_error(field, term, 'expected "key", "!key", "key=value", '
                              '"key==value", "key!=value", '
                              '"key in (v1,v2)" or "key notin (v1,v2)"')


def parse(text, field='label_selector'):
    """The normalized selector of the Kubernetes string form.

    ``a=b`` and ``a==b`` become match_labels (a repeated key with another
    value becomes an In expression, which keeps the AND), ``a!=b`` NotIn
    [b], ``a in (x,y)`` In, ``a notin (x)`` NotIn, ``a`` Exists, ``!a``
    DoesNotExist. Blank text gives the empty selector. Errors name the
    field and the bad term.
    """
    selector = normalize(None)
    if text is None or not text.strip():
        return selector
    terms = _split_terms(text, field)
    if len(terms) > MAX_EXPRESSIONS:
        raise exception.InvalidParameterValue(
            err='%s: at most %d terms, got %d'
                % (field, MAX_EXPRESSIONS, len(terms)),
            field=field)
    for term in terms:
        if not term.strip():
            _parse_error(field, term, 'empty term (stray comma?)')
        key, operator, values = _parse_term(term, field)
        err = label_key_error(key)
        for value in values:
            err = err or label_value_error(value)
        if err:
            _parse_error(field, term, err)
        labels = selector['match_labels']
        if (operator == IN and len(values) == 1 and '(' not in term
                and labels.get(key, values[0]) == values[0]):
            labels[key] = values[0]
        else:
            selector['match_expressions'].append(
                {'key': key, 'operator': operator, 'values': values})
    return selector


def _format_values(values):
    return '(%s)' % ','.join(values)


def to_string(selector):
    """The string form of a selector; parse(to_string(s)) selects alike.

    Inverse of parse for the selectors parse produces.
    """
    selector = normalize(selector)
    terms = ['%s=%s' % item
             for item in selector['match_labels'].items()]
    for expr in selector['match_expressions']:
        key, operator, values = (expr['key'], expr['operator'],
                                 expr['values'])
        if operator == EXISTS:
            terms.append(key)
        elif operator == DOES_NOT_EXIST:
            terms.append('!' + key)
        elif operator == IN:
            terms.append('%s in %s' % (key, _format_values(values)))
        elif len(values) == 1:
            terms.append('%s!=%s' % (key, values[0]))
        else:
            terms.append('%s notin %s' % (key, _format_values(values)))
    return ','.join(terms)
