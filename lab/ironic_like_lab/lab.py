"""ironic-like-lab: a simulated data centre around the service, to play
with and to measure.

It starts sushy-tools' Redfish emulator (FakeDriver: one system per
simulated machine, no libvirt), the agent simulator (one virtual
ironic-python-agent per machine, booted when the emulator powers the
machine on) and, unless --api-url points at a running deployment, the
embedded service (ironic-like-all: API + conductor, SQLite, its own boot
file server). Then it enrols the machines as ``redfish`` nodes with the
``agent`` deploy and ``ipxe`` boot interfaces and, with --cycle, takes
them through manage -> provide (cleaning) -> deploy -> host OS
configuration (/v1/hostos while they are active, see hostos_stage.py;
not with --no-hostos) -> undeploy, then reboots them all into an OS with
a boot session (/v1/boot; alone with --boot-session), printing how long
each stage took. Unless --no-accelerators, the machines have PCI
accelerators (an FPGA or a GPU on one machine in two) and the deploy
attaches them, programming the FPGAs with a bitstream of the lab's index,
checked after the deploy and the undeploy (accelerator_stage.py). The
processes keep running until Ctrl-C (unless --exit).
"""

import argparse
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from urllib import parse as urlparse

import requests

from ironic_like_lab import accelerator_stage
from ironic_like_lab import hostos_stage
from ironic_like_lab import redfish_emulator

HEADERS = {'X-OpenStack-Ironic-API-Version': 'latest'}
START_TIMEOUT = 60
FINAL = frozenset(['available', 'active', 'manageable', 'deploy failed',
                   'clean failed', 'error', 'enroll'])
# The boot-session stage: the OS's kernel and initrd (random bytes), the
# template's name, and how long the session may take.
BOOT_FILE_BYTES = 256 * 1024
BOOT_TEMPLATE = 'lab'
BOOT_SESSION_BASE = 120.0
BOOT_SESSION_PER_NODE = 2.0
# The host OS configuration stage's name (took, the lines printed).
HOSTOS_STAGE = 'host OS configuration'


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def mac_of(index):
    return '52:54:01:%02x:%02x:%02x' % ((index >> 16) & 0xff,
                                        (index >> 8) & 0xff, index & 0xff)


