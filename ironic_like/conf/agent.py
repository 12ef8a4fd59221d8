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
    cfg.IntOpt('phase_timeout', default=1800, min=0,
               help='Seconds a node may wait in one agent phase (the image '
                    'write, one clean step, the first call-back) even while '
                    'its agent heartbeats: a command stuck running, or an '
                    'agent whose command API cannot be reached, ends the '
                    'deploy or cleaning as failed after this long, with '
                    'the phase named in last_error. As Ironic\'s '
                    'deploy_callback_timeout; 0 disables the deadline.'),
    cfg.IntOpt('check_heartbeat_interval', default=30, min=0,
               help='Seconds between a conductor\'s checks of its nodes '
                    'for silent agents and overdue agent phases. 0 '
                    'disables the checks.'),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)
