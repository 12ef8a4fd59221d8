"""Options of the [agent] group: the deploy agent running in the ramdisk."""

from oslo_config import cfg

group = cfg.OptGroup('agent', title='Deploy agent options')

opts = [
    cfg.IntOpt('heartbeat_timeout', default=300, min=1,
               help='Seconds an agent may stay silent. Lookup hands this '
                    'value to the agent (it heartbeats well within it), '
                    'and a node waiting for its agent whose last heartbeat '
                    'is older than this is considered lost.'),
    cfg.StrOpt('heartbeat_timeout_action', default='reboot',
               choices=[('reboot', 'power-cycle the node so that the '
                                   'agent boots again, up to '
                                   'heartbeat_timeout_reboots times, then '
                                   'put it in maintenance'),
                        ('maintenance', 'put the node in maintenance with '
                                        'the reason at once')],
               help='What a conductor does with a powered-on node waiting '
                    'for its agent (wait call-back, clean wait) that has '
                    'not heard from it for heartbeat_timeout seconds.'),
    cfg.IntOpt('heartbeat_timeout_reboots', default=2, min=0,
               help='Reboots tried for one silent agent before the node '
                    'goes to maintenance (with heartbeat_timeout_action = '
                    'reboot).'),
    cfg.IntOpt('check_heartbeat_interval', default=30, min=0,
               help='Seconds between a conductor\'s checks of its nodes '
                    'for silent agents. 0 disables the check.'),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)
