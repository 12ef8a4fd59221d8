#!/usr/bin/env python3
"""Run the ironic_like tempest plugin against a throw-away deployment.

Used by ``tox -e tempest`` and by ``.ci/run``. Everything runs on
loopback and is torn down at the end, also on failure, Ctrl-C or SIGTERM:

1. keystone (the PyPI package, on a MariaDB database), with the users of
   the functional tests (``ironic_like.tests.functional.keystone_fixture``);
2. a fresh MariaDB database, upgraded with ``ironic-like-dbsync``;
3. the lab parts the deploy scenario needs (``ironic_like_lab.lab.Lab``
   with ``api_url`` set: the Redfish emulator and the agent simulator, one
   machine) and a boot file server publishing the lab's ``http_root``,
   which is also the conductors' ``[deploy]http_root``;
4. the clustered service (one API with two workers, two conductors on
   RabbitMQ) with ``auth_strategy = keystone``, started by the functional
   harness's :class:`Cluster`, and its ``baremetal`` catalog entry;
5. a tempest workspace (``etc/tempest.conf`` written here, no
   ``tempest init``: that would register the workspace in ``~/.tempest``)
   and ``tempest run`` on the plugin's tests.

It prints tempest's own summary and ends with one line that ``.ci/run``
parses::

    tempest: N passed, M failed, K skipped

The exit code is 0 only when nothing failed. RabbitMQ and MariaDB must be
reachable; without them the run is skipped, or fails when ``CI=true``.
Set ``IRONIC_LIKE_FT_KEEP=1`` to keep the working directory (configs,
logs, tempest.log).
"""

import argparse
import configparser
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import fixtures

# The repository root on sys.path, so that this runs from a checkout
# (``python tools/run_tempest.py``) without the project being installed.
_TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _TOP not in sys.path:
    sys.path.insert(0, _TOP)

from ironic_like_lab import lab as lab_module  # noqa: E402
from ironic_like.common import boot_file_server  # noqa: E402
from ironic_like.tests.functional import base  # noqa: E402
from ironic_like.tests.functional import keystone_fixture  # noqa: E402

TEST_REGEX = r'^ironic_like\.tests\.tempest\.'
# Bounds: the whole tempest run, and stopping it after Ctrl-C.
TEMPEST_TIMEOUT = 900
STOP_TIMEOUT = 20
# The agent simulator heartbeats every heartbeat_timeout / 2 seconds: a
# short timeout keeps the deploy scenario to seconds per phase.
AGENT_HEARTBEAT_TIMEOUT = 10
CONDUCTORS = 2


def log(message):
    print('[run_tempest] %s' % message, flush=True)


class MariaDBKeystone(keystone_fixture.KeystoneFixture):
    """The functional tests' keystone, on a MariaDB database of its own
    instead of SQLite: two tempest workers create and delete projects and
    users at the same time (dynamic credentials), and SQLite then answers
    some of them "database is locked" (a 500 in a class's tear-down)."""

    def _write_config(self):
        path = super()._write_config()
        database = base.Database(base.MYSQL)
        self.addCleanup(database.drop)
        parser = configparser.ConfigParser(interpolation=None)
        parser.optionxform = str
        parser.read(path)
        parser['database']['connection'] = database.url
        with open(path, 'w') as f:
            parser.write(f)
        return path


