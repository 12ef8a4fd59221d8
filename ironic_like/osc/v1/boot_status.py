"""How the boot commands read and print a session's status: the counts
of its nodes, the ``session status`` breakdown, the ``--preview`` answer
and what the ``session create --wait`` progress line shows."""

from ironic_like.osc import common
from ironic_like.osc.v1 import boot
from ironic_like.osc.v1 import progress

# The counts the progress line shows, in its order.
COUNT_KEYS = ('powering_off', 'powering_on', 'configuring', 'stable',
              'failed')
COUNT_LABELS = {'powering_off': 'powering off', 'powering_on': 'powering on',
                'configuring': 'configuring', 'stable': 'stable',
                'failed': 'failed'}
SHORT_LABELS = {'powering_off': 'off', 'powering_on': 'on',
                'configuring': 'cfg', 'stable': 'stable', 'failed': 'failed'}
# Component statuses of each phase (BOS's computed status).
PHASE_STATUSES = {
    'powering_off': ('power_off_pending', 'power_off_gracefully_called',
                     'power_off_forcefully_called'),
    'powering_on': ('power_on_pending', 'power_on_called'),
}
# The fallback of a status without counts: percents of these fields.
PERCENT_FIELDS = {'powering_off': 'phases.percent_powering_off',
                  'powering_on': 'phases.percent_powering_on',
                  'configuring': 'phases.percent_configuring',
                  'stable': 'percent_successful',
                  'failed': 'percent_failed'}
COMPLETE = 'complete'


def state_of(doc):
    """pending, running or complete of a status or session document
    (``status`` is a string in the one, an object in the other)."""
    status = (doc or {}).get('status')
    if isinstance(status, dict):
        status = status.get('status')
    return status


def flat_counts(counts):
    """{name: count} of a ``counts`` object, flat ({"stable": 3}) or
    grouped ({"phase": {...}, "status": {...}})."""
    flat = {}
    if not isinstance(counts, dict):
        return flat
    for key, value in counts.items():
        if isinstance(value, dict):
            for inner, number in value.items():
                if progress.is_number(number):
                    flat.setdefault(inner, number)
        elif progress.is_number(value):
            flat.setdefault(key, value)
    return flat


def _group(counts, name, default):
    """The counts of group ``name`` ("status", "phase") of grouped
    counts, else ``default``."""
    group = counts.get(name) if isinstance(counts, dict) else None
    return group if isinstance(group, dict) else default


def session_counts(status):
    """{COUNT_KEYS..., 'total', 'done', 'percent'} of a session status:
    its ``counts`` when there are some, else derived from the percents
    and ``managed_components_count``."""
    total = status.get('managed_components_count')
    raw = status.get('counts')
    flat = flat_counts(raw)
    counts = {}
    if flat:
        # Statuses exclude each other (a failed node keeps its phase):
        # phases count only when there are no statuses.
        by_status = _group(raw, 'status', None)
        for key in COUNT_KEYS:
            if by_status is not None:
                value = sum(by_status.get(s, 0)
                            for s in PHASE_STATUSES.get(key, (key,)))
            else:
                statuses = [s for s in PHASE_STATUSES.get(key, ())
                            if s in flat]
                value = (sum(flat[s] for s in statuses) if statuses
                         else flat.get(key, 0))
            counts[key] = int(value)
        if not progress.is_number(total):
            total = flat.get('total')
    else:
        for key, field in PERCENT_FIELDS.items():
            value = boot.dig(status, field)
            counts[key] = (int(round(value * (total or 0) / 100.0))
                           if progress.is_number(value) else 0)
    if not progress.is_number(total):
        total = sum(counts.values())
    counts['total'] = int(total)
    counts['done'] = counts['stable'] + counts['failed']
    percent = boot.dig(status, 'phases.percent_complete')
    if not total and state_of(status) == COMPLETE:
        percent = 100.0
    elif not progress.is_number(percent):
        percent = (100.0 * counts['done'] / total if total
                   else (100.0 if state_of(status) == COMPLETE else 0.0))
    counts['percent'] = max(0.0, min(100.0, float(percent)))
    return counts


