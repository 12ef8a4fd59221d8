"""/v1/nodes/{id}/history (1.78): the events recorded on a node
(conductor/node_history.py), oldest first; GET .../history/{event} for
one. The list shows the short form (the event text cut to 255
characters) unless ?detail=True, one event always the detailed form,
as Ironic shows them."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import collection
from ironic_like.api.controllers.v1 import utils
from ironic_like.api import links
from ironic_like.api import versions
from ironic_like.api.views import base as view_base
from ironic_like.common import exception

RULE = 'baremetal:node:history:get'
STANDARD_FIELDS = ('uuid', 'created_at', 'severity', 'event')
DETAIL_FIELDS = ('uuid', 'created_at', 'severity', 'event_type', 'event',
                 'conductor', 'user')
# Detail fields that came later, with their version.
LATER_DETAIL_FIELDS = (
    ('project', versions.NODE_HISTORY_PROJECT),
    ('state', versions.NODE_HISTORY_STATES),
    ('target_provision_state', versions.NODE_HISTORY_STATES),
    ('duration_seconds', versions.NODE_HISTORY_STATES),
)
SHORT_EVENT = 255


def _detail_fields():
    return DETAIL_FIELDS + tuple(name for name, since in LATER_DETAIL_FIELDS
                                 if utils.allowed(since))


def _render(event, node_uuid, detail):
    doc = {}
    for name in _detail_fields() if detail else STANDARD_FIELDS:
        value = getattr(event, name)
        if name == 'created_at':
            value = view_base.format_datetime(value)
        doc[name] = value
    text = doc.get('event') or ''
    if not detail and len(text) > SHORT_EVENT:
        doc['event'] = text[:SHORT_EVENT - 4] + '...'
    doc['links'] = links.make_links(
        utils.public_url(), 'nodes',
        '%s/history/%s' % (node_uuid, event.uuid))[:1]
    return doc


class NodeHistoryController(rest.RestController):

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose('json')
    def get_all(self, **kwargs):
        params = utils.query(['detail', 'marker', 'limit', 'sort_dir'])
        detail = bool(utils.parse_bool('detail', params.get('detail')))
        limit = utils.parse_limit(params.get('limit'))
        sort_dir = utils.parse_sort_dir(params.get('sort_dir'))
        marker = utils.parse_marker(params)
        node = utils.get_authorized_node(self.node_ident, RULE)
        events = utils.dbapi().get_node_history_list(
            node.id, limit=limit, marker=marker, sort_dir=sort_dir)
        items = [_render(e, node.uuid, detail) for e in events]
        last = events[-1].uuid if events else None
        return collection.list_body(
            'history', items, limit, 'nodes/%s/history' % self.node_ident,
            last, params)

    @pecan.expose('json')
    def get_one(self, event, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident, RULE)
        try:
            found = utils.dbapi().get_node_history_by_uuid(node.id, event)
        except exception.NotFound:
            raise exception.NotFound(
                'Node history record %s could not be found.' % event)
        return _render(found, node.uuid, True)
