"""/v1/nodes/{id}/states: read the states, change power and provision
state. Changes are accepted (202) once the conductor has checked and
locked the node; the work itself finishes in the background."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import deploy_template
from ironic_like.api.controllers.v1 import node_boot_mode
from ironic_like.api.controllers.v1 import node_step_checks
from ironic_like.api.controllers.v1 import runbook as runbook_api
from ironic_like.api.controllers.v1 import utils
from ironic_like.api import links
from ironic_like.api.schemas import node as schema
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.api.views import node as node_view
from ironic_like.common import exception
from ironic_like.common import states

_POWER_VALIDATOR = validation.make_validator(schema.POWER_BODY)
_PROVISION_VALIDATOR = validation.make_validator(schema.PROVISION_BODY)
_CONSOLE_VALIDATOR = validation.make_validator(schema.CONSOLE_BODY)
_RAID_VALIDATOR = validation.make_validator(schema.RAID_BODY)

_SOFT_POWER_TARGETS = frozenset([states.SOFT_REBOOT, states.SOFT_POWER_OFF])

# Provision targets newer than 1.1, with the version Ironic added them.
TARGET_VERSIONS = {
    'manage': versions.MANAGE_VERBS,
    'provide': versions.MANAGE_VERBS,
    'abort': versions.ABORT_VERB,
    'clean': versions.CLEAN_VERB,
    'adopt': versions.ADOPT_VERB,
    'inspect': versions.INSPECTION_TIMES,
    'deploy': versions.DEPLOY_VERBS,
    'undeploy': versions.DEPLOY_VERBS,
    'rescue': versions.RESCUE,
    'unrescue': versions.RESCUE,
    'unhold': versions.UNHOLD_VERB,
    'service': versions.SERVICE,
}
# Wait states "abort" came to later than the verb, with their version.
_ABORT_SINCE = {states.INSPECTWAIT: versions.INSPECT_ABORT,
                states.DEPLOYWAIT: versions.DEPLOY_WAIT_ABORT}
# Targets that may come with a config drive.
_CONFIGDRIVE_EVENTS = frozenset(['deploy', 'rebuild'])


def _deploy_steps(steps, event, node):
    """The deploy_steps of a deploy or rebuild (1.69), normalized; None
    when there are none (an empty list is none, as in Ironic). The
    conductor's own steps among them (reserved names, steps on child
    nodes) are checked as clean and service steps are."""
    if not steps:
        return None
    utils.require_version(versions.DEPLOY_STEPS_ARG, '"deploy_steps"')
    if event not in ('deploy', 'rebuild'):
        raise exception.InvalidParameterValue(
            err='"deploy_steps" is only valid when setting target '
                'provision state to active or rebuild',
            field='deploy_steps')
    steps = deploy_template.normalize_steps(steps, 'deploy_steps',
                                            'A deploy request')
    node_step_checks.check_steps(node, steps, 'deploy_steps')
    return steps


def _service_steps(steps, event, node):
    """The service_steps of "service" (1.87): required with it, refused
    with any other target, under their own policy (Ironic's)."""
    if steps is not None:
        utils.require_version(versions.SERVICE, '"service_steps"')
        if event != 'service':
            raise exception.InvalidParameterValue(
                err='"service_steps" is only valid when setting target '
                    'provision state to service', field='service_steps')
        utils.authorize_node('baremetal:node:set_provision_state:'
                             'service_steps', node)
    elif event == 'service':
        raise exception.MissingParameterValue(
            err='"service_steps" is required when setting target '
                'provision state to service', field='service_steps')
    return steps


# The targets disable_ramdisk may come with, from these versions.
_DISABLE_RAMDISK_SINCE = {'clean': versions.CLEAN_DISABLE_RAMDISK,
                          'service': versions.SERVICE_DISABLE_RAMDISK}


def _disable_ramdisk(value, event):
    """disable_ramdisk: manual cleaning (1.70) and servicing (1.108)."""
    if value is None:
        return None
    if event not in _DISABLE_RAMDISK_SINCE:
        raise exception.InvalidParameterValue(
            err='disable_ramdisk is supported only with manual cleaning '
                'and servicing', field='disable_ramdisk')
    utils.require_version(_DISABLE_RAMDISK_SINCE[event],
                          '"disable_ramdisk" with "%s"' % event)
    return value


class NodeStatesController(rest.RestController):

    _custom_actions = {'power': ['PUT'], 'provision': ['PUT'],
                       'console': ['GET', 'PUT'], 'raid': ['PUT'],
                       'boot_mode': ['PUT'], 'secure_boot': ['PUT']}

    def __init__(self, node_ident):
        self.node_ident = node_ident

    def _accepted(self):
        utils.set_status(202)
        utils.set_location(links.build_url(
            utils.public_url(), 'nodes/%s/states' % self.node_ident))

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:get')
        view = node_view.view(utils.version(), utils.public_url(),
                              utils.owner_lookup(), names=node_view.STATES)
        return view.render(node)

    @pecan.expose('json')
    def power(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:set_power_state')
        body = utils.load_body()
        utils.validate(_POWER_VALIDATOR, body)
        target = body['target']
        timeout = body.get('timeout')
        if target not in states.POWER_TARGETS:
            raise exception.InvalidParameterValue(
                err='Supplied power state value "%s" is invalid; use one '
                    'of: %s.' % (target,
                                 ', '.join(sorted(states.POWER_TARGETS))),
                field='target')
        if target in _SOFT_POWER_TARGETS:
            utils.require_version(versions.SOFT_POWER,
                                  'Power target "%s"' % target)
        if timeout is not None:
            utils.require_version(versions.SOFT_POWER,
                                  'The power timeout')
        utils.rpcapi().change_node_power_state(utils.context(), node,
                                               target, timeout)
        self._accepted()

    @pecan.expose('json')
    def provision(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(
            self.node_ident, 'baremetal:node:set_provision_state')
        body = utils.load_body()
        utils.validate(_PROVISION_VALIDATOR, body)
        target = body['target']
        event = states.VERBS.get(target)
        if event is None:
            raise exception.InvalidParameterValue(
                err='"%s" is not a valid provision target.' % target,
                field='target')
        if target in TARGET_VERSIONS:
            utils.require_version(TARGET_VERSIONS[target],
                                  'Provision target "%s"' % target)
        clean_steps = body.get('clean_steps')
        runbook_steps, runbook_no_ramdisk = self._runbook(node, event, body)
        if event == 'clean' and runbook_steps is not None:
            clean_steps = runbook_steps
        if event == 'clean' and clean_steps is None:
            raise exception.MissingParameterValue(
                err='"clean_steps" is required when setting target '
                    'provision state to clean', field='clean_steps')
        if event != 'clean' and clean_steps is not None:
            raise exception.InvalidParameterValue(
                err='"clean_steps" is only valid when setting target '
                    'provision state to clean', field='clean_steps')
        configdrive = body.get('configdrive')
        if configdrive is not None and event not in _CONFIGDRIVE_EVENTS:
            raise exception.InvalidParameterValue(
                err='A config drive can only be given with the "active" '
                    'and "rebuild" targets.', field='configdrive')
        rescue_password = body.get('rescue_password')
        if rescue_password is not None:
            # An unknown body field before 1.38, as Ironic's
            # InvalidParameterValue names it.
            if not utils.allowed(versions.RESCUE):
                raise exception.InvalidParameterValue(
                    err='"rescue_password" needs API version %s or later.'
                        % versions.to_string(versions.RESCUE),
                    field='rescue_password')
            if event != 'rescue':
                raise exception.InvalidParameterValue(
                    err='"rescue_password" is only valid when setting '
                        'target provision state to rescue',
                    field='rescue_password')
        if event == 'rescue' and not (rescue_password and
                                      rescue_password.strip()):
            raise exception.MissingParameterValue(
                err='A non-empty "rescue_password" is required when '
                    'setting target provision state to rescue',
                field='rescue_password')
        if event == 'service' and runbook_steps is not None:
            service_steps = runbook_steps
        else:
            service_steps = _service_steps(body.get('service_steps'),
                                           event, node)
        for steps, field in ((clean_steps, 'clean_steps'),
                             (service_steps, 'service_steps')):
            # The conductor's own steps (reserved names, steps on child
            # nodes), given or a runbook's.
            node_step_checks.check_steps(node, steps, field)
        deploy_steps = _deploy_steps(body.get('deploy_steps'), event, node)
        disable_ramdisk = _disable_ramdisk(
            True if runbook_no_ramdisk else body.get('disable_ramdisk'),
            event)
        # Answer at once when the state machine forbids the action; the
        # conductor checks again under the node's lock.
        if not states.is_allowed(node.provision_state, event):
            raise exception.InvalidStateRequested(
                action=target, node=node.uuid, state=node.provision_state)
        if event == 'abort' and node.provision_state in _ABORT_SINCE:
            utils.require_version(_ABORT_SINCE[node.provision_state],
                                  'Aborting "%s"' % node.provision_state)
        action_params = {}
        if clean_steps is not None:
            action_params['clean_steps'] = clean_steps
        if configdrive is not None:
            action_params['configdrive'] = configdrive
        if event == 'rescue':
            action_params['rescue_password'] = rescue_password
        if deploy_steps:
            action_params['deploy_steps'] = deploy_steps
        if disable_ramdisk:
            action_params['disable_ramdisk'] = True
        if service_steps is not None:
            action_params['service_steps'] = service_steps
        utils.rpcapi().do_provisioning_action(utils.context(), node, event,
                                              action_params)
        self._accepted()

    @staticmethod
    def _runbook(node, event, body):
        """(steps, disable_ramdisk) of the request's runbook (1.92), or
        (None, False) without one. The runbook replaces the steps: a
        request giving both is refused, as Ironic refuses it."""
        ident = body.get('runbook')
        if ident is None:
            return None, False
        steps, no_ramdisk = runbook_api.steps_for_node(node, event, ident)
        field = '%s_steps' % event
        if body.get(field) is not None:
            raise exception.InvalidParameterValue(
                err='Please provide either "%s" or a runbook, but not '
                    'both.' % field, field=field)
        if no_ramdisk and body.get('disable_ramdisk') is not None:
            raise exception.InvalidParameterValue(
                err='Please provide either "disable_ramdisk" or a runbook '
                    'that sets it, but not both.', field='disable_ramdisk')
        return steps, no_ramdisk

    @pecan.expose('json')
    def console(self, **kwargs):
        """GET: whether the console is on and how to reach it; PUT
        {"enabled": bool}: switch it (202, done by the conductor)."""
        utils.query()
        if pecan.request.method == 'GET':
            return self._get_console()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:set_console_state')
        body = utils.load_body()
        utils.validate(_CONSOLE_VALIDATOR, body)
        enabled = utils.parse_bool('enabled', body['enabled'])
        utils.rpcapi().set_console_mode(utils.context(), node, enabled)
        utils.set_status(202)
        utils.set_location(links.build_url(
            utils.public_url(), 'nodes/%s/states/console' % self.node_ident))

    def _get_console(self):
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:get_console')
        try:
            info = utils.rpcapi().get_console_information(utils.context(),
                                                          node)
        except exception.NodeConsoleNotEnabled:
            return {'console_enabled': False, 'console_info': None}
        return {'console_enabled': True, 'console_info': info}

    @pecan.expose('json')
    def boot_mode(self, **kwargs):
        """PUT {"target": "uefi"|"bios"} (1.76; 202): node_boot_mode."""
        utils.query()
        node_boot_mode.set_boot_mode(self.node_ident)
        self._accepted()

    @pecan.expose('json')
    def secure_boot(self, **kwargs):
        """PUT {"target": true|false} (1.76; 202): node_boot_mode."""
        utils.query()
        node_boot_mode.set_secure_boot(self.node_ident)
        self._accepted()

    @pecan.expose('json')
    def raid(self, **kwargs):
        """PUT the target RAID configuration (1.12; 204)."""
        utils.query()
        utils.require_version(versions.RAID_CONFIG,
                              'Setting the target RAID configuration')
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:set_raid_state')
        body = utils.load_body()
        utils.validate(_RAID_VALIDATOR, body)
        try:
            utils.rpcapi().set_target_raid_config(utils.context(), node,
                                                  body)
        except exception.UnsupportedDriverExtension as e:
            # As Ironic: RAID is a standard interface some drivers lack,
            # so its absence is a 404 here.
            e.code = 404
            raise
        utils.set_status(204)
