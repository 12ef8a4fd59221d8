"""ipxe: boot the deploy ramdisk over the network with an iPXE script.

prepare_ramdisk() writes one script per node under [deploy]http_root and
a copy per MAC address of the node's ports, then asks the management
interface for a one-time network boot. The machine's firmware (or a
chain-loaded iPXE) fetches ``macs/<mac>.ipxe`` from [deploy]http_url; the
script carries the API URL and the node UUID on the ramdisk's kernel
command line.

Never the agent token: the boot file server hands these files to anyone
who knows a MAC address or a node UUID. As Ironic does for network boot,
prepare_ramdisk() drops any token the node still has, and the agent's
first lookup (GET /v1/lookup) hands out a new one, once. A token handed
out of band (agent_info.add_pregenerated_token) is only for a boot medium
nobody else can read. The files are removed by clean_up_ramdisk().

The deploy kernel and ramdisk are URLs the machine fetches, or Glance
images (an ID or glance://<ID>, as Ironic takes them): those are cached
by the conductor (common/image_cache.py, checked against Glance's
checksum) and linked as ``nodes/<uuid>/deploy_kernel`` and
``deploy_ramdisk`` beside the node's script, served from [deploy]http_url
and removed with it.
"""

import os
import time

from oslo_log import log
from oslo_utils import uuidutils

from ironic_like.common import agent_info
from ironic_like.common import exception
from ironic_like.common import glance
from ironic_like.common import image_cache
from ironic_like.common import published_files
from ironic_like.common import states
from ironic_like.conf import CONF
from ironic_like.drivers import base

LOG = log.getLogger(__name__)

NODES_DIR = 'nodes'
MACS_DIR = 'macs'
SCRIPT_NAME = 'boot.ipxe'
# The driver_info fields of the deploy ramdisk; a Glance image's link
# beside the node's script is named after its field.
DEPLOY_IMAGES = ('deploy_kernel', 'deploy_ramdisk')
# driver_internal_info: {field: the Glance image found available to the
# requester who first booted the node from it}.
CHECKED = 'deploy_images_checked'

_SCRIPT = """#!ipxe
kernel {kernel} ipa-api-url={api_url} ipa-node-uuid={node} \
BOOTIF=${{mac}} {append}initrd=ramdisk
initrd --name ramdisk {ramdisk}
boot
"""


# A boot session's image. The parameters carry the referral token that the
# booted OS's reporter sends back (see conductor/boot/bss.py).
_OS_SCRIPT = """#!ipxe
kernel {kernel} {params} initrd=initrd
initrd --name initrd {initrd}
boot
"""


def api_url():
    """The API URL the ramdisk calls back."""
    if CONF.deploy.api_url:
        return CONF.deploy.api_url.rstrip('/')
    host = CONF.api.host_ip
    # A wildcard bind address cannot be called; the API also listens on
    # loopback then, which suits labs where everything runs on one host.
    if host == '0.0.0.0':
        host = '127.0.0.1'
    elif host == '::':
        host = '::1'
    if ':' in host:
        host = '[%s]' % host
    return 'http://%s:%d' % (host, CONF.api.port)


def _node_path(node_uuid):
    return os.path.join(CONF.deploy.http_root, NODES_DIR, node_uuid,
                        SCRIPT_NAME)


def _mac_path(mac):
    return os.path.join(CONF.deploy.http_root, MACS_DIR,
                        '%s.ipxe' % mac.lower())


def boot_config_url(node_uuid):
    """URL of a node's boot script."""
    return '%s/%s/%s/%s' % (CONF.deploy.http_url.rstrip('/'), NODES_DIR,
                            node_uuid, SCRIPT_NAME)


def mac_config_url(mac):
    """URL of the boot script a machine finds by its MAC address."""
    return '%s/%s/%s.ipxe' % (CONF.deploy.http_url.rstrip('/'), MACS_DIR,
                              mac.lower())


def _write_atomically(path, content):
    # A machine may fetch the file while we rewrite it (prepare runs again
    # on resume): it must see the old script or the new one, never half.
    with published_files.replaced_whole(path, prefix='.boot-') as f:
        f.write(content)


def _deploy_images(node):
    """(kernel, ramdisk) of the node, URLs or Glance image references;
    raise naming a bad field."""
    info = node.driver_info or {}
    images = []
    for field in DEPLOY_IMAGES:
        value = info.get(field) or getattr(CONF.conductor, field)
        if not value:
            raise exception.MissingParameterValue(
                err='Node %s: %s is set neither in driver_info nor in '
                    '[conductor]%s.' % (node.uuid, field, field),
                field=field)
        # Whitespace would split the URL on the kernel command line.
        if not isinstance(value, str) or len(value.split()) != 1:
            raise exception.InvalidParameterValue(
                err='Node %s: %s must be a URL without spaces or a '
                    'Glance image ID, not %r.' % (node.uuid, field, value),
                field=field)
        images.append(value)
    return tuple(images)


