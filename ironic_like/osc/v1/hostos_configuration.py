"""``openstack baremetal hostos configuration ...``: host OS
configurations, a machine selector over node labels and module configs
the host agents of the selected nodes run.

Secret values go to the API and are never printed: the API shows each of
their keys with the value ``******``, and the output of these commands
masks them again before printing.
"""

import json
import re

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import base
from ironic_like.osc.v1 import boot
from ironic_like.osc.v1 import hostos
from ironic_like.osc.v1 import hostos_selector as selectors
from ironic_like.osc.v1 import hostos_status as hs

COLLECTION = 'configurations'
# What the API shows instead of a secret value.
SECRET_MASK = '******'
CONFIGURATION_STATUSES = ('active', 'paused', 'deleting', 'delete_failed')
# States of an item as the service shows it.
ITEM_STATES = ('waiting', 'pending', 'running', 'ok', 'failed', 'removing')
# Fields the server sets itself: dropped from a --file body, so the output
# of "configuration show -f json" can be sent back.
READ_ONLY = ('uuid', 'status', 'status_reason', 'nodes', 'created_at',
             'updated_at', 'links')
# Options that give the selector and the configs (not with --file).
BODY_OPTIONS = ('selector', 'selector_labels', 'selector_expressions',
                'configs')
# Keys of --config: option key -> config field.
CONFIG_KEYS = {
    'module': 'module',
    'version': 'module_version',
    'module_version': 'module_version',
    'module-version': 'module_version',
    'order': 'order',
    'values': 'values',
    'secret_values': 'secret_values',
    'secret-values': 'secret_values',
    'description': 'description',
    'phase': 'phase',
}
# A comma starts a new item before KEY= (an unknown KEY right after a
# description or values belongs to them: "description=a,b=c").
_CONFIG_SPLIT_RE = re.compile(r',(?=\s*[A-Za-z][-_A-Za-z0-9]*=)')
_CONTINUED = ('description', 'values', 'secret_values')
# Kubernetes manifest keys (Mirantis's HostOSConfiguration) and ours.
_MANIFEST_KEYS = {
    'machineSelector': 'machine_selector',
    'matchLabels': 'match_labels',
    'matchExpressions': 'match_expressions',
    'moduleVersion': 'module_version',
    'secretValues': 'secret_values',
    'maxConcurrent': 'max_concurrent',
    'failureThreshold': 'failure_threshold',
}

SHOW_FIELDS = ('name', 'status', 'status_reason', 'machine_selector',
               'configs', 'nodes', 'order', 'max_concurrent',
               'failure_threshold', 'uuid', 'created_at', 'updated_at')
SHORT_FIELDS = ('name', 'status', 'order', 'machine_selector', 'configs',
                'nodes')
SHORT_TITLES = ('Name', 'Status', 'Order', 'Selector', 'Configs', 'Nodes')
LONG_FIELDS = SHORT_FIELDS + ('max_concurrent', 'failure_threshold',
                              'status_reason', 'uuid', 'created_at',
                              'updated_at')
LONG_TITLES = SHORT_TITLES + ('Max Concurrent', 'Failure Threshold',
                              'Status Reason', 'UUID', 'Created At',
                              'Updated At')
STATUS_TITLES = ('Node', 'Item', 'State', 'Exit Code', 'Attempt',
                 'Finished At')
STATUS_FIELDS = ('state', 'exit_code', 'attempt', 'finished_at')
LONG_STATUS_TITLES = STATUS_TITLES + ('Started At', 'Output')
LONG_STATUS_FIELDS = STATUS_FIELDS + ('started_at', 'output')


CONFIGURATION = base.Resource('configuration', COLLECTION,
                              'Name of the configuration.')


# -- secret values ---------------------------------------------------------

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


# -- input ------------------------------------------------------------------

