"""Test base classes and fixtures shared by unit tests.

Each test gets its own SQLite file copied from a template built once per
test process (create_all is too slow to run per test), its own config and
a fresh in-process (fake://) RPC transport.
"""

import atexit
import os
import shutil
import tempfile
import threading
import time

import fixtures
from oslo_config import fixture as config_fixture
from oslo_db.sqlalchemy import enginefacade
from oslo_messaging import conffixture
import testtools

from ironic_like.common import rpc
from ironic_like.conductor import fencing
from ironic_like.conf import CONF
from ironic_like.db import api as db_api
from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.db.sqlalchemy import flow_backend
from ironic_like.db.sqlalchemy import models

_TEMPLATE = None
_TEMPLATE_LOCK = threading.Lock()
# The real temporary directory, read at import: TestCase installs
# fixtures.NestedTempfile before the first database is made, and a template
# created under that per-test directory vanished when the first test of the
# process ended (every later test then failed in setUp).
_TEMPLATE_ROOT = tempfile.gettempdir()


def _template_db():
    global _TEMPLATE
    with _TEMPLATE_LOCK:
        if _TEMPLATE is None:
            tmp = tempfile.mkdtemp(prefix='ironic-like-tpl-',
                                   dir=_TEMPLATE_ROOT)
            atexit.register(shutil.rmtree, tmp, True)
            path = os.path.join(tmp, 'template.sqlite')
            import sqlalchemy as sa
            engine = sa.create_engine('sqlite:///%s' % path)
            models.Base.metadata.create_all(engine)
            # taskflow's tables, for the flows that persist progress.
            flow_backend.upgrade(engine)
            engine.dispose()
            _TEMPLATE = path
        return _TEMPLATE


class DatabaseFixture(fixtures.Fixture):
    """A private SQLite database with the schema, for one test."""

    def _setUp(self):
        tmp = self.useFixture(fixtures.TempDir()).path
        self.path = os.path.join(tmp, 'test.sqlite')
        shutil.copy(_template_db(), self.path)
        self.url = 'sqlite:///%s' % self.path
        context_manager = enginefacade.transaction_context()
        context_manager.configure(connection=self.url, sqlite_fk=True)
        self.useFixture(fixtures.MockPatchObject(
            sa_api, 'main_context_manager', context_manager))
        self.addCleanup(self._dispose, context_manager)
        self.useFixture(fixtures.MonkeyPatch(
            'ironic_like.db.api._IMPL', None))
        # The flows' persistence backend is bound to the engine.
        flow_backend.reset()
        self.addCleanup(flow_backend.reset)

    @staticmethod
    def _dispose(context_manager):
        try:
            context_manager.writer.get_engine().dispose()
        except Exception:
            pass


class RPCFixture(fixtures.Fixture):
    """In-process RPC over oslo.messaging's fake:// driver."""

    def _setUp(self):
        rpc.cleanup()
        messaging_conf = self.useFixture(conffixture.ConfFixture(CONF))
        messaging_conf.transport_url = rpc.EMBEDDED_TRANSPORT_URL
        self.addCleanup(rpc.cleanup)


class TestCase(testtools.TestCase):
    """Config + database + RPC for every test."""

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.Timeout(60, gentle=True))
        self.config_fixture = self.useFixture(config_fixture.Config(CONF))
        self.config(host='test-conductor')
        self.config(heartbeat_interval=1, group='conductor')
        # A conductor started by a test runs no boot-session operators
        # (ten threads polling the database at start) unless the test
        # asks for them.
        self.config(operators_enabled=False, group='boot')
        # The tests' agents call back over plain http, as the lab's do
        # (tests of the TLS rule turn it on).
        self.config(require_tls=False, group='agent')
        self.useFixture(fixtures.NestedTempfile())
        self.db_fixture = self.useFixture(DatabaseFixture())
        self.useFixture(RPCFixture())
        self.db = db_api.get_instance()
        # Fencing follows the heartbeats of a conductor service a test
        # may start; no other test inherits its clock.
        fencing.forget()
        self.addCleanup(fencing.forget)

    def config(self, **kw):
        self.config_fixture.config(**kw)


class ConductorFixture(fixtures.Fixture):
    """A real ConductorService running in this process over fake://."""

    def __init__(self, host='test-conductor'):
        super().__init__()
        self.host = host

    def _setUp(self):
        from ironic_like.conductor import service
        self.service = service.ConductorService(host=self.host)
        self.service.start()
        self.addCleanup(self.service.stop)


class SlowFakeActions(fixtures.Fixture):
    """The fake interfaces' power and deploy actions take ``seconds``, so a
    test can observe the intermediate states (target_power_state,
    deploying, the held lock) while the work goes on."""

    _ACTIONS = {'FakePower': ('set_power_state', 'reboot'),
                'FakeDeploy': ('deploy', 'tear_down', 'clean')}

    def __init__(self, seconds):
        super().__init__()
        self.seconds = seconds

    def _setUp(self):
        from ironic_like.drivers.modules import fake
        for class_name, methods in self._ACTIONS.items():
            cls = getattr(fake, class_name)
            for method in methods:
                self.useFixture(fixtures.MonkeyPatch(
                    '%s.%s.%s' % (fake.__name__, class_name, method),
                    self._slowed(getattr(cls, method))))

    def _slowed(self, action):
        seconds = self.seconds

        def slow(*args, **kwargs):
            time.sleep(seconds)
            return action(*args, **kwargs)
        return slow
