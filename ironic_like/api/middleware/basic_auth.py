"""HTTP basic authentication against an htpasswd file of bcrypt hashes.

Ours rather than oslo.middleware's: that one reads its file name from its
own option group, answers 401 without a WWW-Authenticate challenge, and
runs bcrypt (tens of milliseconds by design) on every request. Here the
file is re-read only when it changes, and a credential verified once is
remembered (as an HMAC under a per-process random key, never in clear) for
as long as its hash line stays the same.
"""

import base64
import binascii
import hashlib
import hmac
import os
import threading

import bcrypt
from oslo_log import log

from ironic_like.api import errors

LOG = log.getLogger(__name__)

REALM = 'Baremetal API'
USER_KEY = 'HTTP_X_USER'
_BCRYPT_PREFIXES = (b'$2y$', b'$2a$', b'$2b$')
# Verified credentials kept; beyond this the memory is simply dropped.
_MAX_VERIFIED = 256


class Unauthenticated(Exception):
    pass


def read_user_file(path):
    """{user: bcrypt hash bytes} of an htpasswd file.

    Lines with another digest are skipped with a warning: accepting them
    would mean accepting weak (MD5, SHA1, crypt) passwords.
    """
    users = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#') or ':' not in line:
                continue
            user, hashed = line.split(':', 1)
            hashed = hashed.encode('utf-8')
            if hashed[:4] not in _BCRYPT_PREFIXES:
                LOG.warning('%s line %d: only bcrypt hashes are supported; '
                            'user %s ignored', path, number, user)
                continue
            users[user] = hashed
    return users


def parse_authorization(header):
    """(user, password bytes) from a Basic Authorization header."""
    if not header:
        raise Unauthenticated('Authentication required.')
    scheme, _sep, token = header.strip().partition(' ')
    if scheme.lower() != 'basic' or not token:
        raise Unauthenticated('Unsupported authorization type.')
    try:
        decoded = base64.b64decode(token.strip(), validate=True)
        user, password = decoded.split(b':', 1)
        return user.decode('utf-8'), password
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise Unauthenticated('Malformed authorization header.')


class BasicAuthMiddleware(object):

    def __init__(self, app, user_file):
        self.app = app
        self.user_file = user_file
        self._lock = threading.Lock()
        self._file_key = None
        self._users = {}
        self._verified = {}
        self._secret = os.urandom(32)
        # Fail at start-up, not on the first request, on a missing file.
        self._load()

    def _load(self):
        st = os.stat(self.user_file)
        key = (st.st_mtime_ns, st.st_size, st.st_ino)
        with self._lock:
            if key != self._file_key:
                self._users = read_user_file(self.user_file)
                self._verified = {}
                self._file_key = key
            return self._users

    def authenticate(self, header):
        """The user name, or Unauthenticated."""
        user, password = parse_authorization(header)
        try:
            users = self._load()
        except OSError as e:
            LOG.error('Cannot read the HTTP basic auth user file %s: %s',
                      self.user_file, e)
            raise Unauthenticated('Authentication is unavailable.')
        hashed = users.get(user)
        if hashed is None:
            LOG.info('HTTP basic auth: unknown user %s', user)
            raise Unauthenticated('Invalid credentials.')
        digest = hmac.new(self._secret, password, hashlib.sha256).digest()
        if hmac.compare_digest(self._verified.get((user, hashed), b''),
                               digest):
            return user
        if not bcrypt.checkpw(password, hashed):
            LOG.info('HTTP basic auth: wrong password for user %s', user)
            raise Unauthenticated('Invalid credentials.')
        if len(self._verified) >= _MAX_VERIFIED:
            self._verified = {}
        self._verified[(user, hashed)] = digest
        return user

    def __call__(self, environ, start_response):
        # Popped so the secret never travels further into the app.
        header = environ.pop('HTTP_AUTHORIZATION', None)
        try:
            user = self.authenticate(header)
        except Unauthenticated as e:
            body = errors.fault_body(401, str(e))
            start_response('401 Unauthorized', [
                ('Content-Type', 'application/json'),
                ('Content-Length', str(len(body))),
                ('WWW-Authenticate', 'Basic realm="%s"' % REALM)])
            return [body]
        environ[USER_KEY] = user
        return self.app(environ, start_response)
