"""py-spy (from PyPI) records the service's processes during a phase of
a benchmark (``--profile DIR``): ``<DIR>/<process>.txt``, folded stacks
(flamegraph input, or ``sort -t' ' -k2 -n`` for the heaviest)."""

import os
import shutil
import subprocess
import sys


def start(processes, directory, gil=False, idle=False):
    """One recorder per process of ``processes`` (objects with ``name``
    and ``pid``); with ``gil``, only the threads holding the GIL; with
    ``idle``, threads waiting too (where the wall time goes: a thread
    that waits on the database or a lock shows in its stack)."""
    spy = shutil.which('py-spy') or os.path.join(
        os.path.dirname(sys.executable), 'py-spy')
    if not os.path.exists(spy):
        sys.exit('--profile needs py-spy: pip install py-spy')
    os.makedirs(directory, exist_ok=True)
    return [subprocess.Popen(
        [spy, 'record', '--pid', str(proc.pid), '--format', 'raw',
         '--rate', '200', '--subprocesses', '--nonblocking'] +
        (['--gil'] if gil else []) +
        (['--idle', '--threads'] if idle else []) + [
         '--output', os.path.join(directory, '%s.txt' % proc.name)],
        stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(directory, '%s.err' % proc.name), 'wb'))
        for proc in processes]


def stop(profilers):
    """Stop the recorders (they write their files on SIGINT), bounded."""
    for spy in profilers:
        spy.send_signal(2)
    for spy in profilers:
        try:
            spy.wait(timeout=30)
        except subprocess.TimeoutExpired:
            spy.kill()
