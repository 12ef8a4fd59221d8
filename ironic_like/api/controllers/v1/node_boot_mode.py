"""PUT /v1/nodes/{id}/states/boot_mode {"target": "uefi"|"bios"} and
PUT /v1/nodes/{id}/states/secure_boot {"target": true|false} (API 1.76).

Both are asynchronous, as Ironic's: 202 (answered by the states
controller) once the node's conductor has locked the node and started
the change; the node's boot_mode and
secure_boot fields (1.75) show the outcome, its last_error a failure.
Mounted by node_states.NodeStatesController.
"""

from ironic_like.api.controllers.v1 import utils
from ironic_like.api.schemas import node as schema
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.common import exception
from ironic_like.common import states

# Ironic's: the node is being worked on (or waits for its agent).
_UNSTABLE_STATES = (states.TRANSIENT_STATES | states.WAIT_STATES
                    | states.HOLD_STATES)

_BOOT_MODE_VALIDATOR = validation.make_validator(schema.BOOT_MODE_BODY)
_SECURE_BOOT_VALIDATOR = validation.make_validator(schema.SECURE_BOOT_BODY)


def _node(node_ident, rule):
    # As Ironic: the policy first, then 404 below the version.
    node = utils.get_authorized_node(node_ident, rule)
    utils.hide_below(versions.CHANGE_BOOT_MODE)
    return node


def _check_stable(node, node_ident):
    if node.provision_state in _UNSTABLE_STATES:
        raise exception.Conflict(
            'Node %s is in %s state. Since node is transitioning, the boot '
            'mode will not be set as this may interfere with ongoing '
            'changes and result in erroneous modification. Try again '
            'later.' % (node_ident, node.provision_state))


def _target(body):
    # The value is checked first, to answer as Ironic words it; the body's
    # shape (its schema, which the API document shows) after.
    return body.get('target') if isinstance(body, dict) else None


def set_boot_mode(node_ident):
    node = _node(node_ident, 'baremetal:node:set_boot_mode')
    body = utils.load_body()
    target = _target(body)
    if not isinstance(target, str) or target not in states.BOOT_MODES:
        raise exception.InvalidParameterValue(
            err='Invalid boot mode %s requested for node. Allowed boot '
                'modes are: %s' % (target, ', '.join(states.BOOT_MODES)),
            field='target')
    utils.validate(_BOOT_MODE_VALIDATOR, body)
    _check_stable(node, node_ident)
    utils.rpcapi().set_boot_mode(utils.context(), node, target)


def set_secure_boot(node_ident):
    node = _node(node_ident, 'baremetal:node:set_secure_boot')
    body = utils.load_body()
    target = _target(body)
    if isinstance(target, str):
        # Ironic's boolean argument takes "true", "off"... too.
        try:
            target = utils.parse_bool('target', target)
        except exception.InvalidParameterValue:
            pass
    if not isinstance(target, bool):
        raise exception.InvalidParameterValue(
            err='Invalid secure_boot %s requested for node. Allowed '
                'secure_boot states are: True, False' % (target,),
            field='target')
    utils.validate(_SECURE_BOOT_VALIDATOR, body)
    _check_stable(node, node_ident)
    utils.rpcapi().set_secure_boot_state(utils.context(), node, target)
