"""Node flags and their rules: retired (1.61) is refused on an available
node and keeps a retired node from being provided; protected (1.48) is
refused outside "active"; a reason needs its flag."""

from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base


def _replace(field, value):
    return {'op': 'replace', 'path': '/%s' % field, 'value': value}


class TestNodeFlags(base.BaseBaremetalLikeTest):

    min_microversion = '1.61'

    def manageable_node(self):
        node = self.create_node()
        self.client.set_node_provision_state(node['uuid'], 'manage')
        return self.wait_for_provision_state(node['uuid'], 'manageable')

    @decorators.idempotent_id('5d1225a0-ff4c-4f2c-abe4-15a22afabe5c')
    def test_fields_default(self):
        node = self.create_node()
        self.assertIs(False, node['protected'])
        self.assertIsNone(node['protected_reason'])
        self.assertIs(False, node['retired'])
        self.assertIsNone(node['retired_reason'])
        self.assertIsNone(node['fault'])
        self.assertIn('automated_clean', node)

    @decorators.attr(type='negative')
    @decorators.idempotent_id('0358d795-3ba7-4ac0-98d7-f598d8bcac91')
    def test_retired_node_is_not_provided(self):
        node = self.manageable_node()
        updated = self.client.update_node(node['uuid'], [
            _replace('retired', True), _replace('retired_reason', 'EOL')])
        self.assertIs(True, updated['retired'])
        self.assertEqual('EOL', updated['retired_reason'])
        self.assertRaises(lib_exc.BadRequest,
                          self.client.set_node_provision_state,
                          node['uuid'], 'provide')
        shown = self.client.show_node(node['uuid'])
        self.assertEqual('manageable', shown['provision_state'])
        self.assertIsNone(shown['target_provision_state'])
        # Unretiring clears the reason.
        updated = self.client.update_node(node['uuid'], [
            _replace('retired', False)])
        self.assertIs(False, updated['retired'])
        self.assertIsNone(updated['retired_reason'])


class TestNodeFlagsAvailable(base.BaseBaremetalLikeTest):

    min_microversion = '1.61'

    @decorators.attr(type='negative')
    @decorators.idempotent_id('a8409fd7-4c64-4992-bd5c-da8d551c3e4a')
    def test_retired_refused_on_available(self):
        # A resource class of its own: no allocation of another test may
        # pick the available node.
        node = self.make_available_node(
            resource_class=base.rand_name('tempest-rc'))
        self.assertRaises(lib_exc.Conflict, self.client.update_node,
                          node['uuid'], [_replace('retired', True)])
        shown = self.client.show_node(node['uuid'])
        self.assertIs(False, shown['retired'])
        self.assertEqual('available', shown['provision_state'])


class TestNodeFlagsErrors(base.BaseBaremetalLikeTest):

    min_microversion = '1.61'

    @decorators.attr(type='negative')
    @decorators.idempotent_id('7add7d70-80cc-4746-a474-84e7f144d5d9')
    def test_protected_refused_outside_active(self):
        node = self.create_node()
        self.assertRaises(lib_exc.Conflict, self.client.update_node,
                          node['uuid'], [_replace('protected', True)])
        self.client.set_node_provision_state(node['uuid'], 'manage')
        self.wait_for_provision_state(node['uuid'], 'manageable')
        self.assertRaises(lib_exc.Conflict, self.client.update_node,
                          node['uuid'], [_replace('protected', True)])
        self.assertIs(False,
                      self.client.show_node(node['uuid'])['protected'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('d9ec4d6c-aaf4-49cb-ada9-667d3ca8d6d8')
    def test_reason_needs_its_flag(self):
        node = self.create_node()
        self.assertRaises(lib_exc.BadRequest, self.client.update_node,
                          node['uuid'], [_replace('protected_reason', 'x')])
        self.assertRaises(lib_exc.BadRequest, self.client.update_node,
                          node['uuid'], [_replace('retired_reason', 'x')])
        shown = self.client.show_node(node['uuid'])
        self.assertIsNone(shown['protected_reason'])
        self.assertIsNone(shown['retired_reason'])
