"""Database access for node history (Ironic API 1.78), mixed into
Connection: events recorded on a node (its errors, fault changes), listed
oldest first by id, pruned to [conductor]node_history_max_entries per
node and by age.
"""

import datetime

from oslo_utils import timeutils
from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.db.sqlalchemy import models

_H = models.NodeHistory
# The longest event text kept (a traceback-sized last_error is cut).
MAX_EVENT_LENGTH = 60000


def _sa_api():
    # Imported lazily: api.py imports this module to build Connection.
    from ironic_like.db.sqlalchemy import api
    return api


def destroy_node_rows(session, node_id):
    session.execute(sa.delete(_H).where(_H.node_id == node_id))


class NodeHistoryMixin(object):

    def record_node_history(self, values):
        values = dict(values)
        values.setdefault('uuid', uuidutils.generate_uuid())
        if values.get('event') and len(values['event']) > MAX_EVENT_LENGTH:
            values['event'] = values['event'][:MAX_EVENT_LENGTH]
        with _sa_api()._writer() as session:
            row = _H()
            row.update(values)
            session.add(row)
            session.flush()
        # Read back as stored (MariaDB keeps whole seconds).
        return self.get_node_history_by_uuid(values['node_id'],
                                             values['uuid'])

    def get_node_history_by_uuid(self, node_id, event_uuid):
        with _sa_api()._reader() as session:
            row = session.scalars(sa.select(_H).where(
                _H.node_id == node_id, _H.uuid == event_uuid)).first()
        if row is None:
            raise exception.NotFound(
                'Node history record %s could not be found.' % event_uuid)
        return row

    def get_node_history_list(self, node_id, limit=None, marker=None,
                              sort_dir='asc'):
        """A page of the node's events in the order they were recorded;
        ``marker`` is the UUID of the last event of the previous page."""
        query = sa.select(_H).where(_H.node_id == node_id)
        if marker is not None:
            try:
                last = self.get_node_history_by_uuid(node_id, marker)
            except exception.NotFound:
                raise exception.InvalidParameterValue(
                    err='The marker %s does not name an event of the '
                        'node.' % marker, field='marker')
            query = query.where(_H.id > last.id if sort_dir == 'asc'
                                else _H.id < last.id)
        query = query.order_by(_H.id.asc() if sort_dir == 'asc'
                               else _H.id.desc())
        if limit:
            query = query.limit(limit)
        with _sa_api()._reader() as session:
            return list(session.scalars(query))

    def prune_node_history(self, max_entries, min_age_seconds=0,
                           batch=1000):
        """Delete the oldest events of nodes holding more than
        ``max_entries``, only those older than ``min_age_seconds``, at
        most ``batch`` in one call; returns how many went."""
        cutoff = timeutils.utcnow() - datetime.timedelta(
            seconds=min_age_seconds)
        with _sa_api()._writer() as session:
            crowded = session.execute(
                sa.select(_H.node_id, sa.func.count(_H.id))
                .group_by(_H.node_id)
                .having(sa.func.count(_H.id) > max_entries)).all()
            doomed = []
            for node_id, count in crowded:
                excess = min(count - max_entries, batch - len(doomed))
                if excess <= 0:
                    break
                doomed.extend(session.scalars(
                    sa.select(_H.id).where(_H.node_id == node_id,
                                           _H.created_at < cutoff)
                    .order_by(_H.id.asc()).limit(excess)))
            if doomed:
                session.execute(sa.delete(_H).where(_H.id.in_(doomed)))
        return len(doomed)
