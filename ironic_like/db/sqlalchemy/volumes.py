"""Database access for volume connectors and volume targets, mixed into
Connection.

The uniqueness rules (one connector per type and connector ID in the whole
deployment, one target per boot index of a node) are the tables' unique
constraints: two racing writers cannot both pass a check made before the
write, so the constraint decides and its error is turned into the
resource's 409.
"""

from oslo_db import exception as db_exc
from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.db.sqlalchemy import models

# Columns the lists may be sorted by: not the JSON blobs (Ironic refuses
# extra and properties too).
CONNECTOR_SORT_KEYS = frozenset([
    'id', 'uuid', 'node_id', 'type', 'connector_id', 'created_at',
    'updated_at'])
TARGET_SORT_KEYS = frozenset([
    'id', 'uuid', 'node_id', 'volume_type', 'boot_index', 'volume_id',
    'created_at', 'updated_at'])

_CONNECTOR_DICTS = ('extra',)
_TARGET_DICTS = ('extra', 'properties')


def _sa_api():
    # Imported lazily: api.py imports this module to build Connection.
    from ironic_like.db.sqlalchemy import api
    return api


def _empty_dicts(values, keys):
    # Stored as {} rather than null, so readers need not tell them apart.
    for key in keys:
        if key in values and values[key] is None:
            values[key] = {}


def _duplicate_columns(error):
    """The column names of a unique violation, whichever backend: SQLite
    names the columns, MySQL and PostgreSQL the constraint (whose name
    lists them after 'uniq_<table>0')."""
    names = set()
    for column in error.columns or []:
        names.update(column.split('0')[1:] if column.startswith('uniq_')
                     else [column])
    return names


def _raise_connector_duplicate(error, values, uuid):
    if 'uuid' in _duplicate_columns(error):
        raise exception.VolumeConnectorAlreadyExists(uuid=uuid)
    raise exception.VolumeConnectorTypeAndIdAlreadyExists(
        type=values.get('type'), connector_id=values.get('connector_id'))


def _raise_target_duplicate(error, values, uuid):
    if 'uuid' in _duplicate_columns(error):
        raise exception.VolumeTargetAlreadyExists(uuid=uuid)
    raise exception.VolumeTargetBootIndexAlreadyExists(
        boot_index=values.get('boot_index'))


def destroy_node_rows(session, node_id):
    """Delete a node's connectors and targets (in destroy_node's
    transaction: the foreign keys would refuse the node's deletion)."""
    session.execute(sa.delete(models.VolumeConnector).where(
        models.VolumeConnector.node_id == node_id))
    session.execute(sa.delete(models.VolumeTarget).where(
        models.VolumeTarget.node_id == node_id))


