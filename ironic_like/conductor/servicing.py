"""Servicing an active node (API 1.87): "service" with service_steps.

With the agent deploy the work is the service flows
(conductor/flows/service.py): the agent's ramdisk boots, runs the steps,
and the instance boots again. Without an agent the conductor runs the
steps that are its own (flows/reserved_steps.py: power steps, "wait",
steps on child nodes) and holds at a "hold" step, and the node is back
in active: so with an interface without node flows (the fake deploy,
whose other steps nothing runs), with disable_ramdisk (API 1.108, which
takes only the conductor's steps), and when every step is the
conductor's (no ramdisk is needed, as Ironic decides).
"""

from oslo_log import log

from ironic_like.common import exception
from ironic_like.conductor.flows import interface_steps
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor.flows import polled_steps
from ironic_like.conductor.flows import reserved_steps
from ironic_like.conductor.flows import runner
from ironic_like.drivers import base as drivers_base

LOG = log.getLogger(__name__)

# driver_internal_info: the manual clean or service steps after a "hold"
# run without the agent (API 1.85), and that they run without it, for
# when the work carries on after "unhold".
AFTER_HOLD = 'steps_after_hold'
NO_RAMDISK = 'service_without_ramdisk'


def start(task, params):
    """In the provisioning worker, which holds the lock; the node is
    "servicing"."""
    steps = params.get('service_steps') or []
    no_ramdisk = interface_steps.without_ramdisk(task.node, params, steps,
                                                 'service')
    if drivers_base.runs_flows(task.driver.deploy) and not no_ramdisk:
        try:
            runner.start_service(task, steps)
        except Exception as e:
            node_steps.fail_node(task, 'Servicing failed: %s'
                                 % exception.safe_message(e))
        return
    before, after_hold = node_steps.split_at_hold(steps)
    try:
        result = reserved_steps.run_without_agent(task, before,
                                                  kind='service')
    except Exception as e:
        node_steps.fail_node(task, 'Servicing failed: %s'
                             % exception.safe_message(e))
        return
    if isinstance(result, reserved_steps.Paused):
        wait_for_polled_step(task, 'service', result, steps)
        return
    if after_hold is not None:
        # Nothing heartbeats: "unhold" carries on at once, without the
        # agent.
        node_steps.set_info(task, **{AFTER_HOLD: after_hold,
                                     NO_RAMDISK: True})
        node_steps.move(task, 'hold')
        return
    node_steps.move(task, 'done', keep_target=False, target=None)


def wait_for_polled_step(task, kind, paused, steps, index=None,
                         index_key=None):
    """Work without the agent (``kind``: clean, service, deploy) whose
    step at ``paused.position`` of ``steps`` goes on outside the
    conductor: the node waits for it (flows/polled_steps.py), the steps
    after it kept where a "hold" keeps them; when the poll finds it done
    (conductor/step_polling.py), they run as after "unhold".
    ``index_key``: where the work keeps its step's ``index`` (the API's
    current step), written too."""
    extra = {AFTER_HOLD: list(steps[paused.position + 1:]),
             NO_RAMDISK: True}
    if index_key is not None:
        extra[index_key] = index
    polled_steps.begin(task, kind, paused.step, paused.polling,
                       index=index, without_agent=True, extra=extra)


def boot_instance_again(task):
    """After "abort" in service failed (the node is active again): leave
    the ramdisk and boot the instance from its disk, in a worker. A
    failure is recorded in last_error; the node stays active, as Ironic
    leaves it."""
    try:
        node_steps.leave_ramdisk(task)
        task.driver.management.set_boot_device(task, 'disk',
                                               persistent=True)
        node_steps.boot(task)
    except Exception as e:
        LOG.warning('Node %s: booting the instance after the service abort '
                    'failed: %s', task.node.uuid, e)
        task.update_node({'last_error': 'Booting the instance after the '
                                        'service abort failed: %s'
                                        % exception.safe_message(e)})
