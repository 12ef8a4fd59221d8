"""A real keystone on loopback for the functional tests.

:class:`KeystoneFixture` runs the ``keystone`` package from PyPI:

* a temporary directory with ``keystone.conf`` (SQLite database, fernet
  tokens, fernet and credential key repositories in the directory, cheap
  bcrypt rounds so that authentications are fast, and keystone's cache in
  its process's memory: without it every request's token validation read
  the role assignments again, 0.3 to 0.8 s a request; one keystone
  process keeps the cache coherent, as devstack's memcached does);
* ``keystone-manage db_sync``, ``fernet_setup``, ``credential_setup`` and
  ``bootstrap`` (admin user, ``RegionOne``, identity endpoints);
* keystone's WSGI application
  (``keystone.server.wsgi.initialize_public_application``) served by
  cheroot in a subprocess on ``127.0.0.1:<free port>``, stopped (SIGTERM,
  then SIGKILL) by the harness's :class:`base.ServiceProcess`;
* then, through python-keystoneclient as the bootstrap admin: projects
  ``p1`` and ``p2`` and the users of :data:`USERS` with their role
  assignments (system or project), and a ``service`` project with the
  user the service's keystonemiddleware authenticates as.

:meth:`KeystoneFixture.register_baremetal` adds the ``baremetal`` service
and its public endpoint. Every wait is bounded; the server is always
stopped and the directory always removed (unless ``IRONIC_LIKE_FT_KEEP``
is set).
"""

import grp
import os
import pwd
import shutil
import subprocess
import sys
import tempfile

import fixtures
from keystoneauth1 import identity
from keystoneauth1 import session as ks_session
from keystoneclient.v3 import client as ks_client
import requests

from ironic_like.tests.functional import base

REGION = 'RegionOne'
ADMIN_PASSWORD = 'admin-secret'
PASSWORD = 'user-secret'
SERVICE_USER = 'ironic-like'
SERVICE_PROJECT = 'service'

# name: (scope, role) where scope is 'system' or a project name (the
# personas of ironic_like.tests.rbac_personas; keystone's implied roles
# give an admin the member and reader roles too).
USERS = {
    'sys-admin': ('system', 'admin'),
    'sys-member': ('system', 'member'),
    'sys-reader': ('system', 'reader'),
    'p1-admin': ('p1', 'admin'),
    'p1-member': ('p1', 'member'),
    'p1-reader': ('p1', 'reader'),
    'p2-admin': ('p2', 'admin'),
    'p2-member': ('p2', 'member'),
    # A service acting for its users, as Nova does: the "service" role
    # (which implies no other) in the service project.
    'svc-nova': (SERVICE_PROJECT, 'service'),
}
PROJECTS = ('p1', 'p2')

# Bounds of the waits (seconds).
MANAGE_TIMEOUT = 120
START_TIMEOUT = 60

# Serves keystone's WSGI application with cheroot on the port in
# $IRONIC_LIKE_FT_KEYSTONE_PORT (keystone parses sys.argv itself).
_SERVE = '''
import os
from cheroot import wsgi
from keystone.server import wsgi as keystone_wsgi
app = keystone_wsgi.initialize_public_application()
port = int(os.environ['IRONIC_LIKE_FT_KEYSTONE_PORT'])
server = wsgi.Server(('127.0.0.1', port), app, numthreads=8)
try:
    server.start()
finally:
    server.stop()
'''


def _keystone_manage():
    path = os.path.join(os.path.dirname(sys.executable), 'keystone-manage')
    if os.path.exists(path):
        return [path]
    return [sys.executable, '-c',
            'import sys; from keystone.cmd.manage import main; '
            'sys.exit(main())']


