"""session-cleanup: delete complete sessions older than
``cleanup_completed_session_ttl`` (0 in any unit disables it). One
conductor does it: the ring owner of this operator's name."""

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.common.boot import options as boot_options
from ironic_like.conductor.boot import sessions
from ironic_like.conductor.operators import base

LOG = log.getLogger(__name__)


class SessionCleanupOperator(base.Operator):
    name = 'session_cleanup'

    def run_once(self, options, node_ids=None, now=None):
        ttl = boot_options.ttl_seconds(
            options['cleanup_completed_session_ttl'])
        if not ttl or not self.ctx.owns_session(self.name):
            return
        now = now or timeutils.utcnow()
        old = [s.name for s in self.ctx.db.list_boot_sessions(
            status=sessions.COMPLETE)
            if s.end_time is not None
            and (now - s.end_time).total_seconds() > ttl]
        if old:
            self.ctx.db.delete_boot_sessions(old)
            LOG.info('Deleted %d boot sessions complete for longer than %s',
                     len(old), options['cleanup_completed_session_ttl'])
