"""Files the conductor publishes under [deploy]http_root for machines and
BMCs to fetch (iPXE scripts, virtual media images): written whole or not
at all, readable by the web server serving them."""

import contextlib
import os
import tempfile

# Read by a web server that may run as another user.
FILE_MODE = 0o644


def remove(path):
    """Remove ``path``; already gone is no error."""
    try:
        os.unlink(path)
    except FileNotFoundError:
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
