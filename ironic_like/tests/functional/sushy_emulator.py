"""The sushy-tools Redfish emulator for the functional tests.

:class:`SushyEmulator` is a fixture that runs
:mod:`ironic_like_lab.redfish_emulator` (sushy-tools' emulator with a
fixed power delay) with the FakeDriver (no libvirt) on a free loopback
port, with systems given by the test and a fresh state directory. The
emulator notifies a :class:`NotificationListener` of every change, or the
``notification_url`` given (the agent simulator's ``/control/power``). It
calls that URL synchronously, without a timeout, and answers 500 when it
is down, so the listener lives as long as the emulator. The emulator is
always stopped.
"""

import http.server
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import uuid as uuidlib

import fixtures
import requests

from ironic_like_lab import redfish_emulator
from ironic_like.tests.functional import base

START_TIMEOUT = 30


class NotificationListener(fixtures.Fixture):
    """An HTTP server on loopback recording every PUT/POST it receives."""

    def __init__(self):
        super().__init__()
        self.received = []
        self._lock = threading.Lock()

    def _setUp(self):
        listener = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _record(self):
                length = int(self.headers.get('Content-Length') or 0)
                raw = self.rfile.read(length) if length else b''
                try:
                    body = json.loads(raw.decode('utf-8')) if raw else None
                except ValueError:
                    body = raw.decode('utf-8', 'replace')
                with listener._lock:
                    listener.received.append({
                        'method': self.command, 'path': self.path,
                        'body': body, 'time': time.time()})
                self.send_response(200)
                self.send_header('Content-Length', '0')
                self.end_headers()

            do_PUT = do_POST = _record

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(('127.0.0.1', 0),
                                                      Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        thread = threading.Thread(target=self.server.serve_forever,
                                  name='sushy-notifications', daemon=True)
        thread.start()
        self.addCleanup(thread.join, 10)
        self.addCleanup(self.server.server_close)
        self.addCleanup(self.server.shutdown)

    @property
    def url(self):
        return 'http://127.0.0.1:%d/notify' % self.port

    def notifications(self, system_uuid=None):
        with self._lock:
            items = list(self.received)
        if system_uuid is None:
            return items
        return [n for n in items if isinstance(n['body'], dict)
                and n['body'].get('uuid') == system_uuid]

    def clear(self):
        with self._lock:
            del self.received[:]


def make_system(name, power_state='Off', notify=True, mac=None):
    """A FakeDriver system definition (a random MAC unless given)."""
    mac = mac or '52:54:00:%02x:%02x:%02x' % tuple(uuidlib.uuid4().bytes[:3])
    return redfish_emulator.make_system(name, mac, power_state=power_state,
                                        notify=notify)


class SushyEmulator(fixtures.Fixture):
    """sushy-tools' emulator (FakeDriver) on a free loopback port."""

    def __init__(self, systems, power_delay=0, log_dir=None,
                 notification_url=None, extra_config=None, post_delay=0):
        """``post_delay``: seconds after a boot starts before what waits
        for it (BIOS settings, storage operations) applies.
        ``notification_url``: notify this URL instead of the fixture's
        listener (which then receives nothing). ``extra_config``: more
        emulator settings (e.g. ``SUSHY_EMULATOR_STORAGE``,
        ``SUSHY_EMULATOR_DRIVES``, ``SUSHY_EMULATOR_VOLUMES``: the
        storage of the systems, by their UUID)."""
        super().__init__()
        self.systems = systems
        self.power_delay = power_delay
        self.post_delay = post_delay
        self.log_dir = log_dir
        self.notification_url = notification_url
        self.extra_config = dict(extra_config or {})
        self.process = None

    def _setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='ironic-like-sushy-')
        if not base.KEEP_TEMP:
            self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.listener = self.useFixture(NotificationListener())
        last_error = None
        # free_port() may race with another process: retry a few times.
        for attempt in range(3):
            try:
                self._start(attempt)
                return
            except base.ProcessDied as e:
                last_error = e
        raise last_error

    def _start(self, attempt):
        self.port = base.free_port()
        state_dir = os.path.join(self.tmp, 'state-%d' % attempt)
        config = os.path.join(self.tmp, 'emulator-%d.conf' % attempt)
        redfish_emulator.write_config(
            config, self.systems, state_dir,
            self.notification_url or self.listener.url)
        if self.extra_config:
            # The config file is Python: repr() of each value.
            with open(config, 'a') as f:
                for name, value in sorted(self.extra_config.items()):
                    f.write('%s = %r\n' % (name, value))
        argv = [sys.executable, '-m', redfish_emulator.__name__,
                '--power-delay', str(self.power_delay),
                '--post-delay', str(self.post_delay),
                '--config', config, '-i', '127.0.0.1',
                '--port', str(self.port)]
        self.process = base.ServiceProcess('sushy-emulator-%d' % attempt,
                                           argv, self.log_dir or self.tmp)
        self.useFixture(self.process)

        def answers():
            self.process.check_running()
            return requests.get(self.url + '/redfish/v1/', timeout=5).ok
        base.wait_for(answers, START_TIMEOUT, interval=0.1,
                      message='the sushy emulator did not answer on %s'
                      % self.url)

    @property
    def url(self):
        return 'http://127.0.0.1:%d' % self.port

    @staticmethod
    def system_path(system_uuid):
        return '/redfish/v1/Systems/%s' % system_uuid

    def driver_info(self, system_uuid, **extra):
        info = {'redfish_address': self.url,
                'redfish_system_id': self.system_path(system_uuid),
                'redfish_username': 'admin', 'redfish_password': 'password'}
        info.update(extra)
        return info

    def get_system(self, system_uuid):
        """The system as the emulator shows it now (applies due changes)."""
        resp = requests.get(self.url + self.system_path(system_uuid),
                            timeout=10)
        resp.raise_for_status()
        return resp.json()
