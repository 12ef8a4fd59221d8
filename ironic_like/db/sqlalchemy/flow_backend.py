"""taskflow's SQLAlchemy persistence backend on the service's database.

Node flows keep their progress in taskflow's tables (logbooks,
flowdetails, atomdetails) in our own database, so another conductor can
resume a flow a dead one was running. This module owns the backend and
the tables; what a flow records and how it resumes is the conductor's
(conductor/flows/persistence.py).
"""

import contextlib
import threading

from taskflow.persistence.backends import impl_sqlalchemy

from ironic_like.db.sqlalchemy import api as sa_api

_BACKEND = None
_BACKEND_LOCK = threading.Lock()


class _Backend(impl_sqlalchemy.SQLAlchemyBackend):
    """taskflow's SQLAlchemy backend, with one connection object.

    The stock get_connection() builds a new MetaData with all of
    taskflow's tables for every storage access (each atom state change):
    with 200 flows running that took most of a conductor's CPU. Its
    connection object holds only the engine and the table definitions
    (every operation takes its own transaction from the engine, and
    close() does nothing), so one can serve every thread.
    """

    def __init__(self, conf, engine=None):
        super().__init__(conf, engine=engine)
        self._shared = None
        self._shared_lock = threading.Lock()

    def get_connection(self):
        if self._shared is None:
            with self._shared_lock:
                if self._shared is None:
                    self._shared = super().get_connection()
        return self._shared


def _make_backend(engine):
    if engine.dialect.name == 'sqlite':
        # taskflow reads then writes in one transaction; on SQLite a
        # deferred one then fails with "database is locked" when another
        # thread wrote meanwhile (and taskflow retries seconds later).
        engine = engine.execution_options(**{sa_api.IMMEDIATE_OPTION: True})
    return _Backend({}, engine=engine)


def backend(engine=None):
    """The persistence backend on ``engine`` (default: the one on the
    conductor workers' pool, where flows run)."""
    global _BACKEND
    if engine is not None:
        return _make_backend(engine)
    with _BACKEND_LOCK:
        if _BACKEND is None:
            _BACKEND = _make_backend(sa_api.get_worker_engine())
        return _BACKEND


def reset():
    """Forget the cached backend (tests switch databases)."""
    global _BACKEND
    with _BACKEND_LOCK:
        _BACKEND = None


def upgrade(engine=None):
    """Create or upgrade taskflow's tables (dbsync calls this). On MariaDB
    and PostgreSQL taskflow runs its own alembic migrations, tracked in
    alembic_version: ours use another version table for that reason."""
    with contextlib.closing(backend(engine).get_connection()) as conn:
        conn.upgrade()
