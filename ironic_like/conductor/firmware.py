"""Firmware components of nodes (API 1.86): their versions, read by the
node's firmware interface into the firmware_information table (GET
/v1/nodes/{id}/firmware shows them).

As Ironic's node_cache_firmware_components: read when the node is
verified (manage) and when it is inspected; an interface that cannot
read them (no-firmware) records nothing, and a failed read is only
logged: it must never fail the verification or inspection around it.
"""

from oslo_log import log

from ironic_like.common import exception

LOG = log.getLogger(__name__)


def cache_components(task):
    """Refresh the node's firmware components (under the node's lock)."""
    firmware = getattr(task.driver, 'firmware', None)
    if firmware is None:
        return
    try:
        firmware.validate(task)
        firmware.cache_firmware_components(task)
    except exception.UnsupportedDriverExtension:
        return
    except Exception as e:
        LOG.warning('Node %s: the firmware components could not be read: '
                    '%s', task.node.uuid, exception.safe_message(e))
