"""The devstack plugin (devstack/), run for real with devstack stood in.

devstack itself is not installed here, so the test sources the plugin the
way devstack does (``settings``, then ``plugin.sh MODE PHASE`` in one
shell for ``stack install``, ``stack post-config`` and ``stack extra``,
then ``unstack`` and ``clean`` in a new shell, as unstack.sh and clean.sh
do) after ``devstack_stubs.sh``, which stands in for every devstack
function the plugin calls:

* ``is_service_enabled`` / ``enable_service``: devstack's semantics over a
  comma-separated ``ENABLED_SERVICES`` (the test enables ``keystone`` and
  ``mysql``; the plugin's settings enable ``ir-like-api`` and
  ``ir-like-cond``).
* ``define_plugin``, ``echo_summary``, ``die``: record / print / exit 1.
* ``sudo``: runs the command as the test's user (no root escalation).
* ``get_python_exec_prefix``: the bin directory of this virtualenv.
* ``setup_develop``: installs nothing (the package is already installed
  with ``pip install -e`` in the virtualenv); checks that it imports and
  that the directory is the project.
* ``iniset``: writes the real config file (a small Python configparser
  helper), which the services then read.
* ``get_transport_url``: the harness's RabbitMQ URL.
* ``database_connection_url``: ``mysql+pymysql://USER@HOST/DB?charset=
  utf8mb4`` on the real MariaDB.
* ``recreate_database``: drops and creates a real MariaDB database (named
  ``ironic_like_ft_<random>`` by the test through IRONIC_LIKE_DB_NAME)
  with the ``mysql`` client.
* ``run_process``: starts the command in the background in its own
  session (process group), logs to a file, records its pid.
* ``stop_process``: SIGTERM to that process group, SIGKILL after 20 s.
* ``wait_for_service``: polls the URL with curl, bounded by ``timeout``.
* keystone is stood in: ``create_service_user``,
  ``get_or_create_service``, ``get_or_create_endpoint`` and
  ``configure_keystone_authtoken_middleware`` only record their arguments
  (the test checks that the ``baremetal`` service and its endpoint were
  registered with the right URL); the service runs with
  ``IRONIC_LIKE_AUTH_STRATEGY=noauth``.

Not stood in: the plugin's own code, ``ironic-like-dbsync``,
``ironic-like-api``, ``ironic-like-conductor``, MariaDB, RabbitMQ (a
private ``control_exchange``), the ``mysql`` client the plugin's clean
phase uses to drop the database, and the ``openstack`` CLI run against
the API afterwards. Whatever happens, the test kills the processes the
plugin started, drops the database and removes its temporary directory.
"""

import configparser
import os
import shutil
import signal
import subprocess
import sys

import requests
import sqlalchemy as sa

from ironic_like.tests.functional import base

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__),
                                    '..', '..', '..'))
DEVSTACK = os.path.join(REPO, 'devstack')
STUBS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                     'devstack_stubs.sh')
BIN_DIR = os.path.dirname(sys.executable)
OPENSTACK = os.path.join(BIN_DIR, 'openstack')
PLUGIN_FILES = [os.path.join(DEVSTACK, name)
                for name in ('plugin.sh', 'settings', 'lib/ironic_like')]
# Bound of one run of the stack phases, of unstack + clean, of a CLI run.
PHASE_TIMEOUT = 45
CLI_TIMEOUT = 30