def parse_config(text):
    """The module config of a ``--config`` value:
    ``module=M,version=V[,order=N][,values=JSON|@FILE]
    [,secret_values=JSON|@FILE][,description=D][,phase=P]``."""
    raw = []
    for item in _CONFIG_SPLIT_RE.split(text):
        key, sep, value = item.partition('=')
        key = key.strip()
        if key not in CONFIG_KEYS and raw and raw[-1][0] in _CONTINUED:
            raw[-1][1] += ',' + item
            continue
        if not sep or key not in CONFIG_KEYS:
            raise osc_exc.CommandError(
                'Invalid --config item "%s": use KEY=VALUE with KEY one of '
                'module, version, order, values, secret_values, '
                'description, phase.' % _masked(item))
        raw.append([CONFIG_KEYS[key], value])
    config = {}
    for field, value in raw:
        if field in config:
            raise osc_exc.CommandError('--config "%s" gives %s twice.'
                                       % (_masked(text), field))
        if field == 'order':
            try:
                value = int(value)
            except ValueError:
                raise osc_exc.CommandError(
                    'Invalid order "%s" in --config: give an integer.'
                    % value)
        elif field in ('values', 'secret_values'):
            value = hostos.json_or_file(value, '%s of --config' % field,
                                        secret=field == 'secret_values')
        config[field] = value
    missing = [k for k in ('module', 'module_version') if not config.get(k)]
    if missing:
        raise osc_exc.CommandError(
            '--config needs module=<module> and version=<version>: "%s" '
            'has no %s.' % (_masked(text), ' or '.join(missing)))
    check_secrets(config.get('secret_values'), '--config secret_values')
    return config


def _masked(text):
    """A --config value fit for an error message (secret values out)."""
    return re.sub(r'(secret[_-]values=)(?!@).*?(?=,\s*(?:%s)=|$)'
                  % '|'.join(re.escape(k) for k in CONFIG_KEYS
                             if 'values' not in k),
                  r'\1' + SECRET_MASK, text)


def _renamed(doc):
    if not isinstance(doc, dict):
        return doc
    return {_MANIFEST_KEYS.get(k, k): v for k, v in doc.items()}


def from_file(doc, name):
    """The body of a --file document: ours (the fields of the API, as
    ``configuration show -f json|yaml`` prints them) or a Kubernetes
    manifest of a HostOSConfiguration (metadata.name, spec)."""
    if not isinstance(doc, dict):
        raise osc_exc.CommandError('%s must hold an object.' % name)
    if isinstance(doc.get('spec'), dict):
        manifest_name = (doc.get('metadata') or {}).get('name')
        doc = dict(doc['spec'])
        if manifest_name:
            doc['name'] = manifest_name
    body = {k: v for k, v in _renamed(doc).items() if k not in READ_ONLY}
    if isinstance(body.get('machine_selector'), dict):
        body['machine_selector'] = _renamed(body['machine_selector'])
    if isinstance(body.get('configs'), list):
        body['configs'] = [_renamed(c) for c in body['configs']]
        for index, config in enumerate(body['configs']):
            if isinstance(config, dict) and isinstance(
                    config.get('secret_values'), dict):
                check_secrets(config['secret_values'],
                              '%s: configs/%d/secret_values'
                              % (name, index))
    return body


def pointer_token(key):
    """A key as one JSON pointer token (RFC 6901: '~' and '/'
    escaped)."""
    return str(key).replace('~', '~0').replace('/', '~1')


def add_rollout_options(parser):
    parser.add_argument('--order', type=int, metavar='<order>',
                        help='Order among configurations (1..1024, lower '
                             'first; unset: last).')
    parser.add_argument('--max-concurrent', type=int, metavar='<count>',
                        help='At most this many nodes run the '
                             'configuration at once.')
    parser.add_argument('--failure-threshold', type=int, metavar='<count>',
                        help='Pause the rollout when this many nodes '
                             'failed (since the last resume).')


def rollout_wait_option(parser, what):
    common.add_wait_option(
        parser, '%s (each selected node ok or failed, or the rollout '
                'paused), showing the progress; failed nodes are named '
                '(Ctrl-C stops waiting, not the rollout)' % what)


# -- output -----------------------------------------------------------------

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


