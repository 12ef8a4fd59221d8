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


def _raw_info():
    # The column's JSON text, without oslo.db's decoding.
    return sa.type_coerce(models.Node.driver_internal_info, sa.Text)


def _same_text(session, text):
    column = _raw_info()
    if text is None:
        return column.is_(None)
    if session.get_bind().dialect.name == 'mysql':
        # MySQL's default collations compare case-insensitively; the
        # swap must only happen on exactly the text read.
        column = column.collate('utf8mb4_bin')
    return column == text


class NodeHeartbeatsMixin(object):

    def get_node_heartbeat_row(self, column, value):
        """A HeartbeatRow of the node whose ``column`` ('uuid' or 'name')
        is ``value``: one query, no JSON decoded.

        :raises: NodeNotFound
        """
        n = models.Node
        with _sa_api()._reader() as session:
            row = session.execute(
                sa.select(n.id, n.uuid, n.name, n.driver, n.conductor_group,
                          n.provision_state, n.maintenance, n.reservation,
                          n.deploy_interface, _raw_info())
                .where(getattr(n, column) == value)).first()
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
        n = models.Node
        with _sa_api()._writer() as session:
            count = session.execute(
                sa.update(n)
                .where(n.id == seen.id,
                       n.reservation.is_(None),
                       n.provision_state == seen.provision_state,
                       n.maintenance == seen.maintenance,
                       _same_text(session, seen.info_text))
                .values(driver_internal_info=info)
                .execution_options(synchronize_session=False)).rowcount
        return count == 1
