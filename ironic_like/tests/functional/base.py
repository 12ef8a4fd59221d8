"""Harness of the functional tests: real services, real processes.

The tests here run the console scripts (``ironic-like-dbsync``,
``ironic-like-api``, ``ironic-like-conductor``, ``ironic-like-all``) as
separate processes against the RabbitMQ, MariaDB and PostgreSQL servers on
loopback:

* :class:`Database` creates a fresh database (``ironic_like_ft_<random>``)
  on MariaDB or PostgreSQL and drops it on clean-up.
* :class:`ServiceProcess` runs one console script with its own config file,
  its output in a log file, and always stops it (SIGTERM, then SIGKILL of
  its whole process group after a bound).
* :class:`Cluster` writes one config file per process and starts an API
  and N conductors on one database, with a private oslo.messaging
  ``control_exchange`` so that parallel runs never see each other's
  messages, then waits (bounded) until the API answers and the conductors
  have registered.
* :class:`FunctionalTestCase` attaches the logs of every process a test
  started to the test's details when it fails, and turns an unreachable
  service into a skip, or into a failure naming the service when the
  environment variable ``CI`` is ``true``.

Run them (sequentially; the whole suite takes a few minutes)::

    .venv/bin/python -m stestr --test-path ./ironic_like/tests/functional \
        --top-dir ./ run --concurrency 1 [REGEX]

or ``tox -e functional``. Parallel runs are safe too (private databases,
exchanges and ports), only slower on a small machine.

Environment variables (all optional):

``IRONIC_LIKE_FT_MYSQL_URL``
    Admin URL of MariaDB/MySQL (default ``mysql+pymysql://root@127.0.0.1``).
``IRONIC_LIKE_FT_PG_URL``
    Admin URL of PostgreSQL (default: ``postgresql+psycopg2://postgres@
    127.0.0.1`` then the same with user ``root``).
``IRONIC_LIKE_FT_TRANSPORT_URL``
    oslo.messaging transport URL (default
    ``rabbit://guest:guest@127.0.0.1:5672/``).
``IRONIC_LIKE_FT_KEEP``
    When set, temporary directories (configs and logs) are kept.
"""

import atexit
import configparser
import functools
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid

import fixtures
import requests
import sqlalchemy as sa
from sqlalchemy import pool as sa_pool
from testtools import content
import testtools
from tooz import hashring

from ironic_like.tests import utils as test_utils

CI = os.environ.get('CI') == 'true'

MYSQL_ADMIN_URL = os.environ.get('IRONIC_LIKE_FT_MYSQL_URL',
                                 'mysql+pymysql://root@127.0.0.1')
PG_ADMIN_URLS = ([os.environ['IRONIC_LIKE_FT_PG_URL']]
                 if os.environ.get('IRONIC_LIKE_FT_PG_URL') else
                 ['postgresql+psycopg2://postgres@127.0.0.1',
                  'postgresql+psycopg2://root@127.0.0.1'])
TRANSPORT_URL = os.environ.get('IRONIC_LIKE_FT_TRANSPORT_URL',
                               'rabbit://guest:guest@127.0.0.1:5672/')
KEEP_TEMP = bool(os.environ.get('IRONIC_LIKE_FT_KEEP'))

MYSQL = 'mysql'
POSTGRESQL = 'postgresql'
RABBITMQ = 'rabbitmq'
SERVICE_NAMES = {MYSQL: 'MariaDB/MySQL at %s' % MYSQL_ADMIN_URL,
                 POSTGRESQL: 'PostgreSQL at %s' % ' or '.join(PG_ADMIN_URLS),
                 RABBITMQ: 'RabbitMQ at %s' % TRANSPORT_URL}

# Timings written into every config: small, so that deaths and ring
# changes show within seconds.
HEARTBEAT_INTERVAL = 1
HEARTBEAT_TIMEOUT = 5
TAKEOVER_CHECK_INTERVAL = 1
SYNC_POWER_STATE_INTERVAL = 3
HASH_RING_RESET_INTERVAL = 2
RPC_NODE_CALL_TIMEOUT = 3
RPC_NODE_CALL_ATTEMPTS = 2
HASH_PARTITION_EXPONENT = 7

# Bounds of the waits of the harness.
START_TIMEOUT = 60
STOP_TIMEOUT = 20
HTTP_TIMEOUT = 30

_BIN_DIR = os.path.dirname(sys.executable)


