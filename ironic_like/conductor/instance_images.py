"""Instance images the conductor caches and serves to the deploy agent,
as Ironic's ``image_download_source`` says (the node's
``instance_info``, else its ``driver_info``, else
``[agent]image_download_source``):

- an http(s) ``image_source`` is given to the agent as it is (``http``,
  the default), or cached here too (``local``);
- a Glance image (its ID, or ``glance://<id>``) is read from Glance
  (common/glance.py) and cached; ``swift`` (Ironic's Swift temporary
  URLs) is refused: there is no object store here;
- a ``file://`` image (under ``[conductor]file_url_allowed_paths``) is
  copied into the cache.

The cache (common/image_cache.py) is ``[pxe]instance_master_path``: one
file per image, checked against the image's checksum while it is
written. The node deploying it gets a hard link
``[deploy]http_root/<[deploy]http_image_subdir>/<node uuid>``, served at
``[deploy]http_url``, and removed once the agent wrote the image, when
the deploy fails (the periodic sweep: a link of a node not deploying),
when its instance is torn down or the node deleted.
"""

import functools
import hashlib
import os
import time

from oslo_log import log
from oslo_utils import uuidutils

from ironic_like.common import exception
from ironic_like.common import file_urls
from ironic_like.common import glance
from ironic_like.common import image_cache
from ironic_like.common import published_files
from ironic_like.common import states
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

HTTP = 'http'
GLANCE = 'glance'
FILE = 'file'
FIELD = 'instance_info/image_source'
# How old the files a dead conductor left half written must be to go.
FETCH_TIMEOUT = image_cache.FETCH_TIMEOUT
# Where a node's link is still needed: its agent may be downloading.
_DEPLOYING = frozenset([states.DEPLOYING, states.DEPLOYWAIT])


def source_kind(source):
    """(HTTP, GLANCE or FILE, the URL or the Glance image ID in its
    canonical form) of an ``image_source``; InvalidParameterValue naming
    it otherwise."""
    text = str(source or '')
    if text.startswith(('http://', 'https://')):
        return HTTP, text
    if text.startswith('file://'):
        return FILE, text
    ref = glance.image_ref(text)
    if ref is not None:
        return GLANCE, ref
    raise exception.InvalidParameterValue(
        'instance_info.image_source must be an http(s) URL, a Glance image '
        'ID (or glance://<ID>) or a file:// URL (got %r).' % (source,),
        field=FIELD)


# Ironic's values of image_download_source.
SOURCES = ('swift', 'http', 'local')
SOURCE_KEY = 'image_download_source'


def download_source(node):
    """Where ``node``'s agent gets its instance image: ``instance_info``'s
    image_download_source, else ``driver_info``'s, else
    ``[agent]image_download_source`` (Ironic's order).
    InvalidParameterValue naming the field whose value is none of
    swift, http and local."""
    for field in ('instance_info', 'driver_info'):
        value = (getattr(node, field, None) or {}).get(SOURCE_KEY)
        if not value:
            continue
        if value not in SOURCES:
            raise exception.InvalidParameterValue(
                'Invalid value for %s.%s: "%s". Valid values are %s.'
                % (field, SOURCE_KEY, value, ', '.join(SOURCES)),
                field='%s/%s' % (field, SOURCE_KEY))
        return value
    return CONF.agent.image_download_source


def glance_image(node, image_id, context=None):
    """Glance's record of the image (checked usable for a deploy, and,
    given the requester's ``context``, available to it: Ironic's rules,
    common/glance.py); InvalidParameterValue naming image_source when
    Glance has no such active image, refuses it, or the agent could not
    be given it (``node``'s image_download_source ``swift``)."""
    if download_source(node) == 'swift':
        raise exception.InvalidParameterValue(
            'Glance image %s cannot be given to the agent through Swift '
            'here (no object store): set image_download_source to http '
            'or local ([agent], or the node\'s instance_info or '
            'driver_info).' % image_id, field=FIELD)
    try:
        image = glance.get_image(image_id)
        if context is not None and not glance.is_available(image, context):
            raise exception.ImageNotFound(
                image=image_id, detail=' (not available to the requester: '
                'neither public nor community, nor owned by or shared with '
                'this service\'s project)')
    except exception.ImageNotFound as e:
        raise exception.InvalidParameterValue(
            'instance_info.image_source: %s' % e, field=FIELD)
    return image


# driver_internal_info: the image_source check_request() accepted, which
# the deploy then fetches (not another one PATCHed in meanwhile).
CHECKED = 'image_source_checked'


