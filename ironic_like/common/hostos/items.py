"""The state items a host OS configuration derives for each node.

Per module config, two items after MCC's LCM state items: a downloader
(fetch the module archive, check its sha256, unpack it) and an ansible item
(run its playbook with the config's values). A configuration derives the
same item TEMPLATES for every node (derive); for_node adds the per-node
generation and the spec hash. The host agent re-runs an item only when the
hash it last ran differs or its exit code was not 0 (MCC's lcm-agent rule),
so everything that must re-run an item (values, secret digest, generation,
module version) is in the hashed part and nothing else is.
"""

import copy
import hashlib
import json
import posixpath
import re

from ironic_like.common import exception

RUNNER_DOWNLOADER = 'downloader'
RUNNER_ANSIBLE = 'ansible'
PHASE = 'reconfigure'
ITEM_VERSION = 'v1'
# Bytes of playbook output kept per item report (its tail).
MAX_OUTPUT = 4096
# Module and configuration names: they are parts of item names and of the
# module directory, hence lowercase and at most 63 characters. Use
# fullmatch (``$`` also accepts a trailing newline with match).
NAME_PATTERN = re.compile(r'^[a-z0-9]([a-z0-9._-]{0,61}[a-z0-9])?$')
ITEM_STATES = ('pending', 'running', 'ok', 'failed')

# Orders are 1..1024; an unset order sorts after all of them.
_LAST = 1025
_RUNNER_RANK = {RUNNER_DOWNLOADER: 0, RUNNER_ANSIBLE: 1}
# The part of an item the hash covers (MCC: the whole LCMStateItem).
_HASHED = ('name', 'runner', 'phase', 'version', 'params')


def is_valid_name(name):
    """Whether ``name`` fits NAME_PATTERN (a string, no trailing newline)."""
    return isinstance(name, str) and NAME_PATTERN.fullmatch(name) is not None


def download_item_name(config_name, module, version, phase=PHASE):
    """MCC's name of the downloader item (without the seed's stray space)."""
    return 'host-os-download-%s-%s-%s-%s' % (config_name, module, version,
                                             phase)


def ansible_item_name(config_name, module, version, phase=PHASE):
    """MCC's name of the ansible item."""
    return 'host-os-%s-%s-%s-%s' % (config_name, module, version, phase)


def canonical_json(obj):
    """JSON with sorted keys and no spaces: equal data, equal text."""
    return json.dumps(obj, sort_keys=True, separators=(',', ':'),
                      ensure_ascii=False)


def spec_hash(item):
    """sha256 hex of the canonical JSON of the item's hashed part.

    Only name, runner, phase, version and params count: adding display
    fields to items later must not re-run every item on every host (the
    lesson of MCC 2.27.0, whose API change re-applied configurations).
    """
    hashed = {key: item[key] for key in _HASHED}
    return hashlib.sha256(canonical_json(hashed).encode('utf-8')).hexdigest()


def secret_digest(salt, secret_values):
    """A salted digest of a config's secret values, or None without any.

    Item params carry only this digest, so that changing a secret re-runs
    the item (as changing the Secret does in MCC) while the values
    themselves never reach item params, status or logs. The salt (per
    configuration) keeps a short secret from being guessed from the digest.
    """
    if not secret_values:
        return None
    if isinstance(salt, bytes):
        salt = salt.decode('utf-8')
    text = (salt or '') + canonical_json(secret_values)
    return hashlib.sha256(text.encode('utf-8')).hexdigest()


def module_path(modules_dir, module, version):
    """The directory of one module version on the host.

    Named after the module version, not the configuration: configurations
    using the same version share it, and the agent downloads it once.
    """
    return posixpath.join(modules_dir, '%s-%s' % (module, version))


def sort_key(configuration_order, configuration_name, config_order, index,
             runner):
    """A JSON-able key giving the execution order of items on a node.

    Configuration order (unset last), then configuration name; within a
    configuration the config order (unset last), then the config's index in
    the list; the downloader before the ansible item.
    """
    if runner not in _RUNNER_RANK:
        raise ValueError('unknown runner %r' % (runner,))
    return [_LAST if configuration_order is None else configuration_order,
            configuration_name,
            _LAST if config_order is None else config_order,
            index,
            _RUNNER_RANK[runner]]


def _playbook_path(path, playbook):
    while playbook.startswith('./'):
        playbook = playbook[2:]
    return path + '/' + playbook