class VolumesMixin(object):

    # -- shared ----------------------------------------------------------

    def _volume_create(self, model, values, dict_keys, raise_duplicate):
        values = dict(values)
        values.setdefault('uuid', uuidutils.generate_uuid())
        for key in dict_keys:
            if values.get(key) is None:
                values[key] = {}
        row = model()
        row.update(values)
        try:
            with _sa_api()._writer() as session:
                session.add(row)
                session.flush()
                # As stored: MariaDB keeps whole seconds, and the answer
                # to a create must equal later reads.
                session.refresh(row)
        except db_exc.DBDuplicateEntry as e:
            raise_duplicate(e, values, values['uuid'])
        except db_exc.DBReferenceError:
            # A node deleted meanwhile (or never there): a 404, not a 500.
            raise exception.NodeNotFound(node=values.get('node_id'))
        return row

    def _volume_get(self, model, column, value, not_found):
        with _sa_api()._reader() as session:
            row = session.scalars(
                sa.select(model).where(column == value)).first()
        if row is None:
            raise not_found(value)
        return row

    def _volume_list(self, model, get_by_uuid, not_found, what, sort_keys,
                     filters, limit, marker, sort_key, sort_dir, project):
        filters = filters or {}
        query = sa.select(model)
        if filters.get('node_id') is not None:
            query = query.where(model.node_id == filters['node_id'])
        if project is not None:
            # A project sees the volumes of the nodes it owns or leases.
            n = models.Node
            query = query.join(n, n.id == model.node_id).where(
                sa.or_(n.owner == project, n.lessee == project))
        marker_row = None
        if marker is not None:
            try:
                marker_row = get_by_uuid(marker)
            except not_found:
                raise exception.InvalidParameterValue(
                    err='The marker %s does not name an existing volume '
                        '%s.' % (marker, what), field='marker')
        query = _sa_api()._paginate(query, model, limit, marker_row,
                                    sort_key, sort_dir,
                                    allowed_keys=sort_keys)
        with _sa_api()._reader() as session:
            return list(session.scalars(query))

    def _volume_update(self, model, row_id, values, dict_keys, not_found,
                       raise_duplicate):
        values = dict(values)
        values.pop('id', None)
        values.pop('uuid', None)
        _empty_dicts(values, dict_keys)
        # The unique key as it would be, for the 409's message.
        merged = dict(values)
        try:
            with _sa_api()._writer() as session:
                row = session.get(model, row_id)
                if row is None:
                    raise not_found(row_id)
                for key in ('type', 'connector_id', 'boot_index'):
                    merged.setdefault(key, getattr(row, key, None))
                row.update(values)
                session.flush()
                session.refresh(row)
        except db_exc.DBDuplicateEntry as e:
            raise_duplicate(e, merged, row_id)
        except db_exc.DBReferenceError:
            # Moved to a node that does not exist.
            raise exception.NodeNotFound(node=values.get('node_id'))
        return row

    def _volume_destroy(self, model, row_id, not_found):
        with _sa_api()._writer() as session:
            count = session.execute(sa.delete(model).where(
                model.id == row_id)).rowcount
        if not count:
            raise not_found(row_id)

    # -- volume connectors -----------------------------------------------

    def create_volume_connector(self, values):
        return self._volume_create(models.VolumeConnector, values,
                                   _CONNECTOR_DICTS,
                                   _raise_connector_duplicate)

    def get_volume_connector_by_id(self, connector_id):
        return self._volume_get(models.VolumeConnector,
                                models.VolumeConnector.id, connector_id,
                                _connector_not_found)

    def get_volume_connector_by_uuid(self, connector_uuid):
        return self._volume_get(models.VolumeConnector,
                                models.VolumeConnector.uuid, connector_uuid,
                                _connector_not_found)

    def get_volume_connector_list(self, filters=None, limit=None,
                                  marker=None, sort_key=None, sort_dir=None,
                                  project=None):
        """Connectors, filtered by ``node_id``; with ``project``, only
        those of the nodes the project owns or leases."""
        return self._volume_list(
            models.VolumeConnector, self.get_volume_connector_by_uuid,
            exception.VolumeConnectorNotFound, 'connector',
            CONNECTOR_SORT_KEYS, filters, limit, marker, sort_key,
            sort_dir, project)

    def get_volume_connectors_by_node_id(self, node_id):
        return self.get_volume_connector_list(filters={'node_id': node_id})

    def update_volume_connector(self, connector_id, values):
        return self._volume_update(models.VolumeConnector, connector_id,
                                   values, _CONNECTOR_DICTS,
                                   _connector_not_found,
                                   _raise_connector_duplicate)

    def destroy_volume_connector(self, connector_id):
        self._volume_destroy(models.VolumeConnector, connector_id,
                             _connector_not_found)

    # -- volume targets --------------------------------------------------

    def create_volume_target(self, values):
        return self._volume_create(models.VolumeTarget, values,
                                   _TARGET_DICTS, _raise_target_duplicate)

    def get_volume_target_by_id(self, target_id):
        return self._volume_get(models.VolumeTarget, models.VolumeTarget.id,
                                target_id, _target_not_found)

    def get_volume_target_by_uuid(self, target_uuid):
        return self._volume_get(models.VolumeTarget,
                                models.VolumeTarget.uuid, target_uuid,
                                _target_not_found)

    def get_volume_target_list(self, filters=None, limit=None, marker=None,
                               sort_key=None, sort_dir=None, project=None):
        """Targets, filtered by ``node_id``; with ``project``, only those
        of the nodes the project owns or leases."""
        return self._volume_list(
            models.VolumeTarget, self.get_volume_target_by_uuid,
            exception.VolumeTargetNotFound, 'target', TARGET_SORT_KEYS,
            filters, limit, marker, sort_key, sort_dir, project)

    def get_volume_targets_by_node_id(self, node_id):
        return self.get_volume_target_list(filters={'node_id': node_id})

    def update_volume_target(self, target_id, values):
        return self._volume_update(models.VolumeTarget, target_id, values,
                                   _TARGET_DICTS, _target_not_found,
                                   _raise_target_duplicate)

    def destroy_volume_target(self, target_id):
        self._volume_destroy(models.VolumeTarget, target_id,
                             _target_not_found)


def _connector_not_found(ident):
    return exception.VolumeConnectorNotFound(connector=ident)


def _target_not_found(ident):
    return exception.VolumeTargetNotFound(target=ident)
