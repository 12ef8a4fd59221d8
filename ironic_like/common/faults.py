"""Ironic's node faults (API 1.42): why the service, not an operator, put
a node in maintenance. The names are Ironic's, so clients that filter on
them keep working."""

POWER_FAILURE = 'power failure'
CLEAN_FAILURE = 'clean failure'
RESCUE_ABORT_FAILURE = 'rescue abort failure'
SERVICE_FAILURE = 'service failure'

VALID_FAULTS = frozenset([POWER_FAILURE, CLEAN_FAILURE,
                          RESCUE_ABORT_FAILURE, SERVICE_FAILURE])
