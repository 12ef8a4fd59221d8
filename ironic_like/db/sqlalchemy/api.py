"""SQLAlchemy implementation of the database interface.

Every change that two conductors may race on is one conditional UPDATE
(reserve/release a node, take a node over), so the database decides the
winner and a lost race is an ordinary outcome.
"""

import contextlib
import datetime
import functools
import threading

from oslo_db import api as oslo_db_api
from oslo_db import exception as db_exc
from oslo_db.sqlalchemy import enginefacade
from oslo_log import log
from oslo_utils import timeutils
from oslo_utils import uuidutils
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy import orm

from ironic_like.common import exception
from ironic_like.conf import CONF
from ironic_like.db.sqlalchemy import accelerator_views
from ironic_like.db.sqlalchemy import accelerators
from ironic_like.db.sqlalchemy import allocations
from ironic_like.db.sqlalchemy import bios
from ironic_like.db.sqlalchemy import boot_sessions
from ironic_like.db.sqlalchemy import chassis
from ironic_like.db.sqlalchemy import deploy_templates
from ironic_like.db.sqlalchemy import firmware
from ironic_like.db.sqlalchemy import hostos
from ironic_like.db.sqlalchemy import inspection_rules
# Registers the per-connection settings (SQLite pragmas, idle-transaction
# bound) on every engine.
from ironic_like.db.sqlalchemy import connection_setup  # noqa: F401
from ironic_like.db.sqlalchemy import models
from ironic_like.db.sqlalchemy import node_heartbeats
from ironic_like.db.sqlalchemy import node_history
from ironic_like.db.sqlalchemy import node_inventory
from ironic_like.db.sqlalchemy import node_locks
from ironic_like.db.sqlalchemy import portgroups
from ironic_like.db.sqlalchemy import ports
from ironic_like.db.sqlalchemy import runbooks
from ironic_like.db.sqlalchemy import volumes

LOG = log.getLogger(__name__)

_CONTEXT = threading.local()
# Module attribute (not a decorator bound at import) so that tests can swap
# in a context manager of their own database.
main_context_manager = enginefacade.transaction_context()
# thread_checkin=False: oslo.db's time.sleep(0) at every connection
# check-in lets eventlet's green threads run; the service runs real
# threads, for which it only adds a GIL hand-off per transaction (a sixth
# of the embedded service's time under a burst of allocations).
main_context_manager.configure(sqlite_fk=True, thread_checkin=False)


# Execution option of engines whose every transaction is a writer's (on
# SQLite: BEGIN IMMEDIATE), for code that does not go through _writer(),
# such as taskflow's persistence (which reads, then writes).
IMMEDIATE_OPTION = 'ironic_like_sqlite_immediate'

# Per thread: inside how many writer transactions we are (SQLite only).
_TXN = threading.local()


@event.listens_for(sa.engine.Engine, 'begin', insert=True)
def _sqlite_begin(connection):
    # oslo.db emits a plain (deferred) BEGIN on SQLite unless one was
    # already issued. A deferred transaction that reads and then writes
    # fails at once with "database is locked" when another writer
    # committed in between, so a writer takes the write lock up front
    # (waiting up to busy_timeout) with BEGIN IMMEDIATE.
    if (connection.dialect.name == 'sqlite' and
            (getattr(_TXN, 'writing', 0) or
             connection.get_execution_options().get(IMMEDIATE_OPTION)) and
            'in_transaction' not in connection.info):
        connection.exec_driver_sql('BEGIN IMMEDIATE')
        connection.info['in_transaction'] = True


# Threads of a conductor's worker pool (flows, power changes) use their
# own, smaller connection pool on MariaDB/PostgreSQL: with one shared pool,
# a burst of background work (200 nodes cleaning) held every connection
# and the RPC handlers waited for one past the API's call timeout.
_WORKER = threading.local()
_WORKER_CONTEXT = threading.local()
# (the main context manager it was made for, the workers' one or None)
_worker_manager = (None, None)
_worker_manager_lock = threading.Lock()


def mark_worker_thread():
    """Make the calling thread use the workers' connection pool (the
    conductor's worker pool calls this as its thread initializer)."""
    _WORKER.on = True


