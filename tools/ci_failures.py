"""Print the end of each failed test's traceback from stestr logs.

.ci/run names the failed tests last, where a reader of the run's tail
(often all a CI system keeps) sees them; the cause was printed much
earlier, among thousands of lines. This prints, for each failed test,
the last lines of its "Captured traceback" attachment, lines cut short,
so the tail says why as well as what.

Usage: python tools/ci_failures.py LOG [LOG ...]
"""

import re
import sys

MAX_TESTS = 5
MAX_LINES = 25
MAX_WIDTH = 1000

_FAILED = re.compile(r'^(?:\{\d+\} )?(\S+) \[[0-9.]+s\] \.\.\. FAILED$')
_TITLE = 'Captured traceback:'


def tracebacks(lines):
    """Yield (test id, traceback lines) for each failed test in order."""
    current = None
    index = 0
    while index < len(lines):
        line = lines[index].rstrip('\n')
        match = _FAILED.match(line)
        if match:
            current = match.group(1)
        elif line == _TITLE and current:
            body = []
            index += 2  # the title's underline
            while index < len(lines):
                text = lines[index].rstrip('\n')
                if text and not text.startswith('    '):
                    break
                body.append(text[4:])
                index += 1
            while body and not body[-1].strip():
                body.pop()
            yield current, body
            current = None
            continue
        index += 1


def main(paths):
    seen = set()
    for path in paths:
        try:
            with open(path, errors='replace') as f:
                lines = f.readlines()
        except OSError:
            continue
        for test, body in tracebacks(lines):
            if test in seen or len(seen) >= MAX_TESTS:
                continue
            seen.add(test)
            print('-- %s' % test)
            for text in body[-MAX_LINES:]:
                print('   ' + text[:MAX_WIDTH])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
