"""A threaded WSGI server with several worker processes on one port.

Each worker is a forked process running cheroot with SO_REUSEPORT, so the
kernel spreads connections over the workers and one busy or stuck worker
does not stop the others (Ironic's own server cannot bind a second worker).
The parent only supervises: it restarts a worker that dies and passes
SIGTERM on.
"""

import os
import signal
import threading
import time

from cheroot import wsgi
from oslo_log import log

LOG = log.getLogger(__name__)

# A worker that dies sooner than this after its start is not restarted in
# a tight loop: the parent waits this long first.
_MIN_WORKER_LIFETIME = 2.0


def make_server(app_factory, host, port, threads):
    return wsgi.Server((host, port), app_factory(), numthreads=threads,
                       server_name='ironic-like-api', reuse_port=True,
                       timeout=30, request_queue_size=128)


def serve_one(app_factory, host, port, threads):
    """Serve in this process until SIGTERM/SIGINT."""
    server = make_server(app_factory, host, port, threads)
    stopper = []

    def _stop(signum, frame):
        # cheroot's stop() waits until its serve loop has left the
        # selector; the handler runs in the thread of that loop, so calling
        # stop() here would wait forever. Stop from another thread.
        if not stopper:
            stopper.append(threading.Thread(target=server.stop,
                                            name='api-stop', daemon=True))
            stopper[0].start()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    LOG.info('API worker %d serving on %s:%s', os.getpid(), host, port)
    try:
        server.start()
    finally:
        if stopper:
            stopper[0].join(timeout=30)
        server.stop()


class Supervisor(object):
    """Forks ``workers`` processes that each call serve_one()."""

    def __init__(self, app_factory, host, port, workers, threads):
        self.args = (app_factory, host, port, threads)
        self.workers = workers
        self.children = {}
        self.stopping = False

    def _spawn(self):
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                serve_one(*self.args)
            except Exception:
                LOG.exception('API worker failed')
                code = 1
            finally:
                os._exit(code)
        self.children[pid] = time.monotonic()
        return pid

    def _signal_children(self, signum):
        for pid in list(self.children):
            try:
                os.kill(pid, signum)
            except ProcessLookupError:
                self.children.pop(pid, None)

    def run(self):
        def _stop(signum, frame):
            self.stopping = True
            self._signal_children(signal.SIGTERM)

        signal.signal(signal.SIGTERM, _stop)
        signal.signal(signal.SIGINT, _stop)
        for _ in range(self.workers):
            self._spawn()
        LOG.info('API started %d workers on %s:%s', self.workers,
                 self.args[1], self.args[2])
        while self.children:
            try:
                pid, status = os.wait()
            except ChildProcessError:
                break
            except InterruptedError:
                continue
            started = self.children.pop(pid, None)
            if self.stopping or started is None:
                continue
            LOG.error('API worker %d exited (status %s); starting another',
                      pid, status)
            lived = time.monotonic() - started
            if lived < _MIN_WORKER_LIFETIME:
                time.sleep(_MIN_WORKER_LIFETIME - lived)
            self._spawn()
        LOG.info('API stopped')
