"""Database access for allocations, mixed into Connection.

Candidate search happens in SQL (resource class, state, maintenance,
power state, instance, candidates and the traits superset), so the cost of
an allocation does not grow with the number of free nodes loaded into
Python. Reserving a node is one transaction of two conditional UPDATEs:
the node (still free, unlocked, still matching) and the allocation (still
ours: compare-and-swap on conductor_affinity).
"""


from oslo_db import exception as db_exc
from oslo_utils import timeutils
from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_like.common.accelerators import traits as acc_traits
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.db.sqlalchemy import accelerators
from ironic_like.db.sqlalchemy import models

# Columns an allocation list may be sorted by.
ALLOCATION_SORT_KEYS = frozenset(['id', 'uuid', 'name', 'created_at',
                                  'updated_at', 'state', 'resource_class',
                                  'node_id', 'owner'])


def _sa_api():
    # Imported lazily: api.py imports this module to build Connection.
    from ironic_like.db.sqlalchemy import api
    return api


class _TakenOver(Exception):
    """Raised inside a transaction to roll it back."""


def _free_node_conditions(resource_class, traits, owner=None):
    """SQL conditions of a node that may take an allocation now.

    An allocation with an owner only takes nodes that project owns or
    leases (as in Ironic)."""
    n = models.Node
    conditions = [
        n.provision_state == states.AVAILABLE,
        n.maintenance.is_(False),
        # Retired nodes are never scheduled again (Ironic 1.61).
        n.retired.is_(False),
        # Child nodes (Ironic 1.83) are parts of another machine, never
        # scheduled on their own (Ironic's candidate list skips them too).
        n.parent_node.is_(None),
        n.power_state.is_not(None),
        n.instance_uuid.is_(None),
        n.allocation_id.is_(None),
        n.resource_class == resource_class,
    ]
    # Accelerator traits (doc/accelerators.md) are the node's only while
    # a handle carrying them is free; the rest are the operator's.
    accel = sorted(t for t in set(traits or ())
                   if acc_traits.is_accelerator_trait(t))
    plain = sorted(set(traits or ()) - set(accel))
    if plain:
        matching = (sa.select(sa.func.count())
                    .select_from(models.NodeTrait)
                    .where(models.NodeTrait.node_id == n.id,
                           models.NodeTrait.trait.in_(plain))
                    .scalar_subquery())
        conditions.append(matching == len(plain))
    for trait in accel:
        conditions.append(sa.or_(
            accelerators.accelerator_trait_condition(n.id, trait),
            sa.select(models.NodeTrait.node_id).where(
                models.NodeTrait.node_id == n.id,
                models.NodeTrait.trait == trait).exists()))
    if owner:
        conditions.append(sa.or_(n.owner == owner, n.lessee == owner))
    return conditions


def _candidates_query(query, resource_class, traits, candidate_uuids,
                      owner):
    """``query`` (a select from nodes) narrowed to the nodes that may take
    an allocation of this request now."""
    n = models.Node
    query = query.where(*_free_node_conditions(resource_class, traits,
                                               owner))
    if candidate_uuids:
        query = query.where(n.uuid.in_(list(candidate_uuids)))
    return query


def _refuse_instance_uuid(session, allocation_uuid):
    holder = session.execute(sa.select(models.Node.uuid).where(
        models.Node.instance_uuid == allocation_uuid)).first()
    if holder is None:
        return
    if session.execute(sa.select(models.Allocation.id).where(
            models.Allocation.uuid == allocation_uuid)).first():
        raise exception.AllocationAlreadyExists(uuid=allocation_uuid)
    raise exception.InstanceAssociated(instance_uuid=allocation_uuid,
                                       node=holder[0])


def _best_fit_pick(request, limit):
    """A locking read of up to ``limit`` best-fit nodes for ``request``
    (rows of id, uuid, instance_info): free, unlocked and matching, with
    the fewest traits such a node has, the lowest ids first; rows other
    transactions hold are skipped. The fewest traits are read by a
    subquery, not correlated with the outer nodes, in the same round
    trip; it locks nothing, so it counts the rows other reservations
    hold, and skipping never goes past the best fit."""
    n = models.Node
    free = _candidates_query(
        sa.select(n.id, n.uuid, n.instance_info),
        request['resource_class'], request['traits'],
        request['candidate_nodes'], request['owner']).where(
            n.reservation.is_(None))
    fewest = (free.with_only_columns(sa.func.min(n.trait_count))
              .correlate(None).scalar_subquery())
    return (free.where(n.trait_count == fewest).order_by(n.id)
            .limit(limit).with_for_update(skip_locked=True))