def _pgrp_alive(pgid):
    """True while a live (not zombie) process is in process group pgid."""
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % entry) as f:
                fields = f.read().rsplit(')', 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[2] == str(pgid) and fields[0] != 'Z':
            return True
    return False


class TestDevstackPlugin(base.FunctionalTestCase):
    SERVICES = (base.RABBITMQ, base.MYSQL)
    TIMEOUT = 120

    def setUp(self):
        super().setUp()
        self.tmp = self.work_dir()
        self.state = os.path.join(self.tmp, 'state')
        os.mkdir(self.state)
        self.suffix = base.random_suffix()
        self.port = base.free_port()
        self.db_name = 'ironic_like_ft_%s' % self.suffix
        self.host = 'devstack-ft-%s' % self.suffix
        self.conf_dir = os.path.join(self.tmp, 'etc', 'ironic_like')
        self.url = 'http://127.0.0.1:%d' % self.port
        ok, admin = base.service_status(base.MYSQL)
        admin_url = sa.engine.make_url(admin)
        self.admin_url = admin
        # Cleanups run last-in first-out: processes die before the
        # database is dropped.
        self.addCleanup(self._drop_database)
        self.addCleanup(self._kill_processes)
        self.env = dict(
            os.environ,
            PATH=BIN_DIR + os.pathsep + os.environ.get('PATH', ''),
            PYTHONWARNINGS='ignore::DeprecationWarning',
            STUB_STATE_DIR=self.state,
            STUB_BIN_DIR=BIN_DIR,
            STUB_TRANSPORT_URL=base.TRANSPORT_URL,
            ENABLED_SERVICES='keystone,mysql',
            DEST=self.tmp,
            DATA_DIR=os.path.join(self.tmp, 'data'),
            STACK_USER=str(os.getuid()),
            SERVICE_HOST='127.0.0.1',
            SERVICE_PROTOCOL='http',
            REGION_NAME='RegionOne',
            DATABASE_TYPE='mysql',
            DATABASE_USER=admin_url.username or 'root',
            DATABASE_PASSWORD=admin_url.password or '',
            DATABASE_HOST=admin_url.host or '127.0.0.1',
            MYSQL_HOST=admin_url.host or '127.0.0.1',
            IRONIC_LIKE_DIR=REPO,
            IRONIC_LIKE_CONF_DIR=self.conf_dir,
            IRONIC_LIKE_HOST=self.host,
            IRONIC_LIKE_AUTH_STRATEGY='noauth',
            IRONIC_LIKE_CONTROL_EXCHANGE='ironic_like_ft_%s' % self.suffix,
            IRONIC_LIKE_DB_NAME=self.db_name,
            IRONIC_LIKE_API_PORT=str(self.port),
            IRONIC_LIKE_API_WORKERS='1',
            IRONIC_LIKE_DEBUG='False',
            # As the harness's services: queues go with their consumers.
            IRONIC_LIKE_AMQP_AUTO_DELETE='True',
            IRONIC_LIKE_START_TIMEOUT='30',
        )

    # -- clean-up --------------------------------------------------------

    def _pids(self):
        pid_dir = os.path.join(self.state, 'pids')
        pids = {}
        if os.path.isdir(pid_dir):
            for name in os.listdir(pid_dir):
                with open(os.path.join(pid_dir, name)) as f:
                    text = f.read().strip()
                if text.isdigit():
                    pids[name[:-len('.pid')]] = int(text)
        return pids

    def _started_pids(self):
        """{service: pid} of every run_process call (from the record)."""
        pids = {}
        for line in self._calls():
            words = line.split()
            if words[0] == 'run_process':
                pids[words[1]] = int(words[2])
        return pids

    def _kill_processes(self):
        pids = set(self._pids().values()) | set(self._started_pids()
                                                .values())
        for pid in pids:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
        base.wait_for(lambda: not any(_pgrp_alive(p) for p in pids), 10,
                      message='processes of the plugin still alive')

    def _database_exists(self):
        engine = sa.create_engine(self.admin_url + '/',
                                  poolclass=sa.pool.NullPool)
        try:
            with engine.connect() as conn:
                return bool(conn.execute(sa.text(
                    'SELECT COUNT(*) FROM information_schema.SCHEMATA '
                    'WHERE SCHEMA_NAME = :n'), {'n': self.db_name}).scalar())
        finally:
            engine.dispose()

    def _drop_database(self):
        engine = sa.create_engine(self.admin_url + '/',
                                  poolclass=sa.pool.NullPool,
                                  isolation_level='AUTOCOMMIT')
        try:
            with engine.connect() as conn:
                conn.execute(sa.text('DROP DATABASE IF EXISTS %s'
                                     % self.db_name))
        finally:
            engine.dispose()

    # -- helpers ---------------------------------------------------------

    def _calls(self):
        path = os.path.join(self.state, 'calls')
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return [line.rstrip('\n') for line in f if line.strip()]

    def _run_phases(self, name, phases):
        """One bash, like stack.sh: stubs, settings, then each phase."""
        lines = ['set -o errexit', 'set -o pipefail',
                 'source %s' % STUBS,
                 'source %s' % os.path.join(DEVSTACK, 'settings')]
        for phase in phases:
            lines.append('source %s %s' % (os.path.join(DEVSTACK,
                                                        'plugin.sh'),
                                           phase))
        lines.append('echo "phases done: %s"' % name)
        proc = subprocess.run(['bash', '-c', '\n'.join(lines)],
                              stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, env=self.env,
                              timeout=PHASE_TIMEOUT, cwd=self.tmp)
        output = proc.stdout.decode('utf-8', 'replace')
        self.addDetail('bash-%s' % name, base.content.text_content(output))
        self.assertEqual(0, proc.returncode,
                         '%s failed (exit %s):\n%s%s'
                         % (name, proc.returncode, output,
                            self._service_logs()))
        return output

    def _service_logs(self):
        log_dir = os.path.join(self.state, 'logs')
        text = ''
        if os.path.isdir(log_dir):
            for name in sorted(os.listdir(log_dir)):
                with open(os.path.join(log_dir, name), errors='replace') as f:
                    text += '\n--- %s ---\n%s' % (name, f.read()[-6000:])
        return text

    def _openstack(self, *args):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith('OS_')}
        env['PYTHONWARNINGS'] = 'ignore'
        argv = [OPENSTACK, '--os-auth-type', 'none', '--os-endpoint',
                self.url] + list(args)
        proc = subprocess.run(argv, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, env=env,
                              timeout=CLI_TIMEOUT, universal_newlines=True)
        return proc

    # -- the test --------------------------------------------------------

    def test_stack_unstack_clean(self):
        self._run_phases('stack', ['stack pre-install', 'stack install',
                                   'stack post-config', 'stack extra'])
        self.addOnException(lambda exc_info: self.addDetail(
            'service-logs', base.content.text_content(
                self._service_logs())))

        # The config file the plugin wrote.
        conf_file = os.path.join(self.conf_dir, 'ironic_like.conf')
        parser = configparser.ConfigParser(interpolation=None)
        self.assertEqual([conf_file], parser.read(conf_file))
        self.assertEqual('noauth', parser['DEFAULT']['auth_strategy'])
        self.assertEqual(base.TRANSPORT_URL,
                         parser['DEFAULT']['transport_url'])
        self.assertEqual('ironic_like_ft_%s' % self.suffix,
                         parser['DEFAULT']['control_exchange'])
        self.assertEqual(self.host, parser['DEFAULT']['host'])
        self.assertIn('/%s?' % self.db_name,
                      parser['database']['connection'])
        self.assertEqual(str(self.port), parser['api']['port'])
        self.assertEqual('127.0.0.1', parser['api']['host_ip'])
        self.assertEqual('fake-hardware',
                         parser['DEFAULT']['enabled_hardware_types'])
        self.assertEqual('True',
                         parser['oslo_messaging_rabbit']['amqp_auto_delete'])

        # What was asked of devstack (keystone is stood in).
        calls = self._calls()
        self.assertIn('setup_develop %s' % REPO, calls)
        self.assertIn('recreate_database %s' % self.db_name, calls)
        self.assertIn('create_service_user ironic_like admin', calls)
        self.assertIn('get_or_create_service ironic_like baremetal '
                      'Bare metal provisioning (ironic_like)', calls)
        self.assertIn('get_or_create_endpoint baremetal RegionOne %s'
                      % self.url, calls)
        self.assertFalse([c for c in calls if c.startswith(
            'configure_keystone_authtoken_middleware')])
        started = self._started_pids()
        self.assertEqual(['ir-like-api', 'ir-like-cond'], sorted(started))
        for pid in started.values():
            self.assertTrue(_pgrp_alive(pid))

        # The services answer: the API on its port, the conductor
        # registered in the database dbsync created.
        self.assertEqual(200, requests.get(self.url + '/v1',
                                           timeout=10).status_code)
        self.assertTrue(self._database_exists())
        engine = sa.create_engine(parser['database']['connection'],
                                  poolclass=sa.pool.NullPool)
        self.addCleanup(engine.dispose)

        def registered():
            with engine.connect() as conn:
                return conn.execute(sa.text(
                    'SELECT online FROM conductors WHERE hostname = :h'),
                    {'h': self.host}).scalar()
        self.assertEventually(registered, 30,
                              'conductor %s did not register' % self.host)

        result = self._openstack('baremetal', 'node', 'list')
        self.assertEqual(0, result.returncode,
                         'node list: %s %s' % (result.stdout, result.stderr))
        result = self._openstack('baremetal', 'conductor', 'list', '-f',
                                 'value', '-c', 'Hostname')
        self.assertEqual(0, result.returncode,
                         'conductor list: %s %s' % (result.stdout,
                                                    result.stderr))
        self.assertIn(self.host, result.stdout.split())

        # unstack and clean, in a new shell as unstack.sh / clean.sh.
        self._run_phases('unstack-clean', ['unstack', 'clean'])
        for service, pid in started.items():
            self.assertFalse(_pgrp_alive(pid),
                             '%s (process group %d) still alive'
                             % (service, pid))
        self.assertEqual({}, self._pids())
        self.assertRaises(requests.ConnectionError, requests.get,
                          self.url + '/', timeout=5)
        self.assertFalse(os.path.exists(self.conf_dir))
        self.assertFalse(self._database_exists(),
                         'database %s not dropped' % self.db_name)

    def test_glance_client_with_keystone(self):
        """With keystone auth and Glance (g-api) enabled, configure
        writes [glance] for the service user, as Ironic's devstack does,
        and the keystone middleware is configured; without g-api, no
        [glance]."""
        env = dict(self.env, IRONIC_LIKE_AUTH_STRATEGY='keystone',
                   KEYSTONE_SERVICE_URI='http://127.0.0.1/identity',
                   SERVICE_PASSWORD='secret', SERVICE_PROJECT_NAME='service',
                   SERVICE_DOMAIN_NAME='Default')
        conf_file = os.path.join(self.conf_dir, 'ironic_like.conf')
        for services, glance in (('keystone,mysql,g-api', True),
                                 ('keystone,mysql', False)):
            script = '\n'.join([
                'set -o errexit', 'source %s' % STUBS,
                'source %s' % os.path.join(DEVSTACK, 'settings'),
                'source %s' % os.path.join(DEVSTACK, 'lib', 'ironic_like'),
                'configure_ironic_like'])
            proc = subprocess.run(
                ['bash', '-c', script], stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env=dict(env, ENABLED_SERVICES=services),
                timeout=PHASE_TIMEOUT, cwd=self.tmp)
            self.assertEqual(0, proc.returncode, proc.stdout)
            parser = configparser.ConfigParser(interpolation=None)
            self.assertEqual([conf_file], parser.read(conf_file))
            self.assertEqual('keystone', parser['DEFAULT']['auth_strategy'])
            if not glance:
                self.assertFalse(parser.has_section('glance'))
                continue
            self.assertEqual(
                {'auth_type': 'password',
                 'auth_url': 'http://127.0.0.1/identity',
                 'username': 'ironic_like', 'password': 'secret',
                 'project_name': 'service', 'user_domain_name': 'Default',
                 'project_domain_name': 'Default',
                 'region_name': 'RegionOne'},
                {key: value for key, value in parser['glance'].items()
                 if key not in parser.defaults()})
            self.assertEqual('glance',
                             parser['accelerators']['image_service'])
        self.assertIn('configure_keystone_authtoken_middleware %s ironic_like'
                      % conf_file, self._calls())


class TestBashate(base.FunctionalTestCase):
    """bashate on the plugin's files (skipped if bashate is missing)."""
    SERVICES = ()

    def test_bashate(self):
        bashate = os.path.join(BIN_DIR, 'bashate')
        if not os.path.exists(bashate):
            bashate = shutil.which('bashate')
        if not bashate:
            self.skipTest('bashate is not installed (test-requirements)')
        proc = subprocess.run([bashate, '-v'] + PLUGIN_FILES + [STUBS],
                              stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=60,
                              universal_newlines=True)
        self.assertEqual(0, proc.returncode, proc.stdout)
        self.assertNotIn('warning', proc.stdout)
