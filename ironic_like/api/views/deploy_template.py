"""Deploy templates in the API."""

from ironic_like.api.views import base

# /v1/deploy_templates (Ironic's 1.55; the constant lives here, as the
# chassis view's, so that this feature leaves versions.py alone).
DEPLOY_TEMPLATES = (1, 55)


def step_doc(step):
    return {'interface': step.interface, 'step': step.step,
            'args': dict(step.args or {}), 'priority': step.priority}


def _steps_make(ctx):
    return lambda template: [step_doc(s) for s in template.steps]


FIELDS = base.registry(
    base.column('uuid', DEPLOY_TEMPLATES),
    base.column('name', DEPLOY_TEMPLATES),
    base.Field('steps', DEPLOY_TEMPLATES, ['steps'], _steps_make),
    base.column('extra', DEPLOY_TEMPLATES),
    base.datetime_column('created_at', DEPLOY_TEMPLATES),
    base.datetime_column('updated_at', DEPLOY_TEMPLATES),
    base.links_field('deploy_templates', 'uuid'),
)

# Ironic's short form (lists without detail).
SHORT = ['uuid', 'name', 'links']


def view(version, base_url, fields=None, detail=True):
    names = base.select(FIELDS, version, fields, None if detail else SHORT)
    return base.View(FIELDS, names, base.ViewContext(base_url))
