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
"""

import os

from oslo_log import log

from ironic_like.common import agent_info
from ironic_like.common import exception
from ironic_like.common import published_files
from ironic_like.conf import CONF
from ironic_like.drivers import base

LOG = log.getLogger(__name__)

NODES_DIR = 'nodes'
MACS_DIR = 'macs'
SCRIPT_NAME = 'boot.ipxe'

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
    """(kernel, ramdisk) URLs of the node; raise naming a bad field."""
    info = node.driver_info or {}
    images = []
    for field in ('deploy_kernel', 'deploy_ramdisk'):
        value = info.get(field) or getattr(CONF.conductor, field)
        if not value:
            raise exception.MissingParameterValue(
                err='Node %s: %s is set neither in driver_info nor in '
                    '[conductor]%s.' % (node.uuid, field, field),
                field=field)
        # Whitespace would split the URL on the kernel command line.
        if not isinstance(value, str) or len(value.split()) != 1:
            raise exception.InvalidParameterValue(
                err='Node %s: %s must be a URL without spaces, not %r.'
                    % (node.uuid, field, value),
                field=field)
        images.append(value)
    return tuple(images)


class IPXEBoot(base.BootInterface):

    def get_properties(self):
        return {
            'deploy_kernel': 'URL or path of the deploy ramdisk\'s kernel. '
                             'Optional when [conductor]deploy_kernel is '
                             'set.',
            'deploy_ramdisk': 'URL or path of the deploy ramdisk. Optional '
                              'when [conductor]deploy_ramdisk is set.',
        }

    def validate(self, task):
        _deploy_images(task.node)

    def prepare_ramdisk(self, task):
        kernel, ramdisk = _deploy_images(task.node)
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
        # Network-booted images boot the network every time.
        task.driver.management.set_boot_device(task, 'pxe',
                                               persistent=True)

    def clean_up_ramdisk(self, task):
        published_files.remove(_node_path(task.node.uuid))
        for port in task.ports:
            published_files.remove(_mac_path(port.address))
        try:
            os.rmdir(os.path.dirname(_node_path(task.node.uuid)))
        except OSError:
            pass  # absent, or someone put more there: leave it
        LOG.debug('Node %s: iPXE boot configuration removed',
                  task.node.uuid)