def format_node_counts(nodes):
    """'selected 5: ok 3, failed 1, running 1' (zeros left out)."""
    if not isinstance(nodes, dict):
        return str(nodes)
    counts = hs.rollout_counts({'nodes': nodes})
    keys = list(hs.NODE_STATES) + sorted(k for k in nodes
                                         if k not in hs.NODE_STATES
                                         and k != 'selected')
    parts = ['%s %s' % (k, nodes[k]) for k in keys if nodes.get(k)]
    return 'selected %d%s' % (counts['total'],
                              ': ' + ', '.join(parts) if parts else '')


def _column(field, value):
    if field == 'machine_selector':
        return selectors.selector_column(value)
    if field == 'configs' and isinstance(value, list):
        return boot.TextColumn(value, format_configs(value))
    if field == 'nodes' and isinstance(value, dict):
        return boot.TextColumn(value, format_node_counts(value))
    return common.formatted(value)


def configuration_output(doc):
    """(names, values) of one configuration: the known fields in a
    readable order and form, then any other by name."""
    doc = mask_secrets(doc or {})
    names = [k for k in SHOW_FIELDS if k in doc]
    names += sorted(k for k in doc if k not in SHOW_FIELDS
                    and k not in common.LINK_FIELDS)
    return tuple(names), tuple(_column(k, doc[k]) for k in names)


def _list_column(field, value):
    if field == 'configs' and isinstance(value, list):
        return boot.TextColumn(value, short_configs(value))
    return _column(field, value)


class ConfigurationCommand(base.ResourceCommand, hostos.HostosMixin):
    """A command on one configuration (``<configuration>``)."""

    RESOURCE = CONFIGURATION


# -- commands ---------------------------------------------------------------

