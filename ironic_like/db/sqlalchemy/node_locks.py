"""Node locks in the database, mixed into Connection: the conditional
UPDATEs that take, give back and take over a node's reservation, and the
writes made under it without update_node()'s read-modify-write.
"""

import datetime

from oslo_utils import timeutils
import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.conf import CONF
from ironic_like.db.sqlalchemy import models
from ironic_like.db.sqlalchemy import retry


def _sa_api():
    # Imported lazily: api.py imports this module to build Connection.
    from ironic_like.db.sqlalchemy import api
    return api


_retried = retry.lazily_retried


# Columns write_locked_node() refuses: they need update_node()'s checks or
# side effects (immutable ids, the instance check, state timestamps,
# traits and labels kept in tables of their own).
_GUARDED_COLUMNS = frozenset([
    'id', 'uuid', 'created_at',
    'instance_uuid', 'provision_state', 'traits', 'labels', 'reservation',
    'last_error', 'fault'])


def _hold_conductor_row(session, hostname):
    """Share-lock ``hostname``'s conductors row for the transaction: the
    conductor cannot register again (and lock nodes) until the caller's
    UPDATE is committed. Without it, PostgreSQL's re-check of a node row
    changed meanwhile would judge the new lock against the conductors
    row of the statement's older snapshot. (SQLite has one writer.)"""
    c = models.Conductor
    session.execute(sa.select(c.id).where(c.hostname == hostname)
                    .with_for_update(read=True))


def _holder_alive():
    """In an UPDATE of nodes: the conductor holding the node's lock is
    alive now, as get_alive_conductors() counts the living."""
    c = models.Conductor
    limit = timeutils.utcnow() - datetime.timedelta(
        seconds=CONF.conductor.heartbeat_timeout)
    return sa.exists().where(c.hostname == models.Node.reservation,
                             c.online.is_(True), c.updated_at >= limit)


class NodeLocksMixin(object):

    @_retried
    def reserve_node(self, tag, node_id):
        """Take the exclusive lock of a node for ``tag`` (a host name).

        One conditional UPDATE: of two conductors racing, exactly one wins
        and the other gets NodeLocked. The node is read back in the same
        transaction, so a failure there takes no lock.
        """
        with _sa_api()._writer() as session:
            count = session.execute(
                sa.update(models.Node)
                .where(models.Node.id == node_id,
                       models.Node.reservation.is_(None))
                .values(reservation=tag)
                .execution_options(synchronize_session=False)).rowcount
            node = _sa_api().read_one_node(session,
                                           models.Node.id == node_id)
        if node is None:
            raise exception.NodeNotFound(node=node_id)
        if count != 1:
            raise exception.NodeLocked(node=node.uuid,
                                       host=node.reservation)
        return node

    @_retried
    def release_node(self, tag, node_id):
        """Drop the lock ``tag`` holds; a lock held by another is kept."""
        with _sa_api()._writer() as session:
            count = session.execute(
                sa.update(models.Node)
                .where(models.Node.id == node_id,
                       models.Node.reservation == tag)
                .values(reservation=None)
                .execution_options(synchronize_session=False)).rowcount
        return count == 1

    @_retried
    def release_node_instance(self, node_id, holder=None):
        """Clear a torn-down node's instance and delete its allocation in
        the same transaction: a tear-down ends the allocation, and no
        reader may see the one without the other."""
        n = models.Node
        with _sa_api()._writer() as session:
            node = session.get(n, node_id, with_for_update=True)
            if node is None:
                raise exception.NodeNotFound(node=node_id)
            _sa_api()._check_holder(node, holder)
            allocation_id = node.allocation_id
            node.instance_uuid = None
            node.instance_name = None
            node.instance_info = {}
            node.allocation_id = None
            if allocation_id is not None:
                session.flush()
                session.execute(sa.delete(models.AllocationTrait).where(
                    models.AllocationTrait.allocation_id == allocation_id))
                session.execute(sa.delete(models.Allocation).where(
                    models.Allocation.id == allocation_id))
        return self.get_node_by_id(node_id)

    @_retried
    def clear_node_reservations_for_conductor(self, hostname):
        with _sa_api()._writer() as session:
            return session.execute(
                sa.update(models.Node)
                .where(models.Node.reservation == hostname)
                .values(reservation=None)
                .execution_options(synchronize_session=False)).rowcount

    @_retried
    def release_dead_holder(self, node_id, holder):
        """Drop the lock ``holder`` holds on a node, only if ``holder`` is
        dead when the UPDATE runs (no conductors row of it online with a
        heartbeat within [conductor]heartbeat_timeout). A list of dead
        conductors read earlier may be stale: a conductor restarted under
        the same host name since then locks nodes again, and its locks
        must stand. Returns whether the lock was dropped."""
        with _sa_api()._writer() as session:
            _hold_conductor_row(session, holder)
            count = session.execute(
                sa.update(models.Node)
                .where(models.Node.id == node_id,
                       models.Node.reservation == holder,
                       ~_holder_alive())
                .values(reservation=None)
                .execution_options(synchronize_session=False)).rowcount
        return count == 1

    def take_over_node(self, node_id, new_owner, previous_owner):
        """Make ``new_owner`` the node's conductor_affinity.

        Compare-and-swap on the previous affinity; a lock on the node is
        left alone (release_dead_holder() drops a dead holder's). Returns
        False when another conductor changed the node first.
        """
        n = models.Node
        where = [n.id == node_id]
        if previous_owner is None:
            where.append(n.conductor_affinity.is_(None))
        else:
            where.append(n.conductor_affinity == previous_owner)
        with _sa_api()._writer() as session:
            count = session.execute(
                sa.update(n).where(*where)
                .values(conductor_affinity=new_owner)
                .execution_options(synchronize_session=False)).rowcount
        return count == 1

    @_retried
    def write_locked_node(self, node_id, holder, values):
        """Write plain columns of a node ``holder`` has locked, in one
        conditional UPDATE and no read (the hot path of agent heartbeats;
        update_node reads the row FOR UPDATE and back).

        :raises: NodeLockLost if ``holder`` no longer holds the lock,
            NodeNotFound if the node is gone (nothing written).
        """
        bad = _GUARDED_COLUMNS.intersection(values)
        if bad:
            raise exception.InvalidParameterValue(
                err='Not a plain column of a node: %s.'
                    % ', '.join(sorted(bad)), field=sorted(bad)[0])
        with _sa_api()._writer() as session:
            count = session.execute(
                sa.update(models.Node)
                .where(models.Node.id == node_id,
                       models.Node.reservation == holder)
                .values(**values)
                .execution_options(synchronize_session=False)).rowcount
            if count == 1:
                return
            node = session.scalars(sa.select(models.Node).where(
                models.Node.id == node_id)).first()
        if node is None:
            raise exception.NodeNotFound(node=node_id)
        _sa_api()._check_holder(node, holder)
