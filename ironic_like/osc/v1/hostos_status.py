"""What the ``openstack baremetal hostos ...`` commands share: requests to
/v1/hostos, reading JSON or YAML input, machine selectors (their option
and string forms), the per-node status of a configuration, and waiting for
a rollout with a progress bar.

The /v1/hostos paths take no Ironic microversion (they have their own
version document): their requests carry no version header, so a hostos
command never negotiates one either.
"""

import json
import re
import shutil
import sys
import time
import urllib.parse

from osc_lib import exceptions as osc_exc
import yaml

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import boot
from ironic_like.osc.v1 import boot_status

PREFIX = 'hostos'
# What the API shows instead of a secret value.
SECRET_MASK = '******'
# Seconds between two polls of a --wait.
POLL_INTERVAL = 2.0
# A rollout that looks finished before it was ever seen unfinished (no
# node selected yet, items not derived yet, a reapply not taken yet) is
# believed only after this many seconds.
SETTLE_TIME = 10.0
# Failed nodes named in the error of a --wait.
MAX_NAMED_FAILURES = 5
# Bound of the pages one list follows.
MAX_PAGES = 10000

# Node counts of a configuration, in the order of the progress line.
NODE_STATES = ('ok', 'failed', 'running', 'pending', 'waiting')
SHORT_LABELS = {'ok': 'ok', 'failed': 'fail', 'running': 'run',
                'pending': 'pend', 'waiting': 'wait'}
# States of an item as the service shows it.
ITEM_STATES = ('waiting', 'pending', 'running', 'ok', 'failed', 'removing')
CONFIGURATION_STATUSES = ('active', 'paused', 'deleting', 'delete_failed')
MODULE_STATES = ('verifying', 'available', 'deprecated', 'error')
SELECTOR_OPERATORS = ('In', 'NotIn', 'Exists', 'DoesNotExist')


# -- requests ---------------------------------------------------------------

def path(*parts):
    """'configurations/<quoted name>/nodes' of path parts (the first one is
    a collection, the others are quoted)."""
    return boot.path(*parts)


class HostosAPI(object):
    """Requests to /v1/hostos/``path`` through the baremetal client's
    session (its endpoint, authentication and error handling), without
    the microversion header."""

    def __init__(self, client):
        self.client = client

    def request(self, method, path, params=None, body=None, secret=False):
        """JSON document of the answer (None if it has no body);
        HTTPError (a CommandError) on an error status. A ``secret``
        request (its body holds secret values) is not logged, not even
        with --debug."""
        params = {k: v for k, v in (params or {}).items() if v is not None}
        path = '%s/%s' % (PREFIX, path.lstrip('/'))
        if not secret:
            return self.client.request(method, path, params=params,
                                       body=body, versioned=False)
        kwargs = {'params': params} if params else {}
        url = '%s/v1/%s' % (self.client.endpoint, path)
        response = self.client._send(
            method, url, {'Accept': 'application/json'}, json=body,
            log=False, **kwargs)
        if response.status_code >= 400:
            raise http.HTTPError(response.status_code,
                                 http.fault_message(response))
        if response.status_code == 204 or not response.content:
            return None
        try:
            return response.json()
        except ValueError:
            raise osc_exc.CommandError(
                'The baremetal API answered %s %s with a body that is not '
                'JSON.' % (method, url))

    def get(self, path, params=None):
        return self.request('GET', path, params=params)

    def post(self, path, body, secret=False):
        return self.request('POST', path, body=body, secret=secret)

    def patch(self, path, patch, secret=False):
        return self.request('PATCH', path, body=patch, secret=secret)

    def delete(self, path):
        return self.request('DELETE', path)

    def list(self, path, key, params=None):
        """Items of a collection: ``{key: [...]}`` (``next`` links are
        followed) or a plain JSON array."""
        params = {k: v for k, v in (params or {}).items() if v is not None}
        items = []
        seen = set()
        for _page in range(MAX_PAGES):
            doc = self.get(path, params)
            if doc is None:
                break
            if isinstance(doc, list):
                items.extend(doc)
                break
            page = doc.get(key)
            if page is None:
                page = next((v for v in doc.values() if isinstance(v, list)),
                            [])
            items.extend(page)
            marker = _next_marker(doc.get('next'))
            if not page or not marker or marker in seen:
                break
            seen.add(marker)
            params['marker'] = marker
        return items


