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

import os
import sys

# As the console script: the program is bin/openstack (its name is in
# usage lines and errors), and this file's directory (the functional
# tests) is not on the path to shadow a module of the CLI.
if sys.path and os.path.realpath(sys.path[0]) == os.path.dirname(
        os.path.realpath(__file__)):
    del sys.path[0]
PROG = os.path.join(os.path.dirname(sys.executable), 'openstack')
sys.argv[:] = [PROG]

import contextlib  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import traceback  # noqa: E402


def _exit_code(error):
    if error.code is None:
        return 0
    if isinstance(error.code, int):
        return error.code
    # sys.exit('message'): printed on stderr, exit code 1.
    print(error.code, file=sys.stderr)
    return 1


def _forget_previous_command():
    """What a new process would not have: the previous command's logging
    handlers, and the clients its ClientManager cached on the class (each
    plugin's client is a class attribute whose handle is kept, with the
    endpoint and API version it was made with)."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    from osc_lib import clientmanager
    from openstackclient.common import clientmanager as osc_clientmanager
    for cls in osc_clientmanager.ClientManager.__mro__:
        for attr in vars(cls).values():
            if isinstance(attr, clientmanager.ClientCache):
                attr._handle = None
    # python-ironicclient's plugin lowers this flag when a command names an
    # API version, and only its import sets it.
    ironic_plugin = sys.modules.get('ironicclient.osc.plugin')
    if ironic_plugin is not None:
        ironic_plugin.OS_BAREMETAL_API_LATEST = True


def run(argv):
    from openstackclient import shell
    _forget_previous_command()
    sys.argv[:] = [PROG] + list(argv)
    try:
        return shell.main(argv) or 0
    except SystemExit as e:
        return _exit_code(e)
    except Exception:
        traceback.print_exc()
        return 1


def main():
    # The protocol keeps its own descriptors; a command reads /dev/null as
    # its stdin (as the tests' executable did), and whatever writes to
    # descriptor 1 behind sys.stdout lands in the server's log, not amid
    # the replies.
    requests = os.fdopen(os.dup(0), 'r')
    replies = os.fdopen(os.dup(1), 'w')
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull)
    for line in requests:
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
