"""Microversion negotiation, in front of the pecan application.

Done as middleware (not in a controller) so that every response, errors
included, carries the version headers, and so that a bad header is refused
before any controller code runs.
"""

import re

from ironic_like.api import errors
from ironic_like.api import versions

LEGACY_HEADER = 'X-OpenStack-Ironic-API-Version'
MIN_HEADER = 'X-OpenStack-Ironic-API-Minimum-Version'
MAX_HEADER = 'X-OpenStack-Ironic-API-Maximum-Version'
STANDARD_HEADER = 'OpenStack-API-Version'
SERVICE_TYPE = 'baremetal'
# Where the negotiated (major, minor) tuple is left for the controllers.
ENVIRON_KEY = 'ironic_like.api_version'
# Set (True) when a ".json" suffix was taken off the path (below 1.91);
# look-ups by name then also try the name with the suffix.
JSON_SUFFIX_KEY = 'ironic_like.json_suffix'
_JSON_SUFFIX = '.json'

_VERSION_RE = re.compile(r'^(0|[1-9]\d*)\.(0|[1-9]\d*)$')


class VersionError(Exception):

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def requested(environ):
    """The version string the client asked for, or None.

    The standard header wins over Ironic's own, as in Ironic; it may list
    several services ("compute 2.1, baremetal 1.31").
    """
    standard = environ.get('HTTP_OPENSTACK_API_VERSION')
    if standard:
        for item in standard.split(','):
            parts = item.strip().split(None, 1)
            if len(parts) == 2 and parts[0].lower() == SERVICE_TYPE:
                return parts[1].strip()
    return environ.get('HTTP_X_OPENSTACK_IRONIC_API_VERSION')


def parse(value):
    """(major, minor) of a requested version string.

    :raises VersionError: 400 if malformed, 406 if outside our range.
    """
    if value is None:
        return versions.MIN_VERSION
    if value.strip().lower() == 'latest':
        return versions.MAX_VERSION
    match = _VERSION_RE.match(value.strip())
    if not match:
        raise VersionError(
            400, 'Invalid value for %s header: "%s". Use "<major>.<minor>" '
                 'or "latest".' % (LEGACY_HEADER, value))
    version = (int(match.group(1)), int(match.group(2)))
    supported = '[%s, %s]' % (versions.MIN_VERSION_STRING,
                              versions.MAX_VERSION_STRING)
    if version[0] != versions.BASE_VERSION:
        raise VersionError(
            406, 'Mutually exclusive versions requested. Version %s '
                 'requested but not supported by this service. The '
                 'supported version range is: %s.'
                 % (versions.to_string(version), supported))
    if not versions.MIN_VERSION <= version <= versions.MAX_VERSION:
        raise VersionError(
            406, 'Version %s was requested but the minor version is not '
                 'supported by this service. The supported version range '
                 'is: %s.' % (versions.to_string(version), supported))
    return version


def _range_headers():
    return [(MIN_HEADER, versions.MIN_VERSION_STRING),
            (MAX_HEADER, versions.MAX_VERSION_STRING)]


def response_headers(version):
    text = versions.to_string(version)
    return _range_headers() + [
        (LEGACY_HEADER, text),
        (STANDARD_HEADER, '%s %s' % (SERVICE_TYPE, text)),
        ('Vary', '%s, %s' % (STANDARD_HEADER, LEGACY_HEADER)),
    ]


def _strip_json_suffix(environ, version):
    """Below 1.91, a client asking for a version had a path ending in
    ".json" served as the path without it (pecan's old content type
    guessing; Ironic kept it that way until 1.91). A client that asks
    for no version gets the path as it is, as in Ironic."""
    environ[JSON_SUFFIX_KEY] = False
    path = environ.get('PATH_INFO', '').rstrip('/')
    if (path.endswith(_JSON_SUFFIX) and requested(environ) is not None
            and version < versions.JSON_SUFFIX_LITERAL):
        environ['PATH_INFO'] = path[:-len(_JSON_SUFFIX)]
        environ[JSON_SUFFIX_KEY] = True


class VersionMiddleware(object):

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        path = environ.get('PATH_INFO', '')
        # Only /v1 is versioned; the root document answers whatever the
        # client sends, so that discovery never fails on a header.
        versioned = path == '/v1' or path.startswith('/v1/')
        try:
            version = parse(requested(environ))
        except VersionError as e:
            if versioned:
                return self._refuse(e, start_response)
            version = versions.MIN_VERSION
        environ[ENVIRON_KEY] = version
        if versioned:
            _strip_json_suffix(environ, version)
        extra = response_headers(version)
        names = {name.lower() for name, _value in extra}

        def add_headers(status, headers, exc_info=None):
            headers = [h for h in headers if h[0].lower() not in names]
            return start_response(status, headers + extra, exc_info)

        return self.app(environ, add_headers)

    @staticmethod
    def _refuse(error, start_response):
        body = errors.fault_body(error.status, str(error))
        status = '%d %s' % (error.status, errors.reason_phrase(error.status))
        start_response(status, [('Content-Type', 'application/json'),
                                ('Content-Length', str(len(body)))]
                       + _range_headers())
        return [body]