def _worker_context_manager():
    """The workers' context manager, or None where they share the main
    pool (SQLite: one writer at a time anyway, and the tests' databases)."""
    global _worker_manager
    main = main_context_manager
    made_for, manager = _worker_manager
    if made_for is main:
        return manager
    with _worker_manager_lock:
        if _worker_manager[0] is not main:
            url = main.writer.get_engine().url
            manager = None
            if url.get_backend_name() != 'sqlite':
                manager = enginefacade.transaction_context()
                manager.configure(
                    thread_checkin=False,
                    connection=url.render_as_string(hide_password=False),
                    max_pool_size=CONF.database.worker_max_pool_size,
                    max_overflow=CONF.database.worker_max_overflow)
            _worker_manager = (main, manager)
        return _worker_manager[1]


def _current():
    if getattr(_WORKER, 'on', False):
        manager = _worker_context_manager()
        if manager is not None:
            return manager, _WORKER_CONTEXT
    return main_context_manager, _CONTEXT


def _reader():
    manager, context = _current()
    return manager.reader.using(context)


# SQLite has one writer at a time; threads of this process that wait for
# it in SQLite's busy handler sleep in growing steps (up to 100 ms) and
# wake up in no particular order. Writers of this process queue on this
# lock instead, and are handed the database as soon as it is free: in the
# embedded mode (API and conductor in one process) that is every writer.
_SQLITE_WRITE_LOCK = threading.Lock()
# {context manager: whether its engine is SQLite}
_IS_SQLITE = {}


def _on_sqlite(manager):
    found = _IS_SQLITE.get(manager)
    if found is None:
        found = _IS_SQLITE[manager] = (
            manager.writer.get_engine().dialect.name == 'sqlite')
    return found


@contextlib.contextmanager
def _writer():
    depth = getattr(_TXN, 'writing', 0)
    manager, context = _current()
    queue = depth == 0 and _on_sqlite(manager)
    if queue:
        _SQLITE_WRITE_LOCK.acquire()
    _TXN.writing = depth + 1
    try:
        with manager.writer.using(context) as session:
            yield session
    finally:
        _TXN.writing = depth
        if queue:
            _SQLITE_WRITE_LOCK.release()


# A short transaction of its own is tried again when the database
# deadlocks it or the connection drops (a restart, a failover): a few
# quick attempts over about five seconds, so a lock release or a heartbeat
# rides out a blip without holding a request for minutes (oslo.db's own
# db_max_retries is for long jobs).
_SHORT_RETRY = oslo_db_api.wrap_db_retry(
    max_retries=5, retry_interval=0.25, inc_retry_interval=True,
    max_retry_interval=2, retry_on_deadlock=True, retry_on_disconnect=True,
    jitter=True)


def _retried(method):
    retrying = _SHORT_RETRY(method)

    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        if getattr(_TXN, 'writing', 0):
            # Inside a caller's transaction: retrying the part would
            # replay it on a rolled back transaction; the caller retries.
            return method(*args, **kwargs)
        return retrying(*args, **kwargs)
    return wrapper


def get_engine():
    return main_context_manager.writer.get_engine()


def get_worker_engine():
    """The engine of the workers' pool (the main one where they share)."""
    manager = _worker_context_manager()
    return (manager or main_context_manager).writer.get_engine()


# Columns the API may sort node and port lists by.
NODE_SORT_KEYS = frozenset([
    'id', 'uuid', 'name', 'created_at', 'updated_at', 'provision_state',
    'power_state', 'driver', 'resource_class', 'conductor_group',
    'provision_updated_at', 'maintenance', 'instance_uuid', 'owner'])
PORT_SORT_KEYS = ports.PORT_SORT_KEYS

# Node columns that may never be changed through update_node.
_NODE_IMMUTABLE = frozenset(['id', 'uuid', 'created_at'])


