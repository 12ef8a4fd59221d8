"""The node's serial console (GET/PUT /v1/nodes/{id}/states/console).

Starting or stopping a console may take a while (a real console interface
spawns a proxy), so the change runs in a worker after the call returned
(202), and console_enabled records the outcome.
"""

from oslo_log import log

from ironic_like.common import exception
from ironic_like.conductor import locks

LOG = log.getLogger(__name__)


def get_console_information(context, node_id):
    """The console's connection info; NodeConsoleNotEnabled when it is
    off, UnsupportedDriverExtension without a console interface."""
    with locks.acquire(context, node_id, shared=True,
                       purpose='getting console information') as task:
        console = task.driver.console
        console.validate(task)
        if not task.node.console_enabled:
            raise exception.NodeConsoleNotEnabled(node=task.node.uuid)
        return console.get_console(task)


def _needs_change(task, enabled):
    task.driver.console.validate(task)
    if bool(task.node.console_enabled) == enabled:
        LOG.info('Node %s: the console is already %s; nothing to do',
                 task.node.uuid, 'enabled' if enabled else 'disabled')
        return False
    return True


def set_console_mode(context, executor, node_id, enabled):
    # Refusals and no-ops are answered before the exclusive lock, whose
    # taking alone writes the node row.
    with locks.acquire(context, node_id, shared=True,
                       purpose='checking console mode') as task:
        if not _needs_change(task, enabled):
            return
    with locks.acquire(context, node_id,
                       purpose='setting console mode') as task:
        if not _needs_change(task, enabled):
            return
        task.update_node({'last_error': None})
        task.set_spawn_error_hook(_not_started, enabled)
        task.spawn_after(executor, _set_console_mode, enabled)


def _action(enabled):
    return 'enable' if enabled else 'disable'


def _not_started(task, error, enabled):
    task.update_node({'last_error': 'Failed to %s the console: %s'
                                    % (_action(enabled), error)})


def _set_console_mode(task, enabled):
    console = task.driver.console
    try:
        if enabled:
            console.start_console(task)
        else:
            console.stop_console(task)
    except Exception as e:
        if task.lock_lost:
            return
        LOG.warning('Node %s: failed to %s the console: %s',
                    task.node.uuid, _action(enabled), e)
        task.update_node({'last_error': 'Failed to %s the console: %s'
                                        % (_action(enabled),
                                           exception.safe_message(e))})
        return
    task.update_node({'console_enabled': enabled})
