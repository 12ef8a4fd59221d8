"""The conductor's cache of images it serves over http: instance images
(conductor/instance_images.py) and Glance deploy ramdisks (the ipxe boot
interface).

The cache is ``[pxe]instance_master_path``: one file per image (named by
a key: ``glance-<ID>`` for a Glance image, whatever it is used for),
written whole (beside, then renamed) and checked against the image's
checksum while it is written, so a bad download is never kept (an empty
path: no cache, each use fetches its own copy). Each node using an
image gets a hard link to it under ``[deploy]http_root`` (a copy when
the cache is on another file system). After each image is cached, and
at each of the conductor's sweeps, the images no node links that were
unused for ``[pxe]image_cache_ttl`` minutes, then, beyond
``[pxe]image_cache_size`` MiB, those used longest ago, are removed
(Ironic's rules: 0 keeps none).

Every change of the cache (a hit and its link, an eviction) happens under
one lock, so that an image is never evicted between being found and
being linked; a download holds only its image's lock.

Before an image is fetched, its file system must have room for it: for
the room the fetches of known size already running there still need
(what each will write less what it wrote), and the image's size, known
beforehand (Glance says, a file is on disk) or from the http server's
Content-Length, told before any of it is written. After the usual
eviction, images no node links are removed, used longest ago first,
until there is room; otherwise the fetch is refused
(InsufficientDiskSpace, Ironic's error) before anything is written. An
image whose size nobody says (an http server without Content-Length) is
fetched unchecked and not counted for the others, and a full disk fails
it with the system's error.
"""

import errno
import hashlib
import os
import shutil
import threading
import time
import weakref

from oslo_log import log
from oslo_utils import uuidutils

from ironic_like.common import exception
from ironic_like.common import published_files
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

# Bound (seconds) of one image's download or copy into the cache, and of
# the wait for another node caching the same image, the node locked
# meanwhile. Files a dead conductor left half written are removed once
# this old.
FETCH_TIMEOUT = 3600
# Hard links fail across file systems, or where the file system has none.
_NO_LINK = (errno.EXDEV, errno.EPERM, errno.EMLINK, errno.ENOTSUP)

# Changes of the cache (see the module's documentation).
_cache_lock = threading.Lock()
# One lock per image being fetched; gone once no node holds it.
_fetch_locks = weakref.WeakValueDictionary()
_fetch_locks_lock = threading.Lock()


class _FetchLock(object):
    """A lock (weakly referenced from _fetch_locks)."""

    def __init__(self):
        self.lock = threading.Lock()


# The fetches in progress (_Fetch), whose room a fetch starting counts.
_in_flight = set()
_in_flight_lock = threading.Lock()


class _Fetch(object):
    """A fetch in progress into ``directory`` (``cache``: the cache's,
    whose unused images may make room): the bytes it will write, when
    known, and those written so far."""

    def __init__(self, directory, cache):
        self.directory = directory
        self.cache = cache
        self.device = None
        self.expected = None
        self.written = 0

    def remaining(self):
        return max(0, (self.expected or 0) - self.written)

    def expect(self, size):
        """The image's size is known (before its first byte is
        written): InsufficientDiskSpace unless there is room for it."""
        if self.expected is not None or not size:
            return
        if self.cache:
            with _cache_lock:
                _room_for(self.directory, size, cache=True, fetch=self)
        else:
            _room_for(self.directory, size, fetch=self)

    def done(self):
        with _in_flight_lock:
            _in_flight.discard(self)


class _Hashing(object):
    """A file object that hashes what is written through it, for a
    ``fetch`` (_Fetch) it counts the bytes of; ``expect(size)``, for a
    downloader that learns the size before writing (see _Fetch)."""

    def __init__(self, fileobj, algo, fetch=None):
        self.fileobj = fileobj
        # Not a security use: md5 stays usable on a FIPS system.
        self.hash = hashlib.new(algo, usedforsecurity=False)
        self.size = 0
        self.fetch = fetch

    def expect(self, size):
        if self.fetch is not None:
            self.fetch.expect(size)

    def write(self, data):
        self.hash.update(data)
        written = self.fileobj.write(data)
        self.size += len(data)
        if self.fetch is not None:
            # Once on its way to the disk: another fetch's check never
            # takes these bytes as both written and still to come.
            self.fetch.written = self.size
        return written


def _fetch_lock(key):
    with _fetch_locks_lock:
        holder = _fetch_locks.get(key)
        if holder is None:
            holder = _FetchLock()
            _fetch_locks[key] = holder
        return holder