def _paginate(query, model, limit, marker, sort_key, sort_dir,
              allowed_keys=None):
    """Order by ``sort_key`` then id, and keep the rows after ``marker``.

    Not oslo.db's paginate_query: with a nullable sort key it drops rows
    (a marker whose value is NULL only compares ids, so paging by name
    skipped every named node after a nameless one), and it let any column,
    JSON blobs included, be a sort key. Here NULL sorts as the smallest
    value on every backend (PostgreSQL puts it last by default).
    """
    sort_key = sort_key or 'id'
    sort_dir = sort_dir or 'asc'
    if sort_dir not in ('asc', 'desc'):
        raise exception.InvalidParameterValue(
            err='The sort_dir value "%s" is invalid: use "asc" or "desc".'
                % sort_dir, field='sort_dir')
    column = model.__table__.c.get(sort_key)
    if column is None or (allowed_keys is not None and
                          sort_key not in allowed_keys):
        raise exception.InvalidParameterValue(
            err='The sort_key value "%s" is an invalid field for sorting'
                % sort_key, field='sort_key')
    key = getattr(model, sort_key)
    pk = model.id
    asc = sort_dir == 'asc'
    order = []
    if sort_key != 'id':
        if column.nullable:
            order.append(key.is_(None).desc() if asc
                         else key.is_(None).asc())
        order.append(key.asc() if asc else key.desc())
    order.append(pk.asc() if asc else pk.desc())
    query = query.order_by(*order)
    if marker is not None:
        after = pk > marker.id if asc else pk < marker.id
        value = getattr(marker, sort_key)
        if sort_key == 'id':
            where = after
        elif value is None:
            where = (sa.or_(sa.and_(key.is_(None), after), key.is_not(None))
                     if asc else sa.and_(key.is_(None), after))
        else:
            if isinstance(column.type, sa.Boolean):
                # Booleans do not compare with < and > everywhere.
                key = sa.cast(key, sa.Integer)
                value = int(value)
            beyond = key > value if asc else key < value
            where = sa.or_(beyond, sa.and_(key == value, after))
            if not asc and column.nullable:
                where = sa.or_(where, getattr(model, sort_key).is_(None))
        query = query.where(where)
    if limit is not None:
        query = query.limit(limit)
    return query


def _apply_node_filters(query, filters):
    filters = filters or {}
    model = models.Node
    for key in ('provision_state', 'driver', 'resource_class',
                'conductor_group', 'owner', 'lessee', 'reservation',
                'conductor_affinity', 'power_state', 'fault',
                'chassis_id', 'shard', 'parent_node', 'instance_name'):
        if filters.get(key) is not None:
            value = filters[key]
            column = getattr(model, key)
            if isinstance(value, (list, tuple, set, frozenset)):
                query = query.where(column.in_(list(value)))
            else:
                query = query.where(column == value)
    if filters.get('maintenance') is not None:
        query = query.where(model.maintenance == bool(filters['maintenance']))
    if filters.get('retired') is not None:
        query = query.where(model.retired == bool(filters['retired']))
    if filters.get('sharded') is not None:
        if filters['sharded']:
            query = query.where(model.shard.is_not(None))
        else:
            query = query.where(model.shard.is_(None))
    if filters.get('has_parent') is not None:
        # The API's default list hides child nodes (Ironic 1.83).
        if filters['has_parent']:
            query = query.where(model.parent_node.is_not(None))
        else:
            query = query.where(model.parent_node.is_(None))
    if filters.get('associated') is not None:
        if filters['associated']:
            query = query.where(model.instance_uuid.is_not(None))
        else:
            query = query.where(model.instance_uuid.is_(None))
    if filters.get('instance_uuid') is not None:
        query = query.where(model.instance_uuid == filters['instance_uuid'])
    if filters.get('reserved') is not None:
        if filters['reserved']:
            query = query.where(model.reservation.is_not(None))
        else:
            query = query.where(model.reservation.is_(None))
    if filters.get('project') is not None:
        project = filters['project']
        query = query.where(sa.or_(model.owner == project,
                                   model.lessee == project))
    if filters.get('description_contains') is not None:
        query = query.where(model.description.contains(
            filters['description_contains'], autoescape=True))
    if filters.get('uuid_in') is not None:
        query = query.where(model.uuid.in_(list(filters['uuid_in'])))
    if filters.get('unowned'):
        query = query.where(model.conductor_affinity.is_(None))
    if filters.get('power_change_pending'):
        query = query.where(model.target_power_state.is_not(None))
    if filters.get('id_in') is not None:
        query = query.where(model.id.in_(list(filters['id_in'])))
    if filters.get('label_selector') is not None:
        query = query.where(hostos.label_selector_clause(
            filters['label_selector']))
    return query


