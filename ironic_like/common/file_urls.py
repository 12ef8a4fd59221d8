"""file:// URLs a user may give (a firmware update step's images, a
deploy's instance_info.image_source): only
files under [conductor]file_url_allowed_paths, never under the system
directories, as Ironic's FileImageService allows them. Without this a
user allowed to clean a node could have the conductor copy any file it
can read (its configuration, /proc/self/environ) to a web server, or
learn which paths exist."""

import os
from urllib import parse as urlparse

from oslo_log import log

from ironic_like.common import exception
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

# Never allowed, whatever the option says (Ironic's list).
BLOCKED = ('/boot', '/dev', '/etc', '/proc', '/run', '/sys')


def _under(path, directory):
    prefix = directory if directory.endswith(os.sep) else directory + os.sep
    return path == directory or path.startswith(prefix)


def _allowed():
    """The allowed directories: absolute, without "..", resolved (an
    entry that is not is ignored, with a warning: Ironic refuses it when
    the option is read)."""
    found = []
    for entry in CONF.conductor.file_url_allowed_paths:
        if not entry:
            continue
        if not os.path.isabs(entry) or '..' in entry.split(os.sep):
            LOG.warning('[conductor]file_url_allowed_paths: %r is not an '
                        'absolute path without "..": ignored', entry)
            continue
        found.append(os.path.realpath(entry))
    return found


def local_path(url, field):
    """The path of the file ``url`` (file://) names, resolved, when it
    may be read; InvalidParameterValue naming ``field`` otherwise (the
    same message whether or not a refused path exists, and not saying
    which directories are allowed)."""
    refused = exception.InvalidParameterValue(
        err='%s: this file may not be used (file:// URLs are only taken '
            'for files under [conductor]file_url_allowed_paths)' % url,
        field=field)
    try:
        path = urlparse.urlparse(url).path
        resolved = os.path.realpath(path)
    except ValueError:
        # A NUL byte, a bad IPv6 host.
        raise refused
    if (not os.path.isabs(path) or any(_under(resolved, b) for b in BLOCKED)
            or not any(_under(resolved, a) for a in _allowed())):
        raise refused
    if not os.path.isfile(resolved):
        raise exception.InvalidParameterValue(
            err='%s: no such file on the conductor' % url, field=field)
    return resolved
