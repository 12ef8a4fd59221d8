"""A tempest service client of the ironic_like /v1 API.

Built on tempest's RestClient: the token comes from the credentials the
client manager was made with, the endpoint from the catalog, and error
statuses become tempest.lib exceptions (400 BadRequest, 401 Unauthorized,
403 Forbidden, 404 NotFound, 406 NotAcceptable, 409 Conflict...).

Microversions: ``api_microversion`` (None: no header, i.e. the service's
minimum) is sent as ``X-OpenStack-Ironic-API-Version`` with every request;
:meth:`microversion` changes it for a block. A successful answer must echo
the version asked for (as Ironic does), which every call checks.
"""

import contextlib
import json
from urllib import parse as urlparse

from tempest.lib.common import rest_client
from tempest.lib import exceptions as lib_exc

MICROVERSION_HEADER = 'X-OpenStack-Ironic-API-Version'


def _query(params):
    """``?a=b&c=d`` of the parameters that are not None ('' if none);
    lists become comma-separated, as the API expects."""
    items = []
    for key, value in sorted(params.items()):
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            value = ','.join(value)
        elif isinstance(value, bool):
            value = str(value).lower()
        items.append((key, value))
    return '?' + urlparse.urlencode(items) if items else ''


class BaremetalLikeClient(rest_client.RestClient):
    """Nodes, ports, port groups, chassis, allocations, conductors,
    drivers and the agent's lookup and heartbeat, under ``/v1`` of the
    catalog's endpoint."""

    api_microversion_header_name = MICROVERSION_HEADER
    version_prefix = 'v1'

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.api_microversion = None

    # -- plumbing ----------------------------------------------------------

    def get_headers(self, accept_type=None, send_type=None):
        headers = super().get_headers(accept_type, send_type)
        if self.api_microversion:
            headers[self.api_microversion_header_name] = (
                self.api_microversion)
        return headers

    @contextlib.contextmanager
    def microversion(self, version):
        """Send ``version`` (None: no header) within the block."""
        saved = self.api_microversion
        self.api_microversion = version
        try:
            yield self
        finally:
            self.api_microversion = saved

    def request(self, method, url, *args, **kwargs):
        resp, resp_body = super().request(method, url, *args, **kwargs)
        self._check_version_header(resp)
        return resp, resp_body

    def _check_version_header(self, resp):
        # Only for a version actually sent and a number (not 'latest'):
        # the service must say it answered in that version.
        asked = self.api_microversion
        if not asked or asked == 'latest' or resp.status >= 400:
            return
        answered = resp.get(self.api_microversion_header_name.lower())
        if answered != asked:
            raise lib_exc.InvalidHTTPResponseHeader(
                'asked for microversion %s, the answer says %s'
                % (asked, answered))

    def _url(self, *parts, **params):
        path = '/'.join([self.version_prefix] +
                        [urlparse.quote(str(p), safe='') for p in parts])
        return path + _query(params)

    def _get(self, *parts, **params):
        resp, body = self.get(self._url(*parts, **params))
        self.expected_success(200, resp.status)
        return rest_client.ResponseBody(resp, json.loads(body))

    def _post(self, parts, body, expected=201, **params):
        resp, resp_body = self.post(self._url(*parts, **params),
                                    json.dumps(body))
        self.expected_success(expected, resp.status)
        return rest_client.ResponseBody(
            resp, json.loads(resp_body) if resp_body else None)

    def _put(self, parts, body, expected=202):
        resp, resp_body = self.put(self._url(*parts), json.dumps(body))
        self.expected_success(expected, resp.status)
        return rest_client.ResponseBody(
            resp, json.loads(resp_body) if resp_body else None)

    def _patch(self, parts, patch):
        resp, body = self.patch(self._url(*parts), json.dumps(patch))
        self.expected_success(200, resp.status)
        return rest_client.ResponseBody(resp, json.loads(body))

    def _delete(self, *parts, expected=204):
        resp, body = self.delete(self._url(*parts))
        self.expected_success(expected, resp.status)
        return rest_client.ResponseBody(resp, body)

    # -- versions ------------------------------------------------------------

    def get_root(self):
        """GET / (the versions document)."""
        resp, body = self.get('')
        self.expected_success(200, resp.status)
        return rest_client.ResponseBody(resp, json.loads(body))

    def get_v1(self):
        resp, body = self.get(self.version_prefix)
        self.expected_success(200, resp.status)
        return rest_client.ResponseBody(resp, json.loads(body))

    # -- nodes ---------------------------------------------------------------

    def list_nodes(self, detail=False, **params):
        if detail:
            return self._get('nodes', 'detail', **params)
        return self._get('nodes', **params)

    def show_node(self, ident, **params):
        return self._get('nodes', ident, **params)

    def create_node(self, **fields):
        return self._post(['nodes'], fields)

    def update_node(self, ident, patch):
        """``patch``: a JSON patch (list of operations)."""
        return self._patch(['nodes', ident], patch)

    def delete_node(self, ident):
        return self._delete('nodes', ident)

    def show_node_states(self, ident):
        return self._get('nodes', ident, 'states')

    def set_node_power_state(self, ident, target):
        return self._put(['nodes', ident, 'states', 'power'],
                         {'target': target})

    def set_node_provision_state(self, ident, target, **extra):
        body = dict(extra, target=target)
        return self._put(['nodes', ident, 'states', 'provision'], body)

    def list_node_indicators(self, ident):
        return self._get('nodes', ident, 'management', 'indicators')

    def show_node_indicator(self, ident, indicator):
        return self._get('nodes', ident, 'management', 'indicators',
                         indicator)

    def set_node_indicator(self, ident, indicator, state):
        return self._put(('nodes', ident, 'management', 'indicators',
                          indicator), {'state': state}, expected=204)

    def set_node_raid_config(self, ident, target_raid_config):
        return self._put(('nodes', ident, 'states', 'raid'),
                         target_raid_config, expected=204)

    def list_node_bios(self, ident):
        return self._get('nodes', ident, 'bios')

    def set_node_boot_mode(self, ident, target):
        return self._put(('nodes', ident, 'states', 'boot_mode'),
                         {'target': target})

    def set_node_secure_boot(self, ident, target):
        return self._put(('nodes', ident, 'states', 'secure_boot'),
                         {'target': target})

    def list_node_history(self, ident, **params):
        return self._get('nodes', ident, 'history', **params)

    def show_node_history_event(self, ident, event):
        return self._get('nodes', ident, 'history', event)

    def show_node_inventory(self, ident):
        return self._get('nodes', ident, 'inventory')

    def list_shards(self):
        return self._get('shards')

    def list_vmedia(self, ident):
        # A bare list (1.93), as Ironic answers.
        resp, body = self.get(self._url('nodes', ident, 'vmedia'))
        self.expected_success(200, resp.status)
        return rest_client.ResponseBodyList(resp, json.loads(body))

    def attach_vmedia(self, ident, **body):
        return self._post(['nodes', ident, 'vmedia'], body, expected=204)

    def detach_vmedia(self, ident, **params):
        resp, body = self.delete(self._url('nodes', ident, 'vmedia',
                                           **params))
        self.expected_success(204, resp.status)
        return rest_client.ResponseBody(resp, body)

    # -- vendor passthru (1.0) ------------------------------------------

    def list_vendor_passthru_methods(self, resource, ident):
        """``resource``: 'nodes' or 'drivers'."""
        return self._get(resource, ident, 'vendor_passthru', 'methods')

    def call_vendor_passthru(self, resource, ident, method, body=None,
                             http_method='POST'):
        """(HTTP status, the decoded answer or None)."""
        resp, resp_body = self.request(
            http_method, self._url(resource, ident, 'vendor_passthru',
                                   method=method),
            headers=self.get_headers(),
            body=json.dumps(body) if body is not None else None)
        self.expected_success([200, 202], resp.status)
        return resp.status, json.loads(resp_body) if resp_body else None

    def list_node_firmware(self, ident):
        return self._get('nodes', ident, 'firmware')

    def list_node_children(self, ident):
        return self._get('nodes', ident, 'children')

    def set_maintenance(self, ident, reason=None):
        body = {'reason': reason} if reason else {}
        return self._put(['nodes', ident, 'maintenance'], body)

    def unset_maintenance(self, ident):
        return self._delete('nodes', ident, 'maintenance', expected=202)

    def list_node_traits(self, ident):
        return self._get('nodes', ident, 'traits')

    def set_node_traits(self, ident, traits):
        return self._put(['nodes', ident, 'traits'], {'traits': traits},
                         expected=204)

    def add_node_trait(self, ident, trait):
        resp, body = self.put(self._url('nodes', ident, 'traits', trait),
                              None)
        self.expected_success(204, resp.status)
        return rest_client.ResponseBody(resp, body)

    def remove_node_trait(self, ident, trait):
        return self._delete('nodes', ident, 'traits', trait)

    def list_node_ports(self, ident, **params):
        return self._get('nodes', ident, 'ports', **params)

    # -- ports ---------------------------------------------------------------

    def list_ports(self, detail=False, **params):
        if detail:
            return self._get('ports', 'detail', **params)
        return self._get('ports', **params)

    def show_port(self, ident, **params):
        return self._get('ports', ident, **params)

    def create_port(self, **fields):
        return self._post(['ports'], fields)

    def update_port(self, ident, patch):
        return self._patch(['ports', ident], patch)

    def delete_port(self, ident):
        return self._delete('ports', ident)

    # -- port groups (1.23+; the sub-resources 1.24+) ----------------------

    def list_portgroups(self, detail=False, **params):
        if detail:
            return self._get('portgroups', 'detail', **params)
        return self._get('portgroups', **params)

    def show_portgroup(self, ident, **params):
        return self._get('portgroups', ident, **params)

    def create_portgroup(self, **fields):
        return self._post(['portgroups'], fields)

    def update_portgroup(self, ident, patch):
        return self._patch(['portgroups', ident], patch)

    def delete_portgroup(self, ident):
        return self._delete('portgroups', ident)

    def list_node_portgroups(self, ident, **params):
        return self._get('nodes', ident, 'portgroups', **params)

    def list_portgroup_ports(self, ident, **params):
        return self._get('portgroups', ident, 'ports', **params)

    # -- inspection rules (1.96) ------------------------------------------

    def list_inspection_rules(self, **params):
        return self._get('inspection_rules', **params)

    def show_inspection_rule(self, uuid, **params):
        return self._get('inspection_rules', uuid, **params)

    def create_inspection_rule(self, **fields):
        return self._post(['inspection_rules'], fields)

    def update_inspection_rule(self, uuid, patch):
        return self._patch(['inspection_rules', uuid], patch)

    def delete_inspection_rule(self, uuid):
        return self._delete('inspection_rules', uuid)

    # -- deploy templates (1.55) -------------------------------------------

    def show_deploy_template(self, ident, **params):
        return self._get('deploy_templates', ident, **params)

    def create_deploy_template(self, **fields):
        return self._post(['deploy_templates'], fields)

    def delete_deploy_template(self, ident):
        return self._delete('deploy_templates', ident)

    # -- runbooks (1.92) ---------------------------------------------------

    def list_runbooks(self, **params):
        return self._get('runbooks', **params)

    def show_runbook(self, ident, **params):
        return self._get('runbooks', ident, **params)

    def create_runbook(self, **fields):
        return self._post(['runbooks'], fields)

    def update_runbook(self, ident, patch):
        return self._patch(['runbooks', ident], patch)

    def delete_runbook(self, ident):
        return self._delete('runbooks', ident)

    def list_runbook_traits(self, ident):
        return self._get('runbooks', ident, 'traits')

    def add_runbook_trait(self, ident, trait):
        resp, _body = self.put(self._url('runbooks', ident, 'traits',
                                         trait), None)
        self.expected_success(204, resp.status)
        return resp

    def remove_runbook_trait(self, ident, trait):
        return self._delete('runbooks', ident, 'traits', trait)

    # -- chassis -----------------------------------------------------------

    def list_chassis(self, detail=False, **params):
        if detail:
            return self._get('chassis', 'detail', **params)
        return self._get('chassis', **params)

    def show_chassis(self, uuid, **params):
        return self._get('chassis', uuid, **params)

    def create_chassis(self, **fields):
        return self._post(['chassis'], fields)

    def update_chassis(self, uuid, patch):
        return self._patch(['chassis', uuid], patch)

    def delete_chassis(self, uuid):
        return self._delete('chassis', uuid)

    def list_chassis_nodes(self, uuid, **params):
        return self._get('chassis', uuid, 'nodes', **params)

    # -- allocations (1.52+) ---------------------------------------------

    def list_allocations(self, **params):
        return self._get('allocations', **params)

    def show_allocation(self, ident, **params):
        return self._get('allocations', ident, **params)

    def create_allocation(self, **fields):
        return self._post(['allocations'], fields)

    def update_allocation(self, ident, patch):
        return self._patch(['allocations', ident], patch)

    def delete_allocation(self, ident):
        return self._delete('allocations', ident)

    def show_node_allocation(self, node_ident, **params):
        return self._get('nodes', node_ident, 'allocation', **params)

    def delete_node_allocation(self, node_ident):
        return self._delete('nodes', node_ident, 'allocation')

    # -- conductors (1.49+) and drivers ----------------------------------

    def list_conductors(self, **params):
        return self._get('conductors', **params)

    def show_conductor(self, hostname, **params):
        return self._get('conductors', hostname, **params)

    def list_drivers(self, **params):
        return self._get('drivers', **params)

    def show_driver(self, name, **params):
        return self._get('drivers', name, **params)

    # -- the agent's endpoints (1.22+) -----------------------------------
    # Public routes: an agent has no keystone token. ``authenticated=False``
    # sends the request without one, as an agent does.

    def _agent_request(self, method, url, body=None, authenticated=True):
        if authenticated:
            return self.request(method, url, body=body)
        headers = self.get_headers()
        full_url = '%s/%s' % (self.base_url.rstrip('/'), url)
        resp, resp_body = self.raw_request(full_url, method, headers=headers,
                                           body=body)
        self._error_checker(resp, resp_body)
        self._check_version_header(resp)
        return resp, resp_body

    def lookup(self, addresses=None, node_uuid=None, authenticated=True):
        url = self._url('lookup', addresses=addresses, node_uuid=node_uuid)
        resp, body = self._agent_request('GET', url,
                                         authenticated=authenticated)
        self.expected_success(200, resp.status)
        return rest_client.ResponseBody(resp, json.loads(body))

    def continue_inspection(self, data, node_uuid=None, authenticated=True):
        url = self._url('continue_inspection', node_uuid=node_uuid)
        resp, body = self._agent_request('POST', url, json.dumps(data),
                                         authenticated=authenticated)
        self.expected_success(202, resp.status)
        return rest_client.ResponseBody(resp, json.loads(body))

    def heartbeat(self, node_ident, callback_url, agent_token=None,
                  agent_version=None, authenticated=True):
        body = {'callback_url': callback_url}
        if agent_token is not None:
            body['agent_token'] = agent_token
        if agent_version is not None:
            body['agent_version'] = agent_version
        resp, resp_body = self._agent_request(
            'POST', self._url('heartbeat', node_ident), json.dumps(body),
            authenticated=authenticated)
        self.expected_success(202, resp.status)
        return rest_client.ResponseBody(resp, resp_body)
