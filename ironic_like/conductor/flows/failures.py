"""What a failed flow reports: the step that failed and why, in words an
operator reads in last_error (no traceback, no secrets)."""

from ironic_like.common import exception


def first_failure(flow_failures):
    """(atom name, reason) of the first of a reverting flow's failures
    (taskflow's ``flow_failures`` revert argument), or (None, 'unknown
    error') when it names none."""
    for name, failure in (flow_failures or {}).items():
        error = failure.exception
        reason = (exception.safe_message(error) if error is not None
                  else failure.exception_str)
        return name, reason
    return None, 'unknown error'
