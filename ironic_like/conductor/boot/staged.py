"""applystaged: make a component's staged state its desired state
(bos-v2.md section 1, applystaged; ``clear_stage`` as BOS's code has it:
true empties the staged state, false keeps it, and then the staged
session never completes; the seed's prose says the opposite)."""

from ironic_like.common.boot import component_status as cs
from ironic_like.common.boot import options as boot_options
from ironic_like.common import exception
from ironic_like.conductor.boot import component_writes
from ironic_like.conductor.boot import records


def _failure(db, node_id, session_name, error):
    db.update_boot_component(node_id, {
        'error': error, 'enabled': False, 'session': session_name})


def _artifacts_complete(artifacts):
    return all((artifacts or {}).get(key)
               for key in ('kernel', 'kernel_parameters', 'initrd'))


def apply_staged(db, component_ids):
    opts = boot_options.effective(db.get_boot_options())
    outcome = {'succeeded': [], 'failed': [], 'ignored': []}
    for ident in component_ids:
        try:
            node_id = db.get_node(ident).id
            component, node = db.get_boot_component(node_id)
        except (exception.NodeNotFound, exception.BootComponentNotFound):
            outcome['failed'].append(ident)
            continue
        staged = dict(component.staged_state or {})
        session_name = staged.get('session')
        if not session_name:
            outcome['ignored'].append(ident)
            continue
        try:
            boot_session = db.get_boot_session(session_name)
        except exception.BootSessionNotFound:
            _failure(db, node_id, session_name,
                     'Staged session no longer exists')
            outcome['failed'].append(ident)
            continue
        artifacts = staged.get('boot_artifacts') or {}
        if boot_session.operation == 'shutdown':
            bad = any(artifacts.values())
            reason = 'a shutdown with boot artifacts staged'
        else:
            bad = not _artifacts_complete(artifacts)
            reason = ('%s without kernel, kernel_parameters and initrd all '
                      'staged' % boot_session.operation)
        if bad:
            _failure(db, node_id, session_name,
                     'Staged state is not valid: %s' % reason)
            outcome['failed'].append(ident)
            continue
        values = {
            'desired_state': {
                'boot_artifacts': artifacts,
                'configuration': staged.get('configuration') or '',
                'last_updated': component_writes.now_iso()},
            'enabled': True,
            'status_override': cs.ON_HOLD,
            'session': session_name,
            'error': None,
            'event_stats': dict(component_writes.EMPTY_EVENT_STATS),
            'last_action': {'action': cs.APPLY_STAGED, 'failed': False,
                            'last_updated': component_writes.now_iso()},
        }
        if boot_session.operation == 'reboot':
            values['actual_state'] = {}
        if opts['clear_stage']:
            values['staged_state'] = {}
            values['staged_session'] = None
        db.update_boot_component(node_id, values)
        outcome['succeeded'].append(records.component_id(node))
    return outcome
