"""What every new database connection of the service is set up with,
registered once for all engines (the service's, its workers', taskflow's):
SQLite's pragmas, and on MariaDB/PostgreSQL a bound on the time a
connection may sit idle inside a transaction.
"""

from oslo_log import log
import sqlalchemy as sa
from sqlalchemy import event

from ironic_like.conf import CONF

LOG = log.getLogger(__name__)


# SQLite files this process has switched to WAL. The journal mode is kept
# in the file, so once is enough; oslo.db opens a new connection for every
# transaction on SQLite (NullPool), and the switch takes the database's
# lock, which made each connection wait for the writer of the moment.
_WAL_FILES = set()


@event.listens_for(sa.engine.Engine, 'connect')
def _sqlite_pragmas(dbapi_connection, connection_record):
    # WAL lets the embedded service read while a conductor thread writes;
    # busy_timeout makes writers queue instead of failing at once.
    if type(dbapi_connection).__module__.startswith('sqlite3'):
        cursor = dbapi_connection.cursor()
        # busy_timeout first: switching to WAL itself needs the lock.
        cursor.execute('PRAGMA busy_timeout=30000')
        path = _database_file(cursor)
        if path is None or path not in _WAL_FILES:
            mode = cursor.execute('PRAGMA journal_mode=WAL').fetchone()
            if path and mode and str(mode[0]).lower() == 'wal':
                _WAL_FILES.add(path)
        cursor.close()


def _database_file(cursor):
    """The file of the main database of a SQLite connection, or None
    (in memory)."""
    for _seq, name, path in cursor.execute('PRAGMA database_list'):
        if name == 'main':
            return path or None
    return None


def _session_idle_limit(dbapi_connection):
    """The SQL that bounds this connection's idle time inside a
    transaction, or None (SQLite, option 0)."""
    seconds = CONF.database.idle_transaction_timeout
    if not seconds:
        return None
    driver = type(dbapi_connection).__module__
    if driver.startswith('pymysql'):
        return 'SET SESSION idle_transaction_timeout = %d' % seconds
    if driver.startswith('psycopg2'):
        return ('SET SESSION idle_in_transaction_session_timeout = %d'
                % (seconds * 1000))
    return None


_IDLE_LIMIT_UNSUPPORTED = []


@event.listens_for(sa.engine.Engine, 'connect')
def _bound_idle_transactions(dbapi_connection, connection_record):
    # A stalled process must not hold row locks for ever: the server ends
    # its transaction (see [database]idle_transaction_timeout).
    statement = _session_idle_limit(dbapi_connection)
    if statement is None or _IDLE_LIMIT_UNSUPPORTED:
        return
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(statement)
    except Exception as e:
        # MySQL (not MariaDB) has no such variable: say so once, go on.
        _IDLE_LIMIT_UNSUPPORTED.append(True)
        LOG.warning('The database does not bound idle transactions (%s); '
                    'a stalled process may hold row locks until it wakes '
                    'up.', e)
    finally:
        cursor.close()
    # psycopg2 opened a transaction for the SET (and a failed SET must not
    # leave one open): the pool gets the connection outside any.
    if _IDLE_LIMIT_UNSUPPORTED:
        dbapi_connection.rollback()
    else:
        dbapi_connection.commit()
