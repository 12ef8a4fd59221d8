"""All of the service's options, registered on the global CONF.

The global object is used (not a private ConfigOpts) because
oslo.messaging registers some of its options there only.
"""

from oslo_config import cfg

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

CONF = cfg.CONF

default.register_opts(CONF)
accelerators.register_opts(CONF)
agent.register_opts(CONF)
api.register_opts(CONF)
boot.register_opts(CONF)
conductor.register_opts(CONF)
database.register_opts(CONF)
deploy.register_opts(CONF)
glance.register_opts(CONF)
hostos.register_opts(CONF)
inspector.register_opts(CONF)
pxe.register_opts(CONF)
redfish.register_opts(CONF)
