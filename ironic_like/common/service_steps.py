"""Where a servicing node (API 1.87) keeps its steps: the ordered list
and the index of the next one, in driver_internal_info, so that any
conductor can carry on and the API can show the current step."""

from ironic_like.common import states

# driver_internal_info keys.
STEPS = 'service_steps'
INDEX = 'service_step_index'

_SERVICING = frozenset([states.SERVICING, states.SERVICEWAIT,
                        states.SERVICEHOLD])


def current_step(node):
    """The step the node is servicing now ({} when none), the API's
    service_step field."""
    if node.provision_state not in _SERVICING:
        return {}
    info = node.driver_internal_info or {}
    steps, index = info.get(STEPS) or [], info.get(INDEX) or 0
    return dict(steps[index]) if index < len(steps) else {}
