"""A real Glance on loopback for the functional tests (FPGA bitstreams).

:class:`GlanceServer` runs the ``glance`` package from PyPI, installed in
a virtualenv of its own by ``tools/install-glance.sh`` (Glance's oslo,
SQLAlchemy and eventlet releases need not agree with the project's):

* the virtualenv is ``$IRONIC_LIKE_GLANCE_VENV``, else
  ``<repo>/.tox/glance``; when it has no Glance the test is skipped, or
  fails naming the script when ``CI`` is ``true`` (as a missing service
  does in :func:`base.require_services`): :func:`require_glance`, which
  the fixture's setUp calls too;
* a temporary directory with ``glance-api.conf``: SQLite database, one
  ``file`` store (``enabled_backends = local:file``) and the reserved
  staging and tasks stores in the directory, no authentication (the paste
  pipeline without keystone: ``[paste_deploy]flavor`` unset, so every
  request gets Glance's unauthenticated admin context; with the legacy
  policy defaults, that role-less context may do anything), and the
  ``glance-api-paste.ini`` the package installs (``<venv>/etc/glance``);
* ``glance-manage db_sync``;
* Glance's WSGI application (``glance.wsgi.api:application``; Glance 33
  removed the standalone ``glance-api`` server) served by cheroot in a
  subprocess of the virtualenv's Python on ``127.0.0.1:<free port>``,
  waited for until ``GET /v2/images`` answers 200 (at most
  :data:`START_TIMEOUT` s), stopped (SIGTERM, then SIGKILL of its process
  group) by the harness's :class:`base.ServiceProcess`.

:meth:`GlanceServer.upload` creates an image through Glance's v2 API
(plain HTTP, the properties as top-level keys) and uploads its data. The
directory is always removed (unless ``IRONIC_LIKE_FT_KEEP`` is set).
"""

import os
import shutil
import subprocess
import tempfile

import fixtures
import requests
from testtools import content
import testtools

from ironic_like.tests.functional import base

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
VENV = (os.environ.get('IRONIC_LIKE_GLANCE_VENV')
        or os.path.join(REPO, '.tox', 'glance'))

# Bounds of the waits (seconds).
MANAGE_TIMEOUT = 120
START_TIMEOUT = 60
HTTP_TIMEOUT = 30

# Serves Glance's WSGI application with cheroot on the port in
# $IRONIC_LIKE_FT_GLANCE_PORT; Glance reads its configuration from
# $OS_GLANCE_CONFIG_DIR/glance-api.conf when the module is imported.
_SERVE = '''
import os
from cheroot import wsgi
from glance.wsgi import api
port = int(os.environ['IRONIC_LIKE_FT_GLANCE_PORT'])
server = wsgi.Server(('127.0.0.1', port), api.application, numthreads=8)
try:
    server.start()
finally:
    server.stop()
'''


_STATUS = {}


def glance_status(venv=VENV):
    """(True, venv) or (False, why Glance cannot be run from ``venv``);
    checked once per process."""
    if venv not in _STATUS:
        _STATUS[venv] = _check_venv(venv)
    return _STATUS[venv]


def _missing(venv):
    """None, or why the Glance tests cannot run (their skip message, or
    failure under CI=true)."""
    ok, detail = glance_status(venv)
    if ok:
        return None
    message = ('Glance is not installed (%s): run tools/install-glance.sh'
               % detail)
    if base.CI:
        message = ('CI=true and the Glance the functional tests need is '
                   'missing: ' + message)
    return message


def require_glance(test, venv=None):
    """Skip ``test`` (fail it when CI=true) unless Glance can be run
    from ``venv`` (default :data:`VENV`)."""
    message = _missing(venv or VENV)
    if message:
        if base.CI:
            test.fail(message)
        test.skipTest(message)