class Deployment(fixtures.Fixture):
    """keystone + database + lab + cluster; cleaned up in reverse order
    (fixtures does that even when a step of ``_setUp`` fails)."""

    def __init__(self, work_dir, with_lab=True):
        super().__init__()
        self.work_dir = work_dir
        self.with_lab = with_lab
        self.lab = None

    def _setUp(self):
        log('starting keystone')
        self.keystone = self.useFixture(MariaDBKeystone())

        log('creating the MariaDB database')
        self.database = base.Database(base.MYSQL)
        self.addCleanup(self.database.drop)
        config = base.write_config(
            os.path.join(self.work_dir, 'dbsync.conf'),
            {'database': {'connection': self.database.url}})
        base.run_dbsync(config)

        conf = {
            'DEFAULT': {'auth_strategy': 'keystone',
                        # The harness's 3 s suits dead-conductor tests; a
                        # busy 2-core machine running tempest needs more.
                        'rpc_node_call_timeout': 15,
                        'enabled_hardware_types': 'fake-hardware,redfish',
                        # The fake BIOS and RAID, whose out-of-band steps
                        # the plugin runs (no-bios and no-raid stay the
                        # defaults).
                        'enabled_bios_interfaces': 'no-bios,fake',
                        'default_bios_interface': 'no-bios',
                        'enabled_raid_interfaces': 'agent,no-raid,fake',
                        'default_raid_interface': 'no-raid',
                        # The fake vendor passthru methods, as a
                        # fake-hardware node's vendor_interface only.
                        'enabled_vendor_interfaces':
                            'redfish,no-vendor,fake',
                        'default_vendor_interface': 'no-vendor'},
            'keystone_authtoken': self.keystone.authtoken_options(),
            'agent': {'heartbeat_timeout': AGENT_HEARTBEAT_TIMEOUT},
            # An unknown machine's inspection data enrolls it (the
            # plugin's auto-discovery test; its other inventories name
            # their nodes).
            'auto_discovery': {'enabled': True, 'driver': 'fake-hardware'},
        }
        cluster_dir = os.path.join(self.work_dir, 'cluster')
        os.makedirs(cluster_dir)
        # The catalog and the lab need the API's URL before it runs:
        # make the cluster (which picks its port), start it later.
        cluster = base.Cluster(database=self.database, work_dir=cluster_dir,
                               conductors=CONDUCTORS, api_workers=2,
                               conf=conf)
        self.cluster = cluster
        if self.with_lab:
            self._start_lab(cluster.url, conf)
        log('starting the cluster: API %s, %d conductors'
            % (cluster.url, CONDUCTORS))
        self.useFixture(cluster)
        self.keystone.register_baremetal(cluster.url)

    def _start_lab(self, api_url, conf):
        lab_dir = os.path.join(self.work_dir, 'lab')
        os.makedirs(lab_dir)
        log('starting the lab (Redfish emulator, agent simulator)')
        self.lab = lab_module.Lab(lab_dir, nodes=1, api_url=api_url,
                                  image_mb=2, log=log)
        # Stopped even if start() fails half way.
        self.addCleanup(self.lab.stop)
        self.lab.start()
        # With api_url the lab starts no service, so nothing serves its
        # http_root (boot scripts, the image) at lab.http_url yet: serve
        # it from this process, on the port the lab picked (and gave the
        # agent simulator as its boot configuration URL).
        port = int(self.lab.http_url.rsplit(':', 1)[1])
        server = boot_file_server.BootFileServer(self.lab.http_root,
                                                 '127.0.0.1', port)
        server.start()
        self.addCleanup(server.stop)
        conf['deploy'] = {'http_root': self.lab.http_root,
                          'http_url': self.lab.http_url}

    def tempest_options(self):
        """Values of the plugin's [baremetal_like] group."""
        options = {
            'catalog_type': 'baremetal',
            'endpoint_type': 'public',
            'min_microversion': '1.1',
            'max_microversion': '1.115',
            'expected_conductors': CONDUCTORS,
            'enabled_hardware_types': 'fake-hardware,redfish',
            'agent_heartbeat_timeout': AGENT_HEARTBEAT_TIMEOUT,
            'deploy_scenario': bool(self.lab),
        }
        if self.lab:
            system = self.lab.systems[0]
            options.update({
                'lab_redfish_address': self.lab.bmc_url,
                'lab_system_id': '/redfish/v1/Systems/%s' % system['uuid'],
                'lab_mac': system['nics'][0]['mac'],
                'lab_agent_sim_url': self.lab.sim_url,
                'lab_agent_id': system['uuid'],
                'image_url': self.lab.image_url,
                'image_checksum': self.lab.image_sha256,
            })
        return options


def write_tempest_conf(path, deployment, log_dir):
    ks = deployment.keystone
    return base.write_config(path, {
        'DEFAULT': {'log_dir': log_dir, 'log_file': 'tempest.log',
                    'debug': 'true'},
        'auth': {
            'admin_username': 'admin',
            'admin_password': keystone_fixture.ADMIN_PASSWORD,
            'admin_project_name': 'admin',
            'admin_domain_name': 'Default',
            # keystone's bootstrap admin holds the admin role on the system
            # too: with this, tempest's identity admin client (which makes
            # the dynamic credentials) has a system-scoped token, which it
            # needs to grant the system-scoped ones (the plugin's
            # system_admin: an admin of a project is no cloud admin).
            'admin_system': 'all',
            # Every test class gets its own project and users.
            'use_dynamic_credentials': 'true',
            'create_isolated_networks': 'false',
        },
        'identity': {'uri_v3': ks.url, 'auth_version': 'v3',
                     'region': keystone_fixture.REGION,
                     'v3_endpoint_type': 'public'},
        'identity-feature-enabled': {'api_v2': 'false'},
        # Nothing but keystone and us: tempest must not look for the
        # others (nor create networks for the dynamic credentials).
        'service_available': {'ironic_like': 'true', 'nova': 'false',
                              'neutron': 'false', 'glance': 'false',
                              'cinder': 'false', 'swift': 'false'},
        'baremetal_like': deployment.tempest_options(),
    })


def tempest_argv():
    path = os.path.join(os.path.dirname(sys.executable), 'tempest')
    if os.path.exists(path):
        return [path]
    return [sys.executable, '-m', 'tempest.cmd.main']


