"""``ironic-like-host-agent``: the host agent's command line."""

import argparse
import logging
import signal
import sys
import threading

from ironic_like_hostagent import AGENT_VERSION
from ironic_like_hostagent import agent


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        prog='ironic-like-host-agent',
        description='Apply the host OS configuration the bare-metal '
                    'service assigns to this host.')
    parser.add_argument('--api-url', required=True,
                        help='the service, e.g. http://10.0.0.2:6385')
    parser.add_argument('--node', required=True,
                        help="this host's node UUID")
    parser.add_argument('--root', default='/',
                        help='the host root: module paths, playbooks and '
                             'the state file live under it (default /)')
    parser.add_argument('--ansible-playbook', default=None,
                        help="ansible-playbook binary (default: the item's "
                             'ansible parameter)')
    parser.add_argument('--python', default=None,
                        help='ansible_python_interpreter (default: this '
                             'Python, %s)' % sys.executable)
    parser.add_argument('--interval-override', type=float, default=None,
                        help='seconds between heartbeats, instead of the '
                             "service's heartbeat_interval")
    parser.add_argument('--once', action='store_true',
                        help='one pass (heartbeat, run, report), then exit')
    parser.add_argument('--log-level', default='INFO',
                        choices=['DEBUG', 'INFO', 'WARNING', 'ERROR'])
    parser.add_argument('--version', action='version',
                        version='%(prog)s ' + AGENT_VERSION)
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    logging.basicConfig(
        level=args.log_level,
        format='%(asctime)s %(levelname)s %(name)s: %(message)s')
    host_agent = agent.HostAgent(
        args.api_url, args.node, root=args.root,
        ansible_playbook=args.ansible_playbook, python=args.python)
    host_agent.interval_override = args.interval_override
    if args.once:
        host_agent.run_once()
        # Non-zero when the service was not reached or an item failed, so
        # a script (or a test) sees it.
        return 0 if host_agent.heartbeats and not host_agent.failures \
            else 1
    stop = threading.Event()

    def _stop(signum, frame):
        logging.getLogger(__name__).info('Signal %d: stopping', signum)
        stop.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    host_agent.run_forever(stop)
    return 0


if __name__ == '__main__':
    sys.exit(main())
