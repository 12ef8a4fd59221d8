"""A tiny stand-in for the service's host agent API, module archives and
a fake ``ansible-playbook``, all on loopback (shared with the lab's
tests)."""

import collections
import hashlib
import io
import json
import os
import sys
import tarfile
import threading
from http import server as http_server

SECRET = 's3cr3t-Value-8c1f'

# Records its call in <host_os_root>/ran.jsonl; values drive it:
# {"exit": n, "print": text, "repeat": n, "sleep": seconds}.
FAKE_ANSIBLE = '''#!%s
import json, os, stat, sys
args = sys.argv[1:]
extra, files = {}, []
for i, arg in enumerate(args):
    if arg != '-e':
        continue
    value = args[i + 1]
    if value.startswith('@'):
        path = value[1:]
        files.append({'path': path,
                      'mode': stat.S_IMODE(os.stat(path).st_mode)})
        with open(path) as f:
            extra.update(json.load(f))
    else:
        key, _, val = value.partition('=')
        extra[key] = val
values = extra.get('values') or {}
record = {'argv': sys.argv, 'files': files, 'values': values,
          'secret_keys': sorted(extra.get('secret_values') or {}),
          'secret_ok': (extra.get('secret_values') or {}).get('password'),
          'host_os_root': extra.get('host_os_root'),
          'python': extra.get('ansible_python_interpreter'),
          'env': {k: os.environ.get(k) for k in (
              'HOME', 'ANSIBLE_LOCAL_TEMP', 'ANSIBLE_REMOTE_TEMP',
              'ANSIBLE_NOCOLOR', 'ANSIBLE_HOST_KEY_CHECKING',
              'ANSIBLE_RETRY_FILES_ENABLED')}}
with open(os.path.join(extra['host_os_root'], 'ran.jsonl'), 'a') as f:
    f.write(json.dumps(record) + '\\n')
if values.get('sleep'):
    import time
    time.sleep(float(values['sleep']))
sys.stdout.write(values.get('print', 'PLAY RECAP ok=1') *
                 int(values.get('repeat', 1)))
sys.exit(int(values.get('exit', 0)))
'''

PLAYBOOK = b'''- hosts: localhost
  gather_facts: false
  tasks:
    - name: the directory
      ansible.builtin.file:
        path: "{{ host_os_root }}/etc"
        state: directory
    - name: the greeting
      ansible.builtin.copy:
        content: "{{ values.greeting }}"
        dest: "{{ host_os_root }}/etc/greeting"
'''


def build_archive(files):
    """A gzip tar of ``{name: bytes}``."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode='w:gz') as tar:
        for name, data in sorted(files.items()):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def module_archive(name='sample', version='1.0.0'):
    return build_archive({
        'metadata.yaml': ('name: %s\nversion: %s\nplaybook: main.yaml\n'
                          % (name, version)).encode(),
        'main.yaml': PLAYBOOK})


def write_fake_ansible(directory):
    path = os.path.join(directory, 'fake-ansible-playbook')
    with open(path, 'w') as f:
        f.write(FAKE_ANSIBLE % sys.executable)
    os.chmod(path, 0o755)
    return path


def spec_hash(item):
    """The service's spec hash (doc/hostos.md)."""
    doc = {k: item[k] for k in ('name', 'runner', 'phase', 'version',
                                'params')}
    return hashlib.sha256(json.dumps(doc, sort_keys=True,
                                     separators=(',', ':')).encode()
                          ).hexdigest()


