"""file:// URLs a user may give (a firmware update step's images): only
files under [conductor]file_url_allowed_paths, never under the system
directories, as Ironic's FileImageService allows them. Without this a
user allowed to clean a node could have the conductor copy any file it
can read (its configuration, /proc/self/environ) to a web server, or
learn which paths exist."""

import os
from urllib import parse as urlparse

from ironic_like.common import exception
from ironic_like.conf import CONF

# Never allowed, whatever the option says (Ironic's list).
BLOCKED = ('/boot', '/dev', '/etc', '/proc', '/run', '/sys')


def _under(path, directory):
    prefix = directory if directory.endswith(os.sep) else directory + os.sep
    return path == directory or path.startswith(prefix)


def local_path(url, field):
    """The path of the file ``url`` (file://) names, resolved, when it
    may be read; InvalidParameterValue naming ``field`` otherwise (the
    same message whether or not a refused path exists)."""
    path = urlparse.urlparse(url).path
    resolved = os.path.realpath(path)
    allowed = [p for p in CONF.conductor.file_url_allowed_paths if p]
    if (not os.path.isabs(path) or any(_under(resolved, b) for b in BLOCKED)
            or not any(_under(resolved, os.path.realpath(a))
                       for a in allowed)):
        raise exception.InvalidParameterValue(
            err='%s: file:// URLs are only taken for files under '
                '[conductor]file_url_allowed_paths (%s)'
                % (url, ', '.join(allowed) or 'none'), field=field)
    if not os.path.isfile(resolved):
        raise exception.InvalidParameterValue(
            err='%s: no such file on the conductor' % url, field=field)
    return resolved
