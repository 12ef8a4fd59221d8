"""One virtual agent: inventory, lookup/heartbeat cycle and IPA commands.

The agent lives inside :class:`ironic_like_lab.simulator.Simulator`,
which owns the HTTP server, the timer (heartbeats, lookup retries, injected
delays) and the pools that run blocking work. Nothing here owns a thread.
"""

import base64
import collections
import copy
import datetime
import gzip
import hashlib
import json
import logging
import os
import random
import re
import threading
import time
import uuid
from urllib import parse as urlparse

import requests

from ironic_like_lab import accelerators as accel
from ironic_like_lab.commands import BusyError
from ironic_like_lab.commands import Command
from ironic_like_lab.commands import CommandError
from ironic_like_lab.commands import COMMANDS
from ironic_like_lab.commands import FAILED
from ironic_like_lab.commands import RUNNING
from ironic_like_lab.commands import UnknownCommand
from ironic_like_lab import host_agents

LOG = logging.getLogger(__name__)

AGENT_VERSION = '9.99.0-ironic-like-sim'

# Agent (power) states as the control API reports them.
OFF = 'off'
LOOKUP = 'lookup'
LOOKUP_FAILED = 'lookup failed'
HEARTBEATING = 'heartbeating'
# Powered on from its disk: the installed instance runs, no agent.
INSTANCE = 'instance'
# Boot sessions: the boot configuration carries a bss_referral_token, so
# the machine downloads that kernel and initrd (OS_LOADING) and runs the
# booted OS (OS), whose reporter sends the token back; or a download
# failed and it sits at the iPXE prompt (BOOT_FAILED).
OS_LOADING = 'os loading'
OS = 'os'
BOOT_FAILED = 'boot failed'
# The rescue ramdisk after rescue.finalize_rescue: its password is set
# and its agent has stopped (no more heartbeats), as IPA's does.
RESCUED = 'rescued'

MAX_COMMANDS_KEPT = 100
MAX_EVENTS_KEPT = 200
CHUNK = 1024 * 1024
# (connect, read) seconds for fetching the boot configuration: a firmware
# gives up quickly too, and the fetch holds an I/O worker.
BOOT_CONFIG_TIMEOUT = (5.0, 10.0)
# Kernel parameters of the boot configuration and the boot() arguments
# they stand for.
KERNEL_PARAMS = {'ipa-agent-token': 'agent_token',
                 'ipa-api-url': 'api_url',
                 'ipa-node-uuid': 'node_uuid'}
# Kernel parameters of a boot session (BOS v2 / BSS names) and the keys
# parse_os_boot_config answers them under.
OS_BOOT_PARAMS = {'bss_referral_token': 'token',
                  'bos_component': 'component',
                  'bos_report_url': 'report_url',
                  'bos_update_frequency': 'update_frequency'}
# The reporter's period when the kernel command line has no (valid)
# bos_update_frequency: BOS's default component_actual_state_ttl.
DEFAULT_UPDATE_FREQUENCY = 4 * 3600.0
# The reporter sends every REPORT_PERIOD_FACTOR x bos_update_frequency,
# never more often than every MIN_REPORT_PERIOD s (BOS's reporter looped
# without pause on 0).
REPORT_PERIOD_FACTOR = 0.75
MIN_REPORT_PERIOD = 0.5
# A reporter silenced by never_report looks at the option again after at
# most this many seconds.
REPORT_RECHECK = 5.0
_FREQUENCY_UNITS = {'': 1, 's': 1, 'm': 60, 'h': 3600, 'd': 86400,
                    'w': 7 * 86400}
_FREQUENCY_RE = re.compile(r'^\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*$',
                           re.IGNORECASE)

DEFAULT_OPTIONS = {
    # Lookup: first retry after lookup_backoff s, doubling up to
    # lookup_backoff_max, at most lookup_max_attempts tries and
    # lookup_timeout s in all.
    'boot_delay': 0.0,
    'lookup_backoff': 0.5,
    'lookup_backoff_max': 10.0,
    'lookup_max_attempts': 120,
    'lookup_timeout': 900.0,
    # Heartbeats every heartbeat_timeout/2 (or heartbeat_interval when
    # set) times a jitter factor in [1 - jitter, 1 + jitter].
    'heartbeat_interval': None,
    'heartbeat_jitter': 0.15,
    'no_heartbeat': False,
    # 'current': GET /v1/lookup + POST /v1/heartbeat/{uuid};
    # 'passthru': the seed's vendor_passthru endpoints.
    'api_mode': 'current',
    'api_version': 'latest',
    'http_timeout': 30.0,
    'download_timeout': 3600.0,
    # Failure injection: a command name or a list of names, an optional
    # message; delays: '<command>_delay' with the short or the full name
    # ('prepare_image_delay' or 'standby.prepare_image_delay'), or
    # 'command_delay' for every asynchronous command.
    'fail_command': None,
    'fail_message': None,
    'command_delay': 0.0,
    # Inventory sizes.
    'cpus': 8,
    'memory_mb': 16384,
    'disk_size_gb': 100,
    'require_token': False,
    # Boot sessions (a boot configuration with bss_referral_token): the
    # booted OS starts its reporter os_boot_delay s after the kernel and
    # initrd are downloaded; a failed report is retried after
    # report_backoff, 2 x report_backoff, ... at most report_backoff_max
    # s (BOS's reporter: 0, 2, 4 .. 30 s).
    'os_boot_delay': 0.0,
    # The deploy ramdisk's boot: download (streamed, hashed, discarded)
    # the kernel and initrd its iPXE script names before booting it, as a
    # machine does (records.ramdisk_images); a failed download leaves the
    # machine at the iPXE prompt (BOOT_FAILED). Off by default: most labs
    # name a kernel nobody serves.
    'fetch_ramdisk_images': False,
    'report_backoff': 2.0,
    'report_backoff_max': 30.0,
    # Failure injection: the OS boots but its reporter never sends; the
    # OS ignores a graceful shutdown (GracefulShutdown, GracefulRestart,
    # PushPowerButton: the machine stays on); the BMC refuses to power
    # the machine on (On, ForceOn answer an error, it stays off). The
    # last two act through the simulator's /control/power and through
    # the Redfish emulator (ironic_like_lab.redfish_emulator).
    'never_report': False,
    'ignore_graceful_shutdown': False,
    'fail_power_on': False,
    # The instance booted from disk runs the real host agent (host OS
    # configuration, ironic_like_hostagent) for the node last deployed
    # on the machine, in the root directory host_root; it heartbeats
    # every host_agent_interval s, or when unset as often as the service
    # says. Read when the instance boots.
    'host_agent': True,
    'host_agent_interval': None,
    # PCI accelerators: a list of entries in the inventory format of
    # doc/accelerators.md, reported in the inventory (``accelerators``).
    # accelerator.program changes the function a region holds; setting
    # the option again replaces the device list (a card vanishing or
    # appearing), keeping what was programmed on devices still listed.
    # Programming waits program_delay s; fail_program (a message) makes
    # it fail with FPGAProgramError.
    'accelerators': None,
    'program_delay': 0.0,
    'fail_program': None,
}


