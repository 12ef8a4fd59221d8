"""What the API checks in the steps of a manual cleaning, a servicing
(given, or a runbook's) or a deploy (deploy_steps) before it asks the
conductor:

- the rules of the steps the conductor runs itself
  (common/step_names.py: reserved step names, ``execute_on_child_nodes``
  and ``limit_child_node_execution``), with 400s naming the option;
- the child nodes a step would act on: those listed must be children of
  the node (400 otherwise: a typo would silently do nothing, where Ironic
  skips them), and the requester must be allowed to change the provision
  state of each (403), the permission Ironic asks for. Ironic checks the
  listed nodes only; here every child the step acts on is checked, since
  without a list it acts on them all.
"""

from ironic_like.api.controllers.v1 import utils
from ironic_like.common import exception
from ironic_like.common import policy
from ironic_like.common import step_names

_RULE = 'baremetal:node:set_provision_state'


def check_steps(node, steps, field):
    """Check ``steps`` (the request's ``field``: clean_steps,
    service_steps or deploy_steps) for ``node``. The limit lists are
    normalized to the stored form of UUIDs (lower case, with dashes)."""
    for step in steps or ():
        step_names.check(step, field)
        if step_names.on_children(step):
            _check_children(node, step, field)


def _check_children(node, step, field):
    children = {child.uuid: child for child in utils.dbapi().get_node_list(
        filters={'parent_node': node.uuid}, sort_key='id')}
    limit = step_names.child_limit(step)
    if limit:
        step[step_names.LIMIT_CHILDREN] = limit
        strangers = sorted(set(limit) - set(children))
        if strangers:
            raise exception.InvalidParameterValue(
                err='Step "%s": %s lists nodes that are not child nodes '
                    'of node %s: %s.' % (step.get('step'),
                                         step_names.LIMIT_CHILDREN,
                                         node.uuid, ', '.join(strangers)),
                field=field)
        acted_on = [children[uuid] for uuid in limit]
    else:
        acted_on = list(children.values())
    ctx = utils.context()
    for child in acted_on:
        if not policy.check(_RULE, policy.node_target(child), ctx):
            raise exception.HTTPForbidden(
                resource='%s on child node %s (%s)'
                % (_RULE, child.uuid, step_names.ON_CHILDREN))
