"""Instance images the conductor caches and serves to the agent
(conductor/instance_images.py), and deploy.image_info() for each kind of
image_source: http(s), Glance, file://."""

import errno
import hashlib
import os
import threading
import time
import types
from unittest import mock

import fixtures

from ironic_like.common import exception
from ironic_like.common import glance
from ironic_like.common import image_cache
from ironic_like.common import published_files
from ironic_like.conductor import instance_images
from ironic_like.conductor.flows import deploy
from ironic_like.tests import base
from ironic_like.tests.unit.api import test_node_vmedia

IMAGE_ID = '6f2b6a3e-7c1d-4d59-9a5e-0b9f6f3b1c11'
DATA = b'instance image data'
SHA256 = hashlib.sha256(DATA).hexdigest()
SHA512 = hashlib.sha512(DATA).hexdigest()
URL = 'http://images.example/ubuntu.img'
OTHER_ID = '7a1b2c3d-0000-4000-8000-0000000000a2'
RECORD = {'id': IMAGE_ID, 'status': 'active', 'checksum': 'c' * 32,
          'os_hash_algo': 'sha512', 'os_hash_value': SHA512,
          'disk_format': 'qcow2', 'size': len(DATA)}


def _node(source, uuid='node-1', checked=True, **info):
    """A node deploying ``source``; ``checked``: as check_request()
    recorded it when the deploy was asked for."""
    internal = {}
    if checked and source:
        try:
            kind, ref = instance_images.source_kind(source)
            internal[instance_images.CHECKED] = '%s:%s' % (kind, ref)
        except exception.InvalidParameterValue:
            pass
    return types.SimpleNamespace(uuid=uuid, instance_info=dict(
        info, image_source=source), driver_internal_info=internal)


