"""Creating, previewing and aborting sessions (the API's side of them;
the operators do the rest).

Better than BOS, on purpose (doc/boot-sessions.md): a bad limit (unknown
names, empty tokens) is a 400 naming them instead of silently matching
nothing; the template is copied into the session at creation; a session
that targets nodes a running session holds is refused (409) unless it
says it takes them over; a session can be aborted.
"""

import re
import uuid

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.common.boot import limit as limit_parser
from ironic_like.common.boot import options as boot_options
from ironic_like.common.boot import templates
from ironic_like.common import exception
from ironic_like.conductor.boot import records
from ironic_like.conductor.boot import session_status
from ironic_like.conductor.boot import targets

LOG = log.getLogger(__name__)

PENDING = 'pending'
RUNNING = 'running'
COMPLETE = 'complete'
OPERATIONS = ('boot', 'reboot', 'shutdown')
ABORTED = 'aborted'
# BOS: a limit token that looks like a NID (with `reject_nids`).
_NID = re.compile(r'^[&!]*nid')


def _template_doc(db, name):
    try:
        return records.template_dict(db.get_boot_template(name))
    except exception.BootTemplateNotFound:
        raise exception.InvalidParameterValue(
            err='Session template %s does not exist.' % name,
            field='template_name')


def _check_request(db, values, opts):
    operation = values.get('operation')
    if operation not in OPERATIONS:
        raise exception.InvalidParameterValue(
            err='operation must be one of %s, not %r.'
                % (', '.join(OPERATIONS), operation), field='operation')
    template = _template_doc(db, values.get('template_name'))
    errors, _warnings = templates.validate_template(template, operation)
    if errors:
        raise exception.InvalidParameterValue(
            err='Session template %s is not valid: %s'
                % (template['name'], '; '.join(errors)),
            field='template_name')
    limit = values.get('limit')
    if opts['session_limit_required'] and not limit:
        raise exception.InvalidParameterValue(
            err='A limit is required (the option session_limit_required is '
                'set); use * for all nodes.', field='limit')
    if limit and opts['reject_nids']:
        nids = [t for t in limit.split(',') if _NID.match(t)]
        if nids:
            raise exception.InvalidParameterValue(
                err='The limit names NIDs, which are rejected (option '
                    'reject_nids): %s.' % ', '.join(nids), field='limit')
    return template


def _select(db, values, template, session_name=None):
    inventory = targets.Inventory.load(db)
    running = db.list_boot_session_names(RUNNING)
    try:
        selections = targets.select(
            template, inventory, limit=values.get('limit') or None,
            include_disabled=bool(values.get('include_disabled')),
            session_name=session_name, running_sessions=running,
            takeover=bool(values.get('takeover')))
    except limit_parser.LimitError as e:
        raise exception.InvalidParameterValue(err=str(e), field='limit')
    return inventory, selections


def preview(db, values):
    """Per boot set, the nodes a session would act on and why the others
    are left out. Changes nothing."""
    opts = boot_options.effective(db.get_boot_options())
    template = _check_request(db, values, opts)
    inventory, selections = _select(db, values, template)
    return {'template_name': template['name'],
            'operation': values['operation'],
            'boot_sets': {name: selection.as_dict(inventory)
                          for name, selection in selections.items()}}


def create_session(db, values):
    opts = boot_options.effective(db.get_boot_options())
    template = _check_request(db, values, opts)
    name = values.get('name') or str(uuid.uuid4())
    inventory, selections = _select(db, values, template, name)
    held = targets.held_by_other_sessions(selections)
    if held:
        raise exception.BootSessionConflict(reason=(
            'Running sessions hold nodes this session targets: %s. Set '
            'takeover to take them over.' % '; '.join(
                '%s: %s' % (session, ', '.join(sorted(
                    inventory.name_of(n) for n in nodes)[:20]))
                for session, nodes in sorted(held.items()))))
    boot_session = db.create_boot_session({
        'name': name, 'tenant': None, 'operation': values['operation'],
        'template_name': template['name'], 'template': template,
        'limit': values.get('limit') or None,
        'stage': bool(values.get('stage')),
        'include_disabled': bool(values.get('include_disabled')),
        'takeover': bool(values.get('takeover')),
        'components': [], 'status': PENDING,
        'start_time': timeutils.utcnow()})
    LOG.info('Boot session %s created: %s of template %s', name,
             values['operation'], template['name'])
    return boot_session


def abort_session(db, name):
    """Disable the session's components (nothing further is powered) and
    complete it with the error ``aborted``."""
    boot_session = db.get_boot_session(name)
    if boot_session.status == COMPLETE:
        raise exception.BootSessionConflict(
            reason='Session %s is already complete.' % name)
    # Only the components still at work for it: one that finished (the
    # session may complete meanwhile, and then the abort is refused)
    # keeps its outcome.
    for component, _node in db.list_boot_components(
            {'session': name, 'enabled': True}):
        try:
            db.update_boot_component(
                component.node_id,
                {'enabled': False, 'error': 'session %s aborted' % name},
                expected={'session': name, 'enabled': True})
        except exception.BootComponentChanged:
            continue
    for component, _node in db.list_boot_components(
            {'staged_session': name}):
        db.update_boot_component(component.node_id, {
            'staged_state': {}, 'staged_session': None})
    boot_session = session_status.freeze(db, name, {'error': ABORTED})
    LOG.info('Boot session %s aborted', name)
    return boot_session
