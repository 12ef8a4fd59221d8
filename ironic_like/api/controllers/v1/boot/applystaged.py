"""/v1/boot/applystaged: start the sessions staged on some components
(their staged state becomes their desired state; see the conductor's
boot.staged for BOS's rules)."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1.boot import common
from ironic_like.api.controllers.v1 import utils
from ironic_like.api.schemas import boot as schema
from ironic_like.api import validation
from ironic_like.conductor.boot import staged

_APPLYSTAGED_VALIDATOR = validation.make_validator(schema.APPLYSTAGED_BODY)


class ApplyStagedController(rest.RestController):

    @pecan.expose('json')
    def post(self, **kwargs):
        """{"xnames": [ids]} -> {"succeeded", "failed", "ignored"}: ids
        whose staged session started, could not start (the component has
        the error), or had none staged."""
        utils.query()
        common.authorize_write()
        body = utils.load_body()
        utils.validate(_APPLYSTAGED_VALIDATOR, body)
        outcome = staged.apply_staged(utils.dbapi(),
                                      list(body.get('xnames') or []))
        if outcome.get('succeeded'):
            common.wake('status')
        return outcome
