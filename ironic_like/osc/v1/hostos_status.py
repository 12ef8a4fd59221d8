"""The status of a host OS configuration's rollout: the counts of its
nodes, the per-node state of its items, the error naming the failed
nodes, and waiting for a rollout (``--wait``) with a progress bar."""

from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import boot
from ironic_like.osc.v1 import hostos
from ironic_like.osc.v1 import hostos_selector
from ironic_like.osc.v1 import progress

# A rollout that looks finished before it was ever seen unfinished (no
# node selected yet, items not derived yet, a reapply not taken yet) is
# believed only after this many seconds.
SETTLE_TIME = 10.0
# Failed nodes named in the error of a --wait.
MAX_NAMED_FAILURES = 5

# Node counts of a configuration, in the order of the progress line.
NODE_STATES = ('ok', 'failed', 'running', 'pending', 'waiting')
SHORT_LABELS = {'ok': 'ok', 'failed': 'fail', 'running': 'run',
                'pending': 'pend', 'waiting': 'wait'}


def rollout_counts(doc):
    """{NODE_STATES..., 'total', 'done', 'left', 'percent'} of a
    configuration's node counts."""
    nodes = (doc or {}).get('nodes')
    nodes = nodes if isinstance(nodes, dict) else {}
    counts = {k: int(nodes[k]) if progress.is_number(nodes.get(k)) else 0
              for k in NODE_STATES}
    total = nodes.get('selected')
    if not progress.is_number(total):
        total = sum(counts.values())
    counts['total'] = int(total)
    counts['done'] = counts['ok'] + counts['failed']
    counts['left'] = max(0, counts['total'] - counts['done'])
    counts['percent'] = (min(100.0, 100.0 * counts['done'] / counts['total'])
                         if counts['total'] else 0.0)
    return counts


# -- per-node status --------------------------------------------------------

def _node_ident(entry):
    for key in ('node_name', 'node', 'node_uuid', 'node_id', 'uuid'):
        value = entry.get(key)
        if isinstance(value, dict):
            value = value.get('name') or value.get('uuid')
        if value:
            return value
    return None


def status_items(doc):
    """[(node, item)] of GET configurations/<name>/nodes: per node
    entries with their ``items`` (a list, or an object by item name), or
    flat per item entries naming their node."""
    if isinstance(doc, dict):
        entries = doc.get('nodes')
        if not isinstance(entries, list):
            entries = next((v for v in doc.values() if isinstance(v, list)),
                           [])
    else:
        entries = doc or []
    result = []
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        items = entry.get('items')
        if items is None and 'state' in entry:
            result.append((_node_ident(entry), entry))
            continue
        node = _node_ident(entry) or entry.get('name')
        if isinstance(items, dict):
            items = [dict(value, name=key) for key, value in
                     items.items() if isinstance(value, dict)]
        for item in items or ():
            if isinstance(item, dict):
                result.append((node, item))
        if not items:
            result.append((node, {}))
    return result


def item_name(item):
    return item.get('item') or item.get('name')


def failed_nodes(api, name):
    """[(node, item, exit code)] of the first failed item of each failed
    node of configuration ``name``."""
    doc = api.get(boot.path('configurations', name, 'nodes'),
                  {'state': 'failed'})
    seen = {}
    for node, item in status_items(doc):
        if item.get('state', 'failed') != 'failed' or node in seen:
            continue
        seen[node] = (node, item_name(item), item.get('exit_code'))
    return list(seen.values())


def format_failure(node, item, exit_code):
    details = [d for d in (item, None if exit_code is None
                           else 'exit code %s' % exit_code) if d]
    return '%s%s' % (node, ' (%s)' % ', '.join(details) if details else '')


def rollout_error(api, name, doc):
    """The CommandError of a finished (or paused) rollout with failed
    nodes, else None."""
    counts = rollout_counts(doc)
    paused = doc.get('status') == 'paused'
    if not counts['failed'] and not paused:
        return None
    failures = failed_nodes(api, name) if counts['failed'] else []
    failed = max(counts['failed'], len(failures))
    text = 'Configuration %s' % name
    if paused:
        text += ' is paused'
        if doc.get('status_reason'):
            text += ' (%s)' % http.one_line(doc['status_reason'])
    if failed:
        text += ': %d of %d nodes failed' % (failed, counts['total'])
        named = [format_failure(*f) for f in failures[:MAX_NAMED_FAILURES]]
        if named:
            text += ': %s' % '; '.join(named)
            if failed > len(named):
                text += '; and %d more' % (failed - len(named))
    if paused:
        if counts['left']:
            text += '; %d not configured' % counts['left']
        text += '. Resume with: openstack baremetal hostos configuration ' \
                'resume %s' % name
    else:
        text += '. See: openstack baremetal hostos configuration status ' \
                '%s --state failed' % name
    return osc_exc.CommandError(text)


