"""Outermost safety net: every error leaves in Ironic's JSON shape.

Errors raised in controllers are already shaped by hooks.ErrorHook; this
catches the rest (authentication middleware, routing, anything that
escaped) and makes sure no traceback or HTML page reaches a client.
"""

import json

from oslo_log import log
import webob
import webob.exc

from ironic_like.api import errors
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)


def _message(status, body):
    """Best short text for an error body that is not in our shape."""
    if status == 413:
        # oslo.middleware's sizelimit (its own text lacks the number).
        return ('Request body too large: the most this service accepts is '
                '%d bytes ([oslo_middleware]max_request_body_size).'
                % CONF.oslo_middleware.max_request_body_size)
    try:
        doc = json.loads(body)
    except ValueError:
        doc = None
    if isinstance(doc, dict):
        # keystonemiddleware: {"error": {"message": ...}};
        # webob/pecan JSON: {"description"|"message": ...}.
        inner = doc.get('error')
        if isinstance(inner, dict) and inner.get('message'):
            return str(inner['message'])
        for key in ('description', 'message', 'detail'):
            if doc.get(key):
                return str(doc[key])
    # Plain text or HTML bodies are not echoed (they may hold internals).
    cls = webob.exc.status_map.get(status)
    if cls is not None and cls.explanation:
        return cls.explanation
    return errors.reason_phrase(status)


class JsonErrorMiddleware(object):

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        request = webob.Request(environ)
        try:
            response = request.get_response(self.app)
        except Exception:
            LOG.exception('Unhandled error serving %s %s', request.method,
                          request.path)
            response = webob.Response(status=500)
            response.body = errors.fault_body(500, 'Internal Server Error')
            response.content_type = 'application/json'
            return response(environ, start_response)
        if response.status_code >= 400:
            body = response.body
            if not errors.is_fault_body(body):
                response.body = errors.fault_body(
                    response.status_code,
                    _message(response.status_code, body))
            response.content_type = 'application/json'
            response.charset = None
            if response.status_code == 503 and \
                    'Retry-After' not in response.headers:
                # Busy, fenced or unreachable conductors: worth retrying.
                response.headers['Retry-After'] = str(CONF.api.retry_after)
        return response(environ, start_response)
