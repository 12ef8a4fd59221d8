"""The conductor service: registration, heartbeat, RPC server and periodic
tasks. The RPC endpoint itself is manager.ConductorManager."""

from concurrent import futures
import threading
import time

import futurist
from futurist import periodics
from oslo_log import log
import oslo_messaging as messaging

from ironic_like.common import boot_file_server
from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.common import rpc
from ironic_like.common import states
from ironic_like.conductor import accelerators
from ironic_like.conductor import agent_timeouts
from ironic_like.conductor import allocation_runner
from ironic_like.conductor import allocations
from ironic_like.conductor import fencing
from ironic_like.conductor.flows import runner as flow_runner
from ironic_like.conductor import hash_ring
from ironic_like.conductor import instance_images
from ironic_like.conductor.hostos import modules as hostos_modules
from ironic_like.conductor.hostos import reconcile as hostos_reconcile
from ironic_like.conductor import locks
from ironic_like.conductor import manager
from ironic_like.conductor import node_flags
from ironic_like.conductor import node_history
from ironic_like.conductor.operators import runner as boot_operators
from ironic_like.conductor import power
from ironic_like.conductor import rpcapi
from ironic_like.conductor import step_polling
from ironic_like.conductor import takeover
from ironic_like.conductor import watchdog
from ironic_like.conductor import workers
from ironic_like.conf import CONF
from ironic_like.db import api as db_api
from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.drivers import loader
from ironic_like.drivers.modules import ipxe

LOG = log.getLogger(__name__)

# The ring only changes with the set of alive conductors, so the periodic
# check reads every node only then; in between it reads just the nodes no
# conductor has claimed. A full pass this often anyway is a safety net.
FULL_TAKEOVER_PASS_INTERVAL = 60
# After a membership change the other conductors still claim nodes on
# their old ring until their own next check: keep making full passes for
# this many check intervals, so nodes they claimed meanwhile come back.
RING_SETTLE_CHECKS = 3


