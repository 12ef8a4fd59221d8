"""Instance images the conductor caches and serves to the deploy agent,
as Ironic's ``[agent]image_download_source`` says:

- an http(s) ``image_source`` is given to the agent as it is (``http``,
  the default), or cached here too (``local``);
- a Glance image (its ID, or ``glance://<id>``) is read from Glance
  (common/glance.py) and cached; ``swift`` (Ironic's Swift temporary
  URLs) is refused: there is no object store here;
- a ``file://`` image (under ``[conductor]file_url_allowed_paths``) is
  copied into the cache.

The cache is ``[pxe]instance_master_path``: one file per image, written
whole (beside, then renamed) and checked against the image's checksum
while it is written, so a bad download is never kept. Each node deploying
it gets a hard link ``[deploy]http_root/agent_images/<node uuid>`` (a
copy when the cache is on another file system), served at
``[deploy]http_url/agent_images/<node uuid>``, removed when the node's
instance is torn down or the node deleted. Images no node links and not
used for ``[pxe]image_cache_ttl`` minutes, or beyond
``[pxe]image_cache_size`` MiB (those used longest ago first), are
removed when another image is cached.
"""

import hashlib
import os
import shutil
import threading
import time

from oslo_log import log
from oslo_utils import uuidutils

from ironic_like.common import exception
from ironic_like.common import file_urls
from ironic_like.common import glance
from ironic_like.common import masking
from ironic_like.common import published_files
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

HTTP = 'http'
GLANCE = 'glance'
FILE = 'file'
FIELD = 'instance_info/image_source'
SUBDIR = 'agent_images'
_GLANCE_PREFIX = 'glance://'
# Bound (seconds) of one image's download or copy into the cache, the
# node locked meanwhile.
FETCH_TIMEOUT = 3600

_locks_lock = threading.Lock()
_locks = {}


def source_kind(source):
    """(HTTP, GLANCE or FILE, the URL or the Glance image ID) of an
    ``image_source``; InvalidParameterValue naming it otherwise."""
    text = str(source or '')
    if text.startswith(('http://', 'https://')):
        return HTTP, text
    if text.startswith('file://'):
        return FILE, text
    ref = text[len(_GLANCE_PREFIX):] if text.startswith(_GLANCE_PREFIX) \
        else text
    if uuidutils.is_uuid_like(ref):
        return GLANCE, ref
    raise exception.InvalidParameterValue(
        'instance_info.image_source must be an http(s) URL, a Glance image '
        'ID (or glance://<ID>) or a file:// URL (got %r).' % (source,),
        field=FIELD)


def glance_image(image_id):
    """Glance's record of the image (checked usable for a deploy);
    InvalidParameterValue naming image_source when Glance has no such
    active image or the agent could not be given it."""
    if CONF.agent.image_download_source == 'swift':
        raise exception.InvalidParameterValue(
            'Glance image %s cannot be given to the agent through Swift '
            'here (no object store): set [agent]image_download_source to '
            'http or local.' % image_id, field=FIELD)
    try:
        return glance.get_image(image_id)
    except exception.ImageNotFound as e:
        raise exception.InvalidParameterValue(
            'instance_info.image_source: %s' % e, field=FIELD)


def check_file(url):
    """The local path of a file:// image_source (400 naming it when it
    is not allowed or not there)."""
    return file_urls.local_path(url, FIELD)


def _node_path(node_uuid):
    return os.path.join(CONF.deploy.http_root, SUBDIR, node_uuid)


