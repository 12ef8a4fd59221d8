"""The embedded mode for the benchmarks: ``ironic-like-all`` (API and
conductor in one process, SQLite, in-process messaging), as a newcomer
runs it, with the same interface as the harness's Cluster (url,
processes, cleanUp) and Database (query, execute, insert_nodes...)."""

import os
import shutil
import tempfile

import requests
import sqlalchemy as sa
from sqlalchemy import pool as sa_pool

from ironic_like.tests.functional import base


class SQLiteDatabase(base.Database):
    """The embedded service's SQLite file, read and written directly."""

    def __init__(self, path):
        self.backend = 'sqlite'
        self.name = path
        self.url = 'sqlite:///%s' % path
        self._engine = None

    @property
    def engine(self):
        if self._engine is None:
            self._engine = sa.create_engine(
                self.url, poolclass=sa_pool.NullPool,
                connect_args={'timeout': 30})
        return self._engine

    def drop(self):
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None


class EmbeddedService(object):
    """ironic-like-all on a free port over a fresh SQLite file."""

    def __init__(self, conf=None):
        self.tmp = tempfile.mkdtemp(prefix='ironic-like-bench-all-')
        self.port = base.free_port()
        self.url = 'http://127.0.0.1:%d' % self.port
        sections = {
            'DEFAULT': {'host': 'bench-all', 'debug': 'false'},
            'api': {'host_ip': '127.0.0.1', 'port': self.port},
            'database': {'connection': 'sqlite:///%s' % os.path.join(
                self.tmp, 'ironic_like.sqlite')},
            # The simulated agents serve plain http.
            'agent': {'require_tls': 'false'},
        }
        for section, values in (conf or {}).items():
            sections.setdefault(section, {}).update(values)
        config = base.write_config(os.path.join(self.tmp, 'all.conf'),
                                   sections)
        self.proc = base.ServiceProcess(
            'ironic-like-all',
            base.console_script('ironic-like-all') + ['--config-file',
                                                      config], self.tmp)
        self.processes = [self.proc]
        self.conductors = {}
        self.database = SQLiteDatabase(os.path.join(self.tmp,
                                                    'ironic_like.sqlite'))

    def setUp(self):
        self.proc.setUp()

        def answers():
            self.proc.check_running()
            try:
                return requests.get(self.url + '/', timeout=5).ok
            except requests.ConnectionError:
                return False
        base.wait_for(answers, base.START_TIMEOUT, interval=0.25,
                      message='ironic-like-all did not answer')

    def cleanUp(self):
        try:
            self.proc.cleanUp()
        finally:
            self.database.drop()
            shutil.rmtree(self.tmp, ignore_errors=True)