def fetched(path, key, fetch, algo, value, node_uuid, what, then=None,
            room=None):
    """Write ``path`` whole with what ``fetch`` gives, checked; with
    ``then``, call it under _cache_lock, taken before the file is renamed
    into place (so that no eviction sees it unlinked). ``room``: the
    _Fetch whose written bytes are counted."""
    deadline = time.monotonic() + FETCH_TIMEOUT
    locked = False
    try:
        with published_files.replaced_whole(
                path, prefix='.%s.' % os.path.basename(path),
                binary=True) as fileobj:
            hashing = _Hashing(fileobj, algo, room)
            fetch(hashing, deadline)
            if hashing.hash.hexdigest() != value.lower():
                # The digest found is not shown: it would tell the hash
                # of any file or internal URL one may name.
                raise exception.IronicLikeException(
                    'Node %s: the %s (%s) does not match its checksum '
                    '(%s %s): not kept' % (node_uuid, what, key, algo,
                                           value))
            if then is not None:
                _cache_lock.acquire()
                locked = True
        LOG.info('Node %s: %s %s fetched (%d bytes)', node_uuid, what,
                 key, hashing.size)
        return then() if then is not None else None
    finally:
        if locked:
            _cache_lock.release()


def _existing(path):
    """``path``, or its nearest parent that exists."""
    while not os.path.isdir(path):
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    return path


def _free_bytes(path):
    """Free bytes of the file system ``path`` is (or will be) on."""
    return shutil.disk_usage(_existing(path)).free


def _pending(device, fetch):
    """The bytes the fetches in progress on file system ``device`` still
    have to write, ``fetch`` left out. Called under _in_flight_lock."""
    return sum(other.remaining() for other in _in_flight
               if other is not fetch and other.device == device)


def _room_for(directory, size, cache=False, fetch=None):
    """Raise InsufficientDiskSpace unless ``directory``'s file system has
    ``size`` bytes free beyond what the fetches in progress there still
    need (None: unknown, nothing checked). ``cache``: first remove the
    unused cached images, used longest ago first, until it has (called
    under _cache_lock then). ``fetch`` (_Fetch): the fetch the room is
    for, counted in progress from now on with ``size`` bytes to write."""
    if not size:
        return
    device = os.stat(_existing(directory)).st_dev

    def available():
        with _in_flight_lock:
            return _free_bytes(directory) - _pending(device, fetch)
    if cache and available() < size:
        for path in _unused_oldest_first(directory):
            _drop(path, 'room for a %d MiB image' % (size // 2 ** 20))
            if available() >= size:
                break
    with _in_flight_lock:
        free = _free_bytes(directory) - _pending(device, fetch)
        if free < size:
            raise exception.InsufficientDiskSpace(
                path=directory, required=-(-size // 2 ** 20),
                actual=max(0, free) // 2 ** 20)
        if fetch is not None:
            fetch.device, fetch.expected = device, size
            _in_flight.add(fetch)


def _unused_oldest_first(directory):
    """The cached images no node links, used longest ago first."""
    entries = []
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return []
    for name in names:
        if name.startswith('.'):
            continue  # a download in progress
        path = os.path.join(directory, name)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            continue
        if st.st_nlink == 1:
            entries.append((st.st_mtime, path))
    return [path for _mtime, path in sorted(entries)]


def cached_and_linked(key, fetch, algo, value, link, node_uuid, what,
                      size=None):
    """Make ``link`` (a path under [deploy]http_root) the cache's file of
    ``key``, fetched first when it is not there: ``fetch(fileobj,
    deadline)`` writes it, checked against ``algo``/``value``. ``what``
    the image is to node ``node_uuid`` names it in messages. ``size``:
    the image's bytes, or a callable giving them (called only when the
    image is to be fetched), or None when unknown: with it, the fetch
    needs room for them (see the module's documentation)."""
    master_dir = CONF.pxe.instance_master_path
    if not master_dir:
        # Ironic's "no cache": the node's own copy.
        room = _Fetch(os.path.dirname(link), cache=False)
        try:
            room.expect(size() if callable(size) else size)
            fetched(link, key, fetch, algo, value, node_uuid, what,
                    room=room)
        finally:
            room.done()
        return
    master = os.path.join(master_dir, key)
    holder = _fetch_lock(key)
    if not holder.lock.acquire(timeout=FETCH_TIMEOUT):
        raise exception.IronicLikeException(
            'Node %s: another deploy has been caching its %s (%s) for '
            '%d s' % (node_uuid, what, key, FETCH_TIMEOUT))
    try:
        with _cache_lock:
            source = None
            if os.path.isfile(master):
                os.utime(master)
                source = _link(master, link)
                if source is None:
                    return
        if source is None:
            needed = size() if callable(size) else size
            room = _Fetch(master_dir, cache=True)
            try:
                with _cache_lock:
                    _evict()
                    _room_for(master_dir, needed, cache=True, fetch=room)

                def link_and_evict():
                    found = _link(master, link)
                    _evict()
                    return found
                source = fetched(master, key, fetch, algo, value,
                                 node_uuid, what, then=link_and_evict,
                                 room=room)
            finally:
                room.done()
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


def evict():
    """The periodic eviction (see _evict), when there is a cache."""
    if CONF.pxe.instance_master_path:
        with _cache_lock:
            _evict()


def _drop(path, why):
    try:
        published_files.remove(path)
    except OSError as e:
        # Not to fail the deploy that happened to clean up.
        LOG.warning('Image %s could not be removed from the cache: %s',
                    path, e)
        return
    LOG.info('Image %s removed from the cache: %s',
             os.path.basename(path), why)
