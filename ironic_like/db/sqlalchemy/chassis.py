"""Database access for chassis, mixed into Connection.

A chassis with nodes cannot be deleted (ChassisNotEmpty). The check and
the delete are one writer transaction, and the nodes' foreign key refuses
the delete if a node joined the chassis after the check, so a concurrent
node update can never leave a node pointing at a deleted chassis.
"""

from oslo_db import exception as db_exc
from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.db.sqlalchemy import models

# Columns a chassis list may be sorted by (not extra, as Ironic).
CHASSIS_SORT_KEYS = frozenset(['id', 'uuid', 'description', 'created_at',
                               'updated_at'])


def _sa_api():
    # Imported lazily: api.py imports this module to build Connection.
    from ironic_like.db.sqlalchemy import api
    return api


def _has_nodes(session, chassis_id):
    return session.execute(
        sa.select(models.Node.id)
        .where(models.Node.chassis_id == chassis_id)
        .limit(1)).first() is not None


class ChassisMixin(object):

    def create_chassis(self, values):
        values = dict(values)
        if not values.get('uuid'):
            values['uuid'] = uuidutils.generate_uuid()
        if values.get('extra') is None:
            values['extra'] = {}
        chassis = models.Chassis()
        chassis.update(values)
        try:
            with _sa_api()._writer() as session:
                session.add(chassis)
                session.flush()
                # As stored: MariaDB keeps whole seconds, and the answer
                # to a create must equal later reads.
                session.refresh(chassis)
        except db_exc.DBDuplicateEntry:
            # uuid is the only unique column.
            raise exception.ChassisAlreadyExists(uuid=values['uuid'])
        return chassis

    def _get_chassis(self, column, value):
        with _sa_api()._reader() as session:
            chassis = session.scalars(
                sa.select(models.Chassis).where(column == value)).first()
        if chassis is None:
            raise exception.ChassisNotFound(chassis=value)
        return chassis

    def get_chassis_by_id(self, chassis_id):
        return self._get_chassis(models.Chassis.id, chassis_id)

    def get_chassis_by_uuid(self, chassis_uuid):
        return self._get_chassis(models.Chassis.uuid, chassis_uuid)

    def get_chassis_list(self, limit=None, marker=None, sort_key=None,
                         sort_dir=None):
        """A page of chassis; ``marker`` is the UUID of the last chassis
        of the previous page."""
        marker_obj = None
        if marker is not None:
            try:
                marker_obj = self.get_chassis_by_uuid(marker)
            except exception.ChassisNotFound:
                raise exception.InvalidParameterValue(
                    err='The marker %s does not name an existing chassis.'
                        % marker, field='marker')
        api = _sa_api()
        query = api._paginate(sa.select(models.Chassis), models.Chassis,
                              limit, marker_obj, sort_key, sort_dir,
                              allowed_keys=CHASSIS_SORT_KEYS)
        with api._reader() as session:
            return list(session.scalars(query))

    def get_chassis_uuids(self, chassis_ids):
        """{id: UUID} of the chassis among ``chassis_ids``: one query for
        a page of nodes, however many chassis it names."""
        ids = {i for i in chassis_ids if i is not None}
        if not ids:
            return {}
        ch = models.Chassis
        with _sa_api()._reader() as session:
            rows = session.execute(
                sa.select(ch.id, ch.uuid).where(ch.id.in_(sorted(ids))))
            return {row.id: row.uuid for row in rows}

    def update_chassis(self, chassis_id, values):
        values = dict(values)
        # Identity is fixed (uuid is read-only in the API too).
        values.pop('id', None)
        values.pop('uuid', None)
        if 'extra' in values and values['extra'] is None:
            values['extra'] = {}
        with _sa_api()._writer() as session:
            chassis = session.get(models.Chassis, chassis_id)
            if chassis is None:
                raise exception.ChassisNotFound(chassis=chassis_id)
            chassis.update(values)
            session.flush()
            session.refresh(chassis)
        return chassis

    def destroy_chassis(self, chassis_id):
        try:
            with _sa_api()._writer() as session:
                chassis = session.get(models.Chassis, chassis_id,
                                      with_for_update=True)
                if chassis is None:
                    raise exception.ChassisNotFound(chassis=chassis_id)
                if _has_nodes(session, chassis_id):
                    raise exception.ChassisNotEmpty(chassis=chassis.uuid)
                session.delete(chassis)
                session.flush()
        except db_exc.DBReferenceError:
            # A node joined it after the check (no row lock keeps a node
            # update out on every backend): the foreign key refuses.
            raise exception.ChassisNotEmpty(chassis=chassis_id)
