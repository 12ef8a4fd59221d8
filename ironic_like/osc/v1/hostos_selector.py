"""Machine selectors of host OS configurations: their options
(``--selector``, ``--selector-label``, ``--selector-expression``), and
their Kubernetes string form (``env=prod,tier in (web,db),!legacy``),
parsed and printed."""

import re

from osc_lib import exceptions as osc_exc

from ironic_like.osc import common
from ironic_like.osc.v1 import boot

SELECTOR_OPERATORS = ('In', 'NotIn', 'Exists', 'DoesNotExist')

_OPERATORS = {'in': 'In', 'notin': 'NotIn', 'exists': 'Exists',
              'doesnotexist': 'DoesNotExist'}
_KEY_RE = re.compile(r'^[^\s!=(),]+$')
_EXPRESSION_RE = re.compile(
    r'^(?P<key>[^\s!=(),]+)\s*'
    r'(?:(?P<op>in|notin|not\s+in|exists|doesnotexist|does\s*not\s*exist)'
    r'(?![^\s(])\s*(?P<values>.*))?$', re.IGNORECASE)


def _values(text):
    text = text.strip()
    if text.startswith('(') and text.endswith(')'):
        text = text[1:-1]
    return [v.strip() for v in text.split(',') if v.strip()]


def parse_expression(text):
    """A match expression of ``--selector-expression``: ``KEY OP
    [V1,V2...]`` with OP one of In, NotIn, Exists, DoesNotExist (any case;
    values may be in parentheses, as in ``tier in (web,db)``); ``KEY``
    alone means Exists and ``!KEY`` DoesNotExist."""
    stripped = text.strip()
    if stripped.startswith('!') and _KEY_RE.match(stripped[1:].strip()):
        return {'key': stripped[1:].strip(), 'operator': 'DoesNotExist'}
    match = _EXPRESSION_RE.match(stripped)
    if not match:
        raise osc_exc.CommandError(
            'Invalid selector expression "%s": use "KEY OP V1,V2" with OP '
            'one of %s.' % (text, ', '.join(SELECTOR_OPERATORS)))
    op = match.group('op')
    op = _OPERATORS[re.sub(r'\s+', '', op.lower())] if op else 'Exists'
    values = _values(match.group('values') or '')
    expression = {'key': match.group('key'), 'operator': op}
    if op in ('In', 'NotIn'):
        if not values:
            raise osc_exc.CommandError(
                'Invalid selector expression "%s": %s needs values.'
                % (text, op))
        expression['values'] = values
    elif values:
        raise osc_exc.CommandError(
            'Invalid selector expression "%s": %s takes no values.'
            % (text, op))
    return expression


def _split_requirements(text):
    """Requirements of a selector string: commas outside parentheses."""
    parts, depth, current = [], 0, ''
    for char in text:
        if char == '(':
            depth += 1
        elif char == ')':
            depth -= 1
        if char == ',' and depth == 0:
            parts.append(current)
            current = ''
        else:
            current += char
    parts.append(current)
    return [p.strip() for p in parts if p.strip()]


def parse_selector(text):
    """The machine selector of a Kubernetes selector string:
    ``env=prod,tier in (web,db),!legacy,gpu``."""
    selector = {}
    for requirement in _split_requirements(text):
        match = re.match(r'^([^\s!=(),]+)\s*(==|=|!=)\s*([^\s=(),]*)$',
                         requirement)
        if match and match.group(2) != '!=':
            selector.setdefault('match_labels', {})[match.group(1)] = \
                match.group(3)
            continue
        if match:
            expression = {'key': match.group(1), 'operator': 'NotIn',
                          'values': [match.group(3)]}
        else:
            expression = parse_expression(requirement)
        selector.setdefault('match_expressions', []).append(expression)
    return selector


def add_selector_options(parser, verb):
    parser.add_argument(
        '--selector', metavar='<selector>',
        help='%s the machine selector as a Kubernetes selector string, '
             'e.g. "env=prod,tier in (web,db),!legacy" (nodes: '
             'openstack baremetal node list --label-selector).' % verb)
    parser.add_argument(
        '--selector-label', dest='selector_labels', action='append',
        metavar='<key=value>',
        help='Select nodes with this label (match_labels; repeatable).')
    parser.add_argument(
        '--selector-expression', dest='selector_expressions',
        action='append', metavar='<key op values>',
        help='A match expression (repeatable): "KEY In V1,V2", "KEY NotIn '
             'V1", "KEY Exists", "KEY DoesNotExist" (operators in any '
             'case; "tier in (web,db)", "!KEY" also work).')


def selector_of_options(parsed_args, base=None):
    """The selector of --selector, --selector-label and
    --selector-expression (added to ``base``)."""
    selector = dict(base or {})
    if getattr(parsed_args, 'selector', None) is not None:
        selector = parse_selector(parsed_args.selector)
    labels = common.to_dict(parsed_args.selector_labels, deserialize=False)
    if labels:
        selector['match_labels'] = dict(selector.get('match_labels') or {},
                                        **labels)
    expressions = [parse_expression(e)
                   for e in parsed_args.selector_expressions or ()]
    if expressions:
        selector['match_expressions'] = list(
            selector.get('match_expressions') or []) + expressions
    return selector


def format_expression(expression):
    if not isinstance(expression, dict):
        return str(expression)
    key = expression.get('key')
    op = expression.get('operator')
    values = ','.join(str(v) for v in expression.get('values') or ())
    if op == 'Exists':
        return str(key)
    if op == 'DoesNotExist':
        return '!%s' % key
    if op in ('In', 'NotIn'):
        return '%s %s (%s)' % (key, op.lower(), values)
    return '%s %s (%s)' % (key, op, values)


def format_selector(selector):
    """The Kubernetes string form of a machine selector ('' when it
    selects no node)."""
    if not isinstance(selector, dict):
        return ''
    parts = ['%s=%s' % kv for kv in sorted(
        (selector.get('match_labels') or {}).items())]
    parts += [format_expression(e)
              for e in selector.get('match_expressions') or ()]
    return ','.join(parts)


def selector_column(selector):
    return boot.TextColumn(selector, format_selector(selector)
                           or '(selects no node)')
