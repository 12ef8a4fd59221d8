"""What the node's interfaces add to the steps its agent runs, as
Ironic's in-band interfaces do: the raid interface "agent" (agent_raid)
has the agent build RAID, tells it the target with the step, and records
what it built once the step is over (Ironic's post step hooks). Shared
by cleaning, servicing and the deploy."""


def raid_in_band(task):
    """The node's raid interface has the agent build RAID (agent_raid)."""
    return bool(getattr(task.driver.raid, 'in_band', False))


def agent_node_fields(task, step):
    """What the agent reads of the node for ``step`` besides its UUID:
    the raid interface's say for its own steps (agent_raid)."""
    if step.get('interface') == 'raid' and raid_in_band(task):
        return task.driver.raid.agent_node_fields(task, step)
    return {}


def after_agent_step(task, step, doc, result_key):
    """A step the agent ran is over: the node's raid interface records
    what its own steps built (Ironic's post step hooks). ``doc``: the
    agent's command document; ``result_key``: clean_result,
    service_result or deploy_result. Raises when the agent's report is
    unusable."""
    if step.get('interface') == 'raid' and raid_in_band(task):
        result = ((doc or {}).get('command_result') or {}).get(result_key)
        task.driver.raid.after_agent_step(task, step, result)