def _check_venv(venv):
    python = os.path.join(venv, 'bin', 'python')
    if not os.path.exists(python):
        return False, 'no virtualenv at %s' % venv
    for path in (os.path.join(venv, 'bin', 'glance-manage'),
                 os.path.join(venv, 'etc', 'glance',
                              'glance-api-paste.ini')):
        if not os.path.exists(path):
            return False, '%s is missing' % path
    try:
        proc = subprocess.run(
            [python, '-c', 'import cheroot.wsgi, glance.wsgi'],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, timeout=MANAGE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, 'importing glance in %s took too long' % venv
    if proc.returncode:
        output = proc.stdout.decode('utf-8', 'replace').strip()
        return False, 'glance or cheroot cannot be imported in %s: %s' % (
            venv, output.splitlines()[-1] if output else proc.returncode)
    return True, venv


class GlanceServer(fixtures.Fixture):
    """A Glance v2 API on 127.0.0.1 with no authentication.

    After setUp: ``endpoint`` (``http://127.0.0.1:<port>``), ``process``
    (the :class:`base.ServiceProcess`, whose log the test can watch) and
    :meth:`upload`.
    """

    def __init__(self, venv=None):
        super().__init__()
        self.venv = venv or VENV
        self.port = base.free_port()
        self.endpoint = 'http://127.0.0.1:%d' % self.port
        self.process = None

    # -- set up ------------------------------------------------------------

    def setUp(self):
        # Before the fixture's own set up, which would wrap the skip in a
        # MultipleExceptions (an error, not a skip, for the test).
        message = _missing(self.venv)
        if message:
            if base.CI:
                raise AssertionError(message)
            raise testtools.TestCase.skipException(message)
        super().setUp()

    def _setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='ironic-like-ft-glance-')
        if not base.KEEP_TEMP:
            self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.config_file = self._write_config()
        self._db_sync()
        self._start_server()

    def _write_config(self):
        dirs = {}
        for name in ('images', 'staging', 'tasks', 'locks'):
            dirs[name] = os.path.join(self.tmp, name)
            os.mkdir(dirs[name])
        paste = os.path.join(self.tmp, 'glance-api-paste.ini')
        shutil.copy(os.path.join(self.venv, 'etc', 'glance',
                                 'glance-api-paste.ini'), paste)
        return base.write_config(os.path.join(self.tmp, 'glance-api.conf'), {
            'DEFAULT': {'debug': 'false',
                        'enabled_backends': 'local:file'},
            'database': {'connection': 'sqlite:///%s'
                         % os.path.join(self.tmp, 'glance.sqlite')},
            'glance_store': {'default_backend': 'local'},
            'local': {'filesystem_store_datadir': dirs['images']},
            'os_glance_staging_store': {
                'filesystem_store_datadir': dirs['staging']},
            'os_glance_tasks_store': {
                'filesystem_store_datadir': dirs['tasks']},
            # No flavor: the "default" pipeline, which has no keystone
            # (authtoken) and gives every request an admin context.
            'paste_deploy': {'config_file': paste},
            # That context has no roles: Glance's new (role-based) policy
            # defaults would answer 403 to everything.
            'oslo_policy': {'enforce_new_defaults': 'false',
                            'enforce_scope': 'false'},
            'oslo_concurrency': {'lock_path': dirs['locks']},
        })

    def _env(self):
        return {'OS_GLANCE_CONFIG_DIR': self.tmp,
                'IRONIC_LIKE_FT_GLANCE_PORT': str(self.port),
                'PYTHONWARNINGS': 'ignore'}

    def _db_sync(self):
        argv = [os.path.join(self.venv, 'bin', 'glance-manage'),
                '--config-file', self.config_file, 'db_sync']
        try:
            proc = subprocess.run(
                argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, timeout=MANAGE_TIMEOUT,
                env=dict(os.environ, **self._env()))
        except subprocess.TimeoutExpired:
            raise AssertionError('glance-manage db_sync did not finish in '
                                 '%s s' % MANAGE_TIMEOUT)
        if proc.returncode:
            raise AssertionError('glance-manage db_sync failed (%s):\n%s'
                                 % (proc.returncode,
                                    proc.stdout.decode('utf-8', 'replace')))

    def _start_server(self):
        self.process = base.ServiceProcess(
            'glance-api',
            [os.path.join(self.venv, 'bin', 'python'), '-c', _SERVE],
            self.tmp, env=self._env())
        self.useFixture(self.process)

        def ready():
            self.process.check_running()
            resp = requests.get(self.endpoint + '/v2/images', timeout=5)
            if resp.status_code != 200:
                # Kept by wait_for as the last error, shown on timeout.
                raise AssertionError('GET /v2/images answered %d: %s'
                                     % (resp.status_code, resp.text[:500]))
            return True

        try:
            base.wait_for(ready, timeout=START_TIMEOUT,
                          message='Glance answering GET /v2/images on %s'
                          % self.endpoint)
        except Exception:
            self.addDetail('glance-api.log', content.text_content(
                self.process.log_text(20000)))
            raise

    # -- images --------------------------------------------------------------

    def _check(self, resp, expected, what):
        if resp.status_code != expected:
            raise AssertionError('Glance: %s answered %d (expected %d): %s'
                                 % (what, resp.status_code, expected,
                                    resp.text[:2000]))
        return resp

    def create(self, name, properties=None, **attrs):
        """POST /v2/images; ``properties`` and ``attrs`` (e.g.
        ``os_hidden=True``) are top-level keys. Returns the image (dict),
        ``queued``."""
        body = {'name': name, 'disk_format': 'raw',
                'container_format': 'bare'}
        body.update(attrs)
        body.update(properties or {})
        resp = requests.post(self.endpoint + '/v2/images', json=body,
                             timeout=HTTP_TIMEOUT)
        return self._check(resp, 201, 'POST /v2/images').json()

    def upload(self, name, data, properties=None, **attrs):
        """Create an image and PUT its data; returns its id (``active``)."""
        image_id = self.create(name, properties, **attrs)['id']
        path = '/v2/images/%s/file' % image_id
        resp = requests.put(
            self.endpoint + path, data=data, timeout=HTTP_TIMEOUT,
            headers={'Content-Type': 'application/octet-stream'})
        self._check(resp, 204, 'PUT ' + path)
        return image_id

    def image(self, image_id):
        """GET /v2/images/{id} (dict)."""
        path = '/v2/images/%s' % image_id
        resp = requests.get(self.endpoint + path, timeout=HTTP_TIMEOUT)
        return self._check(resp, 200, 'GET ' + path).json()

    def deactivate(self, image_id):
        path = '/v2/images/%s/actions/deactivate' % image_id
        resp = requests.post(self.endpoint + path, timeout=HTTP_TIMEOUT)
        self._check(resp, 204, 'POST ' + path)
