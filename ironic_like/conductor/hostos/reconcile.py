"""The conductor's periodic pass over host OS configuration: each
conductor looks after the configurations and modules it owns on the hash
ring (by name), so that the work is spread and done once.

- Items are derived at once on every change (API, label updates); this
  pass derives them again for its configurations, which repairs what a
  lost race between two changes could leave behind.
- A module whose verification was lost (a conductor died, a cast was
  dropped) is verified.
- A configuration being deleted disappears once no node holds its items,
  or turns ``delete_failed`` after [hostos]delete_timeout naming the
  nodes that never answered.
"""

import datetime

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.common import exception
from ironic_like.conductor.hostos import modules
from ironic_like.conf import CONF
from ironic_like.db.sqlalchemy import hostos as hostos_db

LOG = log.getLogger(__name__)

# A module still verifying this long after it was registered lost its
# verification: the conductor owning it verifies it.
STALE_VERIFICATION = datetime.timedelta(seconds=30)


def _owned(ring, host, key):
    try:
        return ring.owner_of_key(key) == host
    except exception.NoValidHost:
        return False


def finish_delete(db, configuration):
    """Delete a ``deleting`` configuration once nothing holds its items,
    or mark it ``delete_failed`` after the timeout. True if it is gone."""
    if db.finish_hostos_configuration_delete(configuration.id):
        LOG.info('Configuration %s deleted', configuration.name)
        return True
    if configuration.status != hostos_db.DELETING:
        return False
    started = configuration.delete_started_at or configuration.updated_at
    limit = datetime.timedelta(seconds=CONF.hostos.delete_timeout)
    if started is None or timeutils.utcnow() - started < limit:
        return False
    holding = db.hostos_nodes_holding(configuration.id)
    names = [name or uuid for uuid, name in holding]
    reason = ('%d node(s) never dropped the items of this configuration '
              'within [hostos]delete_timeout (%d s): %s. Their host agents '
              'are not answering; delete again to wait anew, or delete or '
              'undeploy those nodes.' % (len(names),
                                         CONF.hostos.delete_timeout,
                                         ', '.join(names[:50])))
    db.update_hostos_configuration(
        configuration.id, {'status': hostos_db.DELETE_FAILED,
                           'status_reason': reason},
        expected={'status': hostos_db.DELETING})
    LOG.warning('Configuration %s: %s', configuration.name, reason)
    return False


def run(db, ring, host):
    """One pass; returns counts for the logs and tests."""
    counts = {'synced': 0, 'deleted': 0, 'verified': 0}
    now = timeutils.utcnow()
    for module in db.list_hostos_modules(
            {'state': hostos_db.MODULE_VERIFYING}):
        if (module.created_at and now - module.created_at
                < STALE_VERIFICATION):
            continue
        if _owned(ring, host, 'hostos-module:%s' % module.name):
            modules.verify(db, module.id)
            counts['verified'] += 1
    for configuration in db.list_hostos_configurations():
        if not _owned(ring, host,
                      'hostos-configuration:%s' % configuration.name):
            continue
        try:
            if configuration.status in hostos_db.LIVE_STATUSES:
                db.sync_hostos_items([configuration.id])
                counts['synced'] += 1
            elif configuration.status == hostos_db.DELETING:
                counts['deleted'] += int(finish_delete(db, configuration))
        except hostos_db.SYNC_LEFT_FOR_LATER as e:
            # The others are still handled; this one at the next pass.
            LOG.warning('Host OS configuration %(name)s not reconciled in '
                        'this pass: %(error)s',
                        {'name': configuration.name, 'error': e})
    return counts
