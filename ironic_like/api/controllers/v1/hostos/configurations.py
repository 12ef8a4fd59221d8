"""/v1/hostos/configurations: host OS configurations (Mirantis's
HostOSConfiguration), their per-node status, reapply and resume.

A configuration is checked whole on creation and after every JSON patch
(the selector, each config's module version and values), stored, and its
items derived at once (db.sync_hostos_items). Secret values are stored
apart (the ``secret_values`` column, a list aligned with the configs);
the configs keep only their keys, shown with the mask ``******``. A patch
that leaves a secret at ``******`` keeps the stored value.
"""

import collections

import pecan
from pecan import rest

from ironic_like.api.controllers.v1.hostos import common
from ironic_like.api.controllers.v1 import utils
from ironic_like.api.schemas import hostos as schema
from ironic_like.api import validation
from ironic_like.common import exception
from ironic_like.common.hostos import items as hostos_items
from ironic_like.common.hostos import selector as hostos_selector
from ironic_like.common.hostos import values as hostos_values
from ironic_like.conductor.hostos import reconcile
from ironic_like.conductor.hostos import rollout
from ironic_like.db.sqlalchemy import hostos as hostos_db

LIST_PARAMS = ('status',)
NODES_PARAMS = ('state', 'node')

_CONFIGURATION_VALIDATOR = validation.make_validator(
    schema.CONFIGURATION_BODY)
_REAPPLY_VALIDATOR = validation.make_validator(schema.REAPPLY_BODY)

# The attributes a configuration shows (the JSON patch document's).
FIELDS = ('name', 'uuid', 'machine_selector', 'configs', 'order',
          'max_concurrent', 'failure_threshold', 'status', 'status_reason',
          'nodes', 'created_at', 'updated_at', 'links')
_DELETING = (hostos_db.DELETING, hostos_db.DELETE_FAILED)


def render(configuration, counts=None):
    return common.configuration_dict(configuration, counts)


# -- secrets ------------------------------------------------------------------

def _strings(value):
    """Every string inside ``value``."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _secrets_in(value):
    """The strings under any ``secret_values`` key inside ``value``."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == 'secret_values':
                yield from _strings(item)
            else:
                yield from _secrets_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from _secrets_in(item)


def _patch_secrets(patch):
    """Strings of a JSON patch that may be secret values."""
    found = []
    for op in patch if isinstance(patch, list) else ():
        if not isinstance(op, dict) or 'value' not in op:
            continue
        if 'secret_values' in str(op.get('path', '')).split('/'):
            found.extend(_strings(op['value']))
        else:
            found.extend(_secrets_in(op['value']))
    return found


def _check_secrets(configs):
    """Check every config's secret_values before the schema does, with
    messages that never quote a value."""
    if not isinstance(configs, list):
        return
    for index, config in enumerate(configs[:schema.MAX_CONFIGS + 1]):
        if not isinstance(config, dict):
            continue
        secrets = config.get('secret_values')
        field = 'configs/%d/secret_values' % index
        if secrets is None:
            continue
        if not isinstance(secrets, dict):
            common.invalid(field, 'secret_values must be an object of '
                                  'strings.')
        if len(secrets) > schema.MAX_SECRETS:
            common.invalid(field, 'at most %d secret values per config, got '
                                  '%d.' % (schema.MAX_SECRETS, len(secrets)))
        for key, value in secrets.items():
            if not key or len(key) > schema.MAX_SECRET_KEY:
                common.invalid(field, 'secret value names must be 1 to %d '
                                      'characters.' % schema.MAX_SECRET_KEY)
            key_field = '%s/%s' % (field, hostos_selector.pointer_token(key))
            if not isinstance(value, str):
                common.invalid(key_field, 'a secret value must be a '
                                          'string.')
            if len(value) > schema.MAX_SECRET_VALUE:
                common.invalid(key_field, 'a secret value must be at most '
                                          '%d characters.'
                               % schema.MAX_SECRET_VALUE)


def _stored_secret(previous, config, key):
    """The stored value of secret ``key`` of the config a patched
    ``config`` stands for: the previous config of the same module version,
    else of the same module. None if there is none."""
    module_key = hostos_db.module_key(config)
    candidates = [secret for old, secret in previous
                  if hostos_db.module_key(old) == module_key]
    candidates += [secret for old, secret in previous
                   if old.get('module') == config['module']]
    for secret in candidates:
        if secret and key in secret:
            return secret[key]
    return None


def _resolve_secrets(config, index, previous):
    """The secret values of a config, ``******`` replaced by the stored
    value (PATCH); None without any."""
    resolved = {}
    for key, value in (config.get('secret_values') or {}).items():
        if value == common.SECRET_MASK:
            value = _stored_secret(previous or (), config, key)
            if value is None:
                common.invalid(
                    'configs/%d/secret_values/%s'
                    % (index, hostos_selector.pointer_token(key)),
                    '"%s" stands for the stored value of a secret, and '
                    'none is stored under this name: give the value.'
                    % common.SECRET_MASK)
        resolved[key] = value
    return resolved or None


