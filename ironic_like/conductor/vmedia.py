"""Virtual media of nodes (API 1.89): attach an image to a node's
virtual CD-ROM, disk or floppy, or detach it, through the management
interface. As Ironic's: validated and the last error cleared under the
exclusive lock, done in a worker that keeps the lock (the API answers
204 at once); a failure goes to last_error. Refused (409) while the node
is in maintenance for a power failure: its BMC is not answering. With
``image_download_source`` ``local`` (Ironic's default) the conductor
serves the image itself (vmedia_images); detaching removes it."""

from oslo_log import log

from ironic_like.common import exception
from ironic_like.conductor import locks
from ironic_like.conductor import node_flags
from ironic_like.conductor import vmedia_images

LOG = log.getLogger(__name__)

# Where the BMC reads an attached image (the API's image_download_source).
HTTP = 'http'
LOCAL = 'local'


def _start(context, executor, node_id, purpose, work, *args):
    with locks.acquire(context, node_id, purpose=purpose) as task:
        task.driver.management.validate(task)
        node = task.node
        if node.maintenance and node.fault == node_flags.POWER_FAILURE:
            raise exception.Conflict(
                'Unable to %s for node %s due to power failure state.'
                % (purpose, node.uuid))
        task.update_node({'last_error': None})
        task.set_spawn_error_hook(_not_started, purpose)
        task.spawn_after(executor, _do, purpose, work, *args)


def _not_started(task, error, purpose):
    task.update_node({'last_error': '%s was not started: %s'
                                    % (purpose.capitalize(), error)})


def _do(task, purpose, work, *args):
    try:
        work(task, *args)
    except Exception as e:
        if task.lock_lost:
            return  # the node's new owner carries on
        LOG.error('Node %s: %s failed: %s', task.node.uuid, purpose,
                  exception.safe_message(e))
        task.update_node({'last_error': 'Failed to %s: %s'
                                        % (purpose,
                                           exception.safe_message(e))})
        return
    LOG.info('Node %s: %s done', task.node.uuid, purpose)


def get(context, node_id):
    """The node's virtual media devices (1.93), read under a shared
    lock, as Ironic reads them."""
    with locks.acquire(context, node_id, shared=True,
                       purpose='getting virtual media') as task:
        task.driver.management.validate(task)
        return list(task.driver.management.get_virtual_media(task))


def _attach(task, device_type, image_url, image_download_source):
    uuid = task.node.uuid
    if image_download_source == LOCAL:
        # Replaces the device's served image whole once downloaded: the
        # image inserted now stays readable until then.
        image_url = vmedia_images.publish(uuid, device_type, image_url)
    try:
        task.driver.management.attach_virtual_media(task, device_type,
                                                    image_url)
    except Exception:
        if image_download_source == LOCAL:
            vmedia_images.unpublish(uuid, [device_type])
        raise
    if image_download_source != LOCAL:
        # The BMC reads the new image elsewhere: the one served before
        # for this device is no longer used.
        vmedia_images.unpublish(uuid, [device_type])


def _detach(task, device_types):
    try:
        task.driver.management.detach_virtual_media(task, device_types)
    finally:
        # As Ironic: the served images go even when the BMC failed.
        vmedia_images.unpublish(task.node.uuid, device_types)


def attach(context, executor, node_id, device_type, image_url,
           image_download_source=HTTP):
    """``image_download_source``: ``http``, the BMC reads ``image_url``;
    ``local``, the conductor downloads it and serves it from its boot
    file server (vmedia_images)."""
    _start(context, executor, node_id, 'attach virtual media (%s)'
           % device_type, _attach, device_type, image_url,
           image_download_source)


def detach(context, executor, node_id, device_types=None):
    _start(context, executor, node_id, 'detach virtual media', _detach,
           device_types)
