"""Inspection rules in the API."""

from ironic_like.api import versions as v
from ironic_like.api.views import base


def _operations_make(name):
    is_condition = name == 'conditions'

    def make(ctx):
        # A sensitive rule's conditions and actions are never shown (they
        # may hold credentials), as Ironic hides them.
        def get(rule):
            if rule.sensitive:
                return None
            return [operation_doc(op, is_condition)
                    for op in getattr(rule, name) or []]
        return get
    return make


def operation_doc(operation, is_condition=False):
    """A condition or action as Ironic shows it: op and args, the loop
    only when there is one (with a condition's multiple, "any" by
    default)."""
    doc = {'op': operation['op'], 'args': operation['args']}
    if operation.get('loop'):
        doc['loop'] = operation['loop']
        if is_condition:
            doc['multiple'] = operation.get('multiple') or 'any'
    return doc


FIELDS = base.registry(
    base.column('uuid', v.INSPECTION_RULES),
    base.column('description', v.INSPECTION_RULES),
    base.column('priority', v.INSPECTION_RULES),
    base.column('sensitive', v.INSPECTION_RULES),
    base.column('phase', v.INSPECTION_RULES),
    base.Field('conditions', v.INSPECTION_RULES, ['conditions', 'sensitive'],
               _operations_make('conditions')),
    base.Field('actions', v.INSPECTION_RULES, ['actions', 'sensitive'],
               _operations_make('actions')),
    base.datetime_column('created_at', v.INSPECTION_RULES),
    base.datetime_column('updated_at', v.INSPECTION_RULES),
    base.links_field('inspection_rules', 'uuid'),
)

# Ironic's short form (lists without detail).
SHORT = ['uuid', 'priority', 'phase', 'description', 'links']


def view(version, base_url, fields=None, detail=True):
    names = base.select(FIELDS, version, fields, None if detail else SHORT)
    return base.View(FIELDS, names, base.ViewContext(base_url))