class ConductorService(object):

    def __init__(self, host=None):
        self.host = host or CONF.host
        self.db = db_api.get_instance()
        self.ring = hash_ring.HashRingManager(self.db)
        self.executor = None
        self._boot_files = None
        self.allocation_runner = None
        self._rpc_server = None
        self._periodic = None
        self._periodic_thread = None
        self._members = None
        self._last_full_pass = 0.0
        self._members_changed_at = 0.0
        self._started = False
        self.boot_operators = None

    # -- lifecycle -------------------------------------------------------

    def start(self):
        hw_types = list(CONF.enabled_hardware_types)
        for name in hw_types:
            loader.hardware_type(name)  # fail early on a bad name
        # The standard library's pools, not futurist's: futurist's idle
        # workers poll their queue once a second, so every shutdown (and
        # so every stop()) took up to a second per pool; these wake at once.
        self.executor = workers.AdmittingExecutor(
            CONF.conductor.workers_pool_size,
            thread_name_prefix='conductor-worker',
            initializer=sa_api.mark_worker_thread)
        # Heartbeats and take-overs hand node flows to the same pool.
        flow_runner.use_executor(self.executor)
        self._boot_files = None
        if CONF.deploy.http_server_port:
            self._boot_files = boot_file_server.BootFileServer(
                CONF.deploy.http_root, CONF.deploy.http_server_host,
                CONF.deploy.http_server_port)
            self._boot_files.start()
        # Allocation flows are short and mostly CPU; a runner of their own
        # keeps a burst of them from starving power and provisioning work
        # and the RPC server of the interpreter.
        self.allocation_runner = allocation_runner.AllocationRunner(
            self.host, CONF.conductor.allocation_workers,
            CONF.conductor.allocation_batch_size)
        # Nodes an earlier run of this host was working on when it died:
        # the worker threads died with it, so clearing the locks alone left
        # them in e.g. "deploying" for good. Their work is failed below, as
        # a take-over from a dead conductor does.
        abandoned = [row[0] for row in self.db.get_node_ownership_list(
            filters={'reservation': self.host,
                     'provision_state': sorted(states.TRANSIENT_STATES)})]
        cleared = self.db.clear_node_reservations_for_conductor(self.host)
        if cleared:
            LOG.warning('Cleared %d stale reservations of %s left by an '
                        'earlier run', cleared, self.host)
        self.db.register_conductor(self.host, CONF.conductor.conductor_group,
                                   hw_types)
        fencing.heartbeat_recorded()
        for node_id in abandoned:
            takeover.fail_abandoned_work(ctx.get_admin_context(), node_id,
                                         self.host)
        target = messaging.Target(topic=rpcapi.TOPIC, server=self.host)
        endpoint = manager.ConductorManager(self)
        self._rpc_server = rpc.get_server(target, [endpoint])
        # Same for oslo.messaging's "threading" executor (futurist's pool):
        # its wait() after stop() cost another second. The server only calls
        # submit() and shutdown(wait=True), which the standard pool has.
        if getattr(self._rpc_server, '_executor_cls', None) is \
                futurist.ThreadPoolExecutor:
            self._rpc_server._executor_cls = futures.ThreadPoolExecutor
        self._rpc_server.start()
        self.ring.reset()
        resumed = allocations.resume_own(self.allocation_runner, self.host)
        if resumed:
            LOG.info('Resumed %d allocations left allocating by an earlier '
                     'run', resumed)
        self._start_periodics()
        if CONF.boot.operators_enabled:
            self.boot_operators = boot_operators.BootOperators(
                self.host, self.ring, self.db)
            self.boot_operators.start()
        self._started = True
        LOG.info('Conductor %s started (group "%s", hardware types %s)',
                 self.host, CONF.conductor.conductor_group,
                 ', '.join(hw_types))

    def stop(self, unregister=True):
        if not self._started:
            return
        self._started = False
        if self.boot_operators is not None:
            self.boot_operators.stop()
            self.boot_operators = None
        if self._periodic is not None:
            self._periodic.stop()
            self._periodic.wait()
        if self._periodic_thread is not None:
            self._periodic_thread.join(timeout=30)
        if self._rpc_server is not None:
            self._rpc_server.stop()
            self._rpc_server.wait()
        self.executor.shutdown(wait=True)
        self.allocation_runner.stop()
        if self._boot_files is not None:
            self._boot_files.stop()
        fencing.forget()
        if unregister:
            self.db.unregister_conductor(self.host)
        LOG.info('Conductor %s stopped', self.host)

    def wake_boot_operators(self, operators=None, node_ids=None):
        if self.boot_operators is not None:
            self.boot_operators.wake(operators, node_ids)

    # -- periodic tasks --------------------------------------------------

    def prune_node_history(self):
        # Every conductor prunes (a delete of the oldest rows; two doing
        # it at once delete no more than the bound each).
        try:
            node_history.prune()
        except Exception:
            LOG.exception('Node history clean-up failed')

    def sweep_instance_images(self):
        """Links to instance images of nodes not deploying, to deploy
        images of nodes running no ramdisk, and the cache's eviction: see
        conductor/instance_images.py and drivers/modules/ipxe.py."""
        def lock(node_id):
            return locks.acquire(ctx.get_admin_context(), node_id,
                                 attempts=1,
                                 purpose='deploy image link clean-up')
        try:
            ipxe.sweep(self.db, lock)
        except Exception:
            LOG.exception('Deploy image link clean-up failed')
        try:
            instance_images.sweep(self.db)
        except Exception:
            LOG.exception('Instance image clean-up failed')

    def _start_periodics(self):
        def every(spacing, method, now=False):
            # futurist marks the callable itself; bound methods cannot be
            # marked, so wrap each in a plain function.
            def run():
                return method()
            run.__name__ = method.__name__
            return (periodics.periodic(spacing, run_immediately=now)(run),
                    None, None)

        callables = [
            every(CONF.conductor.heartbeat_interval, self.heartbeat),
            every(CONF.conductor.takeover_check_interval, self.check_ring,
                  now=True),
        ]
        if CONF.conductor.check_allocations_interval:
            callables.append(every(CONF.conductor.check_allocations_interval,
                                   self.check_allocations))
        if CONF.agent.check_heartbeat_interval:
            callables.append(every(CONF.agent.check_heartbeat_interval,
                                   self.check_agent_heartbeats))
        if CONF.conductor.check_orphaned_work_interval:
            callables.append(every(
                CONF.conductor.check_orphaned_work_interval,
                self.check_orphaned_work))
        callables.append(every(CONF.conductor.check_polled_steps_interval,
                               self.poll_steps))
        if CONF.conductor.sync_power_state_interval:
            callables.append(every(CONF.conductor.sync_power_state_interval,
                                   self.sync_power_states))
        if CONF.conductor.node_history_cleanup_interval:
            callables.append(every(
                CONF.conductor.node_history_cleanup_interval,
                self.prune_node_history))
        if CONF.conductor.check_orphaned_work_interval:
            callables.append(every(
                CONF.conductor.check_orphaned_work_interval,
                self.sweep_instance_images))
        callables.append(every(CONF.hostos.reconcile_interval,
                               self.reconcile_hostos))
        callables.append(every(CONF.accelerators.reconcile_interval,
                               self.reconcile_accelerators))
        # Each periodic in its own thread: a slow power sync must never
        # delay the heartbeat that keeps this conductor in the ring.
        self._periodic = periodics.PeriodicWorker(
            callables,
            executor_factory=lambda: futures.ThreadPoolExecutor(
                max_workers=len(callables),
                thread_name_prefix='periodic'))
        self._periodic_thread = threading.Thread(
            target=self._periodic.start, name='periodics', daemon=True)
        self._periodic_thread.start()

    def reconcile_hostos(self):
        """Host OS configuration: see conductor/hostos/reconcile.py."""
        if fencing.is_fenced():
            return
        try:
            hostos_reconcile.run(self.db, self.ring, self.host)
        except Exception:
            LOG.exception('Host OS configuration reconciliation failed')

    def reconcile_accelerators(self):
        """Attachments left half done, and the periodic re-inventory: see
        conductor/accelerators.py."""
        if fencing.is_fenced():
            return
        try:
            accelerators.reconcile(self.db, self.ring, self.host)
            accelerators.reinventory(self.db, self.ring, self.host)
        except Exception:
            LOG.exception('Accelerator reconciliation failed')

    def verify_hostos_module(self, module_id):
        try:
            hostos_modules.verify(self.db, module_id)
        except Exception:
            LOG.exception('Verification of host OS module %s failed; the '
                          'periodic reconciliation tries again', module_id)

    def heartbeat(self):
        try:
            self.db.touch_conductor(self.host)
        except Exception:
            LOG.exception('Heartbeat of conductor %s failed', self.host)
            return
        fencing.heartbeat_recorded()
        locks.retry_failed_releases()

    def check_ring(self):
        """Rebuild the ring if membership changed; take nodes over."""
        if fencing.is_fenced():
            # Our own heartbeat is stale (a stalled database, a paused
            # process): the others' may look stale for the same reason,
            # and we may be the one declared dead.
            return
        try:
            members = frozenset(
                c.hostname for c in self.db.get_alive_conductors(
                    CONF.conductor.heartbeat_timeout))
            lost = (self._members or frozenset()) - members
            now = time.monotonic()
            if members != self._members:
                self._members = members
                self._members_changed_at = now
                self.ring.reset()
            settling = (now - self._members_changed_at <
                        RING_SETTLE_CHECKS *
                        CONF.conductor.takeover_check_interval)
            full = settling or (now - self._last_full_pass >=
                                FULL_TAKEOVER_PASS_INTERVAL)
            takeover.take_over_nodes(ctx.get_admin_context(), self.ring,
                                     self.host, unowned_only=not full)
            if full:
                self._last_full_pass = time.monotonic()
            if lost:
                # A conductor just died or left: its allocations need a
                # new home now, not at the next periodic check.
                self.check_allocations()
        except Exception:
            LOG.exception('Hash ring check failed')

    def check_allocations(self):
        """Take over allocations left `allocating` by dead conductors, and
        start those of ours whose start request (a cast) was lost."""
        try:
            allocations.take_over_orphans(
                self.allocation_runner, self.host,
                takeover.dead_conductors(self.db))
            allocations.resume_stray(self.allocation_runner, self.host,
                                     allocations.STRAY_AGE)
        except Exception:
            LOG.exception('Allocation take-over check failed')

    def check_agent_heartbeats(self):
        """Act on nodes of ours whose agent went silent."""
        try:
            rows = takeover.owned_node_rows(
                self.ring, self.host, self.db,
                provision_states=agent_timeouts.WAITING_STATES)
            agent_timeouts.check_nodes(ctx.get_admin_context(), rows)
        except Exception:
            LOG.exception('Agent heartbeat check failed')

    def poll_steps(self):
        """Poll the steps of our nodes that go on outside the conductor
        (conductor/step_polling.py)."""
        if fencing.is_fenced():
            return
        try:
            rows = takeover.owned_node_rows(
                self.ring, self.host, self.db,
                provision_states=step_polling.POLLED_STATES)
            step_polling.check_nodes(ctx.get_admin_context(), rows,
                                     self.executor)
        except Exception:
            LOG.exception('Polling the nodes\' steps failed')

    def check_orphaned_work(self):
        """Carry on with or end work nobody holds a lock for."""
        if fencing.is_fenced():
            return
        try:
            watchdog.check_nodes(ctx.get_admin_context(), self.ring,
                                 self.host, self.db)
        except Exception:
            LOG.exception('Orphaned work check failed')

    def sync_power_states(self):
        context = ctx.get_admin_context()
        try:
            rows = takeover.owned_node_rows(self.ring, self.host, self.db)
            # The boot-session status operator reads these nodes' power
            # already, and a session's power changes are expected ones.
            driven = self.db.boot_driven_node_ids()
        except Exception:
            LOG.exception('Power sync could not list nodes')
            return
        try:
            # A BMC restarting for a polled step (its own firmware, a
            # self test) answers nothing for minutes: not a power
            # failure (Ironic's sync leaves nodes in these waits alone).
            polled = set(step_polling.candidates(self.db, rows))
        except Exception:
            LOG.exception('Power sync could not list polled nodes')
            return
        for row in rows:
            if row[5] or row[6] or row[0] in driven or row[0] in polled:
                continue  # reserved, in maintenance, in a boot session,
                #           or waiting for a polled step
            try:
                power.sync_node_power_state(context, row[0])
            except Exception as e:
                LOG.warning('Power sync of node %s failed: %s', row[1], e)
        self._recover_power_failures(context)

    def _recover_power_failures(self, context):
        """Nodes a power failure put in maintenance come out of it when
        their BMC answers again (only those: one indexed query)."""
        try:
            rows = takeover.owned_node_rows(
                self.ring, self.host, self.db,
                extra_filters={'fault': node_flags.POWER_FAILURE,
                               'maintenance': True})
        except Exception:
            LOG.exception('Power failure recovery could not list nodes')
            return
        for row in rows:
            if row[5]:
                continue  # reserved: next time
            try:
                power.recover_power_failure(context, row[0])
            except exception.NodeLocked:
                continue
            except Exception as e:
                LOG.warning('Power failure recovery of node %s failed: %s',
                            row[1], e)
