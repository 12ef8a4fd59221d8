"""The target RAID configuration of a node (PUT /v1/nodes/{id}/states/raid,
1.12): checked by the node's raid interface, then stored for cleaning or
deploy steps to build."""

from ironic_like.conductor import locks


def _check(task, target_raid_config):
    raid = task.driver.raid
    # no-raid refuses (UnsupportedDriverExtension), even a clearing.
    raid.validate(task)
    # An empty configuration clears the target; nothing to check.
    if target_raid_config:
        raid.validate_raid_config(task, target_raid_config)


def set_target_raid_config(context, node_id, target_raid_config):
    # Refused before the exclusive lock, whose taking alone writes the
    # node row.
    with locks.acquire(context, node_id, shared=True,
                       purpose='checking target RAID config') as task:
        _check(task, target_raid_config)
    with locks.acquire(context, node_id,
                       purpose='setting target RAID config') as task:
        _check(task, target_raid_config)
        task.update_node({'target_raid_config': target_raid_config})
