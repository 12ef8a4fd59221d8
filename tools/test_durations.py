"""How long each long test took, for stestr to balance its workers.

stestr splits the tests among its workers by the durations its
repository (.stestr) recorded in earlier runs; a fresh clone (CI) has
none, so the tests go round robin and one worker can end minutes after
the other. tools/test_durations.json keeps the durations of the tests
that take a while (measured in a CI run); .ci/run loads them into the
repository before running the tests, so the first run is balanced too.
The durations only order the work: every test runs whatever the file
says, and a test not in it is scheduled round robin, as before.

    python tools/test_durations.py record LOG... > tools/test_durations.json
        the durations stestr printed ("{0} test.id [1.23s] ... ok") in
        the logs of a run, those of MIN_SECONDS or more;
    python tools/test_durations.py stream | stestr load --force-init
        the recorded durations as a subunit stream of passed tests.
"""

import datetime
import json
import os
import re
import sys

DURATIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         'test_durations.json')
# Shorter tests balance themselves (there are thousands of them).
MIN_SECONDS = 0.5
_LINE = re.compile(r'^\{\d+\} (?P<id>\S+) \[(?P<seconds>[0-9.]+)s\] '
                   r'\.\.\. (ok|FAILED)')


def record(paths):
    """{test id: seconds} of the tests of MIN_SECONDS or more in the
    stestr output files ``paths`` (the last duration of a test seen
    twice)."""
    found = {}
    for path in paths:
        with open(path, errors='replace') as f:
            for line in f:
                match = _LINE.match(line)
                if match:
                    found[match.group('id')] = float(match.group('seconds'))
    # (The tempest plugin's tests run in tempest's own workspace and
    # repository: not loaded here.)
    return {test_id: round(seconds, 1)
            for test_id, seconds in sorted(found.items())
            if seconds >= MIN_SECONDS and '.tests.tempest.' not in test_id}


def stream(durations, out):
    """Write ``durations`` to ``out`` (bytes) as a subunit v2 stream of
    tests that passed in that time, one after another."""
    import subunit

    result = subunit.StreamResultToBytes(out)
    result.startTestRun()
    clock = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    for test_id, seconds in sorted(durations.items()):
        result.status(test_id=test_id, test_status='inprogress',
                      timestamp=clock)
        clock += datetime.timedelta(seconds=seconds)
        result.status(test_id=test_id, test_status='success',
                      timestamp=clock)
    result.stopTestRun()


def main(argv):
    if argv[:1] == ['record'] and argv[1:]:
        json.dump(record(argv[1:]), sys.stdout, indent=0, sort_keys=True)
        sys.stdout.write('\n')
        return 0
    if argv == ['stream']:
        with open(DURATIONS) as f:
            stream(json.load(f), sys.stdout.buffer)
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
