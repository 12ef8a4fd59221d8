"""Fetch a bitstream from the image service, check it against its image
record, and stage it where the node's agent can download it.

The conductor checks the bytes, not the agent alone: a corrupted or
substituted image fails the plug before anything touches the device, and
the agent then downloads from [deploy]http_url (reachable from the
ramdisk even when the image service needs credentials) and checks the
sha256 the conductor computed. Staged files are named by their sha256, so
two plugs of the same bitstream share one file; a small note named by the
image record's own hash (``by-hash/<algo>-<value>``) lets the next plug of
that image skip the download (the file was checked when it was staged).
"""

import json

import hashlib
import os
import tempfile

from ironic_like.accelerators import images
from ironic_like.common import exception
from ironic_like.conf import CONF

SUBDIR = 'bitstreams'


class BitstreamInvalid(exception.AcceleratorProgramFailed):
    msg_fmt = 'Bitstream %(image)s cannot be used: %(error)s'


def _expected(record):
    algo, value = record.os_hash_algo, record.os_hash_value
    if algo and value:
        return algo, value.lower()
    if record.checksum:
        return 'md5', record.checksum.lower()
    raise BitstreamInvalid(image=record.id,
                           error='its image record has no checksum')


def _note_path(directory, algo, expected):
    return os.path.join(directory, 'by-hash', '%s-%s' % (algo, expected))


def _staged(directory, algo, expected, record):
    """The staged file of this image content, if any."""
    try:
        with open(_note_path(directory, algo, expected)) as f:
            note = json.load(f)
        name, size = note['sha256'], int(note['size'])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    path = os.path.join(directory, name)
    if not os.path.isfile(path) or os.path.getsize(path) != size:
        return None
    return {'image_id': record.id, 'sha256': name, 'size': size,
            'url': '%s/%s/%s' % (CONF.deploy.http_url.rstrip('/'), SUBDIR,
                                 name)}


def _write_note(directory, algo, expected, name, size):
    path = _note_path(directory, algo, expected)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = '%s.%d.tmp' % (path, os.getpid())
    with open(tmp, 'w') as f:
        json.dump({'sha256': name, 'size': size}, f)
    os.replace(tmp, path)


def stage(record):
    """Download ``record``'s data, verify it, store it under
    [deploy]http_root/bitstreams/<sha256>; returns {image_id, url, sha256,
    size}.

    :raises: BitstreamInvalid on a checksum or size mismatch or a
        bitstream larger than [accelerators]max_bitstream_size.
    """
    algo, expected = _expected(record)
    try:
        digest = hashlib.new(algo)
    except ValueError:
        raise BitstreamInvalid(image=record.id,
                               error='unknown hash algorithm %r' % algo)
    limit = CONF.accelerators.max_bitstream_size
    directory = os.path.join(CONF.deploy.http_root, SUBDIR)
    os.makedirs(directory, exist_ok=True)
    if not all(c in '0123456789abcdef' for c in expected):
        raise BitstreamInvalid(image=record.id,
                               error='its checksum is not a hex digest')
    known = _staged(directory, algo, expected, record)
    if known is not None:
        return known
    sha256 = hashlib.sha256()
    size = 0
    fd, tmp = tempfile.mkstemp(dir=directory, prefix='.part-')
    try:
        with os.fdopen(fd, 'wb') as out:
            for chunk in images.get_service().data(record.id):
                size += len(chunk)
                if size > limit:
                    raise BitstreamInvalid(
                        image=record.id,
                        error='larger than [accelerators]'
                              'max_bitstream_size (%d bytes)' % limit)
                digest.update(chunk)
                sha256.update(chunk)
                out.write(chunk)
        actual = digest.hexdigest()
        if actual != expected:
            raise BitstreamInvalid(
                image=record.id,
                error='checksum mismatch: the image record says %s %s, '
                      'the data has %s' % (algo, expected, actual))
        if record.size is not None and int(record.size) != size:
            raise BitstreamInvalid(
                image=record.id,
                error='size mismatch: the image record says %s bytes, '
                      'the data has %d' % (record.size, size))
        name = sha256.hexdigest()
        os.chmod(tmp, 0o644)
        os.replace(tmp, os.path.join(directory, name))
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _write_note(directory, algo, expected, name, size)
    return {'image_id': record.id, 'sha256': name, 'size': size,
            'url': '%s/%s/%s' % (CONF.deploy.http_url.rstrip('/'), SUBDIR,
                                 name)}
