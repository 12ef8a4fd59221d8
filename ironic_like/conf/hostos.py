"""Options of the [hostos] group: host OS configuration (doc/hostos.md)."""

from oslo_config import cfg

group = cfg.OptGroup('hostos', title='Host OS configuration options')

opts = [
    cfg.StrOpt('modules_dir', default='/root/host-os-modules',
               help='Directory of the deployed host where host agents '
                    'unpack module archives, one sub-directory '
                    '<module>-<version> per module version (shared by '
                    'every configuration using that version). It is the '
                    '"path" overwrite of downloader items.'),
    cfg.StrOpt('ansible_playbook', default='/usr/bin/ansible-playbook',
               help='ansible-playbook binary on the deployed hosts: the '
                    '"ansible" overwrite of ansible items.'),
    cfg.IntOpt('agent_heartbeat_interval', default=10, min=1,
               help='Seconds between two heartbeats of a host agent (told '
                    'to the agent in every heartbeat answer).'),
    cfg.IntOpt('retry_interval', default=60, min=1,
               help='Seconds a host agent waits before it runs a failed '
                    'item again (unless the item changed).'),
    cfg.IntOpt('delete_timeout', default=900, min=1,
               help='Seconds a deleted configuration waits for every node '
                    'to drop its items. After that it shows delete_failed '
                    'and names the nodes that never answered; deleting it '
                    'again waits anew.'),
    cfg.IntOpt('reconcile_interval', default=60, min=5,
               help='Seconds between two passes of the conductor\'s host '
                    'OS reconciliation: items derived again for the '
                    'configurations it owns on the hash ring (a safety '
                    'net: every change derives items at once), modules '
                    'left unverified, deletions finished or timed out.'),
    cfg.IntOpt('max_archive_size', default=100 * 1024 * 1024, min=1024,
               help='Largest module archive, in bytes, that the service '
                    'downloads to verify a module.'),
    cfg.IntOpt('download_timeout', default=60, min=1,
               help='Seconds the service waits for a module archive\'s '
                    'server (connect and each read) when it verifies a '
                    'module.'),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)
