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
while it is written, so a bad download is never kept (an empty path: no
cache, each deploy fetches its own copy). The node deploying it gets a
hard link ``[deploy]http_root/<[deploy]http_image_subdir>/<node uuid>``
(a copy when the cache is on another file system), served at
``[deploy]http_url``, and removed once the agent wrote the image, when
the deploy fails (the periodic sweep: a link of a node not deploying),
when its instance is torn down or the node deleted. After each image is
cached, and at each sweep, the images no node links that were unused
for ``[pxe]image_cache_ttl`` minutes, then, beyond
``[pxe]image_cache_size`` MiB, those used longest ago, are removed
(Ironic's rules: 0 keeps none).

Every change of the cache (a hit and its link, an eviction) happens under
one lock, so that an image is never evicted between being found and
being linked; a download holds only its image's lock.
"""

import errno
import hashlib
import os
import threading
import time
import uuid as uuidlib
import weakref

from oslo_log import log
from oslo_utils import uuidutils

from ironic_like.common import exception
from ironic_like.common import file_urls
from ironic_like.common import glance
from ironic_like.common import published_files
from ironic_like.common import states
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

HTTP = 'http'
GLANCE = 'glance'
FILE = 'file'
FIELD = 'instance_info/image_source'
_GLANCE_PREFIX = 'glance://'
# Bound (seconds) of one image's download or copy into the cache, and of
# the wait for another deploy caching the same image, the node locked
# meanwhile. Files a dead conductor left half written are removed once
# this old.
FETCH_TIMEOUT = 3600
# Where a node's link is still needed: its agent may be downloading.
_DEPLOYING = frozenset([states.DEPLOYING, states.DEPLOYWAIT])
# Hard links fail across file systems, or where the file system has none.
_NO_LINK = (errno.EXDEV, errno.EPERM, errno.EMLINK, errno.ENOTSUP)

# Changes of the cache (see the module's documentation).
_cache_lock = threading.Lock()
# One lock per image being fetched; gone once no deploy holds it.
_fetch_locks = weakref.WeakValueDictionary()
_fetch_locks_lock = threading.Lock()


class _FetchLock(object):
    """A lock (weakly referenced from _fetch_locks)."""

    def __init__(self):
        self.lock = threading.Lock()


def source_kind(source):
    """(HTTP, GLANCE or FILE, the URL or the Glance image ID in its
    canonical form) of an ``image_source``; InvalidParameterValue naming
    it otherwise."""
    text = str(source or '')
    if text.startswith(('http://', 'https://')):
        return HTTP, text
    if text.startswith('file://'):
        return FILE, text
    ref = text[len(_GLANCE_PREFIX):] if text.startswith(_GLANCE_PREFIX) \
        else text
    if uuidutils.is_uuid_like(ref):
        # Glance answers with the canonical form (lower case, dashes).
        return GLANCE, str(uuidlib.UUID(ref))
    raise exception.InvalidParameterValue(
        'instance_info.image_source must be an http(s) URL, a Glance image '
        'ID (or glance://<ID>) or a file:// URL (got %r).' % (source,),
        field=FIELD)


def glance_image(image_id, context=None):
    """Glance's record of the image (checked usable for a deploy, and,
    given the requester's ``context``, available to it: Ironic's rules,
    common/glance.py); InvalidParameterValue naming image_source when
    Glance has no such active image, refuses it, or the agent could not
    be given it."""
    if CONF.agent.image_download_source == 'swift':
        raise exception.InvalidParameterValue(
            'Glance image %s cannot be given to the agent through Swift '
            'here (no object store): set [agent]image_download_source to '
            'http or local.' % image_id, field=FIELD)
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
    kind, ref = source_kind(source)
    if kind == GLANCE:
        glance_image(ref, task.context)
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
    if kind == HTTP and CONF.agent.image_download_source != 'local':
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
        _cached_and_linked(key, fetch, algo, value, node.uuid)
    except OSError as e:
        # The disk is full, a directory cannot be written.
        raise exception.IronicLikeException(
            'Node %s: caching its instance image failed: %s'
            % (node.uuid, e))
    return dict(image_info, urls=['%s/%s/%s' % (
        CONF.deploy.http_url.rstrip('/'), subdir(), node.uuid)])


def remove(node_uuid):
    """Remove the node's link to its cached image (none is no error)."""
    published_files.remove(_node_path(node_uuid))


class _Hashing(object):
    """A file object that hashes what is written through it."""

    def __init__(self, fileobj, algo):
        self.fileobj = fileobj
        # Not a security use: md5 stays usable on a FIPS system.
        self.hash = hashlib.new(algo, usedforsecurity=False)
        self.size = 0

    def write(self, data):
        self.hash.update(data)
        self.size += len(data)
        return self.fileobj.write(data)


def _fetch_lock(key):
    with _fetch_locks_lock:
        holder = _fetch_locks.get(key)
        if holder is None:
            holder = _FetchLock()
            _fetch_locks[key] = holder
        return holder