class CreateHostosConfiguration(hostos.HostosMixin, command.ShowOne):
    """Create a host OS configuration: which nodes (a selector over their
    labels) run which module versions, with which values."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('configuration', metavar='<configuration>',
                            nargs='?',
                            help='Name of the configuration (default: the '
                                 'name in --file).')
        parser.add_argument(
            '--file', metavar='<file>',
            help='YAML or JSON file of the whole configuration (its API '
                 'fields, or a HostOSConfiguration manifest; "-" for '
                 'standard input), instead of the selector and --config '
                 'options. --order, --max-concurrent and '
                 '--failure-threshold override it.')
        selectors.add_selector_options(parser, 'Set')
        parser.add_argument(
            '--config', dest='configs', action='append',
            metavar='module=<module>,version=<version>[,...]',
            help='A module config (repeatable, applied in this order '
                 'unless order= says otherwise). Keys: module, version '
                 '(required); order (1..1024); values (a JSON object or '
                 '@FILE, JSON or YAML); secret_values (the same; never '
                 'shown back); description; phase.')
        add_rollout_options(parser)
        rollout_wait_option(parser, 'the configuration is rolled out')
        return parser

    def body(self, parsed_args):
        if parsed_args.file:
            given = [o for o in BODY_OPTIONS if getattr(parsed_args, o)]
            if given:
                raise osc_exc.CommandError(
                    '--file gives the whole configuration: give the '
                    'selector and the configs in it, or leave --file '
                    'out.')
            body = from_file(hostos.load_document(parsed_args.file),
                             parsed_args.file)
        else:
            if not parsed_args.configs:
                raise osc_exc.CommandError(
                    'A configuration needs module configs: give --config '
                    '(or --file).')
            body = {}
            selector = selectors.selector_of_options(parsed_args)
            if selector:
                body['machine_selector'] = selector
            body['configs'] = [parse_config(c) for c in parsed_args.configs]
        name = parsed_args.configuration or body.get('name')
        if not name:
            raise osc_exc.CommandError('Give the name of the '
                                       'configuration.')
        body['name'] = name
        for field in ('order', 'max_concurrent', 'failure_threshold'):
            value = getattr(parsed_args, field)
            if value is not None:
                body[field] = value
        return body

    def take_action(self, parsed_args):
        body = self.body(parsed_args)
        name = body['name']
        if parsed_args.wait_timeout is None and not selectors.format_selector(
                body.get('machine_selector')):
            self.app.stderr.write(
                'Warning: configuration %s has an empty selector: it '
                'selects no node.\n' % name)
        doc = self.hostos.post(COLLECTION, body,
                               secret=has_secrets(body))
        if parsed_args.wait_timeout is not None:
            doc = hs.wait_rollout(self, name, parsed_args.wait_timeout)
            hs.finish_rollout(self, name, doc)
        elif not isinstance(doc, dict):
            # Never print the body sent: it holds the secret values.
            doc = self.hostos.get(CONFIGURATION.path(name))
        return configuration_output(doc)


class ListHostosConfiguration(hostos.ListCommand):
    """List host OS configurations."""

    COLLECTION = COLLECTION
    FILTERS = (('status', {'choices': CONFIGURATION_STATUSES,
                           'help': 'Only configurations with this status.'}),)

    def listing(self, items, long):
        fields, titles = SHORT_FIELDS, SHORT_TITLES
        if long:
            fields, titles = LONG_FIELDS, LONG_TITLES
        items = [mask_secrets(i) for i in items]
        return titles, [tuple(_list_column(f, item.get(f)) for f in fields)
                        for item in items]


class ShowHostosConfiguration(ConfigurationCommand, command.ShowOne):
    """Show a host OS configuration, with the count of its nodes in each
    state."""

    def take_action(self, parsed_args):
        return configuration_output(self.hostos.get(self.path(parsed_args)))


class SetHostosConfiguration(ConfigurationCommand, command.Command):
    """Change a host OS configuration (JSON patch): its selector, its
    rollout options, the module configs (values, versions; add or remove
    one)."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        selectors.add_selector_options(parser, 'Replace')
        add_rollout_options(parser)
        parser.add_argument(
            '--config-values', action='append',
            metavar='<index>=<json|@file>',
            help='Replace the values of a module config (repeatable): its '
                 'index in the list (from 0) or its module name, then a '
                 'JSON object or @FILE (JSON or YAML).')
        parser.add_argument(
            '--config-secret-values', action='append',
            metavar='<index>=<json|@file>',
            help='Replace the secret values of a module config, as '
                 '--config-values (repeatable).')
        parser.add_argument(
            '--config-version', action='append',
            metavar='<index>=<version>',
            help='Use another version of the module of a module config '
                 '(repeatable).')
        parser.add_argument(
            '--add-config', dest='add_configs', action='append',
            metavar='module=<module>,version=<version>[,...]',
            help='Append a module config, as --config of create '
                 '(repeatable).')
        parser.add_argument(
            '--remove-config', dest='remove_configs', action='append',
            metavar='<index>',
            help='Remove a module config: its index or its module name '
                 '(repeatable; indexes are those before the change).')
        return parser

    def take_action(self, parsed_args):
        self._current = None
        patch = self.build_patch(parsed_args)
        if not patch:
            raise osc_exc.CommandError(
                'Nothing to set: give at least one option.')
        self.hostos.patch(self.path(parsed_args), patch,
                          secret=has_secrets(patch))

    def current(self, parsed_args):
        """The configuration as it is (fetched once, when a change needs
        it)."""
        if self._current is None:
            self._current = self.hostos.get(self.path(parsed_args)) or {}
        return self._current

    def config_index(self, parsed_args, text):
        text = text.strip()
        if text.isdigit():
            return int(text)
        configs = self.current(parsed_args).get('configs') or []
        found = [i for i, c in enumerate(configs)
                 if isinstance(c, dict) and c.get('module') == text]
        if not found:
            raise osc_exc.CommandError(
                'Configuration %s has no config of module "%s": give the '
                'index of a config or the name of its module.'
                % (parsed_args.configuration, text))
        if len(found) > 1:
            raise osc_exc.CommandError(
                'Configuration %s has several configs of module %s '
                '(indexes %s): give the index.'
                % (parsed_args.configuration, text,
                   ', '.join(map(str, found))))
        return found[0]

    def selector_ops(self, parsed_args):
        if parsed_args.selector is not None:
            return [common.add_op('/machine_selector',
                                  selectors.selector_of_options(parsed_args))]
        labels = common.to_dict(parsed_args.selector_labels,
                                deserialize=False)
        expressions = [selectors.parse_expression(e)
                       for e in parsed_args.selector_expressions or ()]
        if not labels and not expressions:
            return []
        selector = self.current(parsed_args).get('machine_selector')
        if not isinstance(selector, dict):
            return [common.add_op('/machine_selector',
                                  selectors.selector_of_options(parsed_args))]
        ops = []
        if isinstance(selector.get('match_labels'), dict):
            ops += [common.add_op('/machine_selector/match_labels/%s'
                                  % pointer_token(k), v)
                    for k, v in labels.items()]
        elif labels:
            ops.append(common.add_op('/machine_selector/match_labels',
                                     labels))
        if isinstance(selector.get('match_expressions'), list):
            ops += [common.add_op('/machine_selector/match_expressions/-',
                                  e) for e in expressions]
        elif expressions:
            ops.append(common.add_op('/machine_selector/match_expressions',
                                     expressions))
        return ops

    def build_patch(self, parsed_args):
        patch = self.selector_ops(parsed_args)
        for field in ('order', 'max_concurrent', 'failure_threshold'):
            value = getattr(parsed_args, field)
            if value is not None:
                patch.append(common.add_op('/' + field, value))
        for option, field in (('config_version', 'module_version'),
                              ('config_values', 'values'),
                              ('config_secret_values', 'secret_values')):
            for text in getattr(parsed_args, option) or ():
                index, sep, value = text.partition('=')
                if not sep or not index.strip():
                    raise osc_exc.CommandError(
                        'Invalid --%s "%s": use INDEX=VALUE.'
                        % (option.replace('_', '-'),
                           text if field != 'secret_values' else index))
                if field != 'module_version':
                    value = hostos.json_or_file(
                        value, '--%s' % option.replace('_', '-'),
                        secret=field == 'secret_values')
                if field == 'secret_values':
                    check_secrets(value, '--config-secret-values')
                patch.append(common.add_op('/configs/%d/%s' % (
                    self.config_index(parsed_args, index), field), value))
        removed = sorted({self.config_index(parsed_args, text)
                          for text in parsed_args.remove_configs or ()},
                         reverse=True)
        patch += [common.remove_op('/configs/%d' % i) for i in removed]
        patch += [common.add_op('/configs/-', parse_config(text))
                  for text in parsed_args.add_configs or ()]
        return patch


