"""Options listed for oslo-config-generator (etc/ironic_like/*.conf)."""

from ironic_like.conf import accelerators
from ironic_like.conf import agent
from ironic_like.conf import api
from ironic_like.conf import boot
from ironic_like.conf import conductor
from ironic_like.conf import database
from ironic_like.conf import deploy
from ironic_like.conf import glance
from ironic_like.conf import default
from ironic_like.conf import hostos
from ironic_like.conf import inspector
from ironic_like.conf import pxe
from ironic_like.conf import redfish


def list_opts():
    return [
        ('DEFAULT', default.opts),
        ('accelerators', accelerators.opts),
        ('agent', agent.opts),
        ('api', api.opts),
        ('boot', boot.opts),
        ('conductor', conductor.opts),
        ('database', database.opts),
        ('deploy', deploy.opts),
        ('glance', glance.list_opts()),
        ('hostos', hostos.opts),
        ('inspector', inspector.opts),
        ('conductor', inspector.conductor_opts),
        ('inventory', inspector.inventory_opts),
        ('inspection_rules', inspector.rules_opts),
        ('auto_discovery', inspector.discovery_opts),
        ('pxe', pxe.opts),
        ('redfish', redfish.opts),
    ]