class TraitView(object):
    """A trait of a NodeView (same attribute as models.NodeTrait)."""

    __slots__ = ('trait',)

    def __init__(self, trait):
        self.trait = trait


class NodeView(object):
    """A read-only snapshot of (some of) a node's columns.

    Attribute names are the models.Node column names, so code that reads a
    node does not care whether it got a NodeView or a models.Node.
    """

    def __init__(self, mapping):
        self.__dict__.update(mapping)

    def as_dict(self):
        return {k: v for k, v in self.__dict__.items() if k != 'traits'}


def _raise_chassis_gone(values):
    """A node written with the id of a chassis deleted meanwhile: the
    chassis is the only row a node refers to that the API looks up."""
    if values.get('chassis_id') is None:
        raise
    raise exception.InvalidParameterValue(
        err='The chassis of the node was deleted meanwhile.',
        field='chassis_uuid')


def _check_holder(node, holder):
    """NodeLockLost unless ``node`` (read FOR UPDATE) is locked by
    ``holder`` (no check when holder is None)."""
    if holder is not None and node.reservation != holder:
        raise exception.NodeLockLost(node=node.uuid, host=holder,
                                     holder=node.reservation or 'free')


def read_one_node(session, *where):
    """The node ``where`` selects, or None, with its traits in the same
    query (a LEFT OUTER JOIN) rather than a second SELECT: one node is
    read on every hot path (node locks, heartbeats, the API's look-ups),
    and the relationship's own loading (selectin) suits lists."""
    return session.scalars(
        sa.select(models.Node).options(orm.joinedload(models.Node.traits))
        .where(*where)).unique().first()


