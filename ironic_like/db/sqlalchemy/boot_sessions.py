"""Database access for boot sessions, mixed into Connection.

Components are keyed by node id; the API names them by node name (or
UUID). Every component write recomputes the indexed ``status`` column
from phase, override and last action, so operators select their work
with one indexed query. Writes that two conductors may race on pass
``expected`` (compare-and-swap on the named columns); losing the race is
BootComponentChanged, a normal outcome.
"""

import collections
import datetime

from oslo_db import exception as db_exc
from oslo_utils import timeutils
import sqlalchemy as sa

from ironic_like.common.boot import component_status
from ironic_like.common import exception
from ironic_like.db.sqlalchemy import models

# What a component's node contributes to boot sessions.
NodeInfo = collections.namedtuple(
    'NodeInfo', ['id', 'uuid', 'name', 'driver', 'conductor_group',
                 'maintenance', 'properties', 'labels', 'reservation'])

_NODE_COLUMNS = (models.Node.id, models.Node.uuid, models.Node.name,
                 models.Node.driver, models.Node.conductor_group,
                 models.Node.maintenance, models.Node.properties,
                 models.Node.labels, models.Node.reservation)

# The JSON states of a new component (BOS's discovery record).
EMPTY_STATES = {'actual_state': {}, 'desired_state': {}, 'staged_state': {},
                'last_action': {}, 'event_stats': {}}

_OPTIONS_ROW = 1


def _sa_api():
    # Imported lazily: api.py imports this module to build Connection.
    from ironic_like.db.sqlalchemy import api
    return api


def _node_info(row):
    return NodeInfo(*row)


def new_component(node_id):
    component = models.BootComponent(node_id=node_id, phase='',
                                     status=component_status.STABLE,
                                     enabled=False)
    for key, value in EMPTY_STATES.items():
        setattr(component, key, dict(value))
    return component


def _get_by_name(model, name, not_found):
    with _sa_api()._reader() as session:
        row = session.scalars(
            sa.select(model).where(model.name == name)).first()
    if row is None:
        raise not_found(name=name)
    return row


def _recompute_status(component):
    component.status = component_status.computed_status(
        component.phase or '', component.status_override,
        component.last_action or {})


