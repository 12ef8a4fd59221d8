"""Database access for port groups, mixed into Connection.

The rules that two writers could race on are decided inside the writing
transaction: a group with ports is neither deleted nor moved to another
node (PortgroupNotEmpty), whatever a concurrent port change did after the
conductor looked.
"""

from oslo_db import exception as db_exc
from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.conf import CONF
from ironic_like.db.sqlalchemy import models

# Columns a port group list may be sorted by (not the JSON blobs, as
# Ironic).
PORTGROUP_SORT_KEYS = frozenset([
    'id', 'uuid', 'name', 'address', 'created_at', 'updated_at', 'node_id',
    'standalone_ports_supported', 'mode', 'physical_network', 'category'])

_DICT_COLUMNS = ('extra', 'internal_info', 'properties')


def _sa_api():
    # Imported lazily: api.py imports this module to build Connection.
    from ironic_like.db.sqlalchemy import api
    return api


def _raise_duplicate(error, values, uuid):
    columns = error.columns or []
    if 'name' in columns or 'uniq_portgroups0name' in columns:
        raise exception.PortgroupDuplicateName(name=values.get('name'))
    if 'address' in columns or 'uniq_portgroups0address' in columns:
        raise exception.PortgroupMACAlreadyExists(mac=values.get('address'))
    raise exception.PortgroupAlreadyExists(uuid=uuid)


def _has_ports(session, portgroup_id):
    return session.execute(
        sa.select(models.Port.id)
        .where(models.Port.portgroup_id == portgroup_id)
        .limit(1)).first() is not None


