"""The host agent's loop: heartbeat, run the items that are due, report.

Rules (doc/hostos.md, "What the host agent does"):

* ``items`` null: the service holds the node (not active, maintenance);
  run nothing and keep the local state.
* Otherwise the list is the node's whole list in execution order: forget
  the state of items no longer listed; ``held`` tells the service which
  ones we still hold.
* An item is skipped when it last ran with this very hash and exit code 0
  (MCC's lcm-agent rule); one that failed with this hash is retried once
  ``retry_interval`` has passed since it finished. A failure stops the
  rest of its configuration for this pass; other configurations go on.
"""

import datetime
import logging
import os
import sys
import threading
import time

from ironic_like_hostagent import AGENT_VERSION
from ironic_like_hostagent import client
from ironic_like_hostagent import runners
from ironic_like_hostagent import state

LOG = logging.getLogger(__name__)

# Until the service says otherwise (its response carries both).
DEFAULT_HEARTBEAT_INTERVAL = 10.0
DEFAULT_RETRY_INTERVAL = 60.0
# After a failed heartbeat: 1, 2, 4 ... s, never more than the interval.
BACKOFF_START = 1.0


class HostAgent(object):
    """One host's agent.

    ``session``: the urllib opener for every request (heartbeats and
    module downloads); a default one honours the proxy variables.
    Counters (for tests and the lab): ``heartbeats`` (answered 200),
    ``heartbeat_errors``, ``runs`` (items run), ``failures`` (runs that
    failed), ``downloads`` (archives fetched), ``skipped`` (downloader
    items satisfied by a module already unpacked with that sha256).
    """

    def __init__(self, api_url, node_uuid, root='/', ansible_playbook=None,
                 python=None, session=None):
        self.api_url = api_url.rstrip('/')
        self.node_uuid = node_uuid
        self.root = os.path.abspath(root)
        self.ansible_playbook = ansible_playbook
        self.python = python or sys.executable
        self.opener = session or client.default_opener()
        self.client = client.Client(self.api_url, opener=self.opener)
        self.state = state.State(self.root)
        self.heartbeat_interval = DEFAULT_HEARTBEAT_INTERVAL
        self.retry_interval = DEFAULT_RETRY_INTERVAL
        self.interval_override = None
        self.modules_dir = None
        self.hold = None
        # The service's last list (None: on hold, or no answer yet). Only
        # in memory: it carries the secret values.
        self.items = None
        self.stop_event = threading.Event()
        self.heartbeats = 0
        self.heartbeat_errors = 0
        self.runs = 0
        self.failures = 0
        self.downloads = 0
        self.skipped = 0
        self.unauthorized = False
        self.last_error = None
        self._errors_in_row = 0
        self._pruned = False

    # ------------------------------------------------------------- loop
    def run_once(self):
        """One heartbeat, the items that are due, then one more heartbeat
        so the service hears the results now rather than an interval
        later. Answers the number of items run."""
        if not self.heartbeat():
            return 0
        ran = self.run_due()
        if (ran or self._pruned) and not self.stop_event.is_set():
            self.heartbeat()
        return ran

    def run_forever(self, stop_event=None):
        if stop_event is not None:
            self.stop_event = stop_event
        while not self.stop_event.is_set():
            try:
                self.run_once()
            except Exception:
                # e.g. the state file cannot be written: keep trying.
                self._errors_in_row += 1
                LOG.exception('Host agent pass failed')
            self.stop_event.wait(self.next_delay())

    def interval(self):
        return self.interval_override or self.heartbeat_interval

    def next_delay(self):
        """Seconds to the next pass: the interval, or a back-off capped at
        it after failed heartbeats (a 401 waits the full interval: only
        an operator can fix it)."""
        interval = self.interval()
        if self._errors_in_row and not self.unauthorized:
            return min(interval,
                       BACKOFF_START * 2 ** min(self._errors_in_row - 1, 16))
        return interval

    def counters(self):
        return {'heartbeats': self.heartbeats,
                'heartbeat_errors': self.heartbeat_errors,
                'runs': self.runs, 'failures': self.failures,
                'downloads': self.downloads, 'skipped': self.skipped,
                'unauthorized': self.unauthorized, 'hold': self.hold,
                'last_error': self.last_error}

    # -------------------------------------------------------- heartbeat
    def heartbeat(self):
        """Send the pending reports and apply the answer; True if the
        service answered 200."""
        reports = self.state.pending_reports()
        body = {'node': self.node_uuid, 'agent_version': AGENT_VERSION,
                'held': sorted(self.state.items), 'reports': reports}
        if self.state.token:
            body['token'] = self.state.token
        self._pruned = False
        try:
            doc = self.client.heartbeat(body)
        except client.Unauthorized as exc:
            self.heartbeat_errors += 1
            self._errors_in_row += 1
            self.unauthorized = True
            self.last_error = '401: %s' % exc
            LOG.error('The service refused the host agent token of node %s '
                      '(401: %s): the token was lost or is not this '
                      "host's. An operator must reset the node's host agent "
                      'token; retrying every %g s', self.node_uuid, exc,
                      self.interval())
            return False
        except client.HeartbeatError as exc:
            self.heartbeat_errors += 1
            self._errors_in_row += 1
            self.unauthorized = False
            self.last_error = str(exc)
            LOG.warning('Heartbeat failed: %s (next try in %.1f s)', exc,
                        self.next_delay())
            return False
        self.heartbeats += 1
        self._errors_in_row = 0
        self.unauthorized = False
        self.last_error = None
        changed = bool(reports)
        self.state.acknowledge(reports)
        changed = self._apply(doc) or changed
        if changed:
            self.state.save()
        return True

    def _apply(self, doc):
        """Take the answer in; True when the local state changed."""
        changed = False
        token = doc.get('token')
        if token and token != self.state.token:
            # Trust on first use: the service hands it out once.
            self.state.token = token
            changed = True
            LOG.info('Received the host agent token of node %s',
                     self.node_uuid)
        self.heartbeat_interval = _seconds(doc.get('heartbeat_interval'),
                                           self.heartbeat_interval, 0.01)
        self.retry_interval = _seconds(doc.get('retry_interval'),
                                       self.retry_interval, 0)
        self.modules_dir = doc.get('modules_dir') or self.modules_dir
        items = doc.get('items')
        if not isinstance(items, list):
            hold = doc.get('hold') or 'no items given'
            if hold != self.hold:
                LOG.info('On hold, running nothing: %s', hold)
            self.hold, self.items = hold, None
            return changed
        self.hold = None
        self.items = [i for i in items if isinstance(i, dict)
                      and i.get('name') and i.get('hash')]
        dropped = self.state.prune([i['name'] for i in self.items])
        if dropped:
            LOG.info('Forgetting items no longer listed: %s',
                     ', '.join(dropped))
            self._pruned = changed = True
        return changed

    # -------------------------------------------------------------- run
    def run_due(self):
        """Run the listed items that are due, in order; answers how many
        ran."""
        items = self.items
        if not items:
            return 0
        blocked = set()  # configurations a failure stopped in this pass
        ran = 0
        for item in items:
            if self.stop_event.is_set():
                break
            configuration = item.get('configuration')
            if item.get('hold') or configuration in blocked:
                continue
            last = self.state.items.get(item['name'])
            if last is not None and last.get('hash') == item['hash']:
                if last.get('exit_code') == 0:
                    continue
                if not self._retry_due(last):
                    blocked.add(configuration)
                    continue
            exit_code = self._run_item(item)
            if exit_code is None:
                break  # stopped in the middle: no result
            ran += 1
            if exit_code != 0:
                blocked.add(configuration)
        return ran

    def _retry_due(self, last):
        finished = _parse_time(last.get('finished_at'))
        if finished is None:
            return True
        return time.time() - finished >= self.retry_interval

    def _run_item(self, item):
        """Run and record one item; answers its exit code, or None when
        the agent stopped in the middle of it (nothing recorded: it runs
        again next time, as after a power cut)."""
        name, runner = item['name'], item.get('runner')
        params = item.get('params') or {}
        # Names only: params and secret values stay out of the log.
        LOG.info('Running %s (%s)', name, runner)
        started = _now()
        try:
            if runner == 'downloader':
                result = runners.download(params, self.root, self.opener)
                if result.downloaded:
                    self.downloads += 1
                elif result.exit_code == 0:
                    self.skipped += 1
            elif runner == 'ansible':
                result = runners.run_ansible(
                    params, item.get('secret_values'), self.root,
                    ansible_playbook=self.ansible_playbook,
                    python=self.python, stop_event=self.stop_event)
            else:
                result = runners.Result(2, 'unknown runner %r' % (runner,),
                                        False)
        except runners.Stopped:
            LOG.info('Stopped while running %s', name)
            return None
        except Exception as exc:
            LOG.exception('The %s runner crashed on %s', runner, name)
            result = runners.Result(1, '%s: %s' % (type(exc).__name__, exc),
                                    False)
        self.runs += 1
        entry = self.state.record(name, item['hash'], result.exit_code,
                                  started, _now(),
                                  runners.tail(result.output))
        self.state.save()
        if result.exit_code == 0:
            LOG.info('%s ok (attempt %d)', name, entry['attempt'])
        else:
            self.failures += 1
            LOG.warning('%s failed with exit code %s (attempt %d)', name,
                        result.exit_code, entry['attempt'])
        return result.exit_code


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat()


def _parse_time(text):
    """Epoch seconds of an ISO 8601 time (ours), or None."""
    try:
        when = datetime.datetime.fromisoformat(
            str(text).replace('Z', '+00:00'))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    return when.timestamp()


def _seconds(value, default, minimum):
    try:
        value = float(value)
    except (TypeError, ValueError):
        return default
    return max(minimum, value)
