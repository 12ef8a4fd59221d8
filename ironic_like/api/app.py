"""The WSGI application of the API.

Layers, outermost first:
  RequestId             X-OpenStack-Request-Id (and Ironic's older
                        OpenStack-Request-Id) on every answer
  JsonErrorMiddleware   any error becomes Ironic's error JSON
  VersionMiddleware     microversion negotiation; version headers on every
                        answer, 401s included
  RequestBodySizeLimiter  oslo.middleware: 413 for a body larger than
                        [oslo_middleware]max_request_body_size
  PublicRoutes          / and /v1 skip authentication
  auth                  keystonemiddleware | basic auth | nothing (noauth)
  pecan                 hooks + controllers
"""

from keystonemiddleware import auth_token
from oslo_middleware import request_id
from oslo_middleware import sizelimit
import pecan

from ironic_like.api.controllers import root
from ironic_like.api import hooks
from ironic_like.api import json_renderer
from ironic_like.api.middleware import basic_auth
from ironic_like.api.middleware import json_errors
from ironic_like.api.middleware import public_routes
from ironic_like.api.middleware import version
from ironic_like.api import pecan_argspec
from ironic_like.conf import CONF


class _RequestId(request_id.RequestId):
    # Ironic answers with both headers (API 1.107 documents the first;
    # its clients read either).
    compat_headers = ['openstack-request-id']


def _pecan_app(auth_strategy):
    pecan_argspec.install()
    app_hooks = [
        hooks.ConfigHook(),
        hooks.VersionHook(),
        hooks.ContextHook(auth_strategy),
        hooks.DBHook(),
        hooks.RPCHook(),
        hooks.BodyDepthHook(),
        hooks.EmptyBodyHook(),
        hooks.ErrorHook(),
    ]
    return pecan.make_app(
        root.RootController(),
        hooks=app_hooks,
        debug=False,
        force_canonical=False,
        # Otherwise a node named "n1.json" is read as n1 in JSON.
        guess_content_type_from_ext=False,
        custom_renderers={'json': json_renderer.JsonRenderer},
    )


def _auth_layer(app, auth_strategy, skip_auth_token):
    if auth_strategy == 'keystone':
        if skip_auth_token:
            # Tests only: identity headers are then trusted as sent.
            return app
        return auth_token.AuthProtocol(app, {'oslo_config_config': CONF})
    if auth_strategy == 'http_basic':
        return basic_auth.BasicAuthMiddleware(
            app, CONF.http_basic_auth_user_file)
    return app


def setup_app(skip_auth_token=False):
    """Build the complete API WSGI application from CONF.

    :param skip_auth_token: with auth_strategy=keystone, do not install
        keystonemiddleware's auth_token (unit tests send X-Roles,
        X-Project-Id and OpenStack-System-Scope headers themselves).
    """
    auth_strategy = CONF.auth_strategy
    app = _pecan_app(auth_strategy)
    protected = _auth_layer(app, auth_strategy, skip_auth_token)
    if protected is not app:
        app = public_routes.PublicRoutesMiddleware(app, protected)
    # Before authentication: an oversized body is refused unread. Inside
    # the version and error layers: the 413 is an Ironic error with the
    # version headers.
    app = sizelimit.RequestBodySizeLimiter(app, CONF)
    app = version.VersionMiddleware(app)
    app = json_errors.JsonErrorMiddleware(app)
    app = _RequestId(app)
    return app
