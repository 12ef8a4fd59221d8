"""A conductor process whose allocations are slowed down, for tests and
benchmarks that must kill a conductor while its allocations are still in
progress.

    python -m ironic_like.tests.functional.delayed_conductor \\
        --allocation-delay SECONDS --config-file ...

The delay is a test harness concern, so it lives here and not among the
service's options: the first task of every allocation batch sleeps for
SECONDS before it looks for candidates. Everything else is the ordinary
``ironic-like-conductor``.
"""

import argparse
import functools
import sys
import time

from ironic_like.cmd import conductor
from ironic_like.conductor.flows import allocation


def delay_allocations(seconds):
    """Make FindCandidates sleep ``seconds`` before it runs."""
    execute = allocation.FindCandidates.execute

    @functools.wraps(execute)
    def slow_execute(self, *args, **kwargs):
        time.sleep(seconds)
        return execute(self, *args, **kwargs)

    allocation.FindCandidates.execute = slow_execute


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument('--allocation-delay', type=float, required=True)
    args, rest = parser.parse_known_args(argv)
    delay_allocations(args.allocation_delay)
    # The conductor parses sys.argv (oslo.config) itself.
    sys.argv = [sys.argv[0]] + rest
    return conductor.main()


if __name__ == '__main__':
    sys.exit(main())
