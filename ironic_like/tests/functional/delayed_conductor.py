"""A conductor process whose work is slowed down, for tests and
benchmarks that must kill a conductor while its work is in progress.

    python -m ironic_like.tests.functional.delayed_conductor \\
        [--allocation-delay SECONDS] [--power-delay SECONDS] \\
        --config-file ...

The delays are a test harness concern, so they live here and not among
the service's options: with --allocation-delay the first task of every
allocation batch sleeps before it looks for candidates; with
--power-delay every power change of the fake power interface sleeps
before it acts. Everything else is the ordinary ``ironic-like-conductor``.
"""

import argparse
import functools
import sys
import time

from ironic_like.cmd import conductor
from ironic_like.conductor.flows import allocation
from ironic_like.drivers.modules import fake


def _slow_down(cls, method, seconds):
    action = getattr(cls, method)

    @functools.wraps(action)
    def slow(self, *args, **kwargs):
        time.sleep(seconds)
        return action(self, *args, **kwargs)

    setattr(cls, method, slow)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument('--allocation-delay', type=float, default=0)
    parser.add_argument('--power-delay', type=float, default=0)
    args, rest = parser.parse_known_args(argv)
    if args.allocation_delay:
        _slow_down(allocation.FindCandidates, 'execute',
                   args.allocation_delay)
    if args.power_delay:
        for method in ('set_power_state', 'reboot'):
            _slow_down(fake.FakePower, method, args.power_delay)
    # The conductor parses sys.argv (oslo.config) itself.
    sys.argv = [sys.argv[0]] + rest
    return conductor.main()


if __name__ == '__main__':
    sys.exit(main())
