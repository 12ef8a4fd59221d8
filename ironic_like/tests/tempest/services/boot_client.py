"""A tempest service client of the boot sessions API, ``/v1/boot``
(doc/boot-sessions.md: Cray BOS v2's shape under ``/v1/boot``).

Built, as the baremetal client, on tempest's RestClient (the token of the
client manager's credentials, the catalog's ``baremetal`` endpoint, error
statuses as tempest.lib exceptions). These paths take no Ironic
microversion, so none is sent. Bodies are JSON: objects come back as
``ResponseBody``, arrays as ``ResponseBodyList`` and a bare string
(``sessiontemplatesvalid``) as ``ResponseBodyData`` (its ``data``).
"""

import json
from urllib import parse as urlparse

from tempest.lib.common import rest_client

from ironic_like.tests.tempest.services import baremetal_client


def _wrap(resp, body):
    doc = json.loads(body) if body else None
    if isinstance(doc, list):
        return rest_client.ResponseBodyList(resp, doc)
    if doc is None or isinstance(doc, dict):
        return rest_client.ResponseBody(resp, doc)
    return rest_client.ResponseBodyData(resp, doc)


class BootClient(rest_client.RestClient):
    """Session templates, sessions, components, applystaged and options,
    under ``/v1/boot`` of the catalog's endpoint."""

    version_prefix = 'v1/boot'

    # -- plumbing ----------------------------------------------------------

    def _url(self, *parts, **params):
        path = '/'.join([self.version_prefix] +
                        [urlparse.quote(str(p), safe='') for p in parts])
        return path + baremetal_client._query(params)

    def _call(self, method, parts, body=None, expected=200, **params):
        data = None if body is None else json.dumps(body)
        resp, resp_body = self.request(method, self._url(*parts, **params),
                                       body=data)
        self.expected_success(expected, resp.status)
        return _wrap(resp, resp_body)

    # -- version -------------------------------------------------------------

    def show_version(self):
        """GET /v1/boot: this API's own version document."""
        return self._call('GET', [])

    # -- session templates -------------------------------------------------

    def list_templates(self):
        return self._call('GET', ['sessiontemplates'])

    def show_template(self, name):
        return self._call('GET', ['sessiontemplates', name])

    def put_template(self, name, template):
        """Create or replace (200, as BOS)."""
        return self._call('PUT', ['sessiontemplates', name], template)

    def update_template(self, name, patch):
        """``patch``: the fields to change (merged, as BOS merges)."""
        return self._call('PATCH', ['sessiontemplates', name], patch)

    def delete_template(self, name):
        return self._call('DELETE', ['sessiontemplates', name],
                          expected=204)

    def validate_template(self, name):
        """GET sessiontemplatesvalid/{name}: ``.data`` is "Valid" or the
        error messages."""
        return self._call('GET', ['sessiontemplatesvalid', name])

    def show_example_template(self):
        return self._call('GET', ['sessiontemplatetemplate'])

    # -- sessions ------------------------------------------------------------

    def list_sessions(self, **params):
        """``status``, ``min_age``, ``max_age``."""
        return self._call('GET', ['sessions'], **params)

    def show_session(self, name):
        return self._call('GET', ['sessions', name])

    def create_session(self, **fields):
        """``operation``, ``template_name`` and optionally ``name``,
        ``limit``, ``stage``, ``include_disabled``, ``takeover``."""
        return self._call('POST', ['sessions'], fields, expected=201)

    def preview_session(self, **fields):
        """What create_session would act on (changes nothing)."""
        return self._call('POST', ['sessions', 'preview'], fields)

    def show_session_status(self, name):
        return self._call('GET', ['sessions', name, 'status'])

    def abort_session(self, name):
        return self._call('POST', ['sessions', name, 'abort'], {})

    def delete_session(self, name):
        return self._call('DELETE', ['sessions', name], expected=204)

    def delete_sessions(self, **params):
        """DELETE /sessions with ``status``, ``min_age``, ``max_age``."""
        return self._call('DELETE', ['sessions'], expected=204, **params)

    # -- components ----------------------------------------------------------

    def list_components(self, **params):
        """``ids`` (a list or comma-separated), ``session``,
        ``staged_session``, ``enabled``, ``phase``, ``status``,
        ``start_after_id``, ``page_size``."""
        return self._call('GET', ['components'], **params)

    def show_component(self, ident):
        return self._call('GET', ['components', ident])

    def update_component(self, ident, patch):
        return self._call('PATCH', ['components', ident], patch)

    def replace_component(self, ident, record):
        return self._call('PUT', ['components', ident], record)

    def update_components(self, body, **params):
        """PATCH /components: an array of records with ids, or
        ``{"patch": ..., "filters": ...}``."""
        return self._call('PATCH', ['components'], body, **params)

    def report(self, ident, bss_token, authenticated=False):
        """The booted OS's report: a public route, so by default sent
        without a keystone token, as the reporter sends it (the referral
        token authenticates it)."""
        url = self._url('components', ident, 'report')
        body = json.dumps({'bss_token': bss_token})
        if authenticated:
            resp, resp_body = self.request('POST', url, body=body)
        else:
            full_url = '%s/%s' % (self.base_url.rstrip('/'), url)
            resp, resp_body = self.raw_request(
                full_url, 'POST', headers=self.get_headers(), body=body)
            self._error_checker(resp, resp_body)
        self.expected_success(204, resp.status)
        return rest_client.ResponseBody(resp, None)

    # -- applystaged and options ---------------------------------------------

    def apply_staged(self, xnames):
        return self._call('POST', ['applystaged'], {'xnames': xnames})

    def show_options(self):
        return self._call('GET', ['options'])

    def update_options(self, **options):
        return self._call('PATCH', ['options'], options)
