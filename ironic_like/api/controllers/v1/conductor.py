"""/v1/conductors (microversion 1.49 and later; 404 before, as in
Ironic)."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import collection
from ironic_like.api.controllers.v1 import utils
from ironic_like.api import versions
from ironic_like.api.views import base as view_base
from ironic_like.api.views import conductor as conductor_view
from ironic_like.common import exception
from ironic_like.common import policy
from ironic_like.conf import CONF

SORT_KEYS = frozenset(['hostname', 'conductor_group', 'created_at',
                       'updated_at', 'id'])
_LIST_PARAMS = utils.PAGING_PARAMS + ('fields', 'detail')


def _view(fields=None, detail=True):
    return conductor_view.view(utils.version(), utils.public_url(),
                               CONF.conductor.heartbeat_timeout,
                               fields=fields, detail=detail)


class ConductorsController(rest.RestController):

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.hide_below(versions.CONDUCTORS)
        params = utils.query(_LIST_PARAMS)
        policy.authorize('baremetal:conductor:get', {}, utils.context())
        fields = view_base.parse_fields(utils.fields_param(params))
        detail = utils.parse_detail(params, False)
        limit = utils.parse_limit(params.get('limit'))
        sort_key = utils.parse_sort_key(params.get('sort_key'), SORT_KEYS,
                                        'hostname')
        sort_dir = utils.parse_sort_dir(params.get('sort_dir'))
        marker = params.get('marker')
        db = utils.dbapi()
        if marker is not None:
            try:
                db.get_conductor(marker)
            except exception.ConductorNotFound:
                raise exception.InvalidParameterValue(
                    err='The marker %s does not name a conductor.' % marker,
                    field='marker')
        conductors = db.get_conductor_list(limit=limit, marker=marker,
                                           sort_key=sort_key,
                                           sort_dir=sort_dir)
        view = _view(fields, detail)
        items = [view.render(c) for c in conductors]
        last = conductors[-1].hostname if conductors else None
        return collection.list_body('conductors', items, limit,
                                    'conductors', last, params)

    @pecan.expose('json')
    def get_one(self, hostname, **kwargs):
        utils.hide_below(versions.CONDUCTORS)
        params = utils.query(['fields'])
        policy.authorize('baremetal:conductor:get', {}, utils.context())
        fields = view_base.parse_fields(utils.fields_param(params))
        conductor = utils.dbapi().get_conductor(hostname)
        return _view(fields).render(conductor)
