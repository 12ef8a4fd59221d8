"""/v1/boot/components (BOS v2's components: the nodes as boot sessions
see them) and the booted OS's report, POST /{id}/report.

A component is named by its node's name, or UUID when it has none; its
writes go through the conductor's component_writes, which apply BOS's
server-side rules (bos-v2.md section 1). The report route is public: the
referral token it sends, which must be one issued to this component,
authenticates it.
"""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1.boot import common
from ironic_like.api.controllers.v1 import utils
from ironic_like.api.schemas import boot as schema
from ironic_like.api import validation
from ironic_like.common.boot import component_status as cs
from ironic_like.common import exception
from ironic_like.conductor.boot import component_writes

LIST_PARAMS = ('ids', 'session', 'staged_session', 'enabled', 'phase',
               'status', 'start_after_id', 'page_size')
MAX_PAGE_SIZE = 1048576

_COMPONENT_VALIDATOR = validation.make_validator(schema.COMPONENT_BODY)
_PUT_VALIDATOR = validation.make_validator(schema.COMPONENTS_PUT_BODY)
_PATCH_VALIDATOR = validation.make_validator(schema.COMPONENTS_PATCH_BODY)
_REPORT_VALIDATOR = validation.make_validator(schema.REPORT_BODY)


def _ids(value):
    return [ident for ident in value.split(',') if ident]


def _page_size(value):
    if value is None:
        return None
    try:
        size = int(value)
    except ValueError:
        size = -1
    if not 0 <= size <= MAX_PAGE_SIZE:
        raise exception.InvalidParameterValue(
            err='page_size must be an integer from 0 (no limit) to %d, not '
                '"%s".' % (MAX_PAGE_SIZE, value[:20]), field='page_size')
    return size or None


def list_filters(params):
    """(filters of db.list_boot_components, start_after node id, page
    size) from the query; None as the filters when ids name no node."""
    filters = {}
    for name in ('session', 'staged_session'):
        if params.get(name):
            filters[name] = params[name]
    enabled = utils.parse_bool('enabled', params.get('enabled'))
    if enabled is not None:
        filters['enabled'] = enabled
    phase = params.get('phase')
    if phase is not None:
        if phase not in cs.PHASES:
            raise exception.InvalidParameterValue(
                err='Invalid phase "%s": use one of %s (or empty).'
                    % (phase[:40], ', '.join(p for p in cs.PHASES if p)),
                field='phase')
        filters['phase'] = phase
    if params.get('status'):
        statuses = _ids(params['status'])
        unknown = [s for s in statuses if s not in cs.STATUSES]
        if unknown:
            raise exception.InvalidParameterValue(
                err='Invalid status "%s": use one or more of %s, comma '
                    'separated.' % (unknown[0][:40], ', '.join(cs.STATUSES)),
                field='status')
        filters['status'] = statuses
    if params.get('ids'):
        node_ids = []
        for ident in _ids(params['ids']):
            try:
                node_ids.append(common.get_node(ident).id)
            except exception.BootComponentNotFound:
                continue  # as BOS: an unknown id matches nothing
        if not node_ids:
            filters = None
        else:
            filters['node_ids'] = node_ids
    start_after = None
    if params.get('start_after_id'):
        try:
            start_after = common.get_node(params['start_after_id']).id
        except exception.BootComponentNotFound:
            raise exception.InvalidParameterValue(
                err='start_after_id names no component: %s'
                    % params['start_after_id'][:255],
                field='start_after_id')
    return filters, start_after, _page_size(params.get('page_size'))


def _check_known(idents):
    """404 naming the first id that names no component (before anything
    is written)."""
    for ident in idents:
        common.get_node(ident)


def _record_patch(body):
    patch = dict(body)
    # The path names the component.
    patch.pop('id', None)
    return patch


# What a PUT record does not give is cleared, as in BOS (the record
# replaces the component's; the JSON states left out become empty).
_REPLACED = {'enabled': False, 'error': None, 'session': None,
             'retry_policy': None}
_REPLACED_STATUS = {'phase': '', 'status_override': ''}


def _replacement(body):
    record = dict(_REPLACED, **_record_patch(body))
    record['status'] = dict(_REPLACED_STATUS, **(body.get('status') or {}))
    return record


