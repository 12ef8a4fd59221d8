"""The agent simulator: one HTTP server hosting many virtual agents.

URL layout (one server, one port):

* ``/agents/<id>/`` and ``/agents/<id>/v1/...``: each agent's IPA API
  (``GET v1/status``, ``POST v1/commands/?wait=false``,
  ``GET v1/commands/``, ``GET v1/commands/<command id>``).
* ``/control/...``: the simulator's own API (declare agents, power them,
  inject delays and failures); see :class:`Handler`.

Threads: the HTTP server's request threads, one timer thread
(:class:`~ironic_like_lab.scheduler.Scheduler`), a small I/O pool for
lookups and heartbeats and a small pool for commands, whatever the number
of agents.
"""

import json
import logging
import os
import threading
from concurrent import futures
from http import server as http_server
from urllib import parse

import requests
import yaml

from ironic_like_lab import commands
from ironic_like_lab import scheduler as sched
from ironic_like_lab import virtual

LOG = logging.getLogger(__name__)

MAX_BODY = 64 * 1024 * 1024
POWER_ON = ('on', 'forceon', 'poweron', 'boot')
POWER_OFF = ('off', 'forceoff', 'gracefulshutdown', 'poweroff',
             'pushpowerbutton')
POWER_RESTART = ('forcerestart', 'gracefulrestart', 'reboot', 'nmi')
# What a machine's OS may ignore (option ignore_graceful_shutdown).
POWER_GRACEFUL = ('gracefulshutdown', 'gracefulrestart', 'pushpowerbutton')
# The simulator's answer to a power-on of a machine with fail_power_on.
POWER_ON_FAILURE = 'simulated power-on failure'


