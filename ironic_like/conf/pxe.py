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
                    'image, hard-linked under [deploy]http_root/'
                    '[deploy]http_image_subdir for each node deploying it '
                    '(copied when on another file system). Glance deploy '
                    'and rescue kernels and ramdisks of the ipxe boot '
                    'interface are cached here too, linked under '
                    '[deploy]http_root/nodes/<node uuid>. Empty: no '
                    'cache, each node fetches its own copy.'),
    cfg.IntOpt('image_cache_size', default=20480, min=0,
               help='Maximum size (MiB) of the instance image cache, '
                    'including the images nodes are deploying: beyond it '
                    'the others, used longest ago first, are removed '
                    'after each image is cached and periodically.'),
    cfg.IntOpt('image_cache_ttl', default=10080, min=0,
               help='Minutes an image no node is deploying may stay in '
                    'the instance image cache unused.'),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)
