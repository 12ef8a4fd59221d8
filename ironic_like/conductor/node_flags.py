"""Ironic's node flags and the rules they bring: protected (1.48), retired
(1.61), automated_clean (1.47) and fault (1.42).

They are checked on the node's conductor under its lock, where the node's
state cannot change between the check and the write.
"""

from ironic_like.common import exception
from ironic_like.common import faults
from ironic_like.common import states
from ironic_like.conductor.flows import node_steps
from ironic_like.conf import CONF

# The states a node may be protected in: it holds an instance there.
PROTECTABLE_STATES = frozenset([states.ACTIVE])
# Provision actions a protected node refuses (its instance would go).
PROTECTED_ACTIONS = {'deleted': 'undeployed', 'rebuild': 'rebuilt'}

# The faults this service sets (common/faults.py has them all).
POWER_FAILURE = faults.POWER_FAILURE
CLEAN_FAILURE = faults.CLEAN_FAILURE


def _flag_after(node, values, name):
    return bool(values[name]) if name in values else bool(getattr(node,
                                                                  name))


def _reason_rule(node, values, flag, reason):
    """The reason of ``flag`` needs the flag set; unsetting the flag
    clears its reason."""
    if not _flag_after(node, values, flag):
        if values.get(reason):
            raise exception.InvalidParameterValue(
                err='Cannot set %s on node %s unless %s is true.'
                    % (reason, node.uuid, flag), field=reason)
        if flag in values:
            values[reason] = None


def check_update(node, values):
    """Refuse a change of ``node`` the flags do not allow; clear the
    reasons of flags being unset (``values`` is changed in place)."""
    if values.get('protected') and not node.protected and \
            node.provision_state not in PROTECTABLE_STATES:
        raise exception.InvalidState(
            'Node %s cannot be protected in provision state "%s": only '
            'in %s.' % (node.uuid, node.provision_state,
                        ', '.join(sorted(PROTECTABLE_STATES))))
    _reason_rule(node, values, 'protected', 'protected_reason')
    if values.get('retired') and not node.retired and \
            node.provision_state == states.AVAILABLE:
        raise exception.InvalidState(
            'Node %s cannot be retired in provision state "available"; '
            'move it to "manageable" first.' % node.uuid)
    _reason_rule(node, values, 'retired', 'retired_reason')
    if node.protected and _flag_after(node, values, 'protected'):
        # Ironic: the instance of a protected node stays as it is.
        for name in ('instance_uuid', 'instance_info'):
            if name in values:
                raise exception.NodeProtected(node=node.uuid)


def check_action(node, event):
    """Refuse a provision action the node's flags forbid."""
    if event in PROTECTED_ACTIONS and node.protected:
        raise exception.NodeProtected(node=node.uuid)
    if event == 'provide' and node.retired:
        raise exception.NodeIsRetired(op='providing', node=node.uuid)


def check_destroy(node):
    if node.protected:
        raise exception.NodeProtected(node=node.uuid)


def skip_automated_clean(node):
    """Automated cleaning is off for the service and the node does not
    ask for it (Ironic's rule: the node's true wins over the option)."""
    return not CONF.conductor.automated_clean and not node.automated_clean


def finish_cleaning(task):
    """End automated cleaning (or its skipping): a retired node goes to
    manageable, any other to available."""
    if task.node.retired:
        task.update_node({'provision_state': states.MANAGEABLE,
                          'target_provision_state': None})
    else:
        node_steps.move(task, 'done', keep_target=False)