def _fetched(path, key, fetch, algo, value, node_uuid, then=None):
    """Write ``path`` whole with what ``fetch`` gives, checked; with
    ``then``, call it under _cache_lock, taken before the file is renamed
    into place (so that no eviction sees it unlinked)."""
    deadline = time.monotonic() + FETCH_TIMEOUT
    locked = False
    try:
        with published_files.replaced_whole(
                path, prefix='.%s.' % os.path.basename(path),
                binary=True) as fileobj:
            hashing = _Hashing(fileobj, algo)
            fetch(hashing, deadline)
            if hashing.hash.hexdigest() != value.lower():
                # The digest found is not shown: it would tell the hash
                # of any file or internal URL one may name.
                raise exception.IronicLikeException(
                    'Node %s: the instance image (%s) does not match its '
                    'checksum (%s %s): not kept'
                    % (node_uuid, key, algo, value))
            if then is not None:
                _cache_lock.acquire()
                locked = True
        LOG.info('Node %s: instance image %s fetched (%d bytes)',
                 node_uuid, key, hashing.size)
        return then() if then is not None else None
    finally:
        if locked:
            _cache_lock.release()


def _cached_and_linked(key, fetch, algo, value, node_uuid):
    """The node's link to the cache's file of ``key``, fetched (and
    checked against ``algo``/``value``) first when it is not there."""
    link = _node_path(node_uuid)
    master_dir = CONF.pxe.instance_master_path
    if not master_dir:
        # Ironic's "no cache": the node's own copy.
        _fetched(link, key, fetch, algo, value, node_uuid)
        return
    master = os.path.join(master_dir, key)
    holder = _fetch_lock(key)
    if not holder.lock.acquire(timeout=FETCH_TIMEOUT):
        raise exception.IronicLikeException(
            'Node %s: another deploy has been caching its instance image '
            '(%s) for %d s' % (node_uuid, key, FETCH_TIMEOUT))
    try:
        with _cache_lock:
            source = None
            if os.path.isfile(master):
                os.utime(master)
                source = _link(master, link)
                if source is None:
                    return
        if source is None:

            def link_and_evict():
                found = _link(master, link)
                _evict()
                return found
            source = _fetched(master, key, fetch, algo, value, node_uuid,
                              then=link_and_evict)
        if source is not None:
            # No hard link here: a copy, made outside the cache lock from
            # the file opened under it (evicted meanwhile, it stays
            # readable).
            with source:
                with published_files.replaced_whole(
                        link, prefix='.%s.' % os.path.basename(link),
                        binary=True) as fileobj:
                    published_files.copy_bounded(
                        source, fileobj, time.monotonic() + FETCH_TIMEOUT,
                        key)
    finally:
        holder.lock.release()


def _link(master, path):
    """Make ``path`` (replaced whole) a hard link to ``master``: None;
    or, when the file system cannot link them, ``master`` opened for the
    caller to copy. Called under _cache_lock."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = '%s.%s.tmp' % (path, uuidutils.generate_uuid())
    try:
        os.link(master, tmp)
    except OSError as e:
        if e.errno not in _NO_LINK:
            raise
        return open(master, 'rb')
    try:
        os.replace(tmp, path)
    except BaseException:
        published_files.remove(tmp)
        raise
    return None


def _evict():
    """Remove the cached images no node links that were not used within
    the TTL, then, beyond the size bound, those used longest ago (0: keep
    none, as Ironic); and what a dead conductor left half written.
    Called under _cache_lock."""
    directory = CONF.pxe.instance_master_path
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return
    now = time.time()
    entries = []
    for name in names:
        path = os.path.join(directory, name)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            continue
        if name.startswith('.'):
            # A fetch in progress, or one a dead conductor left.
            if now - st.st_mtime > FETCH_TIMEOUT:
                _drop(path, 'a download left unfinished')
            continue
        entries.append((st.st_mtime, st.st_size, st.st_nlink, path))
    entries.sort()
    ttl = CONF.pxe.image_cache_ttl * 60
    kept = []
    for mtime, size, links, path in entries:
        if links == 1 and now - mtime > ttl:
            _drop(path, 'unused for %d minutes' % CONF.pxe.image_cache_ttl)
        else:
            kept.append((size, links, path))
    limit = CONF.pxe.image_cache_size * 1024 * 1024
    total = sum(size for size, _, _ in kept)
    for size, links, path in kept:
        if total <= limit:
            break
        if links == 1:
            _drop(path, 'the cache is over %d MiB'
                  % CONF.pxe.image_cache_size)
            total -= size


def _drop(path, why):
    try:
        published_files.remove(path)
    except OSError as e:
        # Not to fail the deploy that happened to clean up.
        LOG.warning('Instance image %s could not be removed from the '
                    'cache: %s', path, e)
        return
    LOG.info('Instance image %s removed from the cache: %s',
             os.path.basename(path), why)


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
    if CONF.pxe.instance_master_path:
        with _cache_lock:
            _evict()