def random_suffix():
    return uuid.uuid4().hex[:10]


def free_port():
    """A TCP port nobody listens on right now on 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


def console_script(name):
    """argv that runs console script ``name`` of this virtualenv."""
    path = os.path.join(_BIN_DIR, name)
    if os.path.exists(path):
        return [path]
    # Not installed as a script (e.g. a bare checkout on PYTHONPATH).
    module = {'ironic-like-api': 'api', 'ironic-like-conductor': 'conductor',
              'ironic-like-all': 'all', 'ironic-like-dbsync': 'dbsync'}[name]
    return [sys.executable, '-c',
            'import sys; from ironic_like.cmd.%s import main; '
            'sys.exit(main())' % module]


class ProcessDied(test_utils.StopWaiting):
    """A service process exited while the harness waited for it."""


# Call ``predicate`` until it returns a true value; return that value,
# bounded by ``timeout`` seconds. The services start and stop under the
# harness, so an error of the predicate (a refused connection, a process
# still starting) counts as "not yet"; ProcessDied ends the wait at once.
wait_for = functools.partial(test_utils.wait_for, interval=0.2,
                             retry_on=(Exception,))


# -- service availability ------------------------------------------------

_AVAILABILITY = {}
_AVAILABILITY_LOCK = threading.Lock()


def _check_mysql():
    engine = sa.create_engine(MYSQL_ADMIN_URL, poolclass=sa_pool.NullPool,
                              connect_args={'connect_timeout': 5})
    try:
        with engine.connect() as conn:
            conn.execute(sa.text('SELECT 1'))
    finally:
        engine.dispose()
    return MYSQL_ADMIN_URL


def _check_postgresql():
    errors = []
    for url in PG_ADMIN_URLS:
        engine = sa.create_engine(url + '/postgres',
                                  poolclass=sa_pool.NullPool,
                                  connect_args={'connect_timeout': 5})
        try:
            with engine.connect() as conn:
                conn.execute(sa.text('SELECT 1'))
            return url
        except Exception as e:
            errors.append('%s: %s' % (url, e))
        finally:
            engine.dispose()
    raise RuntimeError('; '.join(errors))


def _check_rabbitmq():
    import kombu
    url = TRANSPORT_URL.replace('rabbit://', 'amqp://', 1)
    with kombu.Connection(url, connect_timeout=5) as conn:
        conn.ensure_connection(max_retries=1, timeout=5)
    return TRANSPORT_URL


_CHECKS = {MYSQL: _check_mysql, POSTGRESQL: _check_postgresql,
           RABBITMQ: _check_rabbitmq}


def service_status(service):
    """(True, admin URL) or (False, reason); checked once per process."""
    with _AVAILABILITY_LOCK:
        if service not in _AVAILABILITY:
            try:
                _AVAILABILITY[service] = (True, _CHECKS[service]())
            except Exception as e:
                _AVAILABILITY[service] = (False, str(e).splitlines()[0]
                                          if str(e) else repr(e))
        return _AVAILABILITY[service]


def require_services(test, *services):
    """Skip ``test`` (or fail it when CI=true) unless all are reachable."""
    for service in services:
        ok, detail = service_status(service)
        if not ok:
            message = ('%s is not reachable: %s'
                       % (SERVICE_NAMES[service], detail))
            if CI:
                test.fail('CI=true and a service the functional tests need '
                          'is down: ' + message)
            test.skipTest(message)


# -- databases -----------------------------------------------------------

# Databases not dropped yet, dropped at exit if a clean-up was skipped.
_LIVE_DATABASES = {}


class Database(object):
    """A fresh database on MariaDB or PostgreSQL; ``drop()`` removes it."""

    def __init__(self, backend):
        self.backend = backend
        self.name = 'ironic_like_ft_%s' % random_suffix()
        ok, admin_url = service_status(backend)
        if not ok:
            raise RuntimeError('%s is not reachable: %s'
                               % (SERVICE_NAMES[backend], admin_url))
        self.admin_url = admin_url
        if backend == MYSQL:
            self.url = '%s/%s?charset=utf8mb4' % (admin_url, self.name)
            self._admin_db = admin_url + '/'
        else:
            self.url = '%s/%s' % (admin_url, self.name)
            self._admin_db = admin_url + '/postgres'
        self._engine = None
        self._admin('CREATE DATABASE %s' % self.name
                    + (' CHARACTER SET utf8mb4' if backend == MYSQL else ''))
        _LIVE_DATABASES[self.name] = self

    def _admin(self, statement):
        engine = sa.create_engine(self._admin_db, poolclass=sa_pool.NullPool,
                                  isolation_level='AUTOCOMMIT')
        try:
            with engine.connect() as conn:
                conn.execute(sa.text(statement))
        finally:
            engine.dispose()

    @property
    def engine(self):
        """An engine of the test's own (no pool: nothing held open)."""
        if self._engine is None:
            self._engine = sa.create_engine(self.url,
                                            poolclass=sa_pool.NullPool)
        return self._engine

    def drop(self):
        if self.name not in _LIVE_DATABASES:
            return
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None
        if self.backend == POSTGRESQL:
            self._admin('DROP DATABASE IF EXISTS %s WITH (FORCE)'
                        % self.name)
        else:
            self._admin('DROP DATABASE IF EXISTS %s' % self.name)
        _LIVE_DATABASES.pop(self.name, None)

    # Helpers to read and change the service's tables directly.

    def query(self, statement, **params):
        with self.engine.connect() as conn:
            return [tuple(row) for row in conn.execute(sa.text(statement),
                                                       params)]

    def execute(self, statement, **params):
        with self.engine.begin() as conn:
            return conn.execute(sa.text(statement), params).rowcount

    def empty_tables(self):
        """Delete every row of the service's tables (children first)."""
        from ironic_like.db.sqlalchemy import models
        existing = set(sa.inspect(self.engine).get_table_names())
        with self.engine.begin() as conn:
            for table in reversed(models.Base.metadata.sorted_tables):
                if table.name in existing:
                    conn.execute(table.delete())

    def insert_nodes(self, count, driver='fake-hardware', prefix='db-node'):
        """Enrol ``count`` nodes straight in the table; returns uuids."""
        import datetime
        now = (datetime.datetime.now(datetime.timezone.utc)
               .replace(tzinfo=None))
        rows = []
        for index in range(count):
            rows.append({
                'uuid': str(uuid.uuid4()),
                'name': '%s-%s-%03d' % (prefix, random_suffix()[:4], index),
                'driver': driver, 'conductor_group': '',
                'maintenance': False, 'provision_state': 'enroll',
                'power_state': 'power off', 'driver_info': '{}',
                'driver_internal_info': '{}', 'instance_info': '{}',
                'properties': '{}', 'extra': '{}', 'labels': '{}',
                'created_at': now})
        columns = sorted(rows[0])
        with self.engine.begin() as conn:
            conn.execute(sa.text(
                'INSERT INTO nodes (%s) VALUES (%s)'
                % (', '.join(columns),
                   ', '.join(':%s' % c for c in columns))), rows)
        return [row['uuid'] for row in rows]

    def add_node_traits(self, node_uuids, trait):
        """Give ``trait`` to the nodes of ``node_uuids`` (enrolled by
        insert_nodes), straight in the table."""
        if not node_uuids:
            return
        ids = self.query('SELECT id FROM nodes WHERE uuid IN (%s)' % ', '.join(
            "'%s'" % node_uuid for node_uuid in node_uuids))
        with self.engine.begin() as conn:
            conn.execute(sa.text(
                'INSERT INTO node_traits (node_id, trait) '
                'VALUES (:node_id, :trait)'),
                [{'node_id': row[0], 'trait': trait} for row in ids])
            conn.execute(sa.text(
                'UPDATE nodes SET trait_count = trait_count + 1 WHERE id '
                'IN (%s)' % ', '.join(str(row[0]) for row in ids)))

    def node_rows(self):
        """{uuid: (conductor_affinity, reservation)}."""
        return {row[0]: (row[1], row[2]) for row in self.query(
            'SELECT uuid, conductor_affinity, reservation FROM nodes')}

    def alive_conductors(self, timeout=HEARTBEAT_TIMEOUT):
        """Host names of the conductors online whose heartbeat is fresh.

        Same rule as the service (db.get_alive_conductors), computed with
        the clock of this process, which is the clock the services use.
        """
        import datetime
        limit = (datetime.datetime.now(datetime.timezone.utc)
                 .replace(tzinfo=None) - datetime.timedelta(seconds=timeout))
        return sorted(row[0] for row in self.query(
            'SELECT hostname FROM conductors WHERE online = :online '
            'AND updated_at >= :limit', online=True, limit=limit))

    def conductor_online(self, hostname):
        rows = self.query('SELECT online FROM conductors '
                          'WHERE hostname = :h', h=hostname)
        return bool(rows[0][0]) if rows else None


