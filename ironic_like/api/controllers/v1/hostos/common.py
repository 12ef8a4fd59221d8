"""What the /v1/hostos controllers share: policy, URLs, look-ups,
validation naming JSON pointers, JSON patches, rendering, and waking the
boot configuration operator."""

import collections

from jsonschema import exceptions as js_exc
from oslo_log import log

from ironic_like.api.controllers.v1 import utils
from ironic_like.api import errors
from ironic_like.api import patching
from ironic_like.api import validation
from ironic_like.api.views import base as view_base
from ironic_like.common import context as ctx_module
from ironic_like.common import exception
from ironic_like.common.hostos import items as hostos_items
from ironic_like.common.hostos import semver
from ironic_like.common.hostos import values as hostos_values
from ironic_like.common import masking
from ironic_like.common import policy
from ironic_like.db.sqlalchemy import hostos as hostos_db

LOG = log.getLogger(__name__)

READ_RULE = 'baremetal:hostos:get'
WRITE_RULE = 'baremetal:hostos:write'

SECRET_MASK = masking.MASK


def authorize_read():
    policy.authorize(READ_RULE, {}, utils.context())


def authorize_write():
    policy.authorize(WRITE_RULE, {}, utils.context())


def hostos_url(*parts):
    """Absolute URL of /v1/hostos/<parts>."""
    return '/'.join(('%s/v1/hostos' % utils.public_url(),) + parts)


def self_links(*parts):
    return [{'href': hostos_url(*parts), 'rel': 'self'}]


def require(value):
    """405 when a method that acts on one resource is sent without it
    (checked before anything else, query parameters included)."""
    utils.require_ident(value)


# -- validation ---------------------------------------------------------------

def invalid(field, err):
    raise exception.InvalidParameterValue(err=err, field=field)


def check_name(name, field='name'):
    """400 naming ``field`` unless ``name`` is a module or configuration
    name (fullmatch: no trailing newline)."""
    if not hostos_items.is_valid_name(name):
        invalid(field, '%s is not a valid name: 1 to 63 lowercase letters, '
                       'digits, ".", "_" or "-", starting and ending with a '
                       'letter or digit.' % _quoted(name))


def _quoted(value):
    text = '"%s"' % value if isinstance(value, str) else repr(value)
    return text if len(text) <= 80 else text[:77] + '..."'


def scrub(text, secrets):
    """``text`` with every one of ``secrets`` (strings) masked."""
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        text = text.replace(secret, SECRET_MASK)
    return text


def _describe(error, instance):
    """(JSON pointer of the field, reason) of a jsonschema error; the
    reason never quotes the value (it may be a secret, or huge)."""
    path = list(error.absolute_path)
    if error.validator == 'required':
        missing = [key for key in error.validator_value
                   if not isinstance(error.instance, dict)
                   or key not in error.instance]
        if missing:
            return (hostos_values.pointer('', path + [missing[0]]),
                    'Mandatory field missing.')
    if (error.validator == 'additionalProperties'
            and isinstance(error.instance, dict)):
        known = error.schema.get('properties', {})
        extra = sorted(str(k) for k in error.instance if k not in known)
        if extra:
            return (hostos_values.pointer('', path + [extra[0]]),
                    'Unknown attribute.')
    field = hostos_values.pointer('', path) or None
    return field, validation._reason(error)


def validate(validator, instance, secrets=()):
    """400 naming the JSON pointer of the first bad field (``configs/0/
    order``); ``secrets`` are masked in the message, should one show."""
    error = js_exc.best_match(validator.iter_errors(instance))
    if error is None:
        return
    field, reason = _describe(error, instance)
    if field:
        message = errors.FIELD_PREFIX % field + reason
    else:
        message = 'Invalid request body: %s' % reason
    raise exception.InvalidParameterValue(err=scrub(message, secrets),
                                          field=field)


def check_patch(patch, fields, writable):
    """Check a JSON patch of a resource whose attributes are ``fields``,
    of which ``writable`` may change: 400 naming the attribute."""
    for _op, path, root in patching.check_shape(patch):
        if root not in fields:
            invalid(root, "Cannot patch %s: the resource has no attribute "
                          "'%s'." % (path[:255], root[:255]))
        if root not in writable:
            invalid(root, "'/%s' is read-only; only %s can be changed."
                          % (root, ', '.join(writable)))


def apply_patch(document, patch, secrets=()):
    """The patched copy of ``document``; 400 if the patch cannot apply.
    The message names the operation's path, never its value."""
    try:
        return patching.apply(document, patch)
    except exception.PatchError as e:
        raise exception.PatchError(
            patch=scrub(str([{'op': op['op'], 'path': op['path']}
                             for op in patch]), secrets),
            reason=scrub(str(e.kwargs.get('reason', '')), secrets)[:500])


# -- look-ups -----------------------------------------------------------------

def get_node(ident, field=None):
    """A node by UUID or name (no microversion here); 404, or 400 naming
    ``field`` when the node is named in a body or query."""
    try:
        return utils.dbapi().get_node(ident)
    except (exception.NodeNotFound, exception.InvalidUuidOrName,
            exception.InvalidUUID):
        if field:
            invalid(field, 'no node is named %s.' % _quoted(ident))
        raise exception.NodeNotFound(node=ident)


