"""The ``flat`` network interface: every node sits on one flat provider
network, so nothing is re-plugged between provisioning and tenant use.

It only validates the node for now; attaching VIFs comes with later work.
"""

from ironic_like.common import exception
from ironic_like.drivers import base

# driver_info keys that name, per node, the network its ramdisk uses while
# cleaning and provisioning (Ironic's names; the flat network is the same
# for both, so they are only checked to be names or UUIDs).
PROPERTIES = {
    'cleaning_network': 'Name or UUID of the network used while cleaning '
                        'the node. Optional.',
    'provisioning_network': 'Name or UUID of the network used while '
                            'provisioning the node. Optional.',
}


class FlatNetwork(base.NetworkInterface):

    def get_properties(self):
        return dict(PROPERTIES)

    def validate(self, task):
        info = task.node.driver_info or {}
        for key in sorted(PROPERTIES):
            value = info.get(key)
            if value is None:
                continue
            if not isinstance(value, str) or not value.strip():
                raise exception.InvalidParameterValue(
                    err='Node %s: driver_info %s must be the name or UUID '
                        'of a network, not %r.' % (task.node.uuid, key,
                                                   value),
                    field=key)