@atexit.register
def _drop_leftover_databases():
    for database in list(_LIVE_DATABASES.values()):
        try:
            database.drop()
        except Exception:
            pass


def run_dbsync(config_file, timeout=180):
    """``ironic-like-dbsync --config-file X upgrade`` as a real process."""
    argv = console_script('ironic-like-dbsync') + [
        '--config-file', config_file, 'upgrade']
    env = dict(os.environ)
    env.setdefault('PYTHONWARNINGS', 'ignore::DeprecationWarning')
    proc = subprocess.run(argv, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=timeout,
                          stdin=subprocess.DEVNULL, env=env)
    output = proc.stdout.decode('utf-8', 'replace')
    if proc.returncode != 0:
        raise AssertionError('ironic-like-dbsync upgrade failed (exit %s):\n'
                             '%s' % (proc.returncode, output))
    return output


# -- the ring, computed the way the services compute it -----------------

def ring_owners(hosts, node_uuids, exponent=HASH_PARTITION_EXPONENT):
    """{uuid: owner} over ``hosts`` with tooz, as the services do."""
    ring = hashring.HashRing(sorted(hosts), partitions=2 ** exponent)
    return {u: next(iter(ring.get_nodes(u.encode('utf-8'))))
            for u in node_uuids}


# -- config files and processes ------------------------------------------

