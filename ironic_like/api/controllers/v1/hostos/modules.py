"""/v1/hostos/modules: the versions of host OS modules (Mirantis's
HostOSConfigurationModules).

Registering a version answers 202 with the module ``verifying``: the
conductor owning the module's name on the hash ring downloads its archive
once, checks its sha256 and its metadata, and makes it ``available``
(or ``deprecated``, or ``error`` with the reason). See
conductor/hostos/modules.py.
"""

import urllib.parse

import pecan
from pecan import rest

from ironic_like.api.controllers.v1.hostos import common
from ironic_like.api.controllers.v1 import utils
from ironic_like.api.schemas import hostos as schema
from ironic_like.api import validation
from ironic_like.common import exception
from ironic_like.common.hostos import semver

LIST_PARAMS = ('name', 'state')

_MODULE_VALIDATOR = validation.make_validator(schema.MODULE_BODY)
_FIELD_VALIDATORS = {name: validation.make_validator(body)
                     for name, body in schema.MODULE_FIELD_BODIES.items()}

# The attributes a module shows (the JSON patch document's).
FIELDS = ('name', 'version', 'url', 'sha256sum', 'description', 'uuid',
          'state', 'error', 'deprecated_by', 'playbook', 'values_schema',
          'archive_size', 'used_by', 'created_at', 'updated_at', 'links')


def _check_url(url):
    try:
        parts = urllib.parse.urlsplit(url)
        host = parts.hostname
    except ValueError as e:
        common.invalid('url', 'not a valid URL: %s' % e)
    if parts.scheme not in ('http', 'https') or not host:
        common.invalid('url', 'the module archive URL must be http or '
                              'https, with a host.')


def _module_values(body):
    """The values of a new module from a POST body (400 naming the
    field)."""
    utils.validate(_MODULE_VALIDATOR, body)
    common.check_name(body['name'])
    semver.check(body['version'], 'version')
    _check_url(body['url'])
    return {'name': body['name'], 'version': body['version'],
            'url': body['url'], 'sha256sum': body['sha256sum'].lower(),
            'description': body.get('description')}


def _verify(module):
    """Have the conductor owning the module verify it now. If no
    conductor takes the cast (none alive, an old one, a message bus
    down), the module stays ``verifying`` and the periodic pass of the
    conductor owning it verifies it (conductor/hostos/reconcile.py): the
    request succeeds anyway."""
    try:
        if not utils.rpcapi().verify_hostos_module(
                utils.context(), module.id, module.name):
            common.LOG.info('No conductor took the verification of module '
                            '%s %s now; the periodic pass verifies it.',
                            module.name, module.version)
    except Exception:
        common.LOG.warning('Could not ask a conductor to verify module %s '
                           '%s; the periodic pass verifies it.',
                           module.name, module.version, exc_info=True)


class ModuleController(rest.RestController):
    """/v1/hostos/modules/{name}: the versions of one module, and
    /{version}: one of them."""

    def __init__(self, name):
        self.name = name

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        common.authorize_read()
        modules = utils.dbapi().list_hostos_modules({'name': self.name})
        if not modules:
            raise exception.HostOSModuleNotFound(
                'Module %s could not be found.' % self.name[:255])
        users = common.module_users()
        return {'modules': [common.module_dict(m, users)
                            for m in common.sort_modules(modules)]}

    @pecan.expose('json')
    def get_one(self, version, **kwargs):
        utils.query()
        common.authorize_read()
        module = common.get_module(self.name, version)
        return common.module_dict(module, common.module_users())

    @pecan.expose('json')
    def patch(self, version=None, **kwargs):
        """JSON patch; only the description may change."""
        common.require(version)
        utils.query()
        common.authorize_write()
        db = utils.dbapi()
        module = common.get_module(self.name, version)
        patch = utils.load_body(list)
        common.check_patch(patch, FIELDS, schema.MODULE_PATCH_FIELDS)
        doc = common.module_dict(module, {})
        patched = common.apply_patch(doc, patch)
        values = {}
        for field in schema.MODULE_PATCH_FIELDS:
            value = patched.get(field)
            utils.validate(_FIELD_VALIDATORS[field], {field: value})
            if value != doc.get(field):
                values[field] = value
        if values:
            module = db.update_hostos_module(module.id, values)
        return common.module_dict(module, common.module_users())

    @pecan.expose('json')
    def delete(self, version=None, **kwargs):
        """204; 409 naming the configurations that use the version."""
        common.require(version)
        utils.query()
        common.authorize_write()
        utils.dbapi().destroy_hostos_module(self.name, version)
        utils.set_status(204)


class ModulesController(rest.RestController):
    """/v1/hostos/modules."""

    @pecan.expose()
    def _lookup(self, name, *remainder):
        return ModuleController(name), list(remainder)

    @pecan.expose('json')
    def get_all(self, **kwargs):
        params = utils.query(LIST_PARAMS)
        common.authorize_read()
        filters = {}
        if params.get('name') is not None:
            filters['name'] = params['name']
        state = params.get('state')
        if state is not None:
            if state not in schema.MODULE_STATES:
                common.invalid('state', 'Invalid module state "%s": use '
                                        'one of %s.'
                               % (state[:40], ', '.join(schema.MODULE_STATES)))
            filters['state'] = state
        modules = utils.dbapi().list_hostos_modules(filters)
        users = common.module_users()
        return {'modules': [common.module_dict(m, users)
                            for m in common.sort_modules(modules)]}

    @pecan.expose('json')
    def post(self, **kwargs):
        """Register a module version: 202, ``verifying``."""
        utils.query()
        common.authorize_write()
        values = _module_values(utils.load_body())
        module = utils.dbapi().create_hostos_module(values)
        _verify(module)
        utils.set_status(202)
        return common.module_dict(module, {})
