"""/v1/hostos/agents: the host agents of deployed nodes.

POST /heartbeat is public (no keystone token): the host agent token
authenticates it, handed out on the node's first heartbeat (trust on
first use, like IPA's agent token). Its answer is the node's items, with
the secret values of the items the agent may run: it is never logged.
DELETE /{node} (an administrator) forgets a node's token, so that a host
agent that lost it can get a new one.
"""

from oslo_utils import timeutils
import pecan
from pecan import rest

from ironic_like.api.controllers.v1.hostos import common
from ironic_like.api.controllers.v1 import utils
from ironic_like.api.schemas import hostos as schema
from ironic_like.api import validation
from ironic_like.common.boot import component_status as cs
from ironic_like.common import exception
from ironic_like.common.hostos import items as hostos_items
from ironic_like.conductor.hostos import reconcile
from ironic_like.conductor.hostos import rollout
from ironic_like.conf import CONF
from ironic_like.db.sqlalchemy import hostos as hostos_db

_HEARTBEAT_VALIDATOR = validation.make_validator(schema.HEARTBEAT_BODY)
# Index of the config in an item's sort key (items.sort_key).
_CONFIG_INDEX = 3


def _time(value, field):
    if value is None:
        return None
    try:
        return timeutils.normalize_time(timeutils.parse_isotime(value))
    except ValueError:
        common.invalid(field, 'not an ISO 8601 time.')


def _reports(reports):
    """The reports as the database records them (times parsed)."""
    result = []
    for index, report in enumerate(reports):
        report = dict(report)
        for key in ('started_at', 'finished_at'):
            report[key] = _time(report.get(key),
                                'reports/%d/%s' % (index, key))
        result.append(report)
    return result


def _secret_values(row, configuration):
    if row.runner != hostos_items.RUNNER_ANSIBLE or configuration is None:
        return {}
    secrets = configuration.secret_values or []
    try:
        index = row.sort_key[_CONFIG_INDEX]
        return dict(secrets[index] or {})
    except (IndexError, KeyError, TypeError):
        return {}


def _item(row, configuration, paused):
    hold = not row.released or paused
    return {
        'name': row.name,
        'runner': row.runner,
        'phase': row.phase,
        'version': row.version,
        'hash': row.spec_hash,
        'params': row.params or {},
        'configuration': configuration.name if configuration else None,
        'hold': hold,
        # Only for the items the agent may run now.
        'secret_values': ({} if hold
                          else _secret_values(row, configuration)),
    }


def _after(db, changed, node):
    """What a heartbeat that changed items of ``changed`` configurations
    sets off: failure thresholds, deletions that may end, and the boot
    configuration operator (a boot session may wait for these items)."""
    rollout.check_thresholds(db, changed)
    for configuration in db.list_hostos_configurations(
            {'ids': sorted(changed)}):
        if configuration.status in (hostos_db.DELETING,
                                    hostos_db.DELETE_FAILED):
            reconcile.finish_delete(db, configuration)
    try:
        component, _ = db.get_boot_component(node.id)
    except exception.NotFound:
        return
    if component.status == cs.CONFIGURING:
        # Only a boot session waiting for this node's configuration
        # cares: no fanout cast for every report of a plain rollout.
        common.wake_configuration([node.id],
                                  context=common.anonymous_context())


class AgentsController(rest.RestController):
    """/v1/hostos/agents."""

    _custom_actions = {'heartbeat': ['POST']}

    @pecan.expose('json')
    def heartbeat(self, **kwargs):
        """The host agent's heartbeat: reports in, items out."""
        utils.query()
        body = utils.load_body()
        common.validate(_HEARTBEAT_VALIDATOR, body)
        reports = _reports(body.get('reports') or [])
        db = utils.dbapi()
        try:
            node, token, items, hold, changed = db.hostos_heartbeat(
                body['node'], body.get('token'), body.get('agent_version'),
                reports, body.get('held') or [])
        except exception.NodeNotFound:
            # Unauthenticated callers do not learn which nodes exist.
            raise exception.HostOSAgentTokenInvalid(node=body['node'])
        if changed:
            _after(db, changed, node)
        answer = {
            'heartbeat_interval': CONF.hostos.agent_heartbeat_interval,
            'retry_interval': CONF.hostos.retry_interval,
            'modules_dir': CONF.hostos.modules_dir,
            'hold': hold,
            'items': (None if items is None
                      else [_item(*entry) for entry in items]),
        }
        if token is not None:
            answer['token'] = token
        return answer

    @pecan.expose('json')
    def delete(self, node_ident=None, **kwargs):
        """Forget the host agent token of a node: its next heartbeat gets
        a new one (204)."""
        common.require(node_ident)
        utils.query()
        common.authorize_write()
        node = common.get_node(node_ident)
        utils.dbapi().reset_hostos_agent(node.id)
        utils.set_status(204)
