"""Enrols a simulated fleet for the embedded demo: fake-hardware nodes,
each with one port, through the same RPC path the API uses."""

from oslo_log import log
from oslo_utils import uuidutils

from ironic_like.common import context as ctx
from ironic_like.conductor import rpcapi
from ironic_like.db import api as db_api

LOG = log.getLogger(__name__)


def demo_mac(index):
    return '52:54:00:%02x:%02x:%02x' % ((index >> 16) & 0xff,
                                        (index >> 8) & 0xff, index & 0xff)


def enrol(count, resource_class='baremetal'):
    """Create ``count`` demo nodes unless nodes exist already."""
    db = db_api.get_instance()
    if db.get_node_list(limit=1):
        LOG.info('Nodes exist already; no demo nodes enrolled')
        return 0
    api = rpcapi.ConductorAPI()
    context = ctx.get_admin_context()
    for index in range(count):
        values = {'uuid': uuidutils.generate_uuid(),
                  'name': 'demo-%03d' % index,
                  'driver': 'fake-hardware',
                  'resource_class': resource_class,
                  'properties': {'cpus': 8, 'memory_mb': 16384,
                                 'local_gb': 100, 'cpu_arch': 'x86_64'}}
        api.create_node(context, values)
        node = db.get_node_by_uuid(values['uuid'])
        api.create_port(context, node, {'address': demo_mac(index)})
    LOG.info('Enrolled %d demo nodes (fake-hardware)', count)
    return count