# -- checks -------------------------------------------------------------------

def _module(config, index):
    """The module version a config names: 400 naming its module_version
    if there is none, 409 if it is not usable."""
    field = 'configs/%d/module_version' % index
    name, version = config['module'], config['module_version']
    try:
        module = utils.dbapi().get_hostos_module(name, version)
    except exception.HostOSModuleNotFound:
        common.invalid(field, 'module %s has no version "%s" (register it '
                              'first: POST /v1/hostos/modules).'
                       % (name, version[:64]))
    if module.state not in hostos_db.USABLE_MODULE_STATES:
        raise exception.HostOSModuleUnusable(
            name=name, version=version, state=module.state,
            error=': %s' % module.error if module.error else '',
            field=field)
    return module


def _checked(doc, previous=None):
    """A configuration document (a POST body, or the result of a patch)
    checked whole, as the database stores it (without its name).

    ``previous``: (config, secret values) pairs of the stored
    configuration, to resolve the secrets a patch left masked.
    """
    _check_secrets(doc.get('configs'))
    common.validate(_CONFIGURATION_VALIDATOR, doc,
                    secrets=list(_secrets_in(doc)))
    common.check_name(doc['name'])
    selector = hostos_selector.validate(doc.get('machine_selector'),
                                        'machine_selector')
    configs, secrets, seen = [], [], {}
    for index, config in enumerate(doc['configs']):
        field = 'configs/%d' % index
        common.check_name(config['module'], field + '/module')
        key = hostos_db.module_key(config)
        if key in seen:
            common.invalid(field + '/module_version',
                           'configs %d and %d both use module %s version '
                           '%s; a module version may appear once per '
                           'configuration.' % (seen[key], index, key[0],
                                               key[1]))
        seen[key] = index
        module = _module(config, index)
        values = config.get('values') or {}
        hostos_values.validate(module.values_schema, values,
                               field + '/values')
        secret = _resolve_secrets(config, index, previous)
        stored = {'module': config['module'],
                  'module_version': config['module_version'],
                  'values': values,
                  'order': config.get('order'),
                  'description': config.get('description'),
                  'phase': config.get('phase') or hostos_items.PHASE}
        if secret:
            stored['secret_value_keys'] = sorted(secret)
        configs.append(stored)
        secrets.append(secret)
    return {'machine_selector': selector, 'configs': configs,
            'secret_values': secrets, 'order': doc.get('order'),
            'max_concurrent': doc.get('max_concurrent'),
            'failure_threshold': doc.get('failure_threshold')}


def _patch_document(configuration):
    """What a JSON patch applies to: the writable attributes (secrets
    masked) and the name."""
    doc = render(configuration, counts={})
    return {key: doc[key] for key in
            ('name',) + schema.CONFIGURATION_PATCH_FIELDS}


def _live(configuration):
    """409 if the configuration is being deleted."""
    if configuration.status in _DELETING:
        raise exception.HostOSConfigurationDeleting(name=configuration.name)


# -- sub-resources ------------------------------------------------------------

def _item_dict(row, state):
    return {'name': row.name, 'runner': row.runner, 'state': state,
            'exit_code': row.exit_code, 'attempt': row.attempt,
            'started_at': common.format_time(row.started_at),
            'finished_at': common.format_time(row.finished_at),
            'output': row.output, 'hash': row.spec_hash}


class ConfigurationNodesController(rest.RestController):
    """/v1/hostos/configurations/{name}/nodes: per node, per item."""

    def __init__(self, name):
        self.name = name

    @pecan.expose('json')
    def get_all(self, **kwargs):
        params = utils.query(NODES_PARAMS)
        common.authorize_read()
        state = params.get('state')
        if state is not None and state not in schema.NODE_STATES:
            common.invalid('state', 'Invalid state "%s": use one of %s.'
                           % (state[:40], ', '.join(schema.NODE_STATES)))
        db = utils.dbapi()
        configuration = common.get_configuration(self.name)
        node_ids = None
        if params.get('node') is not None:
            node_ids = [common.get_node(params['node'], field='node').id]
        paused = configuration.status != hostos_db.ACTIVE
        nodes = collections.OrderedDict()
        for row, node_uuid, node_name in db.list_hostos_items(
                configuration.id, node_ids):
            entry = nodes.setdefault(node_uuid, {
                'node_uuid': node_uuid, 'node_name': node_name,
                'items': []})
            entry['items'].append(
                _item_dict(row, hostos_db.item_state(row, paused)))
        result = []
        for entry in nodes.values():
            entry['state'] = hostos_items.node_state(
                item['state'] for item in entry['items'])
            if state is None or entry['state'] == state:
                result.append(entry)
        return {'nodes': result}