def _next_marker(next_url):
    if not next_url:
        return None
    query = urllib.parse.urlparse(next_url).query
    values = urllib.parse.parse_qs(query).get('marker')
    return values[-1] if values else None


class HostosMixin(common.BaremetalMixin):
    """What every hostos command needs: requests to /v1/hostos, and the
    clock of its --wait (tests replace it)."""

    clock = staticmethod(time.monotonic)
    sleep = staticmethod(time.sleep)
    # Width of the progress line on a terminal (None: the terminal's).
    progress_width = None

    @property
    def hostos(self):
        return HostosAPI(self.client)


# -- input ------------------------------------------------------------------

def load_document(name, stdin=None, secret=False):
    """The JSON or YAML document in file ``name`` ('-': standard input).
    The error of a ``secret`` one does not quote it."""
    try:
        if name == '-':
            text = (stdin if stdin is not None else sys.stdin).read()
        else:
            with open(name) as f:
                text = f.read()
    except OSError as e:
        raise osc_exc.CommandError('Cannot read %s: %s'
                                   % (name, e.strerror or e))
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise osc_exc.CommandError('%s is neither JSON nor YAML%s' % (
            name, '.' if secret else ': %s' % http.one_line(e)))


def json_or_file(text, what, secret=False):
    """The object of an option value: ``@FILE`` (JSON or YAML) or JSON.
    Errors of a ``secret`` one do not show it."""
    if text.startswith('@'):
        doc = load_document(text[1:], secret=secret)
    else:
        try:
            doc = json.loads(text)
        except ValueError as e:
            raise osc_exc.CommandError(
                'Invalid %s: %s (give a JSON object, or @FILE).'
                % (what, 'not JSON' if secret else e))
    if not isinstance(doc, dict):
        raise osc_exc.CommandError('%s must be an object%s.' % (
            what, '' if secret else ', not %s' % json.dumps(doc)))
    return doc


def check_secrets(secret_values, what):
    """Refuse secret values that are the API's mask (the output of a show
    sent back would overwrite every secret with it)."""
    for key, value in (secret_values or {}).items():
        if value == SECRET_MASK:
            raise osc_exc.CommandError(
                '%s: the value of "%s" is the mask %s the API shows in '
                'place of secrets; give the real value.'
                % (what, key, SECRET_MASK))


def has_secrets(value):
    """Whether a request body holds secret values (at any depth)."""
    if isinstance(value, dict):
        if value.get('secret_values'):
            return True
        path = value.get('path')
        if isinstance(path, str) and path.endswith('/secret_values'):
            return True
        return any(has_secrets(v) for v in value.values())
    if isinstance(value, list):
        return any(has_secrets(v) for v in value)
    return False


def mask_secrets(doc):
    """A copy of a configuration with every secret value masked (the API
    masks them already: this is a second guard, never printed)."""
    if not isinstance(doc, dict) or not isinstance(doc.get('configs'), list):
        return doc
    doc = dict(doc)
    configs = []
    for config in doc['configs']:
        if isinstance(config, dict) and isinstance(
                config.get('secret_values'), dict):
            config = dict(config, secret_values=dict.fromkeys(
                config['secret_values'], SECRET_MASK))
        configs.append(config)
    doc['configs'] = configs
    return doc


def pointer_token(key):
    """A key as one JSON pointer token (RFC 6901: '~' and '/'
    escaped)."""
    return str(key).replace('~', '~0').replace('/', '~1')


