"""ironic-like-api with several worker processes on one port."""

import concurrent.futures
import signal

from ironic_like.tests.functional import base

REQUESTS = 50


def _io_bytes(pid):
    """Bytes this process read and wrote through system calls."""
    values = {}
    with open('/proc/%d/io' % pid) as f:
        for line in f:
            key, value = line.split(':')
            values[key] = int(value)
    return values['rchar'] + values['wchar']


class TestAPIWorkers(base.FunctionalTestCase):

    def test_two_workers_serve_and_sigterm_stops_all(self):
        cluster = self.start_cluster(conductors=0, api_workers=2)
        parent = cluster.api.pid
        workers = [p for p in base.child_pids(parent) if base.pid_alive(p)]
        self.assertEqual(2, len(workers), 'children of the API: %s'
                         % workers)

        # Each worker has a socket of its own listening on the port.
        listening = base.listening_inodes(cluster.api_port)
        for pid in workers:
            self.assertTrue(base.socket_inodes(pid) & listening,
                            'worker %d does not listen on port %d'
                            % (pid, cluster.api_port))
        self.assertFalse(base.socket_inodes(parent) & listening,
                         'the parent itself listens; it should only '
                         'supervise')

        # 50 requests on fresh connections: all succeed, and the kernel
        # spreads them over both workers (each did I/O).
        before = {pid: _io_bytes(pid) for pid in workers}

        def get(_):
            return cluster.request('GET', '/v1/nodes').status_code
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(get, range(REQUESTS)))
        self.assertEqual([200] * REQUESTS, statuses)
        for pid in workers:
            self.assertGreater(_io_bytes(pid), before[pid],
                               'worker %d served none of %d requests'
                               % (pid, REQUESTS))

        # SIGTERM on the parent stops every worker, then the parent.
        cluster.api.send(signal.SIGTERM)
        code = cluster.api.wait(base.STOP_TIMEOUT)
        self.assertIsNotNone(code, 'the API did not exit within %s s of '
                             'SIGTERM' % base.STOP_TIMEOUT)
        self.assertEqual(0, code)
        self.assertEventually(
            lambda: not any(base.pid_alive(p) for p in workers), 5,
            message=lambda: 'workers still alive: %s' % [
                p for p in workers if base.pid_alive(p)])
