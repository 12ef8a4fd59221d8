"""/v1/deploy_templates (Ironic's API 1.55).

A deploy template is plain data, tied to no conductor, so the API writes
it to the database itself, as Ironic's API does. Conductors read the
templates when a deploy starts (conductor/deploy_templates.py): a change
applies to the next deploys, never to one already running.
"""

from oslo_utils import uuidutils
import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import collection
from ironic_like.api.controllers.v1 import utils
from ironic_like.api import links
from ironic_like.api import patching
from ironic_like.api.schemas import deploy_template as schema
from ironic_like.api import validation
from ironic_like.api.views import base as view_base
from ironic_like.api.views import deploy_template as template_view
from ironic_like.common import exception
from ironic_like.common import policy
from ironic_like.common import step_names
from ironic_like.db.sqlalchemy import deploy_templates as templates_db

LIST_PARAMS = utils.PAGING_PARAMS + ('fields', 'detail')
# Stored form of extra: an empty dict, not null.
_normalize = utils.Normalizer(schema.FIELDS, ['extra'])
# What a field removed by a PATCH becomes (name and steps cannot be).
DEFAULTS = _normalize.defaults
MANDATORY = ('name', 'steps')

_CREATE_VALIDATOR = validation.make_validator(schema.CREATE_BODY)
_FIELD_VALIDATORS = {name: validation.make_validator(body)
                     for name, body in schema.FIELD_BODIES.items()}


def _authorize(rule):
    policy.authorize(rule, {}, utils.context())


def get_template(ident):
    """By UUID or name; 404 if there is none."""
    db = utils.dbapi()
    if uuidutils.is_uuid_like(ident):
        return db.get_deploy_template_by_uuid(ident)
    return utils.by_name(db.get_deploy_template_by_name, ident)


def _render(template, fields=None):
    view = template_view.view(utils.version(), utils.public_url(), fields)
    return view.render(template)


def normalize_steps(steps, field='steps', what='A deploy template',
                    rank='priority', kind='deploy'):
    """The stored form of validated steps: an integer ``rank`` (a deploy
    step's priority, a runbook step's order), and no two steps of the
    same interface and name (which one would run?). Shared with the
    deploy_steps of a deploy request (1.69) and runbooks (1.92)."""
    result = []
    seen = set()
    duplicates = []
    for step in steps:
        key = (step['interface'], step['step'])
        if key in seen:
            duplicates.append('%s.%s' % key)
        seen.add(key)
        doc = {'interface': step['interface'], 'step': step['step'],
               'args': step.get('args') or {}, rank: int(step[rank])}
        # Only a deploy request's schema lets these options through
        # (schemas/node.py DEPLOY_STEP): kept for the conductor.
        for option in step_names.CHILD_OPTIONS:
            if option in step:
                doc[option] = step[option]
        result.append(doc)
    if duplicates:
        raise exception.InvalidParameterValue(
            err='Duplicate %s steps. %s cannot have two %s steps '
                'with the same interface and step. Duplicate steps: %s'
                % (kind, what, kind, ', '.join(sorted(set(duplicates)))),
            field=field)
    return result


def check_reserved_steps(steps, field='steps'):
    """The rules of the steps the conductor runs itself (reserved names,
    common/step_names.py), 400 naming ``field``: a template's "wait"
    with seconds that are no whole number would fail every deploy using
    it. The child-node options never get here: Ironic's deploy step
    schema refuses them in templates (400 naming the option)."""
    for step in steps:
        step_names.check(step, field)


def _list():
    utils.hide_below(template_view.DEPLOY_TEMPLATES)
    params = utils.query(LIST_PARAMS)
    _authorize('baremetal:deploy_template:get')
    fields = view_base.parse_fields(utils.fields_param(params))
    detail = utils.parse_detail(params, False)
    # Refuse unknown fields before any query.
    view = template_view.view(utils.version(), utils.public_url(),
                              fields=fields, detail=detail)
    limit, sort_key, sort_dir, marker = utils.parse_page(
        params, templates_db.DEPLOY_TEMPLATE_SORT_KEYS)
    found = utils.dbapi().get_deploy_template_list(
        limit=limit, marker=marker, sort_key=sort_key, sort_dir=sort_dir)
    items = [view.render(t) for t in found]
    last = found[-1].uuid if found else None
    return collection.list_body('deploy_templates', items, limit,
                                'deploy_templates', last, params)


class DeployTemplatesController(rest.RestController):
    # No /detail path: Ironic's deploy templates have only ?detail=true.

    @pecan.expose('json')
    def get_all(self, **kwargs):
        return _list()

    @pecan.expose('json')
    def get_one(self, ident, **kwargs):
        utils.hide_below(template_view.DEPLOY_TEMPLATES)
        params = utils.query(['fields'])
        _authorize('baremetal:deploy_template:get')
        fields = view_base.parse_fields(utils.fields_param(params))
        return _render(get_template(ident), fields)

    @pecan.expose('json')
    def post(self, **kwargs):
        utils.hide_below(template_view.DEPLOY_TEMPLATES)
        utils.query()
        _authorize('baremetal:deploy_template:create')
        body = utils.load_body()
        utils.check_body_fields(body, schema.CREATE_FIELDS,
                                template_view.FIELDS, 'deploy template')
        utils.validate(_CREATE_VALIDATOR, body)
        values = _normalize(dict(body))
        if values.get('uuid') is None:
            values.pop('uuid', None)
        values['steps'] = normalize_steps(values['steps'])
        check_reserved_steps(values['steps'])
        template = utils.dbapi().create_deploy_template(values)
        utils.set_status(201)
        utils.set_location(links.build_url(
            utils.public_url(), 'deploy_templates/%s' % template.uuid))
        return _render(template)

    @pecan.expose('json')
    def patch(self, ident=None, **kwargs):
        utils.hide_below(template_view.DEPLOY_TEMPLATES)
        utils.require_ident(ident)
        utils.query()
        _authorize('baremetal:deploy_template:update')
        template = get_template(ident)
        patch = utils.load_body(list)
        writable = schema.PATCH_FIELDS
        patching.check(patch, template_view.FIELDS, utils.version(),
                       writable, mandatory=MANDATORY)
        before = {'name': template.name, 'extra': template.extra or {},
                  'steps': [template_view.step_doc(s)
                            for s in template.steps]}
        after = patching.apply(before, patch)
        changes = patching.changes(before, after, DEFAULTS)
        for name, value in changes.items():
            utils.validate(_FIELD_VALIDATORS[name], {name: value})
        values = _normalize(changes)
        if 'steps' in values:
            values['steps'] = normalize_steps(values['steps'])
            check_reserved_steps(values['steps'])
        if values:
            template = utils.dbapi().update_deploy_template(template.id,
                                                            values)
        return _render(template)

    @pecan.expose('json')
    def delete(self, ident=None, **kwargs):
        utils.hide_below(template_view.DEPLOY_TEMPLATES)
        utils.require_ident(ident)
        utils.query()
        _authorize('baremetal:deploy_template:delete')
        template = get_template(ident)
        utils.dbapi().destroy_deploy_template(template.id)
        utils.set_status(204)
