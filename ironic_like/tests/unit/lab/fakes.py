"""Hermetic helpers: a tiny fake bare-metal API and an image server."""

import functools
import json
import os
import subprocess
import threading
import time
import uuid
from http import server as http_server
from urllib import parse


class _Quiet(object):
    def log_message(self, fmt, *args):
        pass


class _Server(http_server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 1024


class JSONReplies(object):
    """Mixed into a request handler: read a JSON body, answer with one."""

    def _json_body(self):
        """The request's JSON body, or None when it has none."""
        length = int(self.headers.get('Content-Length') or 0)
        raw = self.rfile.read(length) if length else b''
        return json.loads(raw) if raw else None

    def _reply(self, status, body=None):
        data = json.dumps(body).encode() if body is not None else b''
        self.send_response(status)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class BackgroundServer(object):
    """An HTTP server on a loopback port, served by a thread of its own
    between start() and stop()."""

    def serve(self, handler):
        self.httpd = _Server(('127.0.0.1', 0), handler)
        self.url = 'http://127.0.0.1:%d' % self.httpd.server_address[1]
        self._thread = threading.Thread(target=self.httpd.serve_forever,
                                        kwargs={'poll_interval': 0.1},
                                        daemon=True)

    def start(self):
        self._thread.start()
        return self

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(5)


class FakeAPI(BackgroundServer):
    """Answers lookup (both forms) and heartbeat, records every call.

    ``nodes`` maps MAC -> node UUID; ``not_ready[uuid] = n`` makes the next
    n lookups of that node answer 404 (node not waiting for an agent).
    """

    def __init__(self, heartbeat_timeout=600, heartbeat_status=202):
        self.nodes = {}
        self.not_ready = {}
        self.tokens = {}
        self.heartbeat_timeout = heartbeat_timeout
        self.heartbeat_status = heartbeat_status
        self.mask_tokens = False
        self.lookups = []
        self.heartbeats = []
        self.lock = threading.Lock()
        api = self

        class Handler(_Quiet, JSONReplies,
                      http_server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'

            def do_GET(self):
                url = parse.urlsplit(self.path)
                query = dict(parse.parse_qsl(url.query))
                if url.path != '/v1/lookup':
                    return self._reply(404, {'error': 'no route'})
                macs = query.get('addresses', '').split(',')
                status, body = api.lookup(macs, query.get('node_uuid'),
                                          dict(self.headers))
                self._reply(status, body)

            def do_POST(self):
                url = parse.urlsplit(self.path)
                length = int(self.headers.get('Content-Length') or 0)
                body = json.loads(self.rfile.read(length) or b'{}')
                parts = url.path.strip('/').split('/')
                if url.path == '/v1/drivers/agent/vendor_passthru/lookup':
                    macs = [i['mac_address'] for i in
                            body.get('inventory', {}).get('interfaces', [])]
                    with api.lock:
                        api.passthru_bodies.append(body)
                    status, doc = api.lookup(macs, None, dict(self.headers))
                    if status == 200:
                        doc = {'heartbeat_timeout':
                               doc['config']['heartbeat_timeout'],
                               'node': doc['node']}
                    return self._reply(status, doc)
                if len(parts) == 3 and parts[:2] == ['v1', 'heartbeat']:
                    return self._reply(*api.heartbeat(parts[2], body))
                if (len(parts) == 5 and parts[:2] == ['v1', 'nodes']
                        and parts[3:] == ['vendor_passthru', 'heartbeat']):
                    return self._reply(*api.heartbeat(parts[2], body))
                self._reply(404, {'error': 'no route'})

        self.passthru_bodies = []
        self.serve(Handler)

    def add_node(self, macs, node_uuid=None, not_ready=0):
        node_uuid = node_uuid or str(uuid.uuid4())
        with self.lock:
            for mac in macs:
                self.nodes[mac.lower()] = node_uuid
            if not_ready:
                self.not_ready[node_uuid] = not_ready
        return node_uuid

    def lookup(self, macs, node_uuid, headers):
        with self.lock:
            self.lookups.append({'macs': macs, 'node_uuid': node_uuid,
                                 'headers': headers})
            found = None
            for mac in macs:
                if mac.lower() in self.nodes:
                    found = self.nodes[mac.lower()]
                    break
            if found is None or (node_uuid and node_uuid != found):
                return 404, {'error': 'no node'}
            if self.not_ready.get(found):
                self.not_ready[found] -= 1
                return 404, {'error': 'not waiting for an agent'}
            token = self.tokens.setdefault(found, uuid.uuid4().hex)
            if self.mask_tokens:
                token = '******'
            return 200, {'node': {'uuid': found},
                         'config': {'heartbeat_timeout':
                                    self.heartbeat_timeout,
                                    'agent_token': token}}

    def heartbeat(self, node_uuid, body):
        with self.lock:
            self.heartbeats.append({'node': node_uuid, 'body': body,
                                    'at': time.monotonic()})
            return self.heartbeat_status, None

    def heartbeats_of(self, node_uuid):
        with self.lock:
            return [h for h in self.heartbeats if h['node'] == node_uuid]


class ImageServer(BackgroundServer):
    """Serves the files of one directory over HTTP on loopback."""

    def __init__(self, directory):
        handler = functools.partial(_QuietFiles, directory=directory)
        self.directory = directory
        self.serve(handler)

    def add(self, name, data):
        with open(os.path.join(self.directory, name), 'wb') as f:
            f.write(data)
        return '%s/%s' % (self.url, name)


class _QuietFiles(_Quiet, http_server.SimpleHTTPRequestHandler):
    pass


class RecordingServer(BackgroundServer):
    """Records every request (method, path, headers, JSON or raw body) and
    answers the next status of ``statuses`` (then ``default_status``)."""

    def __init__(self, default_status=204):
        self.requests = []
        self.statuses = []
        self.default_status = default_status
        self.lock = threading.Lock()
        recorder = self

        class Handler(_Quiet, http_server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'

            def _record(self):
                length = int(self.headers.get('Content-Length') or 0)
                raw = self.rfile.read(length) if length else b''
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw
                with recorder.lock:
                    recorder.requests.append({
                        'method': self.command, 'path': self.path,
                        'headers': dict(self.headers), 'body': body,
                        'at': time.monotonic()})
                    status = (recorder.statuses.pop(0) if recorder.statuses
                              else recorder.default_status)
                self.send_response(status)
                self.send_header('Content-Length', '0')
                self.end_headers()

            do_GET = do_POST = do_PUT = do_PATCH = _record

        self.serve(Handler)

    def received(self, method=None):
        with self.lock:
            return [r for r in self.requests
                    if method is None or r['method'] == method]


def spawn(test, argv, stderr=subprocess.DEVNULL):
    """Start ``argv``; stopped (terminate, then kill) at the test's end."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=stderr)

    def stop():
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        if proc.stderr is not None:
            proc.stderr.close()
    test.addCleanup(stop)
    return proc
