"""Ports in the database (a mixin of api.Connection)."""

from oslo_db import exception as db_exc
from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.db.sqlalchemy import models

# Columns the API may sort port lists by.
PORT_SORT_KEYS = frozenset(['id', 'uuid', 'address', 'created_at',
                            'updated_at', 'node_id', 'pxe_enabled', 'name',
                            'description', 'vendor', 'category'])


def _sa_api():
    # Imported lazily: api.py imports this module to build Connection.
    from ironic_like.db.sqlalchemy import api
    return api


def _raise_duplicate(error, values):
    """The 409 of a port whose MAC address or name another port has
    (SQLite names the columns, MariaDB and PostgreSQL the constraint)."""
    columns = error.columns or []
    if 'address' in columns or 'uniq_ports0address' in columns:
        raise exception.MACAlreadyExists(mac=values.get('address'))
    if 'name' in columns or 'uniq_ports0name' in columns:
        raise exception.PortDuplicateName(name=values.get('name'))


class PortsMixin(object):

    def create_port(self, values):
        values = dict(values)
        values.setdefault('uuid', uuidutils.generate_uuid())
        values.setdefault('pxe_enabled', True)
        for key in ('extra', 'local_link_connection', 'internal_info'):
            if values.get(key) is None:
                values[key] = {}
        port = models.Port()
        port.update(values)
        try:
            with _sa_api()._writer() as session:
                session.add(port)
                session.flush()
                # As stored: MariaDB keeps whole seconds, and the answer
                # to a create must equal later reads.
                session.refresh(port)
        except db_exc.DBDuplicateEntry as e:
            _raise_duplicate(e, values)
            raise exception.PortAlreadyExists(uuid=values['uuid'])
        except db_exc.DBReferenceError:
            self.raise_missing_portgroup(values)
            # A node deleted meanwhile (or never there): a 404, not a 500.
            raise exception.NodeNotFound(node=values.get('node_id'))
        return port

    def _get_port(self, column, value):
        with _sa_api()._reader() as session:
            port = session.scalars(
                sa.select(models.Port).where(column == value)).first()
        if port is None:
            raise exception.PortNotFound(port=value)
        return port

    def get_port_by_id(self, port_id):
        return self._get_port(models.Port.id, port_id)

    def get_port_by_uuid(self, port_uuid):
        return self._get_port(models.Port.uuid, port_uuid)

    def get_port_by_address(self, address):
        return self._get_port(models.Port.address, address)

    def get_port_by_name(self, name):
        return self._get_port(models.Port.name, name)

    def get_port_list(self, filters=None, limit=None, marker=None,
                      sort_key=None, sort_dir=None):
        filters = filters or {}
        query = sa.select(models.Port)
        if filters.get('node_id') is not None:
            query = query.where(models.Port.node_id == filters['node_id'])
        if filters.get('address') is not None:
            query = query.where(models.Port.address == filters['address'])
        if filters.get('addresses') is not None:
            query = query.where(
                models.Port.address.in_(list(filters['addresses'])))
        if filters.get('portgroup_id') is not None:
            query = query.where(
                models.Port.portgroup_id == filters['portgroup_id'])
        if filters.get('node_shards') is not None:
            query = query.where(models.Port.node_id.in_(
                sa.select(models.Node.id).where(
                    models.Node.shard.in_(list(filters['node_shards'])))))
        if filters.get('node_conductor_groups') is not None:
            query = query.where(models.Port.node_id.in_(
                sa.select(models.Node.id).where(
                    models.Node.conductor_group.in_(
                        list(filters['node_conductor_groups'])))))
        if filters.get('description_contains') is not None:
            query = query.where(models.Port.description.contains(
                filters['description_contains'], autoescape=True))
        marker_obj = None
        if marker is not None:
            try:
                marker_obj = self.get_port_by_uuid(marker)
            except exception.PortNotFound:
                raise exception.InvalidParameterValue(
                    err='The marker %s does not name an existing port.'
                        % marker, field='marker')
        query = _sa_api()._paginate(query, models.Port, limit, marker_obj,
                                    sort_key, sort_dir,
                                    allowed_keys=PORT_SORT_KEYS)
        with _sa_api()._reader() as session:
            return list(session.scalars(query))

    def get_ports_by_node_id(self, node_id):
        return self.get_port_list(filters={'node_id': node_id})

    def update_port(self, port_id, values):
        values = dict(values)
        values.pop('id', None)
        values.pop('uuid', None)
        try:
            with _sa_api()._writer() as session:
                port = session.get(models.Port, port_id)
                if port is None:
                    raise exception.PortNotFound(port=port_id)
                port.update(values)
                session.flush()
                session.refresh(port)
        except db_exc.DBDuplicateEntry as e:
            _raise_duplicate(e, values)
            raise exception.MACAlreadyExists(mac=values.get('address'))
        except db_exc.DBReferenceError:
            self.raise_missing_portgroup(values)
            # Moved to a node that does not exist.
            raise exception.NodeNotFound(node=values.get('node_id'))
        return port

    def destroy_port(self, port_id):
        with _sa_api()._writer() as session:
            count = session.execute(sa.delete(models.Port).where(
                models.Port.id == port_id)).rowcount
        if not count:
            raise exception.PortNotFound(port=port_id)
