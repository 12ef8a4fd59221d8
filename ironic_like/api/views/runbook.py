"""Runbooks in the API."""

from ironic_like.api import versions as v
from ironic_like.api.views import base


def step_doc(step):
    # Step arguments may carry passwords (a BMC's, a firmware server's):
    # masked, as Ironic shows them.
    return {'interface': step.interface, 'step': step.step,
            'args': base.mask_secrets(dict(step.args or {})),
            'order': step.order}


def _steps_make(ctx):
    return lambda runbook: [step_doc(s) for s in runbook.steps]


def _traits_make(ctx):
    return lambda runbook: [t.trait for t in runbook.traits]


FIELDS = base.registry(
    base.column('uuid', v.RUNBOOKS),
    base.column('name', v.RUNBOOKS),
    base.Field('steps', v.RUNBOOKS, ['steps'], _steps_make),
    base.column('disable_ramdisk', v.RUNBOOKS),
    base.column('extra', v.RUNBOOKS),
    base.column('public', v.RUNBOOKS),
    base.column('owner', v.RUNBOOKS),
    base.column('description', v.RUNBOOK_TRAITS),
    base.Field('traits', v.RUNBOOK_TRAITS, ['traits'], _traits_make),
    base.datetime_column('created_at', v.RUNBOOKS),
    base.datetime_column('updated_at', v.RUNBOOKS),
    base.links_field('runbooks', 'uuid'),
)

# Ironic's short form (lists without detail).
SHORT = ['uuid', 'name', 'links']


def view(version, base_url, fields=None, detail=True):
    names = base.select(FIELDS, version, fields, None if detail else SHORT)
    return base.View(FIELDS, names, base.ViewContext(base_url))