# -- machine selectors ------------------------------------------------------

_OPERATORS = {'in': 'In', 'notin': 'NotIn', 'exists': 'Exists',
              'doesnotexist': 'DoesNotExist'}
_KEY_RE = re.compile(r'^[^\s!=(),]+$')
_EXPRESSION_RE = re.compile(
    r'^(?P<key>[^\s!=(),]+)\s*'
    r'(?:(?P<op>in|notin|not\s+in|exists|doesnotexist|does\s*not\s*exist)'
    r'(?![^\s(])\s*(?P<values>.*))?$', re.IGNORECASE)


def _values(text):
    text = text.strip()
    if text.startswith('(') and text.endswith(')'):
        text = text[1:-1]
    return [v.strip() for v in text.split(',') if v.strip()]


def parse_expression(text):
    """A match expression of ``--selector-expression``: ``KEY OP
    [V1,V2...]`` with OP one of In, NotIn, Exists, DoesNotExist (any case;
    values may be in parentheses, as in ``tier in (web,db)``); ``KEY``
    alone means Exists and ``!KEY`` DoesNotExist."""
    stripped = text.strip()
    if stripped.startswith('!') and _KEY_RE.match(stripped[1:].strip()):
        return {'key': stripped[1:].strip(), 'operator': 'DoesNotExist'}
    match = _EXPRESSION_RE.match(stripped)
    if not match:
        raise osc_exc.CommandError(
            'Invalid selector expression "%s": use "KEY OP V1,V2" with OP '
            'one of %s.' % (text, ', '.join(SELECTOR_OPERATORS)))
    op = match.group('op')
    op = _OPERATORS[re.sub(r'\s+', '', op.lower())] if op else 'Exists'
    values = _values(match.group('values') or '')
    expression = {'key': match.group('key'), 'operator': op}
    if op in ('In', 'NotIn'):
        if not values:
            raise osc_exc.CommandError(
                'Invalid selector expression "%s": %s needs values.'
                % (text, op))
        expression['values'] = values
    elif values:
        raise osc_exc.CommandError(
            'Invalid selector expression "%s": %s takes no values.'
            % (text, op))
    return expression


def _split_requirements(text):
    """Requirements of a selector string: commas outside parentheses."""
    parts, depth, current = [], 0, ''
    for char in text:
        if char == '(':
            depth += 1
        elif char == ')':
            depth -= 1
        if char == ',' and depth == 0:
            parts.append(current)
            current = ''
        else:
            current += char
    parts.append(current)
    return [p.strip() for p in parts if p.strip()]


def parse_selector(text):
    """The machine selector of a Kubernetes selector string:
    ``env=prod,tier in (web,db),!legacy,gpu``."""
    selector = {}
    for requirement in _split_requirements(text):
        match = re.match(r'^([^\s!=(),]+)\s*(==|=|!=)\s*([^\s=(),]*)$',
                         requirement)
        if match and match.group(2) != '!=':
            selector.setdefault('match_labels', {})[match.group(1)] = \
                match.group(3)
            continue
        if match:
            expression = {'key': match.group(1), 'operator': 'NotIn',
                          'values': [match.group(3)]}
        else:
            expression = parse_expression(requirement)
        selector.setdefault('match_expressions', []).append(expression)
    return selector


def selector_of_options(parsed_args, base=None):
    """The selector of --selector, --selector-label and
    --selector-expression (added to ``base``)."""
    selector = dict(base or {})
    if getattr(parsed_args, 'selector', None) is not None:
        selector = parse_selector(parsed_args.selector)
    labels = common.to_dict(parsed_args.selector_labels, deserialize=False)
    if labels:
        selector['match_labels'] = dict(selector.get('match_labels') or {},
                                        **labels)
    expressions = [parse_expression(e)
                   for e in parsed_args.selector_expressions or ()]
    if expressions:
        selector['match_expressions'] = list(
            selector.get('match_expressions') or []) + expressions
    return selector