def served(node, image_info):
    """``image_info`` (deploy.image_info()) with the URL the agent
    downloads from: the image's own, or that of the node's link to the
    cached image."""
    kind, ref = source_kind((node.instance_info or {}).get('image_source'))
    if kind == HTTP and CONF.agent.image_download_source != 'local':
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
                with open(check_file(ref), 'rb') as source:
                    shutil.copyfileobj(source, fileobj)
                return None
            return published_files.download(
                ref, fileobj, 'node %s\'s instance image' % node.uuid,
                bound=max(1, deadline - time.monotonic()))
    master = _cached(key, fetch, algo, value, node.uuid)
    _link(master, _node_path(node.uuid))
    return dict(image_info, urls=['%s/%s/%s' % (
        CONF.deploy.http_url.rstrip('/'), SUBDIR, node.uuid)])


def remove(node_uuid):
    """Remove the node's link to its cached image (none is no error)."""
    published_files.remove(_node_path(node_uuid))


class _Hashing(object):
    """A file object that hashes what is written through it."""

    def __init__(self, fileobj, algo):
        self.fileobj = fileobj
        self.hash = hashlib.new(algo)
        self.size = 0

    def write(self, data):
        self.hash.update(data)
        self.size += len(data)
        return self.fileobj.write(data)


def _key_lock(key):
    with _locks_lock:
        return _locks.setdefault(key, threading.Lock())


def _cached(key, fetch, algo, value, node_uuid):
    """The cache's file of ``key``, fetched (``fetch(fileobj,
    deadline)``) and checked against ``algo``/``value`` first when it is
    not there."""
    path = os.path.join(CONF.pxe.instance_master_path, key)
    with _key_lock(key):
        if os.path.isfile(path):
            os.utime(path)
            return path
        _evict()
        deadline = time.monotonic() + FETCH_TIMEOUT
        with published_files.replaced_whole(
                path, prefix='.%s.' % key, binary=True) as fileobj:
            hashing = _Hashing(fileobj, algo)
            fetch(hashing, deadline)
            if hashing.hash.hexdigest() != value.lower():
                raise exception.IronicLikeException(
                    'Node %s: the instance image %s does not match its '
                    'checksum (%s %s, got %s): not cached'
                    % (node_uuid, masking.mask_text(key), algo, value,
                       hashing.hash.hexdigest()))
        LOG.info('Node %s: instance image %s cached (%d bytes)', node_uuid,
                 key, hashing.size)
        return path


def _link(master, path):
    """``path`` (replaced whole) a hard link to ``master``, or a copy of
    it when they are on different file systems."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = '%s.%s.tmp' % (path, uuidutils.generate_uuid())
    try:
        os.link(master, tmp)
    except OSError:
        with published_files.replaced_whole(
                path, prefix='.%s.' % os.path.basename(path),
                binary=True) as fileobj:
            with open(master, 'rb') as source:
                shutil.copyfileobj(source, fileobj)
        return
    try:
        os.replace(tmp, path)
    except BaseException:
        published_files.remove(tmp)
        raise


def _evict():
    """Remove the cached images no node links that were not used within
    the TTL, then, beyond the size bound, those used longest ago."""
    directory = CONF.pxe.instance_master_path
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return
    entries = []
    for name in names:
        if name.startswith('.'):
            continue  # a fetch in progress
        path = os.path.join(directory, name)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            continue
        entries.append((st.st_mtime, st.st_size, st.st_nlink, path))
    entries.sort()
    now = time.time()
    ttl = CONF.pxe.image_cache_ttl * 60
    kept = []
    for mtime, size, links, path in entries:
        if ttl and links == 1 and now - mtime > ttl:
            _drop(path, 'unused for %d minutes' % CONF.pxe.image_cache_ttl)
        else:
            kept.append((mtime, size, links, path))
    limit = CONF.pxe.image_cache_size * 1024 * 1024
    total = sum(size for _, size, _, _ in kept)
    for mtime, size, links, path in kept:
        if not limit or total <= limit:
            break
        if links == 1:
            _drop(path, 'the cache is over %d MiB'
                  % CONF.pxe.image_cache_size)
            total -= size


def _drop(path, why):
    LOG.info('Instance image %s removed from the cache: %s',
             os.path.basename(path), why)
    published_files.remove(path)