def plain_line(name, state, counts, elapsed, base=(0.0, 0)):
    """The progress line printed when the counts change (not a
    terminal)."""
    return ('Session %s %s: %d%% complete; %s (of %d); elapsed %s, '
            'ETA %s' % (name, state or 'unknown', int(counts['percent']),
                        ', '.join('%s %d' % (COUNT_LABELS[k], counts[k])
                                  for k in COUNT_KEYS),
                        counts['total'], progress.duration(elapsed),
                        progress.format_eta(counts, elapsed, base)))


# What the progress of a session shows.
PROGRESS_VIEW = progress.View(
    counts=session_counts, state=state_of, keys=COUNT_KEYS,
    short_labels=SHORT_LABELS, plain_line=plain_line, fraction=False)


# -- session status ---------------------------------------------------------

def format_counts(counts, sep='\n'):
    """'stable 60, failed 2' of a counts object (zeros left out; the
    progress counts first, then the others by name); grouped counts
    give a line per group ('status: stable 60, failed 2')."""
    if isinstance(counts, dict) and any(isinstance(v, dict)
                                        for v in counts.values()):
        rest = {k: v for k, v in counts.items() if not isinstance(v, dict)}
        lines = [_format_flat(flat_counts(rest))] if rest else []
        lines += ['%s: %s' % (group, _format_flat(flat_counts(value)))
                  for group, value in counts.items()
                  if isinstance(value, dict)]
        return sep.join(lines)
    return _format_flat(flat_counts(counts))


def _format_flat(flat):
    keys = [k for k in COUNT_KEYS if k in flat]
    keys += sorted(k for k in flat if k not in keys)
    text = ', '.join('%s %s' % (k or 'none', flat[k]) for k in keys
                     if flat[k])
    return text or '-'


def format_phases(phases):
    names = [('percent_complete', 'complete'),
             ('percent_powering_off', 'powering off'),
             ('percent_powering_on', 'powering on'),
             ('percent_configuring', 'configuring')]
    known = [k for k, _label in names]
    parts = ['%s %s' % (label, boot.percent(phases[k]))
             for k, label in names if k in phases]
    parts += ['%s %s' % (k, boot.percent(v)) for k, v in
              sorted(phases.items()) if k not in known]
    return ', '.join(parts)


def format_last_action(last_action):
    if isinstance(last_action, dict):
        action = last_action.get('action')
        if last_action.get('failed'):
            action = '%s, failed' % action
        return action
    return last_action


def format_failed_nodes(nodes):
    lines = []
    for node in nodes or ():
        if not isinstance(node, dict):
            lines.append(str(node))
            continue
        line = '%s: %s' % (node.get('id'), node.get('error') or 'failed')
        action = format_last_action(node.get('last_action'))
        if action:
            line += ' (last action: %s)' % action
        lines.append(line)
    return '\n'.join(lines) or 'none'


def format_error_summary(summary):
    lines = []
    for error, detail in sorted((summary or {}).items()):
        if isinstance(detail, dict):
            ids = detail.get('list')
            if isinstance(ids, list):
                ids = ','.join(ids)
            lines.append('%s: %s node(s)%s' % (
                error, detail.get('count'), ' (%s)' % ids if ids else ''))
        else:
            lines.append('%s: %s' % (error, detail))
    return '\n'.join(lines) or 'none'


def format_timing(timing):
    if not isinstance(timing, dict):
        return str(timing)
    return 'start %s, end %s, duration %s' % (
        timing.get('start_time') or '-', timing.get('end_time') or '-',
        timing.get('duration') or '-')


def format_boot_sets(boot_sets):
    return '\n'.join('%s: %s' % (name, format_counts(counts, '; '))
                     for name, counts in sorted(boot_sets.items())) or 'none'


