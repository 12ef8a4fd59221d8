"""actual-state-cleanup: forget an actual state nobody has confirmed for
``component_actual_state_ttl`` (the reporter repeats every 0.75 x TTL, so
only a node that stopped reporting loses it)."""

import datetime

from oslo_utils import timeutils

from ironic_like.common.boot import component_status as cs
from ironic_like.common.boot import options as boot_options
from ironic_like.conductor.boot import component_writes
from ironic_like.conductor.operators import base


class ActualStateCleanupOperator(base.NodeOperator):
    name = 'actual_state_cleanup'
    action = cs.ACTUAL_STATE_CLEANUP

    def select(self, options, node_ids=None, now=None):
        ttl = boot_options.component_ttl_seconds(
            options['component_actual_state_ttl'])
        now = now or timeutils.utcnow()
        return self.ctx.db.list_boot_components(
            {'actual_updated_before': now - datetime.timedelta(
                seconds=ttl)})

    def act(self, component, node, options):
        self.ctx.db.update_boot_component(
            component.node_id,
            {'actual_state': {}, 'actual_updated_at': None,
             'last_action': {'action': self.action, 'failed': False,
                             'last_updated': component_writes.now_iso()}},
            expected={'actual_updated_at': component.actual_updated_at})
        return True
