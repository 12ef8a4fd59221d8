"""Options of the [boot] group: boot sessions (doc/boot-sessions.md).

BOS's own options (polling_frequency, retry policy, wait times, ...) are
not here: they live in the database and are changed at run time through
/v1/boot/options, as in BOS. These are the conductor's."""

from oslo_config import cfg

group = cfg.OptGroup('boot', title='Boot session options')

opts = [
    cfg.BoolOpt('operators_enabled', default=True,
                help='Run the boot-session operators in this conductor. '
                     'Each conductor runs them over the nodes it owns on '
                     'the hash ring, so switching them off on some '
                     'conductors leaves those conductors\' nodes without '
                     'boot sessions.'),
    cfg.IntOpt('max_concurrent_power_on', default=0, min=0,
               help='Fleet-wide cap on the nodes that boot sessions are '
                    'booting at once (power on requested, boot not yet '
                    'reported), so that a reboot of thousands of nodes '
                    'does not storm the BMCs and the boot servers. 0: no '
                    'cap. The per-session cap is the boot option '
                    'session_max_concurrent_power_on.'),
    cfg.IntOpt('operator_workers', default=8, min=1,
               help='Worker threads of each node-level boot-session '
                    'operator of this conductor: the nodes of a batch are '
                    'handled this many at a time (the work is mostly '
                    'waiting for BMCs and the database).'),
    cfg.FloatOpt('power_recheck_interval', default=2.0, min=0.1,
                 help='Seconds after which the status operator reads the '
                      'power state again while a node it asked to power on '
                      'or off has not got there yet (instead of a whole '
                      'polling_frequency later).'),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)
