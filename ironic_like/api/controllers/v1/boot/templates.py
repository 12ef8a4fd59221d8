"""/v1/boot/sessiontemplates, /v1/boot/sessiontemplatesvalid/{name} and
/v1/boot/sessiontemplatetemplate (BOS v2's session templates).

A template is stored as BOS stores it: the name from the path, boot sets
without their (redundant) name, no empty ``cfs``. PUT and PATCH check the
template without an operation (a template meant for shutdown need not
name artifacts); sessiontemplatesvalid checks it for a boot, the most
demanding operation, as BOS does.
"""

import copy

import pecan
from pecan import rest

from ironic_like.api.controllers.v1.boot import common
from ironic_like.api.controllers.v1 import utils
from ironic_like.api.schemas import boot as schema
from ironic_like.api import validation
from ironic_like.common.boot import options as boot_options
from ironic_like.common.boot import templates as boot_templates
from ironic_like.common import exception
from ironic_like.conductor.boot import records

_TEMPLATE_VALIDATOR = validation.make_validator(schema.TEMPLATE_BODY)
_PATCH_VALIDATOR = validation.make_validator(schema.TEMPLATE_PATCH_BODY)

VALID = 'Valid'

# GET /v1/boot/sessiontemplatetemplate: a template to start from (it can
# be stored as it is, and is valid for a boot).
EXAMPLE_TEMPLATE = {
    'description': 'An example: boot the nodes of group "compute" from a '
                   'boot manifest, and two named nodes from a kernel and '
                   'an initrd.',
    'enable_cfs': False,
    'boot_sets': {
        'compute': {
            'type': 'http',
            'path': 'https://images.example.com/compute/manifest.json',
            'kernel_parameters': 'console=ttyS0,115200',
            'node_groups': ['compute'],
            'arch': 'X86',
        },
        'debug': {
            'kernel': 'https://images.example.com/debug/vmlinuz',
            'initrd': 'https://images.example.com/debug/initrd.img',
            'kernel_parameters': 'console=ttyS0,115200 debug',
            'node_list': ['node-0001', 'node-0002'],
            'arch': 'X86',
        },
    },
}


def render(template):
    doc = records.template_dict(template)
    doc['links'] = [{'href': common.boot_url('sessiontemplates',
                                             template.name),
                     'rel': 'self'}]
    return doc


def _options():
    return boot_options.effective(utils.dbapi().get_boot_options())


def _checked_doc(name, fields):
    """The template ``name`` with ``fields`` (from a body, or a stored
    template merged with a patch): checked (400 naming the field), then
    as stored."""
    doc = {key: copy.deepcopy(value) for key, value in fields.items()
           if key not in schema.TEMPLATE_READ_ONLY}
    if not doc.get('description'):
        # "" reads as no description (records.template_dict gives "").
        doc.pop('description', None)
    if doc.get('cfs') == {}:
        doc.pop('cfs')
    doc['name'] = name
    try:
        boot_templates.check_template(doc, None, _options())
    except boot_templates.TemplateError as e:
        raise exception.InvalidParameterValue(err=str(e), field=e.field)
    for boot_set in doc['boot_sets'].values():
        # Equal to its key (checked): BOS does not store it either.
        boot_set.pop('name', None)
        if not (boot_set.get('cfs') or {}).get('configuration'):
            boot_set.pop('cfs', None)
    return {'description': doc.get('description'),
            'enable_cfs': doc.get('enable_cfs', True),
            'cfs': doc.get('cfs') or {},
            'boot_sets': doc['boot_sets']}


def _merge_boot_sets(current, patch):
    """BOS's merge of a PATCH's boot sets: a new name is added; a known
    one is updated field by field (its cfs merged)."""
    for name, new in patch.items():
        if name not in current:
            current[name] = copy.deepcopy(new)
            continue
        boot_set = current[name]
        new = copy.deepcopy(new)
        if 'cfs' in new:
            boot_set['cfs'] = dict(boot_set.get('cfs') or {}, **new.pop(
                'cfs'))
        boot_set.update(new)


def merge_patch(doc, patch):
    """A stored template (records.template_dict) with a PATCH merged, as
    BOS merges it (update_template_record)."""
    doc = copy.deepcopy(doc)
    patch = copy.deepcopy(patch)
    if 'cfs' in patch:
        doc['cfs'] = dict(doc.get('cfs') or {}, **patch.pop('cfs'))
    if 'boot_sets' in patch:
        boot_sets = doc.get('boot_sets') or {}
        _merge_boot_sets(boot_sets, patch.pop('boot_sets'))
        doc['boot_sets'] = boot_sets
    doc.update(patch)
    return doc


class TemplatesController(rest.RestController):
    """/v1/boot/sessiontemplates."""

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        common.authorize_read()
        return [render(t) for t in utils.dbapi().list_boot_templates()]

    @pecan.expose('json')
    def get_one(self, name, **kwargs):
        utils.query()
        common.authorize_read()
        return render(utils.dbapi().get_boot_template(name))

    @pecan.expose('json')
    def put(self, name=None, **kwargs):
        """Create or replace a template (200, as BOS)."""
        utils.require_ident(name)
        utils.query()
        common.authorize_write()
        common.check_name(name)
        body = utils.load_body()
        utils.validate(_TEMPLATE_VALIDATOR, body)
        values = _checked_doc(name, body)
        values['tenant'] = None
        return render(utils.dbapi().put_boot_template(name, values))

    @pecan.expose('json')
    def patch(self, name=None, **kwargs):
        """Change description, enable_cfs, cfs or boot_sets (merged)."""
        utils.require_ident(name)
        utils.query()
        common.authorize_write()
        db = utils.dbapi()
        template = db.get_boot_template(name)
        body = utils.load_body()
        utils.validate(_PATCH_VALIDATOR, body)
        merged = merge_patch(records.template_dict(template), body)
        values = _checked_doc(name, merged)
        return render(db.update_boot_template(name, values))

    @pecan.expose('json')
    def delete(self, name=None, **kwargs):
        utils.require_ident(name)
        utils.query()
        common.authorize_write()
        utils.dbapi().delete_boot_template(name)
        utils.set_status(204)


def validity(template):
    """BOS's answer of sessiontemplatesvalid: "Valid", else the errors
    (or, with none, the warnings) as one string."""
    doc = records.template_dict(template)
    if not doc.get('description'):
        doc.pop('description', None)
    errors, warnings = boot_templates.validate_template(doc, 'boot',
                                                        _options())
    return '; '.join(errors or warnings) or VALID


class TemplateValidController(rest.RestController):
    """/v1/boot/sessiontemplatesvalid/{name}."""

    @pecan.expose('json')
    def get_one(self, name, **kwargs):
        utils.query()
        common.authorize_read()
        return validity(utils.dbapi().get_boot_template(name))


class ExampleTemplateController(rest.RestController):
    """/v1/boot/sessiontemplatetemplate."""

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        common.authorize_read()
        return copy.deepcopy(EXAMPLE_TEMPLATE)
