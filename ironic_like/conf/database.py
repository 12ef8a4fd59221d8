"""Options of the [database] group: oslo.db's, with our default."""

from oslo_config import cfg
from oslo_db import options as db_options

_DEFAULT_SQL_CONNECTION = 'sqlite:///ironic_like.sqlite'

opts = [
    cfg.IntOpt('worker_max_pool_size', default=10, min=1,
               help='Connections a conductor\'s worker threads (flows, '
                    'power changes) keep open, in a pool of their own so '
                    'that background work never makes RPC handlers wait '
                    'for a connection. MariaDB and PostgreSQL only (SQLite '
                    'uses one pool).'),
    cfg.IntOpt('worker_max_overflow', default=5, min=0,
               help='Connections the workers\' pool may open beyond '
                    'worker_max_pool_size at busy times.'),
    cfg.IntOpt('idle_transaction_timeout', default=20, min=0,
               help='Seconds a connection of this process may stay idle '
                    'inside an open transaction before the database server '
                    'ends the transaction and closes the connection '
                    '(MariaDB idle_transaction_timeout, PostgreSQL '
                    'idle_in_transaction_session_timeout). A conductor '
                    'that stalls mid-transaction (SIGSTOP, a starved CPU) '
                    'otherwise keeps its row locks, and the conductor that '
                    'takes its nodes over cannot write them until it '
                    'wakes up; when it does, its commit fails and its '
                    'fenced retry finds the lock gone. Keep it below '
                    '[conductor]heartbeat_timeout. 0 leaves the server\'s '
                    'setting (MySQL has no such setting: ignored there).'),
    cfg.StrOpt('version_table', default='ironic_like_alembic_version',
               help='Table in which alembic records the schema version. '
                    'Not alembic_version: taskflow\'s persistence backend '
                    'uses that name in the same database.'),
]


# A conductor runs RPC handlers, worker pools and periodic tasks at once;
# with oslo.db's default pool of 5, every connection beyond it was opened
# and closed per transaction (a TCP handshake and a TLS context each time),
# which dominated the cost of small requests under load. The ceiling
# (pool + overflow) stays at 30 per process, plus 15 for a conductor's
# workers (worker_max_*): a cluster of two conductors and an API at 90
# each went past MariaDB's default max_connections (151) while 200 nodes
# were cleaned at once ("Too many connections"); above the ceiling a
# thread waits (pool_timeout) for a connection instead.
_DEFAULT_MAX_POOL_SIZE = 20
_DEFAULT_MAX_OVERFLOW = 10


def register_opts(conf):
    db_options.set_defaults(conf, connection=_DEFAULT_SQL_CONNECTION,
                            max_pool_size=_DEFAULT_MAX_POOL_SIZE,
                            max_overflow=_DEFAULT_MAX_OVERFLOW)
    conf.register_opts(opts, group='database')
