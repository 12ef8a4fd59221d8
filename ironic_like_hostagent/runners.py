"""The two runners of host OS items: ``downloader`` and ``ansible``.

Each answers a :class:`Result`; neither raises for a failure of the item
itself (a bad archive, a failing playbook): that is an exit code and an
output for the service to show.
"""

import collections
import hashlib
import http.client
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request

from ironic_like_hostagent import AGENT_VERSION
from ironic_like_hostagent import state

LOG = logging.getLogger(__name__)

# What the service keeps of an item's output (doc/hostos.md: 4 KiB).
OUTPUT_LIMIT = 4096
DOWNLOAD_TIMEOUT = 60.0
ANSIBLE_TIMEOUT = 1800.0
CHUNK = 1024 * 1024
# Where the cached archive's hash is written, inside the module directory.
SHA_FILE = '.sha256'
# The exit codes of timeout(1) and of a shell not finding a command.
EXIT_TIMEOUT = 124
EXIT_NOT_FOUND = 127
# How often a running playbook looks whether the agent is stopping.
POLL = 0.5

Result = collections.namedtuple('Result', 'exit_code output downloaded')


class RunnerError(Exception):
    """The item failed; the message is its output."""


class Stopped(Exception):
    """The agent is stopping: the run was killed and has no result (as
    when the host powers off in the middle of it)."""


def tail(data, limit=OUTPUT_LIMIT):
    """The last ``limit`` bytes of ``data`` as text, never cutting a UTF-8
    character in two (a partial one at the cut is dropped)."""
    if isinstance(data, str):
        data = data.encode('utf-8', 'replace')
    return (data or b'')[-limit:].decode('utf-8', 'ignore')


def host_path(root, path):
    """``path`` (absolute on the host) under the agent's root.

    The root lets many simulated hosts share one machine; on a real host
    it is ``/``. A ``..`` could leave the root, so it is refused.
    """
    if not isinstance(path, str) or not path.startswith('/'):
        raise RunnerError('expected an absolute path, got %r' % (path,))
    if '..' in path.split('/'):
        raise RunnerError('refusing path with "..": %s' % path)
    return os.path.join(root, path.lstrip('/'))


def temp_dir(root):
    """The agent's scratch space (Ansible's temp dirs, HOME, run files)."""
    path = os.path.join(state.agent_dir(root), 'tmp')
    os.makedirs(path, mode=0o700, exist_ok=True)
    return path


# ------------------------------------------------------------ downloader
def download(params, root, opener=None, timeout=DOWNLOAD_TIMEOUT):
    """Fetch the module archive, check its sha256, unpack it at ``path``.

    A directory already unpacked from an archive of that sha256 is kept:
    two configurations using one module version download it once.
    """
    try:
        url = params['url']
        want = str(params['sha256']).lower()
        path = host_path(root, params['path']).rstrip('/')
    except (KeyError, TypeError) as exc:
        return Result(1, 'the downloader needs url, sha256 and path '
                      '(missing %s)' % exc, False)
    except RunnerError as exc:
        return Result(1, str(exc), False)
    if _unpacked_sha(path) == want:
        return Result(0, 'module already unpacked in %s (sha256 %s)'
                      % (params['path'], want), False)
    parent = os.path.dirname(path)
    try:
        os.makedirs(parent, exist_ok=True)
        fd, archive = tempfile.mkstemp(dir=parent, prefix='.download-')
    except OSError as exc:
        return Result(1, 'cannot write to %s: %s' % (parent, exc), False)
    try:
        size, got = _fetch(url, fd, opener or urllib.request.build_opener(),
                           timeout)
        if got != want:
            raise RunnerError("hashes are not the same: got '%s' want '%s'"
                              % (got, want))
        _unpack(archive, path, want)
    except (RunnerError, OSError) as exc:
        return Result(1, tail(str(exc)), True)
    finally:
        _remove(archive)
    return Result(0, 'downloaded %s (%d bytes, sha256 %s) to %s'
                  % (url, size, want, params['path']), True)


def _unpacked_sha(path):
    try:
        with open(os.path.join(path, SHA_FILE)) as f:
            return f.read().strip().lower()
    except OSError:
        return None


def _fetch(url, fd, opener, timeout):
    """Stream ``url`` into ``fd``; answers (size, sha256)."""
    digest = hashlib.sha256()
    size = 0
    request = urllib.request.Request(url, headers={
        'User-Agent': 'ironic-like-host-agent/%s' % AGENT_VERSION})
    with os.fdopen(fd, 'wb') as out:
        try:
            with opener.open(request, timeout=timeout) as resp:
                while True:
                    chunk = resp.read(CHUNK)
                    if not chunk:
                        break
                    digest.update(chunk)
                    out.write(chunk)
                    size += len(chunk)
        except urllib.error.HTTPError as exc:
            reason = '%d %s' % (exc.code, exc.reason)
        except (urllib.error.URLError, http.client.HTTPException,
                OSError) as exc:
            reason = str(getattr(exc, 'reason', None) or exc) or \
                type(exc).__name__
        else:
            return size, digest.hexdigest()
    # MCC's text, as the service's own verification says it.
    raise RunnerError('failed to perform request to fetch the module '
                      'archive: Get "%s": %s' % (url, reason))


