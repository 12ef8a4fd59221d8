"""CPU seconds per process over a phase of a benchmark.

Every figure of the benchmarks comes with the CPU time each process spent
during it (user + system, from /proc/<pid>/stat, children included for
the API's worker processes), so a regression shows where it lives: the
API, a conductor, the database server, the broker or the benchmark's own
client.
"""

import os

_CLOCK_TICKS = os.sysconf('SC_CLK_TCK') if hasattr(os, 'sysconf') else 100
# Servers the benchmarks share the machine with, by command name.
SERVERS = {'mariadbd': 'mariadb', 'mysqld': 'mariadb',
           'postgres': 'postgresql', 'beam.smp': 'rabbitmq',
           'redis-server': 'redis'}


def _children(pid):
    try:
        with open('/proc/%d/task/%d/children' % (pid, pid)) as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def _ticks(pid, descendants=True):
    """utime + stime of ``pid`` (and of its live descendants)."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            fields = f.read().rsplit(')', 1)[1].split()
    except OSError:
        return 0
    own = int(fields[11]) + int(fields[12])
    if not descendants:
        return own
    return own + sum(_ticks(child) for child in _children(pid))


def _servers():
    """{label: [pids]} of the shared servers running on this machine."""
    found = {}
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open('/proc/%s/comm' % entry) as f:
                name = f.read().strip()
        except OSError:
            continue
        label = SERVERS.get(name)
        if label:
            found.setdefault(label, []).append(int(entry))
    return found


class CpuMeter(object):
    """Take a reading before and after a phase; ``seconds()`` is
    {process label: CPU seconds spent in between}."""

    def __init__(self, processes):
        """:param processes: {label: pid} of the service's processes."""
        self.pids = {label: [pid] for label, pid in processes.items()}
        self.pids.update(_servers())
        self._start = None
        self._end = None

    def _read(self):
        found = {label: sum(_ticks(pid) for pid in pids)
                 for label, pids in self.pids.items()}
        # The benchmark alone: the services are its children.
        found['benchmark client'] = _ticks(os.getpid(), descendants=False)
        return found

    def start(self):
        self._start = self._read()
        return self

    def stop(self):
        self._end = self._read()
        return self

    def seconds(self):
        return {label: (self._end[label] - self._start[label]) / _CLOCK_TICKS
                for label in self._start}


def format_seconds(seconds):
    """One line: 'api 1.2 s, c1 3.4 s, ...', busiest first."""
    return ', '.join('%s %.1f s' % (label, value) for label, value in
                     sorted(seconds.items(), key=lambda kv: -kv[1]))
