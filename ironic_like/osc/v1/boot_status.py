"""How the boot commands read and print a session's status: the counts
of its nodes, the ``session status`` breakdown, the ``--preview`` answer
and the ``session create --wait`` progress line."""

import shutil

from ironic_like.osc import common
from ironic_like.osc.v1 import boot

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
BAR_WIDTH = 20


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


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
                if _is_number(number):
                    flat.setdefault(inner, number)
        elif _is_number(value):
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
        if not _is_number(total):
            total = flat.get('total')
    else:
        for key, field in PERCENT_FIELDS.items():
            value = boot.dig(status, field)
            counts[key] = (int(round(value * (total or 0) / 100.0))
                           if _is_number(value) else 0)
    if not _is_number(total):
        total = sum(counts.values())
    counts['total'] = int(total)
    counts['done'] = counts['stable'] + counts['failed']
    percent = boot.dig(status, 'phases.percent_complete')
    if not total and state_of(status) == COMPLETE:
        percent = 100.0
    elif not _is_number(percent):
        percent = (100.0 * counts['done'] / total if total
                   else (100.0 if state_of(status) == COMPLETE else 0.0))
    counts['percent'] = max(0.0, min(100.0, float(percent)))
    return counts


def duration(seconds):
    """'1:05' (m:ss), or '2:01:05' (h:mm:ss) from an hour."""
    seconds = int(max(0, seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return '%d:%02d:%02d' % (hours, minutes, secs)
    return '%d:%02d' % (minutes, secs)


def eta(counts, elapsed, base=(0.0, 0)):
    """Seconds left at the rate of completion so far: nodes done since
    ``base`` (elapsed, done: the first poll) over the time since (None:
    no rate yet)."""
    done, total = counts['done'], counts['total']
    if total and done >= total:
        return 0
    base_elapsed, base_done = base
    if done <= base_done or elapsed <= base_elapsed:
        return None
    return (total - done) * (elapsed - base_elapsed) / float(done
                                                             - base_done)


def format_eta(counts, elapsed, base=(0.0, 0)):
    left = eta(counts, elapsed, base)
    return '?' if left is None else duration(left)


def bar(percent, width=BAR_WIDTH):
    filled = int(width * percent / 100.0)
    return '[%s%s]' % ('#' * filled, '-' * (width - filled))


def tty_line(counts, elapsed, base=(0.0, 0)):
    """The progress line redrawn on a terminal."""
    return '%s %3d%% %s  %s ETA %s' % (
        bar(counts['percent']), int(counts['percent']),
        ' '.join('%s:%d' % (SHORT_LABELS[k], counts[k])
                 for k in COUNT_KEYS),
        duration(elapsed), format_eta(counts, elapsed, base))


def plain_line(name, state, counts, elapsed, base=(0.0, 0)):
    """The progress line printed when the counts change (not a
    terminal)."""
    return ('Session %s %s: %d%% complete; %s (of %d); elapsed %s, '
            'ETA %s' % (name, state or 'unknown', int(counts['percent']),
                        ', '.join('%s %d' % (COUNT_LABELS[k], counts[k])
                                  for k in COUNT_KEYS),
                        counts['total'], duration(elapsed),
                        format_eta(counts, elapsed, base)))


class SessionProgress(object):
    """Progress of a session on ``stream``: on a terminal one line redrawn
    in place (kept when done); elsewhere a plain line each time the state
    or the counts change."""

    def __init__(self, stream, name, width=None):
        self.stream = stream
        self.name = name
        try:
            self.tty = bool(stream.isatty())
        except (AttributeError, ValueError):
            self.tty = False
        if width is None:
            width = shutil.get_terminal_size((80, 24)).columns
        self.width = max(20, width)
        self._drawn = 0
        self._last = None
        self._base = None

    def update(self, status, elapsed):
        counts = session_counts(status)
        if self._base is None:
            self._base = (elapsed, counts['done'])
        if self.tty:
            text = tty_line(counts, elapsed, self._base)[:self.width - 1]
            padding = ' ' * max(0, self._drawn - len(text))
            self.stream.write('\r' + text + padding)
            self._drawn = len(text)
        else:
            state = state_of(status)
            key = (state, counts['total']) + tuple(counts[k]
                                                   for k in COUNT_KEYS)
            if key == self._last:
                return
            self._last = key
            self.stream.write(plain_line(self.name, state, counts, elapsed,
                                         self._base) + '\n')
        self.stream.flush()

    def finish(self):
        """End the redrawn line (it stays on the screen)."""
        if self.tty and self._drawn:
            self.stream.write('\n')
            self.stream.flush()
        self._drawn = 0


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