def _image_link(node_uuid, field):
    return os.path.join(os.path.dirname(_node_path(node_uuid)), field)


def _image_error(node, field, why):
    return exception.InvalidParameterValue(
        err='Node %s: %s: %s' % (node.uuid, field, why), field=field)


def _served(task, field, value):
    """The URL the machine fetches ``field``'s image from: ``value``
    itself, or for a Glance image the URL of the node's link to the
    conductor's cached copy (fetched first when not cached). A Glance
    image must be available to the requester (``task.context``), by
    Ironic's rules (common/glance.py), as Ironic checks every image it
    reads from Glance: anyone who may set the node's driver_info must
    not have the conductor serve them another project's image."""
    node = task.node
    ref = glance.image_ref(value)
    if ref is None:
        # A link an earlier boot from Glance left would pin the cache.
        published_files.remove(_image_link(node.uuid, field))
        return value
    internal = dict(node.driver_internal_info or {})
    checked = dict(internal.get(CHECKED) or {})
    # Checked once per image the node names: a boot started again by an
    # agent's heartbeat (an anonymous context) or a take-over does not
    # check again what the request that began it checked.
    unchecked = checked.get(field) != ref
    try:
        image = glance.get_image(ref)
        if unchecked and not glance.is_available(image, task.context):
            raise exception.ImageNotFound(
                image=ref, detail=' (not available to the requester: '
                'neither public nor community, nor owned by or shared with '
                'this service\'s project)')
    except exception.ImageNotFound as e:
        raise _image_error(node, field, e)
    if unchecked:
        checked[field] = ref
        internal[CHECKED] = checked
        task.update_node({'driver_internal_info': internal})
    algo, digest = glance.checksum(image)
    if algo not in glance.HASH_ALGOS:
        raise _image_error(
            node, field, 'Glance gives no usable checksum for image %s '
            '(%s).' % (ref, algo or 'none'))

    def fetch(fileobj, deadline):
        return glance.download(ref, fileobj, deadline)
    try:
        image_cache.cached_and_linked(
            'glance-%s' % ref, fetch, algo, digest,
            _image_link(node.uuid, field), node.uuid, field,
            size=image.get('size'))
    except exception.ImageNotFound as e:
        # Deleted from Glance since its record was read.
        raise _image_error(node, field, e)
    except OSError as e:
        # The disk is full, a directory cannot be written.
        raise exception.IronicLikeException(
            'Node %s: caching its %s failed: %s' % (node.uuid, field, e))
    return '%s/%s/%s/%s' % (CONF.deploy.http_url.rstrip('/'), NODES_DIR,
                            node.uuid, field)


def _is_leftover(name):
    """Whether ``name`` is what image_cache leaves while it links a deploy
    image: <link>.<uuid>.tmp, or .<link>.<random> while a copy is
    written."""
    return name.lstrip('.').startswith(DEPLOY_IMAGES) and (
        name.endswith('.tmp') or name.startswith('.'))


def remove_deploy_images(node_uuid):
    """Remove the node's links to cached deploy images, and what a link
    interrupted by a crash left (none is no error)."""
    directory = os.path.dirname(_node_path(node_uuid))
    for field in DEPLOY_IMAGES:
        published_files.remove(_image_link(node_uuid, field))
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        if _is_leftover(name):
            published_files.remove(os.path.join(directory, name))


def remove_node_files(node_uuid, macs=()):
    """Remove the node's boot scripts (its own and those of ``macs``, its
    ports' addresses) and deploy image links, and its directory when
    nothing else is left there."""
    for mac in macs:
        published_files.remove(_mac_path(mac))
    published_files.remove(_node_path(node_uuid))
    remove_deploy_images(node_uuid)
    try:
        os.rmdir(os.path.dirname(_node_path(node_uuid)))
    except OSError:
        pass  # absent, or someone put more there: leave it


# Where a node's deploy image links are still needed: its machine may
# (re)boot the ramdisk, or boots it now.
_RAMDISK_STATES = frozenset([
    states.CLEANING, states.CLEANWAIT, states.CLEANHOLD,
    states.INSPECTING, states.INSPECTWAIT,
    states.DEPLOYING, states.DEPLOYWAIT, states.DEPLOYHOLD,
    states.RESCUING, states.RESCUEWAIT, states.RESCUE,
    states.SERVICING, states.SERVICEWAIT, states.SERVICEHOLD])