class _Server(http_server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024
    allow_reuse_address = True


class Simulator(object):

    def __init__(self, api_url=None, host='127.0.0.1', port=0,
                 state_dir=None, io_workers=8, command_workers=8,
                 public_host=None, boot_config_url=None):
        """``boot_config_url``: template of the URL a network-booting agent
        reads its kernel parameters from, ``{mac}`` standing for its first
        MAC, e.g. ``http://127.0.0.1:8088/macs/{mac}.ipxe``."""
        self.api_url = (api_url or '').rstrip('/')
        if boot_config_url:
            # Fail here rather than in every agent's boot.
            boot_config_url.format(mac='52:54:00:00:00:00')
        self.boot_config_url = boot_config_url or None
        self.state_dir = os.path.abspath(state_dir or os.path.join(
            os.getcwd(), 'agent-sim-state'))
        os.makedirs(self.state_dir, exist_ok=True)
        self.agents = {}
        self.lock = threading.Lock()
        self.scheduler = sched.Scheduler(workers=io_workers)
        self._commands = futures.ThreadPoolExecutor(
            max_workers=command_workers, thread_name_prefix='agent-sim-cmd')
        self._local = threading.local()
        self.httpd = _Server((host, port), Handler)
        self.httpd.simulator = self
        self.host, self.port = self.httpd.server_address[:2]
        self.base_url = 'http://%s:%d' % (public_host or self.host,
                                          self.port)
        self._thread = None

    # --------------------------------------------------------- lifecycle
    def start(self):
        self.scheduler.start()
        self._thread = threading.Thread(target=self.httpd.serve_forever,
                                        kwargs={'poll_interval': 0.2},
                                        name='agent-sim-http', daemon=True)
        self._thread.start()
        LOG.info('Agent simulator listening on %s', self.base_url)

    def serve_forever(self):
        self.scheduler.start()
        LOG.info('Agent simulator listening on %s (%d agents)',
                 self.base_url, len(self.agents))
        self.httpd.serve_forever(poll_interval=0.5)

    def stop(self):
        with self.lock:
            agents = list(self.agents.values())
        for agent in agents:
            agent.power_off()
        self.scheduler.stop()
        self._commands.shutdown(wait=False, cancel_futures=True)
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join(5)
        self.httpd.server_close()

    # ------------------------------------------------------------ helpers
    def session(self):
        """A requests session per thread (keeps connections alive)."""
        session = getattr(self._local, 'session', None)
        if session is None:
            session = self._local.session = requests.Session()
        return session

    def submit_command(self, fn, *args):
        try:
            return self._commands.submit(fn, *args)
        except RuntimeError:
            return None  # shutting down

    # ------------------------------------------------------------- agents
    def add_agent(self, spec, boot=None):
        """Declare one agent from ``{id, macs, node_uuid?, api_url?,
        options?, inventory?, inventory_extra?, powered?}`` (options may
        also be given at the top level); answers the agent."""
        if not isinstance(spec, dict):
            raise ValueError('an agent is a JSON object')
        agent_id = spec.get('id') or spec.get('name') or spec.get(
            'node_uuid')
        macs = spec.get('macs') or spec.get('mac_addresses') or []
        if isinstance(macs, str):
            macs = [m.strip() for m in macs.split(',') if m.strip()]
        options = dict(spec.get('options') or {})
        for key in spec:
            if key in virtual.DEFAULT_OPTIONS or key.endswith('_delay'):
                options[key] = spec[key]
        agent = virtual.VirtualAgent(
            self, str(agent_id or ''), macs, api_url=spec.get('api_url'),
            node_uuid=spec.get('node_uuid'), options=options,
            inventory=spec.get('inventory'))
        extra = spec.get('inventory_extra')
        if isinstance(extra, dict):
            # e.g. {"pci_devices": [...]}.
            agent.inventory.update(extra)
            if (extra.get('accelerators') is not None
                    and agent.options.get('accelerators') is None):
                # Accelerators there too (the option wins): live state.
                agent.replace_accelerators(extra['accelerators'])
        with self.lock:
            if agent.id in self.agents:
                raise KeyError(agent.id)
            self.agents[agent.id] = agent
        if boot if boot is not None else spec.get('powered'):
            agent.boot()
        return agent

    def remove_agent(self, agent_id):
        with self.lock:
            agent = self.agents.pop(agent_id, None)
        if agent is not None:
            agent.power_off()
        return agent

    def find(self, key):
        """An agent by id, node UUID (hint or looked up) or MAC."""
        with self.lock:
            agent = self.agents.get(key)
            if agent is not None:
                return agent
            lowered = key.lower()
            for agent in self.agents.values():
                if (lowered == (agent.node_uuid_hint or '').lower()
                        or lowered == (agent.node_uuid or '').lower()
                        or lowered in agent.macs):
                    return agent
        return None

    def load_fleet(self, path):
        with open(path) as f:
            doc = yaml.safe_load(f) or {}
        return self.load_fleet_doc(doc)

    def load_fleet_doc(self, doc):
        """``{"api_url"?, "defaults"?: {...}, "agents": [...]}`` or a list.
        """
        if isinstance(doc, list):
            doc = {'agents': doc}
        defaults = doc.get('defaults') or {}
        if doc.get('api_url') and not self.api_url:
            self.api_url = doc['api_url'].rstrip('/')
        added = []
        for spec in doc.get('agents') or []:
            merged = dict(defaults)
            merged.update(spec)
            if defaults.get('options') and spec.get('options'):
                merged['options'] = dict(defaults['options'],
                                         **spec['options'])
            added.append(self.add_agent(merged))
        return added

    def stats(self):
        with self.lock:
            agents = list(self.agents.values())
        states = {}
        heartbeats = reports = 0
        for agent in agents:
            states[agent.state] = states.get(agent.state, 0) + 1
            heartbeats += agent.counters['heartbeats']
            reports += agent.counters['reports']
        return {'agents': len(agents), 'states': states,
                'heartbeats': heartbeats, 'reports': reports,
                'threads': threading.active_count(),
                'scheduled': self.scheduler.pending(),
                'base_url': self.base_url, 'api_url': self.api_url}


def _boot_args(body):
    """What a ramdisk would read from its kernel command line."""
    body = body if isinstance(body, dict) else {}
    return {'agent_token': body.get('agent_token'),
            'api_url': body.get('api_url'),
            'node_uuid': body.get('node_uuid')}


class Handler(http_server.BaseHTTPRequestHandler):
    """Routes for the agents' IPA API and the control API.

    Control API:

    * ``GET /control/health``: counts (agents, states, threads).
    * ``GET /control/agents``: summaries; ``POST /control/agents`` with one
      agent ``{id, macs, node_uuid?, api_url?, options?, powered?}`` or
      ``{"agents": [...]}``: 201.
    * ``GET|DELETE /control/agents/<id>``: details (inventory, commands,
      records of firmware/BIOS steps and of accelerator programs and
      erases, current ``accelerators``, disk path) / remove.
    * ``GET /control/agents/<id>/accelerators``: ``{"accelerators":
      [...]}`` as they are now; ``GET /control/agents/<id>/accelerators/
      <pci address>/<region index>/bitstream``: the raw bytes last
      programmed in that FPGA region (404 if none).
    * ``POST /control/agents/<id>/boot|poweroff|reboot``; boot and reboot
      take an optional ``{"agent_token", "api_url", "node_uuid"}`` (what
      the boot configuration would put on the kernel command line).
    * ``PUT|PATCH /control/agents/<id>/options``: merge injection options
      (``{"prepare_image_delay": 2, "fail_command": "..."}``; null resets);
      ``GET``: ``{"options": {...}}`` (what the Redfish emulator asks).
    * ``POST /control/power`` ``{"system": <id|node uuid|mac>,
      "power_state": "On|Off|ForceRestart|...", "agent_token"?,
      "api_url"?}``, for BMC notifiers: ``On`` of a powered machine
      changes nothing; with the machine's option ``fail_power_on``,
      ``On`` answers 500 ``simulated power-on failure``; with
      ``ignore_graceful_shutdown``, ``GracefulShutdown``,
      ``GracefulRestart`` and ``PushPowerButton`` answer 202 and leave
      the machine on. It also takes (POST or PUT) the system record
      sushy-tools' FakeDriver sends on every change (see
      :meth:`_notification`): there the emulator already applied those
      options (:mod:`ironic_like_lab.redfish_emulator`).

    ``<id>`` may also be the node UUID or a MAC of the agent.
    """

    protocol_version = 'HTTP/1.1'
    server_version = 'ironic-like-agent-sim'

    def log_message(self, fmt, *args):
        LOG.debug('%s - %s', self.address_string(), fmt % args)

    @property
    def sim(self):
        return self.server.simulator

    # ------------------------------------------------------------ helpers
    def _reply(self, status, body=None):
        data = b'' if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        if data and self.command != 'HEAD':
            self.wfile.write(data)

    def _error(self, status, kind, message):
        self._reply(status, {'type': kind, 'code': status,
                             'message': message, 'details': message})

    def _body(self):
        length = int(self.headers.get('Content-Length') or 0)
        if length > MAX_BODY:
            raise ValueError('request body too large')
        raw = self.rfile.read(length) if length else b''
        if not raw.strip():
            return {}
        return json.loads(raw)

    def _dispatch(self, method):
        url = parse.urlsplit(self.path)
        parts = [parse.unquote(p) for p in url.path.split('/') if p]
        query = dict(parse.parse_qsl(url.query))
        try:
            body = self._body() if method in ('POST', 'PUT',
                                              'PATCH') else {}
        except ValueError as exc:
            return self._error(400, 'InvalidContentError', str(exc))
        try:
            if parts[:1] == ['agents'] and len(parts) >= 2:
                return self._agent_api(method, parts[1], parts[2:], query,
                                       body)
            if parts[:1] == ['control']:
                return self._control(method, parts[1:], body)
            if not parts:
                return self._reply(200, {'name': 'ironic-like agent '
                                         'simulator',
                                         'control': '/control/health'})
            return self._error(404, 'NotFound', 'No such resource')
        except Exception as exc:  # never kill the request thread silently
            LOG.exception('Request %s %s failed', method, self.path)
            return self._error(500, type(exc).__name__, str(exc))

    def do_GET(self):
        self._dispatch('GET')

    def do_POST(self):
        self._dispatch('POST')

    def do_PUT(self):
        self._dispatch('PUT')

    def do_PATCH(self):
        self._dispatch('PATCH')

    def do_DELETE(self):
        self._dispatch('DELETE')

    # ----------------------------------------------------------- IPA API
    def _agent_api(self, method, agent_id, rest, query, body):
        agent = self.sim.agents.get(agent_id)
        if agent is None:
            return self._error(404, 'NotFound', 'No agent %s' % agent_id)
        if not agent.running():
            # A powered-off machine does not answer at all; 503 is the
            # nearest thing over a shared server.
            return self._error(503, 'AgentNotRunning',
                               'Agent %s is not running' % agent_id)
        if not rest:
            return self._reply(200, {
                'name': 'OpenStack Ironic Python Agent API',
                'description': 'Simulated by ironic_like',
                'versions': [{'id': 'v1', 'links': [
                    {'href': '%s/v1/' % agent.url, 'rel': 'self'}]}],
                'default_version': {'id': 'v1'}})
        if rest[0] != 'v1':
            return self._error(404, 'NotFound', 'Unknown API version')
        rest = rest[1:]
        if rest in ([], ['status']):
            return self._reply(200, {'started_at': agent.started_at,
                                     'version': virtual.AGENT_VERSION})
        if rest[0] != 'commands' or len(rest) > 2:
            return self._error(404, 'NotFound', 'No such resource')
        # The token in the X-Agent-Token header (what ironic_like sends),
        # or in the agent_token query parameter (where
        # ironic-python-agent reads it).
        token = self.headers.get('X-Agent-Token') or \
            query.get('agent_token')
        if not agent.check_token(token):
            return self._error(401, 'Unauthorized', 'Invalid agent token')
        if len(rest) == 2:
            if method != 'GET':
                return self._error(405, 'MethodNotAllowed', method)
            doc = agent.get_command(rest[1])
            if doc is None:
                return self._error(404, 'RequestedObjectNotFoundError',
                                   'Command %s not found' % rest[1])
            return self._reply(200, doc)
        if method == 'GET':
            return self._reply(200, {'commands': agent.list_commands()})
        if method != 'POST':
            return self._error(405, 'MethodNotAllowed', method)
        name = body.get('name') if isinstance(body, dict) else None
        params = body.get('params') if isinstance(body, dict) else None
        if not name or not isinstance(params or {}, dict):
            return self._error(400, 'InvalidContentError',
                               'name and params are required')
        wait = str(query.get('wait', 'false')).lower() == 'true'
        try:
            doc = agent.execute(name, params or {}, wait=wait)
        except commands.UnknownCommand:
            return self._error(400, 'InvalidCommandError',
                               'Unknown command %s' % name)
        except commands.BusyError as exc:
            return self._error(409, 'AgentIsBusy',
                               'Agent is busy with %s' % exc)
        return self._reply(200, doc)

    # ------------------------------------------------------- control API
    def _control(self, method, rest, body):
        if rest == ['health'] and method == 'GET':
            return self._reply(200, self.sim.stats())
        if rest == ['power'] and method in ('POST', 'PUT'):
            return self._power(body)
        if rest[:1] != ['agents']:
            return self._error(404, 'NotFound', 'No such resource')
        if len(rest) == 1:
            if method == 'GET':
                with self.sim.lock:
                    agents = list(self.sim.agents.values())
                return self._reply(200, {
                    'agents': [a.summary() for a in agents]})
            if method == 'POST':
                return self._create(body)
            return self._error(405, 'MethodNotAllowed', method)
        agent = self.sim.find(rest[1])
        if agent is None:
            return self._error(404, 'NotFound', 'No agent %s' % rest[1])
        action = rest[2] if len(rest) == 3 else None
        if rest[2:3] == ['accelerators'] and len(rest) in (3, 6):
            return self._accelerators(method, agent, rest[3:])
        if len(rest) > 3:
            return self._error(404, 'NotFound', 'No such resource')
        if action is None:
            if method == 'GET':
                return self._reply(200, agent.detail())
            if method == 'DELETE':
                self.sim.remove_agent(agent.id)
                return self._reply(204)
            return self._error(405, 'MethodNotAllowed', method)
        if action == 'options' and method == 'GET':
            with agent.lock:
                options = dict(agent.options)
            return self._reply(200, {'options': options})
        if action == 'options' and method in ('PUT', 'PATCH', 'POST'):
            if not isinstance(body, dict):
                return self._error(400, 'InvalidContentError',
                                   'options are a JSON object')
            try:
                agent.set_options(body)
            except ValueError as exc:
                return self._error(400, 'InvalidContentError', str(exc))
            return self._reply(200, {'options': agent.detail()['options']})
        if method != 'POST':
            return self._error(405, 'MethodNotAllowed', method)
        if action == 'boot':
            agent.boot(**_boot_args(body))
        elif action == 'poweroff':
            agent.power_off()
        elif action == 'reboot':
            agent.power_off()
            agent.boot(**_boot_args(body))
        else:
            return self._error(404, 'NotFound', 'Unknown action %s'
                               % action)
        return self._reply(202, agent.summary())

    def _accelerators(self, method, agent, rest):
        if method != 'GET':
            return self._error(405, 'MethodNotAllowed', method)
        if not rest:
            with agent.lock:
                devices = json.loads(json.dumps(agent.accelerators))
            return self._reply(200, {'accelerators': devices})
        address, index, what = rest
        if what != 'bitstream' or not index.isdigit():
            return self._error(404, 'NotFound', 'No such resource')
        data = agent.bitstream(address, int(index))
        if data is None:
            return self._error(404, 'NotFound',
                               'Nothing programmed in region %s of %s'
                               % (index, address))
        self.send_response(200)
        self.send_header('Content-Type', 'application/octet-stream')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _create(self, body):
        specs = body.get('agents') if isinstance(body, dict) and \
            'agents' in body else [body]
        if not isinstance(specs, list):
            return self._error(400, 'InvalidContentError',
                               'agents must be a list')
        created = []
        for spec in specs:
            try:
                created.append(self.sim.add_agent(spec))
            except KeyError as exc:
                return self._error(409, 'Conflict',
                                   'Agent %s exists' % exc.args[0])
            except (ValueError, TypeError) as exc:
                return self._error(400, 'InvalidContentError', str(exc))
        docs = [a.summary() for a in created]
        return self._reply(201, docs[0] if len(docs) == 1 and
                           'agents' not in body else {'agents': docs})

    def _power(self, body):
        if not isinstance(body, dict):
            return self._error(400, 'InvalidContentError',
                               'expected a JSON object')
        # sushy-tools' system records always have a uuid, never a system.
        if 'uuid' in body and 'system' not in body:
            return self._notification(body)
        key = (body.get('system') or body.get('id')
               or body.get('node_uuid') or body.get('mac'))
        state = str(body.get('power_state') or body.get('reset_type')
                    or '').replace(' ', '').lower()
        agent = self.sim.find(str(key)) if key else None
        if agent is None:
            return self._error(404, 'NotFound', 'No agent %s' % key)
        if (state in POWER_GRACEFUL and agent.powered()
                and agent.options.get('ignore_graceful_shutdown')):
            # The BMC passes the request on; the OS ignores it.
            with agent.lock:
                agent.event('ignored %s (ignore_graceful_shutdown)',
                            state)
            return self._reply(202, agent.summary())
        if state in POWER_ON:
            if agent.powered():
                pass
            elif agent.options.get('fail_power_on'):
                with agent.lock:
                    agent.event('power-on refused (fail_power_on)')
                return self._error(500, 'PowerOnFailure', POWER_ON_FAILURE)
            else:
                agent.boot(**_boot_args(body))
        elif state in POWER_OFF:
            agent.power_off()
        elif state in POWER_RESTART:
            agent.power_off()
            agent.boot(**_boot_args(body))
        else:
            return self._error(400, 'InvalidContentError',
                               'Unknown power state %r' % state)
        return self._reply(202, agent.summary())

    def _notification(self, system):
        """Follow a system record of sushy-tools' FakeDriver.

        The emulator sends it on every change (power, pending power, boot
        device), so only a change of the applied ``power_state`` acts;
        ``pending_power`` is what the BMC has not done yet. The machine is
        the agent whose id or node UUID is the system's uuid, else the one
        owning one of its NICs' MACs.
        """
        keys = [system.get('uuid')] + [
            nic.get('mac') for nic in system.get('nics') or []
            if isinstance(nic, dict)]
        agent = None
        for key in keys:
            agent = self.sim.find(str(key)) if key else None
            if agent is not None:
                break
        if agent is None:
            return self._error(404, 'NotFound',
                               'No agent for system %s' % system.get('uuid'))
        state = system.get('power_state')
        if state == 'Off':
            if agent.powered():
                agent.power_off()
        elif state == 'On':
            if not agent.powered():
                # Any other device (Pxe, Cd, UefiHttp) boots the ramdisk.
                if str(system.get('boot_device')).lower() == 'hdd':
                    agent.boot_from_disk()
                else:
                    agent.boot()
        else:
            return self._error(400, 'InvalidContentError',
                               'Unknown power state %r' % state)
        return self._reply(202, agent.summary())
