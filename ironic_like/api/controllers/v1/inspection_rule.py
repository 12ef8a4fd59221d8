"""/v1/inspection_rules (Ironic's API 1.96).

Rules are plain data the API writes itself; conductors read them at each
inspection (conductor/inspection_rules.py), with the built-in rules of
[inspection_rules]built_in_rules. A rule is named by its UUID only.
DELETE on the collection removes every stored rule (Ironic's "Delete All
Inspection Rules", 1.96); the built-in ones, read from their file, stay.

The body's shape is checked by JSON schema; each condition's and
action's arguments by the rules engine, which names the faulty one.
"""

from oslo_log import log
from oslo_utils import uuidutils
import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import collection
from ironic_like.api.controllers.v1 import utils
from ironic_like.api import links
from ironic_like.api import patching
from ironic_like.api.schemas import inspection_rule as schema
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.api.views import base as view_base
from ironic_like.api.views import inspection_rule as rule_view
from ironic_like.common import exception
from ironic_like.common.inspection_rules import validation as rule_checks
from ironic_like.common import policy
from ironic_like.db.sqlalchemy import inspection_rules as rules_db

LOG = log.getLogger(__name__)

LIST_PARAMS = utils.PAGING_PARAMS + ('fields', 'detail', 'phase')
DEFAULTS = {'description': None, 'priority': 0, 'sensitive': False,
            'phase': 'main', 'conditions': []}
_STORED = tuple(DEFAULTS) + ('actions',)

_CREATE_VALIDATOR = validation.make_validator(schema.CREATE_BODY)
_FIELD_VALIDATORS = {name: validation.make_validator(body)
                     for name, body in schema.FIELD_BODIES.items()}


def _available():
    utils.unavailable_below(versions.INSPECTION_RULES)


def _authorize(rule):
    policy.authorize(rule, {}, utils.context())


def _get_rule(ident):
    if not uuidutils.is_uuid_like(ident):
        raise exception.InvalidUUID(uuid=ident)
    return utils.dbapi().get_inspection_rule_by_uuid(ident)


def _render(rule, fields=None):
    view = rule_view.view(utils.version(), utils.public_url(), fields)
    return view.render(rule)


def _checked(values):
    """The stored form of a rule's values, checked whole by the engine
    (400 naming the faulty condition or action). Null is the default."""
    rule = {name: DEFAULTS[name] if values.get(name) is None
            else values[name] for name in DEFAULTS}
    rule['actions'] = values.get('actions')
    rule['priority'] = int(rule['priority'])
    checked = rule_checks.validate_rule(rule)
    return {name: checked[name] for name in _STORED}


def _list():
    _available()
    params = utils.query(LIST_PARAMS)
    _authorize('baremetal:inspection_rule:get')
    fields = view_base.parse_fields(utils.fields_param(params))
    detail = utils.parse_detail(params, False)
    # Refuse unknown fields before any query.
    view = rule_view.view(utils.version(), utils.public_url(),
                          fields=fields, detail=detail)
    limit, sort_key, sort_dir, marker = utils.parse_page(
        params, rules_db.INSPECTION_RULE_SORT_KEYS)
    filters = {}
    if params.get('phase'):
        filters['phase'] = params['phase']
    found = utils.dbapi().get_inspection_rule_list(
        filters=filters, limit=limit, marker=marker, sort_key=sort_key,
        sort_dir=sort_dir)
    items = [view.render(r) for r in found]
    last = found[-1].uuid if found else None
    return collection.list_body('inspection_rules', items, limit,
                                'inspection_rules', last, params)


class InspectionRulesController(rest.RestController):
    # No /detail path: Ironic's rules have only ?detail=true.

    @pecan.expose('json')
    def get_all(self, **kwargs):
        return _list()

    @pecan.expose('json')
    def get_one(self, ident, **kwargs):
        _available()
        params = utils.query(['fields'])
        _authorize('baremetal:inspection_rule:get')
        fields = view_base.parse_fields(utils.fields_param(params))
        return _render(_get_rule(ident), fields)

    @pecan.expose('json')
    def post(self, **kwargs):
        _available()
        utils.query()
        _authorize('baremetal:inspection_rule:create')
        body = utils.load_body()
        utils.check_body_fields(body, schema.CREATE_FIELDS,
                                rule_view.FIELDS, 'inspection rule')
        utils.validate(_CREATE_VALIDATOR, body, string_booleans=True)
        values = _checked(body)
        if body.get('uuid'):
            values['uuid'] = body['uuid']
        rule = utils.dbapi().create_inspection_rule(values)
        utils.set_status(201)
        utils.set_location(links.build_url(
            utils.public_url(), 'inspection_rules/%s' % rule.uuid))
        return _render(rule)

    @pecan.expose('json')
    def patch(self, ident=None, **kwargs):
        _available()
        utils.require_ident(ident)
        utils.query()
        _authorize('baremetal:inspection_rule:update')
        rule = _get_rule(ident)
        patch = utils.load_body(list)
        patching.check(patch, rule_view.FIELDS, utils.version(),
                       schema.PATCH_FIELDS, mandatory=schema.MANDATORY)
        before = {name: getattr(rule, name) for name in _STORED}
        after = patching.apply(before, patch)
        changes = patching.changes(before, after, DEFAULTS)
        for name, value in changes.items():
            utils.validate(_FIELD_VALIDATORS[name], {name: value},
                           string_booleans=True)
        if rule.sensitive and changes.get('sensitive') is False:
            raise exception.InvalidParameterValue(
                err='Inspection rules cannot have the sensitive flag '
                    'unset.', field='sensitive')
        if changes:
            merged = dict(before, **changes)
            values = _checked(merged)
            values = {k: v for k, v in values.items() if k in changes}
            rule = utils.dbapi().update_inspection_rule(rule.id, values)
        return _render(rule)

    @pecan.expose('json')
    def delete(self, ident=None, **kwargs):
        _available()
        utils.query()
        # One policy for one rule and for all of them, as Ironic's.
        _authorize('baremetal:inspection_rule:delete')
        if ident is None:
            _delete_all()
        else:
            rule = _get_rule(ident)
            utils.dbapi().destroy_inspection_rule(rule.id)
        utils.set_status(204)


def _delete_all():
    count = utils.dbapi().destroy_all_inspection_rules()
    # Logged: a single request may remove every rule operators wrote.
    LOG.info('Deleted all stored inspection rules (%d)', count)
