"""Which deploy steps a deploy runs, from its deploy templates (Ironic's
rule, doc/ironic-api.md "Deploy templates").

A deploy asks for traits in ``instance_info['traits']`` (a list; Nova
puts the flavor's required traits there, an allocation its own). Every
deploy template whose name is among them contributes its steps. The
steps of the deploy are then the driver's built-in deploy steps and the
templates' ones, merged:

* a template step with the same interface and step name as a built-in
  step overrides it (its priority and arguments win);
* priority 0 means disabled: the step is left out;
* the rest run by priority, highest first (ties keep their order: the
  built-in steps first, then the templates' in the order given).

Pure functions of the node's fields and the templates (objects with
``name`` and ``steps``, each step with interface, step, args and
priority), so that the conductor and the tests share them.
"""

from ironic_like.common.accelerators import traits as acc_traits
from ironic_like.common import exception
from ironic_like.common import step_names
from ironic_like.common import step_order

# driver_internal_info: the ordered steps of the current (or last)
# deploy, and the index of the next template step to run.
STEPS = 'deploy_steps'
INDEX = 'deploy_step_index'


def requested_traits(node):
    """The traits the deploy asks for (instance_info['traits']);
    InvalidParameterValue unless a list of strings."""
    traits = (node.instance_info or {}).get('traits')
    if not traits:
        return []
    if not isinstance(traits, list) or \
            not all(isinstance(t, str) for t in traits):
        raise exception.InvalidParameterValue(
            err='Error parsing traits from node %s instance_info field. '
                'A list of strings is expected.' % node.uuid,
            field='instance_info/traits')
    return list(dict.fromkeys(traits))


def node_traits(node):
    return {getattr(t, 'trait', t) for t in (node.traits or ())}


def check_instance_traits(node):
    """Every requested trait must be one of the node's: a template the
    node was not scheduled for must not reconfigure it (400).
    Accelerator traits are left out: they are the node's while a free
    accelerator carries them (doc/accelerators.md), which the deploy's
    plug checks, never a NodeTrait row."""
    mine = node_traits(node)
    missing = [t for t in requested_traits(node)
               if t not in mine and not acc_traits.is_accelerator_trait(t)]
    if missing:
        raise exception.InvalidParameterValue(
            err='Cannot deploy: instance traits %s are not in the '
                'node\'s traits (node %s).'
                % (', '.join(missing), node.uuid),
            field='instance_info/traits')


def matching_templates(node, templates):
    """The templates whose name is a requested trait, in the order of
    the traits."""
    by_name = {t.name: t for t in templates}
    return [by_name[name] for name in requested_traits(node)
            if name in by_name]


def _as_dict(step):
    if isinstance(step, dict):
        doc = {'interface': step['interface'], 'step': step['step'],
               'args': dict(step.get('args') or {}),
               'priority': int(step.get('priority') or 0)}
        # A request's deploy step may go to the node's child nodes
        # (step_names): kept, or the conductor would run it on the
        # parent itself. A template step (a row) has no such options.
        for option in step_names.CHILD_OPTIONS:
            if step.get(option) is not None:
                doc[option] = step[option]
        return doc
    return {'interface': step.interface, 'step': step.step,
            'args': dict(step.args or {}), 'priority': int(step.priority)}


def template_steps(templates):
    """The steps of ``templates`` as dicts; InvalidParameterValue when two
    of them name the same step (which arguments would it get?)."""
    steps = []
    origin = {}
    for template in templates:
        for step in template.steps:
            doc = _as_dict(step)
            key = (doc['interface'], doc['step'])
            if key in origin:
                raise exception.InvalidParameterValue(
                    err='Cannot deploy: deploy templates %s and %s both '
                        'have the deploy step %s.%s.'
                        % ((origin[key], template.name) + key),
                    field='instance_info/traits')
            origin[key] = template.name
            steps.append(doc)
    return steps


def ordered_steps(templates, builtin_steps=(), user_steps=()):
    """The deploy's steps: ``builtin_steps`` overridden and completed by
    the templates' steps, then by the request's own ``user_steps``
    (deploy_steps, API 1.69: they win over a template's, as in Ironic),
    disabled ones left out, highest priority first."""
    merged = {}
    for step in builtin_steps:
        doc = _as_dict(step)
        merged[(doc['interface'], doc['step'])] = doc
    for doc in (template_steps(templates)
                + [_as_dict(step) for step in user_steps or ()]):
        # dict order: an override keeps the built-in step's place among
        # equal priorities.
        merged[(doc['interface'], doc['step'])] = doc
    enabled = [doc for doc in merged.values() if doc['priority'] > 0]
    # Ties by interface as Ironic breaks them; within one interface
    # they keep the order above (sorted() is stable).
    return step_order.in_order(enabled)


def is_builtin(step, builtin_steps):
    return any(step['interface'] == b['interface'] and
               step['step'] == b['step'] for b in builtin_steps)