def get_module(name, version):
    return utils.dbapi().get_hostos_module(name, version)


def get_configuration(name):
    return utils.dbapi().get_hostos_configuration(name)


# -- rendering ----------------------------------------------------------------

def format_time(value):
    return view_base.format_datetime(value)


def module_users():
    """{(module, version): [configuration names]} in one query."""
    users = collections.defaultdict(list)
    for configuration in utils.dbapi().list_hostos_configurations():
        seen = set()
        for config in configuration.configs or ():
            key = hostos_db.module_key(config)
            if key not in seen:
                seen.add(key)
                users[key].append(configuration.name)
    return users


def _version_key(version):
    try:
        return semver.sort_key(version)
    except ValueError:
        return (-1, -1, -1, (0, ()), version)


def sort_modules(modules):
    """By name, newest version first."""
    modules = sorted(modules, key=lambda m: _version_key(m.version),
                     reverse=True)
    return sorted(modules, key=lambda m: m.name)


def module_dict(module, users):
    """A module version as the API shows it; ``users`` from
    module_users()."""
    return {
        'name': module.name,
        'version': module.version,
        'url': masking.mask_url_password(module.url or ''),
        'sha256sum': module.sha256sum,
        'description': module.description,
        'uuid': module.uuid,
        'state': module.state,
        'error': (masking.mask_url_password(module.error)
                  if module.error else module.error),
        'deprecated_by': module.deprecated_by,
        'playbook': module.playbook,
        'values_schema': module.values_schema,
        'archive_size': module.archive_size,
        'used_by': sorted(users.get((module.name, module.version), [])),
        'created_at': format_time(module.created_at),
        'updated_at': format_time(module.updated_at),
        'links': self_links('modules', module.name, module.version),
    }


def public_config(config):
    """A stored config as shown: its secret keys with the mask."""
    doc = {key: value for key, value in config.items()
           if key != 'secret_value_keys'}
    keys = config.get('secret_value_keys') or []
    if keys:
        doc['secret_values'] = {key: SECRET_MASK for key in keys}
    return doc


def node_states(status_rows, paused_ids):
    """{configuration id: {node id: node state}} of ItemStatus rows."""
    by_node = collections.defaultdict(list)
    for row in status_rows:
        paused = row.configuration_id in paused_ids
        by_node[(row.configuration_id, row.node_id)].append(
            hostos_db.item_state(row, paused))
    result = collections.defaultdict(dict)
    for (config_id, node_id), states in by_node.items():
        result[config_id][node_id] = hostos_items.node_state(states)
    return result


COUNTED_STATES = ('waiting', 'pending', 'running', 'ok', 'failed',
                  'removing')


def node_counts(states_by_node):
    """The ``nodes`` counts of a configuration: ``selected`` is the nodes
    with items not being removed."""
    counts = dict.fromkeys(COUNTED_STATES, 0)
    for state in states_by_node.values():
        counts[state] = counts.get(state, 0) + 1
    counts['selected'] = sum(n for state, n in counts.items()
                             if state != 'removing')
    return counts


def configuration_counts(configurations):
    """{configuration id: node counts} with ONE status query."""
    ids = [c.id for c in configurations]
    if not ids:
        return {}
    paused = {c.id for c in configurations
              if c.status != hostos_db.ACTIVE}
    rows = utils.dbapi().list_hostos_item_status(configuration_ids=ids)
    states = node_states(rows, paused)
    return {config_id: node_counts(states.get(config_id, {}))
            for config_id in ids}


def configuration_dict(configuration, counts=None):
    """A configuration as the API shows it: secret values masked."""
    if counts is None:
        counts = configuration_counts([configuration])
    return {
        'name': configuration.name,
        'uuid': configuration.uuid,
        'machine_selector': configuration.machine_selector or {},
        'configs': [public_config(c) for c in configuration.configs or ()],
        'order': configuration.order,
        'max_concurrent': configuration.max_concurrent,
        'failure_threshold': configuration.failure_threshold,
        'status': configuration.status,
        'status_reason': configuration.status_reason,
        'nodes': counts.get(configuration.id) or node_counts({}),
        'created_at': format_time(configuration.created_at),
        'updated_at': format_time(configuration.updated_at),
        'links': self_links('configurations', configuration.name),
    }


# -- the boot configuration operator ------------------------------------------

def anonymous_context():
    """A context for a public route: identity headers there are validated
    by no one and must not be trusted."""
    request_ctx = utils.context()
    return ctx_module.RequestContext(
        request_id=getattr(request_ctx, 'request_id', None),
        overwrite=False)


def wake_configuration(node_ids, context=None):
    """Tell the boot configuration operator that items of ``node_ids``
    changed (a boot session may wait for them). Best effort: it polls
    anyway, so a message bus that cannot take the cast fails nothing."""
    try:
        utils.rpcapi().wake_boot_operators(context or utils.context(),
                                           ['configuration'],
                                           node_ids=list(node_ids))
    except Exception:
        LOG.warning('Could not wake the boot configuration operator; it '
                    'acts at its next poll.', exc_info=True)
