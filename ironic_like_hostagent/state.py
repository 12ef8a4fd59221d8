"""The agent's local state: its token and the last run of every item.

One JSON file, ``<root>/var/lib/ironic-like-host-agent/state.json``::

    {"token": "...",
     "items": {"<name>": {"hash", "exit_code", "attempt", "started_at",
                          "finished_at", "output", "reported"}}}

It survives restarts of the agent, so an item that succeeded is not run
again, and a result the service never acknowledged is sent again.
Secret values never go in it.
"""

import json
import logging
import os
import tempfile

LOG = logging.getLogger(__name__)

STATE_DIR = os.path.join('var', 'lib', 'ironic-like-host-agent')
STATE_FILE = 'state.json'


def agent_dir(root):
    """The agent's own directory under the host root."""
    return os.path.join(root, STATE_DIR)


class State(object):

    def __init__(self, root):
        self.path = os.path.join(agent_dir(root), STATE_FILE)
        self.token = None
        self.items = {}
        self.load()

    def load(self):
        try:
            with open(self.path) as f:
                doc = json.load(f)
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            # A corrupt file must not stop the agent: it starts afresh (the
            # items run again, the token is lost and the operator resets
            # it, which the 401 says loudly).
            LOG.error('Ignoring unreadable state file %s: %s', self.path,
                      exc)
            return
        if not isinstance(doc, dict):
            return
        self.token = doc.get('token') or None
        items = doc.get('items')
        self.items = items if isinstance(items, dict) else {}

    def save(self):
        """Write atomically: a crash leaves the old file or the new one.

        mkstemp creates the file 0600, and it keeps that mode: the file
        holds the agent's token.
        """
        directory = os.path.dirname(self.path)
        os.makedirs(directory, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix='.state.')
        try:
            with os.fdopen(fd, 'w') as f:
                json.dump({'token': self.token, 'items': self.items}, f,
                          indent=1, sort_keys=True)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise

    def prune(self, names):
        """Forget the items not in ``names``; answers the names dropped."""
        dropped = sorted(set(self.items) - set(names))
        for name in dropped:
            del self.items[name]
        return dropped

    def record(self, name, item_hash, exit_code, started_at, finished_at,
               output):
        """Store one run; ``attempt`` counts the runs of one hash."""
        previous = self.items.get(name) or {}
        attempt = 1
        if previous.get('hash') == item_hash:
            attempt = int(previous.get('attempt') or 0) + 1
        entry = {'hash': item_hash, 'exit_code': exit_code,
                 'attempt': attempt, 'started_at': started_at,
                 'finished_at': finished_at, 'output': output,
                 'reported': False}
        self.items[name] = entry
        return entry

    def pending_reports(self):
        """The results the service has not acknowledged yet."""
        reports = []
        for name in sorted(self.items):
            entry = self.items[name]
            if entry.get('reported'):
                continue
            reports.append({
                'name': name, 'hash': entry.get('hash'),
                'state': 'ok' if entry.get('exit_code') == 0 else 'failed',
                'exit_code': entry.get('exit_code'),
                'attempt': entry.get('attempt'),
                'started_at': entry.get('started_at'),
                'finished_at': entry.get('finished_at'),
                'output': entry.get('output') or ''})
        return reports

    def acknowledge(self, reports):
        """Mark reports the service accepted, unless the item ran again
        since they were sent."""
        for report in reports:
            entry = self.items.get(report['name'])
            if (entry is not None and entry.get('hash') == report['hash']
                    and entry.get('attempt') == report['attempt']):
                entry['reported'] = True
