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
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)
