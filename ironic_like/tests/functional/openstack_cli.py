"""The ``openstack`` CLI for the functional tests, run by
openstack_cli_server.py in one interpreter of the CLI's virtualenv.

``run`` answers as ``subprocess.run`` would for the ``openstack``
executable (a CompletedProcess with the exit code and both outputs), and
raises subprocess.TimeoutExpired past its bound, after which the server
is stopped and the next command starts a new one.
"""

import json
import os
import select
import signal
import subprocess
import tempfile
import time

SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      'openstack_cli_server.py')
# Bound of the server's exit once its stdin is closed.
STOP_TIMEOUT = 10


class OpenStackCLI(object):
    """One server process, started at the first command; ``stop`` it
    (a test's cleanup)."""

    def __init__(self, python):
        self.python = python
        self.proc = None
        self.log = None

    def _start(self):
        self.log = tempfile.TemporaryFile(mode='w+')
        self.proc = subprocess.Popen(
            [self.python, SERVER], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self.log, text=True,
            start_new_session=True)

    def stop(self, kill=False):
        """End the server: at once with ``kill`` (it is stuck in a
        command), else once it has read the end of its input."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if kill:
                raise OSError('killed')
            proc.stdin.close()
            proc.wait(STOP_TIMEOUT)
        except (OSError, subprocess.TimeoutExpired):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait(STOP_TIMEOUT)
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self.log.close()

    def _server_output(self):
        self.log.seek(0)
        return self.log.read()[-2000:]

    def run(self, argv, env, cwd, timeout):
        if self.proc is None:
            self._start()
        request = {'argv': list(argv), 'env': dict(env), 'cwd': cwd}
        try:
            self.proc.stdin.write(json.dumps(request) + '\n')
            self.proc.stdin.flush()
        except OSError as e:
            output = self._server_output()
            self.stop(kill=True)
            raise RuntimeError('the openstack CLI server is gone (%s): %s'
                               % (e, output))
        deadline = time.monotonic() + timeout
        ready = []
        while not ready:
            left = deadline - time.monotonic()
            if left <= 0:
                output = self._server_output()
                self.stop(kill=True)
                raise subprocess.TimeoutExpired(argv, timeout,
                                                output=output)
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
        line = self.proc.stdout.readline()
        try:
            reply = json.loads(line)
        except ValueError:
            # Nothing (it ended) or half a reply (it died writing it).
            output = self._server_output()
            self.stop(kill=True)
            raise RuntimeError('the openstack CLI server ended: %s' % output)
        return subprocess.CompletedProcess(['openstack'] + list(argv),
                                           reply['code'], reply['out'],
                                           reply['err'])