class DeleteHostosConfiguration(hostos.HostosMixin, command.Command):
    """Delete host OS configurations: each goes once every node's agent
    dropped its items (nothing is rolled back on the hosts)."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('configurations', nargs='+',
                            metavar='<configuration>',
                            help='Names of the configurations.')
        common.add_wait_option(
            parser, 'the configurations are gone (a configuration that '
                    'turns delete_failed fails with its status reason)')
        return parser

    def take_action(self, parsed_args):
        accepted, failures = [], []
        for name in parsed_args.configurations:
            try:
                self.hostos.delete(CONFIGURATION.path(name))
            except osc_exc.CommandError as e:
                failures.append('configuration %s: %s' % (name, e))
            else:
                accepted.append(name)
                if parsed_args.wait_timeout is None:
                    self.app.stdout.write(
                        'Deleting configuration %s (it goes once its '
                        'nodes dropped its items)\n' % name)
        if accepted and parsed_args.wait_timeout is not None:
            failures += self.wait(accepted, parsed_args.wait_timeout)
        if failures:
            raise osc_exc.CommandError('Failed to delete %s'
                                       % '; '.join(failures))

    def wait(self, names, timeout):
        """Poll the configurations until each is gone (404) or
        delete_failed; the failures."""
        progress = common.Progress(self.app.stderr)
        remaining = list(names)
        failures = []
        docs = {}
        start = self.clock()
        interval = 0.5
        try:
            while True:
                for name in list(remaining):
                    try:
                        doc = self.hostos.get(CONFIGURATION.path(name)) or {}
                    except http.HTTPError as e:
                        if e.status != 404:
                            raise
                        remaining.remove(name)
                        self.app.stdout.write('Deleted configuration %s\n'
                                              % name)
                        continue
                    docs[name] = doc
                    if doc.get('status') == 'delete_failed':
                        remaining.remove(name)
                        failures.append(
                            'configuration %s: delete_failed: %s (delete '
                            'it again to retry)' % (name, http.one_line(
                                doc.get('status_reason') or 'no reason '
                                'given')))
                if not remaining:
                    return failures
                elapsed = self.clock() - start
                waiting = ', '.join(remaining)
                progress.update('Waiting for the deletion of %s (%ds)'
                                % (waiting, elapsed))
                if timeout and elapsed >= timeout:
                    reasons = ['%s %s%s' % (
                        n, docs[n].get('status'),
                        ': %s' % http.one_line(docs[n]['status_reason'])
                        if docs[n].get('status_reason') else '')
                        for n in remaining]
                    raise common.WaitTimeout(
                        'Timed out after %d seconds: %s.'
                        % (timeout, '; '.join(reasons)))
                delay = interval
                if timeout:
                    delay = max(0, min(delay, timeout - elapsed))
                self.sleep(delay)
                interval = min(interval * 2, hostos.POLL_INTERVAL)
        finally:
            progress.finish()


class ReapplyHostosConfiguration(ConfigurationCommand, command.Command):
    """Run a configuration again on its nodes (or some of them), items that
    already succeeded included."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--node', dest='nodes', action='append',
                            metavar='<node>',
                            help='Only on this node (name or UUID; '
                                 'repeatable). Default: every selected '
                                 'node.')
        rollout_wait_option(parser, 'the configuration is applied again')
        return parser

    def take_action(self, parsed_args):
        name = parsed_args.configuration
        nodes = common.flatten(parsed_args.nodes)
        body = {'nodes': nodes} if nodes else {}
        self.hostos.post(self.path(parsed_args, 'reapply'), body)
        self.app.stdout.write('Reapplying configuration %s on %s\n' % (
            name, 'nodes %s' % ', '.join(nodes) if nodes
            else 'every selected node'))
        if parsed_args.wait_timeout is not None:
            doc = hs.wait_rollout(self, name, parsed_args.wait_timeout)
            hs.finish_rollout(self, name, doc)