def _stale_leftovers(directory, now):
    """What an interrupted link left in a node's directory (see
    remove_deploy_images) longer ago than a fetch may last."""
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    found = []
    for name in names:
        if _is_leftover(name):
            path = os.path.join(directory, name)
            try:
                if now - os.stat(path).st_mtime > image_cache.FETCH_TIMEOUT:
                    found.append(path)
            except OSError:
                pass
    return found


def sweep(db, lock):
    """The periodic clean-up of this conductor's deploy image links: those
    of nodes that are gone or whose machine runs no ramdisk (a node
    deleted through another conductor, a flow that ended without cleaning
    up, links a dead conductor left), which would pin the image cache.

    ``lock(node_id)``: a context manager holding the node's lock (one
    try: NodeLocked when another holds it, and the node is left for the
    next sweep). The state is read under it, so no boot starting
    meanwhile loses its links."""
    directory = os.path.join(CONF.deploy.http_root, NODES_DIR)
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return
    now = time.time()
    for name in names:
        for path in _stale_leftovers(os.path.join(directory, name), now):
            published_files.remove(path)
        if not uuidutils.is_uuid_like(name) or not any(
                os.path.exists(_image_link(name, f)) for f in DEPLOY_IMAGES):
            continue
        try:
            node = db.get_node_by_uuid(name)
        except exception.NodeNotFound:
            LOG.info('Node %s: its deploy image links removed (the node '
                     'is gone)', name)
            remove_deploy_images(name)
            continue
        if node.provision_state in _RAMDISK_STATES:
            continue
        try:
            with lock(node.id) as task:
                if task.node.provision_state in _RAMDISK_STATES:
                    continue
                LOG.info('Node %s: its deploy image links removed (no '
                         'ramdisk runs in state %s)', name,
                         task.node.provision_state)
                remove_deploy_images(name)
        except (exception.NodeLocked, exception.NodeNotFound):
            continue


class IPXEBoot(base.BootInterface):

    def get_properties(self):
        return {
            'deploy_kernel': 'URL of the deploy ramdisk\'s kernel, or its '
                             'Glance image ID. Optional when '
                             '[conductor]deploy_kernel is set.',
            'deploy_ramdisk': 'URL of the deploy ramdisk, or its Glance '
                              'image ID. Optional when '
                              '[conductor]deploy_ramdisk is set.',
        }

    def validate(self, task):
        _deploy_images(task.node)

    def prepare_ramdisk(self, task):
        kernel, ramdisk = (
            _served(task, field, value)
            for field, value in zip(DEPLOY_IMAGES,
                                    _deploy_images(task.node)))
        # The node boots a new agent after this: whatever token an earlier
        # one got must go, so that the new agent's lookup hands one out.
        agent_info.wipe_agent_token(task)
        append = CONF.pxe.kernel_append_params or ''
        script = _SCRIPT.format(
            kernel=kernel, ramdisk=ramdisk, api_url=api_url(),
            node=task.node.uuid, append=append + ' ' if append else '')
        paths = [_node_path(task.node.uuid)]
        paths.extend(_mac_path(port.address) for port in task.ports)
        for path in paths:
            _write_atomically(path, script)
        LOG.debug('Node %s: iPXE boot configuration written for MACs %s',
                  task.node.uuid,
                  ', '.join(p.address.lower() for p in task.ports) or '-')
        task.driver.management.set_boot_device(task, 'pxe',
                                               persistent=False)

    def prepare_os_boot(self, task, kernel, initrd, kernel_parameters):
        for field, value in (('kernel', kernel), ('initrd', initrd)):
            if not value or len(value.split()) != 1:
                raise exception.InvalidParameterValue(
                    err='Node %s: the %s to boot must be a URL without '
                        'spaces, not %r.' % (task.node.uuid, field, value),
                    field=field)
        script = _OS_SCRIPT.format(kernel=kernel, initrd=initrd,
                                   params=kernel_parameters)
        paths = [_node_path(task.node.uuid)]
        paths.extend(_mac_path(port.address) for port in task.ports)
        for path in paths:
            _write_atomically(path, script)
        # No script names the deploy ramdisk any more.
        remove_deploy_images(task.node.uuid)
        # Network-booted images boot the network every time.
        task.driver.management.set_boot_device(task, 'pxe',
                                               persistent=True)

    def clean_up_ramdisk(self, task):
        remove_node_files(task.node.uuid,
                          [port.address for port in task.ports])
        LOG.debug('Node %s: iPXE boot configuration removed',
                  task.node.uuid)
