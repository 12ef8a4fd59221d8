"""A process that stalls inside a transaction (SIGSTOP, a starved CPU)
does not keep its row locks: the database server ends its transaction
after [database]idle_transaction_timeout, and another conductor's write to
the row goes through. On MariaDB and PostgreSQL."""

import threading
import time

from oslo_config import fixture as config_fixture
import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from ironic_like.conf import CONF
from ironic_like.db.sqlalchemy import connection_setup  # noqa: F401
from ironic_like.tests.functional import base

IDLE_TIMEOUT = 2
# Far below the servers' lock wait (MariaDB 50 s) and far above the idle
# timeout: the blocked write must get through once the idle one is ended.
WRITE_BOUND = 30


class _StalledTransaction(object):

    SERVICES = ()

    def test_stalled_transaction_releases_its_row_locks(self):
        conf = self.useFixture(config_fixture.Config(CONF))
        conf.config(idle_transaction_timeout=IDLE_TIMEOUT, group='database')
        database = self.class_database()
        engine = sa.create_engine(database.url)
        self.addCleanup(engine.dispose)
        node, = database.insert_nodes(1, prefix='stall')

        stalled = engine.connect()
        self.addCleanup(stalled.close)
        stalled.begin()
        stalled.execute(sa.text(
            "UPDATE nodes SET reservation = 'stalled' WHERE uuid = :u"),
            {'u': node})
        # ... and the process stops here, its transaction open.

        result = {}

        def write():
            started = time.monotonic()
            with engine.begin() as conn:
                result['rows'] = conn.execute(sa.text(
                    "UPDATE nodes SET reservation = 'survivor' "
                    "WHERE uuid = :u"), {'u': node}).rowcount
            result['took'] = time.monotonic() - started

        writer = threading.Thread(target=write)
        writer.start()
        writer.join(WRITE_BOUND)
        self.assertFalse(writer.is_alive(), 'the write is still blocked')
        self.assertEqual(1, result.get('rows'), result)
        self.assertEqual([('survivor',)], database.query(
            'SELECT reservation FROM nodes WHERE uuid = :u', u=node))
        # The stalled process, woken up, cannot commit what it wrote.
        self.assertRaises(sa_exc.DBAPIError, stalled.commit)


class TestStalledTransactionMySQL(_StalledTransaction,
                                  base.FunctionalTestCase):
    BACKEND = base.MYSQL


class TestStalledTransactionPostgreSQL(_StalledTransaction,
                                       base.FunctionalTestCase):
    BACKEND = base.POSTGRESQL
