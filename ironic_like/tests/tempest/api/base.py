"""Base of the plugin's tests: credentials, the client, microversions,
helpers that create resources and always clean them up, and bounded
waits."""

from tempest import config
from tempest.lib.common import api_version_utils
from tempest.lib.common.utils import data_utils
from tempest.lib import exceptions as lib_exc
from tempest import test

from ironic_like.tests import utils as test_utils

CONF = config.CONF
STABLE_STATES = frozenset(['enroll', 'manageable', 'available', 'active'])


def rand_name(prefix='tempest'):
    """A node/allocation name the API accepts (letters, digits, -)."""
    return data_utils.rand_name(prefix).replace('_', '-').lower()


class BaseBaremetalLikeTest(api_version_utils.BaseMicroversionTest,
                            test.BaseTestCase):
    """Every request of the class uses ``min_microversion`` (raised to the
    configured minimum); the class is skipped when its range is outside
    the configured one."""

    # Enrolling nodes, wiring ports, conductors and drivers need a system
    # admin: an admin of a project (tempest's "admin") is no cloud admin.
    credentials = ['system_admin']
    min_microversion = '1.1'
    max_microversion = 'latest'

    @classmethod
    def skip_checks(cls):
        super().skip_checks()
        if not CONF.service_available.ironic_like:
            raise cls.skipException('ironic_like is not available')
        api_version_utils.check_skip_with_microversion(
            cls.min_microversion, cls.max_microversion,
            CONF.baremetal_like.min_microversion,
            CONF.baremetal_like.max_microversion)

    @classmethod
    def setup_credentials(cls):
        # No network resources: the service has no neutron.
        cls.set_network_resources()
        super().setup_credentials()

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.request_microversion = (
            api_version_utils.select_request_microversion(
                cls.min_microversion, CONF.baremetal_like.min_microversion))
        cls.client = cls.make_client(cls.os_system_admin)

    @classmethod
    def make_client(cls, manager):
        client = manager.baremetal_like.BaremetalLikeClient()
        client.api_microversion = cls.request_microversion
        return client

    # -- resources (each removed at the end of the test) -----------------

    def create_node(self, client=None, **fields):
        client = client or self.client
        fields.setdefault('driver', 'fake-hardware')
        fields.setdefault('name', rand_name('tempest-node'))
        node = client.create_node(**fields)
        self.addCleanup(self.cleanup_node, node['uuid'])
        return node

    def cleanup_node(self, uuid):
        """Delete the node whatever its state: states that refuse
        deletion (deploying, active...) allow it in maintenance."""
        try:
            self.client.delete_node(uuid)
            return
        except lib_exc.NotFound:
            return
        except (lib_exc.Conflict, lib_exc.BadRequest):
            pass
        try:
            self.client.set_maintenance(uuid, 'tempest clean-up')
            self.client.delete_node(uuid)
        except lib_exc.NotFound:
            pass

    def create_port(self, node_uuid, client=None, **fields):
        client = client or self.client
        fields.setdefault('address', data_utils.rand_mac_address())
        if node_uuid is not None:
            # (None: the node is given otherwise, as node_ident.)
            fields['node_uuid'] = node_uuid
        port = client.create_port(**fields)
        self.addCleanup(self._ignore_not_found, self.client.delete_port,
                        port['uuid'])
        return port

    def create_allocation(self, client=None, **fields):
        client = client or self.client
        allocation = client.create_allocation(**fields)
        self.addCleanup(self._delete_allocation, allocation['uuid'])
        return allocation

    def _delete_allocation(self, uuid):
        try:
            self.client.delete_allocation(uuid)
        except lib_exc.NotFound:
            pass
        except lib_exc.Conflict:
            # Its node is active: the node's own clean-up (maintenance,
            # delete; registered earlier, so run later) deletes it.
            pass

    @staticmethod
    def _ignore_not_found(func, *args):
        try:
            func(*args)
        except lib_exc.NotFound:
            pass

    # -- waits (bounded by [baremetal_like]build_timeout) -----------------

    def wait_for(self, predicate, what, timeout=None):
        """Poll ``predicate`` until it returns a true value (returned)."""
        return test_utils.wait_for(
            predicate, timeout or CONF.baremetal_like.build_timeout,
            CONF.baremetal_like.build_interval, message=what,
            failure=lib_exc.TimeoutException)

    def wait_for_provision_state(self, uuid, state, timeout=None):
        """Wait for ``state``; fail at once in a failed state."""
        failed = {'deploy failed', 'clean failed', 'error'} - {state}
        seen = {}

        def reached():
            node = self.client.show_node(uuid)
            seen['node'] = node
            if node['provision_state'] in failed:
                self.fail('node %s went to %s instead of %s: %s'
                          % (uuid, node['provision_state'], state,
                             node.get('last_error')))
            # A stable state is reached when nothing is under way; a wait
            # state (clean wait, wait call-back) keeps its target.
            settled = (state not in STABLE_STATES
                       or node.get('target_provision_state') is None)
            return node['provision_state'] == state and settled and node
        return self.wait_for(reached, 'node %s to reach "%s"'
                             % (uuid, state), timeout)

    def post_inventory(self, inventory, **extra):
        """Post ``inventory`` as the inspecting agent of a node in
        "inspect wait" does (API 1.84), retrying while a conductor still
        holds the node; the lookup answer."""
        def post():
            try:
                return self.client.continue_inspection(
                    dict(extra, inventory=inventory), authenticated=False)
            except lib_exc.Conflict:
                return None  # a conductor still holds the node: retry
        return self.wait_for(post, 'inventory posted')

    def wait_for_allocation(self, ident, state='active'):
        def settled():
            allocation = self.client.show_allocation(ident)
            return allocation['state'] != 'allocating' and allocation
        allocation = self.wait_for(settled, 'allocation %s' % ident)
        self.assertEqual(state, allocation['state'],
                         allocation.get('last_error'))
        return allocation

    def make_available_node(self, **fields):
        """A fake-hardware node taken to ``available`` (manage, provide),
        so that an allocation may pick it."""
        node = self.create_node(**fields)
        self.client.set_node_provision_state(node['uuid'], 'manage')
        self.wait_for_provision_state(node['uuid'], 'manageable')
        self.client.set_node_provision_state(node['uuid'], 'provide')
        return self.wait_for_provision_state(node['uuid'], 'available')
