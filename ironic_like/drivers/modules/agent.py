"""The ``agent`` deploy interface: the deploy ramdisk's agent writes the
image and cleans the disks, driven over its REST API (seed 003).

The work is done by the node flows in conductor/flows/ (deploy, clean),
persisted so that another conductor resumes them; this interface starts
them and hands heartbeats to them. ``runs_flows`` tells the provisioning
code that the flows move the node through its states themselves.
"""

from ironic_like.common import exception
from ironic_like.conductor.flows import clean
from ironic_like.conductor.flows import deploy as deploy_flows
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor.flows import runner
from ironic_like.drivers import base


class AgentDeploy(base.DeployInterface):

    runs_flows = True

    def validate(self, task):
        task.driver.boot.validate(task)

    def deploy(self, task, configdrive=None):
        """Boot the ramdisk and wait for the agent (in the provisioning
        worker, which holds the lock)."""
        if configdrive is not None:
            info = dict(task.node.instance_info or {})
            info['configdrive'] = configdrive
            task.update_node({'instance_info': info})
        node_steps.set_info(task, **{node_steps.PHASE: None,
                                     node_steps.COMMAND: None})
        runner.run_chain(task, deploy_flows.BOOT_RAMDISK)

    def tear_down(self, task):
        """Power off, release the instance, then clean (automatically)."""
        runner.run_chain(task, clean.TEARDOWN)

    def clean(self, task, steps=None):
        """Automated cleaning (steps None) or manual cleaning of ``steps``
        (a list of {interface, step, args})."""
        if steps is not None:
            for step in steps:
                if step.get('interface', 'deploy') != 'deploy':
                    raise exception.InvalidParameterValue(
                        'Clean step "%s": the agent runs steps of the '
                        '"deploy" interface only.' % step.get('step'),
                        field='clean_steps')
        node_steps.set_info(task, **{
            clean.REQUESTED: list(steps) if steps is not None else None,
            clean.STEPS: None, clean.INDEX: None,
            node_steps.PHASE: None, node_steps.COMMAND: None})
        runner.run_chain(task, clean.BOOT_RAMDISK)

    def heartbeat(self, task, callback_url, agent_version):
        runner.on_heartbeat(task)

    def abort(self, task):
        runner.abort(task)
