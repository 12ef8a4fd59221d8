"""A named set of steps and its step rows, stored as one unit: deploy
templates (deploy steps) and runbooks (clean and service steps).

Created together, and an update that carries ``steps`` replaces the whole
list in the same transaction (as Ironic does), so a reader never sees a
set with half its steps.
"""

from oslo_db import exception as db_exc
from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_like.common import exception


def _sa_api():
    # Imported lazily: api.py imports the mixins built on this module.
    from ironic_like.db.sqlalchemy import api
    return api


class StepSetStore(object):
    """Reads and writes of one kind of step set.

    :param model: the set's model (with uuid, name, extra and a ``steps``
        relationship with delete-orphan cascade).
    :param step_model: the model of its steps.
    :param step_fk: the step column naming the set.
    :param make_step: dict -> a new step row.
    :param not_found: ident -> the exception for a missing set.
    :param duplicate: (values, columns of the violated constraint) -> the
        exception for a duplicate name or UUID.
    :param sort_keys: the columns a list may be sorted by.
    :param children: other (model, foreign key column) whose rows go with
        a set when it is destroyed.
    """

    def __init__(self, model, step_model, step_fk, make_step, not_found,
                 duplicate, sort_keys, children=()):
        self.model = model
        self.step_model = step_model
        self.step_fk = step_fk
        self.make_step = make_step
        self.not_found = not_found
        self.duplicate = duplicate
        self.sort_keys = sort_keys
        # Other (model, foreign key column) rows deleted with a set.
        self.children = tuple(children)

    def create(self, values):
        values = dict(values)
        values.setdefault('uuid', uuidutils.generate_uuid())
        if values.get('extra') is None:
            values['extra'] = {}
        steps = values.pop('steps', None) or []
        row = self.model()
        row.update(values)
        row.steps = [self.make_step(step) for step in steps]
        try:
            with _sa_api()._writer() as session:
                session.add(row)
                session.flush()
        except db_exc.DBDuplicateEntry as e:
            raise self.duplicate(values, e.columns or [])
        return self.get(self.model.id, row.id)

    def get(self, column, value):
        with _sa_api()._reader() as session:
            row = session.scalars(
                sa.select(self.model).where(column == value)).first()
        if row is None:
            raise self.not_found(value)
        return row

    def list(self, limit=None, marker=None, sort_key=None, sort_dir=None,
             where=None, what='step set'):
        marker_obj = None
        if marker is not None:
            try:
                marker_obj = self.get(self.model.uuid, marker)
            except exception.NotFound:
                raise exception.InvalidParameterValue(
                    err='The marker %s does not name an existing %s.'
                        % (marker, what), field='marker')
        query = sa.select(self.model)
        if where is not None:
            query = query.where(where)
        sa_api = _sa_api()
        query = sa_api._paginate(query, self.model, limit, marker_obj,
                                 sort_key, sort_dir, self.sort_keys)
        with sa_api._reader() as session:
            return list(session.scalars(query))

    def update(self, row_id, values):
        """Change the set's columns; ``steps``, when given, replaces the
        whole list."""
        values = dict(values)
        for key in ('id', 'uuid', 'created_at'):
            values.pop(key, None)
        if 'extra' in values and values['extra'] is None:
            values['extra'] = {}
        steps = values.pop('steps', None)
        try:
            with _sa_api()._writer() as session:
                row = session.get(self.model, row_id, with_for_update=True)
                if row is None:
                    raise self.not_found(row_id)
                row.update(values)
                if steps is not None:
                    # delete-orphan drops the old rows.
                    row.steps = [self.make_step(step) for step in steps]
                session.flush()
        except db_exc.DBDuplicateEntry as e:
            raise self.duplicate(values, e.columns or [])
        return self.get(self.model.id, row_id)

    def destroy(self, row_id):
        with _sa_api()._writer() as session:
            rows = ((self.step_model, self.step_fk),) + self.children
            for model, fk in rows:
                session.execute(sa.delete(model).where(fk == row_id))
            count = session.execute(
                sa.delete(self.model).where(self.model.id == row_id)
                .execution_options(synchronize_session=False)).rowcount
            if count != 1:
                # Rolls the step deletion back with it.
                raise self.not_found(row_id)
