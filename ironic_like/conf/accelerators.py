"""Options of the [accelerators] group: accelerator discovery, os_acc
plug/unplug and FPGA bitstreams (doc/accelerators.md)."""

from oslo_config import cfg

group = cfg.OptGroup('accelerators', title='Accelerator options')

opts = [
    cfg.StrOpt('image_service', default='index',
               choices=[('glance', 'Bitstreams are Glance images, reached '
                                   'through openstacksdk ([accelerators] '
                                   'glance_cloud or glance_endpoint).'),
                        ('index', 'Bitstreams are listed in a JSON index '
                                  '(a directory or an HTTP URL, '
                                  '[accelerators] index_url).')],
               help='Where FPGA bitstreams and their properties come '
                    'from.'),
    cfg.StrOpt('glance_cloud', default=None,
               help='Name of the clouds.yaml entry used to reach Glance '
                    '(image_service = glance). When unset, glance_endpoint '
                    'is used without authentication.'),
    cfg.URIOpt('glance_endpoint', default=None,
               help='Glance API endpoint reached without authentication '
                    '(a standalone Glance with no auth), e.g. '
                    'http://127.0.0.1:9292. Ignored when glance_cloud is '
                    'set.'),
    cfg.StrOpt('index_url', default='/var/lib/ironic_like/bitstreams',
               help='The standalone bitstream index (image_service = '
                    'index): a directory holding index.json and the image '
                    'files (a path or a file:// URL), or the http(s) URL '
                    'of such an index.json (files relative to it). The '
                    'index is read again on every query, so it can be '
                    'edited in place.'),
    cfg.IntOpt('max_bitstream_size', default=512 * 1024 * 1024, min=1,
               help='Largest bitstream, in bytes, the conductor downloads '
                    'and verifies before it programs a device.'),
    cfg.IntOpt('download_timeout', default=60, min=1,
               help='Seconds the conductor waits for the image service '
                    '(connect and each read) when it queries it or '
                    'fetches a bitstream.'),
    cfg.IntOpt('program_timeout', default=300, min=1,
               help='Seconds the agent may take to program one bitstream. '
                    'A program not finished by then fails the plug and '
                    'allocates nothing.'),
    cfg.IntOpt('plug_timeout', default=900, min=10,
               help='Deadline, in seconds from its start, of an '
                    'attachment being plugged. The reconciler finishes '
                    '(programmed) or rolls back (pending, programming) an '
                    'attachment still in progress past its deadline, or '
                    'at once when the conductor doing it is dead.'),
    cfg.IntOpt('reconcile_interval', default=60, min=1,
               help='Seconds between two passes of the attachment '
                    'reconciler on each conductor (attachments of the '
                    'nodes it owns on the hash ring).'),
    cfg.IntOpt('discovery_timeout', default=120, min=1,
               help='Seconds os_acc.initialize() waits for a node\'s '
                    'accelerator discovery to finish.'),
    cfg.IntOpt('inventory_interval', default=600, min=0,
               help='Seconds between two re-inventories of a node whose '
                    'agent is up (the ramdisk, during deploy, cleaning or '
                    'while waiting). 0 disables the periodic '
                    're-inventory; the deploy and cleaning always take one '
                    'when the agent comes up.'),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)
