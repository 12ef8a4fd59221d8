"""Allocations on the conductor side.

Creation stores the row (`allocating`, conductor_affinity = the conductor
that will process it): the API does it itself (store_new, then an RPC cast
to that conductor, rpcapi.create_allocation) so a POST waits for no
conductor; a backfill goes through the conductor, which locks the node.
The flow in conductor/flows/allocation.py does the rest on the
conductor's AllocationRunner. Allocations whose conductor died are taken
over with a compare-and-swap on conductor_affinity (one winner) and run
again here; those of a live conductor whose cast was lost are found by its
own periodic sweep (resume_stray).
"""

import datetime

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import locks
from ironic_like.conductor import settable
from ironic_like.db import api as db_api

LOG = log.getLogger(__name__)

# Seconds after which an allocation of ours that the runner does not know
# of is taken for one whose start cast was lost: far longer than a cast
# takes to arrive.
STRAY_AGE = 10

SETTABLE_FIELDS = frozenset(['uuid', 'name', 'resource_class', 'traits',
                             'candidate_nodes', 'extra', 'owner', 'node_id'])


def check_deletable(node):
    """409 unless the node's allocation may go: never from an active node
    that is not in maintenance (its instance would lose its record)."""
    if node.maintenance:
        return
    if (node.provision_state == states.ACTIVE or
            node.provision_state not in states.UPDATE_ALLOWED_STATES):
        raise exception.InvalidState(
            'Cannot remove the allocation of node %s while it is in '
            'provision state "%s" and not in maintenance.'
            % (node.uuid, node.provision_state))


def _check_settable(values):
    settable.check(values, SETTABLE_FIELDS, 'an allocation')


def store_new(values, host, refuse_instance_uuid=True):
    """Store a new allocation (not a backfill) for ``host`` to process,
    `allocating`; return the row. Raises as create_allocation does; one
    transaction. ``refuse_instance_uuid``: refuse a uuid that is a node's
    instance_uuid (pointless for a uuid just generated)."""
    _check_settable(values)
    return db_api.get_instance().create_allocation(
        dict(values, conductor_affinity=host, state=states.ALLOCATING),
        refuse_instance_uuid=refuse_instance_uuid)


def create_allocation(context, runner, host, values, taken_from=()):
    """Store an allocation and start processing it; return its uuid.

    :param taken_from: conductors the API tried first and got no answer
        from. If one of them stored this very allocation before going
        silent, take it over instead of failing with a duplicate.
    """
    _check_settable(values)
    db = db_api.get_instance()
    values = dict(values)
    if taken_from:
        existing = _existing(db, values['uuid'])
        if existing is not None:
            return _retried(db, runner, host, existing, taken_from)
    holders = db.get_node_list(filters={'instance_uuid': values['uuid']},
                               columns=['uuid'])
    if any(node.id != values.get('node_id') for node in holders):
        existing = _existing(db, values['uuid'])
        if existing is not None:
            # An allocation of this uuid got its node: a retry of ours
            # (the silent conductor stored it), or a duplicate.
            return _retried(db, runner, host, existing, taken_from)
        # Seed 004: the uuid must not be the instance of another node.
        raise exception.InstanceAssociated(
            instance_uuid=values['uuid'], node=holders[0].uuid)
    values['conductor_affinity'] = host
    if values.get('node_id') is not None:
        return _backfill(context, db, values)
    values['state'] = states.ALLOCATING
    try:
        allocation = db.create_allocation(values)
    except exception.AllocationAlreadyExists:
        if not taken_from:
            raise
        # The silent conductor stored it meanwhile.
        existing = _existing(db, values['uuid'])
        if existing is None:
            raise
        return _retried(db, runner, host, existing, taken_from)
    runner.add(allocation.id)
    return allocation.uuid


def _retried(db, runner, host, existing, taken_from):
    """The API's retry of a create a silent conductor already stored.

    The first conductor may be slow rather than dead: its answer was just
    lost. An allocation it still has `allocating` is taken over (the
    compare-and-swap in the reserve step lets only one of the two finish
    it); one it already finished is simply the answer.
    """
    if existing.conductor_affinity not in set(taken_from):
        raise exception.AllocationAlreadyExists(uuid=existing.uuid)
    if (existing.state == states.ALLOCATING and
            db.take_over_allocation(existing.id,
                                    existing.conductor_affinity, host)):
        runner.add(existing.id)
    return existing.uuid


