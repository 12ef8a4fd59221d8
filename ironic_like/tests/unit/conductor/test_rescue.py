"""Rescue and unrescue through the agent, end to end in one process: a
running conductor, fake power and boot, and a fake agent on loopback."""

import datetime
from unittest import mock
import warnings

from oslo_utils import timeutils

from ironic_like.common import agent_info
from ironic_like.common import agent_token
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import agent_timeouts
from ironic_like.conductor.flows import persistence
from ironic_like.conductor import rescue
from ironic_like.drivers import base as drivers_base
from ironic_like.drivers.modules import agent_rescue
from ironic_like.drivers.modules import fake
from ironic_like.tests import base
from ironic_like.tests.unit.conductor import test_agent_deploy
from ironic_like.tests.unit.db import utils

PASSWORD = 'r3scue me'
KERNEL = 'http://127.0.0.1:9/rescue.kernel'
RAMDISK = 'http://127.0.0.1:9/rescue.initramfs'


def _rescue_interface(name):
    # The 'rescue' kind, once the hardware types have it; before that the
    # agent deploy implies the agent rescue (conductor/rescue.interface).
    if 'rescue' in drivers_base.INTERFACE_KINDS:
        return {'rescue_interface': name}
    return {}


class RescueTestCase(test_agent_deploy.AgentDeployBase):

    def setUp(self):
        super().setUp()
        self.config(rescue_kernel=KERNEL, rescue_ramdisk=RAMDISK,
                    group='conductor')
        if 'rescue' in drivers_base.INTERFACE_KINDS:
            # Ironic's default enables no-rescue only.
            self.config(enabled_rescue_interfaces=['no-rescue', 'agent'])

    def _active(self, **kwargs):
        values = {'provision_state': states.ACTIVE,
                  'driver_internal_info': {fake.FAKE_POWER_KEY:
                                           states.POWER_ON}}
        values.update(_rescue_interface('agent'))
        values.update(kwargs)
        return self._node(**values)

    def _to_rescue_wait(self, node):
        node = self._act(node, 'rescue', {'rescue_password': PASSWORD})
        self.assertEqual(states.RESCUEWAIT, node.provision_state)
        self.assertEqual(states.RESCUE, node.target_provision_state)
        self.assertEqual('rescue-finalize', self._phase(node))
        self.assertEqual(states.POWER_ON, self._power(node))
        return self._give_token(node)

    def _finalize_params(self):
        found = [p for n, p, _q in self.agent.received
                 if n == 'rescue.finalize_rescue']
        self.assertEqual(1, len(found))
        return found[0]

    def test_rescue_and_unrescue(self):
        node = self._active()
        node = self._to_rescue_wait(node)
        info = node.instance_info
        self.assertEqual(PASSWORD, info['rescue_password'])
        node = self._heartbeat(node)
        self.assertEqual(states.RESCUE, node.provision_state)
        self.assertIsNone(node.target_provision_state)
        self.assertIsNone(node.last_error)
        # The agent got the hash, never the password.
        params = self._finalize_params()
        self.assertTrue(params['hashed'])
        hashed = params['rescue_password']
        salt = hashed.split('$')[2]
        self.assertEqual(rescue.hash_password(PASSWORD, salt), hashed)
        self.assertNotIn(PASSWORD, repr(self.agent.received))
        # The password is gone; its hash stays until unrescue.
        self.assertNotIn('rescue_password', node.instance_info)
        self.assertEqual(hashed, node.instance_info['hashed_rescue_password'])
        # Out of the ramdisk: the (ended) agent's token and URL are gone.
        self.assertFalse(agent_token.is_present(node.driver_internal_info))
        self.assertNotIn(agent_info.AGENT_URL, node.driver_internal_info)
        self.assertIsNone(persistence.recorded(node))
        # The instance's own fields are untouched.
        self.assertEqual(test_agent_deploy.IMAGE,
                         node.instance_info['image_source'])

        node = self._act(node, 'unrescue')
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertIsNone(node.target_provision_state)
        self.assertIsNone(node.last_error)
        self.assertNotIn('hashed_rescue_password', node.instance_info)
        self.assertEqual({'boot_device': 'disk', 'persistent': True},
                         node.driver_internal_info[fake.FakeManagement.KEY])
        self.assertEqual(states.POWER_ON, self._power(node))

    def test_rescue_again_from_rescue(self):
        node = self._heartbeat(self._to_rescue_wait(self._active()))
        self.assertEqual(states.RESCUE, node.provision_state)
        node = self._to_rescue_wait(node)
        node = self._heartbeat(node)
        self.assertEqual(states.RESCUE, node.provision_state)

    def test_rescue_ramdisk_images_booted(self):
        seen = []

        def prepare(iface, task):
            seen.append((task.node.driver_info.get('deploy_kernel'),
                         task.node.driver_info.get('deploy_ramdisk')))

        with mock.patch.object(fake.FakeBoot, 'prepare_ramdisk',
                               autospec=True, side_effect=prepare):
            node = self._to_rescue_wait(self._active(
                driver_info={'rescue_ramdisk': 'http://h/own.initramfs'}))
        self.assertEqual([(KERNEL, 'http://h/own.initramfs')], seen)
        # Nothing of that view was written to the node.
        self.assertEqual({'rescue_ramdisk': 'http://h/own.initramfs'},
                         node.driver_info)

    def test_agent_failure_fails_the_rescue(self):
        self.agent.fail['rescue.finalize_rescue'] = 'no shadow file'
        node = self._heartbeat(self._to_rescue_wait(self._active()))
        self.assertEqual(states.RESCUEFAIL, node.provision_state)
        self.assertIn('rescue-finalize', node.last_error)
        self.assertIn('no shadow file', node.last_error)
        self.assertNotIn('rescue_password', node.instance_info)
        self.assertNotIn('hashed_rescue_password', node.instance_info)
        self.assertEqual(states.POWER_OFF, self._power(node))
        # Unrescue from rescue failed boots the instance again.
        node = self._act(node, 'unrescue')
        self.assertEqual(states.ACTIVE, node.provision_state)

    def test_abort_rescue_wait(self):
        node = self._to_rescue_wait(self._active())
        self.api.do_provisioning_action(self.context, node, 'abort', None)
        node = utils.wait_for_node(
            node.uuid, lambda n: n.provision_state == states.RESCUEFAIL and
            'rescue_password' not in (n.instance_info or {}))
        self.assertEqual('Aborted by request.', node.last_error)
        node = utils.wait_for_node(
            node.uuid, lambda n: self._power(n) == states.POWER_OFF)
        self.assertFalse(agent_token.is_present(node.driver_internal_info))

    def test_rescue_wait_timeout(self):
        self.config(rescue_callback_timeout=60, group='conductor')
        node = self._to_rescue_wait(self._active())
        self.assertIsNone(rescue.wait_overdue(node))
        later = timeutils.utcnow() + datetime.timedelta(seconds=61)
        self.assertGreater(rescue.wait_overdue(node, now=later), 0)
        past = (timeutils.utcnow() -
                datetime.timedelta(seconds=120)).isoformat()
        info = dict(node.driver_internal_info,
                    **{agent_info.PHASE_STARTED: past})
        self.db.update_node(node.id, {'driver_internal_info': info})
        rows = [(node.id, node.uuid, None, None, None, None, False,
                 states.RESCUEWAIT)]
        self.assertEqual({node.uuid: 'failed'},
                         agent_timeouts.check_nodes(self.context, rows))
        node = self.db.get_node_by_uuid(node.uuid)
        self.assertEqual(states.RESCUEFAIL, node.provision_state)
        self.assertIn('rescue_callback_timeout', node.last_error)
        self.assertNotIn('rescue_password', node.instance_info)

    def test_password_required(self):
        node = self._active()
        for params in (None, {'rescue_password': ''},
                       {'rescue_password': '   '}):
            self.assertRaises(exception.MissingParameterValue,
                              self.api.do_provisioning_action,
                              self.context, node, 'rescue', params)
        node = self.db.get_node_by_uuid(node.uuid)
        self.assertEqual(states.ACTIVE, node.provision_state)

    def test_rescue_kernel_required(self):
        self.config(rescue_kernel=None, group='conductor')
        node = self._active()
        e = self.assertRaises(exception.MissingParameterValue,
                              self.api.do_provisioning_action,
                              self.context, node, 'rescue',
                              {'rescue_password': PASSWORD})
        self.assertIn('rescue_kernel', str(e))

    def test_no_rescue_interface_refused(self):
        kwargs = ({'rescue_interface': 'no-rescue'}
                  if 'rescue' in drivers_base.INTERFACE_KINDS
                  else {'deploy_interface': 'fake'})
        node = self._active(**kwargs)
        e = self.assertRaises(exception.UnsupportedDriverExtension,
                              self.api.do_provisioning_action,
                              self.context, node, 'rescue',
                              {'rescue_password': PASSWORD})
        self.assertEqual(400, e.code)
        node = self.db.get_node_by_uuid(node.uuid)
        self.assertEqual(states.ACTIVE, node.provision_state)
        self.assertNotIn('rescue_password', node.instance_info)

    def test_unrescue_only_from_rescue_states(self):
        node = self._active()
        self.assertRaises(exception.InvalidStateRequested,
                          self.api.do_provisioning_action,
                          self.context, node, 'unrescue', None)


class HashPasswordTestCase(base.TestCase):

    def test_spec_vector(self):
        # Drepper's specification of SHA-512 crypt, its first example.
        self.assertEqual(
            '$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFN'
            'jnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1',
            rescue.hash_password('Hello world!', 'saltstring'))

    def test_matches_crypt(self):
        # Against the C library where Python still has the crypt module.
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            try:
                import crypt
            except ImportError:
                self.skipTest('no crypt module')
        for password, salt in (('x' * 100, 'abcdefghijklmnop'),
                               ('\u00e9t\u00e9', 'ab./')):
            self.assertEqual(crypt.crypt(password, '$6$' + salt),
                             rescue.hash_password(password, salt))

    def test_random_salt(self):
        first, second = (rescue.hash_password('pw') for _ in range(2))
        self.assertNotEqual(first, second)
        self.assertEqual(16, len(first.split('$')[2]))

    def test_without_passwords(self):
        info = {'image_source': 'x'}
        self.assertIs(info, agent_rescue.without_passwords(info))
        self.assertEqual({'hashed_rescue_password': 'h'},
                         agent_rescue.without_passwords(
                             {'rescue_password': 'p',
                              'hashed_rescue_password': 'h'},
                             keep_hash=True))
