"""A tempest service client of the accelerators API, ``/v1/accelerators``
and ``/v1/nodes/{node}/accelerators`` (doc/accelerators.md, "API").

Built, as the baremetal, boot and host OS clients, on tempest's
RestClient (the token of the client manager's credentials, the catalog's
``baremetal`` endpoint, error statuses as tempest.lib exceptions). These
paths take no Ironic microversion (``GET /v1/accelerators`` is their own
version document), so none is sent.
"""

import json
from urllib import parse as urlparse

from tempest.lib.common import rest_client

from ironic_like.tests.tempest.services import baremetal_client


class AcceleratorsClient(rest_client.RestClient):
    """Devices, deployables and attach handles (read-only) under
    ``/v1/accelerators``, and a node's accelerators (with discovery on
    demand) under ``/v1/nodes/{node}/accelerators``."""

    version_prefix = 'v1'

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

    def show_version(self, **params):
        """GET /v1/accelerators: this API's own version document."""
        return self._call('GET', ['accelerators'], **params)

    # -- devices, deployables, attach handles -------------------------------

    def list_devices(self, **params):
        """``node``, ``type``, ``vendor``, ``in_use``, ``status``."""
        return self._call('GET', ['accelerators', 'devices'], **params)

    def show_device(self, uuid):
        return self._call('GET', ['accelerators', 'devices', uuid])

    def list_deployables(self, **params):
        """``node``, ``device``, ``type``, ``vendor``."""
        return self._call('GET', ['accelerators', 'deployables'], **params)

    def show_deployable(self, uuid):
        return self._call('GET', ['accelerators', 'deployables', uuid])

    def list_attach_handles(self, **params):
        """``node``, ``device``, ``in_use``."""
        return self._call('GET', ['accelerators', 'attach_handles'],
                          **params)

    def show_attach_handle(self, uuid):
        return self._call('GET', ['accelerators', 'attach_handles', uuid])

    # -- a node's accelerators -----------------------------------------------

    def show_node_accelerators(self, node):
        """GET /v1/nodes/{node}/accelerators (UUID or name): devices,
        deployables, attach handles, attachments, traits, discovery."""
        return self._call('GET', ['nodes', node, 'accelerators'])

    def discover_node_accelerators(self, node):
        """POST /v1/nodes/{node}/accelerators/discover: re-inventory now
        (202, no body; 409 when the node has no agent up)."""
        return self._call('POST', ['nodes', node, 'accelerators', 'discover'],
                          {}, expected=202)
