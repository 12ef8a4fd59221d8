"""Rollout control: the failure threshold that pauses a configuration,
and resuming it. (max_concurrent is enforced where nodes are released,
in the heartbeat, under the configuration's row lock.)"""

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.db.sqlalchemy import hostos as hostos_db

LOG = log.getLogger(__name__)


def check_thresholds(db, configuration_ids):
    """Pause the configurations among ``configuration_ids`` that reached
    their failure threshold; the names of those paused now."""
    paused = []
    if not configuration_ids:
        return paused
    for configuration in db.list_hostos_configurations(
            {'ids': sorted(configuration_ids)}):
        threshold = configuration.failure_threshold
        if not threshold or configuration.status != hostos_db.ACTIVE:
            continue
        failed = db.failed_hostos_nodes(configuration.id,
                                        since=configuration.resumed_at)
        if len(failed) < threshold:
            continue
        nodes = db.get_node_list({'id_in': failed}, columns=['uuid', 'name'])
        names = sorted(n.name or n.uuid for n in nodes)
        reason = ('rollout paused: %d node(s) failed, failure_threshold is '
                  '%d (%s); fix the cause, then resume the configuration'
                  % (len(failed), threshold, ', '.join(names[:20])))
        if db.update_hostos_configuration(
                configuration.id,
                {'status': hostos_db.PAUSED, 'status_reason': reason},
                expected={'status': hostos_db.ACTIVE}) is not None:
            LOG.warning('Configuration %s: %s', configuration.name, reason)
            paused.append(configuration.name)
    return paused


def resume(db, configuration):
    """Lift a pause: failures before now no longer count."""
    return db.update_hostos_configuration(
        configuration.id,
        {'status': hostos_db.ACTIVE, 'status_reason': None,
         'resumed_at': timeutils.utcnow()},
        expected={'status': hostos_db.PAUSED})
