"""Where a servicing node (API 1.87) keeps its steps: the ordered list
and the index of the next one, in driver_internal_info, so that any
conductor can carry on and the API can show the current step
(common/current_steps.py)."""

# driver_internal_info keys.
STEPS = 'service_steps'
INDEX = 'service_step_index'
