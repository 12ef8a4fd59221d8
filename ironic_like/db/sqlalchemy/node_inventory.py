"""Database access for node inventories (Ironic API 1.81), mixed into
Connection: the last inventory an agent gave at inspection and what
inspection made of it, one row per node, replaced by each inspection and
deleted with the node.
"""

import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.db.sqlalchemy import models

_I = models.NodeInventory


def _sa_api():
    # Imported lazily: api.py imports this module to build Connection.
    from ironic_like.db.sqlalchemy import api
    return api


def destroy_node_rows(session, node_id):
    session.execute(sa.delete(_I).where(_I.node_id == node_id))


class NodeInventoryMixin(object):

    def save_node_inventory(self, node_id, inventory, plugin_data=None):
        """Replace the node's inventory, in one transaction."""
        with _sa_api()._writer() as session:
            destroy_node_rows(session, node_id)
            row = _I()
            row.update({'node_id': node_id, 'inventory_data': inventory,
                        'plugin_data': plugin_data or {}})
            session.add(row)

    def destroy_node_inventory(self, node_id):
        """Forget the node's inventory (none kept: [inventory]
        data_backend = none, once inspection has read it)."""
        with _sa_api()._writer() as session:
            destroy_node_rows(session, node_id)

    def get_node_inventory(self, node_id, node_ident=None):
        """The node's inventory row; NodeInventoryNotFound (404, naming
        ``node_ident`` or the id) when it has none."""
        with _sa_api()._reader() as session:
            row = session.scalars(sa.select(_I).where(
                _I.node_id == node_id)).first()
        if row is None:
            raise exception.NodeInventoryNotFound(node=node_ident or node_id)
        return row
