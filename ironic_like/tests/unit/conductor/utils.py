"""A conductor running in the test process, and an RPC client for it."""

import threading

import fixtures

from ironic_like.common import context as ctx
from ironic_like.conductor import rpcapi
from ironic_like.conductor import service
from ironic_like.tests import base


class RunningConductor(fixtures.Fixture):
    """Like base.ConductorFixture, but returns only once the conductor's
    first ring check (which runs at start, in the periodic thread) is over,
    so that it cannot race with what the test does next."""

    def __init__(self, host='test-conductor'):
        super().__init__()
        self.host = host

    def _setUp(self):
        self.service = service.ConductorService(host=self.host)
        self.first_check = threading.Event()
        real = self.service.check_ring

        def check_ring():
            try:
                real()
            finally:
                self.first_check.set()

        # start() binds the periodic tasks to the instance attribute.
        self.service.check_ring = check_ring
        self.service.start()
        self.addCleanup(self.service.stop)
        if not self.first_check.wait(10):
            raise RuntimeError('the first ring check did not run')


class ConductorTestCase(base.TestCase):
    """A running conductor plus a ConductorAPI client talking to it over
    fake://. Periodic work other than the first ring check is pushed far
    into the future so it cannot take node locks under the test."""

    def setUp(self):
        super().setUp()
        self.config(takeover_check_interval=3600,
                    check_polled_steps_interval=3600,
                    sync_power_state_interval=0,
                    node_locked_retry_interval=0.05,
                    group='conductor')
        # Options another engineer adds; ignore them where they are absent.
        for name in ('check_allocations_interval',):
            try:
                self.config(**{name: 0, 'group': 'conductor'})
            except Exception:
                pass
        self.conductor = self.useFixture(RunningConductor())
        self.service = self.conductor.service
        self.context = ctx.get_admin_context()
        self.api = rpcapi.ConductorAPI()
