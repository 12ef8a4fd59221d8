"""A node's history (Ironic API 1.78): the events worth an operator's
look afterwards, journaled in the node_history table.

Recorded in one place, the node task's update_node(): whenever a write
gives the node a new last_error (an ERROR event) or a new fault (the
service put it in maintenance: a WARNING event), so every failure path
of every flow is covered without a call at each. The event type follows
the work the lock was taken for (its purpose), as Ironic's event types
(provisioning, deployment, cleaning, power, console, rescue, inspection,
maintenance) name it. Recording never fails the work: an error is only
logged.

A periodic task on each conductor prunes the table
([conductor]node_history_cleanup_interval).
"""

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.conf import CONF
from ironic_like.db import api as db_api

LOG = log.getLogger(__name__)

ERROR = 'ERROR'
WARNING = 'WARNING'
INFO = 'INFO'

# The first word of a lock purpose found here names the event type.
_TYPES = (
    ('power', 'power'),
    ('console', 'console'),
    ('clean', 'cleaning'),
    ('deploy', 'deployment'),
    ('rescue', 'rescue'),
    ('inspect', 'inspection'),
    ('heartbeat', 'deployment'),
    ('maintenance', 'maintenance'),
)


def event_type(purpose, node=None):
    purpose = (purpose or '').lower()
    for word, kind in _TYPES:
        if word in purpose:
            return kind
    state = (getattr(node, 'provision_state', None) or '').lower()
    for word, kind in _TYPES:
        if word in state:
            return kind
    return 'provisioning'


def record(node, event, kind, severity=ERROR, context=None):
    """Journal ``event`` for ``node`` (nothing when [conductor]node_history
    is off)."""
    if not CONF.conductor.node_history or not event:
        return
    try:
        db_api.get_instance().record_node_history({
            'node_id': node.id, 'event': event, 'event_type': kind,
            'severity': severity, 'conductor': CONF.host,
            'user': getattr(context, 'user_id', None),
            'project': getattr(context, 'project_id', None),
            # API 1.115: where the node was, and for how long.
            'state': getattr(node, 'provision_state', None),
            'target_provision_state': getattr(
                node, 'target_provision_state', None),
            'duration_seconds': _seconds_since(
                getattr(node, 'provision_updated_at', None))})
    except Exception as e:
        LOG.warning('Node %s: history event not recorded: %s', node.uuid, e)


def _seconds_since(when):
    if when is None:
        return None
    if when.tzinfo is not None:
        when = when.replace(tzinfo=None) - when.utcoffset()
    return max(0, int((timeutils.utcnow() - when).total_seconds()))


def note_update(task, before, values):
    """Journal what an update of the node (``values``, written under the
    task's lock; ``before`` the node as it was) is worth remembering."""
    error = values.get('last_error')
    if error and error != getattr(before, 'last_error', None):
        record(task.node, error, event_type(task.purpose, task.node),
               ERROR, task.context)
    fault = values.get('fault')
    if fault and fault != getattr(before, 'fault', None):
        reason = (values.get('maintenance_reason')
                  or task.node.maintenance_reason or fault)
        record(task.node, 'Maintenance set (%s): %s' % (fault, reason),
               'maintenance', WARNING, task.context)


def prune():
    """One clean-up pass (the periodic task)."""
    days = CONF.conductor.node_history_minimum_days
    batch = CONF.conductor.node_history_cleanup_batch_count
    if not batch:
        return 0
    removed = db_api.get_instance().prune_node_history(
        CONF.conductor.node_history_max_entries, days * 86400, batch)
    if removed:
        LOG.info('Node history: %d old events removed', removed)
    return removed
