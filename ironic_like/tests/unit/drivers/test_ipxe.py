"""The iPXE boot interface, under a real node lock with fake management."""

import hashlib
import logging
import os
import stat
import time

import fixtures

from ironic_like.common import agent_token
from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.common import glance
from ironic_like.common import image_cache
from ironic_like.conductor import locks
from ironic_like.drivers.modules import fake
from ironic_like.drivers.modules import ipxe
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils


class TestIPXEBoot(base.TestCase):

    def setUp(self):
        super().setUp()
        self.context = ctx.get_admin_context()
        self.root = self.useFixture(fixtures.TempDir()).path
        self.config(http_root=self.root, http_url='http://boot.test:8088/',
                    group='deploy')
        self.config(deploy_kernel='http://img.test/k',
                    deploy_ramdisk='http://img.test/r', group='conductor')
        self.config(kernel_append_params='nofb', group='pxe')
        self.config(host_ip='0.0.0.0', port=6385, group='api')
        self.node = utils.create_test_node(boot_interface='ipxe')
        self.macs = ['52:54:00:AA:BB:01', '52:54:00:aa:bb:02']
        for mac in self.macs:
            utils.create_test_port(self.node.id, address=mac)
        self.boot = ipxe.IPXEBoot()

    def _task(self, node=None):
        return locks.acquire(self.context, (node or self.node).id)

    def _node_file(self):
        return os.path.join(self.root, 'nodes', self.node.uuid, 'boot.ipxe')

    def _mac_files(self):
        return [os.path.join(self.root, 'macs', '%s.ipxe' % m.lower())
                for m in self.macs]

    def _read(self, path):
        with open(path) as f:
            return f.read()

    def test_loaded_by_entry_point(self):
        with self._task() as task:
            self.assertIsInstance(task.driver.boot, ipxe.IPXEBoot)

    def test_prepare_writes_script(self):
        logs = self.useFixture(fixtures.FakeLogger(level=logging.DEBUG))
        with self._task() as task:
            self.boot.prepare_ramdisk(task)
            info = task.node.driver_internal_info
        # No token: the files are world-readable; lookup hands one out.
        self.assertFalse(agent_token.is_present(info))
        self.assertNotIn(agent_token.PREGENERATED_KEY, info)
        self.assertNotIn('token', logs.output)
        expected = (
            '#!ipxe\n'
            'kernel http://img.test/k ipa-api-url=http://127.0.0.1:6385 '
            'ipa-node-uuid=%s BOOTIF=${mac} nofb '
            'initrd=ramdisk\n'
            'initrd --name ramdisk http://img.test/r\n'
            'boot\n' % self.node.uuid)
        self.assertEqual(expected, self._read(self._node_file()))
        for path in self._mac_files():
            self.assertEqual(expected, self._read(path))
            self.assertFalse(os.path.islink(path))
            self.assertEqual(0o644, stat.S_IMODE(os.stat(path).st_mode))
        # No temporary file left behind.
        self.assertEqual(sorted(os.path.basename(p)
                                for p in self._mac_files()),
                         sorted(os.listdir(os.path.join(self.root, 'macs'))))

    def test_prepare_sets_pxe_boot(self):
        with self._task() as task:
            self.boot.prepare_ramdisk(task)
            self.assertEqual({'boot_device': 'pxe', 'persistent': False},
                             task.node.driver_internal_info[
                                 fake.FakeManagement.KEY])

    def test_driver_info_and_api_url_override(self):
        self.config(api_url='https://api.test:443/', group='deploy')
        node = utils.create_test_node(
            driver_info={'deploy_kernel': 'http://x/k2',
                         'deploy_ramdisk': 'http://x/r2'})
        with self._task(node) as task:
            self.boot.prepare_ramdisk(task)
        with open(os.path.join(self.root, 'nodes', node.uuid,
                               'boot.ipxe')) as f:
            script = f.read()
        self.assertIn('kernel http://x/k2 ipa-api-url=https://api.test:443 ',
                      script)
        self.assertIn('initrd --name ramdisk http://x/r2\n', script)

    def test_prepare_wipes_previous_token(self):
        # A token an earlier agent got (on lookup, or out of band) and
        # what its heartbeats recorded: a new agent boots, and its lookup
        # must hand out a new token.
        self.db.update_node(self.node.id, {'driver_internal_info': dict(
            agent_token.with_new_token({'other': 1}, pregenerated=True),
            agent_url='http://10.0.0.5:9999')})
        with self._task() as task:
            old = agent_token.get(task.node.driver_internal_info)
            self.boot.prepare_ramdisk(task)
        info = self.db.get_node_by_id(self.node.id).driver_internal_info
        self.assertFalse(agent_token.is_present(info))
        self.assertNotIn(agent_token.PREGENERATED_KEY, info)
        self.assertNotIn('agent_url', info)
        self.assertEqual(1, info['other'])
        for path in [self._node_file()] + self._mac_files():
            script = self._read(path)
            self.assertNotIn(old, script)
            self.assertNotIn('ipa-agent-token', script)

    def test_clean_up_removes_files(self):
        with self._task() as task:
            self.boot.prepare_ramdisk(task)
            self.boot.clean_up_ramdisk(task)
            # Missing files are fine.
            self.boot.clean_up_ramdisk(task)
        for path in [self._node_file()] + self._mac_files():
            self.assertFalse(os.path.exists(path))

    def test_validate(self):
        with self._task() as task:
            self.assertIsNone(self.boot.validate(task))

    def test_validate_missing(self):
        self.config(deploy_ramdisk='', group='conductor')
        with self._task() as task:
            e = self.assertRaises(exception.MissingParameterValue,
                                  self.boot.validate, task)
        self.assertEqual('deploy_ramdisk', e.field)

    def test_validate_invalid(self):
        node = utils.create_test_node(
            driver_info={'deploy_kernel': 'http://x/a b'})
        with self._task(node) as task:
            e = self.assertRaises(exception.InvalidParameterValue,
                                  self.boot.validate, task)
        self.assertEqual('deploy_kernel', e.field)

    def test_urls(self):
        self.assertEqual('http://boot.test:8088/nodes/u1/boot.ipxe',
                         ipxe.boot_config_url('u1'))
        self.assertEqual('http://boot.test:8088/macs/52:54:00:aa:bb:01.ipxe',
                         ipxe.mac_config_url('52:54:00:AA:BB:01'))

    def test_api_url_ipv6_wildcard(self):
        self.config(host_ip='::', group='api')
        self.assertEqual('http://[::1]:6385', ipxe.api_url())


