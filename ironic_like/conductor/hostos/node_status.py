"""What a configuration's items say about one node: the configuration
service of boot sessions (a component whose desired configuration is
a configuration's name is configured when all its items are ok)."""

from ironic_like.common.hostos import items as hostos_items
from ironic_like.common import exception
from ironic_like.db.sqlalchemy import hostos as hostos_db

CONFIGURED = 'configured'
FAILED = 'failed'
PENDING = 'pending'


def configuration_status(db, node_id, name):
    """(status, reason): 'configured', 'failed' or 'pending'."""
    try:
        configuration = db.get_hostos_configuration(name)
    except exception.HostOSConfigurationNotFound:
        return FAILED, 'host OS configuration %s does not exist' % name
    if configuration.status not in hostos_db.LIVE_STATUSES:
        return FAILED, ('host OS configuration %s is %s'
                        % (name, configuration.status))
    rows = db.list_hostos_item_status([configuration.id], [node_id])
    if not rows:
        return FAILED, ('host OS configuration %s does not select this '
                        'node (its machine_selector does not match the '
                        'node\'s labels)' % name)
    paused = configuration.status != hostos_db.ACTIVE
    state = hostos_items.node_state(
        [hostos_db.item_state(r, paused) for r in rows])
    if state == 'ok':
        return CONFIGURED, None
    if state == 'failed':
        return FAILED, ('host OS configuration %s failed on this node'
                        % name)
    return PENDING, None
