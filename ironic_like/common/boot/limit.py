"""A session's limit: BOS v2's grammar, applied per boot set.

The limit is a comma-separated list of tokens folded left over an
accumulator that starts empty: a plain token adds its nodes, a token
starting with ``&`` keeps only the accumulated nodes that are also its
nodes, one starting with ``!`` removes its nodes. ``all`` and ``*`` stand
for the boot set's own nodes. The result is the boot set's nodes that are
in the accumulator. Order matters: ``all,!x`` excludes x, ``!x,all`` does
not, and a first token of ``!x`` or ``&g`` selects nothing.

Differences from BOS, on purpose: BOS lets an unknown name or a typo match
nothing and fails the whole session with an IndexError on an empty token;
here both are a LimitError naming every offending token, raised before
anything is acted on. Like BOS, spaces are not stripped, so ``a, b`` names
the node " b", which is then unknown.
"""

UNION = '|'
INTERSECT = '&'
EXCLUDE = '!'

# Tokens that mean "every node of the boot set".
ALL_NAMES = frozenset(['all', '*'])

_PREFIXES = {INTERSECT: INTERSECT, EXCLUDE: EXCLUDE}


class LimitError(ValueError):
    """A limit that cannot be applied; ``names`` lists the bad tokens."""

    def __init__(self, message, names):
        super().__init__(message)
        self.names = list(names)


def parse(limit):
    """The (op, name) pairs of a limit, or None when it limits nothing.

    None, "" and "*" all mean "no limit" (BOS treats a missing or empty
    limit so, and "*" alone selects the whole boot set). Raises LimitError
    naming every empty token.
    """
    if limit is None or limit == '' or limit == '*':
        return None
    if not isinstance(limit, str):
        raise LimitError('limit must be a string, not %s'
                         % type(limit).__name__, [repr(limit)])
    pairs = [_split_token(token) for token in limit.split(',')]
    _reject_empty(limit.split(','), pairs)
    return pairs


def _split_token(token):
    # Only the first character is an operator, as in BOS: "&!x" is the
    # intersection with a name "!x", which is then unknown.
    op = _PREFIXES.get(token[:1])
    if op is None:
        return UNION, token
    return op, token[1:]


def _reject_empty(tokens, pairs):
    positions = [index for index, (_op, name) in enumerate(pairs, 1)
                 if name == '']
    if not positions:
        return
    where = ', '.join('empty token at position %d' % position
                      for position in positions)
    raise LimitError('limit has empty tokens (%s)' % where,
                     [tokens[position - 1] for position in positions])


def apply(limit, boot_set_nodes, resolve):
    """The boot set's nodes that the limit selects, as a set.

    ``limit`` is the limit text (or what parse() returned for it);
    ``resolve(name)`` returns the set of node ids a name stands for (a
    group's, role's or Role_SubRole's members, or {id} for a node name or
    UUID), or None when the name is unknown. Raises LimitError naming
    every unknown name, so a typo never silently shrinks a session.
    """
    nodes = set(boot_set_nodes)
    pairs = limit if isinstance(limit, list) else parse(limit)
    if pairs is None:
        return nodes
    members = _resolve_all(pairs, nodes, resolve)
    selected = set()
    for op, name in pairs:
        selected = _fold(op, selected, members[name])
    return nodes & selected


def _resolve_all(pairs, boot_set_nodes, resolve):
    # Every name is resolved before folding so that one error can name
    # all the unknown names at once.
    members = {}
    unknown = []
    for _op, name in pairs:
        if name in members or name in unknown:
            continue
        found = (boot_set_nodes if name in ALL_NAMES else resolve(name))
        if found is None:
            unknown.append(name)
        else:
            members[name] = set(found)
    if unknown:
        raise LimitError('limit names unknown nodes, groups or roles: %s'
                         % ', '.join(repr(name) for name in unknown),
                         unknown)
    return members


def _fold(op, selected, nodes):
    if op == INTERSECT:
        return selected & nodes
    if op == EXCLUDE:
        return selected - nodes
    return selected | nodes