def format_expression(expression):
    if not isinstance(expression, dict):
        return str(expression)
    key = expression.get('key')
    op = expression.get('operator')
    values = ','.join(str(v) for v in expression.get('values') or ())
    if op == 'Exists':
        return str(key)
    if op == 'DoesNotExist':
        return '!%s' % key
    if op in ('In', 'NotIn'):
        return '%s %s (%s)' % (key, op.lower(), values)
    return '%s %s (%s)' % (key, op, values)


def format_selector(selector):
    """The Kubernetes string form of a machine selector ('' when it
    selects no node)."""
    if not isinstance(selector, dict):
        return ''
    parts = ['%s=%s' % kv for kv in sorted(
        (selector.get('match_labels') or {}).items())]
    parts += [format_expression(e)
              for e in selector.get('match_expressions') or ()]
    return ','.join(parts)


def selector_column(selector):
    return boot.TextColumn(selector, format_selector(selector)
                           or '(selects no node)')


# -- configurations ---------------------------------------------------------

def format_config(index, config):
    """One line of a module config: '0: sysctl 1.2.0, order 1, values
    {...}, secret values password=******'."""
    if not isinstance(config, dict):
        return '%d: %s' % (index, config)
    text = '%d: %s %s' % (index, config.get('module'),
                          config.get('module_version'))
    extras = []
    for key in ('order', 'phase', 'description'):
        if config.get(key) is not None:
            extras.append('%s %s' % (key, config[key]))
    if config.get('values'):
        extras.append('values %s' % json.dumps(config['values'],
                                               sort_keys=True))
    if config.get('secret_values'):
        extras.append('secret values %s' % ', '.join(
            '%s=%s' % (k, SECRET_MASK)
            for k in sorted(config['secret_values'])))
    return text + (', ' + ', '.join(extras) if extras else '')


def format_configs(configs):
    return '\n'.join(format_config(i, c)
                     for i, c in enumerate(configs or ())) or '-'


def short_configs(configs):
    return ', '.join('%s %s' % (c.get('module'), c.get('module_version'))
                     if isinstance(c, dict) else str(c)
                     for c in configs or ()) or '-'


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def rollout_counts(doc):
    """{NODE_STATES..., 'total', 'done', 'left', 'percent'} of a
    configuration's node counts."""
    nodes = (doc or {}).get('nodes')
    nodes = nodes if isinstance(nodes, dict) else {}
    counts = {k: int(nodes[k]) if _is_number(nodes.get(k)) else 0
              for k in NODE_STATES}
    total = nodes.get('selected')
    if not _is_number(total):
        total = sum(counts.values())
    counts['total'] = int(total)
    counts['done'] = counts['ok'] + counts['failed']
    counts['left'] = max(0, counts['total'] - counts['done'])
    counts['percent'] = (min(100.0, 100.0 * counts['done'] / counts['total'])
                         if counts['total'] else 0.0)
    return counts


def format_node_counts(nodes):
    """'selected 5: ok 3, failed 1, running 1' (zeros left out)."""
    if not isinstance(nodes, dict):
        return str(nodes)
    counts = rollout_counts({'nodes': nodes})
    keys = list(NODE_STATES) + sorted(k for k in nodes
                                      if k not in NODE_STATES
                                      and k != 'selected')
    parts = ['%s %s' % (k, nodes[k]) for k in keys if nodes.get(k)]
    return 'selected %d%s' % (counts['total'],
                              ': ' + ', '.join(parts) if parts else '')


# -- per-node status --------------------------------------------------------

def _node_ident(entry):
    for key in ('node_name', 'node', 'node_uuid', 'node_id', 'uuid'):
        value = entry.get(key)
        if isinstance(value, dict):
            value = value.get('name') or value.get('uuid')
        if value:
            return value
    return None


