"""Virtual media images the conductor serves itself (the vmedia API's
``image_download_source`` ``local``, Ironic's default): the image is
downloaded from ``image_url`` into ``[deploy]http_root/vmedia/`` and the
BMC is given its URL under ``[deploy]http_url``, so that a BMC on the
management network reads it from the conductor rather than from
wherever the image lives. One file per node and device
(``<device>-<node uuid>.iso`` for a CD, ``.img`` otherwise, Ironic's
names), replaced whole (written aside, then renamed) by a new attach,
removed by the detach."""

import glob
import os

from oslo_log import log

from ironic_like.common import masking
from ironic_like.common import published_files
from ironic_like.common import states
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

SUBDIR = 'vmedia'


def file_name(node_uuid, device_type):
    return '%s-%s.%s' % (device_type, node_uuid,
                         'iso' if device_type == 'cdrom' else 'img')


def _path(name):
    return os.path.join(CONF.deploy.http_root, SUBDIR, name)


def url_of(node_uuid, device_type):
    return '%s/%s/%s' % (CONF.deploy.http_url.rstrip('/'), SUBDIR,
                         file_name(node_uuid, device_type))


def publish(node_uuid, device_type, image_url):
    """Download ``image_url`` to the node's file of ``device_type``
    (replacing the one there whole, only once the download is complete)
    and return the URL the BMC reads it from."""
    name = file_name(node_uuid, device_type)
    with published_files.replaced_whole(_path(name), prefix='.%s.' % name,
                                        binary=True) as fileobj:
        size = published_files.download(image_url, fileobj,
                                        'virtual media')
    LOG.info('Node %s: %s image published for its %s (%d bytes)',
             node_uuid, masking.mask_text(
                 masking.mask_url_password(image_url)), device_type, size)
    return url_of(node_uuid, device_type)


def unpublish(node_uuid, device_types=None):
    """Remove the node's served images of ``device_types`` (all when
    None), and what a download cut short (a conductor that died) left
    beside them; nothing to remove is no error."""
    for device_type in device_types or states.VMEDIA_DEVICES:
        name = file_name(node_uuid, device_type)
        published_files.remove(_path(name))
        for partial in glob.glob(_path('.%s.*' % glob.escape(name))):
            published_files.remove(partial)
