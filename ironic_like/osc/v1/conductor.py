"""``openstack baremetal conductor ...`` (API version 1.49 and later)"""

from ironic_like.osc import client as http
from ironic_like.osc.v1 import base

CONDUCTOR = base.Resource('conductor', 'conductors',
                          'Hostname of the conductor.')
_CONDUCTORS = (http.CONDUCTORS, 'Conductor commands')

CONDUCTOR_SHORT = ['hostname', 'conductor_group', 'alive']
CONDUCTOR_LONG = ['hostname', 'conductor_group', 'alive', 'drivers',
                  'created_at', 'updated_at']


class ListConductor(base.ListCommand):
    """List conductors."""

    RESOURCE = CONDUCTOR
    REQUIRES = _CONDUCTORS
    SHORT_FIELDS = CONDUCTOR_SHORT
    LONG_FIELDS = CONDUCTOR_LONG
    LONG = base.DETAIL_PARAM
    MARKER = False

    def check_limit(self, limit):
        # Left unchecked, as this command always was (a negative --limit
        # reaches the server); the other lists refuse one.
        pass


class ShowConductor(base.ShowCommand):
    """Show a conductor."""

    RESOURCE = CONDUCTOR
    REQUIRES = _CONDUCTORS