# -- waiting for a rollout --------------------------------------------------

def plain_line(name, status, counts, elapsed, base=(0.0, 0)):
    """The progress line printed when the counts change (not a
    terminal)."""
    return ('Configuration %s %s: %d of %d nodes done (%d%%); %s; elapsed '
            '%s, ETA %s' % (name, status or 'unknown', counts['done'],
                            counts['total'], int(counts['percent']),
                            ', '.join('%s %d' % (k, counts[k])
                                      for k in NODE_STATES),
                            progress.duration(elapsed),
                            progress.format_eta(counts, elapsed, base)))


def _status(doc):
    return doc.get('status')


# What the progress of a rollout shows.
PROGRESS_VIEW = progress.View(
    counts=rollout_counts, state=_status, keys=NODE_STATES,
    short_labels=SHORT_LABELS, plain_line=plain_line, fraction=True)


def wait_rollout(command, name, timeout, settle=SETTLE_TIME):
    """Poll configuration ``name`` every hostos.POLL_INTERVAL seconds
    until each selected node is ok or failed, or the rollout is paused
    (``timeout`` seconds at most, if not 0 or None), showing the progress
    on stderr; the last configuration document.

    Right after an action (create, reapply, resume) a rollout that looks
    finished at once is believed after ``settle`` seconds only (or at the
    time-out, whichever comes first)."""
    app = command.app
    api = command.hostos
    progress_bar = progress.CountsProgress(app.stderr, name, PROGRESS_VIEW,
                                           command.progress_width)
    config_path = boot.path('configurations', name)
    start = command.clock()
    seen_busy = False
    try:
        while True:
            doc = api.get(config_path) or {}
            elapsed = command.clock() - start
            progress_bar.update(doc, elapsed)
            status = doc.get('status')
            counts = rollout_counts(doc)
            if status == 'paused':
                return doc
            if status in ('deleting', 'delete_failed'):
                raise osc_exc.CommandError(
                    'Configuration %s is being deleted (%s).'
                    % (name, status))
            timed_out = bool(timeout) and elapsed >= timeout
            if counts['left'] == 0:
                if seen_busy or elapsed >= settle or timed_out:
                    return doc
            else:
                seen_busy = True
            if timed_out:
                raise common.WaitTimeout(
                    'Timed out after %d seconds: configuration %s has %d of '
                    '%d nodes done (ok %d, failed %d; running %d, pending '
                    '%d, waiting %d). See: openstack baremetal hostos '
                    'configuration status %s'
                    % ((timeout, name, counts['done'], counts['total'])
                       + tuple(counts[k] for k in NODE_STATES) + (name,)))
            delay = hostos.POLL_INTERVAL
            if timeout:
                delay = max(0, min(delay, timeout - elapsed))
            if not seen_busy and counts['left'] == 0:
                delay = max(0, min(delay, settle - elapsed))
            command.sleep(delay)
    except KeyboardInterrupt:
        progress_bar.finish()
        app.stderr.write(
            'Stopped waiting; configuration %s goes on (see: openstack '
            'baremetal hostos configuration status %s).\n' % (name, name))
        raise
    finally:
        progress_bar.finish()


def finish_rollout(command, name, doc):
    """After wait_rollout: the CommandError of failures or a pause;
    a warning on stderr when the configuration selects no node."""
    error = rollout_error(command.hostos, name, doc)
    if error:
        raise error
    if not rollout_counts(doc)['total']:
        selector = hostos_selector.format_selector(
            doc.get('machine_selector'))
        command.app.stderr.write(
            'Warning: configuration %s selects no node%s.\n' % (
                name, ' (see: openstack baremetal node list '
                      '--label-selector \'%s\')' % selector
                if selector else ' (its selector is empty)'))