KERNEL_ID = '0c6a7b1e-4f0e-4b5e-9d9a-6f3c2a1b0d01'
RAMDISK_ID = '0c6a7b1e-4f0e-4b5e-9d9a-6f3c2a1b0d02'
IMAGES = {KERNEL_ID: b'deploy kernel bytes', RAMDISK_ID: b'ramdisk bytes'}


def _record(image_id, **fields):
    data = IMAGES[image_id]
    record = {'id': image_id, 'status': 'active', 'visibility': 'public',
              'os_hash_algo': 'sha512',
              'os_hash_value': hashlib.sha512(data).hexdigest()}
    record.update(fields)
    return record


class TestIPXEGlanceImages(base.TestCase):
    """deploy_kernel/deploy_ramdisk as Glance images: cached by the
    conductor and served beside the node's script."""

    def setUp(self):
        super().setUp()
        self.context = ctx.get_admin_context()
        self.root = self.useFixture(fixtures.TempDir()).path
        self.http_root = os.path.join(self.root, 'httpboot')
        self.master = os.path.join(self.root, 'master_images')
        self.config(http_root=self.http_root,
                    http_url='http://boot.test:8088/', group='deploy')
        self.config(instance_master_path=self.master, group='pxe')
        self.records = {i: _record(i) for i in IMAGES}
        self.get_image = self.useFixture(fixtures.MockPatchObject(
            glance, 'get_image',
            side_effect=lambda image_id: self.records[image_id])).mock
        self.download = self.useFixture(fixtures.MockPatchObject(
            glance, 'download', side_effect=lambda image_id, f, deadline:
            f.write(IMAGES[image_id]))).mock
        self.node = utils.create_test_node(
            boot_interface='ipxe', driver_info={
                'deploy_kernel': KERNEL_ID,
                'deploy_ramdisk': 'glance://' + RAMDISK_ID.upper()})
        utils.create_test_port(self.node.id, address='52:54:00:aa:bb:03')
        self.boot = ipxe.IPXEBoot()

    def _task(self, node=None):
        return locks.acquire(self.context, (node or self.node).id)

    def _link(self, field, node=None):
        return os.path.join(self.http_root, 'nodes',
                            (node or self.node).uuid, field)

    def test_cached_linked_and_named_in_the_script(self):
        with self._task() as task:
            self.boot.validate(task)
            self.boot.prepare_ramdisk(task)
        script = open(os.path.join(self.http_root, 'nodes', self.node.uuid,
                                   'boot.ipxe')).read()
        base_url = 'http://boot.test:8088/nodes/%s/' % self.node.uuid
        self.assertIn('kernel %sdeploy_kernel ' % base_url, script)
        self.assertIn('initrd --name ramdisk %sdeploy_ramdisk\n' % base_url,
                      script)
        for field, image_id in (('deploy_kernel', KERNEL_ID),
                                ('deploy_ramdisk', RAMDISK_ID)):
            with open(self._link(field), 'rb') as f:
                self.assertEqual(IMAGES[image_id], f.read())
            master = os.path.join(self.master, 'glance-' + image_id)
            self.assertEqual(os.stat(master).st_ino,
                             os.stat(self._link(field)).st_ino)

    def test_fetched_once_for_several_nodes_and_links_removed(self):
        other = utils.create_test_node(
            boot_interface='ipxe', driver_info=self.node.driver_info)
        for node in (self.node, other):
            with self._task(node) as task:
                self.boot.prepare_ramdisk(task)
        self.assertEqual(2, self.download.call_count)  # one per image
        with self._task() as task:
            self.boot.clean_up_ramdisk(task)
        self.assertFalse(os.path.exists(self._link('deploy_kernel')))
        self.assertFalse(os.path.exists(os.path.dirname(
            self._link('deploy_kernel'))))
        self.assertTrue(os.path.exists(self._link('deploy_kernel', other)))

    def test_no_room_for_the_ramdisk(self):
        # Glance says the ramdisk's size: the conductor's disk must have
        # room for it before the fetch.
        self.records[RAMDISK_ID]['size'] = 3 * 2 ** 30
        self.useFixture(fixtures.MockPatchObject(
            image_cache, '_free_bytes', return_value=2 ** 30))
        with self._task() as task:
            e = self.assertRaises(exception.InsufficientDiskSpace,
                                  self.boot.prepare_ramdisk, task)
        self.assertIn('Required 3072 MiB, only 1024 MiB available',
                      str(e))
        self.assertFalse(os.path.exists(
            os.path.join(self.master, 'glance-' + RAMDISK_ID)))
        self.assertNotIn(RAMDISK_ID, [c[0][0] for c in
                                      self.download.call_args_list])

    def test_bad_checksum_is_not_kept(self):
        self.records[KERNEL_ID]['os_hash_value'] = 'f' * 128
        with self._task() as task:
            e = self.assertRaises(exception.IronicLikeException,
                                  self.boot.prepare_ramdisk, task)
        self.assertIn('deploy_kernel', str(e))
        self.assertIn('does not match its checksum', str(e))
        self.assertFalse(os.path.exists(self._link('deploy_kernel')))
        self.assertFalse(os.path.exists(
            os.path.join(self.master, 'glance-' + KERNEL_ID)))

    def test_unknown_image_names_the_field(self):
        self.get_image.side_effect = exception.ImageNotFound(
            image=KERNEL_ID)
        with self._task() as task:
            e = self.assertRaises(exception.InvalidParameterValue,
                                  self.boot.prepare_ramdisk, task)
        self.assertEqual('deploy_kernel', e.field)
        self.assertIn(KERNEL_ID, str(e))

    def test_image_deleted_before_its_download_names_the_field(self):
        self.download.side_effect = exception.ImageNotFound(
            image=KERNEL_ID)
        with self._task() as task:
            e = self.assertRaises(exception.InvalidParameterValue,
                                  self.boot.prepare_ramdisk, task)
        self.assertEqual('deploy_kernel', e.field)

    def test_image_not_available_to_the_requester_is_refused(self):
        # A project member who may set driver_info names a private image
        # of another project: not served (Ironic's is_image_available).
        self.records[KERNEL_ID]['visibility'] = 'private'
        self.records[KERNEL_ID]['owner'] = 'another-project'
        self.useFixture(fixtures.MockPatchObject(
            glance, '_conductor_project', return_value='service-project'))
        member = ctx.RequestContext(project_id='p1', roles=['member'])
        with locks.acquire(member, self.node.id) as task:
            e = self.assertRaises(exception.InvalidParameterValue,
                                  self.boot.prepare_ramdisk, task)
        self.assertEqual('deploy_kernel', e.field)
        self.assertIn('not available to the requester', str(e))
        self.download.assert_not_called()
        self.assertFalse(os.path.exists(self._link('deploy_kernel')))
        # Public images, and the service's own, are.
        self.records[KERNEL_ID]['owner'] = 'service-project'
        with locks.acquire(member, self.node.id) as task:
            self.boot.prepare_ramdisk(task)
        self.assertTrue(os.path.exists(self._link('deploy_kernel')))

    def test_os_boot_drops_the_deploy_links(self):
        with self._task() as task:
            self.boot.prepare_ramdisk(task)
            self.boot.prepare_os_boot(task, 'http://os/k', 'http://os/i',
                                      'console=ttyS0')
        self.assertFalse(os.path.exists(self._link('deploy_kernel')))
        self.assertFalse(os.path.exists(self._link('deploy_ramdisk')))

    def test_sweep_leaves_a_locked_node_and_old_leftovers_go(self):
        with self._task() as task:
            self.boot.prepare_ramdisk(task)
        self.db.update_node(self.node.id, {'provision_state': 'active'})
        directory = os.path.dirname(self._link('deploy_kernel'))
        old = os.path.join(directory, 'deploy_kernel.1234.tmp')
        new = os.path.join(directory, '.deploy_ramdisk.x1')
        for path in (old, new):
            open(path, 'w').close()
        when = time.time() - image_cache.FETCH_TIMEOUT - 60
        os.utime(old, (when, when))

        def lock(node_id):
            raise exception.NodeLocked(node=node_id, host='other')
        ipxe.sweep(self.db, lock)
        self.assertTrue(os.path.exists(self._link('deploy_kernel')))
        self.assertFalse(os.path.exists(old))
        self.assertTrue(os.path.exists(new))   # may be a link being made

    def test_checked_once_per_image_then_heartbeats_boot_it(self):
        # Cleaning asked by an admin boots a private image; a reboot to
        # apply a step, driven by an agent's heartbeat (an anonymous
        # context), boots it again without a check it would fail.
        self.records[KERNEL_ID]['visibility'] = 'private'
        self.records[KERNEL_ID]['owner'] = 'admins'
        self.useFixture(fixtures.MockPatchObject(
            glance, '_conductor_project', return_value='service-project'))
        with self._task() as task:
            self.boot.prepare_ramdisk(task)
        self.assertEqual(
            {'deploy_kernel': KERNEL_ID, 'deploy_ramdisk': RAMDISK_ID},
            self.db.get_node_by_id(self.node.id).driver_internal_info[
                ipxe.CHECKED])
        anonymous = ctx.RequestContext(overwrite=False)
        with locks.acquire(anonymous, self.node.id) as task:
            self.boot.prepare_ramdisk(task)
        # An image not checked yet (named since) is checked: refused to
        # the anonymous context.
        self.records[RAMDISK_ID].update(visibility='private', owner='x')
        self.db.update_node(self.node.id, {'driver_internal_info': {
            ipxe.CHECKED: {'deploy_kernel': KERNEL_ID}}})
        with locks.acquire(anonymous, self.node.id) as task:
            e = self.assertRaises(exception.InvalidParameterValue,
                                  self.boot.prepare_ramdisk, task)
        self.assertEqual('deploy_ramdisk', e.field)

    def test_remove_node_files_takes_interrupted_links_too(self):
        with self._task() as task:
            self.boot.prepare_ramdisk(task)
        directory = os.path.dirname(self._link('deploy_kernel'))
        for name in ('deploy_kernel.1234.tmp', '.deploy_ramdisk.x1'):
            open(os.path.join(directory, name), 'w').close()
        ipxe.remove_node_files(self.node.uuid)
        self.assertFalse(os.path.exists(directory))

    def test_sweep_keeps_links_of_nodes_running_a_ramdisk_only(self):
        booting = self.node
        done = utils.create_test_node(boot_interface='ipxe',
                                      driver_info=self.node.driver_info)
        gone = utils.create_test_node(boot_interface='ipxe',
                                      driver_info=self.node.driver_info)
        for node in (booting, done, gone):
            with self._task(node) as task:
                self.boot.prepare_ramdisk(task)
        self.db.update_node(booting.id, {'provision_state': 'clean wait'})
        self.db.update_node(done.id, {'provision_state': 'active'})
        self.db.destroy_node(gone.id)
        locked = []

        def lock(node_id):
            locked.append(node_id)
            return self._task(self.db.get_node_by_id(node_id))
        ipxe.sweep(self.db, lock)
        # The state of a live node is read again under its lock.
        self.assertEqual([done.id], locked)
        self.assertTrue(os.path.exists(self._link('deploy_kernel')))
        for node in (done, gone):
            for field in ipxe.DEPLOY_IMAGES:
                self.assertFalse(os.path.exists(self._link(field, node)))
        # Its boot script is not the sweep's (a boot session's OS).
        self.assertTrue(os.path.exists(os.path.join(
            os.path.dirname(self._link('deploy_kernel', done)),
            'boot.ipxe')))

    def test_older_images_checked_with_their_md5(self):
        self.records[KERNEL_ID] = _record(
            KERNEL_ID, os_hash_algo=None, os_hash_value=None,
            checksum=hashlib.md5(IMAGES[KERNEL_ID],
                                 usedforsecurity=False).hexdigest())
        with self._task() as task:
            self.boot.prepare_ramdisk(task)
        self.assertTrue(os.path.exists(self._link('deploy_kernel')))
        self.records[KERNEL_ID]['checksum'] = None
        with self._task() as task:
            e = self.assertRaises(exception.InvalidParameterValue,
                                  self.boot.prepare_ramdisk, task)
        self.assertIn('no usable checksum', str(e))

    def test_a_url_again_drops_the_old_link(self):
        with self._task() as task:
            self.boot.prepare_ramdisk(task)
        self.db.update_node(self.node.id, {'driver_info': {
            'deploy_kernel': 'http://img.test/k',
            'deploy_ramdisk': 'http://img.test/r'}})
        with self._task() as task:
            self.boot.prepare_ramdisk(task)
        self.assertFalse(os.path.exists(self._link('deploy_kernel')))
