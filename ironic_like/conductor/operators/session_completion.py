"""session-completion: a running session whose components are all done
(none enabled for it, none staged for it) completes, with its status
computed one last time and frozen (BOS's rule, tenant-blind as we have
no tenants yet)."""

from oslo_log import log

from ironic_like.common import exception
from ironic_like.conductor.boot import session_status
from ironic_like.conductor.boot import sessions
from ironic_like.conductor.operators import base

LOG = log.getLogger(__name__)


class SessionCompletionOperator(base.Operator):
    name = 'session_completion'

    def run_once(self, options, node_ids=None):
        db = self.ctx.db
        for name in db.list_boot_session_names(sessions.RUNNING):
            if self._stop.is_set():
                break
            if not self.ctx.owns_session(name) or db.has_session_work(name):
                continue
            try:
                boot_session = session_status.freeze(
                    db, name, {}, expected_status=sessions.RUNNING)
            except exception.BootSessionConflict:
                # Completed or aborted meanwhile (by another conductor
                # that owned it a moment ago, or the API): its status
                # is frozen already and stays as it was.
                LOG.debug('Boot session %s was completed meanwhile', name)
                continue
            LOG.info('Boot session %s complete: %s', name,
                     boot_session.final_status.get('counts'))
