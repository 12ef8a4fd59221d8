"""POST /v1/events (Ironic 1.54): the networking service (Neutron's
ironic agent, say) reports that it bound, unbound or deleted a port.

Ironic accepts and checks the events, and acts on none of them unless a
node uses its ``neutron`` network interface; this service has only
``flat`` and ``noop``, for which there is nothing to do, so the events
are logged (at debug level) and answered 204.
"""

from oslo_log import log
import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import utils
from ironic_like.api.schemas import event as schema
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.common import exception
from ironic_like.common import policy

LOG = log.getLogger(__name__)

# The version Ironic added the endpoint in: 404 below, whatever the
# method.
EVENTS = versions.EVENTS

_VALIDATOR = validation.make_validator(schema.CREATE_BODY)
# The events one by one: an error then names the field of the event at
# fault (port_id, mac_address...), as Ironic's does, not just "events".
_EVENT_VALIDATOR = validation.make_validator(schema.EVENT)


def _check(body):
    events = body.get('events') if isinstance(body, dict) else None
    if isinstance(events, list):
        for index, event in enumerate(events):
            if not isinstance(event, dict):
                continue  # the whole body's check names "events"
            try:
                validation.validate(_EVENT_VALIDATOR, event)
            except exception.InvalidParameterValue as e:
                raise exception.InvalidParameterValue(
                    err='%s (event %d)' % (e, index), field=e.field)
    validation.validate(_VALIDATOR, body)


class EventsController(rest.RestController):
    """/v1/events"""

    @pecan.expose()
    def _route(self, args, request=None):
        # Before pecan picks a method: 404 (not 405) below 1.54.
        utils.hide_below(EVENTS)
        return super()._route(args, request)

    @pecan.expose('json')
    def post(self, **kwargs):
        utils.query()
        policy.authorize('baremetal:events:post', {}, utils.context())
        body = utils.load_body()
        _check(body)
        for event in body['events']:
            # Only the neutron network interface acts on these.
            LOG.debug('External event received: %s', event)
        utils.set_status(204)