def _file_name(agent_id):
    return ''.join(c if c.isalnum() or c in '-_.' else '_'
                   for c in agent_id)


def make_inventory(agent_id, macs, options, accelerators=None):
    """A plausible IPA inventory (version 2 layout of the seed).

    ``accelerators``: the machine's current accelerator entries (default:
    the option ``accelerators``); the inventory carries a deep copy.
    """
    if accelerators is None:
        accelerators = options.get('accelerators')
    interfaces = []
    for index, mac in enumerate(macs):
        interfaces.append({
            'name': 'eth%d' % index, 'mac_address': mac.lower(),
            'ipv4_address': '10.%d.%d.%d' % (
                (index + 1) % 256, random.randint(0, 255),
                random.randint(1, 254)),
            'ipv6_address': None, 'has_carrier': True, 'lldp': None,
            'vendor': '0x8086', 'product': '0x1572', 'client_id': None,
            'biosdevname': None, 'speed_mbps': 10000})
    size = int(options['disk_size_gb']) * 1024 ** 3
    serial = hashlib.sha1(agent_id.encode()).hexdigest()[:12]
    return {
        'interfaces': interfaces,
        'cpu': {'model_name': 'Simulated CPU @ 2.40GHz',
                'frequency': '2400', 'count': int(options['cpus']),
                'architecture': 'x86_64', 'flags': ['vmx', 'sse4_2']},
        'memory': {'total': int(options['memory_mb']) * 1024 ** 2,
                   'physical_mb': int(options['memory_mb'])},
        'disks': [{'name': '/dev/sda', 'model': 'SimDisk',
                   'size': size, 'rotational': False,
                   'wwn': '0x5000c500%s' % serial[:8], 'serial': serial,
                   'vendor': 'IronicLike', 'hctl': '0:0:0:0',
                   'by_path': '/dev/disk/by-path/pci-0000:00:1f.2-ata-1'}],
        'bmc_address': None,
        'system_vendor': {'product_name': 'Simulated Machine',
                          'serial_number': serial,
                          'manufacturer': 'ironic_like'},
        'boot': {'current_boot_mode': 'uefi',
                 'pxe_interface': macs[0].lower() if macs else None},
        'hostname': 'sim-%s' % agent_id,
        'accelerators': copy.deepcopy(accelerators or []),
    }


def parse_boot_config(text):
    """The boot() arguments found on the ``kernel`` line of an iPXE
    script (only those present)."""
    for line in text.splitlines():
        words = line.split()
        if words[:1] != ['kernel']:
            continue
        found = {}
        for word in words[2:]:
            key, sep, value = word.partition('=')
            if sep and key in KERNEL_PARAMS and value:
                found[KERNEL_PARAMS[key]] = value
        return found
    return {}


def parse_update_frequency(value):
    """Seconds in a BOS duration: ``4h``, ``30m``, ``1d``, ``2w``, ``90s``
    or plain seconds; None when it is none of these."""
    match = _FREQUENCY_RE.match(str(value or ''))
    if not match:
        return None
    return float(match.group(1)) * _FREQUENCY_UNITS[match.group(2).lower()]


def report_period(update_frequency):
    """Seconds between two reports of a booted OS's reporter."""
    seconds = parse_update_frequency(update_frequency)
    if seconds is None:
        seconds = DEFAULT_UPDATE_FREQUENCY
    return max(MIN_REPORT_PERIOD, REPORT_PERIOD_FACTOR * seconds)


def _ipxe_image(words):
    """``(uri, arguments)`` of an iPXE ``kernel``/``initrd`` line split in
    words, skipping its options (``--name x``, ``--name=x``, ``-n x``,
    ``--timeout ms``, ``--autofree``, ``--replace``)."""
    rest = list(words[1:])
    while rest and rest[0].startswith('-'):
        option = rest.pop(0)
        if option in ('--name', '-n', '--timeout', '-t') and rest:
            rest.pop(0)
    return (rest[0] if rest else None), rest[1:]


def _script_images(text):
    """``(kernel, kernel arguments, initrd)`` of an iPXE script: the
    first ``kernel`` and ``initrd`` lines' URIs as written (None when
    absent; the arguments [] without a kernel line)."""
    kernel = initrd = None
    params = []
    for line in text.splitlines():
        words = line.split()
        if words[:1] == ['kernel'] and kernel is None:
            kernel, params = _ipxe_image(words)
        elif words[:1] == ['initrd'] and initrd is None:
            initrd = _ipxe_image(words)[0]
    return kernel, params, initrd


def parse_os_boot_config(text, base_url=None):
    """The OS a boot session's iPXE script boots, or None.

    None unless the ``kernel`` line has a ``bss_referral_token``: such a
    script boots an OS (kernel + initrd), not the deploy ramdisk. Answers
    ``{kernel, initrd, kernel_params, token, component, report_url,
    update_frequency}``; the kernel and initrd URLs are made absolute
    against ``base_url`` (where the script came from), ``initrd`` is
    None without an ``initrd`` line, ``kernel_params`` is the kernel's
    command line as a string, and the last three are None when absent.
    """
    kernel, params, initrd = _script_images(text)
    if not kernel:
        return None
    found = dict.fromkeys(OS_BOOT_PARAMS.values())
    for word in params:
        key, sep, value = word.partition('=')
        if sep and key in OS_BOOT_PARAMS and value:
            found[OS_BOOT_PARAMS[key]] = value
    if not found['token']:
        return None
    if base_url:
        kernel = urlparse.urljoin(base_url, kernel)
        initrd = urlparse.urljoin(base_url, initrd) if initrd else None
    found.update({'kernel': kernel, 'initrd': initrd,
                  'kernel_params': ' '.join(params)})
    return found


