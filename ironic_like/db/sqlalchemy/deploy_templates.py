"""Database access for deploy templates, mixed into Connection.

A template and its steps are one unit (see step_sets).
"""

import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.db.sqlalchemy import models
from ironic_like.db.sqlalchemy import step_sets

# Columns a deploy template list may be sorted by (not extra, a JSON
# blob, as Ironic).
DEPLOY_TEMPLATE_SORT_KEYS = frozenset(['id', 'uuid', 'name', 'created_at',
                                       'updated_at'])


def _step_row(step):
    return models.DeployTemplateStep(
        interface=step['interface'], step=step['step'],
        args=dict(step.get('args') or {}),
        priority=int(step.get('priority') or 0))


def _duplicate(values, columns):
    if 'name' in columns or 'uniq_deploy_templates0name' in columns:
        return exception.DeployTemplateDuplicateName(name=values.get('name'))
    return exception.DeployTemplateAlreadyExists(uuid=values.get('uuid'))


_STORE = step_sets.StepSetStore(
    models.DeployTemplate, models.DeployTemplateStep,
    models.DeployTemplateStep.deploy_template_id, _step_row,
    lambda ident: exception.DeployTemplateNotFound(template=ident),
    _duplicate, DEPLOY_TEMPLATE_SORT_KEYS)


class DeployTemplatesMixin(object):

    def create_deploy_template(self, values):
        """Create a template with its ``steps`` (a list of {interface,
        step, args, priority})."""
        return _STORE.create(values)

    def get_deploy_template_by_id(self, template_id):
        return _STORE.get(models.DeployTemplate.id, template_id)

    def get_deploy_template_by_uuid(self, template_uuid):
        return _STORE.get(models.DeployTemplate.uuid, template_uuid)

    def get_deploy_template_by_name(self, name):
        return _STORE.get(models.DeployTemplate.name, name)

    def get_deploy_template_list(self, limit=None, marker=None,
                                 sort_key=None, sort_dir=None):
        return _STORE.list(limit, marker, sort_key, sort_dir,
                           what='deploy template')

    def get_deploy_templates_by_names(self, names):
        """The templates whose name is among ``names`` (unknown names are
        simply not matched: a trait need not name a template)."""
        names = sorted(set(names or ()))
        if not names:
            return []
        t = models.DeployTemplate
        with step_sets._sa_api()._reader() as session:
            return list(session.scalars(
                sa.select(t).where(t.name.in_(names)).order_by(t.id)))

    def update_deploy_template(self, template_id, values):
        """Change name and extra; ``steps``, when given, replaces the
        whole list."""
        return _STORE.update(template_id, values)

    def destroy_deploy_template(self, template_id):
        _STORE.destroy(template_id)
