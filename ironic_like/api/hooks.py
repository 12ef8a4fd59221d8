"""Pecan hooks: what every request gets before a controller runs, and how
a failed one becomes an Ironic-shaped error.

The request attributes are set in on_route, not before: pecan routes
first and calls the "before" hooks afterwards, and routing (the _lookup of
sub-resources) already depends on the negotiated version.
"""

import os
import threading

from oslo_log import log
from pecan import hooks
import webob
import webob.exc

from ironic_like.api import errors
from ironic_like.api.middleware import basic_auth
from ironic_like.api.middleware import version as version_mw
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.common import context
from ironic_like.common import exception
from ironic_like.conductor import rpcapi
from ironic_like.conf import CONF
from ironic_like.db import api as db_api

LOG = log.getLogger(__name__)


class ConfigHook(hooks.PecanHook):
    """The base URL of links: the configured public endpoint, else the
    URL the request came in on (script name included, so a mount under
    /baremetal works too)."""

    def on_route(self, state):
        public = CONF.api.public_endpoint
        if public:
            url = public.rstrip('/')
        else:
            url = state.request.application_url.rstrip('/')
        state.request.public_url = url


class VersionHook(hooks.PecanHook):
    """Hands the version the middleware negotiated to the controllers."""

    def on_route(self, state):
        state.request.version = state.request.environ.get(
            version_mw.ENVIRON_KEY, versions.MIN_VERSION)


class ContextHook(hooks.PecanHook):
    """Builds the request context for the configured auth strategy.

    Only the keystone strategy reads identity headers (which
    keystonemiddleware sets from a validated token); with noauth and
    http_basic every caller is an administrator and headers a client
    sends cannot change that.
    """

    def __init__(self, auth_strategy):
        self.auth_strategy = auth_strategy

    def on_route(self, state):
        environ = state.request.environ
        if self.auth_strategy == 'keystone':
            ctx = context.RequestContext.from_environ(environ)
        else:
            ctx = context.RequestContext(
                is_admin=True, roles=['admin', 'member', 'reader'],
                system_scope='all',
                user_id=environ.get(basic_auth.USER_KEY),
                request_id=environ.get('openstack.request_id'),
                overwrite=False)
        state.request.context = ctx


class DBHook(hooks.PecanHook):

    def on_route(self, state):
        state.request.dbapi = db_api.get_instance()


class RPCHook(hooks.PecanHook):
    """One ConductorAPI per process, made on first use.

    Lazily, because an API server may fork its workers after setup_app():
    a client built before the fork would share the parent's broker
    connections. The pid check rebuilds it in a forked child.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self._rpcapi = None
        self._pid = None

    def get(self):
        pid = os.getpid()
        if self._rpcapi is None or self._pid != pid:
            with self._lock:
                if self._rpcapi is None or self._pid != pid:
                    self._rpcapi = rpcapi.ConductorAPI()
                    self._pid = pid
        return self._rpcapi

    def on_route(self, state):
        # A getter, not the client: requests that never call a conductor
        # (version discovery, reads) then work even if the message bus is
        # misconfigured.
        state.request.get_rpcapi = self.get


class EmptyBodyHook(hooks.PecanHook):
    """204 answers carry no body, nor do 202 answers of controllers that
    return nothing (pecan would render "null"); a 202 with a document
    (/v1/hostos: a module being verified, a configuration being deleted)
    keeps it."""

    def after(self, state):
        response = state.response
        if response is None:
            return
        status = response.status_int
        if status == 204 or (status == 202
                             and response.body.strip() in (b'', b'null')):
            response.body = b''
            response.headers.pop('Content-Type', None)


# Content types whose body pecan decodes as text while it routes.
_DECODED_TYPES = frozenset(['application/json', 'application/javascript',
                            'application/x-www-form-urlencoded'])


class BodyDepthHook(hooks.PecanHook):
    """A JSON body nested too deeply is refused (400) before routing:
    pecan parses JSON bodies while it routes (for keyword arguments), and
    a RecursionError there would be a 500.

    So is a body pecan would fail to decode (not UTF-8): pecan would log
    a traceback for each and answer a generic 400.
    """

    def on_route(self, state):
        request = state.request
        body = request.body
        if body and request.method != 'GET' and \
                request.content_type in _DECODED_TYPES:
            try:
                body.decode(request.charset or 'utf-8')
            except (UnicodeDecodeError, LookupError):
                raise exception.InvalidParameterValue(
                    err='The request body is not valid JSON: it is not '
                        'UTF-8 text.')
        validation.check_raw_depth(body)


class ErrorHook(hooks.PecanHook):
    """Exceptions to Ironic's error shape; status from exception.code.

    Unexpected errors become a generic 500 and are logged with their
    traceback here, never sent to the client.
    """

    def on_error(self, state, e):
        if isinstance(e, exception.IronicLikeException):
            status = e.code
            message = errors.message_for(e)
            if status >= 500:
                LOG.error('%s %s failed: %s', state.request.method,
                          state.request.path, message)
            else:
                LOG.debug('%s %s refused (%s): %s', state.request.method,
                          state.request.path, status, message)
        elif isinstance(e, webob.exc.HTTPMethodNotAllowed):
            status = e.status_int
            message = 'Method %s is not allowed on %s.' % (
                state.request.method, state.request.path)
        elif isinstance(e, webob.exc.HTTPException):
            status = e.status_int
            message = e.detail or e.explanation
        else:
            LOG.exception('Unexpected error in %s %s',
                          state.request.method, state.request.path)
            status = 500
            message = 'Internal Server Error'
        response = webob.Response(status=status)
        response.body = errors.fault_body(status, message)
        response.content_type = 'application/json'
        retry_after = getattr(e, 'retry_after', None)
        if retry_after:
            response.headers['Retry-After'] = str(retry_after)
        return response