def write_config(path, sections):
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str
    for section, values in sections.items():
        parser[section] = {k: str(v) for k, v in values.items()
                           if v is not None}
    with open(path, 'w') as f:
        parser.write(f)
    return path


class ServiceProcess(fixtures.Fixture):
    """One console script run in its own session (process group)."""

    def __init__(self, name, argv, log_dir, env=None):
        super().__init__()
        self.name = name
        self.argv = argv
        self.log_path = os.path.join(log_dir, '%s.log' % name)
        self.env = env
        self.proc = None
        self.stop_report = None

    def _setUp(self):
        env = dict(os.environ)
        env.setdefault('PYTHONUNBUFFERED', '1')
        # oslo libraries import eventlet only to warn that it is deprecated.
        env.setdefault('PYTHONWARNINGS', 'ignore::DeprecationWarning')
        env.update(self.env or {})
        self._log = open(self.log_path, 'ab')
        self.addCleanup(self._log.close)
        self.proc = subprocess.Popen(
            self.argv, stdout=self._log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True, env=env)
        self.addCleanup(self.stop)

    @property
    def pid(self):
        return self.proc.pid

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def send(self, signum):
        if self.running():
            os.kill(self.proc.pid, signum)

    def kill9(self):
        """SIGKILL the process (not its children): a crash."""
        self.send(signal.SIGKILL)
        self.proc.wait(timeout=STOP_TIMEOUT)

    def wait(self, timeout):
        """Exit code, or None if still running after ``timeout`` s."""
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def _kill_group(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def stop(self, timeout=STOP_TIMEOUT):
        """SIGTERM, wait up to ``timeout`` s, then SIGKILL the group.

        Returns (exit code, seconds it took, whether SIGKILL was needed).
        """
        if self.proc is None:
            return None
        if self.stop_report is not None:
            return self.stop_report
        started = time.monotonic()
        killed = False
        if self.running():
            self.send(signal.SIGTERM)
            if self.wait(timeout) is None:
                killed = True
                self._kill_group()
                self.proc.wait(timeout=STOP_TIMEOUT)
        # Children (API workers) must not outlive the test either way.
        self._kill_group()
        self.stop_report = (self.proc.returncode,
                            time.monotonic() - started, killed)
        return self.stop_report

    def log_text(self, max_bytes=200000):
        try:
            with open(self.log_path, 'rb') as f:
                f.seek(0, os.SEEK_END)
                size = f.tell()
                f.seek(max(0, size - max_bytes))
                return f.read().decode('utf-8', 'replace')
        except OSError as e:
            return '(no log: %s)' % e

    def check_running(self):
        if not self.running():
            raise ProcessDied('%s exited with %s; its log ends with:\n%s'
                              % (self.name, self.proc.returncode,
                                 self.log_text(8000)))


def child_pids(pid):
    """PIDs of the direct children of ``pid`` (from /proc)."""
    children = []
    path = '/proc/%d/task' % pid
    try:
        tasks = os.listdir(path)
    except OSError:
        return children
    for task in tasks:
        try:
            with open('%s/%s/children' % (path, task)) as f:
                children.extend(int(p) for p in f.read().split())
        except OSError:
            continue
    return sorted(set(children))


def listening_inodes(port):
    """Inodes of the sockets listening on 127.0.0.1:``port``."""
    inodes = set()
    wanted = '0100007F:%04X' % port
    with open('/proc/net/tcp') as f:
        next(f)
        for line in f:
            fields = line.split()
            # local address, state (0A = LISTEN), ..., inode
            if fields[1] == wanted and fields[3] == '0A':
                inodes.add(fields[9])
    return inodes


def socket_inodes(pid):
    """Inodes of the sockets process ``pid`` has open."""
    inodes = set()
    fd_dir = '/proc/%d/fd' % pid
    try:
        fds = os.listdir(fd_dir)
    except OSError:
        return inodes
    for fd in fds:
        try:
            target = os.readlink(os.path.join(fd_dir, fd))
        except OSError:
            continue
        if target.startswith('socket:['):
            inodes.add(target[8:-1])
    return inodes


def listening_workers(parent, port):
    """Alive children of ``parent`` that listen on ``port``."""
    listening = listening_inodes(port)
    return [pid for pid in child_pids(parent)
            if pid_alive(pid) and socket_inodes(pid) & listening]


def pid_alive(pid):
    try:
        with open('/proc/%d/stat' % pid) as f:
            state = f.read().rsplit(')', 1)[1].split()[0]
        return state != 'Z'
    except (OSError, IndexError):
        return False


class Cluster(fixtures.Fixture):
    """An API and conductors on one database over one message bus.

    ``database`` is a :class:`Database` already upgraded (see
    :meth:`FunctionalTestCase.class_database`).
    """

    def __init__(self, database, conductors=2, api=True, api_workers=2,
                 conf=None, wait=True, work_dir=None, allocation_delay=None,
                 power_delay=None):
        super().__init__()
        # Seconds each allocation batch, or each fake power change, of the
        # conductors waits before it acts (see delayed_conductor): lets a
        # test kill a conductor while that work is in progress.
        self.delays = {'--allocation-delay': allocation_delay,
                       '--power-delay': power_delay}
        # Config files and logs. When the caller gives the directory it
        # also removes it, so logs outlive a failed setUp (which cleans
        # this fixture up before the test can attach them).
        self.work_dir = work_dir
        self.database = database
        self.conductor_count = conductors
        self.with_api = api
        self.api_workers = api_workers
        self.conf = conf or {}
        self.wait_ready = wait
        self.suffix = random_suffix()
        self.exchange = 'ironic_like_ft_%s' % self.suffix
        self.api_port = free_port() if api else None
        self.api = None
        self.conductors = {}
        self.processes = []

    @property
    def url(self):
        return 'http://127.0.0.1:%d' % self.api_port

    def _setUp(self):
        if self.work_dir:
            self.tmp = self.work_dir
        else:
            self.tmp = tempfile.mkdtemp(prefix='ironic-like-ft-')
            if not KEEP_TEMP:
                self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        for index in range(1, self.conductor_count + 1):
            self.start_conductor('ft-%s-c%d' % (self.suffix, index),
                                 wait=False)
        if self.with_api:
            self.start_api(wait=False)
        if self.wait_ready:
            self.wait_until_ready()

    def config_sections(self, host):
        sections = {
            'DEFAULT': {
                'host': host,
                'transport_url': TRANSPORT_URL,
                'control_exchange': self.exchange,
                'auth_strategy': 'noauth',
                'debug': 'false',
                'rpc_response_timeout': 15,
                'rpc_node_call_timeout': RPC_NODE_CALL_TIMEOUT,
                'rpc_node_call_attempts': RPC_NODE_CALL_ATTEMPTS,
                'hash_ring_reset_interval': HASH_RING_RESET_INTERVAL,
                'hash_partition_exponent': HASH_PARTITION_EXPONENT,
            },
            'oslo_messaging_rabbit': {
                # Queues go away with their consumers: a killed conductor
                # leaves nothing behind on the broker.
                'amqp_auto_delete': 'true',
                # Reply and fanout queues of stopped processes expire soon.
                'rabbit_transient_queues_ttl': 60,
            },
            'database': {'connection': self.database.url},
            # The lab's simulated agents serve plain http.
            'agent': {'require_tls': 'false'},
            'api': {'host_ip': '127.0.0.1', 'port': self.api_port or 6385,
                    'api_workers': self.api_workers},
            'conductor': {
                'heartbeat_interval': HEARTBEAT_INTERVAL,
                'heartbeat_timeout': HEARTBEAT_TIMEOUT,
                'takeover_check_interval': TAKEOVER_CHECK_INTERVAL,
                'sync_power_state_interval': SYNC_POWER_STATE_INTERVAL,
                # Polled steps (the redfish BIOS steps) end soon after
                # their BMC shows them done.
                'check_polled_steps_interval': 1,
            },
        }
        for section, values in self.conf.items():
            sections.setdefault(section, {}).update(values)
        return sections

    def _start(self, name, argv, host):
        config = write_config(os.path.join(self.tmp, '%s.conf' % name),
                              self.config_sections(host))
        proc = ServiceProcess(name, argv + ['--config-file', config],
                              self.tmp)
        self.useFixture(proc)
        self.processes.append(proc)
        return proc

    def start_conductor(self, host, wait=True):
        delays = [(flag, value) for flag, value in self.delays.items()
                  if value]
        if delays:
            argv = [sys.executable, '-m',
                    'ironic_like.tests.functional.delayed_conductor']
            for flag, value in delays:
                argv += [flag, str(value)]
        else:
            argv = console_script('ironic-like-conductor')
        proc = self._start(host, argv, host)
        self.conductors[host] = proc
        if wait:
            self.wait_for_conductors([host])
        return proc

    def start_api(self, wait=True):
        self.api = self._start('api-%s' % self.suffix,
                               console_script('ironic-like-api'),
                               'api-%s' % self.suffix)
        if wait:
            self.wait_for_api()
        return self.api

    def _check_processes(self):
        for proc in self.processes:
            if proc.stop_report is None:
                proc.check_running()

    def wait_for_conductors(self, hosts=None, timeout=START_TIMEOUT):
        hosts = sorted(hosts or self.conductors)

        def registered():
            self._check_processes()
            return set(hosts) <= set(self.database.alive_conductors())
        wait_for(registered, timeout, interval=0.25,
                 message=lambda: 'conductors %s did not register; alive: %s'
                 % (hosts, self.database.alive_conductors()))

    def wait_for_api(self, timeout=START_TIMEOUT):
        def answers():
            self.api.check_running()
            try:
                return requests.get(self.url + '/', timeout=5).ok
            except requests.ConnectionError:
                return False
        wait_for(answers, timeout, interval=0.25,
                 message='the API did not answer on %s' % self.url)
        if self.api_workers > 1:
            # The first worker to listen answers; wait for all of them.
            def all_listen():
                self.api.check_running()
                return len(listening_workers(
                    self.api.pid, self.api_port)) == self.api_workers
            wait_for(all_listen, timeout, interval=0.25,
                     message=lambda: 'API workers listening on %d: %s of '
                     '%d' % (self.api_port, listening_workers(
                         self.api.pid, self.api_port), self.api_workers))

    def wait_until_ready(self, timeout=START_TIMEOUT):
        if self.conductors:
            self.wait_for_conductors(timeout=timeout)
        if self.api is not None:
            self.wait_for_api(timeout=timeout)

    # -- HTTP ------------------------------------------------------------

    def request(self, method, path, json=None, headers=None,
                timeout=HTTP_TIMEOUT, **kwargs):
        all_headers = {'X-OpenStack-Ironic-API-Version': '1.51'}
        all_headers.update(headers or {})
        return requests.request(method, self.url + path, json=json,
                                headers=all_headers, timeout=timeout,
                                **kwargs)

    def alive_hosts(self):
        return [h for h in self.database.alive_conductors()
                if h in self.conductors]


class FunctionalTestCase(testtools.TestCase):
    """Base of the functional tests.

    ``BACKEND`` (``mysql`` or ``postgresql``) selects the database that
    :meth:`class_database` creates once per test class (and drops when the
    class is done); every test starts with its tables empty.
    """

    BACKEND = MYSQL
    SERVICES = (RABBITMQ, MYSQL)
    TIMEOUT = 300

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.Timeout(self.TIMEOUT, gentle=True))
        require_services(self, *self.SERVICES)
        self._log_sources = []
        self.addOnException(self._attach_logs)

    # -- databases -------------------------------------------------------

    @classmethod
    def _drop_class_database(cls):
        database = cls.__dict__.get('_class_db')
        if database is not None:
            cls._class_db = None
            database.drop()

    def class_database(self):
        """This class's upgraded database, its tables emptied."""
        cls = type(self)
        database = cls.__dict__.get('_class_db')
        if database is None:
            require_services(self, self.BACKEND)
            database = Database(self.BACKEND)
            cls._class_db = database
            cls.addClassCleanup(cls._drop_class_database)
            tmp = self.useFixture(fixtures.TempDir()).path
            config = write_config(os.path.join(tmp, 'dbsync.conf'), {
                'database': {'connection': database.url}})
            try:
                run_dbsync(config)
            except Exception:
                self._drop_class_database()
                raise
        else:
            database.empty_tables()
        return database

    def in_process_db(self, **engine_options):
        """This process's database API on class_database(), for tests of
        the database layer itself (no service processes): (db API,
        engine). ``engine_options``: enginefacade's, e.g. pool sizes."""
        from oslo_db.sqlalchemy import enginefacade

        from ironic_like.db import api as db_api
        from ironic_like.db.sqlalchemy import api as sa_api
        database = self.class_database()
        manager = enginefacade.transaction_context()
        manager.configure(connection=database.url, **engine_options)
        self.useFixture(fixtures.MockPatchObject(
            sa_api, 'main_context_manager', manager))
        self.useFixture(fixtures.MonkeyPatch('ironic_like.db.api._IMPL',
                                             None))
        engine = manager.writer.get_engine()
        self.addCleanup(engine.dispose)
        return db_api.get_instance(), engine

    def fresh_database(self, backend=None):
        """A new database for this test only, not upgraded."""
        backend = backend or self.BACKEND
        require_services(self, backend)
        database = Database(backend)
        self.addCleanup(database.drop)
        return database

    # -- processes -------------------------------------------------------

    def work_dir(self):
        """A directory of this test's, removed after its logs are read."""
        path = tempfile.mkdtemp(prefix='ironic-like-ft-')
        if not KEEP_TEMP:
            self.addCleanup(shutil.rmtree, path, ignore_errors=True)
        return path

    def start_cluster(self, **kwargs):
        kwargs.setdefault('database', None)
        if kwargs['database'] is None:
            kwargs['database'] = self.class_database()
        kwargs.setdefault('work_dir', self.work_dir())
        cluster = Cluster(**kwargs)
        self.watch(cluster)
        return self.useFixture(cluster)

    def watch(self, source):
        """Attach the logs of ``source`` (a Cluster or ServiceProcess)."""
        self._log_sources.append(source)

    def _attach_logs(self, exc_info, tb_label='traceback'):
        procs = []
        for source in self._log_sources:
            if isinstance(source, ServiceProcess):
                procs.append(source)
            else:
                procs.extend(source.processes)
        for proc in procs:
            state = ('running' if proc.running() else
                     'exit code %s' % (proc.proc.returncode
                                       if proc.proc else None))
            text = '%s (%s)\n%s' % (' '.join(proc.argv), state,
                                    proc.log_text())
            self.addDetail('log-%s' % proc.name,
                           content.text_content(text))

    # -- helpers ---------------------------------------------------------

    def assertEventually(self, predicate, timeout, message=None,
                         interval=0.2):
        try:
            return wait_for(predicate, timeout, interval=interval,
                            message=message)
        except AssertionError as e:
            self.fail(str(e))

    def wait_for_ring_ownership(self, database, node_uuids, hosts, timeout):
        """Wait until every node's conductor_affinity is its ring owner
        over ``hosts`` and no node is reserved; returns {uuid: owner}."""
        expected = ring_owners(hosts, node_uuids)
        state = {}

        def settled():
            state['rows'] = database.node_rows()
            return all(state['rows'].get(u) == (expected[u], None)
                       for u in node_uuids)

        def describe():
            rows = state.get('rows', {})
            wrong = [(u, rows.get(u), expected[u]) for u in node_uuids
                     if rows.get(u) != (expected[u], None)]
            return ('%d of %d nodes not (owner, unreserved) per the ring '
                    'over %s, e.g. (uuid, (affinity, reservation), owner): '
                    '%s' % (len(wrong), len(node_uuids), sorted(hosts),
                            wrong[:5]))
        self.assertEventually(settled, timeout, message=describe,
                              interval=0.25)
        return expected
