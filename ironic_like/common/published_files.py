"""Files the conductor publishes under [deploy]http_root for machines and
BMCs to fetch (iPXE scripts, virtual media and firmware images): written
whole or not at all, readable by the web server serving them."""

import contextlib
import os
import tempfile
import time

import requests

from ironic_like.common import exception
from ironic_like.common import masking

# Read by a web server that may run as another user.
FILE_MODE = 0o644

_CHUNK = 1024 * 1024
# (connect, read) seconds: the read bound is per chunk, so a large image
# on a slow link still downloads while a stalled server does not hold the
# node's lock for ever.
TIMEOUT = (10, 60)
# Bound of a whole download (seconds), the node locked meanwhile: a
# server trickling a byte a minute is cut off too.
DEADLINE = 3600


def remove(path):
    """Remove ``path``; already gone (or its directory) is no error."""
    try:
        os.unlink(path)
    except (FileNotFoundError, NotADirectoryError):
        pass


@contextlib.contextmanager
def replaced_whole(path, prefix, binary=False):
    """A file object to write ``path``'s new content to: a temporary
    file beside it (named ``prefix`` + random), renamed over ``path``
    when the block ends well, removed when it raises. A reader fetching
    ``path`` meanwhile gets the old content or the new, never half."""
    directory = os.path.dirname(path)
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=prefix)
    try:
        with os.fdopen(fd, 'wb' if binary else 'w') as fileobj:
            yield fileobj
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        remove(tmp)
        raise


def write_chunks(chunks, fileobj, deadline, late):
    """Write each of ``chunks`` to ``fileobj``; past ``deadline``
    (time.monotonic()) raise ``late(size so far)``. The size written."""
    size = 0
    for chunk in chunks:
        fileobj.write(chunk)
        size += len(chunk)
        if time.monotonic() > deadline:
            raise late(size)
    return size


def download(url, fileobj, purpose, bound=None):
    """Write what ``url`` serves to ``fileobj`` (bounded: TIMEOUT per
    read, ``bound`` or DEADLINE seconds in all); its size in bytes. A
    ``fileobj`` with an ``expect(size)`` method is told the size the
    server gives (Content-Length) before anything is written; what it
    raises ends the download.
    IronicLikeException naming ``url`` (its password masked) and
    ``purpose`` when the server fails or is too slow."""
    bound = DEADLINE if bound is None else min(bound, DEADLINE)
    shown = masking.mask_url_password(url)

    def failed(why):
        return exception.IronicLikeException(
            'Downloading %s for %s failed: %s' % (shown, purpose, why))

    try:
        with requests.get(url, stream=True, timeout=TIMEOUT) as response:
            if response.status_code != 200:
                raise failed('HTTP %s %s' % (response.status_code,
                                             response.reason or ''))
            expect = getattr(fileobj, 'expect', None)
            if expect is not None:
                # The size, before any of it is written (a writer that
                # needs room for it, image_cache); not that of an encoded
                # body.
                length = response.headers.get('Content-Length') or ''
                if length.isdigit() and \
                        'Content-Encoding' not in response.headers:
                    expect(int(length))
            size = write_chunks(
                response.iter_content(_CHUNK), fileobj,
                time.monotonic() + bound,
                lambda size: failed('not done within %d s (%d bytes read)'
                                    % (bound, size)))
    except requests.RequestException as e:
        raise failed(masking.mask_text(str(e)))
    return size


def copy_bounded(source, fileobj, deadline, what):
    """Copy the file at ``source`` (a path, or an open binary file) to
    ``fileobj`` by ``deadline`` (time.monotonic()), so that a hung mount
    does not hold a node for ever; its size in bytes."""
    opened = open(source, 'rb') if isinstance(source, str) else None
    image = opened or source
    try:
        return write_chunks(
            iter(lambda: image.read(_CHUNK), b''), fileobj, deadline,
            lambda size: exception.IronicLikeException(
                'Copying %s was not done in time (%d bytes read)'
                % (what, size)))
    finally:
        if opened is not None:
            opened.close()
