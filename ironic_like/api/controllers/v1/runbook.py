"""/v1/runbooks (Ironic's API 1.92), and the runbook of a clean or
service request.

A runbook is a named list of clean or service steps. Like a deploy
template it is plain data the API writes itself. A node may be cleaned or
serviced with a runbook whose name is one of the node's traits (an
operator approves a runbook for a node by giving it the trait); the
steps are read when the request is made, so a later change to the
runbook never alters work already started.

Owners as in Ironic: a project's runbooks are its own (its managers
change, delete and use them); a runbook without owner belongs to the
operators, and is offered to every project when public.
"""

from oslo_utils import uuidutils
import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import collection
from ironic_like.api.controllers.v1 import deploy_template
from ironic_like.api.controllers.v1 import utils
from ironic_like.api import links
from ironic_like.api import patching
from ironic_like.api.schemas import runbook as schema
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.api.views import base as view_base
from ironic_like.api.views import runbook as runbook_view
from ironic_like.common import exception
from ironic_like.common import policy
from ironic_like.db.sqlalchemy import runbooks as runbooks_db

LIST_PARAMS = utils.PAGING_PARAMS + ('fields', 'detail', 'project')
# Stored forms: extra an empty dict, the flags false, not null.
_normalize = utils.Normalizer(schema.FIELDS, ['extra'],
                              {'disable_ramdisk': bool, 'public': bool})
DEFAULTS = dict(_normalize.defaults, disable_ramdisk=False, public=False)
# A PATCH on these paths needs its own rule (and only it, when the patch
# touches nothing else), as Ironic's.
_PATH_RULES = (('/owner', 'baremetal:runbook:update:owner'),
               ('/public', 'baremetal:runbook:update:public'))
# The targets a runbook may be given with.
RUNBOOK_EVENTS = ('clean', 'service')

_CREATE_VALIDATOR = validation.make_validator(schema.CREATE_BODY)
_FIELD_VALIDATORS = {name: validation.make_validator(body)
                     for name, body in schema.FIELD_BODIES.items()}
_TRAITS_VALIDATOR = validation.make_validator(schema.TRAITS_BODY)


def _check_name(name):
    """Below 1.112 a runbook's name is the trait it is approved for:
    it must be one (400), as Ironic's schema of those versions says."""
    if name is None or utils.allowed(versions.RUNBOOK_TRAITS):
        return
    if not validation.is_trait(name):
        raise exception.InvalidParameterValue(
            err='Invalid input for field/attribute name. Value: "%s". '
                'Below API version %s a runbook name must be a trait '
                '(CUSTOM_... or a standard trait).'
                % (name, versions.to_string(versions.RUNBOOK_TRAITS)),
            field='name')


def _available():
    utils.unavailable_below(versions.RUNBOOKS)


def get_runbook(ident):
    """By UUID or name; 404 if there is none."""
    db = utils.dbapi()
    if uuidutils.is_uuid_like(ident):
        return db.get_runbook_by_uuid(ident)
    if not validation.is_logical_name(ident):
        raise exception.InvalidUuidOrName(name=ident)
    return utils.by_name(db.get_runbook_by_name, ident)


def _authorize(rule, runbook):
    policy.authorize(rule, policy.runbook_target(runbook), utils.context())


def authorized_runbook(ident, rule):
    runbook = get_runbook(ident)
    _authorize(rule, runbook)
    return runbook


def _render(runbook, fields=None):
    view = runbook_view.view(utils.version(), utils.public_url(), fields)
    return view.render(runbook)


def _normalize_steps(steps):
    return deploy_template.normalize_steps(
        steps, what='A runbook', rank='order', kind='runbook')


def _project_scoped(ctx):
    return getattr(ctx, 'system_scope', None) != 'all'


def _create_owner(ctx, values):
    """A project-scoped creator's runbook is its project's, and never
    public (400 otherwise), as Ironic decides."""
    if not _project_scoped(ctx):
        return
    project = getattr(ctx, 'project_id', None)
    owner = values.get('owner')
    if owner and owner != project:
        raise exception.InvalidParameterValue(
            err='Cannot create a runbook as a project scoped admin with '
                'an owner other than your own project.', field='owner')
    if project and values.get('public'):
        raise exception.InvalidParameterValue(
            err='Cannot create a public runbook as a project scoped '
                'admin.', field='public')
    values['owner'] = project


def _patch_rules(patch):
    """The rules a PATCH needs: the owner and public rules for those
    paths, the update rule for anything else (or when none applies)."""
    rules = []
    generic = False
    for op in patch:
        path = str(op.get('path', '')) if isinstance(op, dict) else ''
        for prefix, rule in _PATH_RULES:
            if path.startswith(prefix):
                if rule not in rules:
                    rules.append(rule)
                break
        else:
            generic = True
    if generic or not rules:
        rules.append('baremetal:runbook:update')
    return rules