def module_items(config, url, sha256, module='sample', version='1.0.0',
                 values=None, secret_values=None, ansible='ansible-playbook',
                 generation=1, hold=False):
    """The downloader and ansible items of one module config."""
    path = '/root/host-os-modules/%s-%s' % (module, version)
    common = {'phase': 'reconfigure', 'version': 'v1',
              'configuration': config, 'hold': hold}
    download = dict(common, runner='downloader', params={
        'url': url, 'sha256': sha256, 'path': path},
        name='host-os-download-%s-%s-%s-reconfigure' % (
            config, module, version))
    params = {'playbook': path + '/main.yaml', 'ansible': ansible,
              'values': values or {}, 'generation': generation}
    if secret_values:
        params['secret_values_digest'] = hashlib.sha256(json.dumps(
            secret_values, sort_keys=True).encode()).hexdigest()
    run = dict(common, runner='ansible', params=params,
               name='host-os-%s-%s-%s-reconfigure' % (config, module,
                                                      version))
    if secret_values:
        run['secret_values'] = dict(secret_values)
    for item in (download, run):
        item['hash'] = spec_hash(item)
    return [download, run]


class _Server(http_server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class FakeHostOSAPI(object):
    """``POST /v1/hostos/agents/heartbeat`` for any node, plus
    ``GET /archives/<name>``.

    Trust on first use per node, as the service: the first heartbeat
    without a token gets one; later ones must carry it (401 otherwise).
    ``items`` (None: hold) and ``hold`` are what every node gets;
    ``statuses`` are answered first, one per heartbeat (e.g. 500).
    """

    def __init__(self, heartbeat_interval=10, retry_interval=60):
        self.heartbeat_interval = heartbeat_interval
        self.retry_interval = retry_interval
        self.items = []
        self.hold = None
        self.tokens = {}
        self.statuses = []
        self.heartbeats = []
        self.archives = {}
        self.archive_requests = collections.Counter()
        self.lock = threading.Lock()
        api = self

        class Handler(http_server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'

            def log_message(self, fmt, *args):
                pass

            def _send(self, status, data, ctype='application/json'):
                self.send_response(status)
                self.send_header('Content-Type', ctype)
                self.send_header('Content-Length', str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                name = self.path.rsplit('/', 1)[-1]
                with api.lock:
                    api.archive_requests[name] += 1
                    data = api.archives.get(name)
                if not self.path.startswith('/archives/') or data is None:
                    return self._send(404, b'{"message": "no archive"}')
                self._send(200, data, 'application/gzip')

            def do_POST(self):
                length = int(self.headers.get('Content-Length') or 0)
                body = json.loads(self.rfile.read(length) or b'{}')
                if self.path != '/v1/hostos/agents/heartbeat':
                    return self._send(404, b'{}')
                status, doc = api.heartbeat(body)
                self._send(status, json.dumps(doc).encode())

        self.httpd = _Server(('127.0.0.1', 0), Handler)
        self.url = 'http://127.0.0.1:%d' % self.httpd.server_address[1]
        self._thread = threading.Thread(target=self.httpd.serve_forever,
                                        kwargs={'poll_interval': 0.05},
                                        daemon=True)

    def start(self):
        self._thread.start()
        return self

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(5)

    def add_archive(self, name, data):
        with self.lock:
            self.archives[name] = data
        return '%s/archives/%s' % (self.url, name), \
            hashlib.sha256(data).hexdigest()

    def heartbeat(self, body):
        with self.lock:
            self.heartbeats.append(json.loads(json.dumps(body)))
            if self.statuses:
                status = self.statuses.pop(0)
                return status, {'message': 'injected %s' % status}
            node = body.get('node')
            doc = {'heartbeat_interval': self.heartbeat_interval,
                   'retry_interval': self.retry_interval,
                   'modules_dir': '/root/host-os-modules',
                   'hold': self.hold,
                   'items': json.loads(json.dumps(self.items))
                   if self.items is not None else None}
            if node not in self.tokens:
                self.tokens[node] = doc['token'] = 'token-%s' % node
            elif body.get('token') != self.tokens[node]:
                return 401, {'message': 'invalid host agent token'}
            return 200, doc

    def heartbeats_of(self, node):
        with self.lock:
            return [h for h in self.heartbeats if h.get('node') == node]