def derive(configuration, modules, modules_dir, ansible_binary):
    """The item templates of one configuration, in execution order.

    ``configuration``: {name, order, configs, secret_values (list aligned
    with configs, dicts or None), secret_salt}. ``modules``: (name,
    version) -> {url, sha256sum, playbook}. Every template has name,
    runner, phase, version, params, sort_key, config_index, module and
    module_version; they are the same for every selected node.

    The overwrites follow their meaning, not seed 001's LCMMachine example
    (which swaps them): the downloader gets url, sha256 and path, the
    ansible item playbook, ansible, values and the secret digest. Secret
    values themselves are never copied into a template.
    """
    name = configuration['name']
    order = configuration.get('order')
    secrets = configuration.get('secret_values') or []
    salt = configuration.get('secret_salt')
    templates = []
    seen = {}
    for index, config in enumerate(configuration.get('configs') or ()):
        module = config['module']
        version = config['module_version']
        phase = config.get('phase') or PHASE
        if phase != PHASE:
            raise exception.InvalidParameterValue(
                err='phase %r is not supported, only %r'
                    % (phase, PHASE),
                field='configs/%d/phase' % index)
        if (module, version) in seen:
            # Both configs would make the same item names: one would
            # silently overwrite the other on every node.
            raise exception.InvalidParameterValue(
                err='configs %d and %d both use module %s version %s; '
                    'a module version may appear once per configuration'
                    % (seen[(module, version)], index, module, version),
                field='configs/%d/module_version' % index)
        seen[(module, version)] = index
        available = modules.get((module, version))
        if available is None:
            raise exception.InvalidParameterValue(
                err='module %s version %s is not available'
                    % (module, version),
                field='configs/%d/module_version' % index)
        path = module_path(modules_dir, module, version)
        common = {'phase': phase, 'version': ITEM_VERSION,
                  'config_index': index, 'module': module,
                  'module_version': version}
        download = dict(common, runner=RUNNER_DOWNLOADER,
                        name=download_item_name(name, module, version,
                                                phase),
                        params={'url': available['url'],
                                'sha256': available['sha256sum'],
                                'path': path})
        params = {'playbook': _playbook_path(path, available['playbook']),
                  'ansible': ansible_binary,
                  'values': copy.deepcopy(config.get('values') or {})}
        digest = secret_digest(
            salt, secrets[index] if index < len(secrets) else None)
        if digest is not None:
            params['secret_values_digest'] = digest
        run = dict(common, runner=RUNNER_ANSIBLE,
                   name=ansible_item_name(name, module, version, phase),
                   params=params)
        for item in (download, run):
            item['sort_key'] = sort_key(order, name, config.get('order'),
                                        index, item['runner'])
            templates.append(item)
    templates.sort(key=lambda item: item['sort_key'])
    return templates


def for_node(template, generation=1):
    """The item of one node: the template, its generation and its hash.

    The generation (1, plus one per reapply) goes into the ansible item's
    params only: a reapply re-runs the playbook, while the download is
    keyed by the archive's sha256 and cached anyway. Does not mutate the
    template.
    """
    item = dict(template)
    item['params'] = copy.deepcopy(template['params'])
    if item['runner'] == RUNNER_ANSIBLE:
        item['params']['generation'] = generation
    item['hash'] = spec_hash(item)
    return item


def effective_state(spec_hash, removed, held, reported_hash, reported_state,
                    exit_code):
    """The state the service shows for one item on one node.

    ``removing`` while a dropped item is still held by the agent; else the
    agent's last report when it was for the current hash (``ok`` only with
    exit code 0: MCC's readiness rule); else ``waiting`` while the rollout
    holds it; else ``pending``. A report for an older hash is stale: the
    item will run again.
    """
    if removed:
        return 'removing'
    if reported_hash == spec_hash and reported_state in ITEM_STATES[1:]:
        if reported_state == 'running':
            return 'running'
        if reported_state == 'ok' and exit_code == 0:
            return 'ok'
        return 'failed'
    if held:
        return 'waiting'
    return 'pending'


def node_state(states):
    """The state of one configuration on one node from its item states.

    ``removing`` when every item is being removed; otherwise removed items
    are left out (a config dropped by a patch does not hold back the rest):
    ``failed`` if any failed, ``running`` if any runs, ``ok`` if all are
    ok, ``waiting`` if all wait, else ``pending``.
    """
    states = list(states)
    live = [state for state in states if state != 'removing']
    if states and not live:
        return 'removing'
    if 'failed' in live:
        return 'failed'
    if 'running' in live:
        return 'running'
    if live and all(state == 'ok' for state in live):
        return 'ok'
    if live and all(state == 'waiting' for state in live):
        return 'waiting'
    return 'pending'


def trim_output(text):
    """The last MAX_OUTPUT bytes of ``text`` (UTF-8), whole characters.

    The cut may fall inside a multi-byte character; its leading
    continuation bytes are dropped rather than turned into U+FFFD.
    """
    if not text:
        return text
    data = text.encode('utf-8', errors='replace')
    if len(data) <= MAX_OUTPUT:
        return text
    data = data[-MAX_OUTPUT:]
    start = 0
    while start < len(data) and 0x80 <= data[start] <= 0xBF:
        start += 1
    return data[start:].decode('utf-8')
