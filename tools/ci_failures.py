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

_RESULT = re.compile(r'^(?:\{\d+\} )?(\S+) \[[0-9.]+s\] \.\.\. (\w+)$')
# testtools names a test's first traceback "traceback", further ones (a
# cleanup that failed too) "traceback-1" and so on.
_TITLE = re.compile(r'^Captured traceback(?:-\d+)?:$')


def tracebacks(lines):
    """Yield (test id, traceback lines) for each failed test in order."""
    current = None
    index = 0
    while index < len(lines):
        line = lines[index].rstrip('\n')
        match = _RESULT.match(line)
        if match:
            current = match.group(1) if match.group(2) == 'FAILED' else None
        elif line.startswith('====='):
            # stestr's closing summary: its repeats are not attributed.
            current = None
        elif current and _TITLE.match(line):
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
            continue
        index += 1


def main(paths):
    seen = set()
    printed = set()
    for path in paths:
        try:
            with open(path, errors='replace') as f:
                lines = f.readlines()
        except OSError:
            continue
        for test, body in tracebacks(lines):
            if (test not in seen and len(seen) >= MAX_TESTS
                    or (test, tuple(body)) in printed):
                continue
            printed.add((test, tuple(body)))
            if test not in seen:
                seen.add(test)
                print('-- %s' % test)
            for text in body[-MAX_LINES:]:
                print('   ' + text[:MAX_WIDTH])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
