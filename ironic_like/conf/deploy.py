"""Options of the [deploy] group: the agent deploy interface and the
network boot of the deploy ramdisk."""

from oslo_config import cfg

group = cfg.OptGroup('deploy', title='Deploy and network boot options')

opts = [
    cfg.StrOpt('http_root', default='/var/lib/ironic_like/httpboot',
               help='Directory where the network boot interface writes each '
                    'node\'s boot configuration (nodes/<uuid>/boot.ipxe, '
                    'and macs/<mac>.ipxe for each of its ports). An HTTP '
                    'server must publish it at http_url.'),
    cfg.URIOpt('http_url', default='http://127.0.0.1:8088',
               schemes=['http', 'https'],
               help='Base URL at which http_root is served to booting '
                    'nodes.'),
    cfg.PortOpt('http_server_port', default=0,
                help='When not 0, the conductor itself serves http_root '
                     '(read only) on this port of http_server_host. Meant '
                     'for the embedded service and labs; a cluster uses '
                     'one shared web server instead.'),
    cfg.HostAddressOpt('http_server_host', default='127.0.0.1',
                       help='Address the built-in boot file server binds '
                            'to (see http_server_port).'),
    # Ironic's name, group and default.
    cfg.StrOpt('http_image_subdir', default='agent_images',
               help='Subdirectory of http_root where the conductor links '
                    'the instance images it serves to deploy agents '
                    '(Glance and file:// images; see '
                    '[agent]image_download_source).'),
    cfg.URIOpt('api_url', schemes=['http', 'https'],
               help='The API URL the deploy ramdisk calls back '
                    '(ipa-api-url on its kernel command line). Defaults to '
                    'http://[api]host_ip:[api]port.'),
    cfg.IntOpt('erase_devices_priority', default=10, min=0,
               help='Priority of the agent\'s erase_devices step in '
                    'automated cleaning; 0 leaves disks as they are.'),
    # Ironic's names and meaning, so that its configuration carries over.
    cfg.IntOpt('delete_configuration_priority', min=0,
               help='Priority to run in-band clean step that erases '
                    'RAID configuration from devices, via the agent '
                    'ramdisk, for nodes with the "agent" raid interface. '
                    'If unset, will use the priority set in the ramdisk '
                    '(0 for the GenericHardwareManager). If set to 0, will '
                    'not run during cleaning.'),
    cfg.IntOpt('create_configuration_priority', min=0,
               help='Priority to run in-band clean step that creates '
                    'RAID configuration from devices, via the agent '
                    'ramdisk, for nodes with the "agent" raid interface '
                    '(from their target_raid_config). If unset, will use '
                    'the priority set in the ramdisk (0 for the '
                    'GenericHardwareManager). If set to 0, will not run '
                    'during cleaning.'),
    cfg.IntOpt('agent_command_timeout', default=60, min=1,
               help='Seconds to wait for the agent to answer one HTTP '
                    'request (sending a command or reading its status). '
                    'Long commands are asynchronous: their status is read '
                    'on the following heartbeats, holding no thread.'),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)
