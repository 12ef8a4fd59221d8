"""A session's extended status (BOS's ``/sessions/{id}/status``) plus
ours: counts per phase and per status, the same per boot set, and the
failed nodes with their errors. Computed from grouped counts (one query)
while the session runs; frozen into the session when it completes."""

import collections

from oslo_utils import timeutils

from ironic_like.common.boot import component_status as cs
from ironic_like.conductor.boot import records

MAX_IDS_PER_ERROR = 10
MAX_FAILED_NODES = 1000


def _percent(part, whole):
    return round(100.0 * part / whole, 2) if whole else 0.0


def _duration(start, end):
    if start is None:
        return None
    seconds = int(((end or timeutils.utcnow()) - start).total_seconds())
    return '%d:%02d:%02d' % (seconds // 3600, seconds // 60 % 60,
                             seconds % 60)


def _new_counts():
    return {'total': 0, 'staged': 0,
            'phase': collections.Counter(), 'status': collections.Counter()}


def _add(counts, phase, status, enabled, staged, count):
    counts['total'] += count
    if staged:
        counts['staged'] += count
    counts['phase'][phase or 'none'] += count
    counts['status'][status] += count
    if enabled and status != cs.ON_HOLD:
        counts.setdefault('working', collections.Counter())[
            phase or 'none'] += count


def _plain(counts):
    return {'total': counts['total'], 'staged': counts['staged'],
            'phase': dict(counts['phase']),
            'status': dict(counts['status'])}


def _errors(db, name):
    summary = {}
    failed = []
    for component, node in db.list_boot_components(
            {'either_session': name, 'has_error': True}):
        ident = records.component_id(node)
        entry = summary.setdefault(component.error, {'count': 0, 'list': []})
        entry['count'] += 1
        if len(entry['list']) < MAX_IDS_PER_ERROR:
            entry['list'].append(ident)
        elif len(entry['list']) == MAX_IDS_PER_ERROR:
            entry['list'].append('...')
        if component.status == cs.FAILED and len(failed) < MAX_FAILED_NODES:
            failed.append({'id': ident, 'error': component.error,
                           'last_action': dict(component.last_action or {})})
    for entry in summary.values():
        entry['list'] = ','.join(entry['list'])
    return summary, failed


def build(db, boot_session):
    if boot_session.final_status:
        return dict(boot_session.final_status)
    name = boot_session.name
    total = _new_counts()
    per_boot_set = collections.defaultdict(_new_counts)
    for boot_set, phase, status, enabled, staged, count in \
            db.count_boot_components(name):
        _add(total, phase, status, enabled, staged, count)
        _add(per_boot_set[boot_set or ''], phase, status, enabled, staged,
             count)
    n = total['total']
    working = total.get('working', collections.Counter())
    done = total['status'][cs.STABLE] + total['status'][cs.FAILED]
    error_summary, failed = _errors(db, name)
    return {
        'status': boot_session.status,
        'managed_components_count': n,
        'phases': {
            'percent_complete': _percent(done, n),
            'percent_powering_on': _percent(working[cs.PHASE_POWERING_ON], n),
            'percent_powering_off': _percent(working[cs.PHASE_POWERING_OFF],
                                             n),
            'percent_configuring': _percent(working[cs.PHASE_CONFIGURING],
                                            n),
        },
        'percent_successful': _percent(total['status'][cs.STABLE], n),
        'percent_failed': _percent(total['status'][cs.FAILED], n),
        'percent_staged': _percent(total['staged'], n),
        'error_summary': error_summary,
        'timing': {
            'start_time': records.isoformat(boot_session.start_time),
            'end_time': records.isoformat(boot_session.end_time),
            'duration': _duration(boot_session.start_time,
                                  boot_session.end_time),
        },
        # Ours (BOS has percentages only).
        'counts': _plain(total),
        'boot_sets': {bs: _plain(c) for bs, c in sorted(
            per_boot_set.items())},
        'failed_nodes': failed,
    }


# A session completes once: a second freeze (two conductors that both
# thought they owned it, an abort racing the completion) would rewrite
# the end time and the status a client already read as final.
NOT_COMPLETE = ('pending', 'running')


def freeze(db, name, values, expected_status=NOT_COMPLETE):
    """Complete a session with its status computed one last time, only
    while it still has ``expected_status`` (by default: while it is not
    complete yet); else BootSessionConflict."""
    values = dict(values)
    values['end_time'] = values.get('end_time') or timeutils.utcnow()
    boot_session = db.get_boot_session(name)
    boot_session.end_time = values['end_time']
    boot_session.status = 'complete'
    boot_session.error = values.get('error', boot_session.error)
    values['status'] = 'complete'
    values['final_status'] = build(db, boot_session)
    return db.update_boot_session(name, values,
                                  expected_status=expected_status)
