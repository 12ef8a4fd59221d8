"""BIOS settings of nodes: read by the node's BIOS interface into the
bios_settings table (GET /v1/nodes/{id}/bios shows them).

As in Ironic, they are read when the node is verified (manage); a BIOS
interface that cannot read them (no-bios) leaves the table empty, and a
failed read is only logged: the BIOS cache must never fail a
verification whose power checks passed.
"""

from oslo_log import log

from ironic_like.common import exception

LOG = log.getLogger(__name__)


def cache_settings(task):
    """Refresh the node's cached BIOS settings (under the node's lock)."""
    bios = getattr(task.driver, 'bios', None)
    if bios is None:
        return
    try:
        bios.cache_bios_settings(task)
    except exception.UnsupportedDriverExtension:
        return
    except Exception as e:
        LOG.warning('Node %s: the BIOS settings could not be read: %s',
                    task.node.uuid, exception.safe_message(e))