def status_items(doc):
    """[(node, item)] of GET configurations/<name>/nodes: per node
    entries with their ``items`` (a list, or an object by item name), or
    flat per item entries naming their node."""
    if isinstance(doc, dict):
        entries = doc.get('nodes')
        if not isinstance(entries, list):
            entries = next((v for v in doc.values() if isinstance(v, list)),
                           [])
    else:
        entries = doc or []
    result = []
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        items = entry.get('items')
        if items is None and 'state' in entry:
            result.append((_node_ident(entry), entry))
            continue
        node = _node_ident(entry) or entry.get('name')
        if isinstance(items, dict):
            items = [dict(value, name=key) for key, value in
                     items.items() if isinstance(value, dict)]
        for item in items or ():
            if isinstance(item, dict):
                result.append((node, item))
        if not items:
            result.append((node, {}))
    return result


def item_name(item):
    return item.get('item') or item.get('name')


def failed_nodes(api, name):
    """[(node, item, exit code)] of the first failed item of each failed
    node of configuration ``name``."""
    doc = api.get(path('configurations', name, 'nodes'), {'state': 'failed'})
    seen = {}
    for node, item in status_items(doc):
        if item.get('state', 'failed') != 'failed' or node in seen:
            continue
        seen[node] = (node, item_name(item), item.get('exit_code'))
    return list(seen.values())


def format_failure(node, item, exit_code):
    details = [d for d in (item, None if exit_code is None
                           else 'exit code %s' % exit_code) if d]
    return '%s%s' % (node, ' (%s)' % ', '.join(details) if details else '')


def rollout_error(api, name, doc):
    """The CommandError of a finished (or paused) rollout with failed
    nodes, else None."""
    counts = rollout_counts(doc)
    paused = doc.get('status') == 'paused'
    if not counts['failed'] and not paused:
        return None
    failures = failed_nodes(api, name) if counts['failed'] else []
    failed = max(counts['failed'], len(failures))
    text = 'Configuration %s' % name
    if paused:
        text += ' is paused'
        if doc.get('status_reason'):
            text += ' (%s)' % http.one_line(doc['status_reason'])
    if failed:
        text += ': %d of %d nodes failed' % (failed, counts['total'])
        named = [format_failure(*f) for f in failures[:MAX_NAMED_FAILURES]]
        if named:
            text += ': %s' % '; '.join(named)
            if failed > len(named):
                text += '; and %d more' % (failed - len(named))
    if paused:
        if counts['left']:
            text += '; %d not configured' % counts['left']
        text += '. Resume with: openstack baremetal hostos configuration ' \
                'resume %s' % name
    else:
        text += '. See: openstack baremetal hostos configuration status ' \
                '%s --state failed' % name
    return osc_exc.CommandError(text)


# -- waiting for a rollout --------------------------------------------------

def tty_line(counts, elapsed, base=(0.0, 0)):
    """The progress line redrawn on a terminal."""
    return '%s %3d%% %d/%d %s  %s ETA %s' % (
        boot_status.bar(counts['percent']), int(counts['percent']),
        counts['done'], counts['total'],
        ' '.join('%s:%d' % (SHORT_LABELS[k], counts[k])
                 for k in NODE_STATES),
        boot_status.duration(elapsed),
        boot_status.format_eta(counts, elapsed, base))


def plain_line(name, status, counts, elapsed, base=(0.0, 0)):
    """The progress line printed when the counts change (not a
    terminal)."""
    return ('Configuration %s %s: %d of %d nodes done (%d%%); %s; elapsed '
            '%s, ETA %s' % (name, status or 'unknown', counts['done'],
                            counts['total'], int(counts['percent']),
                            ', '.join('%s %d' % (k, counts[k])
                                      for k in NODE_STATES),
                            boot_status.duration(elapsed),
                            boot_status.format_eta(counts, elapsed, base)))


