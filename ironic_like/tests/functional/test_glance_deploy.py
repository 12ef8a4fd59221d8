"""Deploying a Glance image (``instance_info.image_source`` a Glance
image ID, as Nova and most operators give it) through the agent deploy:
a real Glance (glance_fixture: SQLite, file store, no auth) reached with
Ironic's [glance] options (keystoneauth: ``auth_type = none``,
``endpoint_override``), two conductors, the simulated machines and their
agents (test_agent_deploy.Lab).

Two nodes deploy the same image with no checksum given: the conductors
take it from Glance, cache it ([pxe]instance_master_path: shared by the
two conductors of this lab, as their http_root is, which a real
deployment must not do; no eviction happens here), checked against
Glance's hash, and serve it from [deploy]http_root/agent_images/<node>;
each agent downloads it from there and writes it (the simulated disk
holds the image's bytes, checked against Glance's sha512 by the agent).
Once the image is written the links go; the cache keeps the image. A
Glance ID Glance does not have is refused (400) before the node moves.
An http image with ``image_download_source`` ``local`` is cached too.

The nodes' deploy kernel and ramdisk are Glance images too: the iPXE
boot interface caches them the same way and links them beside each
node's boot script while its ramdisk runs.
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
            'pxe': {'instance_master_path': self.master}},
            # The machines download the ramdisk the iPXE script names.
            {'fetch_ramdisk_images': True})

    def _image_source(self, lab, source, uuids):
        for uuid in uuids:
            lab.api('PATCH', '/v1/nodes/%s' % uuid, [
                {'op': 'add', 'path': '/instance_info/image_source',
                 'value': source}])

    def test_deploy_a_glance_image(self):
        lab = self.start_lab(2)
        lab.enrol()
        ramdisk = {'deploy_kernel': os.urandom(4096),
                   'deploy_ramdisk': os.urandom(4097)}
        deploy_images = {field: self.glance.upload(field, data)
                         for field, data in ramdisk.items()}
        for uuid in lab.nodes:
            lab.api('PATCH', '/v1/nodes/%s' % uuid, [
                {'op': 'add', 'path': '/driver_info/%s' % field,
                 'value': image_id}
                for field, image_id in deploy_images.items()])
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
            # Booted from the conductor's links to Glance's deploy images.
            loaded = agent['records']['ramdisk_images']
            for kind, field in (('kernel', 'deploy_kernel'),
                                ('initrd', 'deploy_ramdisk')):
                self.assertEqual(
                    '%s/nodes/%s/%s' % (lab.http_url, uuid, field),
                    loaded[kind]['url'])
                self.assertEqual(hashlib.sha256(ramdisk[field]).hexdigest(),
                                 loaded[kind]['sha256'], uuid)
        # Cached once, named after the image; the links went once the
        # images were written, those of the deploy ramdisk once it ended.
        cached = sorted('glance-%s' % i
                        for i in [image_id] + list(deploy_images.values()))
        self.assertEqual(cached, sorted(os.listdir(self.master)))
        for field, kept_id in deploy_images.items():
            self.assertEqual(
                hashlib.sha512(open(os.path.join(
                    self.master, 'glance-%s' % kept_id), 'rb').read())
                .hexdigest(),
                self.glance.image(kept_id)['os_hash_value'], field)
        self.assertEqual([], os.listdir(os.path.join(lab.http_root,
                                                     'agent_images')))
        for uuid in lab.nodes:
            for field in ramdisk:
                self.assertFalse(os.path.exists(os.path.join(
                    lab.http_root, 'nodes', uuid, field)), uuid)

        lab.provision('deleted')
        lab.wait_for('available')
        self.assertEqual(cached, sorted(os.listdir(self.master)))

        # An image Glance does not have: refused before the node moves.
        missing = str(uuidlib.uuid4())
        self._image_source(lab, missing, lab.nodes[:1])
        resp = lab.cluster.request(
            'PUT', '/v1/nodes/%s/states/provision' % lab.nodes[0],
            json={'target': 'active'})
        self.assertEqual(400, resp.status_code, resp.text)
        self.assertIn(missing, resp.text)
        self.assertEqual('available', lab.api(
            'GET', '/v1/nodes/%s' % lab.nodes[0])['provision_state'])

        # An http image the conductor caches (image_download_source
        # local): its size is the Content-Length of the lab's file
        # server, checked for room before it is written.
        first = lab.nodes[0]
        lab.set_image([first])
        lab.api('PATCH', '/v1/nodes/%s' % first, [
            {'op': 'add', 'path': '/instance_info/image_download_source',
             'value': 'local'}])
        lab.provision('active', [first])
        node = lab.wait_for('active', [first])[first]
        self.assertIsNone(node['last_error'])
        self.assertEqual('%s/agent_images/%s' % (lab.http_url, first),
                         lab.agent(0)['records']['image']['url'])
        self.assertEqual(1, len([name for name in os.listdir(self.master)
                                 if name.startswith('http-')]))
