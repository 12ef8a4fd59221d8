"""The lab's host OS configuration stage (/v1/hostos, doc/hostos.md).

While the nodes are active (their machines run the real host agent, see
host_agents.py), the lab builds a module archive of its own (``motd``
1.0.0: a playbook writing ``values.motd`` to ``<host_os_root>/etc/motd``),
publishes it beside the instance image on the boot file server,
registers it, labels the nodes ``lab=motd``, creates the configuration
``motd`` selecting them and follows its node counts until every node is
``ok``; then it checks each machine's ``<host_root>/etc/motd`` and deletes
the configuration, waiting until it is gone. Only HTTP: nothing of the
service is imported.
"""

import gzip
import hashlib
import io
import os
import tarfile
import time
from urllib import parse as urlparse

import requests

MODULE = 'motd'
VERSION = '1.0.0'
CONFIGURATION = 'motd'
LABEL_KEY = 'lab'
LABEL_VALUE = 'motd'
MOTD = 'Welcome to the ironic-like lab: configured by its host agent.\n'
HEADERS = {'X-OpenStack-Ironic-API-Version': 'latest'}
# Where the archive goes, under the boot file server's root.
SUBDIR = 'hostos'

METADATA = 'name: %s\nversion: %s\nplaybook: main.yaml\n'
PLAYBOOK = """\
- name: Message of the day
  hosts: all
  gather_facts: false
  tasks:
    - name: Create the etc directory
      ansible.builtin.file:
        path: "{{ host_os_root }}/etc"
        state: directory
        mode: "0755"
    - name: Write the message of the day
      ansible.builtin.copy:
        dest: "{{ host_os_root }}/etc/motd"
        content: "{{ values.motd }}"
        mode: "0644"
"""
# Node states of a configuration, in the order a rollout goes through.
NODE_STATES = ('waiting', 'pending', 'running', 'ok', 'failed')