class KeystoneFixture(fixtures.Fixture):
    """A keystone on 127.0.0.1 with the users of :data:`USERS`.

    After setUp: ``url`` (the identity endpoint, ending in ``/v3``),
    ``project_ids`` ({name: id}), ``user_ids``, ``admin_session`` (a
    keystoneauth session of the bootstrap admin, project-scoped) and
    ``client`` (python-keystoneclient over that session).
    """

    def __init__(self):
        super().__init__()
        self.port = base.free_port()
        self.base_url = 'http://127.0.0.1:%d' % self.port
        self.url = self.base_url + '/v3'
        self.project_ids = {}
        self.user_ids = {}
        self.process = None

    # -- set up ------------------------------------------------------------

    def _setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='ironic-like-ft-keystone-')
        if not base.KEEP_TEMP:
            self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.config_file = self._write_config()
        owner = ['--keystone-user', pwd.getpwuid(os.getuid()).pw_name,
                 '--keystone-group', grp.getgrgid(os.getgid()).gr_name]
        # The key repositories do not depend on the database.
        self._manage(['db_sync'], ['fernet_setup'] + owner,
                     ['credential_setup'] + owner)
        self._manage(['bootstrap',
                      '--bootstrap-password', ADMIN_PASSWORD,
                      '--bootstrap-username', 'admin',
                      '--bootstrap-project-name', 'admin',
                      '--bootstrap-role-name', 'admin',
                      '--bootstrap-service-name', 'keystone',
                      '--bootstrap-region-id', REGION,
                      '--bootstrap-admin-url', self.url,
                      '--bootstrap-public-url', self.url,
                      '--bootstrap-internal-url', self.url])
        self._start_server()
        self.admin_session = self.session('admin', password=ADMIN_PASSWORD,
                                          project='admin')
        self.client = ks_client.Client(session=self.admin_session,
                                       interface='public')
        self._create_users()

    def _write_config(self):
        keys = os.path.join(self.tmp, 'fernet-keys')
        credential_keys = os.path.join(self.tmp, 'credential-keys')
        receipt_keys = os.path.join(self.tmp, 'receipt-keys')
        for path in (keys, credential_keys, receipt_keys):
            os.mkdir(path, 0o700)
        return base.write_config(os.path.join(self.tmp, 'keystone.conf'), {
            'DEFAULT': {'debug': 'false'},
            'database': {'connection': 'sqlite:///%s'
                         % os.path.join(self.tmp, 'keystone.db')},
            'token': {'provider': 'fernet'},
            'fernet_tokens': {'key_repository': keys},
            'fernet_receipts': {'key_repository': receipt_keys},
            'credential': {'key_repository': credential_keys},
            # The default (12 rounds) makes every authentication slow.
            'identity': {'password_hash_algorithm': 'bcrypt',
                         'password_hash_rounds': 4},
            'cache': {'enabled': 'true',
                      'backend': 'dogpile.cache.memory'},
        })

    def _manage(self, *commands):
        """Run keystone-manage ``commands`` (argument lists) in parallel."""
        env = dict(os.environ, PYTHONWARNINGS='ignore')
        running = []
        try:
            for args in commands:
                argv = _keystone_manage() + ['--config-file',
                                             self.config_file] + list(args)
                running.append((args[0], subprocess.Popen(
                    argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL, env=env)))
            for name, proc in running:
                try:
                    output = proc.communicate(timeout=MANAGE_TIMEOUT)[0]
                except subprocess.TimeoutExpired:
                    raise AssertionError('keystone-manage %s did not finish '
                                         'in %s s' % (name, MANAGE_TIMEOUT))
                if proc.returncode:
                    raise AssertionError(
                        'keystone-manage %s failed (%s):\n%s'
                        % (name, proc.returncode,
                           output.decode('utf-8', 'replace')))
        finally:
            for name, proc in running:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
                if proc.stdout:
                    proc.stdout.close()

    def _start_server(self):
        env = {'OS_KEYSTONE_CONFIG_DIR': self.tmp,
               'OS_KEYSTONE_CONFIG_FILES': 'keystone.conf',
               'IRONIC_LIKE_FT_KEYSTONE_PORT': str(self.port),
               'PYTHONWARNINGS': 'ignore'}
        self.process = base.ServiceProcess(
            'keystone', [sys.executable, '-c', _SERVE],
            self.tmp, env=env)
        self.useFixture(self.process)

        def answers():
            self.process.check_running()
            try:
                return requests.get(self.url, timeout=5).status_code == 200
            except requests.ConnectionError:
                return False
        base.wait_for(answers, START_TIMEOUT, interval=0.25,
                      message=lambda: 'keystone did not answer on %s; log:\n'
                      '%s' % (self.url, self.log_text(4000)))

    def _create_users(self):
        ks = self.client
        roles = {r.name: r for r in ks.roles.list()}
        for name in PROJECTS + (SERVICE_PROJECT,):
            project = ks.projects.create(name=name, domain='default',
                                         description='ironic_like ft')
            self.project_ids[name] = project.id
        for name, (scope, role) in USERS.items():
            user = ks.users.create(name=name, domain='default',
                                   password=PASSWORD)
            self.user_ids[name] = user.id
            if scope == 'system':
                ks.roles.grant(roles[role], user=user, system='all')
            else:
                ks.roles.grant(roles[role], user=user,
                               project=self.project_ids[scope])
        user = ks.users.create(name=SERVICE_USER, domain='default',
                               password=PASSWORD)
        self.user_ids[SERVICE_USER] = user.id
        ks.roles.grant(roles['admin'], user=user,
                       project=self.project_ids[SERVICE_PROJECT])

    # -- use ---------------------------------------------------------------

    def log_text(self, max_bytes=200000):
        if self.process is None:
            return '(keystone not started)'
        return self.process.log_text(max_bytes)

    def auth(self, user, password=PASSWORD, project=None, system=False):
        """A keystoneauth Password plugin, project- or system-scoped."""
        kwargs = {'auth_url': self.url, 'username': user,
                  'password': password, 'user_domain_id': 'default'}
        if system:
            kwargs['system_scope'] = 'all'
        elif project:
            kwargs['project_name'] = project
            kwargs['project_domain_id'] = 'default'
        return identity.v3.Password(**kwargs)

    def session(self, user, password=PASSWORD, project=None, system=False):
        return ks_session.Session(auth=self.auth(user, password, project,
                                                 system))

    def user_session(self, user):
        """A session scoped as :data:`USERS` says for ``user``."""
        scope = USERS[user][0]
        if scope == 'system':
            return self.session(user, system=True)
        return self.session(user, project=scope)

    def token(self, user):
        return self.user_session(user).get_token()

    def authtoken_options(self):
        """The service's ``[keystone_authtoken]`` section."""
        return {
            'auth_url': self.url,
            'www_authenticate_uri': self.url,
            'auth_type': 'password',
            'username': SERVICE_USER,
            'password': PASSWORD,
            'user_domain_id': 'default',
            'project_name': SERVICE_PROJECT,
            'project_domain_id': 'default',
            'region_name': REGION,
            'http_request_max_retries': 1,
            'http_connect_timeout': 10,
        }

    def register_baremetal(self, url, name='ironic'):
        """The ``baremetal`` service with its public endpoint ``url``."""
        service = self.client.services.create(name=name, type='baremetal',
                                              description='ironic_like')
        return self.client.endpoints.create(service=service, url=url,
                                            interface='public',
                                            region=REGION)