class RolloutProgress(object):
    """Progress of a configuration's rollout on ``stream``: on a terminal
    one bar redrawn in place (kept when done); elsewhere a plain line each
    time the status or the counts change."""

    def __init__(self, stream, name, width=None):
        self.stream = stream
        self.name = name
        try:
            self.tty = bool(stream.isatty())
        except (AttributeError, ValueError):
            self.tty = False
        if width is None:
            width = shutil.get_terminal_size((80, 24)).columns
        self.width = max(20, width)
        self._drawn = 0
        self._last = None
        self._base = None

    def update(self, doc, elapsed):
        counts = rollout_counts(doc)
        if self._base is None:
            self._base = (elapsed, counts['done'])
        if self.tty:
            text = tty_line(counts, elapsed, self._base)[:self.width - 1]
            padding = ' ' * max(0, self._drawn - len(text))
            self.stream.write('\r' + text + padding)
            self._drawn = len(text)
        else:
            status = doc.get('status')
            key = (status, counts['total']) + tuple(counts[k]
                                                    for k in NODE_STATES)
            if key == self._last:
                return
            self._last = key
            self.stream.write(plain_line(self.name, status, counts, elapsed,
                                         self._base) + '\n')
        self.stream.flush()

    def finish(self):
        if self.tty and self._drawn:
            self.stream.write('\n')
            self.stream.flush()
        self._drawn = 0


def wait_rollout(command, name, timeout, settle=SETTLE_TIME):
    """Poll configuration ``name`` every POLL_INTERVAL seconds until each
    selected node is ok or failed, or the rollout is paused (``timeout``
    seconds at most, if not 0 or None), showing the progress on stderr;
    the last configuration document.

    Right after an action (create, reapply, resume) a rollout that looks
    finished at once is believed after ``settle`` seconds only (or at the
    time-out, whichever comes first)."""
    app = command.app
    api = command.hostos
    progress = RolloutProgress(app.stderr, name, command.progress_width)
    config_path = path('configurations', name)
    start = command.clock()
    seen_busy = False
    try:
        while True:
            doc = api.get(config_path) or {}
            elapsed = command.clock() - start
            progress.update(doc, elapsed)
            status = doc.get('status')
            counts = rollout_counts(doc)
            if status == 'paused':
                return doc
            if status in ('deleting', 'delete_failed'):
                raise osc_exc.CommandError(
                    'Configuration %s is being deleted (%s).'
                    % (name, status))
            timed_out = bool(timeout) and elapsed >= timeout
            if counts['left'] == 0:
                if seen_busy or elapsed >= settle or timed_out:
                    return doc
            else:
                seen_busy = True
            if timed_out:
                raise common.WaitTimeout(
                    'Timed out after %d seconds: configuration %s has %d of '
                    '%d nodes done (ok %d, failed %d; running %d, pending '
                    '%d, waiting %d). See: openstack baremetal hostos '
                    'configuration status %s'
                    % ((timeout, name, counts['done'], counts['total'])
                       + tuple(counts[k] for k in NODE_STATES) + (name,)))
            delay = POLL_INTERVAL
            if timeout:
                delay = max(0, min(delay, timeout - elapsed))
            if not seen_busy and counts['left'] == 0:
                delay = max(0, min(delay, settle - elapsed))
            command.sleep(delay)
    except KeyboardInterrupt:
        progress.finish()
        app.stderr.write(
            'Stopped waiting; configuration %s goes on (see: openstack '
            'baremetal hostos configuration status %s).\n' % (name, name))
        raise
    finally:
        progress.finish()


def finish_rollout(command, name, doc):
    """After wait_rollout: the CommandError of failures or a pause;
    a warning on stderr when the configuration selects no node."""
    error = rollout_error(command.hostos, name, doc)
    if error:
        raise error
    if not rollout_counts(doc)['total']:
        selector = format_selector(doc.get('machine_selector'))
        command.app.stderr.write(
            'Warning: configuration %s selects no node%s.\n' % (
                name, ' (see: openstack baremetal node list '
                      '--label-selector \'%s\')' % selector
                if selector else ' (its selector is empty)'))
