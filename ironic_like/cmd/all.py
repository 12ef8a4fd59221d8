"""ironic-like-all: API and one conductor in one process (embedded mode).

Defaults suit a laptop or a lab: SQLite, oslo.messaging's in-process
fake:// transport (the same RPC client code as the clustered mode), no
authentication, API on 127.0.0.1:6385. The schema is upgraded on start.
"""

import sys
import threading

from oslo_config import cfg
from oslo_log import log

from ironic_like.cmd import conductor as conductor_cmd
from ironic_like.cmd import demo_fleet
from ironic_like.common import rpc
from ironic_like.common import service as common_service
from ironic_like.common import wsgi_server
from ironic_like.conductor import service
from ironic_like.conf import CONF
from ironic_like.db import migration

LOG = log.getLogger(__name__)

cli_opts = [
    cfg.IntOpt('demo-nodes', default=0, min=0,
               help='Enrol this many simulated (fake-hardware) nodes on '
                    'start if the database has no nodes yet.'),
]


def main():
    CONF.register_cli_opts(cli_opts)
    rpc.register_opts(CONF)
    CONF.set_default('transport_url', rpc.EMBEDDED_TRANSPORT_URL)
    CONF.set_default('host_ip', '127.0.0.1', group='api')
    common_service.prepare_service(sys.argv[1:])
    common_service.exit_if_noauth_exposed('ironic-like-all')
    migration.upgrade()
    rpc.init()
    conductor = service.ConductorService()
    conductor.start()
    if CONF.demo_nodes:
        demo_fleet.enrol(CONF.demo_nodes)

    from ironic_like.api import app
    server = wsgi_server.make_server(app.setup_app, CONF.api.host_ip,
                                     CONF.api.port,
                                     CONF.api.threads_per_worker)
    thread = threading.Thread(target=server.start, name='api',
                              daemon=True)
    thread.start()
    LOG.info('ironic-like-all: API on http://%s:%s/ (auth: %s)',
             CONF.api.host_ip, CONF.api.port, CONF.auth_strategy)

    def _stop():
        server.stop()
        conductor.stop()

    conductor_cmd.run_until_signalled(_stop)
    rpc.cleanup()


if __name__ == '__main__':
    sys.exit(main())