def _step_docs(runbook):
    # The stored steps as a PATCH sees them (arguments unmasked: a PATCH
    # of one step keeps the others' real arguments).
    return [{'interface': s.interface, 'step': s.step,
             'args': dict(s.args or {}), 'order': s.order}
            for s in runbook.steps]


def _check_owner_change(runbook, changes):
    """No owner for a public runbook (400), as Ironic."""
    public = changes.get('public', runbook.public)
    owner = changes.get('owner', runbook.owner)
    if public and owner:
        raise exception.InvalidParameterValue(
            err='There cannot be an owner for a public runbook',
            field='owner')


def _list():
    _available()
    params = utils.query(LIST_PARAMS)
    ctx = utils.context()
    policy.authorize('baremetal:runbook:list', {}, ctx)
    fields = view_base.parse_fields(utils.fields_param(params))
    detail = utils.parse_detail(params, False)
    # Refuse unknown fields before any query.
    view = runbook_view.view(utils.version(), utils.public_url(),
                             fields=fields, detail=detail)
    project = params.get('project')
    if not policy.check('baremetal:runbook:list_all', {}, ctx):
        own = getattr(ctx, 'project_id', None)
        if not own or (project and project != own):
            raise exception.HTTPForbidden(
                resource='baremetal:runbook:list_all')
        project = own
    limit, sort_key, sort_dir, marker = utils.parse_page(
        params, runbooks_db.RUNBOOK_SORT_KEYS)
    found = utils.dbapi().get_runbook_list(
        limit=limit, marker=marker, sort_key=sort_key, sort_dir=sort_dir,
        project=project)
    items = [view.render(r) for r in found]
    last = found[-1].uuid if found else None
    return collection.list_body('runbooks', items, limit, 'runbooks', last,
                                params)


class RunbookTraitsController(rest.RestController):
    """/v1/runbooks/{id}/traits[/{trait}] (1.112): the node traits the
    runbook is approved for."""

    def __init__(self, ident):
        self.ident = ident

    def _runbook(self, rule):
        utils.hide_below(versions.RUNBOOK_TRAITS)
        utils.query()
        return authorized_runbook(self.ident, rule)

    @pecan.expose('json')
    def get_all(self, **kwargs):
        runbook = self._runbook('baremetal:runbook:get')
        return {'traits': [t.trait for t in runbook.traits]}

    @pecan.expose('json')
    def put(self, trait=None, **kwargs):
        runbook = self._runbook('baremetal:runbook:update')
        db = utils.dbapi()
        if trait is None:
            body = utils.validate(_TRAITS_VALIDATOR, utils.load_body())
            db.set_runbook_traits(runbook.id, body['traits'])
        else:
            if pecan.request.body:
                raise exception.InvalidParameterValue(
                    err='No body should be provided when adding a trait',
                    field='trait')
            if not validation.is_trait(trait):
                raise exception.InvalidParameterValue(
                    err='Invalid trait "%s": use CUSTOM_ and upper case '
                        'letters, digits and underscores, or a standard '
                        'trait.' % trait, field='trait')
            db.add_runbook_trait(runbook.id, trait)
            utils.set_location(links.build_url(
                utils.public_url(), 'runbooks/%s/traits/%s'
                % (self.ident, trait)))
        utils.set_status(204)

    @pecan.expose('json')
    def delete(self, trait=None, **kwargs):
        runbook = self._runbook('baremetal:runbook:update')
        db = utils.dbapi()
        if trait is None:
            db.set_runbook_traits(runbook.id, [])
        else:
            # Removing a trait the runbook lacks changes nothing (Ironic).
            db.remove_runbook_trait(runbook.id, trait)
        utils.set_status(204)


