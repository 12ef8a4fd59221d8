"""/v1/shards (1.82): every shard and how many nodes it has, as Ironic
lists them (nodes without a shard under "None", most nodes first). Read
only, not paginated (as Ironic: a short list that changes as it is
read), no single-shard resource."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import utils
from ironic_like.api import versions
from ironic_like.common import exception
from ironic_like.common import policy


class ShardsController(rest.RestController):

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.hide_below(versions.NODE_SHARD)
        utils.query()
        policy.authorize('baremetal:shards:get', {}, utils.context())
        return {'shards': utils.dbapi().get_shard_list()}

    @pecan.expose('json')
    def get_one(self, ident, **kwargs):
        raise exception.NotFound()
