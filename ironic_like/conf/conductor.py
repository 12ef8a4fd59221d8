"""Options of the [conductor] group."""

from oslo_config import cfg

group = cfg.OptGroup('conductor', title='Conductor service options')

opts = [
    cfg.IntOpt('heartbeat_interval', default=2, min=1,
               help='Seconds between a conductor\'s heartbeats in the '
                    'conductors table.'),
    cfg.IntOpt('heartbeat_timeout', default=30, min=2,
               help='A conductor whose last heartbeat is older than this '
                    'many seconds is dead: it leaves the hash ring and the '
                    'survivors take its nodes and allocations over. A '
                    'conductor that was only slow (a stalled database, a '
                    'starved or paused process) writes nothing more to the '
                    'nodes taken from it (every write under a node lock is '
                    'conditional on still holding it) and takes no new '
                    'work until its own heartbeat is recorded again, so a '
                    'short timeout costs repeated work, never two '
                    'conductors driving one node. Ironic uses 60; 30 rides '
                    'out a database restart while a dead conductor\'s '
                    'nodes move within about half a minute.'),
    cfg.StrOpt('conductor_group', default='',
               regex=r'^[a-zA-Z0-9_\-\.]*$',
               help='Group of this conductor. A node is managed only by '
                    'conductors of the node\'s conductor_group.'),
    cfg.ListOpt('enabled_hardware_types', default=['fake-hardware'],
                help='Hardware types this conductor loads and serves.'),
    cfg.IntOpt('workers_pool_size', default=100, min=3,
               help='Threads a conductor uses for background work (power '
                    'changes, provisioning flows, heartbeat follow-ups, '
                    'take-over). Work starts only when a thread is free: '
                    'beyond this many at once the conductor answers busy '
                    '(503 with Retry-After) instead of queueing work that '
                    'would hold node locks while it waits. Most of these '
                    'threads wait on BMCs and agents, so the number can be '
                    'well above the CPU count.'),
    cfg.IntOpt('sync_power_state_interval', default=60, min=0,
               help='Seconds between power-state syncs of the nodes this '
                    'conductor owns. 0 disables the sync.'),
    cfg.IntOpt('allocation_workers', default=8, min=1,
               help='Threads a conductor uses to run allocation flows. '
                    'Allocation work is short and mostly CPU in this '
                    'process, so a few threads reach full throughput; more '
                    'only make RPC answers slower under bursts.'),
    cfg.IntOpt('allocation_batch_size', default=16, min=1,
               help='The most allocations one run of the allocation flow '
                    'handles. A burst is served in batches, paying the '
                    'flow engine\'s fixed cost once per batch; a single '
                    'allocation never waits for others.'),
    cfg.IntOpt('check_allocations_interval', default=60, min=0,
               help='Seconds between checks for allocations left '
                    '`allocating` by dead conductors, which this conductor '
                    'then takes over. 0 disables the periodic check (a '
                    'change of the hash ring still triggers one).'),
    cfg.IntOpt('check_orphaned_work_interval', default=30, min=0,
               help='Seconds between a conductor\'s checks of its nodes for '
                    'work nobody carries on: a transient provision state or '
                    'a pending power change on a node no conductor holds '
                    'locked (its worker was killed). Resumable node flows '
                    'are carried on; other work ends with a last_error '
                    'saying what was interrupted. 0 disables the check.'),
    cfg.IntOpt('takeover_check_interval', default=2, min=1,
               help='Seconds between checks of the hash ring for nodes '
                    'this conductor must take over.'),
    cfg.IntOpt('node_locked_retry_attempts', default=3, min=1,
               help='Attempts to lock a node that is locked by another '
                    'task before failing with NodeLocked.'),
    cfg.FloatOpt('node_locked_retry_interval', default=0.5, min=0,
                 help='Seconds between attempts to lock a node.'),
    cfg.StrOpt('api_url',
               help='URL of the API, for conductors that must hand it out '
                    '(agents, boot configuration).'),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)