class RunbooksController(rest.RestController):
    # No /detail path: Ironic's runbooks have only ?detail=true.

    @pecan.expose()
    def _lookup(self, ident, *remainder):
        if remainder and remainder[0] == 'traits':
            return RunbookTraitsController(ident), remainder[1:]
        return None

    @pecan.expose('json')
    def get_all(self, **kwargs):
        return _list()

    @pecan.expose('json')
    def get_one(self, ident, **kwargs):
        _available()
        params = utils.query(['fields'])
        fields = view_base.parse_fields(utils.fields_param(params))
        runbook = get_runbook(ident)
        if not policy.check('baremetal:runbook:get',
                            policy.runbook_target(runbook),
                            utils.context()) and not runbook.public:
            raise exception.HTTPForbidden(resource='baremetal:runbook:get')
        return _render(runbook, fields)

    @pecan.expose('json')
    def post(self, **kwargs):
        _available()
        utils.query()
        ctx = utils.context()
        policy.authorize('baremetal:runbook:create', {}, ctx)
        body = utils.load_body()
        utils.check_body_fields(body, schema.CREATE_FIELDS,
                                runbook_view.FIELDS, 'runbook')
        utils.validate(_CREATE_VALIDATOR, body, string_booleans=True)
        _check_name(body['name'])
        values = _normalize(dict(body))
        if values.get('uuid') is None:
            values.pop('uuid', None)
        values['steps'] = _normalize_steps(values['steps'])
        if not utils.allowed(versions.RUNBOOK_TRAITS):
            # Used by the trait its name is, as before 1.112; from 1.112
            # traits are added through /traits.
            values['traits'] = [values['name']]
        _create_owner(ctx, values)
        runbook = utils.dbapi().create_runbook(values)
        utils.set_status(201)
        utils.set_location(links.build_url(
            utils.public_url(), 'runbooks/%s' % runbook.uuid))
        return _render(runbook)

    @pecan.expose('json')
    def patch(self, ident=None, **kwargs):
        _available()
        utils.require_ident(ident)
        utils.query()
        runbook = get_runbook(ident)
        patch = utils.load_body(list)
        patching.check(patch, runbook_view.FIELDS, utils.version(),
                       schema.PATCH_FIELDS, mandatory=schema.MANDATORY)
        for rule in _patch_rules(patch):
            _authorize(rule, runbook)
        before = {'name': runbook.name, 'extra': runbook.extra or {},
                  'steps': _step_docs(runbook),
                  'disable_ramdisk': runbook.disable_ramdisk,
                  'public': runbook.public, 'owner': runbook.owner,
                  'description': runbook.description}
        after = patching.apply(before, patch)
        changes = patching.changes(before, after, DEFAULTS)
        for name, value in changes.items():
            utils.validate(_FIELD_VALIDATORS[name], {name: value},
                           string_booleans=True)
        _check_name(changes.get('name'))
        values = _normalize(changes)
        if 'public' in values:
            # Made public (or private again): the runbook is the
            # operators' unless the same patch names an owner, as Ironic.
            values.setdefault('owner', None)
        _check_owner_change(runbook, values)
        if 'steps' in values:
            values['steps'] = _normalize_steps(values['steps'])
        if values:
            runbook = utils.dbapi().update_runbook(runbook.id, values)
        return _render(runbook)

    @pecan.expose('json')
    def delete(self, ident=None, **kwargs):
        _available()
        utils.require_ident(ident)
        utils.query()
        runbook = authorized_runbook(ident, 'baremetal:runbook:delete')
        utils.dbapi().destroy_runbook(runbook.id)
        utils.set_status(204)


def steps_for_node(node, event, ident):
    """The steps (in order, as a clean or service request carries them)
    and the disable_ramdisk flag of runbook ``ident`` used on ``node``.

    Checked as Ironic checks: the version (406), the target (400), the
    runbook's use rule (403), and the node's traits, which must include
    the runbook's name (400).
    """
    utils.require_version(versions.RUNBOOKS, '"runbook"')
    if event not in RUNBOOK_EVENTS:
        raise exception.InvalidParameterValue(
            err='"runbook" is only valid when setting target provision '
                'state to any of %s' % ', '.join(RUNBOOK_EVENTS),
            field='runbook')
    runbook = authorized_runbook(ident, 'baremetal:runbook:use')
    node_traits = {t.trait for t in node.traits}
    if utils.allowed(versions.RUNBOOK_TRAITS):
        # 1.112: one of the runbook's traits on the node.
        runbook_traits = sorted(t.trait for t in runbook.traits)
        if not runbook_traits:
            raise exception.InvalidParameterValue(
                err='Runbook %s has no traits configured. Please ask an '
                    'administrator to add traits to the runbook.'
                % runbook.uuid, field='runbook')
        if not node_traits & set(runbook_traits):
            raise exception.InvalidParameterValue(
                err='This runbook has not been approved for use on this '
                    'node %s. The node does not have any of the runbook\'s '
                    'traits %s. Please ask an administrator to add a '
                    'matching trait to your node.'
                    % (node.uuid, runbook_traits), field='runbook')
    elif runbook.name not in node_traits:
        raise exception.InvalidParameterValue(
            err='This runbook has not been approved for use on this node '
                '%s. Please ask an administrator to add it to your node '
                'traits.' % node.uuid, field='runbook')
    ordered = sorted(runbook.steps, key=lambda s: (s.order, s.id))
    steps = [{'interface': s.interface, 'step': s.step,
              'args': dict(s.args or {})} for s in ordered]
    return steps, bool(runbook.disable_ramdisk)