def _best_fit_first(query):
    """``query`` ordered best fit first: the fewest traits, then the
    lowest id.

    Every candidate has the traits asked, so the fewest in all is the
    fewest beyond them, and a request without traits leaves the trait
    nodes to the requests that need them. The order is that of the
    nodes_candidate_idx index (class, state, free, trait count, and the
    primary key InnoDB appends), so a LIMIT stops after that many rows:
    the cost does not grow with the number of free nodes.
    """
    n = models.Node
    return query.order_by(n.trait_count, n.id)


class AllocationsMixin(object):

    def create_allocation(self, values, refuse_instance_uuid=False):
        """Store an allocation; with ``refuse_instance_uuid``, in the same
        transaction refuse a uuid that is a node's instance_uuid (seed
        004): AllocationAlreadyExists when an allocation has it,
        InstanceAssociated otherwise."""
        values = dict(values)
        values.setdefault('uuid', uuidutils.generate_uuid())
        values.setdefault('state', states.ALLOCATING)
        values.setdefault('extra', {})
        # Whole seconds, as MariaDB's DATETIME keeps it: the row returned
        # (the API's answer to a POST) shows what a later GET reads.
        values.setdefault('created_at',
                          timeutils.utcnow().replace(microsecond=0))
        traits = list(dict.fromkeys(values.pop('traits', None) or []))
        # Inserted with plain INSERTs, not the ORM's unit of work (which
        # was a third of the API's CPU for a POST, issue 14); the object
        # returned is built from what was inserted.
        try:
            with _sa_api()._writer() as session:
                if refuse_instance_uuid:
                    _refuse_instance_uuid(session, values['uuid'])
                # Core statements with their values as parameters: one
                # compiled statement for every POST, no ORM bulk path.
                connection = session.connection()
                allocation_id = connection.execute(
                    models.Allocation.__table__.insert(), values
                ).inserted_primary_key[0]
                if traits:
                    connection.execute(
                        models.AllocationTrait.__table__.insert(),
                        [{'allocation_id': allocation_id, 'trait': t,
                          'created_at': values['created_at']}
                         for t in traits])
                allocation = models.Allocation(id=allocation_id, **values)
                allocation.traits = [
                    models.AllocationTrait(allocation_id=allocation_id,
                                           trait=t)
                    for t in sorted(traits)]
                if values.get('node_id') is not None:
                    self._bind_node(session, allocation)
        except db_exc.DBDuplicateEntry as e:
            columns = e.columns or []
            if 'name' in columns or 'uniq_allocations0name' in columns:
                raise exception.AllocationDuplicateName(
                    name=values.get('name'))
            if any('node_id' in c for c in columns):
                raise exception.NodeAlreadyAllocated(
                    node=values.get('node_id'), allocation='(another)')
            raise exception.AllocationAlreadyExists(uuid=values['uuid'])
        return allocation

    @staticmethod
    def _bind_node(session, allocation):
        """Backfill: point an already deployed node at ``allocation``."""
        n = models.Node
        count = session.execute(
            sa.update(n)
            .where(n.id == allocation.node_id, n.allocation_id.is_(None),
                   sa.or_(n.instance_uuid.is_(None),
                          n.instance_uuid == allocation.uuid))
            .values(allocation_id=allocation.id,
                    instance_uuid=allocation.uuid)
            .execution_options(synchronize_session=False)).rowcount
        if count != 1:
            raise exception.NodeAlreadyAllocated(
                node=allocation.node_id, allocation='(another)')

    def _get_allocation(self, column, value):
        with _sa_api()._reader() as session:
            allocation = session.scalars(
                sa.select(models.Allocation).where(column == value)).first()
        if allocation is None:
            raise exception.AllocationNotFound(allocation=value)
        return allocation

    def get_allocation_by_id(self, allocation_id):
        return self._get_allocation(models.Allocation.id, allocation_id)

    def get_allocation_by_uuid(self, allocation_uuid):
        return self._get_allocation(models.Allocation.uuid, allocation_uuid)

    def get_allocation_by_name(self, name):
        return self._get_allocation(models.Allocation.name, name)

    def get_allocation(self, ident):
        if uuidutils.is_uuid_like(ident):
            return self.get_allocation_by_uuid(ident)
        return self.get_allocation_by_name(ident)

    def get_allocation_list(self, filters=None, limit=None, marker=None,
                            sort_key=None, sort_dir=None):
        filters = filters or {}
        a = models.Allocation
        query = sa.select(a)
        for key in ('state', 'resource_class', 'node_id', 'owner',
                    'conductor_affinity'):
            value = filters.get(key)
            if value is None:
                continue
            column = getattr(a, key)
            if isinstance(value, (list, tuple, set, frozenset)):
                query = query.where(column.in_(list(value)))
            else:
                query = query.where(column == value)
        marker_obj = None
        if marker is not None:
            try:
                marker_obj = self.get_allocation_by_uuid(marker)
            except exception.AllocationNotFound:
                raise exception.InvalidParameterValue(
                    err='The marker %s does not name an existing '
                        'allocation.' % marker, field='marker')
        sa_api = _sa_api()
        query = sa_api._paginate(query, a, limit, marker_obj, sort_key,
                                 sort_dir, ALLOCATION_SORT_KEYS)
        with sa_api._reader() as session:
            return list(session.scalars(query))

    def update_allocation(self, allocation_id, values, conductor=None):
        """Update an allocation; with ``conductor``, only while that
        conductor still handles it (compare-and-swap), else
        AllocationTakenOver."""
        values = dict(values)
        for key in ('id', 'uuid', 'created_at'):
            values.pop(key, None)
        a = models.Allocation
        where = [a.id == allocation_id]
        if conductor is not None:
            where.append(a.conductor_affinity == conductor)
        try:
            with _sa_api()._writer() as session:
                count = session.execute(
                    sa.update(a).where(*where).values(**values)
                    .execution_options(synchronize_session=False)).rowcount
        except db_exc.DBDuplicateEntry:
            raise exception.AllocationDuplicateName(name=values.get('name'))
        if count != 1:
            current = self.get_allocation_by_id(allocation_id)
            raise exception.AllocationTakenOver(
                uuid=current.uuid, conductor=current.conductor_affinity)
        return self.get_allocation_by_id(allocation_id)

    def get_allocation_uuids(self, allocation_ids):
        """{id: uuid} of the given allocations, in one query."""
        a = models.Allocation
        with _sa_api()._reader() as session:
            return dict(session.execute(
                sa.select(a.id, a.uuid).where(
                    a.id.in_(list(allocation_ids)))).all())

    def take_over_allocation(self, allocation_id, old_conductor,
                             new_conductor):
        """Move an allocation still allocating from ``old_conductor`` to
        ``new_conductor``: one UPDATE ... WHERE conductor_affinity=<old>,
        so that of conductors taking it over at once only one wins.

        True when this call moved the allocation to ``new_conductor``.
        """
        a = models.Allocation
        if old_conductor is None:
            owned = a.conductor_affinity.is_(None)
        else:
            owned = a.conductor_affinity == old_conductor
        with _sa_api()._writer() as session:
            count = session.execute(
                sa.update(a)
                .where(a.id == allocation_id, owned,
                       a.state == states.ALLOCATING)
                .values(conductor_affinity=new_conductor)
                .execution_options(synchronize_session=False)).rowcount
        return count == 1

    def destroy_allocation(self, allocation_id):
        """Delete an allocation and free its node, in one transaction."""
        a = models.Allocation
        n = models.Node
        with _sa_api()._writer() as session:
            # Lock the allocation row first: a reservation writing it right
            # now makes us wait for its commit, so the node update below
            # sees (and clears) the node it reserved. Without the lock,
            # PostgreSQL skips the uncommitted node row and the node would
            # be left pointing at a deleted allocation.
            allocation = session.execute(
                sa.select(a.id).where(a.id == allocation_id)
                .with_for_update()).scalar_one_or_none()
            if allocation is None:
                raise exception.AllocationNotFound(allocation=allocation_id)
            session.execute(
                sa.update(n)
                .where(n.allocation_id == allocation_id)
                .values(allocation_id=None, instance_uuid=None)
                .execution_options(synchronize_session=False))
            session.execute(sa.delete(models.AllocationTrait).where(
                models.AllocationTrait.allocation_id == allocation_id))
            session.execute(sa.delete(a).where(a.id == allocation_id))

    def get_allocation_requests(self, allocation_ids):
        """What the allocation flow needs of each allocation, as plain
        dicts (two light queries for the whole batch, no ORM objects):
        id, uuid, name, state, resource_class, owner, candidate_nodes,
        traits. Allocations that no longer exist are left out."""
        a = models.Allocation
        t = models.AllocationTrait
        ids = list(allocation_ids)
        with _sa_api()._reader() as session:
            rows = session.execute(
                sa.select(a.id, a.uuid, a.name, a.state, a.resource_class,
                          a.owner, a.candidate_nodes)
                .where(a.id.in_(ids)).order_by(a.id)).all()
            traits = {}
            for allocation_id, trait in session.execute(
                    sa.select(t.allocation_id, t.trait)
                    .where(t.allocation_id.in_(ids)).order_by(t.trait)):
                traits.setdefault(allocation_id, []).append(trait)
        requests = []
        for row in rows:
            request = dict(row._mapping)
            request['candidate_nodes'] = list(
                request['candidate_nodes'] or [])
            request['traits'] = traits.get(row.id, [])
            requests.append(request)
        return requests

    def get_allocation_request(self, allocation_id):
        found = self.get_allocation_requests([allocation_id])
        if not found:
            raise exception.AllocationNotFound(allocation=allocation_id)
        return found[0]

    def fail_allocation(self, allocation_id, conductor, message):
        """`allocating` -> `error` with last_error, only while
        ``conductor`` still handles it; False if it does not (taken over,
        finished or deleted meanwhile)."""
        a = models.Allocation
        with _sa_api()._writer() as session:
            return session.execute(
                sa.update(a)
                .where(a.id == allocation_id,
                       a.conductor_affinity == conductor,
                       a.state == states.ALLOCATING)
                .values(state=states.ALLOCATION_ERROR, last_error=message)
                .execution_options(synchronize_session=False)
            ).rowcount == 1

    def allocation_candidates(self, resource_class, traits=(),
                              candidate_uuids=None, owner=None, limit=None):
        """IDs of nodes that could take an allocation right now (locked
        ones included: a lock ends); with ``limit``, at most that many,
        best fit first (_best_fit_first). One read transaction."""
        query = _candidates_query(sa.select(models.Node.id), resource_class,
                                  traits, candidate_uuids, owner)
        if limit:
            query = _best_fit_first(query).limit(limit)
        with _sa_api()._reader() as session:
            return [row[0] for row in session.execute(query)]

    def node_ids_by_name(self, names):
        """{name: node id} of the nodes called by one of ``names``: one
        query for a batch of allocations, most of which are named after
        no node."""
        names = sorted(set(name for name in names if name))
        if not names:
            return {}
        n = models.Node
        with _sa_api()._reader() as session:
            return dict(session.execute(
                sa.select(n.name, n.id).where(n.name.in_(names))).all())

    def explain_no_candidates(self, resource_class, traits=(),
                              candidate_uuids=None, owner=None):
        """Why allocation_candidates() found nothing, for last_error."""
        n = models.Node
        with _sa_api()._reader() as session:
            def count(*where):
                query = sa.select(sa.func.count()).select_from(n).where(
                    *where)
                if candidate_uuids:
                    query = query.where(n.uuid.in_(list(candidate_uuids)))
                return session.execute(query).scalar()

            scope = ' among the candidate nodes' if candidate_uuids else ''
            if owner:
                scope += ' owned or leased by project %s' % owner
                mine = sa.or_(n.owner == owner, n.lessee == owner)
            else:
                mine = sa.true()
            if not count(n.resource_class == resource_class, mine):
                return ('no node has resource class %s%s'
                        % (resource_class, scope))
            free = _free_node_conditions(resource_class, (), owner)
            if not count(*free):
                return ('no node of resource class %s is available '
                        '(all are allocated, deployed, in maintenance or '
                        'not in the available state, or are child nodes)%s'
                        % (resource_class, scope))
            return ('no available node of resource class %s has all of '
                    'the traits %s%s' % (resource_class,
                                         ', '.join(sorted(traits)), scope))

    def reserve_node_for_allocation(self, allocation_id, node_id,
                                    conductor, request=None):
        """Give node ``node_id`` to the allocation, in ONE transaction.

        :param request: the allocation's get_allocation_request(), if the
            caller has it already.
        Returns the node's uuid, or None when the node is no longer free,
        locked or no longer matching (try another one). Raises
        AllocationTakenOver when the allocation stopped being ours.
        """
        if request is None:
            request = self.get_allocation_request(allocation_id)
        n = models.Node
        query = _candidates_query(
            sa.select(n.id, n.uuid, n.instance_info),
            request['resource_class'], request['traits'], None,
            request['owner']).where(n.id == node_id,
                                    n.reservation.is_(None))

        def pick(session):
            return session.execute(
                query.with_for_update(skip_locked=True)).first()

        return self._take_node(allocation_id, conductor, request, pick)

    def reserve_best_fit_node(self, allocation_id, conductor, request):
        """Pick the best-fit node for the allocation and give it, in ONE
        transaction: a free, unlocked matching node with the fewest
        traits (the lowest id among them).

        The pick (_best_fit_pick) is a locking read that skips the rows
        other transactions hold (FOR UPDATE SKIP LOCKED on MariaDB and
        PostgreSQL): concurrent reservations take different nodes, none
        fails on a node another one took first, and none waits for
        another. Skipping never goes
        past the best fit: with every best-fit node held by reservations
        in flight, the answer is None and the caller looks again. SQLite
        has one writer at a time, so there the reads and the write cannot
        interleave with another reservation at all.

        Returns the node's uuid, or None when no best-fit node is free and
        unlocked now. Raises AllocationTakenOver when the allocation
        stopped being ours.
        """
        pick_query = _best_fit_pick(request, 1)

        def pick(session):
            return session.execute(pick_query).first()

        return self._take_node(allocation_id, conductor, request, pick)

    def reserve_best_fit_nodes(self, requests, conductor):
        """reserve_best_fit_node for several allocations asking the same
        (resource class, traits, candidate nodes and owner), in ONE
        transaction: one locking read picks up to one best-fit node each,
        then each node and allocation are updated as one reservation
        does. A burst's batch pays one pick and one commit per kind of
        request instead of one per allocation (issue 14).

        Returns {allocation id: node uuid} of the allocations served: as
        many as best-fit nodes were free and unlocked, in the order of
        ``requests``; the others are the caller's to reserve one by one.
        Nothing is taken ({}) when any allocation stopped being ours or a
        node stopped matching meanwhile: one by one, each gets its own
        answer.
        """
        if not requests:
            return {}
        pick = _best_fit_pick(requests[0], len(requests))
        taken = {}
        try:
            with _sa_api()._writer() as session:
                for request, row in zip(requests,
                                        session.execute(pick).all()):
                    if not self._give(session, row, request, conductor):
                        raise _TakenOver()
                    taken[request['id']] = row[1]
        except (_TakenOver, db_exc.DBDuplicateEntry, db_exc.DBDeadlock):
            return {}
        return taken

    def _give(self, session, row, request, conductor):
        """In ``session``: the node of ``row`` (id, uuid, instance_info)
        becomes allocation ``request``'s, which goes `active`. False when
        the node no longer matches; raises _TakenOver when the allocation
        is no longer ours (the caller rolls back)."""
        a = models.Allocation
        n = models.Node
        node_id, node_uuid, info = row
        traits = request['traits']
        values = {'instance_uuid': request['uuid'],
                  'allocation_id': request['id']}
        if traits:
            # As Ironic: the traits asked go to instance_info.
            info = dict(info or {})
            info['traits'] = sorted(traits)
            values['instance_info'] = info
        # The conditions again, for SQLite, where the read locks nothing
        # (there, the process's writers take turns).
        taken = session.execute(
            sa.update(n)
            .where(n.id == node_id, n.reservation.is_(None),
                   *_free_node_conditions(request['resource_class'],
                                          traits, request['owner']))
            .values(**values)
            .execution_options(synchronize_session=False)).rowcount
        if taken != 1:
            return False
        won = session.execute(
            sa.update(a)
            .where(a.id == request['id'],
                   a.conductor_affinity == conductor,
                   a.state == states.ALLOCATING)
            .values(node_id=node_id, state=states.ALLOCATION_ACTIVE,
                    last_error=None)
            .execution_options(synchronize_session=False)).rowcount
        if won != 1:
            raise _TakenOver()
        return True

    def _take_node(self, allocation_id, conductor, request, pick):
        """The node ``pick(session)`` reads (a row of id, uuid and
        instance_info, or None) becomes the allocation's, in one
        transaction with the allocation's move to `active`; see
        reserve_node_for_allocation for the answers. The pick locks the
        row it reads, so instance_info is not changed under it."""
        request = dict(request, id=allocation_id)
        try:
            with _sa_api()._writer() as session:
                row = pick(session)
                if row is None:
                    return None
                if not self._give(session, row, request, conductor):
                    return None
                return row[1]
        except _TakenOver:
            current = self.get_allocation_by_id(allocation_id)
            raise exception.AllocationTakenOver(
                uuid=current.uuid, conductor=current.conductor_affinity)
        except (db_exc.DBDuplicateEntry, db_exc.DBDeadlock):
            # Another allocation won this node in a race the conditions
            # could not see yet; another node will do.
            return None