def wait_http(url, timeout=START_TIMEOUT, process=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError('%s exited (%s)' % (url, process.returncode))
        try:
            requests.get(url, timeout=2)
            return
        except requests.RequestException:
            time.sleep(0.2)
    raise RuntimeError('%s did not answer within %ss' % (url, timeout))


def node_labels(index, count):
    """A lab node's labels: all are in the group ``lab``; the last one
    (of two or more) is a UAN (role Application, subrole UAN), the others
    Compute."""
    if count > 1 and index == count - 1:
        return {'group.lab': '', 'role': 'Application', 'subrole': 'UAN'}
    return {'group.lab': '', 'role': 'Compute'}


def session_bound(count):
    """Seconds a boot session of ``count`` nodes may take."""
    return BOOT_SESSION_BASE + BOOT_SESSION_PER_NODE * count


def make_image(path, size_mb):
    """A file of pseudo-random bytes standing for a disk image; returns
    its sha256."""
    digest = hashlib.sha256()
    block = hashlib.sha256(b'ironic-like').digest() * 32768  # 1 MiB
    with open(path, 'wb') as f:
        for index in range(size_mb):
            chunk = bytes([index & 0xff]) + block[1:]
            f.write(chunk)
            digest.update(chunk)
    return digest.hexdigest()


class Lab(object):
    """The processes and the machines of one lab."""

    def __init__(self, workdir, nodes, api_url=None, image_mb=4,
                 python=sys.executable, log=print, api_port=None,
                 http_port=None, hostos=True, accelerators=True):
        """``api_port``: port of the embedded service's API (default: a
        free one); ignored with ``api_url``. ``http_port``: port at which
        the boot files (``http_root``) and the image are served on
        127.0.0.1 (default: a free one, served by the embedded service);
        with ``api_url`` whoever runs that deployment serves it there.
        ``hostos``: whether cycle() runs the host OS configuration stage
        between deploy and undeploy. ``accelerators``: whether the
        machines have accelerators (accelerator_stage.agent_options), the
        embedded service reads the lab's bitstream index (written to
        ``<workdir>/bitstreams``) and cycle() checks them around the
        deploy."""
        self.workdir = os.path.abspath(workdir)
        self.count = nodes
        self.api_url = api_url
        self.api_port = api_port
        self.http_port = http_port
        self.image_mb = image_mb
        self.hostos = hostos
        self.accelerators = accelerators
        self.bitstreams = os.path.join(self.workdir,
                                       accelerator_stage.SUBDIR)
        self.python = python
        self.log = log
        self.processes = []
        self.http_root = os.path.join(self.workdir, 'httpboot')
        # Seconds between two looks at a boot session's status.
        self.poll_interval = 0.5
        self.systems = [redfish_emulator.make_system(
            'lab-%04d' % i, mac_of(i)) for i in range(nodes)]

    # -- processes ------------------------------------------------------
    def _spawn(self, name, argv, env=None):
        logf = open(os.path.join(self.workdir, '%s.log' % name), 'ab')
        proc = subprocess.Popen(argv, stdout=logf, stderr=subprocess.STDOUT,
                                env=env, start_new_session=True)
        self.processes.append((name, proc))
        return proc

    def start(self, embedded_conf_extra=''):
        os.makedirs(os.path.join(self.http_root, 'images'), exist_ok=True)
        image = os.path.join(self.http_root, 'images', 'lab.img')
        self.image_sha256 = make_image(image, self.image_mb)
        http_port = self.http_port or free_port()
        self.http_url = 'http://127.0.0.1:%d' % http_port
        self.image_url = '%s/images/lab.img' % self.http_url
        if self.accelerators:
            accelerator_stage.write_index(self.bitstreams)
        if self.api_url is None:
            self._start_service(http_port, embedded_conf_extra)
        self.sim_port = free_port()
        self.sim_url = 'http://127.0.0.1:%d' % self.sim_port
        fleet = os.path.join(self.workdir, 'fleet.json')
        with open(fleet, 'w') as f:
            json.dump({'agents': [self._fleet_entry(index, system)
                                  for index, system in
                                  enumerate(self.systems)]}, f)
        sim = self._spawn('agent-sim', [
            self.python, '-m', 'ironic_like_lab.agent_sim',
            '--api-url', self.api_url, '--port', str(self.sim_port),
            '--state-dir', os.path.join(self.workdir, 'disks'),
            '--fleet', fleet,
            # Lookups and heartbeats: a thread per 25 agents keeps a
            # thousand of them on time.
            '--io-workers', str(min(64, max(8, self.count // 25))),
            '--boot-config-url', '%s/macs/{mac}.ipxe' % self.http_url])
        wait_http(self.sim_url + '/control/health', process=sim)
        self.bmc_port = free_port()
        self.bmc_url = 'http://127.0.0.1:%d' % self.bmc_port
        config = os.path.join(self.workdir, 'emulator.conf')
        state = os.path.join(self.workdir, 'emulator-state')
        shutil.rmtree(state, ignore_errors=True)
        redfish_emulator.write_config(config, self.systems, state,
                                      self.sim_url + '/control/power')
        bmc = self._spawn('redfish-emulator', [
            self.python, '-m', 'ironic_like_lab.redfish_emulator',
            '--config', config, '-i', '127.0.0.1',
            '--port', str(self.bmc_port)])
        wait_http(self.bmc_url + '/redfish/v1/', process=bmc)

    def _fleet_entry(self, index, system):
        """Machine ``index``'s agent in the simulator's fleet file."""
        entry = {'id': system['uuid'], 'macs': [system['nics'][0]['mac']]}
        options = (accelerator_stage.agent_options(index)
                   if self.accelerators else {})
        if options:
            entry['options'] = options
        return entry

    def _start_service(self, http_port, extra):
        api_port = self.api_port or free_port()
        self.api_url = 'http://127.0.0.1:%d' % api_port
        conf = os.path.join(self.workdir, 'ironic_like.conf')
        with open(conf, 'w') as f:
            f.write('[DEFAULT]\nhost = lab\nauth_strategy = noauth\n'
                    'enabled_hardware_types = redfish,fake-hardware\n'
                    # Rescue through the simulated agent (the rescue
                    # ramdisk is the deploy one, as with IPA).
                    'enabled_rescue_interfaces = no-rescue,agent\n'
                    '[api]\nhost_ip = 127.0.0.1\nport = %d\n'
                    # The simulated agents read the token's header: keep
                    # it out of every URL.
                    '[agent]\ncommand_token_in_query = false\n'
                    # They serve plain http (Ironic's default refuses it).
                    'require_tls = false\n'
                    '[conductor]\n'
                    'rescue_kernel = http://127.0.0.1:8088/images/'
                    'ipa.kernel\n'
                    'rescue_ramdisk = http://127.0.0.1:8088/images/'
                    'ipa.initramfs\n'
                    '[database]\nconnection = sqlite:///%s\n'
                    '[deploy]\nhttp_root = %s\nhttp_url = %s\n'
                    'http_server_port = %d\n'
                    # Host agents heartbeat (and so hear of new items)
                    # every 2 s: the host OS stage takes seconds.
                    '[hostos]\nagent_heartbeat_interval = 2\n%s%s\n'
                    % (api_port, os.path.join(self.workdir, 'lab.sqlite'),
                       self.http_root, 'http://127.0.0.1:%d' % http_port,
                       http_port,
                       # FPGA bitstreams from the lab's index.
                       accelerator_stage.service_conf(self.bitstreams)
                       if self.accelerators else '', extra))
        proc = self._spawn('ironic-like-all', [
            self.python, '-m', 'ironic_like.cmd.all', '--config-file', conf])
        wait_http(self.api_url + '/v1', process=proc)

    def stop(self):
        for name, proc in reversed(self.processes):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for name, proc in reversed(self.processes):
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        self.processes = []

    # -- the API ----------------------------------------------------------
    def api(self, method, path, body=None, ok=(200, 201, 202, 204)):
        resp = requests.request(method, self.api_url + path, json=body,
                                headers=HEADERS, timeout=60)
        if resp.status_code not in ok:
            raise RuntimeError('%s %s: %s %s' % (method, path,
                                                 resp.status_code,
                                                 resp.text[:300]))
        return resp.json() if resp.content else None

    def enrol(self):
        """Create the nodes (redfish + agent + ipxe, labelled for the boot
        sessions: node_labels) and their ports."""
        uuids = []
        for index, system in enumerate(self.systems):
            node = self.api('POST', '/v1/nodes', {
                'name': system['name'], 'driver': 'redfish',
                'resource_class': 'lab', 'deploy_interface': 'agent',
                'boot_interface': 'ipxe',
                'labels': node_labels(index, len(self.systems)),
                'driver_info': {
                    'redfish_address': self.bmc_url,
                    'redfish_system_id': '/redfish/v1/Systems/%s'
                                         % system['uuid'],
                    'redfish_username': 'admin',
                    'redfish_password': 'password'},
                'properties': {'cpus': 4, 'memory_mb': 8192,
                               'local_gb': 20}})
            self.api('POST', '/v1/ports', {
                'node_uuid': node['uuid'],
                'address': system['nics'][0]['mac']})
            uuids.append(node['uuid'])
        self.nodes = uuids
        return uuids

    def provision(self, target, body_extra=None):
        for uuid in self.nodes:
            body = {'target': target}
            body.update(body_extra or {})
            self.api('PUT', '/v1/nodes/%s/states/provision' % uuid, body)

    def set_image(self, checksum=None):
        for uuid in self.nodes:
            self.api('PATCH', '/v1/nodes/%s' % uuid, [
                {'op': 'add', 'path': '/instance_info/image_source',
                 'value': self.image_url},
                {'op': 'add', 'path': '/instance_info/image_checksum',
                 'value': checksum or self.image_sha256},
                {'op': 'add', 'path': '/instance_info/root_gb',
                 'value': 10}])

    def states(self):
        found = {}
        marker = None
        for _ in range(1000):
            path = '/v1/nodes?fields=uuid,provision_state,last_error' \
                   '&limit=1000&resource_class=lab'
            if marker:
                path += '&marker=%s' % marker
            page = self.api('GET', path)['nodes']
            for node in page:
                found[node['uuid']] = node
            if len(page) < 1000:
                break
            marker = page[-1]['uuid']
        return {u: found[u] for u in self.nodes if u in found}

    def wait_all(self, wanted, timeout):
        """Wait until every node is in a final state; returns the seconds
        taken and {state: count}."""
        started = time.monotonic()
        deadline = started + timeout
        last = None
        while time.monotonic() < deadline:
            nodes = self.states()
            counts = {}
            for node in nodes.values():
                counts[node['provision_state']] = counts.get(
                    node['provision_state'], 0) + 1
            if counts != last:
                self.log('  %5.1fs %s' % (time.monotonic() - started,
                                          ', '.join('%s: %d' % kv for kv in
                                                    sorted(counts.items()))))
                last = counts
            if all(n['provision_state'] in FINAL for n in nodes.values()):
                break
            time.sleep(0.5)
        failed = {u: n['last_error'] for u, n in self.states().items()
                  if n['provision_state'] != wanted}
        return time.monotonic() - started, failed

    def disks_match_image(self):
        """UUIDs of nodes whose simulated disk does not hold the image."""
        bad = []
        for system, uuid in zip(self.systems, self.nodes):
            doc = requests.get('%s/control/agents/%s' % (
                self.sim_url, system['uuid']), timeout=10).json()
            path = doc.get('disk_path')
            digest = hashlib.sha256()
            try:
                with open(path, 'rb') as f:
                    for chunk in iter(lambda: f.read(1 << 20), b''):
                        digest.update(chunk)
            except (OSError, TypeError):
                bad.append(uuid)
                continue
            if digest.hexdigest() != self.image_sha256:
                bad.append(uuid)
        return bad

    def cycle(self, timeout):
        """manage, provide, deploy, host OS configuration (unless
        ``self.hostos`` is false), undeploy; returns {stage: seconds}.
        Unless ``self.accelerators`` is false, the accelerators are asked
        for before the deploy and checked after it and after the undeploy
        (accelerator_stage.py; not timed)."""
        took = {}
        accelerators = (accelerator_stage.AcceleratorStage(self)
                        if self.accelerators else None)
        for stage, target, wanted in (
                ('manage', 'manage', 'manageable'),
                ('provide (clean)', 'provide', 'available'),
                ('deploy', 'active', 'active'),
                ('undeploy (clean)', 'deleted', 'available')):
            if target == 'deleted' and self.hostos:
                took[HOSTOS_STAGE] = self.host_os_configuration(timeout)
            if target == 'active':
                self.set_image()
                if accelerators is not None:
                    accelerators.before_deploy()
            self.log('%s %d nodes...' % (stage, len(self.nodes)))
            # Timed from the first request: sending them takes a while
            # for many nodes, and a quick stage (manage) is over by then.
            started = time.monotonic()
            self.provision(target)
            _seconds, failed = self.wait_all(wanted, timeout)
            took[stage] = time.monotonic() - started
            if failed:
                raise RuntimeError('%s: %d nodes did not reach %s, e.g. %s'
                                   % (stage, len(failed), wanted,
                                      list(failed.items())[:3]))
            if target == 'active':
                bad = self.disks_match_image()
                self.log('  disks holding the image: %d of %d'
                         % (len(self.nodes) - len(bad), len(self.nodes)))
                if bad:
                    raise RuntimeError('disks of %s do not hold the image'
                                       % bad[:5])
            if accelerators is not None and target == 'active':
                accelerators.after_deploy()
            if accelerators is not None and target == 'deleted':
                accelerators.after_undeploy()
        return took

    # -- the host OS configuration stage ------------------------------------
    def host_os_configuration(self, timeout):
        """The active nodes configured by their host agents with a module
        the lab builds (hostos_stage.py); answers the seconds from the
        configuration's creation to every node ok. Raises unless every
        node is ok within ``timeout`` s and holds the value."""
        return hostos_stage.run(self, timeout)

    # -- the boot-session stage ---------------------------------------------
    def write_boot_files(self):
        """A kernel, an initrd (random bytes) and a boot manifest beside
        the instance image on the boot file server; answers the
        manifest (its URL in ``self.manifest_url``)."""
        images = os.path.join(self.http_root, 'images')
        os.makedirs(images, exist_ok=True)
        manifest = {'kernel_parameters': 'console=ttyS0'}
        for kind, name in (('kernel', 'vmlinuz'), ('initrd', 'initrd.img')):
            data = os.urandom(BOOT_FILE_BYTES)
            with open(os.path.join(images, name), 'wb') as f:
                f.write(data)
            manifest[kind] = {'path': '%s/images/%s' % (self.http_url, name),
                              'sha256': hashlib.sha256(data).hexdigest()}
        with open(os.path.join(images, 'manifest.json'), 'w') as f:
            json.dump(manifest, f)
        self.manifest_url = '%s/images/manifest.json' % self.http_url
        return manifest

    def put_template(self, manifest):
        """The session template: the Compute nodes boot the manifest, the
        UAN its kernel and initrd named directly."""
        return self.api('PUT', '/v1/boot/sessiontemplates/%s'
                        % BOOT_TEMPLATE, {
                            'description': 'ironic-like-lab: every node '
                                           'into the lab OS',
                            'enable_cfs': False,
                            'boot_sets': {
                                'compute': {
                                    'name': 'compute', 'type': 'http',
                                    'path': self.manifest_url,
                                    'node_roles_groups': ['Compute']},
                                'uan': {
                                    'name': 'uan',
                                    'kernel': manifest['kernel']['path'],
                                    'initrd': manifest['initrd']['path'],
                                    'kernel_parameters': 'console=ttyS0',
                                    'node_roles_groups': [
                                        'Application_UAN']}}})

    def wait_session(self, name, bound):
        """Follow a session's status until it is complete, logging the
        counts per component status as they change; answers the final
        status. Aborts the session and raises after ``bound`` s."""
        started = time.monotonic()
        path = '/v1/boot/sessions/%s' % urlparse.quote(name, safe='')
        last = None
        while True:
            status = self.api('GET', path + '/status')
            counts = sorted((status.get('counts') or {}).get(
                'status', {}).items())
            line = (status['status'], counts)
            if line != last:
                self.log('  %5.1fs %s%s' % (
                    time.monotonic() - started, status['status'],
                    ': ' + ', '.join('%s: %d' % kv for kv in counts)
                    if counts else ''))
                last = line
            if status['status'] == 'complete':
                return status
            if time.monotonic() - started >= bound:
                try:
                    self.api('POST', path + '/abort')
                except (RuntimeError, requests.RequestException):
                    pass
                raise RuntimeError(
                    'boot session %s: not complete within %.0fs (aborted), '
                    'last status %s' % (name, bound,
                                        json.dumps(status)[:600]))
            time.sleep(self.poll_interval)

    def machines_in_os(self, name, manifest):
        """How many simulated machines run the OS (state ``os``) with the
        referral token session ``name`` gave their component, having
        downloaded the kernel and initrd of ``manifest``."""
        components = self.api('GET', '/v1/boot/components?session=%s'
                              % urlparse.quote(name, safe=''))
        tokens = {c['id']: (c.get('desired_state') or {}).get('bss_token')
                  for c in components}
        booted = 0
        for system in self.systems:
            doc = requests.get('%s/control/agents/%s' % (
                self.sim_url, system['uuid']), timeout=10).json()
            record = (doc.get('records') or {}).get('os_boot') or {}
            token = tokens.get(system['name'])
            if (doc.get('state') == 'os' and token
                    and record.get('token') == token
                    and all(record.get('%s_sha256' % kind)
                            == manifest[kind]['sha256']
                            for kind in ('kernel', 'initrd'))):
                booted += 1
        return booted

    def boot_session(self, bound=None):
        """Reboot every node into the lab OS with a boot session (kernel,
        initrd and manifest on the boot file server, template ``lab``);
        answers the seconds it took. Raises unless it completes within
        ``bound`` s (default: session_bound) with every node booted."""
        count = len(self.nodes)
        bound = session_bound(count) if bound is None else bound
        manifest = self.write_boot_files()
        self.put_template(manifest)
        self.log('boot session (reboot) %d nodes...' % count)
        started = time.monotonic()
        session = self.api('POST', '/v1/boot/sessions', {
            'operation': 'reboot', 'template_name': BOOT_TEMPLATE})
        name = session['name']
        status = self.wait_session(name, bound)
        took = time.monotonic() - started
        booted = self.machines_in_os(name, manifest)
        self.log('  machines in the OS with the session\'s token, kernel '
                 'and initrd: %d of %d' % (booted, count))
        self.log('  percent_successful: %s (session %s, %d components)'
                 % (status.get('percent_successful'), name,
                    status.get('managed_components_count') or 0))
        if status.get('percent_successful') != 100:
            raise RuntimeError(
                'boot session %s: %s%% successful, e.g. %s'
                % (name, status.get('percent_successful'),
                   json.dumps((status.get('failed_nodes') or [])[:3]
                              or status.get('error_summary'))[:600]))
        if booted != count:
            raise RuntimeError('boot session %s: %d of %d machines run the '
                               'OS with their token, kernel and initrd'
                               % (name, booted, count))
        return took


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--nodes', type=int, default=5)
    parser.add_argument('--workdir', default='state/lab')
    parser.add_argument('--api-url', help='Use this running deployment '
                        'instead of starting the embedded service (it must '
                        'serve --workdir/httpboot as its [deploy]http_root)')
    parser.add_argument('--api-port', type=int,
                        help='Port of the embedded service\'s API on '
                             '127.0.0.1 (default: any free port)')
    parser.add_argument('--http-port', type=int,
                        help='Port on 127.0.0.1 where --workdir/httpboot '
                             'is served (with --api-url: the deployment\'s '
                             '[deploy]http_url port; default: a free port '
                             'served by the embedded service)')
    parser.add_argument('--image-mb', type=int, default=4)
    parser.add_argument('--cycle', action='store_true',
                        help='manage, provide, deploy and undeploy every '
                             'node (configuring their host OS while they '
                             'are active, unless --no-hostos), then reboot '
                             'them into an OS with a boot session (as '
                             '--boot-session), printing the time each stage '
                             'took')
    parser.add_argument('--no-hostos', action='store_true',
                        help='skip --cycle\'s host OS configuration stage '
                             '(/v1/hostos: a module "motd" the lab builds, '
                             'a configuration selecting every node, run by '
                             'their host agents between deploy and '
                             'undeploy)')
    parser.add_argument('--no-accelerators', action='store_true',
                        help='give the machines no accelerators and skip '
                             '--cycle\'s accelerator checks (by default '
                             'one machine in four has an FPGA, one in four '
                             'a GPU; the deploy attaches them, programming '
                             'the FPGAs with the bitstream "gzip" of the '
                             'lab\'s index, --workdir/bitstreams, checked '
                             'after the deploy and the undeploy; with '
                             '--api-url, that deployment needs '
                             '[accelerators]image_service = index and '
                             'index_url = --workdir/bitstreams, else the '
                             'checks are skipped when it reports no '
                             'accelerator)')
    parser.add_argument('--boot-session', action='store_true',
                        help='reboot every node into an OS with a boot '
                             'session (/v1/boot: template "lab", boot sets '
                             'by role) and follow it until complete; fails '
                             'unless 100%% successful within 120 s + 2 s '
                             'per node')
    parser.add_argument('--timeout', type=float, default=600,
                        help='bound of each --cycle stage, in seconds')
    parser.add_argument('--exit', action='store_true',
                        help='stop everything at the end instead of '
                             'serving until Ctrl-C')
    return parser.parse_args(argv)


# Printed once the lab serves: what to poke at while it runs.
TRY_IT = """Serving until Ctrl-C. Try, in another terminal:
  curl -s %(api)s/v1/nodes | python3 -m json.tool
  curl -s -H 'X-OpenStack-Ironic-API-Version: latest' \\
      %(api)s/v1/nodes/%(node)s | python3 -m json.tool
  curl -s %(sim)s/control/health    # the virtual agents
  curl -s %(api)s/v1/boot/sessions | python3 -m json.tool
  export OS_AUTH_TYPE=none OS_ENDPOINT=%(api)s
  openstack baremetal node list     # needs python-openstackclient
  openstack baremetal node manage %(node)s --wait
  openstack baremetal node provide %(node)s --wait  # cleans again"""


def _interrupted(signum, frame):
    raise KeyboardInterrupt()


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    # SIGTERM (kill, systemd, a wrapper's timeout) must stop the lab like
    # Ctrl-C does: the children run in their own sessions and would
    # outlive a lab killed by the default action.
    signal.signal(signal.SIGTERM, _interrupted)
    os.makedirs(args.workdir, exist_ok=True)
    lab = Lab(args.workdir, args.nodes, api_url=args.api_url,
              image_mb=args.image_mb, api_port=args.api_port,
              http_port=args.http_port, hostos=not args.no_hostos,
              accelerators=not args.no_accelerators)
    status = 0
    try:
        lab.start()
        lab.enrol()
        print('Lab up: API %s, Redfish %s, agents %s/control/agents, '
              'logs in %s' % (lab.api_url, lab.bmc_url, lab.sim_url,
                              lab.workdir))
        took = {}
        try:
            if args.cycle:
                took.update(lab.cycle(args.timeout))
            if args.cycle or args.boot_session:
                took['boot session'] = lab.boot_session()
        finally:
            width = max([18] + [len(stage) for stage in took])
            for stage, seconds in took.items():
                rate = 60.0 * len(lab.nodes) / max(seconds, 0.001)
                print('%-*s %7.1f s  (%.1f nodes/min)'
                      % (width, stage, seconds, rate))
        if not args.exit:
            print(TRY_IT % {'api': lab.api_url, 'sim': lab.sim_url,
                            'node': lab.systems[0]['name']})
            # pause(), not sigwait(): the signals have Python handlers
            # (KeyboardInterrupt), which sigwait() would never let run.
            while True:
                signal.pause()
    except KeyboardInterrupt:
        pass
    except Exception as e:
        print('lab failed: %s' % e)
        status = 1
    finally:
        lab.stop()
    return status


if __name__ == '__main__':
    sys.exit(main())