class BootSessionsMixin(object):

    # -- templates -------------------------------------------------------

    def put_boot_template(self, name, values):
        """Create or replace the template ``name``."""
        with _sa_api()._writer() as session:
            template = session.scalars(
                sa.select(models.BootTemplate)
                .where(models.BootTemplate.name == name)).first()
            if template is None:
                template = models.BootTemplate(name=name)
                session.add(template)
            for key in ('description', 'enable_cfs', 'cfs', 'boot_sets',
                        'tenant'):
                setattr(template, key, values.get(key))
            if template.enable_cfs is None:
                template.enable_cfs = True
            session.flush()
        return template

    def get_boot_template(self, name):
        return _get_by_name(models.BootTemplate, name,
                            exception.BootTemplateNotFound)

    def list_boot_templates(self):
        with _sa_api()._reader() as session:
            return list(session.scalars(
                sa.select(models.BootTemplate)
                .order_by(models.BootTemplate.name)))

    def update_boot_template(self, name, values):
        with _sa_api()._writer() as session:
            count = session.execute(
                sa.update(models.BootTemplate)
                .where(models.BootTemplate.name == name).values(**values)
                .execution_options(synchronize_session=False)).rowcount
        if not count:
            raise exception.BootTemplateNotFound(name=name)
        return self.get_boot_template(name)

    def delete_boot_template(self, name):
        with _sa_api()._writer() as session:
            count = session.execute(sa.delete(models.BootTemplate).where(
                models.BootTemplate.name == name)).rowcount
        if not count:
            raise exception.BootTemplateNotFound(name=name)

    # -- sessions --------------------------------------------------------

    def create_boot_session(self, values):
        boot_session = models.BootSession()
        boot_session.update(values)
        try:
            with _sa_api()._writer() as session:
                session.add(boot_session)
                session.flush()
        except db_exc.DBDuplicateEntry:
            raise exception.BootSessionExists(name=values.get('name'))
        return boot_session

    def get_boot_session(self, name):
        return _get_by_name(models.BootSession, name,
                            exception.BootSessionNotFound)

    @staticmethod
    def _session_filters(status=None, min_age=None, max_age=None):
        """``min_age``/``max_age`` in seconds, on the creation time."""
        s = models.BootSession
        where = []
        if status:
            where.append(s.status == status)
        now = timeutils.utcnow()
        if min_age is not None:
            where.append(s.created_at <= now - datetime.timedelta(
                seconds=min_age))
        if max_age is not None:
            where.append(s.created_at >= now - datetime.timedelta(
                seconds=max_age))
        return where

    def list_boot_sessions(self, status=None, min_age=None, max_age=None):
        where = self._session_filters(status, min_age, max_age)
        with _sa_api()._reader() as session:
            return list(session.scalars(
                sa.select(models.BootSession).where(*where)
                .order_by(models.BootSession.id)))

    def list_boot_session_names(self, status):
        s = models.BootSession
        with _sa_api()._reader() as session:
            return [row[0] for row in session.execute(
                sa.select(s.name).where(s.status == status).order_by(s.id))]

    def update_boot_session(self, name, values, expected_status=None):
        """Update a session; with ``expected_status`` (a status or a tuple
        of them), only while it still has that status (else
        BootSessionConflict)."""
        s = models.BootSession
        where = [s.name == name]
        if isinstance(expected_status, (tuple, list, set, frozenset)):
            where.append(s.status.in_(sorted(expected_status)))
            expected_status = ' or '.join(sorted(expected_status))
        elif expected_status is not None:
            where.append(s.status == expected_status)
        with _sa_api()._writer() as session:
            count = session.execute(
                sa.update(s).where(*where).values(**values)
                .execution_options(synchronize_session=False)).rowcount
        if not count:
            current = self.get_boot_session(name)
            raise exception.BootSessionConflict(
                reason='Session %s is %s, not %s.' % (
                    name, current.status, expected_status))
        return self.get_boot_session(name)

    def delete_boot_sessions(self, names):
        if not names:
            return 0
        with _sa_api()._writer() as session:
            return session.execute(sa.delete(models.BootSession).where(
                models.BootSession.name.in_(list(names)))).rowcount

    # -- components ------------------------------------------------------

    def node_ids_without_boot_component(self, limit=None):
        n, c = models.Node, models.BootComponent
        query = (sa.select(n.id).outerjoin(c, c.node_id == n.id)
                 .where(c.node_id.is_(None)).order_by(n.id))
        if limit:
            query = query.limit(limit)
        with _sa_api()._reader() as session:
            return [row[0] for row in session.execute(query)]

    def create_boot_components(self, node_ids):
        """Create the missing components of ``node_ids``; return how many
        were created (a concurrent creator is not an error)."""
        created = 0
        for node_id in node_ids:
            try:
                with _sa_api()._writer() as session:
                    session.add(new_component(node_id))
                    session.flush()
                created += 1
            except (db_exc.DBDuplicateEntry, db_exc.DBReferenceError):
                continue  # someone else made it, or the node went away
        return created

    def get_boot_component(self, node_id):
        """(component, NodeInfo) of a node."""
        rows = self.list_boot_components({'node_ids': [node_id]})
        if not rows:
            raise exception.BootComponentNotFound(id=node_id)
        return rows[0]

    @staticmethod
    def _component_query(filters):
        c = models.BootComponent
        query = (sa.select(c, *_NODE_COLUMNS)
                 .join(models.Node, models.Node.id == c.node_id))
        for key in ('session', 'staged_session', 'enabled', 'phase'):
            if filters.get(key) is not None:
                query = query.where(getattr(c, key) == filters[key])
        if filters.get('status'):
            query = query.where(c.status.in_(list(filters['status'])))
        if filters.get('node_ids') is not None:
            query = query.where(c.node_id.in_(list(filters['node_ids'])))
        if filters.get('either_session'):
            name = filters['either_session']
            query = query.where(sa.or_(c.session == name,
                                       c.staged_session == name))
        if filters.get('has_error'):
            query = query.where(c.error.is_not(None), c.error != '')
        if filters.get('actual_updated_before') is not None:
            query = query.where(c.actual_updated_at <
                                filters['actual_updated_before'])
        if filters.get('conductor_groups') is not None:
            query = query.where(models.Node.conductor_group.in_(
                list(filters['conductor_groups'])))
        return query

    def list_boot_components(self, filters=None, limit=None,
                             start_after=None):
        """[(component, NodeInfo)] ordered by node id; ``start_after`` is
        a node id (paging)."""
        c = models.BootComponent
        query = self._component_query(filters or {})
        if start_after is not None:
            query = query.where(c.node_id > start_after)
        query = query.order_by(c.node_id)
        if limit:
            query = query.limit(limit)
        with _sa_api()._reader() as session:
            return [(row[0], _node_info(row[1:]))
                    for row in session.execute(query)]

    def update_boot_component(self, node_id, values, expected=None,
                              check=None):
        """Write ``values`` into a component; ``expected`` maps column names
        to the values they must still have (else BootComponentChanged);
        ``check(component)``, called under the row lock, may raise to
        refuse the write. Returns the component as written."""
        with _sa_api()._writer() as session:
            component = session.scalars(
                sa.select(models.BootComponent)
                .where(models.BootComponent.node_id == node_id)
                .with_for_update()).first()
            if component is None:
                raise exception.BootComponentNotFound(id=node_id)
            for key, value in (expected or {}).items():
                if getattr(component, key) != value:
                    raise exception.BootComponentChanged(id=node_id)
            if check is not None:
                check(component)
            for key, value in values.items():
                setattr(component, key, value)
            _recompute_status(component)
            session.flush()
            session.expunge(component)
        return component

    def update_boot_components(self, node_ids, values):
        """The same ``values`` into many components, in one statement.
        Values that change the status must include it (computed by the
        caller: an UPDATE of many rows cannot recompute it per row)."""
        if not node_ids:
            return 0
        c = models.BootComponent
        with _sa_api()._writer() as session:
            return session.execute(
                sa.update(c).where(c.node_id.in_(list(node_ids)))
                .values(**values)
                .execution_options(synchronize_session=False)).rowcount

    def count_boot_components(self, session_name):
        """Counts of a session's components (by its session or its staged
        session) per (boot set, phase, status, enabled, staged)."""
        c = models.BootComponent
        staged = c.staged_session == session_name
        query = (sa.select(c.boot_set, c.phase, c.status, c.enabled,
                           staged, sa.func.count())
                 .where(sa.or_(c.session == session_name, staged))
                 .group_by(c.boot_set, c.phase, c.status, c.enabled,
                           staged))
        with _sa_api()._reader() as session:
            return [tuple(row) for row in session.execute(query)]

    def count_powering_on(self, session_name=None):
        """Enabled components waiting for their power-on to boot."""
        c = models.BootComponent
        query = sa.select(sa.func.count()).where(
            c.enabled.is_(True),
            c.status == component_status.POWER_ON_CALLED)
        if session_name is not None:
            query = query.where(c.session == session_name)
        with _sa_api()._reader() as session:
            return session.execute(query).scalar()

    def boot_driven_node_ids(self):
        """Ids of the nodes a boot session drives now (enabled
        components)."""
        c = models.BootComponent
        with _sa_api()._reader() as session:
            return {row[0] for row in session.execute(
                sa.select(c.node_id).where(c.enabled.is_(True)))}

    def has_session_work(self, session_name):
        """BOS's completion test: an enabled component of the session, or
        one staged for it."""
        c = models.BootComponent
        query = sa.select(c.node_id).where(sa.or_(
            sa.and_(c.session == session_name, c.enabled.is_(True)),
            c.staged_session == session_name)).limit(1)
        with _sa_api()._reader() as session:
            return session.execute(query).first() is not None

    # -- boot artifacts --------------------------------------------------

    def add_boot_artifacts(self, token, node_id, kernel, initrd,
                           kernel_parameters):
        with _sa_api()._writer() as session:
            session.add(models.BootArtifacts(
                token=token, node_id=node_id, kernel=kernel, initrd=initrd,
                kernel_parameters=kernel_parameters))

    def get_boot_artifacts(self, token):
        """The artifacts record of ``token``, or None."""
        with _sa_api()._reader() as session:
            return session.get(models.BootArtifacts, token)

    # -- options ---------------------------------------------------------

    def get_boot_options(self):
        """The stored options (only those ever set)."""
        with _sa_api()._reader() as session:
            row = session.get(models.BootOptions, _OPTIONS_ROW)
        return dict(row.options or {}) if row is not None else {}

    def set_boot_options(self, values):
        """Merge ``values`` into the stored options; return them all."""
        for _attempt in range(3):
            try:
                with _sa_api()._writer() as session:
                    row = session.get(models.BootOptions, _OPTIONS_ROW,
                                      with_for_update=True)
                    if row is None:
                        row = models.BootOptions(id=_OPTIONS_ROW,
                                                 options={})
                        session.add(row)
                    merged = dict(row.options or {})
                    merged.update(values)
                    row.options = merged
                    session.flush()
                return merged
            except db_exc.DBDuplicateEntry:
                continue  # two first writers: the loser merges again
        raise exception.Conflict('The boot options changed meanwhile.')
