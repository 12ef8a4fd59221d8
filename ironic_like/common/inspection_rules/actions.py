"""Actions: what a rule does when its conditions hold.

Each action is a function of an ActionContext and its named arguments.
Node fields, capabilities, traits and ports are changed in the context's
NodeChanges; the plugin data in place.
"""

import dataclasses
import functools

from oslo_log import log

from ironic_like.common import masking
from ironic_like.common.inspection_rules import api_call as http
from ironic_like.common.inspection_rules import arguments
from ironic_like.common.inspection_rules import errors
from ironic_like.common.inspection_rules import paths

LOG = log.getLogger(__name__)
LOG_LEVELS = ('debug', 'info', 'warning', 'error', 'critical')


@dataclasses.dataclass
class ActionContext:
    """What an action works on.

    :param changes: the NodeChanges to edit.
    :param plugin_data: the real plugin data (not the masked view).
    :param rule_uuid: the rule running, for messages.
    """
    changes: object
    plugin_data: dict
    rule_uuid: str = None


def fail(ctx, msg):
    raise errors.RuleFailed(str(msg), rule_uuid=ctx.rule_uuid, op='fail')


def log_message(ctx, msg, level='info'):
    name = str(level).lower()
    if name not in LOG_LEVELS:
        raise errors.OpError('invalid log level %r; one of %s'
                             % (level, ', '.join(LOG_LEVELS)))
    getattr(LOG, name)('Inspection rule %(rule)s: %(msg)s',
                       {'rule': ctx.rule_uuid,
                        'msg': masking.mask_text(str(msg))})


def set_attribute(ctx, path, value):
    ctx.changes.set_attribute(path, value)


def extend_attribute(ctx, path, value, unique=False):
    ctx.changes.extend_attribute(path, value, arguments.to_bool(unique))


def del_attribute(ctx, path):
    ctx.changes.del_attribute(path)


def set_capability(ctx, name, value):
    ctx.changes.set_capability(name, value)


def unset_capability(ctx, name):
    ctx.changes.unset_capability(name)


def add_trait(ctx, name):
    ctx.changes.add_trait(name)


def remove_trait(ctx, name):
    ctx.changes.remove_trait(name)


def set_plugin_data(ctx, path, value):
    paths.set_value(ctx.plugin_data, paths.split(path), value, path)


def extend_plugin_data(ctx, path, value, unique=False):
    paths.extend_value(ctx.plugin_data, paths.split(path), value,
                       arguments.to_bool(unique), path)


def unset_plugin_data(ctx, path):
    if not paths.delete_value(ctx.plugin_data, paths.split(path), path):
        LOG.debug('Inspection rule %(rule)s: no plugin data at %(path)s '
                  'to unset', {'rule': ctx.rule_uuid, 'path': path})


def set_port_attribute(ctx, port_id, path, value):
    ctx.changes.set_port_attribute(port_id, path, value)


def extend_port_attribute(ctx, port_id, path, value, unique=False):
    ctx.changes.extend_port_attribute(port_id, path, value,
                                      arguments.to_bool(unique))


def del_port_attribute(ctx, port_id, path):
    ctx.changes.del_port_attribute(port_id, path)


def call_api(ctx, url, headers=None, proxies=None, timeout=5, retries=3,
             backoff_factor=0.3):
    http.get(url, headers=headers, proxies=proxies, timeout=timeout,
             retries=retries, backoff_factor=backoff_factor)


@dataclasses.dataclass(frozen=True)
class Action:
    name: str
    run: object
    # Arguments interpolated outside loops (in a loop all of them are).
    formatted: tuple = ()

    @functools.cached_property
    def signature(self):
        # The first parameter is the ActionContext.
        return arguments.Signature.of(self.run, skip=1)


ACTIONS = {a.name: a for a in (
    Action('fail', fail),
    Action('log', log_message, ('msg',)),
    Action('set-attribute', set_attribute, ('value',)),
    Action('extend-attribute', extend_attribute, ('value',)),
    Action('del-attribute', del_attribute),
    Action('set-capability', set_capability, ('value',)),
    Action('unset-capability', unset_capability),
    Action('add-trait', add_trait),
    Action('remove-trait', remove_trait),
    Action('set-plugin-data', set_plugin_data, ('value',)),
    Action('extend-plugin-data', extend_plugin_data, ('value',)),
    Action('unset-plugin-data', unset_plugin_data),
    Action('set-port-attribute', set_port_attribute, ('value',)),
    Action('extend-port-attribute', extend_port_attribute, ('value',)),
    Action('del-port-attribute', del_port_attribute),
    Action('api-call', call_api, ('url',)),
)}
# fail, log, set-attribute, extend-attribute, del-attribute, set-capability,
# unset-capability, add-trait, remove-trait, set-plugin-data,
# extend-plugin-data, unset-plugin-data, set-port-attribute,
# extend-port-attribute, del-port-attribute, api-call.
NAMES = tuple(ACTIONS)


def _literal(value):
    """Whether ``value`` is known before interpolation."""
    return not (isinstance(value, str) and '{' in value)


def static_problems(name, args, in_loop):
    """Problems visible before any data: the checks of validate_rule
    beyond the argument names. ``args`` is the dict of given arguments."""
    if in_loop:
        return []
    if name == 'log' and 'level' in args and _literal(args['level']):
        if str(args['level']).lower() not in LOG_LEVELS:
            return ['invalid log level %r; one of %s'
                    % (args['level'], ', '.join(LOG_LEVELS))]
    if name == 'api-call':
        options = {k: v for k, v in args.items()
                   if k != 'url' and _literal(v)}
        try:
            http.check_options(**options)
        except errors.OpError as exc:
            return [str(exc)]
    return []
