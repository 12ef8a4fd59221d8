"""Writes to components from outside the operators (API clients, the
reporter), with BOS's server-side rules (bos-v2.md section 1,
``_set_auto_fields``):

* ``actual_state.bss_token`` is resolved to its boot artifacts;
* any write with ``enabled=true`` sets ``status_override=on_hold``, so no
  operator acts before the status operator has looked at the node again;
* a ``desired_state`` write without ``session`` blanks ``session``;
* a write that changes the desired artifacts or configuration resets
  ``event_stats``;
* the reporter's write is refused (409) while BOS is powering the node
  off, or anything else but booting it: it would look booted too early.
"""

import functools

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.common.boot import component_status as cs
from ironic_like.common import exception
from ironic_like.conductor.boot import records

LOG = log.getLogger(__name__)

# Component fields stored in a JSON column of the same name.
STATE_FIELDS = ('actual_state', 'desired_state', 'staged_state',
                'last_action', 'event_stats')
PLAIN_FIELDS = ('enabled', 'error', 'session', 'retry_policy')
EMPTY_EVENT_STATS = {'power_on_attempts': 0,
                     'power_off_graceful_attempts': 0,
                     'power_off_forceful_attempts': 0}


class TokenNotIssued(exception.NotAuthorized):
    msg_fmt = ('Referral token not issued to component %(id)s: nothing '
               'recorded.')


def now_iso():
    return records.isoformat(timeutils.utcnow())


def resolve_actual_state(db, actual_state):
    """Fill in the boot artifacts a reported token stands for."""
    state = dict(actual_state)
    token = state.get('bss_token')
    if token:
        artifacts = db.get_boot_artifacts(token)
        if artifacts is None:
            LOG.warning('Unknown referral token reported; the boot '
                        'artifacts are kept as sent')
        else:
            state['boot_artifacts'] = artifacts_dict(artifacts)
    state['last_updated'] = now_iso()
    return state


def artifacts_dict(artifacts):
    return {'kernel': artifacts.kernel or '',
            'initrd': artifacts.initrd or '',
            'kernel_parameters': artifacts.kernel_parameters or ''}


def _merged(current, patch):
    merged = dict(current or {})
    merged.update(patch)
    return merged


def to_values(db, component, patch, replace=False):
    """Column values for a component patch (a record in the API shape).
    ``replace``: the record replaces the component (PUT)."""
    values = {}
    for field in STATE_FIELDS:
        if field not in patch:
            continue
        new = dict(patch[field] or {})
        if not replace:
            new = _merged(getattr(component, field), new)
        if field == 'actual_state':
            new = resolve_actual_state(db, new)
            values['actual_updated_at'] = timeutils.utcnow()
        elif field in ('desired_state', 'staged_state'):
            new['last_updated'] = now_iso()
        values[field] = new
    for field in PLAIN_FIELDS:
        if field in patch:
            values[field] = patch[field]
    status = patch.get('status') or {}
    if 'phase' in status:
        values['phase'] = status['phase'] or ''
    if 'status_override' in status:
        values['status_override'] = status['status_override'] or None
    if 'staged_state' in values:
        values['staged_session'] = (values['staged_state'].get('session')
                                    or None)
    _auto_fields(component, patch, values)
    return values


def _auto_fields(component, patch, values):
    if values.get('enabled'):
        values['status_override'] = cs.ON_HOLD
    if 'desired_state' in patch and 'session' not in patch:
        values['session'] = None
    desired = patch.get('desired_state') or {}
    current = component.desired_state or {}
    if any(key in desired and desired[key] != current.get(key)
           for key in ('boot_artifacts', 'configuration')):
        values['event_stats'] = dict(EMPTY_EVENT_STATS)


def _node_id(db, ident):
    try:
        return db.get_node(ident).id
    except exception.NodeNotFound:
        raise exception.BootComponentNotFound(id=ident)


def patch_component(db, ident, patch):
    """PATCH one component; returns (component, node)."""
    node_id = _node_id(db, ident)
    component, node = db.get_boot_component(node_id)
    check = None
    if 'actual_state' in patch:
        _check_accepts_actual_state(component, ident)  # before any work
        # Again under the row lock: an operator may move it meanwhile.
        check = functools.partial(_check_accepts_actual_state, ident=ident)
    values = to_values(db, component, patch)
    component = db.update_boot_component(node_id, values, check=check)
    return component, node


def put_component(db, ident, record):
    """PUT: replace a component's record."""
    node_id = _node_id(db, ident)
    component, node = db.get_boot_component(node_id)
    record = dict(record)
    for field in STATE_FIELDS:
        record.setdefault(field, {})
    values = to_values(db, component, record, replace=True)
    component = db.update_boot_component(node_id, values)
    return component, node


def _check_accepts_actual_state(component, ident):
    if not _accepts_actual_state(component):
        raise exception.BootSessionConflict(
            reason='Component %s is %s after %s: its actual state is not '
                   'taken now.' % (ident, component.status,
                                   (component.last_action or {}).get(
                                       'action') or 'no action'))


def _accepts_actual_state(component):
    return (not component.enabled or component.status == cs.STABLE
            or (component.last_action or {}).get('action') == cs.POWERING_ON)


def report(db, ident, token):
    """The booted OS's reporter: its referral token is its credential and
    its actual state. Returns the component's node id."""
    node_id = _node_id(db, ident)
    artifacts = db.get_boot_artifacts(token)
    if artifacts is None or artifacts.node_id != node_id:
        raise TokenNotIssued(id=ident)

    def check(component):
        # Under the row lock: no operator changes the status meanwhile.
        if not _accepts_actual_state(component):
            raise exception.BootSessionConflict(
                reason='Component %s is %s: the report is not taken now; '
                       'try again later.' % (ident, component.status))
    db.update_boot_component(node_id, {
        'actual_state': {'boot_artifacts': artifacts_dict(artifacts),
                         'bss_token': token, 'last_updated': now_iso()},
        'actual_updated_at': timeutils.utcnow()}, check=check)
    return node_id


def bulk_patch(db, body, skip_bad_ids=False):
    """PATCH /components: a list of records with ids, or {patch, filters}
    with filters {ids: "a,b"} or {session: name}. Returns [(c, node)]."""
    if isinstance(body, list):
        pairs = [(record.get('id'), {k: v for k, v in record.items()
                                     if k != 'id'}) for record in body]
    else:
        filters = body.get('filters') or {}
        patch = body.get('patch') or {}
        if filters.get('ids'):
            ids = [i for i in filters['ids'].split(',') if i]
        elif filters.get('session'):
            ids = [records.component_id(node) for _c, node in
                   db.list_boot_components(
                       {'session': filters['session']})]
        else:
            raise exception.InvalidParameterValue(
                err='filters needs ids or session.', field='filters')
        pairs = [(ident, patch) for ident in ids]
    # Every id is checked before anything is written: a bad one changes
    # nothing (unless the caller asked to skip bad ids).
    known = []
    for ident, patch in pairs:
        try:
            node_id = _node_id(db, ident)
        except exception.BootComponentNotFound:
            if not skip_bad_ids:
                raise
            continue
        if 'actual_state' in patch:
            _check_accepts_actual_state(db.get_boot_component(node_id)[0],
                                        ident)
        known.append((ident, patch))
    return [patch_component(db, ident, patch) for ident, patch in known]