def _check_member(member):
    """Refuse what could write outside the module directory."""
    name = member.name
    if name.startswith('/') or '..' in name.split('/'):
        raise RunnerError('refusing archive member %r: absolute or '
                          'outside the module directory' % name)
    if member.issym() or member.islnk():
        target = member.linkname
        if target.startswith('/') or '..' in target.split('/'):
            raise RunnerError('refusing archive member %r: link to %r'
                              % (name, target))
    elif not (member.isfile() or member.isdir()):
        raise RunnerError('refusing archive member %r: not a file, '
                          'directory or link' % name)


def _unpack(archive, path, sha):
    """Unpack next to ``path``, then swap it in.

    The new tree is complete (with its .sha256) before it takes the name,
    so a crash never leaves a half-unpacked module that looks cached.
    """
    parent, base = os.path.split(path)
    new = tempfile.mkdtemp(dir=parent, prefix='.%s.new-' % base)
    try:
        try:
            with tarfile.open(archive, 'r:*') as tar:
                members = tar.getmembers()
                for member in members:
                    _check_member(member)
                if hasattr(tarfile, 'data_filter'):
                    tar.extractall(new, members, filter='data')
                else:  # Python without PEP 706: our checks above only
                    tar.extractall(new, members)
        except (tarfile.TarError, EOFError, OSError) as exc:
            raise RunnerError('invalid module archive: %s' % exc)
        with open(os.path.join(new, SHA_FILE), 'w') as f:
            f.write(sha + '\n')
        os.chmod(new, 0o755)  # mkdtemp's 0700 is not a module's mode
        old = None
        if os.path.lexists(path):
            old = new + '.old'
            os.rename(path, old)
        os.rename(new, path)
        if old is not None:
            _remove_tree(old)
    except BaseException:
        _remove_tree(new)
        raise


# --------------------------------------------------------------- ansible
def run_ansible(params, secret_values, root, ansible_playbook=None,
                python=None, stop_event=None):
    """``ansible-playbook -i localhost, -c local <playbook>``.

    Extra vars: ``values`` and ``host_os_root`` (the root without its
    trailing slash: '' on a real host, so ``{{ host_os_root }}/etc/x``
    names the file), and ``secret_values`` from a 0600 file that exists
    only during the run. ``stop_event`` set: the run is killed and
    :class:`Stopped` raised.
    """
    try:
        playbook = host_path(root, params.get('playbook'))
        values = params.get('values') or {}
        if isinstance(values, str):  # carried serialized (LCM params)
            values = json.loads(values)
        timeout = float(params.get('timeout') or ANSIBLE_TIMEOUT)
        scratch = temp_dir(root)
        workdir = tempfile.mkdtemp(dir=scratch, prefix='run-')
    except (RunnerError, ValueError, TypeError, OSError) as exc:
        return Result(1, tail(str(exc)), False)
    binary = ansible_playbook or params.get('ansible') or 'ansible-playbook'
    secret_file = None
    try:
        values_file = os.path.join(workdir, 'values.json')
        with open(values_file, 'w') as f:
            json.dump({'values': values,
                       'host_os_root': root.rstrip('/')}, f)
        cmd = [binary, '-i', 'localhost,', '-c', 'local', playbook,
               '-e', '@' + values_file,
               '-e', 'ansible_python_interpreter=%s' % (
                   python or sys.executable)]
        if isinstance(secret_values, dict):
            secret_file = os.path.join(workdir, 'secret.json')
            _write_private(secret_file, {'secret_values': secret_values})
            cmd += ['-e', '@' + secret_file]
        exit_code, output = _execute(cmd, _ansible_env(scratch), timeout,
                                     workdir, stop_event)
        return Result(exit_code, output, False)
    finally:
        if secret_file is not None:
            _remove(secret_file)
        _remove_tree(workdir)


def _write_private(path, doc):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, 'w') as f:
        json.dump(doc, f)


def _ansible_env(scratch):
    """Ansible's temp dirs and HOME under the root: simulated hosts
    sharing one machine (and one user) must not share them."""
    env = dict(os.environ)
    dirs = {}
    for key, sub in (('ANSIBLE_LOCAL_TEMP', 'local'),
                     ('ANSIBLE_REMOTE_TEMP', 'remote'), ('HOME', 'home')):
        dirs[key] = os.path.join(scratch, sub)
        os.makedirs(dirs[key], mode=0o700, exist_ok=True)
    env.update(dirs)
    env.update({'ANSIBLE_NOCOLOR': '1',
                'ANSIBLE_HOST_KEY_CHECKING': 'False',
                'ANSIBLE_RETRY_FILES_ENABLED': 'False'})
    return env


def _execute(cmd, env, timeout, cwd, stop_event=None):
    """Run ``cmd``; answers (exit code, output tail). Its own session, so
    a timeout (or a stop) kills ansible's workers too."""
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, env=env, cwd=cwd,
                                start_new_session=True)
    except OSError as exc:
        return EXIT_NOT_FOUND, tail('cannot run %s: %s' % (cmd[0], exc))
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        try:
            # Retrying communicate() after a timeout loses no output.
            output, _ = proc.communicate(timeout=max(0.01, min(left,
                                                               POLL)))
            return proc.returncode, tail(output)
        except subprocess.TimeoutExpired:
            pass
        if stop_event is not None and stop_event.is_set():
            _kill(proc)
            raise Stopped()
        if left <= 0:
            output = _kill(proc)
            return EXIT_TIMEOUT, tail((output or b'') + (
                '\ntimed out after %g s' % timeout).encode())


def _kill(proc):
    """Kill the process group; answers what it wrote."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    return proc.communicate()[0]


def _remove(path):
    try:
        os.unlink(path)
    except OSError:
        pass


def _remove_tree(path):
    shutil.rmtree(path, ignore_errors=True)
