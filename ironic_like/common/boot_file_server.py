"""A small read-only HTTP server for the network boot files.

It publishes [deploy]http_root (iPXE scripts, optionally the ramdisk
images) to booting machines when no real web server is set up: the
embedded service and labs. GET and HEAD only, files only (no directory
listings) and nothing outside the root.

It also runs on its own, as the one web server several conductors on a
host share (they cannot all bind the same port)::

    python -m ironic_like.common.boot_file_server --root DIR \
        --host 127.0.0.1 --port 8088
"""

import argparse
import logging
import os
import shutil
import signal
import sys
import threading
from http import server as http_server
from urllib import parse

from oslo_log import log

LOG = log.getLogger(__name__)

CHUNK = 1024 * 1024


def _content_type(path):
    # iPXE accepts any type for a script; text/plain keeps browsers and
    # curl readable. Everything else (kernels, initrds) is opaque.
    if path.endswith('.ipxe'):
        return 'text/plain; charset=utf-8'
    return 'application/octet-stream'


class _Handler(http_server.BaseHTTPRequestHandler):
    server_version = 'ironic-like-boot-files'
    protocol_version = 'HTTP/1.1'

    def log_message(self, fmt, *args):
        # Machines fetch files on every boot: keep it out of normal logs.
        LOG.debug('Boot file server: %s - %s', self.address_string(),
                  fmt % args)

    def _resolve(self):
        """The file the request names, or None."""
        url_path = parse.unquote(parse.urlsplit(self.path).path)
        parts = [p for p in url_path.split('/') if p]
        if '..' in parts or '\0' in url_path:
            return None
        root = self.server.root
        path = os.path.realpath(os.path.join(root, *parts))
        # A symbolic link may still lead out of the root.
        if os.path.commonpath([root, path]) != root:
            return None
        return path if os.path.isfile(path) else None

    def _not_found(self):
        body = b'Not Found\n'
        self.send_response(404)
        self.send_header('Content-Type', 'text/plain')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        if self.command != 'HEAD':
            self.wfile.write(body)

    def do_GET(self):
        path = self._resolve()
        if path is None:
            return self._not_found()
        try:
            f = open(path, 'rb')
        except OSError:
            # Removed between the check and the open (clean-up).
            return self._not_found()
        with f:
            self.send_response(200)
            self.send_header('Content-Type', _content_type(path))
            self.send_header('Content-Length',
                             str(os.fstat(f.fileno()).st_size))
            self.end_headers()
            if self.command != 'HEAD':
                shutil.copyfileobj(f, self.wfile, CHUNK)

    do_HEAD = do_GET

    def _not_allowed(self):
        # The request body is not read: do not parse it as a next request.
        self.close_connection = True
        self.send_response(405)
        self.send_header('Allow', 'GET, HEAD')
        self.send_header('Content-Length', '0')
        self.end_headers()

    do_POST = do_PUT = do_DELETE = do_PATCH = _not_allowed


class _Server(http_server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class BootFileServer(object):
    """Serve the files under ``root`` on ``host``:``port`` (0: any free
    port; ``.port`` tells which) from a daemon thread."""

    def __init__(self, root, host='127.0.0.1', port=0):
        self.root = os.path.realpath(root)
        self.host = host
        self.port = port
        self._httpd = None
        self._thread = None

    def start(self):
        os.makedirs(self.root, exist_ok=True)
        self._httpd = _Server((self.host, self.port), _Handler)
        self._httpd.root = self.root
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={'poll_interval': 0.5},
            name='boot-file-server', daemon=True)
        self._thread.start()
        LOG.info('Serving boot files from %s on %s:%d', self.root,
                 self.host, self.port)

    def stop(self):
        if self._httpd is None:
            return
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(5)
        self._httpd = self._thread = None


def main(argv=None):
    """Serve ``--root`` until SIGTERM or SIGINT."""
    parser = argparse.ArgumentParser(
        description='Serve network boot files (read only).')
    parser.add_argument('--root', required=True,
                        help='Directory to publish ([deploy]http_root)')
    parser.add_argument('--host', default='127.0.0.1')
    parser.add_argument('--port', type=int, default=8088,
                        help='0 picks a free port (printed at start)')
    parser.add_argument('--debug', action='store_true',
                        help='Log every request')
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(
        level=logging.DEBUG if args.debug else logging.INFO,
        format='%(asctime)s %(levelname)s %(name)s %(message)s')
    stop = threading.Event()

    def on_signal(signum, frame):
        stop.set()
    # Both end the process cleanly: the socket is closed before exit.
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    server = BootFileServer(args.root, args.host, args.port)
    server.start()
    # Whoever started us with --port 0 reads the port from here.
    print('Serving %s on http://%s:%d' % (server.root, server.host,
                                          server.port), flush=True)
    # A bounded wait, so that a signal is acted on within a second
    # whatever the platform does with interrupted waits.
    while not stop.wait(1):
        pass
    server.stop()
    return 0


if __name__ == '__main__':
    sys.exit(main())