class ConfigurationReapplyController(rest.RestController):
    """/v1/hostos/configurations/{name}/reapply: run again items that
    already ran (one more generation: their hash changes)."""

    def __init__(self, name):
        self.name = name

    @pecan.expose('json')
    def post(self, **kwargs):
        utils.query()
        common.authorize_write()
        db = utils.dbapi()
        configuration = common.get_configuration(self.name)
        _live(configuration)
        body = utils.load_optional_body()
        common.validate(_REAPPLY_VALIDATOR, body)
        node_ids = None
        if body.get('nodes') is not None:
            node_ids = [common.get_node(ident, field='nodes/%d' % index).id
                        for index, ident in enumerate(body['nodes'])]
        count = db.bump_hostos_generation(configuration.id, node_ids)
        db.sync_hostos_items([configuration.id])
        utils.set_status(202)
        return {'reapplied_items': count}


class ConfigurationResumeController(rest.RestController):
    """/v1/hostos/configurations/{name}/resume: lift the pause of a
    failure threshold (failures before now no longer count)."""

    def __init__(self, name):
        self.name = name

    @pecan.expose('json')
    def post(self, **kwargs):
        utils.query()
        common.authorize_write()
        db = utils.dbapi()
        configuration = common.get_configuration(self.name)
        resumed = rollout.resume(db, configuration)
        if resumed is None:
            raise exception.Conflict(
                'Configuration %s is %s, not paused: there is nothing to '
                'resume.' % (configuration.name, configuration.status))
        return render(resumed)


class ConfigurationsController(rest.RestController):
    """/v1/hostos/configurations."""

    _subcontrollers = {
        'nodes': ConfigurationNodesController,
        'reapply': ConfigurationReapplyController,
        'resume': ConfigurationResumeController,
    }

    @pecan.expose()
    def _lookup(self, name, *remainder):
        return utils.sub_lookup(self._subcontrollers, name, remainder)

    @pecan.expose('json')
    def get_all(self, **kwargs):
        params = utils.query(LIST_PARAMS)
        common.authorize_read()
        status = params.get('status')
        if status is not None and status not in \
                schema.CONFIGURATION_STATUSES:
            common.invalid('status', 'Invalid status "%s": use one of %s.'
                           % (status[:40],
                              ', '.join(schema.CONFIGURATION_STATUSES)))
        configurations = utils.dbapi().list_hostos_configurations(
            {'status': status})
        counts = common.configuration_counts(configurations)
        return {'configurations': [render(c, counts)
                                   for c in configurations]}

    @pecan.expose('json')
    def get_one(self, name, **kwargs):
        utils.query()
        common.authorize_read()
        return render(common.get_configuration(name))

    @pecan.expose('json')
    def post(self, **kwargs):
        """Create a configuration (201); its items are derived at once."""
        utils.query()
        common.authorize_write()
        body = utils.load_body()
        values = _checked(body)
        values['name'] = body['name']
        db = utils.dbapi()
        configuration = db.create_hostos_configuration(values)
        db.sync_hostos_items([configuration.id])
        utils.set_status(201)
        return render(configuration)

    @pecan.expose('json')
    def patch(self, name=None, **kwargs):
        """JSON patch of machine_selector, configs, order, max_concurrent
        and failure_threshold; checked whole, items derived at once."""
        common.require(name)
        utils.query()
        common.authorize_write()
        db = utils.dbapi()
        configuration = common.get_configuration(name)
        _live(configuration)
        patch = utils.load_body(list)
        common.check_patch(patch, FIELDS, schema.CONFIGURATION_PATCH_FIELDS)
        patched = common.apply_patch(_patch_document(configuration), patch,
                                     secrets=_patch_secrets(patch))
        previous = list(zip(configuration.configs or [],
                            configuration.secret_values or []))
        values = _checked(patched, previous)
        updated = db.update_hostos_configuration(
            configuration.id, values,
            expected={'status': configuration.status})
        if updated is None:
            current = db.get_hostos_configuration(name)
            _live(current)
            raise exception.Conflict(
                'Configuration %s changed while it was patched (it is now '
                '%s); retry.' % (name, current.status))
        db.sync_hostos_items([configuration.id])
        return render(updated)

    @pecan.expose('json')
    def delete(self, name=None, **kwargs):
        """202 (``deleting`` until every node dropped its items), or 204
        when no node holds any. Again on ``delete_failed``: waits anew."""
        common.require(name)
        utils.query()
        common.authorize_write()
        db = utils.dbapi()
        configuration = common.get_configuration(name)
        db.start_hostos_configuration_delete(configuration.id)
        configuration = db.get_hostos_configuration(name)
        if reconcile.finish_delete(db, configuration):
            utils.set_status(204)
            return
        try:
            configuration = db.get_hostos_configuration(name)
        except exception.HostOSConfigurationNotFound:
            utils.set_status(204)
            return
        utils.set_status(202)
        return render(configuration)