# Fields of the ``session status`` breakdown, in order, and how a table
# prints them.
STATUS_FIELDS = [
    ('status', None),
    ('managed_components_count', None),
    ('phases', format_phases),
    ('percent_successful', boot.percent),
    ('percent_failed', boot.percent),
    ('percent_staged', boot.percent),
    ('counts', format_counts),
    ('boot_sets', format_boot_sets),
    ('failed_nodes', format_failed_nodes),
    ('error_summary', format_error_summary),
    ('timing', format_timing),
]


def status_output(status):
    """(names, values) of ``session status``: the known fields in a
    readable order and form (unchanged in json and yaml), then any
    other by name."""
    names, values = [], []
    known = [name for name, _fmt in STATUS_FIELDS]
    for name, fmt in STATUS_FIELDS:
        if name not in status:
            continue
        value = status[name]
        names.append(name)
        if fmt is None or value is None:
            values.append(common.formatted(value))
        else:
            values.append(boot.TextColumn(value, fmt(value)))
    for name in sorted(k for k in status if k not in known):
        names.append(name)
        values.append(common.formatted(status[name]))
    return tuple(names), tuple(values)


# -- preview ----------------------------------------------------------------

_NODE_KEYS = ('nodes', 'components', 'included', 'selected', 'node_list')
_EXCLUDED_KEYS = ('excluded', 'exclusions', 'skipped')
_ID_KEYS = ('id', 'node', 'component', 'name', 'xname')


def _node_id(entry):
    if isinstance(entry, dict):
        for key in _ID_KEYS:
            if entry.get(key):
                return entry[key]
    return entry


def preview_sets(doc):
    """[(boot set name, its entry, nodes, [(node, reason)])] of a preview
    answer ({"boot_sets": {name: {"nodes", "excluded"}}} and close
    shapes)."""
    sets = doc.get('boot_sets', doc) if isinstance(doc, dict) else doc
    if isinstance(sets, list):
        items = [(s.get('name'), s) for s in sets if isinstance(s, dict)]
    elif isinstance(sets, dict):
        items = sorted((k, v) for k, v in sets.items()
                       if isinstance(v, dict))
    else:
        items = []
    result = []
    for name, entry in items:
        nodes = next((entry[k] for k in _NODE_KEYS if k in entry), [])
        if isinstance(nodes, str):
            nodes = [n for n in nodes.split(',') if n]
        nodes = [_node_id(n) for n in nodes or ()]
        excluded = next((entry[k] for k in _EXCLUDED_KEYS if k in entry),
                        [])
        if isinstance(excluded, dict):
            excluded = [{'id': k, 'reason': v} for k, v in
                        sorted(excluded.items())]
        pairs = []
        for item in excluded or ():
            reason = item.get('reason') if isinstance(item, dict) else None
            if isinstance(reason, dict):
                reason = reason.get('reason')
            pairs.append((_node_id(item), reason))
        result.append((name, entry, nodes, pairs))
    return result


def format_preview(nodes, excluded, warnings=()):
    lines = ['nodes (%d): %s' % (len(nodes), ', '.join(map(str, nodes))
                                 or '-')]
    if excluded:
        lines.append('excluded (%d): %s' % (len(excluded), ', '.join(
            '%s (%s)' % (node, reason) if reason else str(node)
            for node, reason in excluded)))
    lines += ['warning: %s' % w for w in warnings or ()]
    return '\n'.join(lines)


def preview_output(doc):
    """(names, values) of a preview: one row per boot set with the nodes
    the session would act on and those excluded, with why."""
    names, values = [], []
    for name, entry, nodes, excluded in preview_sets(doc):
        names.append(name)
        values.append(boot.TextColumn(entry, format_preview(
            nodes, excluded, entry.get('warnings'))))
    if isinstance(doc, dict) and 'boot_sets' in doc:
        for key in sorted(k for k in doc if k != 'boot_sets'):
            names.append(key)
            values.append(common.formatted(doc[key]))
    return tuple(names), tuple(values)
