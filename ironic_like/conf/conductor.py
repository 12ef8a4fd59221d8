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
    cfg.BoolOpt('enable_health_monitoring', default=True,
                help='Read each node\'s hardware health (OK, Warning, '
                     'Critical: as its BMC reports it, where the management '
                     'interface can) at each power-state sync, into the '
                     'node\'s health field (API 1.109); a change is '
                     'recorded in the node\'s history.'),
    cfg.IntOpt('power_state_sync_max_retries', default=3, min=1,
               help='Failed power-state reads in a row after which the '
                    'power sync puts a node in maintenance with the fault '
                    '"power failure". Each later sync tries to read it '
                    'again and takes it out of maintenance when it '
                    'succeeds.'),
    cfg.IntOpt('allocation_workers', default=2, min=1,
               help='Threads a conductor uses to run allocation flows. '
                    'Allocation work is short and mostly CPU in this '
                    'process: two threads keep the database busy while '
                    'one computes, and under a burst each takes a larger '
                    'batch, whose allocations asking alike are reserved '
                    'in one transaction. More threads split a burst into '
                    'smaller batches: at 200 allocations from 16 clients, '
                    '8 threads served 129-139 a second, 2 threads 163-166 '
                    '(doc/performance.md).'),
    cfg.IntOpt('allocation_batch_size', default=16, min=1,
               help='The most allocations one run of the allocation flow '
                    'handles. A burst is served in batches, paying the '
                    'flow engine\'s fixed cost once per batch; a single '
                    'allocation never waits for others.'),
    cfg.IntOpt('check_allocations_interval', default=60, min=0,
               help='Seconds between checks for allocations left '
                    '`allocating` by dead conductors, which this conductor '
                    'then takes over, and for allocations the API stored '
                    'for this conductor whose start request was lost (a '
                    'broker restart), which it then starts. 0 disables '
                    'the periodic check (a change of the hash ring still '
                    'triggers a take-over).'),
    cfg.IntOpt('check_orphaned_work_interval', default=30, min=0,
               help='Seconds between a conductor\'s checks of its nodes for '
                    'work nobody carries on: a transient provision state or '
                    'a pending power change on a node no conductor holds '
                    'locked (its worker was killed). Resumable node flows '
                    'are carried on; other work ends with a last_error '
                    'saying what was interrupted. 0 disables the check.'),
    cfg.IntOpt('check_polled_steps_interval', default=15, min=1,
               help='Seconds between a conductor\'s polls of the '
                    'out-of-band steps of its nodes that go on outside it '
                    '(the redfish BIOS steps wait so for the settings to '
                    'be in force after the reboot, the redfish RAID steps '
                    'for the volumes, the redfish firmware update for the '
                    'BMC\'s task and the new versions): the node waits '
                    '(clean '
                    'wait, service wait, deploy wait) with no worker and '
                    'no lock held, and whichever conductor owns it then '
                    'polls it. Each step bounds its own wait.'),
    cfg.IntOpt('takeover_check_interval', default=2, min=1,
               help='Seconds between checks of the hash ring for nodes '
                    'this conductor must take over.'),
    cfg.IntOpt('node_locked_retry_attempts', default=3, min=1,
               help='Attempts to lock a node that is locked by another '
                    'task before failing with NodeLocked.'),
    cfg.FloatOpt('node_locked_retry_interval', default=0.5, min=0,
                 help='Seconds between attempts to lock a node.'),
    cfg.ListOpt('file_url_allowed_paths',
                default=['/var/lib/ironic_like/images'],
                help='Directories whose files may be given as file:// URLs '
                     '(instance images, firmware update images): a path '
                     'resolved (symbolic links followed) outside them is '
                     'refused, and so is one under /boot, /dev, /etc, '
                     '/proc, /run or /sys whatever this says. Entries must '
                     'be absolute paths without ".." (others are ignored, '
                     'with a warning); "/" allows every other directory. '
                     'Empty: no file:// URL is taken. Ironic\'s option '
                     '(its default: /var/lib/ironic and a few other '
                     'directories; here a directory of its own, so that '
                     'the service\'s state, its database file, is never '
                     'under it).'),
    cfg.StrOpt('api_url',
               help='URL of the API, for conductors that must hand it out '
                    '(agents, boot configuration).'),
    # In [conductor] as in Ironic, so that an ironic.conf carries over;
    # [deploy], where they were first, is still read (deprecated; the
    # deprecated_name only makes the sample config show the old group).
    cfg.StrOpt('deploy_kernel',
               default='http://127.0.0.1:8088/images/ipa.kernel',
               deprecated_group='deploy', deprecated_name='deploy_kernel',
               help='Deploy ramdisk kernel URL used when a node\'s '
                    'driver_info has no deploy_kernel.'),
    cfg.StrOpt('deploy_ramdisk',
               default='http://127.0.0.1:8088/images/ipa.initramfs',
               deprecated_group='deploy', deprecated_name='deploy_ramdisk',
               help='Deploy ramdisk initrd URL used when a node\'s '
                    'driver_info has no deploy_ramdisk.'),
    # Ironic's names and default (read by conductor/rescue.py).
    cfg.StrOpt('rescue_kernel',
               help='Rescue ramdisk kernel URL used when a node\'s '
                    'driver_info has no rescue_kernel (the agent rescue '
                    'interface needs one of the two).'),
    cfg.StrOpt('rescue_ramdisk',
               help='Rescue ramdisk initrd URL used when a node\'s '
                    'driver_info has no rescue_ramdisk (the agent rescue '
                    'interface needs one of the two).'),
    cfg.IntOpt('rescue_callback_timeout', default=1800, min=0,
               help='Seconds a node may wait in "rescue wait" for its '
                    'rescue ramdisk\'s agent to call back; past it the '
                    'rescue fails (rescue failed, powered off). 0 '
                    'disables the timeout.'),
    # Ironic's name and default, so that an ironic.conf carries over
    # (read by conductor/node_flags.py).
    cfg.BoolOpt('automated_clean',
                default=True,
                mutable=True,
                help='Whether nodes are cleaned (the agent\'s automated '
                     'clean steps, such as erasing disks, and the '
                     'accelerators\' erase) on their way to available: '
                     'on provide and after an instance is undeployed. '
                     'When false, they go to available at once, except '
                     'nodes whose automated_clean field is true.'),
    # Ironic's name, type and meaning, so that an ironic.conf carries
    # over (read by conductor/flows/clean.py).
    cfg.MultiOpt('clean_step_priority_override',
                 item_type=cfg.types.Dict(),
                 default={},
                 help='Priority to run automated clean steps for both '
                      'in-band and out of band clean steps, provided in '
                      'interface.step_name:priority format, e.g. '
                      'deploy.erase_devices_metadata:123. The option can '
                      'be specified multiple times to define priorities '
                      'for multiple steps. If set to 0, this specific step '
                      'will not run during cleaning. If unset for an '
                      'inband clean step, will use the priority set in the '
                      'ramdisk (or by [deploy]erase_devices_priority and '
                      'the RAID priority options).'),
    # Node history (API 1.78), Ironic's names and defaults
    # (conductor/node_history.py).
    cfg.BoolOpt('node_history',
                default=True,
                mutable=True,
                help='Whether a node\'s errors and fault changes are '
                     'recorded in its history (GET /v1/nodes/{id}/history). '
                     'The periodic clean-up still prunes the history when '
                     'this is off.'),
    cfg.IntOpt('node_history_max_entries',
               default=300, min=0,
               mutable=True,
               help='The most history events kept per node; the oldest go '
                    'first, but never one younger than '
                    '[conductor]node_history_minimum_days.'),
    cfg.IntOpt('node_history_cleanup_interval',
               default=86400, min=0,
               help='Seconds between two clean-ups of the node history on '
                    'each conductor. 0 disables the clean-up.'),
    cfg.IntOpt('node_history_cleanup_batch_count',
               default=1000, min=0,
               help='The most history events one clean-up deletes.'),
    cfg.IntOpt('node_history_minimum_days',
               default=0, min=0,
               mutable=True,
               help='History events younger than this many days are kept '
                    'whatever node_history_max_entries says.'),
    # Ironic's name, default and bounds (conductor/flows/reserved_steps).
    cfg.IntOpt('max_conductor_wait_step_seconds',
               default=30, min=0, max=1800,
               mutable=True,
               help='The longest pause a "wait" clean or service step may '
                    'ask for with its "seconds" argument; a longer one '
                    'waits this long (with a warning in the node\'s '
                    'history). The pause holds a conductor worker thread '
                    'and the node\'s lock.'),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)