class Connection(accelerators.AcceleratorsMixin,
                 accelerator_views.AcceleratorViewsMixin,
                 allocations.AllocationsMixin,
                 bios.BIOSMixin,
                 boot_sessions.BootSessionsMixin,
                 chassis.ChassisMixin,
                 deploy_templates.DeployTemplatesMixin,
                 firmware.FirmwareMixin,
                 hostos.HostOSMixin,
                 inspection_rules.InspectionRulesMixin,
                 node_heartbeats.NodeHeartbeatsMixin,
                 node_history.NodeHistoryMixin,
                 node_inventory.NodeInventoryMixin,
                 node_locks.NodeLocksMixin,
                 portgroups.PortgroupsMixin,
                 ports.PortsMixin,
                 runbooks.RunbooksMixin,
                 volumes.VolumesMixin):
    """All database access of the service."""

    @contextlib.contextmanager
    def read_together(self):
        """One read transaction for every read this thread makes inside
        (they join it): a batch of look-ups pays for one connection
        check-out, BEGIN and ROLLBACK. No writes inside."""
        with _reader():
            yield

    # -- nodes ---------------------------------------------------------

    def create_node(self, values):
        values = dict(values)
        values.setdefault('uuid', uuidutils.generate_uuid())
        traits = values.pop('traits', None) or []
        for key in ('driver_info', 'driver_internal_info', 'instance_info',
                    'properties', 'extra', 'labels'):
            if values.get(key) is None:
                values[key] = {}
        values.setdefault('maintenance', False)
        values.setdefault('conductor_group', '')
        node = models.Node()
        node.update(values)
        traits = list(dict.fromkeys(traits))
        node.traits = [models.NodeTrait(trait=t) for t in traits]
        node.trait_count = len(traits)
        try:
            with _writer() as session:
                session.add(node)
                session.flush()
                # Every node is a boot-session component from the start.
                session.add(boot_sessions.new_component(node.id))
                hostos.index_labels(session, node.id, values['labels'])
                session.flush()
        except db_exc.DBDuplicateEntry as e:
            self._raise_node_duplicate(e, values)
        except db_exc.DBReferenceError:
            _raise_chassis_gone(values)
        return node

    @staticmethod
    def _raise_node_duplicate(error, values):
        columns = error.columns or []
        if 'name' in columns or 'uniq_nodes0name' in columns:
            raise exception.DuplicateName(name=values.get('name'))
        if 'instance_uuid' in columns or \
                'uniq_nodes0instance_uuid' in columns:
            raise exception.InstanceAssociated(
                instance_uuid=values.get('instance_uuid'),
                node=values.get('uuid'))
        raise exception.NodeAlreadyExists(uuid=values.get('uuid'))

    def _get_node(self, column, value, ident):
        with _reader() as session:
            node = read_one_node(session, column == value)
        if node is None:
            raise exception.NodeNotFound(node=ident)
        return node

    @_retried
    def get_node_by_id(self, node_id):
        return self._get_node(models.Node.id, node_id, node_id)

    def get_node_by_uuid(self, node_uuid):
        return self._get_node(models.Node.uuid, node_uuid, node_uuid)

    def get_node_by_name(self, name):
        return self._get_node(models.Node.name, name, name)

    def get_node(self, ident):
        """Look a node up by UUID or by name."""
        if uuidutils.is_uuid_like(ident):
            return self.get_node_by_uuid(ident)
        return self.get_node_by_name(ident)

    def get_node_route(self, column, value):
        """What routing a call about a node needs, without loading the
        node: a row of id, uuid, name, driver and conductor_group, by
        ``column`` ('uuid' or 'name') equal to ``value``. The API's
        heartbeat path: a whole node (sixty columns, its JSON fields
        decoded, its traits) was half of the API's time per heartbeat
        (issue 14, py-spy)."""
        n = models.Node
        with _reader() as session:
            row = session.execute(
                sa.select(n.id, n.uuid, n.name, n.driver, n.conductor_group)
                .where(getattr(n, column) == value)).first()
        if row is None:
            raise exception.NodeNotFound(node=value)
        return row

    def get_node_list(self, filters=None, limit=None, marker=None,
                      sort_key=None, sort_dir=None, columns=None):
        """List nodes as read-only NodeView snapshots.

        Lists are the API's hottest path, so they select plain columns
        (no ORM identity map, no per-row instrumentation) and fetch the
        traits of the whole page in one more query.

        :param marker: UUID of the last node of the previous page.
        :param columns: if given, only these columns are loaded (plus id);
            traits only when 'traits' is among them.
        """
        table_columns = models.Node.__table__.c
        if columns is None:
            names = [c.name for c in table_columns]
            with_traits = True
        else:
            names = [c for c in columns if c in table_columns]
            if 'id' not in names:
                names.append('id')
            with_traits = 'traits' in columns
        query = sa.select(*[getattr(models.Node, n) for n in names])
        query = _apply_node_filters(query, filters)
        marker_obj = None
        if marker is not None:
            try:
                marker_obj = self.get_node_by_uuid(marker)
            except exception.NodeNotFound:
                raise exception.InvalidParameterValue(
                    err='The marker %s does not name an existing node.'
                        % marker, field='marker')
        query = _paginate(query, models.Node, limit, marker_obj, sort_key,
                          sort_dir, allowed_keys=NODE_SORT_KEYS)
        with _reader() as session:
            rows = session.execute(query).all()
            traits = {}
            if with_traits and rows:
                ids = [row.id for row in rows]
                trait_rows = session.execute(
                    sa.select(models.NodeTrait.node_id,
                              models.NodeTrait.trait)
                    .where(models.NodeTrait.node_id.in_(ids))
                    .order_by(models.NodeTrait.trait))
                for node_id, trait in trait_rows:
                    traits.setdefault(node_id, []).append(TraitView(trait))
        nodes = []
        for row in rows:
            view = NodeView(row._mapping)
            if with_traits:
                view.traits = traits.get(row.id, [])
            nodes.append(view)
        return nodes

    def get_node_ownership_list(self, filters=None):
        """(id, uuid, driver, conductor_group, conductor_affinity,
        reservation) of every node matching ``filters``: what ring
        take-over and power sync need, without loading whole rows."""
        n = models.Node
        query = sa.select(n.id, n.uuid, n.driver, n.conductor_group,
                          n.conductor_affinity, n.reservation,
                          n.maintenance, n.provision_state)
        query = _apply_node_filters(query, filters)
        with _reader() as session:
            return [tuple(row) for row in session.execute(query)]

    @_retried
    def update_node(self, node_id, values, expected=None, holder=None):
        """Update a node and return it.

        :param expected: optional dict of column -> value the row must still
            have (a compare-and-swap); if it does not, InvalidState.
        :param holder: the host whose lock the write is made under: if the
            node's reservation is not (or no longer) ``holder``, nothing is
            written and NodeLockLost is raised.
        """
        values = dict(values)
        bad = _NODE_IMMUTABLE.intersection(values)
        if bad:
            raise exception.InvalidParameterValue(
                err='Cannot overwrite %s of an existing node.'
                    % ', '.join(sorted(bad)), field=sorted(bad)[0])
        traits = values.pop('traits', None)
        if 'provision_state' in values:
            values['provision_updated_at'] = timeutils.utcnow()
        try:
            with _writer() as session:
                query = sa.select(models.Node).where(
                    models.Node.id == node_id).with_for_update()
                node = session.scalars(query).first()
                if node is None:
                    raise exception.NodeNotFound(node=node_id)
                _check_holder(node, holder)
                for key, value in (expected or {}).items():
                    if getattr(node, key) != value:
                        raise exception.InvalidState(
                            'Node %s changed meanwhile: %s is %r, not %r.'
                            % (node.uuid, key, getattr(node, key), value))
                if values.get('instance_uuid') and node.instance_uuid and \
                        values['instance_uuid'] != node.instance_uuid:
                    raise exception.NodeAssociated(
                        node=node.uuid, instance=node.instance_uuid)
                node.update(values)
                if traits is not None:
                    self._replace_traits(node, traits)
                if 'labels' in values:
                    hostos.index_labels(session, node.id, values['labels'])
                session.flush()
                session.refresh(node)
        except db_exc.DBDuplicateEntry as e:
            values.setdefault('uuid', node_id)
            self._raise_node_duplicate(e, values)
        except db_exc.DBReferenceError:
            _raise_chassis_gone(values)
        return node

    def get_shard_list(self):
        """[{'name', 'count'}] of every shard (nodes without one under
        "None", as Ironic shows them), most nodes first: one grouped
        count over the shard index."""
        query = sa.select(models.Node.shard, sa.func.count(models.Node.id)
                          ).group_by(models.Node.shard)
        with _reader() as session:
            rows = list(session.execute(query))
        rows.sort(key=lambda row: (-row[1], str(row[0])))
        return [{'name': str(shard), 'count': count}
                for shard, count in rows]

    def destroy_node(self, node_id):
        """Delete a node with its ports, traits and allocation."""
        with _writer() as session:
            select_ids = sa.select(models.Allocation.id).where(
                models.Allocation.node_id == node_id)
            allocation_ids = [row[0] for row in session.execute(select_ids)]
            if allocation_ids:
                session.execute(sa.delete(models.AllocationTrait).where(
                    models.AllocationTrait.allocation_id.in_(
                        allocation_ids)))
                session.execute(sa.delete(models.Allocation).where(
                    models.Allocation.id.in_(allocation_ids)))
            session.execute(sa.delete(models.Port).where(
                models.Port.node_id == node_id))
            # After the ports: they point at the groups.
            session.execute(sa.delete(models.Portgroup).where(
                models.Portgroup.node_id == node_id))
            session.execute(sa.delete(models.NodeTrait).where(
                models.NodeTrait.node_id == node_id))
            session.execute(sa.delete(models.BootComponent).where(
                models.BootComponent.node_id == node_id))
            session.execute(sa.delete(models.BootArtifacts).where(
                models.BootArtifacts.node_id == node_id))
            hostos.destroy_node_rows(session, node_id)
            bios.destroy_node_rows(session, node_id)
            firmware.destroy_node_rows(session, node_id)
            node_history.destroy_node_rows(session, node_id)
            node_inventory.destroy_node_rows(session, node_id)
            accelerators.destroy_node_rows(session, node_id)
            volumes.destroy_node_rows(session, node_id)
            count = session.execute(sa.delete(models.Node).where(
                models.Node.id == node_id)).rowcount
        if not count:
            raise exception.NodeNotFound(node=node_id)

    # -- traits ----------------------------------------------------------

    @staticmethod
    def _replace_traits(node, traits):
        wanted = list(dict.fromkeys(traits))
        current = {t.trait: t for t in node.traits}
        node.traits = [current.get(t) or models.NodeTrait(trait=t)
                       for t in wanted]
        node.trait_count = len(wanted)

    def set_node_traits(self, node_id, traits):
        return self.update_node(node_id, {'traits': traits}).traits

    def add_node_trait(self, node_id, trait):
        with _writer() as session:
            node = session.get(models.Node, node_id)
            if node is None:
                raise exception.NodeNotFound(node=node_id)
            if trait not in [t.trait for t in node.traits]:
                node.traits.append(models.NodeTrait(trait=trait))
                node.trait_count = len(node.traits)
                node.updated_at = timeutils.utcnow()

    def delete_node_trait(self, node_id, trait):
        with _writer() as session:
            count = session.execute(
                sa.delete(models.NodeTrait).where(
                    models.NodeTrait.node_id == node_id,
                    models.NodeTrait.trait == trait)).rowcount
            if count:
                session.execute(
                    sa.update(models.Node)
                    .where(models.Node.id == node_id)
                    .values(trait_count=models.Node.trait_count - count)
                    .execution_options(synchronize_session=False))
        if not count:
            raise exception.NodeTraitNotFound(node_id=node_id, trait=trait)

    # -- conductors ------------------------------------------------------

    @_retried
    def register_conductor(self, hostname, conductor_group, hardware_types):
        """Insert or revive the row of this conductor, online."""
        now = timeutils.utcnow()
        with _writer() as session:
            conductor = session.scalars(
                sa.select(models.Conductor).where(
                    models.Conductor.hostname == hostname)).first()
            if conductor is None:
                conductor = models.Conductor(hostname=hostname)
                session.add(conductor)
            conductor.conductor_group = conductor_group or ''
            conductor.hardware_types = sorted(hardware_types)
            conductor.online = True
            conductor.updated_at = now
            session.flush()
        return conductor

    @_retried
    def touch_conductor(self, hostname):
        with _writer() as session:
            count = session.execute(
                sa.update(models.Conductor)
                .where(models.Conductor.hostname == hostname)
                .values(updated_at=timeutils.utcnow(), online=True)
                .execution_options(synchronize_session=False)).rowcount
        if not count:
            raise exception.ConductorNotFound(conductor=hostname)

    def unregister_conductor(self, hostname):
        with _writer() as session:
            session.execute(
                sa.update(models.Conductor)
                .where(models.Conductor.hostname == hostname)
                .values(online=False)
                .execution_options(synchronize_session=False))

    def get_conductor(self, hostname):
        with _reader() as session:
            conductor = session.scalars(
                sa.select(models.Conductor).where(
                    models.Conductor.hostname == hostname)).first()
        if conductor is None:
            raise exception.ConductorNotFound(conductor=hostname)
        return conductor

    def get_conductor_list(self, limit=None, marker=None, sort_key=None,
                           sort_dir=None):
        query = sa.select(models.Conductor)
        marker_obj = self.get_conductor(marker) if marker else None
        query = _paginate(query, models.Conductor, limit, marker_obj,
                          sort_key or 'hostname', sort_dir)
        with _reader() as session:
            return list(session.scalars(query))

    @_retried
    def get_alive_conductors(self, timeout):
        """Conductors online whose heartbeat is newer than ``timeout`` s."""
        limit = timeutils.utcnow() - datetime.timedelta(seconds=timeout)
        with _reader() as session:
            return list(session.scalars(
                sa.select(models.Conductor).where(
                    models.Conductor.online.is_(True),
                    models.Conductor.updated_at >= limit)))
