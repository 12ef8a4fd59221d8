"""/v1/nodes/{id}/states: read the states, change power and provision
state. Changes are accepted (202) once the conductor has checked and
locked the node; the work itself finishes in the background."""

import pecan
from pecan import rest

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

_SOFT_POWER_TARGETS = frozenset([states.SOFT_REBOOT, states.SOFT_POWER_OFF])

# Provision targets newer than 1.1, with the version Ironic added them.
TARGET_VERSIONS = {
    'manage': versions.MANAGE_VERBS,
    'provide': versions.MANAGE_VERBS,
    'abort': versions.ABORT_VERB,
    'clean': versions.CLEAN_VERB,
    'adopt': versions.ADOPT_VERB,
    'deploy': versions.DEPLOY_VERBS,
    'undeploy': versions.DEPLOY_VERBS,
}
# Targets that may come with a config drive.
_CONFIGDRIVE_EVENTS = frozenset(['deploy', 'rebuild'])


class NodeStatesController(rest.RestController):

    _custom_actions = {'power': ['PUT'], 'provision': ['PUT']}

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
        # Answer at once when the state machine forbids the action; the
        # conductor checks again under the node's lock.
        if not states.is_allowed(node.provision_state, event):
            raise exception.InvalidStateRequested(
                action=target, node=node.uuid, state=node.provision_state)
        action_params = {}
        if clean_steps is not None:
            action_params['clean_steps'] = clean_steps
        if configdrive is not None:
            action_params['configdrive'] = configdrive
        utils.rpcapi().do_provisioning_action(utils.context(), node, event,
                                              action_params)
        self._accepted()