def run_tempest(work_dir, config, concurrency, regex):
    """Run ``tempest run``; returns (exit code, its output)."""
    argv = tempest_argv() + ['run', '--config-file', config,
                             '--regex', regex,
                             '--concurrency', str(concurrency)]
    log('running: %s' % ' '.join(argv))
    env = dict(os.environ, PYTHONWARNINGS='ignore::DeprecationWarning',
               PYTHONUNBUFFERED='1')
    # Our own session, so that stopping it stops the stestr workers too.
    proc = subprocess.Popen(argv, cwd=work_dir, env=env,
                            stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL,
                            start_new_session=True)
    lines = []
    deadline = time.monotonic() + TEMPEST_TIMEOUT
    timer = None
    try:
        # The output is echoed as it comes; a watchdog bounds the run.

        def watchdog():
            log('tempest run exceeded %d s: stopping it' % TEMPEST_TIMEOUT)
            _stop_group(proc)
        timer = threading.Timer(TEMPEST_TIMEOUT, watchdog)
        timer.daemon = True
        timer.start()
        for raw in proc.stdout:
            line = raw.decode('utf-8', 'replace')
            lines.append(line)
            sys.stdout.write(line)
        sys.stdout.flush()
        proc.wait(timeout=max(1, deadline - time.monotonic()))
    except BaseException:
        _stop_group(proc)
        raise
    finally:
        if timer is not None:
            timer.cancel()
        proc.stdout.close()
    return proc.returncode, ''.join(lines)


def _stop_group(proc):
    """SIGTERM the process group, SIGKILL it after a bound."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        pass


def parse_totals(output):
    """(passed, failed, skipped) from stestr's "Totals" block, or None."""
    counts = {}
    for name in ('Passed', 'Failed', 'Skipped'):
        found = re.findall(r'^ - %s: *(\d+)' % name, output, re.MULTILINE)
        if found:
            counts[name] = int(found[-1])
    if 'Passed' not in counts and 'Failed' not in counts:
        return None
    return (counts.get('Passed', 0), counts.get('Failed', 0),
            counts.get('Skipped', 0))


def services_missing():
    missing = []
    for service in (base.RABBITMQ, base.MYSQL):
        ok, detail = base.service_status(service)
        if not ok:
            missing.append('%s (%s)' % (base.SERVICE_NAMES[service], detail))
    return missing


def _terminate(signum, frame):
    # SIGTERM (a CI timeout, kill) tears down like Ctrl-C does.
    raise KeyboardInterrupt()


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--regex', default=TEST_REGEX,
                        help='Tests to run (default: %(default)s)')
    parser.add_argument('--concurrency', type=int, default=2)
    parser.add_argument('--no-lab', action='store_true',
                        help='Do not start the lab; the deploy scenario '
                             'is then skipped')
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    signal.signal(signal.SIGTERM, _terminate)
    missing = services_missing()
    if missing:
        if base.CI:
            log('CI=true and services are not reachable: %s'
                % '; '.join(missing))
            print('tempest: 0 passed, 1 failed, 0 skipped')
            return 1
        log('skipped, services are not reachable: %s' % '; '.join(missing))
        print('tempest: 0 passed, 0 failed, 1 skipped')
        return 0

    work_dir = tempfile.mkdtemp(prefix='ironic-like-tempest-')
    started = time.monotonic()
    totals = None
    status = 1
    deployment = Deployment(work_dir, with_lab=not args.no_lab)
    deployed = False
    try:
        # A failing setUp has cleaned up after itself already.
        deployment.setUp()
        deployed = True
        log('deployment ready in %.1f s' % (time.monotonic() - started))
        etc = os.path.join(work_dir, 'etc')
        os.makedirs(etc)
        config = write_tempest_conf(os.path.join(etc, 'tempest.conf'),
                                    deployment, work_dir)
        code, output = run_tempest(work_dir, config, args.concurrency,
                                   args.regex)
        totals = parse_totals(output)
        status = 0 if code == 0 and totals and not totals[1] else 1
    except KeyboardInterrupt:
        log('interrupted: tearing down')
    except fixtures.MultipleExceptions as e:
        # The first one is what went wrong; the rest is the wrapping.
        log('the deployment did not start: %s' % (e.args[0][1],))
        _print_logs(deployment)
    except Exception as e:
        log('failed: %s' % e)
        _print_logs(deployment)
    finally:
        try:
            if deployed:
                deployment.cleanUp()
        except Exception as e:
            log('tear-down: %s' % e)
            status = 1
        if base.KEEP_TEMP:
            log('kept %s' % work_dir)
        else:
            shutil.rmtree(work_dir, ignore_errors=True)
    log('done in %.1f s' % (time.monotonic() - started))
    passed, failed, skipped = totals or (0, 1, 0)
    if status and not failed:
        failed = 1  # a run that failed without a failed test
    print('tempest: %d passed, %d failed, %d skipped'
          % (passed, failed, skipped))
    return status


def _print_logs(deployment):
    """The ends of the service logs, when the deployment did not start."""
    cluster = getattr(deployment, 'cluster', None)
    for proc in (cluster.processes if cluster else []):
        print('--- %s ---\n%s' % (proc.name, proc.log_text(3000)))


if __name__ == '__main__':
    sys.exit(main())
