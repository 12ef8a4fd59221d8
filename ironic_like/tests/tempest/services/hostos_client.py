"""A tempest service client of the host OS configuration API,
``/v1/hostos`` (doc/hostos.md: Mirantis's HostOSConfiguration and
HostOSConfigurationModules under ``/v1/hostos``).

Built, as the baremetal and boot clients, on tempest's RestClient (the
token of the client manager's credentials, the catalog's ``baremetal``
endpoint, error statuses as tempest.lib exceptions). These paths take no
Ironic microversion, so none is sent.

The host agent's heartbeat is a public route: a host agent has no
keystone token, its host agent token authenticates it. :meth:`heartbeat`
sends it without a keystone token by default, as the host agent does.
"""

import json
from urllib import parse as urlparse

from tempest.lib.common import rest_client

from ironic_like.tests.tempest.services import baremetal_client


class HostOSClient(rest_client.RestClient):
    """Modules, configurations (their nodes, reapply, resume) and the host
    agents, under ``/v1/hostos`` of the catalog's endpoint."""

    version_prefix = 'v1/hostos'

    # -- plumbing ----------------------------------------------------------

    def _url(self, *parts, **params):
        path = '/'.join([self.version_prefix] +
                        [urlparse.quote(str(p), safe='') for p in parts])
        return path + baremetal_client._query(params)

    @staticmethod
    def _wrap(resp, body):
        return rest_client.ResponseBody(resp, json.loads(body)
                                        if body else None)

    def _call(self, method, parts, body=None, expected=200, **params):
        data = None if body is None else json.dumps(body)
        resp, resp_body = self.request(method, self._url(*parts, **params),
                                       body=data)
        self.expected_success(expected, resp.status)
        return self._wrap(resp, resp_body)

    # -- version -------------------------------------------------------------

    def show_version(self):
        """GET /v1/hostos: this API's own version document."""
        return self._call('GET', [])

    # -- modules -------------------------------------------------------------

    def list_modules(self, **params):
        """Every version of every module; ``name``, ``state``."""
        return self._call('GET', ['modules'], **params)

    def list_module_versions(self, name):
        """GET modules/{name}: the versions of one module."""
        return self._call('GET', ['modules', name])

    def show_module(self, name, version):
        return self._call('GET', ['modules', name, version])

    def create_module(self, **fields):
        """``name``, ``version``, ``url``, ``sha256sum`` and optionally
        ``description``: 202, the module ``verifying``."""
        return self._call('POST', ['modules'], fields, expected=202)

    def update_module(self, name, version, patch):
        """``patch``: a JSON patch (only ``/description`` may change)."""
        return self._call('PATCH', ['modules', name, version], patch)

    def delete_module(self, name, version):
        return self._call('DELETE', ['modules', name, version],
                          expected=204)

    # -- configurations ------------------------------------------------------

    def list_configurations(self, **params):
        """``status``."""
        return self._call('GET', ['configurations'], **params)

    def show_configuration(self, name):
        return self._call('GET', ['configurations', name])

    def create_configuration(self, **fields):
        """``name``, ``configs`` and optionally ``machine_selector``,
        ``order``, ``max_concurrent``, ``failure_threshold``: 201."""
        return self._call('POST', ['configurations'], fields, expected=201)

    def update_configuration(self, name, patch):
        """``patch``: a JSON patch."""
        return self._call('PATCH', ['configurations', name], patch)

    def delete_configuration(self, name):
        """204 when it is gone at once; 202 (``deleting``, the body is the
        configuration) while nodes still hold its items."""
        return self._call('DELETE', ['configurations', name],
                          expected=[202, 204])

    def list_configuration_nodes(self, name, **params):
        """Per node, per item status; ``state``, ``node``."""
        return self._call('GET', ['configurations', name, 'nodes'], **params)

    def reapply(self, name, nodes=None):
        """Re-run the items (on ``nodes`` only, if given): 202 with
        ``reapplied_items``."""
        body = {} if nodes is None else {'nodes': list(nodes)}
        return self._call('POST', ['configurations', name, 'reapply'], body,
                          expected=202)

    def resume(self, name):
        """Lift the pause of a failure threshold (409 if not paused)."""
        return self._call('POST', ['configurations', name, 'resume'], {})

    # -- host agents ---------------------------------------------------------

    def heartbeat(self, node, token=None, agent_version='1.0', held=None,
                  reports=None, authenticated=False):
        """POST agents/heartbeat as the host agent of ``node`` (a UUID):
        a public route, so by default sent without a keystone token (the
        host agent token, absent on the first heartbeat, authenticates
        it). The answer holds the items and, on the first heartbeat, the
        token."""
        body = {'node': node, 'agent_version': agent_version}
        if token is not None:
            body['token'] = token
        if held is not None:
            body['held'] = list(held)
        if reports is not None:
            body['reports'] = list(reports)
        url = self._url('agents', 'heartbeat')
        data = json.dumps(body)
        if authenticated:
            resp, resp_body = self.request('POST', url, body=data)
        else:
            full_url = '%s/%s' % (self.base_url.rstrip('/'), url)
            resp, resp_body = self.raw_request(
                full_url, 'POST', headers=self.get_headers(), body=data)
            self._error_checker(resp, resp_body)
        self.expected_success(200, resp.status)
        return self._wrap(resp, resp_body)

    def reset_agent(self, node):
        """DELETE agents/{node}: forget the node's host agent token (its
        next heartbeat gets a new one); 204."""
        return self._call('DELETE', ['agents', node], expected=204)
