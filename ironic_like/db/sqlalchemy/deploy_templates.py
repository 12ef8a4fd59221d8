"""Database access for deploy templates, mixed into Connection.

A template and its steps are one unit: created together, and an update
that carries ``steps`` replaces the whole list in the same transaction
(as Ironic does), so a reader never sees a template with half its steps.
"""

from oslo_db import exception as db_exc
from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.db.sqlalchemy import models

# Columns a deploy template list may be sorted by (not extra, a JSON
# blob, as Ironic).
DEPLOY_TEMPLATE_SORT_KEYS = frozenset(['id', 'uuid', 'name', 'created_at',
                                       'updated_at'])


def _sa_api():
    # Imported lazily: api.py imports this module to build Connection.
    from ironic_like.db.sqlalchemy import api
    return api


def _step_rows(steps):
    return [models.DeployTemplateStep(
        interface=step['interface'], step=step['step'],
        args=dict(step.get('args') or {}),
        priority=int(step.get('priority') or 0)) for step in steps]


def _raise_duplicate(error, values):
    columns = error.columns or []
    if 'name' in columns or 'uniq_deploy_templates0name' in columns:
        raise exception.DeployTemplateDuplicateName(name=values.get('name'))
    raise exception.DeployTemplateAlreadyExists(uuid=values.get('uuid'))


class DeployTemplatesMixin(object):

    def create_deploy_template(self, values):
        """Create a template with its ``steps`` (a list of {interface,
        step, args, priority})."""
        values = dict(values)
        values.setdefault('uuid', uuidutils.generate_uuid())
        if values.get('extra') is None:
            values['extra'] = {}
        steps = values.pop('steps', None) or []
        template = models.DeployTemplate()
        template.update(values)
        template.steps = _step_rows(steps)
        try:
            with _sa_api()._writer() as session:
                session.add(template)
                session.flush()
        except db_exc.DBDuplicateEntry as e:
            _raise_duplicate(e, values)
        return self.get_deploy_template_by_id(template.id)

    def _get_deploy_template(self, column, value):
        with _sa_api()._reader() as session:
            template = session.scalars(
                sa.select(models.DeployTemplate)
                .where(column == value)).first()
        if template is None:
            raise exception.DeployTemplateNotFound(template=value)
        return template

    def get_deploy_template_by_id(self, template_id):
        return self._get_deploy_template(models.DeployTemplate.id,
                                         template_id)

    def get_deploy_template_by_uuid(self, template_uuid):
        return self._get_deploy_template(models.DeployTemplate.uuid,
                                         template_uuid)

    def get_deploy_template_by_name(self, name):
        return self._get_deploy_template(models.DeployTemplate.name, name)

    def get_deploy_template_list(self, limit=None, marker=None,
                                 sort_key=None, sort_dir=None):
        t = models.DeployTemplate
        marker_obj = None
        if marker is not None:
            try:
                marker_obj = self.get_deploy_template_by_uuid(marker)
            except exception.DeployTemplateNotFound:
                raise exception.InvalidParameterValue(
                    err='The marker %s does not name an existing deploy '
                        'template.' % marker, field='marker')
        sa_api = _sa_api()
        query = sa_api._paginate(sa.select(t), t, limit, marker_obj,
                                 sort_key, sort_dir,
                                 DEPLOY_TEMPLATE_SORT_KEYS)
        with sa_api._reader() as session:
            return list(session.scalars(query))

    def get_deploy_templates_by_names(self, names):
        """The templates whose name is among ``names`` (unknown names are
        simply not matched: a trait need not name a template)."""
        names = sorted(set(names or ()))
        if not names:
            return []
        t = models.DeployTemplate
        with _sa_api()._reader() as session:
            return list(session.scalars(
                sa.select(t).where(t.name.in_(names)).order_by(t.id)))

    def update_deploy_template(self, template_id, values):
        """Change name and extra; ``steps``, when given, replaces the
        whole list."""
        values = dict(values)
        for key in ('id', 'uuid', 'created_at'):
            values.pop(key, None)
        if 'extra' in values and values['extra'] is None:
            values['extra'] = {}
        steps = values.pop('steps', None)
        try:
            with _sa_api()._writer() as session:
                template = session.get(models.DeployTemplate, template_id,
                                       with_for_update=True)
                if template is None:
                    raise exception.DeployTemplateNotFound(
                        template=template_id)
                template.update(values)
                if steps is not None:
                    # delete-orphan drops the old rows.
                    template.steps = _step_rows(steps)
                session.flush()
        except db_exc.DBDuplicateEntry as e:
            _raise_duplicate(e, values)
        return self.get_deploy_template_by_id(template_id)

    def destroy_deploy_template(self, template_id):
        t = models.DeployTemplate
        with _sa_api()._writer() as session:
            session.execute(sa.delete(models.DeployTemplateStep).where(
                models.DeployTemplateStep.deploy_template_id ==
                template_id))
            count = session.execute(
                sa.delete(t).where(t.id == template_id)
                .execution_options(synchronize_session=False)).rowcount
            if count != 1:
                # Rolls the step deletion back with it.
                raise exception.DeployTemplateNotFound(template=template_id)
