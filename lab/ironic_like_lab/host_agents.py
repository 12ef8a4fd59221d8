"""The host agents of the simulated machines whose instance runs.

A deployed machine runs the real host agent (:mod:`ironic_like_hostagent`)
against the service, with a root directory of its own standing for its
filesystem (``<state dir>/<machine>.root``), so playbooks really run and
their files can be checked. The agent is not a thread per machine: each
pass (heartbeat, run what is due, report) is a task on a small pool,
and the simulator's timer schedules the next one. An Ansible run takes
about 2 s of CPU, so the pool is what bounds the load, whatever the
number of machines.
"""

import logging
import os
import shutil
import sys
import threading
from concurrent import futures

try:
    from ironic_like_hostagent import agent as host_agent
except ImportError:  # the lab installed without the service
    host_agent = None

LOG = logging.getLogger(__name__)

DEFAULT_WORKERS = 4


def default_ansible_playbook():
    """``ansible-playbook`` of this environment (next to the Python
    running the lab), or None: then the item's own binary is used."""
    path = os.path.join(os.path.dirname(sys.executable), 'ansible-playbook')
    return path if os.access(path, os.X_OK) else None


def wipe(root):
    """The machine's filesystem is gone (disk erased or rewritten)."""
    shutil.rmtree(root, ignore_errors=True)


class _Run(object):
    """One machine's host agent between its start and its stop."""

    def __init__(self, machine_id, agent):
        self.machine_id = machine_id
        self.agent = agent
        self.stop = agent.stop_event
        self.timer = None


class HostAgents(object):
    """Starts, paces and stops the host agents of one simulator."""

    def __init__(self, scheduler, workers=DEFAULT_WORKERS,
                 ansible_playbook=None):
        self.scheduler = scheduler
        self.workers = max(1, int(workers))
        self.ansible_playbook = (ansible_playbook
                                 or default_ansible_playbook())
        self.lock = threading.Lock()
        self._runs = {}
        self._pool = None
        # The last agent of each machine, kept after its stop so that the
        # machine's detail still shows what it did.
        self._last = {}

    def start(self, machine_id, api_url, node_uuid, root,
              interval_override=None):
        """(Re)start the host agent of a machine; its first pass now."""
        if host_agent is None:
            LOG.warning('No host agent for %s: ironic_like_hostagent (part '
                        'of ironic_like) is not installed', machine_id)
            return None
        agent = host_agent.HostAgent(
            api_url, node_uuid, root=root,
            ansible_playbook=self.ansible_playbook)
        agent.interval_override = interval_override
        run = _Run(machine_id, agent)
        with self.lock:
            self._stop_locked(machine_id)
            self._runs[machine_id] = run
            self._last[machine_id] = agent
            if self._pool is None:
                self._pool = futures.ThreadPoolExecutor(
                    max_workers=self.workers,
                    thread_name_prefix='host-agent')
        LOG.info('Host agent of %s started for node %s', machine_id,
                 node_uuid)
        self._submit(run)
        return agent

    def stop(self, machine_id):
        with self.lock:
            self._stop_locked(machine_id)

    def stop_all(self):
        with self.lock:
            for machine_id in list(self._runs):
                self._stop_locked(machine_id)

    def running(self, machine_id):
        with self.lock:
            return machine_id in self._runs

    def detail(self, machine_id):
        """Counters of the machine's host agent (the last one when it is
        stopped), or None if it never ran one."""
        with self.lock:
            agent = self._last.get(machine_id)
            running = machine_id in self._runs
        if agent is None:
            return None
        doc = agent.counters()
        doc.update({'running': running, 'node_uuid': agent.node_uuid,
                    'held': sorted(agent.state.items)})
        return doc

    # ------------------------------------------------------------ inner
    def _stop_locked(self, machine_id):
        run = self._runs.pop(machine_id, None)
        if run is None:
            return
        run.stop.set()
        if run.timer is not None:
            run.timer.cancel()
        LOG.info('Host agent of %s stopped', machine_id)
        if not self._runs and self._pool is not None:
            # No machine left: let the workers go (a pass under way ends
            # on its own; a new start makes a new pool).
            self._pool.shutdown(wait=False)
            self._pool = None

    def _submit(self, run):
        """From the timer: hand the pass over to our pool, so a long
        Ansible run never holds the simulator's I/O workers."""
        with self.lock:
            if run.stop.is_set() or self._pool is None:
                return
            try:
                self._pool.submit(self._pass, run)
            except RuntimeError:
                pass  # shut down meanwhile

    def _pass(self, run):
        if run.stop.is_set():
            return
        try:
            run.agent.run_once()
        except Exception:
            LOG.exception('Host agent pass of %s failed', run.machine_id)
        with self.lock:
            if run.stop.is_set() or self._runs.get(run.machine_id) is not run:
                return
            run.timer = self.scheduler.call_later(run.agent.next_delay(),
                                                  self._submit, run)


_OWNER_LOCK = threading.Lock()


def of(sim):
    """The simulator's manager, made on first use: ``sim.host_agents``,
    with ``sim.host_agent_workers`` workers when the simulator sets it."""
    manager = getattr(sim, 'host_agents', None)
    if manager is None:
        with _OWNER_LOCK:
            manager = getattr(sim, 'host_agents', None)
            if manager is None:
                manager = sim.host_agents = HostAgents(
                    sim.scheduler, workers=getattr(
                        sim, 'host_agent_workers', DEFAULT_WORKERS))
    return manager