class PortgroupsMixin(object):

    def create_portgroup(self, values):
        values = dict(values)
        values.setdefault('uuid', uuidutils.generate_uuid())
        if values.get('standalone_ports_supported') is None:
            values['standalone_ports_supported'] = True
        # Every group has a mode, also one created below API 1.26.
        if not values.get('mode'):
            values['mode'] = CONF.default_portgroup_mode
        for key in _DICT_COLUMNS:
            if values.get(key) is None:
                values[key] = {}
        portgroup = models.Portgroup()
        portgroup.update(values)
        try:
            with _sa_api()._writer() as session:
                session.add(portgroup)
                session.flush()
                # As stored: MariaDB keeps whole seconds, and the answer
                # to a create must equal later reads.
                session.refresh(portgroup)
        except db_exc.DBDuplicateEntry as e:
            _raise_duplicate(e, values, values['uuid'])
        except db_exc.DBReferenceError:
            # A node deleted meanwhile (or never there): a 404, not a 500.
            raise exception.NodeNotFound(node=values.get('node_id'))
        return portgroup

    def _get_portgroup(self, column, value):
        with _sa_api()._reader() as session:
            portgroup = session.scalars(
                sa.select(models.Portgroup).where(column == value)).first()
        if portgroup is None:
            raise exception.PortgroupNotFound(portgroup=value)
        return portgroup

    def get_portgroup_by_id(self, portgroup_id):
        return self._get_portgroup(models.Portgroup.id, portgroup_id)

    def get_portgroup_by_uuid(self, portgroup_uuid):
        return self._get_portgroup(models.Portgroup.uuid, portgroup_uuid)

    def get_portgroup_by_name(self, name):
        return self._get_portgroup(models.Portgroup.name, name)

    def get_portgroup_by_address(self, address):
        return self._get_portgroup(models.Portgroup.address, address)

    def get_portgroup_list(self, filters=None, limit=None, marker=None,
                           sort_key=None, sort_dir=None):
        """Port groups, filtered by ``node_id``, ``address`` or ``id_in``.
        """
        filters = filters or {}
        pg = models.Portgroup
        query = sa.select(pg)
        if filters.get('node_id') is not None:
            query = query.where(pg.node_id == filters['node_id'])
        if filters.get('address') is not None:
            query = query.where(pg.address == filters['address'])
        if filters.get('id_in') is not None:
            query = query.where(pg.id.in_(list(filters['id_in'])))
        if filters.get('node_shards') is not None:
            query = query.where(pg.node_id.in_(
                sa.select(models.Node.id).where(
                    models.Node.shard.in_(list(filters['node_shards'])))))
        if filters.get('node_conductor_groups') is not None:
            query = query.where(pg.node_id.in_(
                sa.select(models.Node.id).where(
                    models.Node.conductor_group.in_(
                        list(filters['node_conductor_groups'])))))
        marker_obj = None
        if marker is not None:
            try:
                marker_obj = self.get_portgroup_by_uuid(marker)
            except exception.PortgroupNotFound:
                raise exception.InvalidParameterValue(
                    err='The marker %s does not name an existing port '
                        'group.' % marker, field='marker')
        query = _sa_api()._paginate(query, pg, limit, marker_obj, sort_key,
                                    sort_dir,
                                    allowed_keys=PORTGROUP_SORT_KEYS)
        with _sa_api()._reader() as session:
            return list(session.scalars(query))

    def get_portgroups_by_node_id(self, node_id):
        return self.get_portgroup_list(filters={'node_id': node_id})

    def get_portgroup_uuids(self, portgroup_ids):
        """{id: UUID} of the groups among ``portgroup_ids``: one query for
        a page of ports, however many groups it names."""
        ids = {i for i in portgroup_ids if i is not None}
        if not ids:
            return {}
        pg = models.Portgroup
        with _sa_api()._reader() as session:
            rows = session.execute(
                sa.select(pg.id, pg.uuid).where(pg.id.in_(sorted(ids))))
            return {row.id: row.uuid for row in rows}

    def get_ports_by_portgroup_id(self, portgroup_id):
        return self.get_port_list(filters={'portgroup_id': portgroup_id})

    def update_portgroup(self, portgroup_id, values):
        values = dict(values)
        values.pop('id', None)
        values.pop('uuid', None)
        for key in _DICT_COLUMNS:
            if key in values and values[key] is None:
                values[key] = {}
        try:
            with _sa_api()._writer() as session:
                portgroup = session.get(models.Portgroup, portgroup_id,
                                        with_for_update=True)
                if portgroup is None:
                    raise exception.PortgroupNotFound(portgroup=portgroup_id)
                if ('node_id' in values and
                        values['node_id'] != portgroup.node_id and
                        _has_ports(session, portgroup_id)):
                    # Its ports would be left on the old node.
                    raise exception.PortgroupNotEmpty(
                        portgroup=portgroup.uuid)
                portgroup.update(values)
                if 'physical_network' in values:
                    # Its ports follow it, in the same transaction (API
                    # 1.102, as Ironic's update_physical_network).
                    session.execute(
                        sa.update(models.Port)
                        .where(models.Port.portgroup_id == portgroup_id)
                        .values(physical_network=values['physical_network'])
                        .execution_options(synchronize_session=False))
                session.flush()
                session.refresh(portgroup)
        except db_exc.DBDuplicateEntry as e:
            _raise_duplicate(e, values, portgroup_id)
        except db_exc.DBReferenceError:
            # Moved to a node that does not exist.
            raise exception.NodeNotFound(node=values.get('node_id'))
        return portgroup

    def destroy_portgroup(self, portgroup_id):
        try:
            with _sa_api()._writer() as session:
                portgroup = session.get(models.Portgroup, portgroup_id,
                                        with_for_update=True)
                if portgroup is None:
                    raise exception.PortgroupNotFound(portgroup=portgroup_id)
                if _has_ports(session, portgroup_id):
                    raise exception.PortgroupNotEmpty(
                        portgroup=portgroup.uuid)
                session.delete(portgroup)
                session.flush()
        except db_exc.DBReferenceError:
            # A port joined it after the check (no row lock on SQLite's
            # side of the race): the foreign key refuses.
            raise exception.PortgroupNotEmpty(portgroup=portgroup_id)

    def raise_missing_portgroup(self, port_values):
        """PortgroupNotFound if the group a port write named is gone (the
        foreign key refused the write; else the node is the missing one).
        """
        portgroup_id = port_values.get('portgroup_id')
        if portgroup_id is not None:
            self.get_portgroup_by_id(portgroup_id)