def _existing(db, uuid):
    try:
        return db.get_allocation_by_uuid(uuid)
    except exception.AllocationNotFound:
        return None


def _backfill(context, db, values):
    """An allocation for a node deployed without one: active at once."""
    with locks.acquire(context, values['node_id'],
                       purpose='allocation backfill') as task:
        node = task.node
        if node.provision_state != states.ACTIVE:
            raise exception.InvalidState(
                'Node %s must be active to backfill an allocation for it, '
                'it is %s.' % (node.uuid, node.provision_state))
        if node.allocation_id is not None:
            raise exception.NodeAlreadyAllocated(
                node=node.uuid,
                allocation=db.get_allocation_by_id(node.allocation_id).uuid)
        if node.instance_uuid and node.instance_uuid != values['uuid']:
            raise exception.InvalidParameterValue(
                err='Node %s has instance_uuid %s; a backfilled allocation '
                    'must have the same UUID.' % (node.uuid,
                                                  node.instance_uuid),
                field='uuid')
        if values.get('resource_class') and \
                values['resource_class'] != node.resource_class:
            raise exception.InvalidParameterValue(
                err='Node %s has resource class %s, not %s.'
                    % (node.uuid, node.resource_class,
                       values['resource_class']), field='resource_class')
        missing = set(values.get('traits') or []) - {
            t.trait for t in node.traits}
        if missing:
            raise exception.InvalidParameterValue(
                err='Node %s lacks the traits %s.'
                    % (node.uuid, ', '.join(sorted(missing))),
                field='traits')
        values['resource_class'] = node.resource_class
        values['state'] = states.ALLOCATION_ACTIVE
        return db.create_allocation(values).uuid


def destroy_allocation(context, allocation_id):
    """Delete an allocation and free its node in one transaction."""
    db = db_api.get_instance()
    allocation = db.get_allocation_by_id(allocation_id)
    if allocation.node_id is None:
        db.destroy_allocation(allocation.id)
        return
    with locks.acquire(context, allocation.node_id,
                       purpose='allocation deletion') as task:
        check_deletable(task.node)
        db.destroy_allocation(allocation.id)
    LOG.info('Allocation %s deleted, node %s freed', allocation.uuid,
             task.node.uuid)


def resume_own(runner, host):
    """On start: run again the allocations this host left `allocating`."""
    db = db_api.get_instance()
    mine = db.get_allocation_list(filters={'state': states.ALLOCATING,
                                           'conductor_affinity': host})
    for allocation in mine:
        LOG.info('Resuming allocation %s', allocation.uuid)
        runner.add(allocation.id)
    return len(mine)


def start(runner, allocation_id):
    """The API's cast: process an allocation it stored for this host."""
    runner.add(allocation_id)


def resume_stray(runner, host, min_age):
    """Run the allocations of this host left `allocating` that its runner
    does not know of: their RPC cast was lost (a broker restart between
    the API's insert and its cast). Only those older than ``min_age``
    seconds, whose cast would have arrived by now."""
    db = db_api.get_instance()
    limit = timeutils.utcnow() - datetime.timedelta(seconds=min_age)
    known = runner.known()
    found = []
    for allocation in db.get_allocation_list(filters={
            'state': states.ALLOCATING, 'conductor_affinity': host}):
        if allocation.id in known or (allocation.created_at and
                                      allocation.created_at > limit):
            continue
        LOG.info('Starting allocation %s, whose start request never '
                 'arrived', allocation.uuid)
        runner.add(allocation.id)
        found.append(allocation.uuid)
    return found


def take_over_orphans(runner, host, dead_hosts):
    """Take over `allocating` allocations of dead conductors (an
    UPDATE ... WHERE conductor_affinity=<dead host>); a lost race just
    means another conductor has it."""
    if not dead_hosts:
        return []
    db = db_api.get_instance()
    orphans = db.get_allocation_list(filters={
        'state': states.ALLOCATING,
        'conductor_affinity': sorted(dead_hosts)})
    taken = []
    for allocation in orphans:
        if db.take_over_allocation(allocation.id,
                                   allocation.conductor_affinity, host):
            LOG.info('Took allocation %s over from dead conductor %s',
                     allocation.uuid, allocation.conductor_affinity)
            runner.add(allocation.id)
            taken.append(allocation.uuid)
    return taken