def check_request(task):
    """Before a deploy or rebuild moves the node: its image_source's form,
    and a Glance image's availability to the requester (400 naming
    image_source). Returns the driver_internal_info change recording what
    was checked (the caller writes it with the deploy's)."""
    source = (task.node.instance_info or {}).get('image_source')
    if not source:
        return {}  # the deploy fails naming it (deploy.image_info)
    download_source(task.node)
    kind, ref = source_kind(source)
    if kind == GLANCE:
        glance_image(task.node, ref, task.context)
    elif kind == FILE:
        check_file(ref)
    return {CHECKED: '%s:%s' % (kind, ref)}


def check_unchanged(node, kind, ref):
    """The image the deploy is about to fetch is the one checked when it
    was asked for (InvalidParameterValue naming image_source otherwise:
    instance_info changed while the node deployed)."""
    if kind == HTTP:
        return
    checked = (node.driver_internal_info or {}).get(CHECKED)
    if checked != '%s:%s' % (kind, ref):
        raise exception.InvalidParameterValue(
            'instance_info.image_source changed after the deploy was asked '
            'for (%s): deploy again to have it checked.' % ref, field=FIELD)


def check_file(url):
    """The local path of a file:// image_source (400 naming it when it
    is not allowed or not there)."""
    return file_urls.local_path(url, FIELD)


def subdir():
    """[deploy]http_image_subdir, one relative path component."""
    name = CONF.deploy.http_image_subdir
    if not name or name in ('.', '..') or os.sep in name or \
            (os.altsep and os.altsep in name):
        raise exception.IronicLikeException(
            '[deploy]http_image_subdir must be one directory name under '
            'http_root, not %r' % (name,))
    return name


def _node_path(node_uuid):
    return os.path.join(CONF.deploy.http_root, subdir(), node_uuid)


def served(node, image_info):
    """``image_info`` (deploy.image_info()) with the URL the agent
    downloads from: the image's own, or that of the node's link to the
    cached image."""
    kind, ref = source_kind((node.instance_info or {}).get('image_source'))
    if kind == HTTP and download_source(node) != 'local':
        # A link an earlier deploy (a rebuild) left would stay served.
        remove(node.uuid)
        return image_info
    algo, value = image_info['os_hash_algo'], image_info['os_hash_value']
    if kind == GLANCE:
        key = 'glance-%s' % ref

        def fetch(fileobj, deadline):
            return glance.download(ref, fileobj, deadline)
    else:
        key = '%s-%s' % (kind, hashlib.sha256(
            ('%s\n%s' % (ref, value)).encode()).hexdigest()[:32])

        def fetch(fileobj, deadline):
            if kind == FILE:
                return published_files.copy_bounded(
                    check_file(ref), fileobj, deadline, ref)
            return published_files.download(
                ref, fileobj, 'node %s\'s instance image' % node.uuid,
                bound=max(1, deadline - time.monotonic()))
    try:
        image_cache.cached_and_linked(key, fetch, algo, value,
                                      _node_path(node.uuid), node.uuid,
                                      'instance image',
                                      size=functools.partial(_size, kind,
                                                             ref))
    except OSError as e:
        # The disk is full, a directory cannot be written.
        raise exception.IronicLikeException(
            'Node %s: caching its instance image failed: %s'
            % (node.uuid, e))
    return dict(image_info, urls=['%s/%s/%s' % (
        CONF.deploy.http_url.rstrip('/'), subdir(), node.uuid)])


def _size(kind, ref):
    """The bytes of the image to fetch: Glance's record says, a file:// one
    is on disk; None for an http one, whose server tells them when the
    download starts (Content-Length: image_cache checks the room then,
    before anything is written)."""
    if kind == GLANCE:
        return glance.get_image(ref).get('size')
    if kind == FILE:
        return os.path.getsize(check_file(ref))
    return None


def remove(node_uuid):
    """Remove the node's link to its cached image (none is no error)."""
    published_files.remove(_node_path(node_uuid))


def sweep(db):
    """The periodic clean-up: the links of nodes not deploying (a failed
    deploy, a node torn down or deleted through another conductor, links
    a dead conductor left), then the cache's eviction."""
    directory = os.path.join(CONF.deploy.http_root, subdir())
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        names = []
    now = time.time()
    for name in names:
        path = os.path.join(directory, name)
        if name.endswith('.tmp') or name.startswith('.'):
            try:
                if now - os.stat(path).st_mtime > FETCH_TIMEOUT:
                    published_files.remove(path)
            except OSError:
                pass
            continue
        if not uuidutils.is_uuid_like(name) or not os.path.isfile(path):
            continue
        try:
            before = os.stat(path).st_ino
            node = db.get_node_by_uuid(name)
        except exception.NodeNotFound:
            node = None
        except FileNotFoundError:
            continue
        if node is not None and node.provision_state in _DEPLOYING:
            continue
        try:
            if os.stat(path).st_ino != before:
                continue  # a new deploy linked it meanwhile
        except FileNotFoundError:
            continue
        LOG.info('Node %s: its instance image link removed (not '
                 'deploying)', name)
        remove(name)
    image_cache.evict()
