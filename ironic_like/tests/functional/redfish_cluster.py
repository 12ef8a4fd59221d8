"""A functional test case for Redfish nodes: sushy-tools' emulator (the
BMCs, started by the test) and a cluster; helpers to call the API, to
enrol a Redfish node and to move it to a provision state."""

import time

from ironic_like.common import states
from ironic_like.tests.functional import base

# A provision change of a Redfish node settles within this bound.
SETTLE_BOUND = 60


class RedfishClusterTestCase(base.FunctionalTestCase):

    def _call(self, method, path, body=None, expected=200, headers=None):
        resp = self.cluster.request(method, path, json=body,
                                    headers=headers)
        self.assertEqual(expected, resp.status_code, resp.text)
        return resp.json() if resp.content else None

    def _create(self, name, system, properties=None, headers=None,
                **fields):
        body = {'driver': 'redfish', 'name': name,
                'driver_info': self.emulator.driver_info(system['uuid']),
                'properties': properties or {}}
        body.update(fields)
        return self._call('POST', '/v1/nodes', body, expected=201,
                          headers=headers)['uuid']

    def _node(self, uuid):
        return self._call('GET', '/v1/nodes/%s' % uuid)

    def _provision(self, uuid, target, wanted, body=None, bound=None):
        body = dict(body or {}, target=target)
        for _ in range(20):
            resp = self.cluster.request(
                'PUT', '/v1/nodes/%s/states/provision' % uuid, json=body)
            if resp.status_code != 409:  # briefly locked (power sync)
                break
            time.sleep(0.5)
        self.assertEqual(202, resp.status_code, resp.text)

        def settled():
            node = self._node(uuid)
            state = node['provision_state']
            # A wait state is where a polled step leaves the node
            # (unless the test waits for that state).
            if state in states.TRANSIENT_STATES or (
                    state in states.WAIT_STATES and
                    wanted not in states.WAIT_STATES):
                return None
            return node
        node = self.assertEventually(
            settled, bound or SETTLE_BOUND, interval=0.25,
            message=lambda: 'node %s still busy: %s'
            % (uuid, self._node(uuid)))
        self.assertEqual(wanted, node['provision_state'],
                         node['last_error'])
        return node
