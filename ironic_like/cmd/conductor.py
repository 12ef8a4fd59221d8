"""ironic-like-conductor: one conductor process."""

import signal
import sys
import threading

from oslo_log import log

from ironic_like.common import rpc
from ironic_like.common import service as common_service
from ironic_like.conductor import service

LOG = log.getLogger(__name__)


def run_until_signalled(stop_callback):
    """Block until SIGTERM or SIGINT, then call ``stop_callback``."""
    stopping = threading.Event()

    def _handler(signum, frame):
        LOG.info('Received signal %s, shutting down', signum)
        stopping.set()

    signal.signal(signal.SIGTERM, _handler)
    signal.signal(signal.SIGINT, _handler)
    while not stopping.wait(1):
        pass
    stop_callback()


def main():
    common_service.prepare_service(sys.argv[1:])
    rpc.init()
    conductor = service.ConductorService()
    conductor.start()
    run_until_signalled(conductor.stop)
    rpc.cleanup()
