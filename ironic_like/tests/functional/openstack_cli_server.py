"""Runs ``openstack`` commands one after another in one interpreter.

The functional tests drive the real ``openstack`` CLI (python-
openstackclient's shell, with python-ironicclient's or our plugin's
commands) by the hundred. Started once per test with the Python of the
virtualenv that holds the CLI, this script runs each command as the
``openstack`` console script would (``openstackclient.shell.main(argv)``,
its exit code, its output), without paying the CLI's start-up (a second
or two of imports) each time.

Protocol: one JSON object per line on stdin, ``{"argv": [...], "env":
{...}, "cwd": "..."}``; one JSON object per line on stdout, ``{"code":
int, "out": str, "err": str}``. Each command gets the environment and
working directory it names, fresh output streams and no logging handler
left by the one before, as a new process would.

It runs under another virtualenv's Python: it imports nothing of
ironic_like.
"""

import contextlib
import io
import json
import logging
import os
import sys
import traceback


def _exit_code(error):
    if error.code is None:
        return 0
    if isinstance(error.code, int):
        return error.code
    # sys.exit('message'): printed on stderr, exit code 1.
    print(error.code, file=sys.stderr)
    return 1


def run(argv):
    from openstackclient import shell
    # What a new process would not have: the previous command's handlers.
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    try:
        return shell.main(argv) or 0
    except SystemExit as e:
        return _exit_code(e)
    except Exception:
        traceback.print_exc()
        return 1


def main():
    replies = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        os.environ.clear()
        os.environ.update(request['env'])
        os.chdir(request['cwd'])
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(err):
            code = run(request['argv'])
        replies.write(json.dumps({'code': code, 'out': out.getvalue(),
                                  'err': err.getvalue()}) + '\n')
        replies.flush()


if __name__ == '__main__':
    main()
