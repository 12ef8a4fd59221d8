"""The heartbeat call: ``POST <api_url>/v1/hostos/agents/heartbeat``.

urllib only (the agent has no dependencies). No keystone token: the
service knows the agent by its own token, handed out on first use.
"""

import http.client
import json
import urllib.error
import urllib.request

from ironic_like_hostagent import AGENT_VERSION

HEARTBEAT_PATH = '/v1/hostos/agents/heartbeat'
# (seconds) for one heartbeat: connect and read together, as urllib has
# one timeout per socket operation.
DEFAULT_TIMEOUT = 30.0
# An answer is a few items; refuse to read a runaway one.
MAX_RESPONSE = 16 * 1024 * 1024


class HeartbeatError(Exception):
    """The heartbeat did not get a usable answer."""


class TransportError(HeartbeatError):
    """The service could not be reached (retried with back-off)."""


class Unauthorized(HeartbeatError):
    """401: the service rejects our token (or our lack of one)."""


class APIError(HeartbeatError):
    """Any other non-200 answer, or a body that is not a JSON object."""

    def __init__(self, status, message):
        super().__init__('HTTP %s: %s' % (status, message))
        self.status = status


def default_opener():
    """An opener honouring the usual proxy variables, as curl would."""
    return urllib.request.build_opener()


class Client(object):

    def __init__(self, api_url, opener=None, timeout=DEFAULT_TIMEOUT):
        self.url = api_url.rstrip('/') + HEARTBEAT_PATH
        self.opener = opener or default_opener()
        self.timeout = timeout

    def heartbeat(self, body):
        """Send one heartbeat; answers the response's JSON object.

        :raises Unauthorized: 401.
        :raises APIError: another status, or not a JSON object.
        :raises TransportError: connection refused, reset, timed out.
        """
        request = urllib.request.Request(
            self.url, data=json.dumps(body).encode('utf-8'), method='POST',
            headers={'Content-Type': 'application/json',
                     'Accept': 'application/json',
                     'User-Agent': 'ironic-like-host-agent/%s'
                     % AGENT_VERSION})
        try:
            with self.opener.open(request, timeout=self.timeout) as resp:
                status = resp.status
                raw = resp.read(MAX_RESPONSE + 1)
        except urllib.error.HTTPError as exc:
            text = _error_text(exc)
            if exc.code == 401:
                raise Unauthorized(text)
            raise APIError(exc.code, text)
        except (urllib.error.URLError, http.client.HTTPException,
                OSError) as exc:
            raise TransportError('%s: %s' % (self.url, _reason(exc)))
        if status != 200:
            raise APIError(status, 'unexpected status')
        if len(raw) > MAX_RESPONSE:
            raise APIError(status, 'response larger than %d bytes'
                           % MAX_RESPONSE)
        try:
            doc = json.loads(raw.decode('utf-8'))
        except ValueError as exc:
            raise APIError(status, 'invalid JSON: %s' % exc)
        if not isinstance(doc, dict):
            raise APIError(status, 'the response is not a JSON object')
        return doc


def _reason(exc):
    reason = getattr(exc, 'reason', None)
    return str(reason if reason is not None else exc) or type(exc).__name__


def _error_text(exc):
    """The service's message (Ironic-style error body) or the reason."""
    try:
        raw = exc.read(64 * 1024)
    except (OSError, http.client.HTTPException):
        raw = b''
    try:
        doc = json.loads(raw.decode('utf-8'))
    except ValueError:
        doc = None
    if isinstance(doc, dict):
        # Ironic wraps its faults: {"error_message": "{\"faultstring\"..}"}
        message = doc.get('error_message') or doc.get('message')
        if isinstance(message, str):
            try:
                inner = json.loads(message)
            except ValueError:
                inner = None
            if isinstance(inner, dict) and inner.get('faultstring'):
                return str(inner['faultstring'])
            return message
        if doc.get('faultstring'):
            return str(doc['faultstring'])
    return (raw.decode('utf-8', 'replace').strip()[:500]
            or str(exc.reason))
