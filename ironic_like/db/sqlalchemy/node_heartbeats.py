"""Agent heartbeats the API records alone, mixed into Connection.

A heartbeat with nothing for a conductor to do (the node is unlocked and
in maintenance or in no wait state) only stores what the agent said in
driver_internal_info. The API does it with one read, which it needs to
route the heartbeat anyway, and one conditional UPDATE: a compare-and-swap
on the raw JSON text it read, the provision state, maintenance and an
empty reservation. Any write in between (a conductor took the lock, moved
the node, changed its driver_internal_info) makes the UPDATE match no row,
and the heartbeat then goes to the conductor as any other.
"""

import collections

import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.db.sqlalchemy import models
from ironic_like.db.sqlalchemy import retry


def _sa_api():
    # Imported lazily: api.py imports this module to build Connection.
    from ironic_like.db.sqlalchemy import api
    return api


# What the API reads of a node for a heartbeat: the routing fields
# (get_node_route's), what decides whether a conductor has work to do,
# and driver_internal_info as stored (the compare-and-swap's value).
HeartbeatRow = collections.namedtuple('HeartbeatRow', [
    'id', 'uuid', 'name', 'driver', 'conductor_group', 'provision_state',
    'maintenance', 'reservation', 'deploy_interface', 'info_text'])


def _raw_info(table):
    # The column's JSON text, without oslo.db's decoding.
    return sa.type_coerce(table.c.driver_internal_info, sa.Text)


# The statements are built once, with bound parameters: building them
# per heartbeat was a tenth of the API's time on this path (py-spy).
_READS = {}
_SWAPS = {}


def _read(column):
    if column not in _READS:
        t = models.Node.__table__
        _READS[column] = (
            sa.select(t.c.id, t.c.uuid, t.c.name, t.c.driver,
                      t.c.conductor_group, t.c.provision_state,
                      t.c.maintenance, t.c.reservation,
                      t.c.deploy_interface, _raw_info(t))
            .where(t.c[column] == sa.bindparam('value')))
    return _READS[column]


def _swap(dialect, null_text):
    """The UPDATE of record_unlocked_heartbeat for ``dialect``, over a
    NULL driver_internal_info or over a text."""
    key = (dialect, null_text)
    if key not in _SWAPS:
        t = models.Node.__table__
        text = _raw_info(t)
        if null_text:
            same_text = text.is_(None)
        else:
            if dialect in ('mysql', 'mariadb'):
                # MySQL's and MariaDB's default collations compare case-
                # and accent-insensitively; the swap must only happen on
                # exactly the text read. (SQLAlchemy names the dialect of
                # a mariadb+pymysql:// URL 'mariadb'.)
                text = text.collate('utf8mb4_bin')
            same_text = text == sa.bindparam('text', type_=sa.Text)
        _SWAPS[key] = (
            sa.update(t)
            .where(t.c.id == sa.bindparam('node_id'),
                   t.c.reservation.is_(None),
                   t.c.provision_state == sa.bindparam('state'),
                   t.c.maintenance == sa.bindparam('seen_maintenance'),
                   same_text)
            .values(driver_internal_info=sa.bindparam('info')))
    return _SWAPS[key]


class NodeHeartbeatsMixin(object):

    def get_node_heartbeat_row(self, column, value):
        """A HeartbeatRow of the node whose ``column`` ('uuid' or 'name')
        is ``value``: one query, no JSON decoded.

        :raises: NodeNotFound
        """
        with _sa_api()._reader() as session:
            row = session.execute(_read(column), {'value': value}).first()
        if row is None:
            raise exception.NodeNotFound(node=value)
        return HeartbeatRow(*row)

    @retry.lazily_retried
    def record_unlocked_heartbeat(self, seen, info):
        """Write ``info`` (a dict) as the driver_internal_info of node
        ``seen`` (a HeartbeatRow) if, in one conditional UPDATE, the node
        is unlocked and its provision state, maintenance and
        driver_internal_info are still what ``seen`` read. Returns whether
        it was written; False changes nothing."""
        with _sa_api()._writer() as session:
            statement = _swap(session.get_bind().dialect.name,
                              seen.info_text is None)
            count = session.execute(statement, {
                'node_id': seen.id, 'state': seen.provision_state,
                'seen_maintenance': seen.maintenance, 'text': seen.info_text,
                'info': info}).rowcount
        return count == 1