def module_archive(name=MODULE, version=VERSION):
    """The module's gzip tar: metadata.yaml and main.yaml at its root.
    The same bytes every time (no dates), so the same sha256."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode='w', format=tarfile.PAX_FORMAT) \
            as tar:
        for member, text in (('metadata.yaml', METADATA % (name, version)),
                             ('main.yaml', PLAYBOOK)):
            data = text.encode()
            info = tarfile.TarInfo(member)
            info.size = len(data)
            info.mode = 0o644
            info.mtime = 0
            tar.addfile(info, io.BytesIO(data))
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode='wb', mtime=0) as gz:
        gz.write(raw.getvalue())
    return out.getvalue()


def call(lab, method, path, body=None):
    """(HTTP status, JSON body or None) of an API request."""
    resp = requests.request(method, lab.api_url + path, json=body,
                            headers=HEADERS, timeout=60)
    try:
        doc = resp.json() if resp.content else None
    except ValueError:
        doc = {'error_message': resp.text[:300]}
    return resp.status_code, doc


def _fail(method, path, status, doc):
    raise RuntimeError('%s %s: %s %s' % (method, path, status,
                                         str(doc)[:300]))


def _elapsed(started):
    return time.monotonic() - started


class HostOSStage(object):
    """One run of the stage for ``lab`` (a lab.Lab: api_url, sim_url,
    http_root, http_url, nodes, systems, log, poll_interval)."""

    def __init__(self, lab, timeout):
        self.lab = lab
        self.timeout = timeout
        self.log = lab.log
        self.count = len(lab.nodes)

    # -------------------------------------------------------- the module
    def publish(self):
        """Write the archive under the boot file server's root; answers
        (its URL, its sha256)."""
        data = module_archive()
        directory = os.path.join(self.lab.http_root, SUBDIR)
        os.makedirs(directory, exist_ok=True)
        name = '%s-%s.tgz' % (MODULE, VERSION)
        with open(os.path.join(directory, name), 'wb') as f:
            f.write(data)
        return ('%s/%s/%s' % (self.lab.http_url, SUBDIR, name),
                hashlib.sha256(data).hexdigest())

    def register(self, url, sha256):
        """Register the module and wait until it is available (bounded
        by the stage timeout); answers its document."""
        started = time.monotonic()
        path = '/v1/hostos/modules/%s/%s' % (MODULE, VERSION)
        status, doc = call(self.lab, 'POST', '/v1/hostos/modules', {
            'name': MODULE, 'version': VERSION, 'url': url,
            'sha256sum': sha256,
            'description': 'ironic-like-lab: /etc/motd'})
        if status == 409:
            # Already registered (a deployment given with --api-url): the
            # same archive will do.
            status, doc = call(self.lab, 'GET', path)
            if status != 200:
                _fail('GET', path, status, doc)
            if doc.get('sha256sum') != sha256:
                raise RuntimeError(
                    'host OS module %s %s is already registered with '
                    'another archive (sha256 %s, ours %s)'
                    % (MODULE, VERSION, doc.get('sha256sum'), sha256))
        elif status not in (201, 202):
            _fail('POST', '/v1/hostos/modules', status, doc)
        while doc.get('state') not in ('available', 'deprecated'):
            if doc.get('state') == 'error':
                raise RuntimeError('host OS module %s %s: error: %s'
                                   % (MODULE, VERSION, doc.get('error')))
            if _elapsed(started) >= self.timeout:
                raise RuntimeError(
                    'host OS module %s %s: still %s after %.0fs'
                    % (MODULE, VERSION, doc.get('state'), self.timeout))
            time.sleep(self.lab.poll_interval)
            status, doc = call(self.lab, 'GET', path)
            if status != 200:
                _fail('GET', path, status, doc)
        self.log('  module %s %s %s after %.1fs (%d bytes at %s)' % (
            MODULE, VERSION, doc['state'], _elapsed(started),
            doc.get('archive_size') or 0, url))
        return doc

    # -------------------------------------------------- the configuration
    def label_nodes(self):
        for uuid in self.lab.nodes:
            path = '/v1/nodes/%s' % uuid
            status, doc = call(self.lab, 'PATCH', path, [
                {'op': 'add', 'path': '/labels/%s' % LABEL_KEY,
                 'value': LABEL_VALUE}])
            if status != 200:
                _fail('PATCH', path, status, doc)

    def create(self):
        body = {'name': CONFIGURATION,
                'machine_selector': {'match_labels': {
                    LABEL_KEY: LABEL_VALUE}},
                'configs': [{'module': MODULE, 'module_version': VERSION,
                             'values': {'motd': MOTD}}]}
        status, doc = call(self.lab, 'POST', '/v1/hostos/configurations',
                           body)
        if status != 201:
            _fail('POST', '/v1/hostos/configurations', status, doc)
        return doc

    def _path(self, suffix=''):
        return '/v1/hostos/configurations/%s%s' % (
            urlparse.quote(CONFIGURATION, safe=''), suffix)

    def _get(self):
        status, doc = call(self.lab, 'GET', self._path())
        if status != 200:
            _fail('GET', self._path(), status, doc)
        return doc

    def _nodes(self, state=None):
        """(name, state, the tail of a failed item's output) per node."""
        suffix = '/nodes' + ('?state=%s' % state if state else '')
        status, doc = call(self.lab, 'GET', self._path(suffix))
        if status != 200:
            return []
        found = []
        for node in doc.get('nodes') or []:
            output = ''
            for item in node.get('items') or []:
                if item.get('state') == 'failed':
                    output = (item.get('output') or '')[-300:]
                    break
            found.append((node.get('node_name') or node.get('node_uuid'),
                          node.get('state'), output))
        return found

    def wait_ok(self):
        """Follow the configuration's node counts until every node is ok,
        logging them as they change; raises when a node failed, the
        rollout paused, or the stage timeout passed."""
        started = time.monotonic()
        last = None
        while True:
            doc = self._get()
            counts = doc.get('nodes') or {}
            shown = sorted((state, counts.get(state) or 0)
                           for state in NODE_STATES if counts.get(state))
            if not shown:
                shown = [('selected', counts.get('selected') or 0)]
            line = (doc.get('status'), shown)
            if line != last:
                self.log('  %5.1fs %s%s' % (
                    _elapsed(started),
                    '' if doc.get('status') == 'active'
                    else '%s: ' % doc.get('status'),
                    ', '.join('%s: %d' % kv for kv in shown)))
                last = line
            if (counts.get('ok') == self.count
                    and counts.get('selected') == self.count):
                return doc
            if counts.get('failed'):
                raise RuntimeError(
                    'host OS configuration %s: %d nodes failed, e.g. %s'
                    % (CONFIGURATION, counts['failed'],
                       self._nodes('failed')[:3]))
            if doc.get('status') != 'active':
                raise RuntimeError('host OS configuration %s: %s: %s'
                                   % (CONFIGURATION, doc.get('status'),
                                      doc.get('status_reason')))
            if _elapsed(started) >= self.timeout:
                not_ok = [n for n in self._nodes() if n[1] != 'ok']
                raise RuntimeError(
                    'host OS configuration %s: %d of %d nodes ok within '
                    '%.0fs (counts %s), not ok e.g. %s'
                    % (CONFIGURATION, counts.get('ok') or 0, self.count,
                       self.timeout, counts, not_ok[:3]))
            time.sleep(self.lab.poll_interval)

    def check_motd(self):
        """Names of the machines whose <host_root>/etc/motd does not hold
        the value; answers (them, the host agents' counters summed)."""
        bad = []
        totals = {'runs': 0, 'downloads': 0}
        for system in self.lab.systems:
            doc = requests.get('%s/control/agents/%s' % (
                self.lab.sim_url, system['uuid']), timeout=10).json()
            for key in totals:
                totals[key] += (doc.get('host_agent') or {}).get(key) or 0
            try:
                with open(os.path.join(doc['host_root'], 'etc', 'motd')) \
                        as f:
                    held = f.read()
            except (OSError, KeyError, TypeError):
                held = None
            if held != MOTD:
                bad.append(system['name'])
        return bad, totals

    def delete(self):
        """Delete the configuration and wait until it is gone."""
        started = time.monotonic()
        status, doc = call(self.lab, 'DELETE', self._path())
        if status not in (202, 204):
            _fail('DELETE', self._path(), status, doc)
        # 204: no node held any item, it is gone already.
        while status not in (204, 404):
            if doc and doc.get('status') == 'delete_failed':
                raise RuntimeError('host OS configuration %s: '
                                   'delete_failed: %s'
                                   % (CONFIGURATION, doc.get('status_reason')))
            if _elapsed(started) >= self.timeout:
                raise RuntimeError(
                    'host OS configuration %s: still there %.0fs after its '
                    'deletion (%s)' % (CONFIGURATION, self.timeout,
                                       (doc or {}).get('status')))
            time.sleep(self.lab.poll_interval)
            status, doc = call(self.lab, 'GET', self._path())
            if status not in (200, 404):
                _fail('GET', self._path(), status, doc)
        self.log('  configuration %s deleted after %.1fs'
                 % (CONFIGURATION, _elapsed(started)))

    # ----------------------------------------------------------- the whole
    def run(self):
        """The stage; answers the seconds from the configuration's
        creation to every node ok (module registration and deletion
        are logged apart)."""
        url, sha256 = self.publish()
        self.log('host OS configuration %d nodes...' % self.count)
        self.register(url, sha256)
        self.label_nodes()
        started = time.monotonic()
        self.create()
        self.wait_ok()
        took = _elapsed(started)
        bad, totals = self.check_motd()
        self.log('  machines whose /etc/motd holds the value: %d of %d '
                 '(host agents: %d items run, %d downloads)'
                 % (len(self.lab.systems) - len(bad), len(self.lab.systems),
                    totals['runs'], totals['downloads']))
        if bad:
            raise RuntimeError('host OS configuration %s: /etc/motd of %s '
                               'does not hold the value'
                               % (CONFIGURATION, bad[:5]))
        self.delete()
        return took


def run(lab, timeout):
    """The stage (see the module's doc); answers the seconds it took."""
    return HostOSStage(lab, timeout).run()
