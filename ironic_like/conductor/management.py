"""The node's management interface through the API: its boot device
(GET/PUT /v1/nodes/{id}/management/boot_device, .../supported) and a
non-maskable interrupt (PUT .../management/inject_nmi, 1.29).

Reads take the node's lock shared, changes exclusive, as Ironic does; an
operation the interface lacks is UnsupportedDriverExtension (400).
"""

from oslo_log import log

from ironic_like.common import exception
from ironic_like.conductor import locks
from ironic_like.drivers import base

LOG = log.getLogger(__name__)


def get_boot_device(context, node_id):
    with locks.acquire(context, node_id, shared=True,
                       purpose='getting boot device') as task:
        management = task.driver.management
        management.validate(task)
        return management.get_boot_device(task)


def get_supported_boot_devices(context, node_id):
    with locks.acquire(context, node_id, shared=True,
                       purpose='getting supported boot devices') as task:
        return list(task.driver.management.get_supported_boot_devices(task))


def _check_boot_device(task, device):
    management = task.driver.management
    management.validate(task)
    supported = management.get_supported_boot_devices(task)
    if supported and device not in supported:
        raise exception.InvalidParameterValue(
            err='Invalid boot device %s specified; node %s supports: %s.'
                % (device, task.node.uuid, ', '.join(supported)),
            field='boot_device')


def set_boot_device(context, node_id, device, persistent=False):
    # Refused requests are refused before the exclusive lock, whose taking
    # alone writes the node row.
    with locks.acquire(context, node_id, shared=True,
                       purpose='checking boot device') as task:
        _check_boot_device(task, device)
    with locks.acquire(context, node_id,
                       purpose='setting boot device') as task:
        _check_boot_device(task, device)
        task.driver.management.set_boot_device(task, device,
                                               persistent=persistent)
        LOG.info('Node %s: boot device set to %s (persistent: %s)',
                 task.node.uuid, device, persistent)


def _check_nmi(task):
    management = task.driver.management
    management.validate(task)
    if type(management).inject_nmi is base.ManagementInterface.inject_nmi:
        raise base.unsupported(task, 'inject_nmi')


def inject_nmi(context, node_id):
    with locks.acquire(context, node_id, shared=True,
                       purpose='checking inject nmi') as task:
        _check_nmi(task)
    with locks.acquire(context, node_id, purpose='inject nmi') as task:
        _check_nmi(task)
        task.driver.management.inject_nmi(task)
        LOG.info('Node %s: NMI injected', task.node.uuid)
