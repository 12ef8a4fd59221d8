"""The ``agent`` raid interface (Ironic's AgentRAID): RAID built by the
deploy ramdisk's agent (ironic-python-agent builds software RAID), as
the clean steps ``raid.create_configuration`` and
``raid.delete_configuration`` and the deploy and service step
``raid.apply_configuration``. The conductor sends them to the agent as
it sends its other steps; this interface says what the agent must be
told with them (agent_node_fields) and records what it built
(after_agent_step), as Ironic's post step hooks do."""

from oslo_utils import timeutils

from ironic_like.common import exception
from ironic_like.drivers import base
from ironic_like.drivers import raid

CREATE = 'create_configuration'
DELETE = 'delete_configuration'
APPLY = 'apply_configuration'
# The arguments apply_configuration takes (Ironic's argsinfo).
APPLY_ARGS = ('raid_config', 'delete_existing')


def check_deploy_step(step, field, kind='deploy'):
    """A raid.apply_configuration deploy (or service, ``kind``) step's
    arguments, before the work is accepted: none but APPLY_ARGS, a
    raid_config of Ironic's schema, not empty, and delete_existing a
    boolean.
    InvalidParameterValue naming ``field``."""
    kind = kind.capitalize()
    if step.get('step') != APPLY:
        raise exception.InvalidParameterValue(
            err='%s step raid.%s: the agent raid interface has the '
                '%s step raid.%s only.' % (kind, step.get('step'),
                                           kind.lower(), APPLY),
            field=field)
    args = step.get('args') or {}
    unexpected = sorted(set(args) - set(APPLY_ARGS))
    if unexpected:
        # Ironic's rule for a step's arguments (its argsinfo).
        raise exception.InvalidParameterValue(
            err='%s step raid.%s has these unexpected arguments: %s.'
                % (kind, APPLY, ', '.join(unexpected)), field=field)
    config = args.get('raid_config')
    if not config:
        raise exception.InvalidParameterValue(
            err='%s step raid.%s requires args.raid_config (a target '
                'RAID configuration).' % (kind, APPLY), field=field)
    try:
        raid.validate_configuration(config)
        raid.as_bool(args.get('delete_existing', True), 'delete_existing')
    except exception.InvalidParameterValue as e:
        raise exception.InvalidParameterValue(
            err='%s step raid.%s: %s' % (kind, APPLY,
                                         exception.safe_message(e)),
            field=field)


class AgentRAID(base.RAIDInterface):

    # Its steps run on the agent (the conductor's clean flows send them).
    in_band = True

    def validate_raid_config(self, task, raid_config):
        raid.validate_configuration(raid_config)

    def get_logical_disk_properties(self):
        return raid.logical_disk_properties()

    def agent_node_fields(self, task, step):
        """What the agent reads of the node for ``step``, besides its
        UUID: the target configuration create_configuration builds
        (filtered by its create_root_volume and create_nonroot_volumes
        arguments). MissingParameterValue when there is none."""
        if step.get('step') != CREATE:
            return {}
        args = step.get('args') or {}
        target = raid.filter_target(
            task.node, args.get('create_root_volume', True),
            args.get('create_nonroot_volumes', True))
        return {'target_raid_config': target}

    def after_agent_step(self, task, step, result):
        """Record what the agent's ``step`` did: the RAID configuration it
        reports built (raid_config, and from its root volume the node's
        local_gb, root_device hint and raid_level capability), or none
        after a delete. InvalidParameterValue for a report that is not a
        configuration."""
        name = step.get('step')
        if name in (CREATE, APPLY):
            task.update_node(raid.built_values(task.node, result,
                                               timeutils.utcnow()))
        elif name == DELETE:
            task.update_node(raid.deleted_values(task.node))
