"""Routes that need no authentication.

Version discovery (``/`` and ``/v1``) must work before a client has
credentials, as in Ironic, and so does the API's description
(``/openapi.json``); so do the deploy agent's lookup and heartbeat
and its inspection data (an agent has no keystone token: its agent
token, checked by the conductor, authenticates it; an inspecting agent
has none yet, and only a node waiting for inspection data takes it),
the report of an OS booted by a boot session (the referral token issued
to its component authenticates it),
and the heartbeat of a host agent on a deployed node (its host agent
token, issued on its first heartbeat, authenticates it).
Everything else goes through the authentication middleware.
"""

import re

PUBLIC_PATHS = frozenset(['', '/v1', '/openapi.json'])
PUBLIC_PATTERNS = [re.compile(p) for p in (
    r'^/v1/lookup$',
    r'^/v1/heartbeat/[^/]+$',
    r'^/v1/drivers/[^/]+/vendor_passthru/lookup$',
    r'^/v1/nodes/[^/]+/vendor_passthru/heartbeat$',
    # The inventory an inspecting agent posts (Ironic 1.84).
    r'^/v1/continue_inspection$',
    # The booted OS's report: the referral token authenticates it.
    r'^/v1/boot/components/[^/]+/report$',
    # The host agent's heartbeat: its host agent token authenticates it.
    r'^/v1/hostos/agents/heartbeat$',
)]


def is_public(path):
    return path in PUBLIC_PATHS or any(p.match(path)
                                       for p in PUBLIC_PATTERNS)


ENVIRON_KEY = 'ironic_like.public_api'


class PublicRoutesMiddleware(object):

    def __init__(self, app, protected_app):
        self.app = app
        self.protected_app = protected_app

    def __call__(self, environ, start_response):
        path = environ.get('PATH_INFO', '').rstrip('/')
        if is_public(path):
            environ[ENVIRON_KEY] = True
            return self.app(environ, start_response)
        environ[ENVIRON_KEY] = False
        return self.protected_app(environ, start_response)