class ComponentReportController(rest.RestController):
    """POST /v1/boot/components/{id}/report {"bss_token": T}: the booted
    OS says what it booted (public: the token authenticates)."""

    def __init__(self, ident):
        self.ident = ident

    @pecan.expose('json')
    def post(self, **kwargs):
        utils.query()
        body = utils.load_body()
        utils.validate(_REPORT_VALIDATOR, body)
        db = utils.dbapi()
        try:
            node_id = component_writes.report(db, self.ident,
                                              body['bss_token'])
        except exception.BootComponentNotFound:
            # Unauthenticated callers do not learn which ids exist.
            raise component_writes.TokenNotIssued(id=self.ident)
        common.wake('status', context=common.anonymous_context(),
                    node_ids=[node_id])
        utils.set_status(204)


class ComponentsController(rest.RestController):
    """/v1/boot/components."""

    @pecan.expose()
    def _lookup(self, ident, *remainder):
        if list(remainder) == ['report']:
            return ComponentReportController(ident), []
        return None

    @pecan.expose('json')
    def get_all(self, **kwargs):
        params = utils.query(LIST_PARAMS)
        common.authorize_read()
        filters, start_after, page_size = list_filters(params)
        if filters is None:
            return []
        rows = utils.dbapi().list_boot_components(
            filters, limit=page_size, start_after=start_after)
        return [common.component_dict(c, n) for c, n in rows]

    @pecan.expose('json')
    def get_one(self, ident, **kwargs):
        utils.query()
        common.authorize_read()
        return common.component_dict(*common.get_component(ident))

    @pecan.expose('json')
    def patch(self, ident=None, **kwargs):
        """One component (a partial record), or many: an array of records
        with ids, or {"patch": record, "filters": {"ids": "a,b"} or
        {"session": name}}."""
        if ident is None:
            return self._bulk_patch()
        utils.query()
        common.authorize_write()
        body = utils.load_body()
        utils.validate(_COMPONENT_VALIDATOR, body)
        common.get_node(ident)
        component, node = component_writes.patch_component(
            utils.dbapi(), ident, _record_patch(body))
        common.wake('status')
        return common.component_dict(component, node)

    def _bulk_patch(self):
        params = utils.query(['skip_bad_ids'])
        common.authorize_write()
        skip_bad_ids = bool(utils.parse_bool('skip_bad_ids',
                                             params.get('skip_bad_ids')))
        body = utils.load_body(object)
        if isinstance(body, list):
            common.validate_records(_PATCH_VALIDATOR,
                                    schema.COMPONENT_WITH_ID, body)
        elif isinstance(body, dict):
            common.validate_part(_PATCH_VALIDATOR, schema.COMPONENTS_UPDATE,
                                 body)
            filters = body['filters']
            if filters.get('ids') and filters.get('session'):
                raise exception.InvalidParameterValue(
                    err='filters takes ids or session, not both.',
                    field='filters')
            if not filters.get('ids') and not filters.get('session'):
                raise exception.InvalidParameterValue(
                    err='filters needs ids (comma separated) or session.',
                    field='filters')
        else:
            raise exception.InvalidParameterValue(
                err='The request body must be an array of component records '
                    'with ids, or an object with "patch" and "filters".')
        # Every id is checked before anything is written (404 naming the
        # first unknown one, unless skip_bad_ids).
        rows = component_writes.bulk_patch(utils.dbapi(), body,
                                           skip_bad_ids)
        if rows:
            common.wake('status')
        return [common.component_dict(c, n) for c, n in rows]

    @pecan.expose('json')
    def put(self, ident=None, **kwargs):
        """Replace one component's record, or (without an id) several:
        an array of records with ids, all known (404 before any write)."""
        utils.query()
        common.authorize_write()
        db = utils.dbapi()
        if ident is None:
            body = utils.load_body(list)
            common.validate_records(_PUT_VALIDATOR,
                                    schema.COMPONENT_WITH_ID, body)
            _check_known(record['id'] for record in body)
            rows = [component_writes.put_component(db, record['id'],
                                                   _replacement(record))
                    for record in body]
            if rows:
                common.wake('status')
            return [common.component_dict(c, n) for c, n in rows]
        body = utils.load_body()
        utils.validate(_COMPONENT_VALIDATOR, body)
        common.get_node(ident)
        component, node = component_writes.put_component(
            db, ident, _replacement(body))
        common.wake('status')
        return common.component_dict(component, node)
