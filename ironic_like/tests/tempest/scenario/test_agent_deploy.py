"""Deploy one machine of the lab through the simulated agent.

The machine is a system of the lab's Redfish emulator; powering it on
network-boots the agent simulator's virtual ironic-python-agent, which
reads its boot script from the conductors' http_root, looks the node up,
heartbeats and runs the commands the conductor sends (cleaning, writing
the image). The node goes enroll -> manageable -> available (cleaning) ->
active (deploy) -> available (tear-down and cleaning) with real Redfish
power and boot-device calls.
"""

import hashlib

import requests
from tempest.lib import decorators

from ironic_like.tests.tempest.api import base

CONF = base.CONF


class TestAgentDeploy(base.BaseBaremetalLikeTest):

    min_microversion = '1.62'

    @classmethod
    def skip_checks(cls):
        super().skip_checks()
        options = CONF.baremetal_like
        if not options.deploy_scenario:
            raise cls.skipException('[baremetal_like]deploy_scenario is '
                                    'off')
        missing = [name for name in ('lab_redfish_address', 'lab_system_id',
                                     'lab_mac', 'image_url',
                                     'image_checksum')
                   if not getattr(options, name)]
        if missing:
            raise cls.skipException('[baremetal_like] needs %s'
                                    % ', '.join(missing))

    def _disk_sha256(self):
        """sha256 of the simulated machine's disk, or None if the lab
        does not tell where it is."""
        options = CONF.baremetal_like
        if not (options.lab_agent_sim_url and options.lab_agent_id):
            return None
        doc = requests.get('%s/control/agents/%s' % (
            options.lab_agent_sim_url, options.lab_agent_id),
            timeout=10).json()
        digest = hashlib.sha256()
        with open(doc['disk_path'], 'rb') as f:
            for chunk in iter(lambda: f.read(1 << 20), b''):
                digest.update(chunk)
        return digest.hexdigest()

    @decorators.attr(type='slow')
    @decorators.idempotent_id('97861a42-a38e-4687-a191-b491d7e32d79')
    def test_deploy_and_undeploy(self):
        options = CONF.baremetal_like
        timeout = options.deploy_timeout
        node = self.create_node(
            driver='redfish', deploy_interface='agent',
            boot_interface='ipxe', resource_class='tempest-lab',
            driver_info={'redfish_address': options.lab_redfish_address,
                         'redfish_system_id': options.lab_system_id,
                         'redfish_username': options.lab_redfish_username,
                         'redfish_password': options.lab_redfish_password},
            properties={'cpus': 4, 'memory_mb': 8192, 'local_gb': 20})
        uuid = node['uuid']
        self.create_port(uuid, address=options.lab_mac)

        self.client.set_node_provision_state(uuid, 'manage')
        node = self.wait_for_provision_state(uuid, 'manageable', timeout)
        self.assertEqual('power off', node['power_state'])
        # Cleaning: the agent boots, looks up, runs the clean steps.
        self.client.set_node_provision_state(uuid, 'provide')
        self.wait_for_provision_state(uuid, 'available', timeout)

        self.client.update_node(uuid, [
            {'op': 'add', 'path': '/instance_info/image_source',
             'value': options.image_url},
            {'op': 'add', 'path': '/instance_info/image_checksum',
             'value': options.image_checksum},
            {'op': 'add', 'path': '/instance_info/root_gb', 'value': 10}])
        self.client.set_node_provision_state(uuid, 'active')
        node = self.wait_for_provision_state(uuid, 'active', timeout)
        self.assertEqual('power on', node['power_state'])
        self.assertIsNone(node['last_error'])
        # The agent is gone with its token once the node is active.
        self.assertNotIn('agent_url', node['driver_internal_info'])
        disk = self._disk_sha256()
        if disk is not None:
            self.assertEqual(options.image_checksum, disk)

        # Tear-down: power off, instance released, cleaning again.
        self.client.set_node_provision_state(uuid, 'deleted')
        node = self.wait_for_provision_state(uuid, 'available', timeout)
        self.assertEqual({}, node['instance_info'])
        self.assertIsNone(node['instance_uuid'])
