"""A tiny stand-in for ironic-python-agent's command API on loopback, for
the unit tests of the agent deploy interface: commands finish at once
unless told to stay running or to fail."""

import http.server
import json
import threading
import urllib.parse
import uuid

import fixtures

INVENTORY = 'poll.get_hardware_info'
CLEAN_STEPS = [
    {'step': 'erase_devices', 'priority': 10, 'interface': 'deploy'},
    {'step': 'update_firmware', 'priority': 0, 'interface': 'deploy'},
    {'step': 'apply_bios_settings', 'priority': 0, 'interface': 'deploy'},
    # IPA's software RAID steps (GenericHardwareManager).
    {'step': 'delete_configuration', 'priority': 0, 'interface': 'raid'},
    {'step': 'create_configuration', 'priority': 0, 'interface': 'raid'},
]
# IPA offers the same for servicing, and its software RAID's
# apply_configuration.
SERVICE_STEPS = CLEAN_STEPS + [
    {'step': 'apply_configuration', 'priority': 0, 'interface': 'raid'}]


def _step_result(name, params):
    """What IPA's step commands report: a RAID create_configuration or
    apply_configuration the configuration it built (here: the target it
    was sent)."""
    step = params.get('step') or {}
    if name == 'clean.execute_clean_step':
        result = None
        if (step.get('interface'), step.get('step')) == (
                'raid', 'create_configuration'):
            result = (params.get('node') or {}).get('target_raid_config')
        return {'clean_result': result, 'clean_step': step}
    if name in ('deploy.execute_deploy_step',
                'service.execute_service_step'):
        kind = name.split('.')[0]
        result = None
        if (step.get('interface'), step.get('step')) == (
                'raid', 'apply_configuration'):
            result = (step.get('args') or {}).get('raid_config')
        return {'%s_result' % kind: result, '%s_step' % kind: step}
    return None


class FakeAgent(fixtures.Fixture):

    def __init__(self):
        super().__init__()
        self.commands = []      # documents, oldest first
        # (name, params, query) of every command but the inventory
        # queries (poll.get_hardware_info), counted in ``inventories``.
        self.received = []
        self.inventories = 0
        self.inventory = {}     # what poll.get_hardware_info answers
        self.tokens = []        # X-Agent-Token of every request
        self.hold = set()       # command names that stay RUNNING
        self.fail = {}          # command name -> error message
        self.lock = threading.Lock()

    def finish(self, name, error=None):
        """Finish the held RUNNING commands called ``name``."""
        with self.lock:
            self.hold.discard(name)
            for doc in self.commands:
                if doc['command_name'] == name and \
                        doc['command_status'] == 'RUNNING':
                    self._complete(doc, error)

    @staticmethod
    def _complete(doc, error):
        if error:
            doc['command_status'] = 'FAILED'
            doc['command_error'] = {'type': 'CommandError',
                                    'message': error}
        else:
            doc['command_status'] = 'SUCCEEDED'

    def names(self):
        with self.lock:
            return [r[0] for r in self.received]

    def _setUp(self):
        agent = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _reply(self, code, body):
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                with agent.lock:
                    agent.tokens.append(self.headers.get('X-Agent-Token'))
                    self._reply(200, {'commands': list(agent.commands)})

            def do_POST(self):
                query = dict(urllib.parse.parse_qsl(
                    urllib.parse.urlparse(self.path).query))
                length = int(self.headers.get('Content-Length') or 0)
                body = json.loads(self.rfile.read(length) or b'{}')
                name, params = body['name'], body.get('params') or {}
                doc = {'id': str(uuid.uuid4()), 'command_name': name,
                       'command_status': 'RUNNING', 'command_error': None,
                       'command_result': _step_result(name, params)}
                if name == INVENTORY:
                    doc['command_status'] = 'SUCCEEDED'
                    with agent.lock:
                        agent.inventories += 1
                        doc['command_result'] = dict(agent.inventory)
                    self._reply(200, doc)
                    return
                if name == 'clean.get_clean_steps':
                    doc['command_result'] = {'clean_steps': {
                        'GenericHardwareManager': CLEAN_STEPS}}
                if name == 'service.get_service_steps':
                    doc['command_result'] = {'service_steps': {
                        'GenericHardwareManager': SERVICE_STEPS}}
                with agent.lock:
                    agent.received.append((name, params, query))
                    agent.tokens.append(self.headers.get('X-Agent-Token'))
                    if name not in agent.hold:
                        agent._complete(doc, agent.fail.get(name))
                    agent.commands.append(doc)
                    self._reply(200, dict(doc))

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(('127.0.0.1', 0),
                                                      Handler)
        self.server.daemon_threads = True
        thread = threading.Thread(target=self.server.serve_forever,
                                  daemon=True)
        thread.start()
        self.addCleanup(thread.join, 10)
        self.addCleanup(self.server.server_close)
        self.addCleanup(self.server.shutdown)
        self.url = 'http://127.0.0.1:%d' % self.server.server_address[1]
