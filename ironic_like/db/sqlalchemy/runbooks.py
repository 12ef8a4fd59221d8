"""Database access for runbooks (Ironic API 1.92), mixed into
Connection. A runbook and its steps are one unit (see step_sets)."""

import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.db.sqlalchemy import models
from ironic_like.db.sqlalchemy import step_sets

# Columns a runbook list may be sorted by (not extra or steps, as Ironic).
RUNBOOK_SORT_KEYS = frozenset(['id', 'uuid', 'name', 'owner', 'public',
                               'disable_ramdisk', 'created_at',
                               'updated_at'])


def _step_row(step):
    return models.RunbookStep(
        interface=step['interface'], step=step['step'],
        args=dict(step.get('args') or {}), order=int(step['order']))


def _duplicate(values, columns):
    if 'name' in columns or 'uniq_runbooks0name' in columns:
        return exception.RunbookDuplicateName(name=values.get('name'))
    return exception.RunbookAlreadyExists(uuid=values.get('uuid'))


_STORE = step_sets.StepSetStore(
    models.Runbook, models.RunbookStep, models.RunbookStep.runbook_id,
    _step_row, lambda ident: exception.RunbookNotFound(runbook=ident),
    _duplicate, RUNBOOK_SORT_KEYS,
    children=[(models.RunbookTrait, models.RunbookTrait.runbook_id)])


def _trait_rows(traits):
    return [models.RunbookTrait(trait=t) for t in sorted(set(traits))]


class RunbooksMixin(object):

    def create_runbook(self, values):
        """Create a runbook with its ``steps`` (a list of {interface,
        step, args, order}) and ``traits`` (API 1.112; a list of names)."""
        values = dict(values)
        values['disable_ramdisk'] = bool(values.get('disable_ramdisk'))
        values['public'] = bool(values.get('public'))
        traits = values.pop('traits', None) or []
        runbook = _STORE.create(values)
        if traits:
            runbook = self.set_runbook_traits(runbook.id, traits)
        return runbook

    def set_runbook_traits(self, runbook_id, traits):
        """Replace the runbook's traits (API 1.112)."""
        t = models.RunbookTrait
        with step_sets._sa_api()._writer() as session:
            runbook = session.get(models.Runbook, runbook_id,
                                  with_for_update=True)
            if runbook is None:
                raise exception.RunbookNotFound(runbook=runbook_id)
            # Old rows out before the new ones go in (a trait kept would
            # be inserted again first otherwise, against the unique key).
            session.execute(sa.delete(t).where(t.runbook_id == runbook_id)
                            .execution_options(synchronize_session=False))
            for row in _trait_rows(traits):
                row.runbook_id = runbook_id
                session.add(row)
            session.flush()
        return self.get_runbook_by_id(runbook_id)

    def add_runbook_trait(self, runbook_id, trait):
        runbook = self.get_runbook_by_id(runbook_id)
        traits = {t.trait for t in runbook.traits}
        if trait in traits:
            return runbook
        return self.set_runbook_traits(runbook_id, traits | {trait})

    def remove_runbook_trait(self, runbook_id, trait):
        """Remove one trait (nothing if the runbook lacks it)."""
        t = models.RunbookTrait
        with step_sets._sa_api()._writer() as session:
            session.execute(sa.delete(t).where(
                t.runbook_id == runbook_id, t.trait == trait))
        return self.get_runbook_by_id(runbook_id)

    def get_runbook_by_id(self, runbook_id):
        return _STORE.get(models.Runbook.id, runbook_id)

    def get_runbook_by_uuid(self, runbook_uuid):
        return _STORE.get(models.Runbook.uuid, runbook_uuid)

    def get_runbook_by_name(self, name):
        return _STORE.get(models.Runbook.name, name)

    def get_runbook_list(self, limit=None, marker=None, sort_key=None,
                         sort_dir=None, project=None):
        """Runbooks; with ``project``, only those it owns and the public
        ones (what a project may use), as Ironic filters."""
        where = None
        if project is not None:
            r = models.Runbook
            where = sa.or_(r.owner == project, r.public.is_(True))
        return _STORE.list(limit, marker, sort_key, sort_dir, where=where,
                           what='runbook')

    def update_runbook(self, runbook_id, values):
        """Change the runbook's columns; ``steps``, when given, replaces
        the whole list."""
        return _STORE.update(runbook_id, values)

    def destroy_runbook(self, runbook_id):
        _STORE.destroy(runbook_id)
