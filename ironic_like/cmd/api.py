"""ironic-like-api: the REST API, in [api]api_workers processes."""

import os
import sys

from ironic_like.common import service
from ironic_like.common import wsgi_server
from ironic_like.conf import CONF


def default_workers():
    return min(os.cpu_count() or 1, 4)


def _app_factory():
    # Imported late: each worker builds its app (and its RPC transport)
    # after the fork.
    from ironic_like.api import app
    return app.setup_app()


def main():
    service.prepare_service(sys.argv[1:])
    service.exit_if_noauth_exposed('ironic-like-api')
    workers = CONF.api.api_workers or default_workers()
    host, port = CONF.api.host_ip, CONF.api.port
    threads = CONF.api.threads_per_worker
    if workers == 1:
        wsgi_server.serve_one(_app_factory, host, port, threads)
    else:
        wsgi_server.Supervisor(_app_factory, host, port, workers,
                               threads).run()