class TestInstanceImages(base.TestCase):

    def setUp(self):
        super().setUp()
        self.root = self.useFixture(fixtures.TempDir()).path
        self.http_root = os.path.join(self.root, 'httpboot')
        self.master = os.path.join(self.root, 'master_images')
        self.files = os.path.join(self.root, 'files')
        os.makedirs(self.files)
        self.config(http_root=self.http_root,
                    http_url='http://10.0.0.1:8088/', group='deploy')
        self.config(instance_master_path=self.master, group='pxe')
        self.config(file_url_allowed_paths=[self.files], group='conductor')
        self.get_record = self.useFixture(fixtures.MockPatchObject(
            glance, 'get_image', return_value=RECORD)).mock
        self.glance_download = self.useFixture(fixtures.MockPatchObject(
            glance, 'download', side_effect=lambda image_id, f, deadline:
            f.write(DATA) and len(DATA))).mock
        self.http_get = self.useFixture(fixtures.MockPatchObject(
            published_files.requests, 'get',
            side_effect=lambda *a, **k: test_node_vmedia._Download(
                chunks=(DATA[:5], DATA[5:])))).mock

    def _served(self, node):
        return instance_images.served(node, deploy.image_info(node))

    def _link(self, uuid):
        return os.path.join(self.http_root, 'agent_images', uuid)

    def test_kinds(self):
        self.assertEqual(('http', URL), instance_images.source_kind(URL))
        self.assertEqual(('glance', IMAGE_ID),
                         instance_images.source_kind(IMAGE_ID))
        self.assertEqual(('glance', IMAGE_ID), instance_images.source_kind(
            'glance://' + IMAGE_ID))
        self.assertEqual(('file', 'file:///x'),
                         instance_images.source_kind('file:///x'))
        # Canonical, as Glance answers.
        self.assertEqual(('glance', IMAGE_ID), instance_images.source_kind(
            IMAGE_ID.upper().replace('-', '')))
        for bad in ('ubuntu', 'ftp://h/i', 'glance://ubuntu', ''):
            e = self.assertRaises(exception.InvalidParameterValue,
                                  instance_images.source_kind, bad)
            self.assertEqual('instance_info/image_source', e.field)

    def test_http_image_given_as_it_is(self):
        # A rebuild from a Glance image to an http one: the old link goes.
        self._served(_node(IMAGE_ID))
        node = _node(URL, image_checksum=SHA256)
        info = self._served(node)
        self.assertEqual([URL], info['urls'])
        self.http_get.assert_not_called()
        self.assertFalse(os.path.exists(self._link('node-1')))

    def test_glance_image_cached_and_linked(self):
        info = self._served(_node(IMAGE_ID))
        # What Glance says of it; the agent reads it from the conductor.
        self.assertEqual({'id': IMAGE_ID, 'os_hash_algo': 'sha512',
                          'os_hash_value': SHA512, 'disk_format': 'qcow2',
                          'urls': ['http://10.0.0.1:8088/agent_images/'
                                   'node-1'], 'root_gb': None}, info)
        with open(self._link('node-1'), 'rb') as f:
            self.assertEqual(DATA, f.read())
        master = os.path.join(self.master, 'glance-' + IMAGE_ID)
        self.assertEqual(os.stat(master).st_ino,
                         os.stat(self._link('node-1')).st_ino)
        # A second node: the cache, no second download.
        self._served(_node('glance://' + IMAGE_ID, uuid='node-2'))
        self.assertEqual(1, self.glance_download.call_count)
        self.assertEqual(3, os.stat(master).st_nlink)
        instance_images.remove('node-1')
        self.assertFalse(os.path.exists(self._link('node-1')))
        self.assertEqual(2, os.stat(master).st_nlink)

    def test_glance_format_wins_over_a_stale_one(self):
        info = deploy.image_info(_node(IMAGE_ID, image_disk_format='raw'))
        self.assertEqual('qcow2', info['disk_format'])

    def test_glance_image_without_a_checksum(self):
        self.get_record.return_value = dict(RECORD, os_hash_algo=None,
                                            os_hash_value=None,
                                            checksum=None)
        e = self.assertRaises(exception.InvalidParameterValue,
                              deploy.image_info, _node(IMAGE_ID))
        self.assertIn('Glance gives no checksum', str(e))

    def test_unknown_hash_algorithm(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              deploy.image_info, _node(
                                  URL, image_os_hash_algo='sha1024',
                                  image_os_hash_value='ab'))
        self.assertEqual('instance_info/image_os_hash_algo', e.field)

    def test_request_checked_for_the_requester(self):
        task = types.SimpleNamespace(node=_node(IMAGE_ID),
                                     context=mock.sentinel.context)
        with mock.patch.object(glance, 'is_available',
                               return_value=False) as available:
            e = self.assertRaises(exception.InvalidParameterValue,
                                  instance_images.check_request, task)
        available.assert_called_once_with(RECORD, mock.sentinel.context)
        self.assertIn('not available to the requester', str(e))
        self.assertEqual('instance_info/image_source', e.field)
        task.node = _node('file:///etc/shadow', image_checksum=SHA256)
        self.assertRaises(exception.InvalidParameterValue,
                          instance_images.check_request, task)
        task.node = _node(None)
        self.assertEqual({}, instance_images.check_request(task))

    def test_image_changed_after_the_request(self):
        # Checked one image, then instance_info PATCHed to another while
        # the node deployed: the deploy fetches nothing else.
        node = _node(IMAGE_ID, checked=False)
        node.driver_internal_info[instance_images.CHECKED] = (
            'glance:7a1b2c3d-0000-4000-8000-000000000001')
        e = self.assertRaises(exception.InvalidParameterValue,
                              deploy.image_info, node)
        self.assertIn('changed after the deploy was asked for', str(e))
        # Never checked (not asked through the API) is refused too.
        self.assertRaises(exception.InvalidParameterValue,
                          deploy.image_info, _node(IMAGE_ID, checked=False))
        # An http image needs no check.
        deploy.image_info(_node(URL, checked=False, image_checksum=SHA256))

    def test_check_request_records_what_it_checked(self):
        task = types.SimpleNamespace(node=_node('glance://' + IMAGE_ID),
                                     context=mock.Mock(roles=['admin']))
        self.assertEqual({instance_images.CHECKED: 'glance:' + IMAGE_ID},
                         instance_images.check_request(task))

    def test_hash_algorithms(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              deploy.image_info, _node(
                                  URL, image_os_hash_algo='shake_128',
                                  image_os_hash_value='ab'))
        self.assertEqual('instance_info/image_os_hash_algo', e.field)
        self.get_record.return_value = dict(RECORD, os_hash_algo='shake_256')
        e = self.assertRaises(exception.InvalidParameterValue,
                              deploy.image_info, _node(IMAGE_ID))
        self.assertEqual('instance_info/image_source', e.field)

    def test_bad_subdir(self):
        for bad in ('..', '/tmp', 'a/b', ''):
            self.config(http_image_subdir=bad, group='deploy')
            self.assertRaises(exception.IronicLikeException, self._served,
                              _node(IMAGE_ID))

    def test_glance_image_not_there_or_swift(self):
        self.get_record.side_effect = exception.ImageNotFound(
            image=IMAGE_ID)
        e = self.assertRaises(exception.InvalidParameterValue,
                              deploy.image_info, _node(IMAGE_ID))
        self.assertEqual('instance_info/image_source', e.field)
        self.get_record.side_effect = None
        self.config(image_download_source='swift', group='agent')
        e = self.assertRaises(exception.InvalidParameterValue,
                              deploy.image_info, _node(IMAGE_ID))
        self.assertIn('no object store', str(e))

    def test_glance_unavailable_fails_the_deploy(self):
        self.get_record.side_effect = exception.ImageServiceUnavailable(
            service='Glance', reason='refused')
        self.assertRaises(exception.ImageServiceUnavailable,
                          deploy.image_info, _node(IMAGE_ID))

    def test_bad_data_never_cached(self):
        self.glance_download.side_effect = (
            lambda image_id, f, deadline: f.write(b'corrupt'))
        e = self.assertRaises(exception.IronicLikeException, self._served,
                              _node(IMAGE_ID))
        self.assertIn('does not match its checksum', str(e))
        # Not the digest found (it would tell the hash of any file).
        self.assertNotIn(hashlib.sha512(b'corrupt').hexdigest(), str(e))
        self.assertEqual([], os.listdir(self.master))
        self.assertFalse(os.path.exists(self._link('node-1')))

    def test_local_source_caches_http_images(self):
        self.config(image_download_source='local', group='agent')
        info = self._served(_node(URL, image_checksum=SHA256))
        self.assertEqual(['http://10.0.0.1:8088/agent_images/node-1'],
                         info['urls'])
        self.http_get.assert_called_once_with(
            URL, stream=True, timeout=published_files.TIMEOUT)
        with open(self._link('node-1'), 'rb') as f:
            self.assertEqual(DATA, f.read())

    def test_per_node_download_source(self):
        # Ironic's order: instance_info, then driver_info, then [agent].
        node = _node(URL, image_checksum=SHA256)
        node.driver_info = {'image_download_source': 'local'}
        info = self._served(node)
        self.assertEqual(['http://10.0.0.1:8088/agent_images/node-1'],
                         info['urls'])
        node.instance_info['image_download_source'] = 'http'
        self.assertEqual([URL], self._served(node)['urls'])
        # The link the local download left goes.
        self.assertFalse(os.path.exists(self._link('node-1')))
        self.config(image_download_source='local', group='agent')
        del node.driver_info['image_download_source']
        self.assertEqual([URL], self._served(node)['urls'])

    def test_per_node_download_source_checked(self):
        for field in ('instance_info', 'driver_info'):
            node = _node(URL, image_checksum=SHA256)
            node.driver_info = {}
            getattr(node, field)['image_download_source'] = 'ftp'
            task = types.SimpleNamespace(node=node, context=None)
            e = self.assertRaises(exception.InvalidParameterValue,
                                  instance_images.check_request, task)
            self.assertEqual('%s/image_download_source' % field, e.field)
            self.assertIn('Valid values are swift, http, local', str(e))
        # swift for one node: its Glance image cannot be given.
        node = _node(IMAGE_ID)
        node.driver_info = {'image_download_source': 'swift'}
        e = self.assertRaises(exception.InvalidParameterValue,
                              deploy.image_info, node)
        self.assertIn('no object store', str(e))
        self.assertEqual('instance_info/image_source', e.field)

    def test_file_image(self):
        path = os.path.join(self.files, 'ubuntu.img')
        with open(path, 'wb') as f:
            f.write(DATA)
        info = self._served(_node('file://' + path, image_checksum=SHA256))
        self.assertEqual(['http://10.0.0.1:8088/agent_images/node-1'],
                         info['urls'])
        with open(self._link('node-1'), 'rb') as f:
            self.assertEqual(DATA, f.read())
        # Outside [conductor]file_url_allowed_paths: refused, naming it.
        e = self.assertRaises(exception.InvalidParameterValue,
                              deploy.image_info, _node(
                                  'file:///etc/passwd', image_checksum=SHA256))
        self.assertEqual('instance_info/image_source', e.field)

    def test_copied_when_hard_links_fail(self):
        with mock.patch.object(image_cache.os, 'link',
                               side_effect=OSError(errno.EXDEV,
                                                   'cross-device')):
            self._served(_node(IMAGE_ID))
        master = os.path.join(self.master, 'glance-' + IMAGE_ID)
        self.assertNotEqual(os.stat(master).st_ino,
                            os.stat(self._link('node-1')).st_ino)
        with open(self._link('node-1'), 'rb') as f:
            self.assertEqual(DATA, f.read())

    def _old_entry(self, name, size=10, age_minutes=0):
        os.makedirs(self.master, exist_ok=True)
        path = os.path.join(self.master, name)
        with open(path, 'wb') as f:
            f.write(b'x' * size)
        when = time.time() - age_minutes * 60
        os.utime(path, (when, when))
        return path

    def test_unused_images_expire(self):
        self.config(image_cache_ttl=60, group='pxe')
        old = self._old_entry('glance-old', age_minutes=120)
        linked = self._old_entry('glance-linked', age_minutes=120)
        os.makedirs(os.path.dirname(self._link('node-9')))
        os.link(linked, self._link('node-9'))
        recent = self._old_entry('glance-recent', age_minutes=10)
        self._served(_node(IMAGE_ID))
        self.assertFalse(os.path.exists(old))
        self.assertTrue(os.path.exists(linked))   # a node deploys it
        self.assertTrue(os.path.exists(recent))

    def test_cache_size_bound_removes_the_least_recently_used(self):
        self.config(image_cache_size=1, group='pxe')
        oldest = self._old_entry('glance-a', size=700 * 1024, age_minutes=30)
        newer = self._old_entry('glance-b', size=700 * 1024, age_minutes=20)
        self._served(_node(IMAGE_ID))
        self.assertFalse(os.path.exists(oldest))
        self.assertTrue(os.path.exists(newer))

    def test_other_link_failures_are_errors(self):
        with mock.patch.object(image_cache.os, 'link',
                               side_effect=OSError(errno.ENOENT, 'gone')):
            e = self.assertRaises(exception.IronicLikeException,
                                  self._served, _node(IMAGE_ID))
        self.assertIn('caching its instance image failed', str(e))

    def test_ttl_and_size_zero_keep_nothing_unused(self):
        # Ironic's meaning of 0.
        self.config(image_cache_ttl=0, group='pxe')
        old = self._old_entry('glance-old', age_minutes=1)
        self._served(_node(IMAGE_ID))
        self.assertFalse(os.path.exists(old))
        # The image just cached is linked: kept.
        self.assertTrue(os.path.exists(
            os.path.join(self.master, 'glance-' + IMAGE_ID)))
        self.config(image_cache_ttl=10080, image_cache_size=0, group='pxe')
        other = self._old_entry('glance-other')
        # Another image cached: eviction runs.
        self._served(_node('7a1b2c3d-0000-4000-8000-000000000001',
                           uuid='node-2'))
        self.assertFalse(os.path.exists(other))

    def _disk_of(self, capacity):
        """_free_bytes of a disk of ``capacity`` bytes holding the cache's
        and http_root's files (hard links counted once)."""
        def free(path):
            seen, used = set(), 0
            for top in (self.master, self.http_root):
                for dirpath, _dirs, names in os.walk(top):
                    for name in names:
                        st = os.stat(os.path.join(dirpath, name))
                        if st.st_ino not in seen:
                            seen.add(st.st_ino)
                            used += st.st_size
            return capacity - used
        return self.useFixture(fixtures.MockPatchObject(
            image_cache, '_free_bytes', side_effect=free)).mock

    def test_room_made_from_unused_images_oldest_first(self):
        old = self._old_entry('glance-old', size=20, age_minutes=30)
        newer = self._old_entry('glance-newer', size=20, age_minutes=20)
        linked = self._old_entry('glance-linked', size=20, age_minutes=40)
        os.makedirs(os.path.join(self.http_root, 'agent_images'))
        os.link(linked, self._link('node-9'))
        # 70 bytes, 60 used: the image (19 bytes) needs the oldest unused
        # one gone, not the newer one nor the one a node links.
        self._disk_of(70)
        self._served(_node(IMAGE_ID))
        self.assertFalse(os.path.exists(old))
        self.assertTrue(os.path.exists(newer))
        self.assertTrue(os.path.exists(linked))
        with open(self._link('node-1'), 'rb') as f:
            self.assertEqual(DATA, f.read())

    def test_no_room_refuses_the_fetch(self):
        linked = self._old_entry('glance-linked', size=20)
        os.makedirs(os.path.join(self.http_root, 'agent_images'))
        os.link(linked, self._link('node-9'))
        self._disk_of(30)
        e = self.assertRaises(exception.InsufficientDiskSpace,
                              self._served, _node(IMAGE_ID))
        self.assertIn("Disk volume where '%s' is located doesn't have "
                      "enough disk space. Required 1 MiB, only 0 MiB "
                      "available" % self.master, str(e))
        self.glance_download.assert_not_called()
        self.assertTrue(os.path.exists(linked))
        self.assertFalse(os.path.exists(self._link('node-1')))
        # Without a cache, the node's own copy needs the room too.
        self.config(instance_master_path='', group='pxe')
        self.assertRaises(exception.InsufficientDiskSpace,
                          self._served, _node(IMAGE_ID))
        self.glance_download.assert_not_called()
        # A file:// image's size is read on disk; an http one's is the
        # Content-Length its server gives, checked before anything is
        # written; without one, nothing is checked.
        path = os.path.join(self.files, 'big.img')
        with open(path, 'wb') as f:
            f.write(DATA)
        self.config(instance_master_path=self.master, group='pxe')
        self.assertRaises(exception.InsufficientDiskSpace, self._served,
                          _node('file://' + path, image_checksum=SHA256))
        self.config(image_download_source='local', group='agent')
        self._disk_of(25)
        e = self.assertRaises(exception.InsufficientDiskSpace, self._served,
                              _node(URL, image_checksum=SHA256,
                                    uuid='node-2'))
        self.assertIn("'%s'" % self.master, str(e))
        self.assertEqual([], [n for n in os.listdir(self.master)
                              if n.startswith('.')])
        self.http_get.side_effect = lambda *a, **k: \
            test_node_vmedia._Download(chunks=(DATA[:5], DATA[5:]),
                                       headers={})
        self._served(_node(URL, image_checksum=SHA256, uuid='node-2'))
        with open(self._link('node-2'), 'rb') as f:
            self.assertEqual(DATA, f.read())

    def test_fetches_at_once_count_each_others_room(self):
        # A disk of 1000 bytes, empty: a Glance image of 600 bytes being
        # fetched (200 written so far, maybe not yet on disk) leaves room
        # for 600 more at most: a second image of 700 is refused while
        # the first runs (without the first's 400 to come, it would fit).
        big = b'x' * 600
        small = b'y' * 700
        records = {
            IMAGE_ID: dict(RECORD, size=len(big),
                           os_hash_value=hashlib.sha512(big).hexdigest()),
            OTHER_ID: dict(RECORD, id=OTHER_ID, size=len(small),
                           os_hash_value=hashlib.sha512(small).hexdigest())}
        self.get_record.side_effect = lambda ref: records[ref]
        self._disk_of(1000)
        halfway = threading.Event()
        release = threading.Event()

        def download(image_id, f, deadline):
            if image_id == IMAGE_ID:
                f.write(big[:200])
                halfway.set()
                release.wait(10)
                return f.write(big[200:])
            return f.write(small)
        self.glance_download.side_effect = download
        errors = []

        def first():
            try:
                self._served(_node(IMAGE_ID))
            except Exception as e:
                errors.append(e)
        thread = threading.Thread(target=first)
        thread.start()
        try:
            self.assertTrue(halfway.wait(10))
            e = self.assertRaises(exception.InsufficientDiskSpace,
                                  self._served, _node(OTHER_ID,
                                                      uuid='node-2'))
            self.assertIn('only 0 MiB available', str(e))
        finally:
            release.set()
            thread.join(10)
        self.assertEqual([], errors)
        # The first is over (its 600 bytes linked): 400 free, still too
        # few; once node-1's link goes, its image is evicted for room.
        self.assertRaises(exception.InsufficientDiskSpace, self._served,
                          _node(OTHER_ID, uuid='node-2'))
        instance_images.remove('node-1')
        self._served(_node(OTHER_ID, uuid='node-2'))
        self.assertEqual(set(), image_cache._in_flight)

    def test_no_cache_fetches_per_node(self):
        self.config(instance_master_path='', group='pxe')
        self._served(_node(IMAGE_ID))
        self._served(_node(IMAGE_ID, uuid='node-2'))
        self.assertEqual(2, self.glance_download.call_count)
        with open(self._link('node-2'), 'rb') as f:
            self.assertEqual(DATA, f.read())

    def test_concurrent_deploys_fetch_once(self):
        started = threading.Event()
        release = threading.Event()

        def slow(image_id, f, deadline):
            started.set()
            release.wait(10)
            return f.write(DATA)
        self.glance_download.side_effect = slow
        errors = []

        def deploy_one(uuid):
            try:
                self._served(_node(IMAGE_ID, uuid=uuid))
            except Exception as e:
                errors.append(e)
        waiting = threading.Event()
        real_fetch_lock = image_cache._fetch_lock

        def fetch_lock(key):
            holder = real_fetch_lock(key)
            if threading.current_thread().name == 'second':
                waiting.set()   # about to wait for the first's fetch
            return holder
        self.useFixture(fixtures.MockPatchObject(
            image_cache, '_fetch_lock', side_effect=fetch_lock))
        first = threading.Thread(target=deploy_one, args=('node-1',))
        first.start()
        self.assertTrue(started.wait(10))
        second = threading.Thread(target=deploy_one, args=('node-2',),
                                  name='second')
        second.start()
        self.assertTrue(waiting.wait(10))
        # The second is blocked while the first still downloads.
        second.join(0.2)
        self.assertTrue(second.is_alive())
        release.set()
        first.join(10)
        second.join(10)
        self.assertEqual([], errors)
        self.assertEqual(1, self.glance_download.call_count)
        for uuid in ('node-1', 'node-2'):
            with open(self._link(uuid), 'rb') as f:
                self.assertEqual(DATA, f.read())

    def test_sweep(self):
        db = mock.Mock()
        nodes = {'11111111-1111-1111-1111-111111111111': 'deploying',
                 '22222222-2222-2222-2222-222222222222': 'deploy failed',
                 '33333333-3333-3333-3333-333333333333': None}

        def get(uuid):
            if nodes[uuid] is None:
                raise exception.NodeNotFound(node=uuid)
            return types.SimpleNamespace(provision_state=nodes[uuid])
        db.get_node_by_uuid.side_effect = get
        for uuid in nodes:
            self._served(_node(IMAGE_ID, uuid=uuid))
        stale = self._link('x.tmp')
        open(stale, 'w').close()
        os.utime(stale, (1000, 1000))
        half = self._old_entry('.glance-x.abc', age_minutes=24 * 60)
        instance_images.sweep(db)
        self.assertEqual(['11111111-1111-1111-1111-111111111111'],
                         os.listdir(os.path.dirname(stale)))
        self.assertFalse(os.path.exists(half))

    def test_used_image_is_touched(self):
        self._served(_node(IMAGE_ID))
        master = os.path.join(self.master, 'glance-' + IMAGE_ID)
        os.utime(master, (1000, 1000))
        self._served(_node(IMAGE_ID, uuid='node-2'))
        self.assertGreater(os.stat(master).st_mtime, 1000)
