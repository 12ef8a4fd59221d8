"""Taking nodes over when the hash ring changes.

Each conductor periodically compares the ring with the nodes'
conductor_affinity. A node the ring now maps to this conductor is claimed
with a compare-and-swap on conductor_affinity (a lost race is normal);
reservations left by dead conductors are cleared, work they left half done
is failed cleanly, and the power state is read again from the hardware.
"""

from oslo_log import log

from ironic_like.common import exception
from ironic_like.conductor import locks
from ironic_like.conductor import power
from ironic_like.conductor import provisioning
from ironic_like.conf import CONF
from ironic_like.db import api as db_api

LOG = log.getLogger(__name__)


def dead_conductors(db):
    alive = {c.hostname for c in
             db.get_alive_conductors(CONF.conductor.heartbeat_timeout)}
    return {c.hostname for c in db.get_conductor_list()} - alive


def owned_node_rows(ring, host, db=None, unowned_only=False,
                    provision_states=None, extra_filters=None):
    """Ownership rows of the nodes the ring maps to ``host`` (only those
    no conductor has claimed yet, with ``unowned_only``; only those in
    ``provision_states``, if given; only those matching the node list
    filters ``extra_filters``, if given)."""
    db = db or db_api.get_instance()
    filters = {'driver': CONF.enabled_hardware_types,
               'conductor_group': CONF.conductor.conductor_group or ''}
    filters.update(extra_filters or {})
    if unowned_only:
        filters['unowned'] = True
    if provision_states is not None:
        filters['provision_state'] = sorted(provision_states)
    rows = db.get_node_ownership_list(filters=filters)
    owned = []
    for row in rows:
        _id, uuid, driver, group = row[:4]
        try:
            owner = ring.get_owner(uuid, driver, group)
        except exception.NoValidHost:
            continue
        if owner == host:
            owned.append(row)
    return owned


def take_over_nodes(context, ring, host, unowned_only=False):
    """One pass: claim the nodes newly mapped to ``host``.

    A full pass reads every node of the group; ``unowned_only`` reads only
    nodes nobody claimed yet (enrolled behind the conductors' back), which
    is all that can change while the ring stays the same.
    Returns the UUIDs of the nodes taken over in this pass.
    """
    db = db_api.get_instance()
    dead = dead_conductors(db)
    taken = []
    for row in owned_node_rows(ring, host, db, unowned_only):
        node_id, uuid, _driver, _group, affinity, reservation = row[:6]
        if affinity == host:
            if reservation in dead and db.release_dead_holder(node_id,
                                                              reservation):
                # Our own node, locked by a conductor that died after it
                # had borrowed it (e.g. during a ring change). Its work
                # died with it: fail that too (releasing alone left the
                # node in e.g. "deploying" for good).
                _after_take_over(context, node_id, reservation,
                                 previous_dead=True)
            continue
        if not db.take_over_node(node_id, host, affinity):
            LOG.debug('Node %s was taken by another conductor first', uuid)
            continue
        taken.append(uuid)
        LOG.info('Took node %s over from %s', uuid, affinity or '(none)')
        if reservation in dead:
            # Whoever held the lock did the interrupted work, even when
            # the previous owner is alive (it lent the node to the dead
            # host); but only if it is still dead now (not restarted).
            worker = reservation
            previous_dead = db.release_dead_holder(node_id, reservation)
        else:
            worker = affinity
            previous_dead = worker in dead and _still_dead(db, worker)
        _after_take_over(context, node_id, worker,
                         previous_dead=previous_dead)
    return taken


def _still_dead(db, host):
    # The list of the dead read at the start of a pass may be stale: a
    # conductor restarted under the same name since then works on its
    # nodes again (its locks are kept: release_dead_holder).
    return host not in {c.hostname for c in db.get_alive_conductors(
        CONF.conductor.heartbeat_timeout)}


def fail_abandoned_work(context, node_id, previous_owner):
    """End the work a dead (or restarted) ``previous_owner`` left half done
    on a node, and read its power state again."""
    _after_take_over(context, node_id, previous_owner, previous_dead=True)


def _after_take_over(context, node_id, previous_owner, previous_dead):
    try:
        if previous_dead:
            with locks.acquire(context, node_id,
                               purpose='take over') as task:
                provisioning.fail_interrupted(task, previous_owner)
        power.sync_node_power_state(context, node_id)
    except exception.NodeLocked:
        # The node is busy with work a live conductor started; its lock
        # holder finishes it and the next power sync catches up.
        pass
    except exception.NodeNotFound:
        pass
    except exception.TemporaryFailure as e:
        # No free worker to carry the work on now: the node is left in
        # its transient state, unlocked, where the watchdog finds it.
        LOG.info('Take-over of node %s: %s; the watchdog carries it on',
                 node_id, e)
    except Exception:
        LOG.exception('Take-over of node %s: post-processing failed',
                      node_id)
