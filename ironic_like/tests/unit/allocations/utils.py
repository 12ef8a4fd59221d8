"""Helpers for allocation tests: free nodes and polling."""

from oslo_utils import uuidutils

from ironic_like.common import states
from ironic_like.tests import utils as test_utils


def make_free_node(db, resource_class='baremetal', traits=(), **kw):
    """A node that an allocation may take: available, powered, free."""
    values = {'uuid': uuidutils.generate_uuid(), 'driver': 'fake-hardware',
              'resource_class': resource_class,
              'provision_state': states.AVAILABLE,
              'power_state': states.POWER_OFF, 'traits': list(traits)}
    values.update(kw)
    return db.create_node(values)


def wait_for_allocation(db, uuid, timeout=10.0):
    """Poll until the allocation leaves `allocating` (bounded), return it."""
    def settled():
        allocation = db.get_allocation_by_uuid(uuid)
        return allocation.state != states.ALLOCATING and allocation

    return test_utils.wait_for(
        settled, timeout, message='allocation %s still allocating' % uuid)
