"""Deploying a Glance image (``instance_info.image_source`` a Glance
image ID, as Nova and most operators give it) through the agent deploy:
a real Glance (glance_fixture: SQLite, file store, no auth) reached with
Ironic's [glance] options (keystoneauth: ``auth_type = none``,
``endpoint_override``), two conductors, the simulated machines and their
agents (test_agent_deploy.Lab).

Two nodes deploy the same image with no checksum given: the conductors
take it from Glance, cache the image once each ([pxe]
instance_master_path), checked against Glance's hash, and serve it from
[deploy]http_root/agent_images/<node>; each agent downloads it from
there and writes it (the simulated disk holds the image's bytes, checked
against Glance's sha512 by the agent). Undeploy removes the nodes'
links; the cache keeps the image. A Glance ID Glance does not have fails
the deploy naming image_source.
"""

import hashlib
import os
import uuid as uuidlib

from ironic_like.tests.functional import glance_fixture
from ironic_like.tests.functional import test_agent_deploy


class TestGlanceDeploy(test_agent_deploy.AgentDeployTestCase):

    TIMEOUT = 420

    def start_lab(self, count):
        glance_fixture.require_glance(self)
        self.glance = self.useFixture(glance_fixture.GlanceServer())
        self.watch(self.glance.process)
        self.master = os.path.join(self.work_dir(), 'master_images')
        return test_agent_deploy.Lab(self, count, {
            'glance': {'auth_type': 'none',
                       'endpoint_override': self.glance.endpoint},
            'pxe': {'instance_master_path': self.master}}, None)

    def _image_source(self, lab, source, uuids):
        for uuid in uuids:
            lab.api('PATCH', '/v1/nodes/%s' % uuid, [
                {'op': 'add', 'path': '/instance_info/image_source',
                 'value': source}])

    def test_deploy_a_glance_image(self):
        lab = self.start_lab(2)
        lab.enrol()
        lab.make_available()
        data = os.urandom(1024 * 1024 + 13)
        image_id = self.glance.upload('ubuntu', data)
        self.assertEqual(hashlib.sha512(data).hexdigest(),
                         self.glance.image(image_id)['os_hash_value'])

        self._image_source(lab, image_id, lab.nodes)
        lab.provision('active')
        nodes = lab.wait_for('active')
        for index, uuid in enumerate(lab.nodes):
            self.assertIsNone(nodes[uuid]['last_error'])
            agent = lab.agent(index)
            with open(agent['disk_path'], 'rb') as f:
                self.assertEqual(data, f.read(len(data)), uuid)
            # Read from the conductor's boot file server.
            self.assertEqual('%s/agent_images/%s' % (lab.http_url, uuid),
                             agent['records']['image']['url'])
            self.assertEqual('instance', agent['state'], uuid)
        # One cached copy per conductor that deployed one (two
        # conductors), named after the image.
        cached = os.listdir(self.master)
        self.assertEqual(['glance-%s' % image_id], sorted(set(cached)))

        lab.provision('deleted')
        lab.wait_for('available')
        self.assertEqual([], os.listdir(os.path.join(lab.http_root,
                                                     'agent_images')))
        self.assertEqual(['glance-%s' % image_id], os.listdir(self.master))

        # An image Glance does not have: the deploy fails, naming it.
        missing = str(uuidlib.uuid4())
        self._image_source(lab, missing, lab.nodes[:1])
        lab.provision('active', lab.nodes[:1])

        def failed():
            node = lab.api('GET', '/v1/nodes/%s' % lab.nodes[0])
            return node if node['provision_state'] == 'deploy failed' \
                else None
        node = self.assertEventually(failed, test_agent_deploy.STATE_BOUND,
                                     interval=0.5)
        self.assertIn(missing, node['last_error'])
        self.assertIn('instance_info.image_source', node['last_error'])
