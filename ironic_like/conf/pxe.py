"""Options of the [pxe] group: the network boot of the deploy ramdisk, in
the group where Ironic has them (so that an ironic.conf carries over)."""

from oslo_config import cfg

group = cfg.OptGroup('pxe', title='PXE/iPXE boot options')

opts = [
    # It was [deploy]kernel_append_params first: still read (deprecated;
    # the deprecated_name only makes the sample config show the old group).
    cfg.StrOpt('kernel_append_params', default='nofb nomodeset vga=normal',
               deprecated_group='deploy',
               deprecated_name='kernel_append_params',
               help='Extra kernel parameters of the deploy ramdisk.'),
    # Ironic's names and groups for its instance image cache.
    cfg.StrOpt('instance_master_path',
               default='/var/lib/ironic_like/master_images',
               help='Directory of the conductor\'s cache of instance images '
                    '(Glance and file:// images, and http(s) ones with '
                    '[agent]image_download_source = local): one file per '
                    'image, hard-linked under [deploy]http_root/agent_images '
                    'for each node deploying it (on the same file system '
                    'as http_root, else copied).'),
    cfg.IntOpt('image_cache_size', default=20480, min=0,
               help='Maximum size (MiB) of the instance image cache: the '
                    'images used longest ago that no node is deploying are '
                    'removed beyond it. 0: no bound of size.'),
    cfg.IntOpt('image_cache_ttl', default=10080, min=0,
               help='Minutes an image may stay in the instance image cache '
                    'unused. 0: no bound of time.'),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)
