"""The step a node is at, as the API's ``clean_step`` (1.7),
``deploy_step`` (1.44) and ``service_step`` (1.87) fields show it: the
step at the recorded index of the node's ordered list (driver_internal_
info, where any conductor carrying the work on reads it), while the node
is in the states of that work; {} otherwise."""

from ironic_like.common import deploy_templates
from ironic_like.common import service_steps
from ironic_like.common import states
from ironic_like.common import step_names

# driver_internal_info keys of manual and automated cleaning (the clean
# flows keep them; common, so that the API reads them without importing
# the conductor).
CLEAN_STEPS = 'clean_steps'
CLEAN_INDEX = 'clean_step_index'

_CLEANING = frozenset([states.CLEANING, states.CLEANWAIT, states.CLEANHOLD])
_DEPLOYING = frozenset([states.DEPLOYING, states.DEPLOYWAIT,
                        states.DEPLOYHOLD])
_SERVICING = frozenset([states.SERVICING, states.SERVICEWAIT,
                        states.SERVICEHOLD])


# driver_internal_info: the out-of-band step the node waits for while it
# is polled (conductor/flows/polled_steps.py), with its 'step' and 'kind'.
POLLED_STEP = 'polled_step'
_KIND_STATES = {'clean': _CLEANING, 'deploy': _DEPLOYING,
                'service': _SERVICING}


def _step_at(node, in_states, steps_key, index_key):
    if node.provision_state not in in_states:
        return {}
    info = node.driver_internal_info or {}
    polled = info.get(POLLED_STEP)
    if isinstance(polled, dict) and \
            _KIND_STATES.get(polled.get('kind')) is in_states and \
            isinstance(polled.get('step'), dict):
        # Waiting for it: that step, also where the work keeps no list
        # (cleaning or servicing without the agent).
        return dict(polled['step'])
    steps, index = info.get(steps_key) or [], info.get(index_key) or 0
    if node.provision_state in states.HOLD_STATES and 0 < index <= \
            len(steps) and steps[index - 1].get('step') == step_names.HOLD:
        # On hold: the index is past the "hold" step, which is where the
        # node is (as Ironic shows it).
        index -= 1
    return dict(steps[index]) if index < len(steps) else {}


def clean_step(node):
    return _step_at(node, _CLEANING, CLEAN_STEPS, CLEAN_INDEX)


def deploy_step(node):
    """The agent deploy's index counts its built-in steps too (write_image
    shows while the image is written)."""
    return _step_at(node, _DEPLOYING, deploy_templates.STEPS,
                    deploy_templates.INDEX)


def service_step(node):
    return _step_at(node, _SERVICING, service_steps.STEPS,
                    service_steps.INDEX)