class ResumeHostosConfiguration(ConfigurationCommand, command.Command):
    """Resume the rollout of a configuration paused by its failure
    threshold."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        rollout_wait_option(parser, 'the rollout goes on to its end')
        return parser

    def take_action(self, parsed_args):
        name = parsed_args.configuration
        self.hostos.post(self.path(parsed_args, 'resume'), {})
        self.app.stdout.write('Resumed configuration %s\n' % name)
        if parsed_args.wait_timeout is not None:
            doc = hs.wait_rollout(self, name, parsed_args.wait_timeout)
            hs.finish_rollout(self, name, doc)


class StatusHostosConfiguration(ConfigurationCommand, command.Lister):
    """Show the state of each item of a configuration on each node."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--node', metavar='<node>',
                            help='Only this node (name or UUID).')
        parser.add_argument('--state', choices=ITEM_STATES,
                            help='Only items in this state.')
        parser.add_argument('--long', action='store_true', default=False,
                            help='Also show the start time and the tail '
                                 'of the output of each item.')
        rollout_wait_option(parser, 'the rollout ends, then show the '
                                    'items')
        return parser

    def run(self, parsed_args):
        self._failure = None
        status = super().run(parsed_args)
        if self._failure:
            self.app.stderr.write('%s\n' % self._failure)
            return 1
        return status

    def take_action(self, parsed_args):
        name = parsed_args.configuration
        self._failure = None
        if parsed_args.wait_timeout is not None:
            # No action of ours to be taken first: a finished rollout is
            # believed at once.
            doc = hs.wait_rollout(self, name, parsed_args.wait_timeout,
                                  settle=0)
            try:
                hs.finish_rollout(self, name, doc)
            except osc_exc.CommandError as e:
                self._failure = e
        doc = self.hostos.get(self.path(parsed_args, 'nodes'), {
            'node': parsed_args.node, 'state': parsed_args.state})
        titles, fields = STATUS_TITLES, STATUS_FIELDS
        if parsed_args.long:
            titles, fields = LONG_STATUS_TITLES, LONG_STATUS_FIELDS
        rows = [(node, hs.item_name(item))
                + tuple(common.formatted(item.get(f)) for f in fields)
                for node, item in hs.status_items(doc)]
        return titles, rows
