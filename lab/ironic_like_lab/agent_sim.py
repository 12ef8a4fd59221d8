"""ironic-like-agent-sim: many simulated deploy agents in one process.

Example::

    ironic-like-agent-sim --api-url http://127.0.0.1:6385 --port 9999 \\
        --state-dir /tmp/agents --fleet fleet.yaml

The fleet file (JSON or YAML) is a list of agents or
``{"api_url": ..., "defaults": {...}, "agents": [{"id": ..., "macs": [...],
"node_uuid": ..., "options": {"prepare_image_delay": 2}}]}``; agents can
also be declared later with ``POST /control/agents``.
"""

import argparse
import json
import logging
import signal
import sys

from ironic_like_lab import simulator


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog='ironic-like-agent-sim',
        description='Host many simulated ironic-python-agents.')
    parser.add_argument('--api-url', default='http://127.0.0.1:6385',
                        help='Base URL of the bare-metal API')
    parser.add_argument('--host', default='127.0.0.1')
    parser.add_argument('--port', type=int, default=9999)
    parser.add_argument('--public-host', default=None,
                        help='Host name put in the agents\' callback URLs '
                             '(default: --host)')
    parser.add_argument('--state-dir', default='./agent-sim-state',
                        help='Where the simulated disks are written')
    parser.add_argument('--fleet', default=None,
                        help='JSON/YAML file declaring the agents')
    parser.add_argument('--options', default=None,
                        help='JSON object of options (delays, failures) '
                             'applied to every agent of the fleet')
    parser.add_argument('--boot', action='store_true',
                        help='Boot every agent of the fleet at start')
    parser.add_argument('--boot-config-url', default=None,
                        metavar='TEMPLATE',
                        help='URL of the boot configuration (iPXE script) '
                             'a network-booting agent reads its API URL, '
                             'node UUID and agent token from; {mac} is its '
                             'first MAC, e.g. '
                             'http://127.0.0.1:8088/macs/{mac}.ipxe')
    parser.add_argument('--io-workers', type=int, default=8,
                        help='Threads for lookups and heartbeats')
    parser.add_argument('--command-workers', type=int, default=8,
                        help='Threads running agent commands')
    parser.add_argument('--debug', action='store_true')
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(
        level=logging.DEBUG if args.debug else logging.INFO,
        format='%(asctime)s %(levelname)s %(name)s %(message)s')
    sim = simulator.Simulator(
        api_url=args.api_url, host=args.host, port=args.port,
        state_dir=args.state_dir, io_workers=args.io_workers,
        command_workers=args.command_workers, public_host=args.public_host,
        boot_config_url=args.boot_config_url)
    if args.fleet:
        with open(args.fleet) as f:
            import yaml
            doc = yaml.safe_load(f) or {}
        if args.options:
            extra = json.loads(args.options)
            doc = {'agents': doc} if isinstance(doc, list) else doc
            defaults = dict(doc.get('defaults') or {})
            defaults['options'] = dict(defaults.get('options') or {},
                                       **extra)
            doc['defaults'] = defaults
        agents = sim.load_fleet_doc(doc)
        logging.getLogger(__name__).info('Declared %d agents', len(agents))
        if args.boot:
            for agent in agents:
                agent.boot()

    def _stop(signum, frame):
        raise KeyboardInterrupt()

    signal.signal(signal.SIGTERM, _stop)
    try:
        sim.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        sim.stop()
    return 0


if __name__ == '__main__':
    sys.exit(main())
