"""session-setup: turn pending sessions into running ones. Resolves each
boot set's nodes (conductor/boot/targets.py), reads the boot manifest,
and writes every target node's desired (or, for a staged session,
staged) state in batches; then the session runs, and the status
operators of every conductor are woken."""

import json

from oslo_log import log
import requests

from ironic_like.common.boot import component_status as cs
from ironic_like.common.boot import limit as limit_parser
from ironic_like.common.boot import templates
from ironic_like.common import exception
from ironic_like.conductor.boot import component_writes
from ironic_like.conductor.boot import session_status
from ironic_like.conductor.boot import sessions
from ironic_like.conductor.boot import targets
from ironic_like.conductor.operators import base

LOG = log.getLogger(__name__)

NO_NODES = 'No nodes were found to act upon.'
MAX_MANIFEST_BYTES = 1024 * 1024


class SetupError(Exception):
    pass


def fetch_manifest(url, timeout):
    try:
        resp = requests.get(url, timeout=timeout, stream=True)
        body = resp.raw.read(MAX_MANIFEST_BYTES + 1, decode_content=True)
    except requests.RequestException as e:
        raise SetupError('boot manifest %s could not be read: %s' % (url, e))
    if resp.status_code != 200:
        raise SetupError('boot manifest %s could not be read: HTTP %d'
                         % (url, resp.status_code))
    if len(body) > MAX_MANIFEST_BYTES:
        raise SetupError('boot manifest %s is larger than %d bytes'
                         % (url, MAX_MANIFEST_BYTES))
    try:
        return templates.parse_manifest(json.loads(body))
    except (ValueError, templates.TemplateError) as e:
        raise SetupError('boot manifest %s is not valid: %s' % (url, e))


def boot_artifacts(boot_set, operation, options):
    """The artifacts a boot set's nodes should run ({} to be off)."""
    if operation == 'shutdown':
        return {}
    if boot_set.get('kernel'):
        image = {'kernel': boot_set['kernel'],
                 'initrd': boot_set.get('initrd') or '',
                 'kernel_parameters': ''}
    else:
        image = fetch_manifest(boot_set['path'],
                               options['bss_read_timeout'])
    return {'kernel': image['kernel'], 'initrd': image.get('initrd') or '',
            'kernel_parameters': templates.kernel_parameters(
                image.get('kernel_parameters') or '', boot_set, options)}


class SessionSetupOperator(base.Operator):
    name = 'session_setup'

    def run_once(self, options, node_ids=None):
        for name in self.ctx.db.list_boot_session_names(sessions.PENDING):
            if self._stop.is_set():
                break
            if self.ctx.owns_session(name):
                self.set_up(name, options)

    def set_up(self, name, options):
        db = self.ctx.db
        try:
            boot_session = db.get_boot_session(name)
        except exception.BootSessionNotFound:
            return
        try:
            planned = self._plan(boot_session, options)
        except (SetupError, limit_parser.LimitError) as e:
            self._fail(name, str(e))
            return
        if not planned:
            self._fail(name, NO_NODES)
            return
        # The writes are the same whoever makes them, so two conductors
        # that both think they own the session (the ring just changed) may
        # both write; the claim below has one winner. A conductor that
        # dies before the claim leaves the session pending for the next.
        names = []
        batch = int(options['max_component_batch_size'] or 0) or None
        for bs_name, (node_ids, values) in planned.items():
            ids = sorted(node_ids)
            step = batch or len(ids) or 1
            for start in range(0, len(ids), step):
                db.update_boot_components(ids[start:start + step],
                                          dict(values, boot_set=bs_name))
            names.extend(ids)
        try:
            db.update_boot_session(
                name, {'status': sessions.RUNNING,
                       'components': sorted(self._names(names))},
                expected_status=sessions.PENDING)
        except exception.BootSessionConflict:
            return
        LOG.info('Boot session %s running over %d nodes', name, len(names))
        self.ctx.wake_everywhere()

    def _names(self, node_ids):
        inventory = self._inventory
        return [inventory.name_of(n) for n in node_ids]

    def _plan(self, boot_session, options):
        """{boot set: (node ids, component values)}."""
        template = boot_session.template or {}
        self._inventory = targets.Inventory.load(self.ctx.db)
        running = self.ctx.db.list_boot_session_names(sessions.RUNNING)
        selections = targets.select(
            template, self._inventory, limit=boot_session.limit,
            include_disabled=boot_session.include_disabled,
            session_name=boot_session.name, running_sessions=running,
            takeover=boot_session.takeover)
        planned = {}
        for bs_name, selection in selections.items():
            if not selection.nodes:
                continue
            boot_set = template['boot_sets'][bs_name]
            try:
                artifacts = boot_artifacts(boot_set, boot_session.operation,
                                           options)
            except SetupError as e:
                raise SetupError('boot set %s: %s' % (bs_name, e))
            planned[bs_name] = (selection.nodes, self._values(
                boot_session, artifacts,
                templates.configuration_for(template, boot_set)))
        return planned

    @staticmethod
    def _values(boot_session, artifacts, configuration):
        now = component_writes.now_iso()
        state = {'boot_artifacts': artifacts,
                 'configuration': configuration if artifacts else '',
                 'last_updated': now}
        if boot_session.stage:
            return {'staged_state': dict(state, session=boot_session.name),
                    'staged_session': boot_session.name, 'error': None}
        values = {
            'desired_state': state, 'session': boot_session.name,
            'enabled': True, 'error': None,
            # Until the status operator has looked at the node (BOS sets
            # this on every write that enables a component).
            'status_override': cs.ON_HOLD, 'status': cs.ON_HOLD,
            'event_stats': dict(component_writes.EMPTY_EVENT_STATS),
            'last_action': {'action': cs.SESSION_SETUP, 'failed': False,
                            'last_updated': now},
        }
        if boot_session.operation == 'reboot':
            values['actual_state'] = {}
            values['actual_updated_at'] = None
        return values

    def _fail(self, name, error):
        LOG.warning('Boot session %s could not start: %s', name, error)
        try:
            session_status.freeze(self.ctx.db, name, {'error': error},
                                  expected_status=sessions.PENDING)
        except exception.IronicLikeException:
            pass
