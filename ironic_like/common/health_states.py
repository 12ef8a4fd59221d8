"""A node's hardware health (API 1.109), as Ironic names it: the overall
condition its BMC reports for the server's components."""

OK = 'OK'
WARNING = 'Warning'
CRITICAL = 'Critical'

HEALTH_STATES = (OK, WARNING, CRITICAL)