class VirtualAgent(object):
    """State and behaviour of one simulated ramdisk."""

    def __init__(self, sim, agent_id, macs, api_url=None, node_uuid=None,
                 options=None, inventory=None):
        if not agent_id or '/' in agent_id:
            raise ValueError('agent id must be a non-empty string without /')
        if not macs:
            raise ValueError('agent %s needs at least one MAC' % agent_id)
        self.sim = sim
        self.id = agent_id
        self.macs = [m.lower() for m in macs]
        self.api_url = (api_url or sim.api_url or '').rstrip('/')
        self.node_uuid_hint = node_uuid
        self.options = dict(DEFAULT_OPTIONS)
        self.options.update(options or {})
        # Live accelerator state (which function each region holds) and
        # what the agent itself programmed or erased: region key ->
        # function.
        devices = self.options.get('accelerators')
        if devices is None and inventory:
            devices = inventory.get('accelerators')
        accel.check_devices(devices)
        self.accelerators = copy.deepcopy(devices or [])
        self._programmed = {}
        # region key -> {path, sha256, size} of the last bitstream.
        self._bitstreams = {}
        # One program at a time per region, as on a real card (two
        # conductors may send one each when a deploy is taken over).
        self._program_locks = collections.defaultdict(threading.Lock)
        # The generation a command runs for, per running thread.
        self._command_ctx = threading.local()
        self.inventory = inventory or make_inventory(
            agent_id, self.macs, self.options, self.accelerators)
        base = os.path.join(sim.state_dir, _file_name(agent_id))
        self._state_base = base
        self.disk_path = base + '.disk'
        self.configdrive_path = base + '.configdrive'
        # The instance's filesystem, for its host agent and playbooks.
        self.host_root = base + '.root'
        # The node the image on the disk was deployed for (in real life
        # the instance reads it from its config drive); kept across power
        # cycles, unlike node_uuid, which is the ramdisk's lookup.
        self.instance_node_uuid = None
        self.url = '%s/agents/%s' % (sim.base_url, agent_id)
        self.lock = threading.RLock()
        self.state = OFF
        self.generation = 0
        self.started_at = None
        self.node_uuid = None
        self.token = None
        self.heartbeat_timeout = None
        self.commands = collections.OrderedDict()
        self.current = None  # the running asynchronous command
        self.events = collections.deque(maxlen=MAX_EVENTS_KEPT)
        self.records = {'firmware': [], 'bios': [], 'erased': 0,
                        'image': None, 'configdrive': None}
        self.records['os_boot'] = None
        # The deploy ramdisk's kernel and initrd as last downloaded
        # (fetch_ramdisk_images): {kind: {url, size, sha256, error}}.
        self.records['ramdisk_images'] = None
        # The software RAID the agent built ({logical_disks}), or None.
        self.records['raid'] = None
        self.records['accelerators'] = []
        self.records['accelerator_erases'] = []
        # The last rescue.finalize_rescue: the password's hash (never a
        # plain password) and when.
        self.records['rescue'] = None
        self.counters = {'boots': 0, 'lookups': 0, 'heartbeats': 0,
                         'heartbeat_errors': 0, 'os_boots': 0,
                         'os_boot_failures': 0, 'reports': 0,
                         'report_errors': 0}
        self.last_heartbeat_status = None
        self.last_lookup_status = None
        self.last_report_status = None
        # The OS booted in this generation (parse_os_boot_config) and its
        # reporter.
        self._os_boot = None
        self._report_timer = None
        self._report_seq = 0
        self._report_failures = 0
        self._reported = False
        self._hb_seq = 0
        self._hb_timer = None
        self._lookup_timer = None
        self._lookup_attempts = 0
        self._lookup_started = None
        self.root_uuid = None

    # ----------------------------------------------------------------- util
    def event(self, fmt, *args):
        line = '%s %s' % (time.strftime('%Y-%m-%dT%H:%M:%S'), fmt % args)
        self.events.append(line)
        LOG.debug('agent %s: %s', self.id, line)

    def set_options(self, options):
        """:raises ValueError: ``accelerators`` is not a list."""
        if 'accelerators' in options:
            accel.check_devices(options['accelerators'])
        with self.lock:
            for key, value in options.items():
                if value is None and key not in DEFAULT_OPTIONS:
                    self.options.pop(key, None)
                elif value is None:
                    self.options[key] = DEFAULT_OPTIONS[key]
                else:
                    self.options[key] = value
            if 'accelerators' in options:
                self.replace_accelerators(self.options['accelerators'])

    def replace_accelerators(self, devices):
        """New accelerator entries (a card vanished or appeared): what
        this agent programmed stays on devices whose address is still
        listed."""
        with self.lock:
            self.accelerators, self._programmed = accel.replace(
                devices, self._programmed)
            self.event('accelerators replaced: %d entries',
                       len(self.accelerators))

    def current_inventory(self):
        """The inventory with the accelerators as they are now."""
        with self.lock:
            inventory = copy.deepcopy(self.inventory)
            inventory['accelerators'] = copy.deepcopy(self.accelerators)
            return inventory

    def summary(self):
        with self.lock:
            return {'id': self.id, 'state': self.state,
                    'node_uuid': self.node_uuid or self.node_uuid_hint,
                    'agent_url': self.url,
                    'heartbeats': self.counters['heartbeats'],
                    'reports': self.counters['reports']}

    def detail(self):
        with self.lock:
            doc = self.summary()
            doc.update({
                'macs': list(self.macs), 'api_url': self.api_url,
                'node_uuid_hint': self.node_uuid_hint,
                'has_token': self.token is not None,
                'heartbeat_timeout': self.heartbeat_timeout,
                'options': dict(self.options),
                'counters': dict(self.counters),
                'last_heartbeat_status': self.last_heartbeat_status,
                # The latest MAX_EVENTS_KEPT, e.g. which answers the
                # heartbeats that failed got.
                'events': list(self.events),
                'last_lookup_status': self.last_lookup_status,
                'last_report_status': self.last_report_status,
                'records': json.loads(json.dumps(self.records)),
                'disk_path': self.disk_path,
                'configdrive_path': self.configdrive_path,
                'host_root': self.host_root,
                'instance_node_uuid': self.instance_node_uuid,
                'host_agent': host_agents.of(self.sim).detail(self.id),
                'commands': [c.serialize()
                             for c in self.commands.values()],
                'inventory': self.current_inventory(),
                'accelerators': copy.deepcopy(self.accelerators),
            })
            return doc

    def _jitter(self, value):
        spread = float(self.options.get('heartbeat_jitter') or 0)
        return max(0.05, value * random.uniform(1 - spread, 1 + spread))

    def _headers(self):
        headers = {'Content-Type': 'application/json',
                   'Accept': 'application/json'}
        if self.options.get('api_version'):
            headers['X-OpenStack-Ironic-API-Version'] = str(
                self.options['api_version'])
        return headers

    # ---------------------------------------------------------------- power
    def boot(self, agent_token=None, api_url=None, node_uuid=None):
        """Power on: a fresh ramdisk starts and looks its node up.

        ``agent_token``, ``api_url`` and ``node_uuid`` stand for what a
        real ramdisk reads from its kernel command line (a token only
        from a private boot medium: ironic_like's iPXE scripts carry
        none). Without a token, and when the simulator has a
        ``boot_config_url``, the agent first reads them from its boot
        configuration, as iPXE would; lookup then hands out the token
        the configuration did not give. A boot configuration with a
        ``bss_referral_token`` (a boot session) boots an OS instead of
        the ramdisk: see :meth:`_load_os`.
        """
        with self.lock:
            self._stop_locked()
            if api_url:
                self.api_url = api_url.rstrip('/')
            if node_uuid:
                self.node_uuid_hint = node_uuid
            self.token = agent_token or None
            self.generation += 1
            self.state = LOOKUP
            self.started_at = time.time()
            self.counters['boots'] += 1
            self.commands.clear()
            self.current = None
            self._lookup_attempts = 0
            self._lookup_started = time.monotonic()
            gen = self.generation
            self.event('booted (generation %d)', gen)
            first = self._lookup
            if not agent_token and self.sim.boot_config_url:
                first = self._network_boot
            self._lookup_timer = self.sim.scheduler.call_later(
                float(self.options.get('boot_delay') or 0), first, gen)

    def boot_from_disk(self):
        """Power on from the disk: the instance runs, no IPA agent; its
        host agent starts when the disk holds a deployed image."""
        with self.lock:
            self._stop_locked()
            self.generation += 1
            self.state = INSTANCE
            self.started_at = time.time()
            self.counters['boots'] += 1
            self.event('booted the instance from disk (image: %s)',
                       (self.records['image'] or {}).get('id'))
            self._start_host_agent_locked()

    def _start_host_agent_locked(self):
        if not self.options.get('host_agent'):
            return
        if not (self.instance_node_uuid and self.api_url):
            self.event('no host agent: %s', 'no API URL' if
                       self.instance_node_uuid else 'no deployed node')
            return
        interval = self.options.get('host_agent_interval')
        host_agents.of(self.sim).start(
            self.id, self.api_url, self.instance_node_uuid, self.host_root,
            interval_override=float(interval) if interval else None)
        self.event('host agent started for node %s',
                   self.instance_node_uuid)

    def powered(self):
        return self.state != OFF

    def power_off(self):
        with self.lock:
            self._stop_locked()
            self.generation += 1
            if self.state != OFF:
                self.event('powered off')
            self.state = OFF

    def _stop_locked(self):
        # Power off, reboot, boot: whatever the machine ran stops.
        if getattr(self.sim, 'host_agents', None) is not None:
            self.sim.host_agents.stop(self.id)
        for timer in (self._hb_timer, self._lookup_timer,
                      self._report_timer):
            if timer is not None:
                timer.cancel()
        self._hb_timer = self._lookup_timer = self._report_timer = None
        self._hb_seq += 1
        self._report_seq += 1
        self._os_boot = None
        self.token = None
        self.node_uuid = None
        if self.current is not None and not self.current.done.is_set():
            self.current.finish(error=CommandError(
                'AgentPoweredOff', 'The machine was powered off'))
        self.current = None

    # ----------------------------------------------------------- boot config
    def _network_boot(self, gen):
        """Fetch the boot configuration of the first MAC, then look up
        (or, for a boot session's script, boot its OS)."""
        url = self.sim.boot_config_url.format(mac=self.macs[0])
        try:
            resp = self.sim.session().get(url, timeout=BOOT_CONFIG_TIMEOUT)
            status = resp.status_code
            text = resp.text if status == 200 else ''
        except requests.RequestException as exc:
            status, text = type(exc).__name__, ''
        os_boot = parse_os_boot_config(text, url)
        if os_boot is not None:
            with self.lock:
                if gen != self.generation:
                    return
                self.state = OS_LOADING
                self.event('boot configuration %s answered %s: boot '
                           'session of %s, loading kernel %s', url, status,
                           os_boot['component'], os_boot['kernel'])
            # Downloads are long: the command pool, not the I/O pool of
            # lookups and heartbeats.
            self.sim.submit_command(self._load_os, gen, os_boot)
            return
        if self.options.get('fetch_ramdisk_images'):
            # Downloads are long: the command pool, as for an OS.
            self.sim.submit_command(self._fetch_and_boot_ramdisk, gen, text,
                                    url, status)
            return
        self._boot_ramdisk(gen, text, url, status)

    def _fetch_and_boot_ramdisk(self, gen, text, url, status):
        if self._fetch_ramdisk_images(gen, text, url):
            self._boot_ramdisk(gen, text, url, status)

    def _boot_ramdisk(self, gen, text, url, status):
        """Boot the deploy ramdisk the script ``text`` (from ``url``)
        names: take its kernel parameters, then look up."""
        params = parse_boot_config(text)
        with self.lock:
            if gen != self.generation:
                return
            # Whatever is missing stays as it is: lookup then hands out a
            # token, as for a ramdisk booted without one.
            if params.get('api_url'):
                self.api_url = params['api_url'].rstrip('/')
            if params.get('node_uuid'):
                self.node_uuid_hint = params['node_uuid']
            self.token = params.get('agent_token') or self.token
            # Never the token itself: events are logged and shown.
            self.event('boot configuration %s answered %s (token: %s)',
                       url, status, 'yes' if self.token else 'no')
        self._lookup(gen)

    def _fetch_ramdisk_images(self, gen, text, url):
        """Download the kernel and initrd the ramdisk's script names
        (made absolute against ``url``); False, the machine left at the
        iPXE prompt, when one fails."""
        kernel, _params, initrd = _script_images(text)
        images = {kind: urlparse.urljoin(url, image) for kind, image in
                  (('kernel', kernel), ('initrd', initrd)) if image}
        loaded, error = {}, None
        for kind, image_url in sorted(images.items()):
            try:
                loaded[kind] = dict(self._fetch_discard(image_url),
                                    url=image_url, error=None)
            except IOError as exc:
                loaded[kind] = {'url': image_url, 'size': None,
                                'sha256': None, 'error': str(exc)}
                error = '%s: %s' % (kind, exc)
                break
        with self.lock:
            if gen != self.generation:
                return False
            self.records['ramdisk_images'] = loaded
            if error is not None:
                self.state = BOOT_FAILED
                self.event('ramdisk boot failed, %s', error)
                return False
        return True

    # ---------------------------------------------------------- OS boot
    def _load_os(self, gen, os_boot):
        """Download the session's kernel and initrd (streamed, hashed,
        discarded) and run the OS; a failed download leaves the machine
        at the iPXE prompt (BOOT_FAILED), with no reporter."""
        os_boot = dict(os_boot)
        if (not os_boot['report_url'] and os_boot['component']
                and self.api_url):
            # No URL given: the service's report endpoint for the
            # component.
            os_boot['report_url'] = '%s/v1/boot/components/%s/report' % (
                self.api_url, urlparse.quote(os_boot['component'], safe=''))
        loaded, error = {}, None
        for kind in ('kernel', 'initrd'):
            if not os_boot[kind]:
                continue
            with self.lock:
                if gen != self.generation:
                    return
            try:
                loaded[kind] = self._fetch_discard(os_boot[kind])
            except IOError as exc:
                error = '%s: %s' % (kind, exc)
                break
        with self.lock:
            if gen != self.generation:
                return
            record = dict(os_boot, time=time.time(), error=error)
            record.update({'%s_%s' % (kind, key): loaded.get(kind, {}).get(
                key) for kind in ('kernel', 'initrd')
                for key in ('size', 'sha256')})
            self.records['os_boot'] = record
            if error is not None:
                self.state = BOOT_FAILED
                self.counters['os_boot_failures'] += 1
                self.event('OS boot failed, %s', error)
                return
            self.state = OS
            self.counters['os_boots'] += 1
            self._os_boot = os_boot
            self._report_failures = 0
            self._reported = False
            self.event('booted the OS (kernel %d bytes, initrd %s bytes); '
                       'reporting as %s to %s', record['kernel_size'],
                       record['initrd_size'], os_boot['component'],
                       os_boot['report_url'])
            self._schedule_report_locked(
                float(self.options.get('os_boot_delay') or 0))

    def _fetch_discard(self, url):
        """GET ``url`` to the end; answers ``{size, sha256}``.

        :raises IOError: not a 200, the connection failed, or it took
            longer than ``download_timeout``.
        """
        deadline = time.monotonic() + float(self.options['download_timeout'])
        digest = hashlib.sha256()
        size = 0
        try:
            with self.sim.session().get(url, stream=True, timeout=(
                    10, float(self.options['http_timeout']))) as resp:
                if resp.status_code != 200:
                    raise IOError('%s: HTTP %s' % (url, resp.status_code))
                for chunk in resp.iter_content(CHUNK):
                    if time.monotonic() > deadline:
                        raise IOError('%s: download exceeded %ss' % (
                            url, self.options['download_timeout']))
                    digest.update(chunk)
                    size += len(chunk)
        except requests.RequestException as exc:
            raise IOError('%s: %s' % (url, type(exc).__name__))
        return {'size': size, 'sha256': digest.hexdigest()}

    # ------------------------------------------------------------ reporter
    def _schedule_report_locked(self, delay):
        if self._report_timer is not None:
            self._report_timer.cancel()
        self._report_seq += 1
        self._report_timer = self.sim.scheduler.call_later(
            delay, self._report, self.generation, self._report_seq)

    def _report(self, gen, seq):
        """The booted OS's reporter: POST the referral token; retried with
        a growing backoff until it is accepted, then again every period
        (the first one random in [0, period) to spread the load)."""
        with self.lock:
            if (gen != self.generation or seq != self._report_seq
                    or self.state != OS or self._os_boot is None):
                return
            os_boot = self._os_boot
            period = report_period(os_boot['update_frequency'])
            if self.options.get('never_report'):
                # Silent reporter: the OS runs, never calls back. Look
                # again later in case the option is lifted.
                self._schedule_report_locked(min(period, REPORT_RECHECK))
                return
        url = os_boot['report_url']
        try:
            if not url:
                raise ValueError('no bos_report_url on the kernel command '
                                 'line')
            resp = self.sim.session().post(
                url, data=json.dumps({'bss_token': os_boot['token']}),
                headers={'Content-Type': 'application/json',
                         'Accept': 'application/json'},
                timeout=float(self.options['http_timeout']))
            status = resp.status_code
        except (requests.RequestException, ValueError) as exc:
            status = 'error: %s' % exc
        with self.lock:
            if gen != self.generation:
                return
            self.last_report_status = status
            if isinstance(status, int) and 200 <= status < 300:
                self.counters['reports'] += 1
                self._report_failures = 0
                delay = period if self._reported else random.uniform(
                    0, period)
                self._reported = True
            else:
                self.counters['report_errors'] += 1
                self._report_failures += 1
                delay = min(float(self.options['report_backoff'])
                            * self._report_failures,
                            float(self.options['report_backoff_max']))
                self.event('report to %s answered %s; retry in %.1fs',
                           url, status, delay)
            if seq == self._report_seq and self.state == OS:
                self._schedule_report_locked(delay)

    # --------------------------------------------------------------- lookup
    def _lookup(self, gen):
        with self.lock:
            if gen != self.generation or self.state != LOOKUP:
                return
            self._lookup_attempts += 1
            attempt = self._lookup_attempts
            self.counters['lookups'] += 1
        try:
            status, body = self._do_lookup()
        except requests.RequestException as exc:
            status, body = None, str(exc)
        with self.lock:
            if gen != self.generation:
                return
            self.last_lookup_status = status
            if status == 200 and isinstance(body, dict):
                node = body.get('node') or {}
                config = body.get('config') or {}
                self.node_uuid = node.get('uuid') or self.node_uuid_hint
                timeout = (config.get('heartbeat_timeout')
                           or body.get('heartbeat_timeout') or 300)
                self.heartbeat_timeout = float(timeout)
                token = config.get('agent_token')
                if token and token.strip('*'):
                    self.token = token
                self.state = HEARTBEATING
                self.event('lookup found node %s (heartbeat timeout %s)',
                           self.node_uuid, timeout)
                self._schedule_heartbeat_locked(0)
                return
            elapsed = time.monotonic() - self._lookup_started
            if (attempt >= int(self.options['lookup_max_attempts'])
                    or elapsed >= float(self.options['lookup_timeout'])):
                self.state = LOOKUP_FAILED
                self.event('lookup gave up after %d attempts (last: %s)',
                           attempt, status)
                return
            delay = min(float(self.options['lookup_backoff'])
                        * 2 ** (attempt - 1),
                        float(self.options['lookup_backoff_max']))
            delay = max(0.01, delay * random.uniform(0.8, 1.0))
            self.event('lookup attempt %d answered %s; retry in %.2fs',
                       attempt, status, delay)
            self._lookup_timer = self.sim.scheduler.call_later(
                delay, self._lookup, gen)

    def _do_lookup(self):
        timeout = float(self.options['http_timeout'])
        session = self.sim.session()
        if self.options.get('api_mode') == 'passthru':
            resp = session.post(
                '%s/v1/drivers/agent/vendor_passthru/lookup' % self.api_url,
                data=json.dumps({'version': 2,
                                 'inventory': self.current_inventory()}),
                headers=self._headers(), timeout=timeout)
        else:
            params = {'addresses': ','.join(self.macs)}
            if self.node_uuid_hint:
                params['node_uuid'] = self.node_uuid_hint
            resp = session.get('%s/v1/lookup' % self.api_url, params=params,
                               headers=self._headers(), timeout=timeout)
        try:
            body = resp.json()
        except ValueError:
            body = resp.text
        return resp.status_code, body

    # ------------------------------------------------------------ heartbeat
    def _schedule_heartbeat_locked(self, delay):
        if self._hb_timer is not None:
            self._hb_timer.cancel()
        self._hb_seq += 1
        self._hb_timer = self.sim.scheduler.call_later(
            delay, self._heartbeat, self.generation, self._hb_seq)

    def _interval(self):
        if self.options.get('heartbeat_interval'):
            base = float(self.options['heartbeat_interval'])
        else:
            base = (self.heartbeat_timeout or 300.0) / 2.0
        return self._jitter(base)

    def force_heartbeat(self):
        with self.lock:
            if self.state == HEARTBEATING:
                self._schedule_heartbeat_locked(0)

    def _heartbeat(self, gen, seq):
        with self.lock:
            if (gen != self.generation or seq != self._hb_seq
                    or self.state != HEARTBEATING):
                return
            if self.options.get('no_heartbeat'):
                # Silent agent: stays alive, never calls back. Check again
                # later in case the option is lifted.
                self._schedule_heartbeat_locked(self._interval())
                return
            status_doc = self._agent_status_locked()
            node_uuid, token = self.node_uuid, self.token
        try:
            status = self._do_heartbeat(node_uuid, token, status_doc)
        except requests.RequestException as exc:
            status = 'error: %s' % exc
        with self.lock:
            if gen != self.generation:
                return
            self.last_heartbeat_status = status
            if status in (200, 202, 204):
                self.counters['heartbeats'] += 1
            else:
                self.counters['heartbeat_errors'] += 1
                self.event('heartbeat answered %s', status)
            if seq == self._hb_seq and self.state == HEARTBEATING:
                interval = self._interval()
                if status not in (200, 202, 204):
                    # API down or refusing: try again sooner.
                    interval = min(interval, self._jitter(5.0))
                self._schedule_heartbeat_locked(interval)

    def _agent_status_locked(self):
        # Ironic accepts only start/end/error in agent_status.
        if self.current is not None and self.current.status == RUNNING:
            return 'start', 'running %s' % self.current.name
        last = next(reversed(self.commands.values()), None)
        if last is not None and last.status == FAILED:
            return 'error', '%s failed: %s' % (
                last.name, (last.error or {}).get('message'))
        return 'end', ('%s done' % last.name) if last is not None else ''

    def _do_heartbeat(self, node_uuid, token, status_doc):
        timeout = float(self.options['http_timeout'])
        session = self.sim.session()
        if self.options.get('api_mode') == 'passthru':
            url = '%s/v1/nodes/%s/vendor_passthru/heartbeat' % (
                self.api_url, node_uuid)
            body = {'agent_url': self.url}
            if token:
                body['agent_token'] = token
        else:
            url = '%s/v1/heartbeat/%s' % (self.api_url, node_uuid)
            body = {'callback_url': self.url,
                    'agent_version': AGENT_VERSION,
                    'agent_token': token,
                    'agent_status': status_doc[0],
                    'agent_status_message': status_doc[1]}
        resp = session.post(url, data=json.dumps(body),
                            headers=self._headers(), timeout=timeout)
        return resp.status_code

    # ------------------------------------------------------------- commands
    def running(self):
        return self.state in (LOOKUP, HEARTBEATING)

    def check_token(self, token):
        with self.lock:
            if self.token is None:
                return True
            if token is None:
                return not self.options.get('require_token')
            return token == self.token

    def get_command(self, command_id):
        with self.lock:
            cmd = self.commands.get(command_id)
            return cmd.serialize() if cmd is not None else None

    def list_commands(self):
        with self.lock:
            return [c.serialize() for c in self.commands.values()]

    def _failing(self, name):
        fail = self.options.get('fail_command')
        if not fail:
            return False
        names = [fail] if isinstance(fail, str) else list(fail)
        short = name.split('.', 1)[-1]
        return name in names or short in names or '*' in names

    def _delay(self, name):
        short = name.split('.', 1)[-1]
        for key in ('%s_delay' % name, '%s_delay' % short):
            if self.options.get(key) is not None:
                return float(self.options[key])
        return float(self.options.get('command_delay') or 0)

    def execute(self, name, params, wait=False, wait_timeout=60.0):
        """Start a command; answers the command document.

        :raises UnknownCommand: no such command.
        :raises BusyError: an asynchronous command is still running.
        """
        entry = COMMANDS.get(name)
        if entry is None:
            raise UnknownCommand(name)
        handler, is_async = entry
        cmd = Command(name, params or {})
        with self.lock:
            if is_async:
                if (self.current is not None
                        and self.current.status == RUNNING):
                    raise BusyError(self.current.name)
                self.current = cmd
            self.commands[cmd.id] = cmd
            while len(self.commands) > MAX_COMMANDS_KEPT:
                self.commands.popitem(last=False)
            gen = self.generation
            self.event('command %s (%s) started', name, cmd.id)
        if not is_async:
            self._run(cmd, handler, gen, heartbeat=False)
            return cmd.serialize()
        delay = self._delay(name)
        if delay > 0:
            self.sim.scheduler.call_later(
                delay, self.sim.submit_command, self._run, cmd, handler,
                gen)
        else:
            self.sim.submit_command(self._run, cmd, handler, gen)
        if wait:
            cmd.done.wait(wait_timeout)
        return cmd.serialize()

    def _run(self, cmd, handler, gen, heartbeat=True):
        if cmd.done.is_set():
            return  # abandoned (power off)
        self._command_ctx.generation = gen
        try:
            if gen != self.generation:
                raise CommandError('AgentPoweredOff',
                                   'The machine was powered off')
            if self._failing(cmd.name):
                raise CommandError(
                    'InjectedFailure',
                    self.options.get('fail_message')
                    or 'Injected failure of %s' % cmd.name)
            result = handler(self, cmd.params)
        except CommandError as exc:
            cmd.finish(error=exc)
        except Exception as exc:
            LOG.exception('agent %s: command %s crashed', self.id, cmd.name)
            cmd.finish(error=CommandError(type(exc).__name__, str(exc)))
        else:
            cmd.finish(result=result)
        finally:
            self._command_ctx.generation = None
        with self.lock:
            self.event('command %s finished: %s%s', cmd.name, cmd.status,
                       ' (%s)' % cmd.error['message'] if cmd.error else '')
            if self.current is cmd:
                self.current = None
        if heartbeat and gen == self.generation:
            self.force_heartbeat()

    def finalize_rescue(self, params):
        """IPA's rescue.finalize_rescue: set the rescue password and stop
        the agent. Only the hash is recorded: a plain password (hashed
        false, as old conductors send it) is reduced to its SHA-256, so
        the control API never shows a secret."""
        password = params.get('rescue_password')
        if not isinstance(password, str) or not password:
            raise CommandError('InvalidCommandParamsError',
                               'rescue_password is required', code=400)
        hashed = bool(params.get('hashed'))
        with self.lock:
            self.records['rescue'] = {
                'hashed': hashed,
                'password_hash': (password if hashed else 'sha256:' +
                                  hashlib.sha256(password.encode())
                                  .hexdigest()),
                'at': time.time()}
            # The agent stops: no more heartbeats; the machine stays up
            # in the rescue environment until powered off or rebooted.
            if self._hb_timer is not None:
                self._hb_timer.cancel()
                self._hb_timer = None
            self._hb_seq += 1
            self.state = RESCUED
            self.event('rescue finalized (%s password)',
                       'hashed' if hashed else 'plain')
        return {'result': 'rescue finalized'}

    # ------------------------------------------------------ disk operations
    def _download(self, urls, algo, expected, dest):
        deadline = time.monotonic() + float(
            self.options['download_timeout'])
        errors = []
        session = self.sim.session()
        for url in urls:
            digest = hashlib.new(algo)
            size = 0
            tmp = dest + '.part'
            try:
                with session.get(url, stream=True, timeout=(
                        10, float(self.options['http_timeout']))) as resp:
                    if resp.status_code != 200:
                        errors.append('%s: HTTP %s' % (url,
                                                       resp.status_code))
                        continue
                    with open(tmp, 'wb') as out:
                        for chunk in resp.iter_content(CHUNK):
                            if time.monotonic() > deadline:
                                raise CommandError(
                                    'ImageDownloadError',
                                    'Download of %s exceeded %ss' % (
                                        url,
                                        self.options['download_timeout']))
                            digest.update(chunk)
                            out.write(chunk)
                            size += len(chunk)
            except requests.RequestException as exc:
                errors.append('%s: %s' % (url, exc))
                _remove(tmp)
                continue
            except CommandError:
                _remove(tmp)
                raise
            actual = digest.hexdigest()
            if actual.lower() != expected.lower():
                _remove(tmp)
                raise CommandError(
                    'ImageChecksumError',
                    'Image failed to verify against checksum. location: '
                    '%s; image checksum (%s): %s; verification checksum: '
                    '%s' % (url, algo, expected, actual))
            os.replace(tmp, dest)
            return url, actual, size
        raise CommandError(
            'ImageDownloadError',
            'Unable to download image: %s'
            % '; '.join(errors or ['no URL given']))

    def write_image(self, image_info, configdrive=None):
        urls = image_info.get('urls') or (
            [image_info['url']] if image_info.get('url') else [])
        if isinstance(urls, str):
            urls = [urls]
        algo = image_info.get('os_hash_algo')
        expected = image_info.get('os_hash_value')
        if not (algo and expected):
            expected = image_info.get('checksum')
            algo = {32: 'md5', 64: 'sha256', 128: 'sha512'}.get(
                len(expected or ''))
        if not expected or not algo:
            raise CommandError('ImageChecksumError',
                               'No usable checksum in image_info')
        try:
            hashlib.new(algo)
        except ValueError:
            raise CommandError('ImageChecksumError',
                               'Unsupported hash algorithm %s' % algo)
        url, actual, size = self._download(urls, algo, expected,
                                           self.disk_path)
        # A new image: a new filesystem, without the previous instance's
        # files nor its host agent's state.
        host_agents.wipe(self.host_root)
        root_uuid = str(uuid.uuid4())
        record = {'id': image_info.get('id'), 'url': url, 'size': size,
                  'hash_algo': algo, 'hash': actual, 'root_uuid': root_uuid}
        cd_record = None
        if configdrive:
            cd_record = self._write_configdrive(configdrive)
        else:
            _remove(self.configdrive_path)
        with self.lock:
            self.root_uuid = root_uuid
            self.instance_node_uuid = self.node_uuid or self.node_uuid_hint
            self.records['image'] = record
            self.records['configdrive'] = cd_record
        return root_uuid

    def _write_configdrive(self, configdrive):
        if isinstance(configdrive, dict):
            data = json.dumps(configdrive).encode()
            source = 'json'
        elif configdrive.startswith(('http://', 'https://')):
            try:
                resp = self.sim.session().get(
                    configdrive, timeout=float(self.options['http_timeout']))
                resp.raise_for_status()
            except requests.RequestException as exc:
                raise CommandError(
                    'ConfigDriveDownloadError',
                    'Unable to download config drive %s: %s'
                    % (configdrive, exc))
            data, source = _decode_configdrive(resp.content), 'url'
        else:
            data, source = _decode_configdrive(configdrive.encode()), 'inline'
        with open(self.configdrive_path, 'wb') as out:
            out.write(data)
        return {'size': len(data), 'source': source,
                'sha256': hashlib.sha256(data).hexdigest()}

    def erase(self):
        """Zero the disk (and config drive) files, keeping their size."""
        total = 0
        for path in (self.disk_path, self.configdrive_path):
            if not os.path.exists(path):
                continue
            size = os.path.getsize(path)
            zeros = bytes(min(CHUNK, size))
            with open(path, 'r+b') as out:
                left = size
                while left > 0:
                    n = min(left, len(zeros))
                    out.write(zeros[:n])
                    left -= n
            total += size
        if getattr(self.sim, 'host_agents', None) is not None:
            self.sim.host_agents.stop(self.id)
        host_agents.wipe(self.host_root)
        with self.lock:
            self.records['erased'] += 1
            self.root_uuid = None
            self.instance_node_uuid = None
        return total

    # ---------------------------------------------------------- accelerators
    def _command_generation(self):
        """The generation the running command was started in."""
        gen = getattr(self._command_ctx, 'generation', None)
        if gen is None:
            with self.lock:
                gen = self.generation
        return gen

    def _check_generation_locked(self, gen):
        if gen != self.generation:
            raise CommandError('AgentPoweredOff',
                               'The machine was powered off')

    def _region_locked(self, key):
        try:
            return accel.find_region(self.accelerators, key)
        except accel.NotFound as exc:
            raise CommandError('AcceleratorNotFound', str(exc), 404)

    def _region_target(self, params):
        address = params.get('pci_address')
        if not address or not isinstance(address, str):
            raise CommandError('InvalidCommandParamsError',
                               'pci_address is required', 400)
        index = params.get('region_index', 0)
        if index is None:
            index = 0
        if isinstance(index, str) and index.strip().isdigit():
            index = int(index)
        try:
            return accel.region_key(address, index)
        except accel.NotFound as exc:
            raise CommandError('AcceleratorNotFound', str(exc), 404)

    def bitstream_path(self, key):
        return '%s.%s' % (self._state_base,
                          accel.bitstream_file_name(*key))

    def bitstream(self, address, region_index):
        """The bytes last programmed in a region, or None."""
        try:
            key = accel.region_key(address, region_index)
        except accel.NotFound:
            return None
        with self.lock:
            entry = self._bitstreams.get(key)
        if entry is None:
            return None
        try:
            with open(entry['path'], 'rb') as f:
                return f.read()
        except OSError:
            return None

    def _program_wait(self, gen):
        """Wait program_delay s (without the lock); stop at a power off."""
        delay = float(self.options.get('program_delay') or 0)
        deadline = time.monotonic() + delay
        while True:
            with self.lock:
                self._check_generation_locked(gen)
            left = deadline - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(left, 0.05))

    def program_accelerator(self, params):
        """accelerator.program: download, verify and load a bitstream into
        an FPGA region; answers ``{pci_address, region_index, sha256,
        size}``."""
        gen = self._command_generation()
        key = self._region_target(params)
        image = params.get('image')
        if not isinstance(image, dict):
            raise CommandError('InvalidCommandParamsError',
                               'image is required', 400)
        function = params.get('function')
        if function is not None and not isinstance(function, dict):
            raise CommandError('InvalidCommandParamsError',
                               'function must be an object or null', 400)
        urls = image.get('urls') or (
            [image['url']] if image.get('url') else [])
        if isinstance(urls, str):
            urls = [urls]
        algo = image.get('os_hash_algo') or 'sha256'
        expected = image.get('os_hash_value')
        if not expected:
            raise CommandError('ImageChecksumError',
                               'No os_hash_value for bitstream %s'
                               % image.get('id'))
        try:
            hashlib.new(algo)
        except ValueError:
            raise CommandError('ImageChecksumError',
                               'Unsupported hash algorithm %s' % algo)
        with self.lock:
            self._region_locked(key)
            region_lock = self._program_locks[key]
        with region_lock:
            return self._program_region(gen, key, image, function, urls,
                                        algo, str(expected))

    def _program_region(self, gen, key, image, function, urls, algo,
                        expected):
        dest = self.bitstream_path(key)
        tmp = '%s.%s.new' % (dest, uuid.uuid4().hex)
        try:
            url, actual, size = self._download(urls, algo, expected, tmp)
            sha256 = actual.lower() if algo == 'sha256' else _sha256(tmp)
            self._program_wait(gen)
            fail = self.options.get('fail_program')
            if fail:
                raise CommandError(
                    'FPGAProgramError', fail if isinstance(fail, str) else
                    'Simulated failure programming %s region %d'
                    % key)
            with self.lock:
                self._check_generation_locked(gen)
                # The card may have vanished meanwhile.
                region = self._region_locked(key)
                os.replace(tmp, dest)
                region['function'] = copy.deepcopy(function)
                self._programmed[key] = copy.deepcopy(function)
                self._bitstreams[key] = {'path': dest, 'sha256': sha256,
                                         'size': size}
                self.records['accelerators'].append({
                    'pci_address': key[0], 'region_index': key[1],
                    'image_id': image.get('id'), 'url': url,
                    'sha256': sha256, 'size': size,
                    'programmed_at': _now(),
                    'function': copy.deepcopy(function)})
                self.event('programmed %s region %d with %s (%d bytes, '
                           'function %s)', key[0], key[1], image.get('id'),
                           size, (function or {}).get('name'))
        finally:
            _remove(tmp)
        return {'pci_address': key[0], 'region_index': key[1],
                'sha256': sha256, 'size': size}

    def erase_accelerator(self, params):
        """accelerator.erase: unload an FPGA region's function."""
        gen = self._command_generation()
        key = self._region_target(params)
        with self.lock:
            self._check_generation_locked(gen)
            region = self._region_locked(key)
            region['function'] = None
            self._programmed[key] = None
            self.records['accelerator_erases'].append({
                'pci_address': key[0], 'region_index': key[1],
                'erased_at': _now()})
            self.event('erased %s region %d', key[0], key[1])
        return {'erased': True}


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat()


def _sha256(path):
    digest = hashlib.sha256()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(CHUNK), b''):
            digest.update(chunk)
    return digest.hexdigest()


def _remove(path):
    try:
        os.unlink(path)
    except OSError:
        pass


def _decode_configdrive(raw):
    """Ironic sends gzipped, base64-encoded ISO images; accept raw too."""
    try:
        data = base64.b64decode(raw, validate=True)
    except ValueError:
        return raw
    try:
        return gzip.decompress(data)
    except (OSError, EOFError):
        return data
