"""``openstack baremetal boot template ...``: session templates.

A session template names what to boot (per boot set: a boot manifest, or
kernel and initrd URLs, and kernel parameters) and on which nodes (node
names, groups, roles); sessions are created from one.
"""

import re

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import common
from ironic_like.osc.v1 import boot

COLLECTION = 'sessiontemplates'
# Fields the server sets itself: dropped from a --file body, so the output
# of "template show -f json" can be sent back.
READ_ONLY = ('name', 'tenant', 'links')

# Keys of --boot-set: option key -> (boot set field, is a list).
BOOT_SET_KEYS = {
    'name': ('name', False),
    'kernel': ('kernel', False),
    'initrd': ('initrd', False),
    'path': ('path', False),
    'type': ('type', False),
    'kernel-parameters': ('kernel_parameters', False),
    'arch': ('arch', False),
    'configuration': ('configuration', False),
    'node': ('node_list', True),
    'node-list': ('node_list', True),
    'node-group': ('node_groups', True),
    'node-groups': ('node_groups', True),
    'role': ('node_roles_groups', True),
    'node-roles-group': ('node_roles_groups', True),
    'node-roles-groups': ('node_roles_groups', True),
}
# A comma starts a new item before KEY=; an unknown KEY right after
# kernel-parameters belongs to them (console=ttyS0,115200,ip=dhcp).
_SPLIT_RE = re.compile(r',(?=[A-Za-z][-_A-Za-z0-9]*=)')
_PARAMETERS = 'kernel_parameters'


def parse_boot_set(text):
    """The boot set of a ``--boot-set`` value:
    ``name=N,kernel=URL,initrd=URL,node-group=G[,node=X...]``."""
    boot_set = {}
    previous = None
    for item in _SPLIT_RE.split(text):
        key, sep, value = item.partition('=')
        key = key.strip().replace('_', '-')
        if key not in BOOT_SET_KEYS and previous == _PARAMETERS and sep:
            boot_set[_PARAMETERS] += ',' + item
            continue
        if not sep or key not in BOOT_SET_KEYS:
            raise osc_exc.CommandError(
                'Invalid --boot-set item "%s": use KEY=VALUE with KEY one '
                'of %s.' % (item, ', '.join(sorted(BOOT_SET_KEYS))))
        field, is_list = BOOT_SET_KEYS[key]
        previous = field
        if field == 'configuration':
            boot_set['cfs'] = {'configuration': value}
        elif is_list:
            boot_set.setdefault(field, []).append(value)
        else:
            boot_set[field] = value
    if not boot_set.get('name'):
        raise osc_exc.CommandError('--boot-set "%s" needs name=<name>.'
                                   % text)
    return boot_set


def add_field_options(parser, verb):
    parser.add_argument('--file', metavar='<file>',
                        help='JSON file of the template\'s fields '
                             '(description, enable_cfs, cfs, boot_sets; '
                             '"-" for standard input). The options below '
                             'override it.')
    parser.add_argument('--description', metavar='<description>',
                        help='%s the description.' % verb)
    cfs = parser.add_mutually_exclusive_group()
    cfs.add_argument('--enable-cfs', dest='enable_cfs', action='store_true',
                     default=None,
                     help='Configure the booted nodes (enable_cfs true).')
    cfs.add_argument('--disable-cfs', dest='enable_cfs',
                     action='store_false',
                     help='Do not configure the booted nodes.')
    parser.add_argument('--configuration', metavar='<configuration>',
                        help='%s the configuration of every boot set '
                             'without its own (cfs.configuration).' % verb)


def read_file(parsed_args):
    """The JSON object of --file ({} without it)."""
    if not parsed_args.file:
        return {}
    return boot.read_json_file(parsed_args.file)


def template_body(parsed_args, file_doc):
    """Fields of the template given by --file (``file_doc``) and the
    options."""
    body = {k: v for k, v in file_doc.items() if k not in READ_ONLY}
    if parsed_args.description is not None:
        body['description'] = parsed_args.description
    if parsed_args.enable_cfs is not None:
        body['enable_cfs'] = parsed_args.enable_cfs
    if parsed_args.configuration is not None:
        body['cfs'] = {'configuration': parsed_args.configuration}
    for text in getattr(parsed_args, 'boot_sets', None) or ():
        boot_set = parse_boot_set(text)
        body.setdefault('boot_sets', {})[boot_set['name']] = boot_set
    return body


class TemplateCommand(boot.BootMixin):

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('template', metavar='<template>',
                            help='Name of the session template.')
        return parser

    def path(self, name):
        return boot.path(COLLECTION, name)


class ListBootTemplate(boot.BootMixin, command.Lister):
    """List session templates."""

    FIELDS = ('name', 'description', 'enable_cfs', 'cfs.configuration')
    TITLES = ('Name', 'Description', 'Enable CFS', 'Configuration',
              'Boot Sets')

    def take_action(self, parsed_args):
        items = self.boot.list(COLLECTION)
        return self.TITLES, [
            row + (common.formatted(sorted(item.get('boot_sets') or {})),)
            for item, row in zip(items, boot.rows(items, self.FIELDS))]


class ShowBootTemplate(TemplateCommand, command.ShowOne):
    """Show a session template."""

    def take_action(self, parsed_args):
        return common.show(self.boot.get(self.path(parsed_args.template)))


class CreateBootTemplate(boot.BootMixin, command.ShowOne):
    """Create (or replace) a session template."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('template', metavar='<template>', nargs='?',
                            help='Name of the session template (default: '
                                 'the "name" in --file).')
        add_field_options(parser, 'Set')
        parser.add_argument(
            '--boot-set', dest='boot_sets', action='append',
            metavar='name=<name>,kernel=<url>,initrd=<url>,...',
            help='A boot set (repeatable). Keys: name (required); kernel '
                 'and initrd URLs, or path and type (a boot manifest); '
                 'kernel-parameters; the nodes: node, node-group, role '
                 '(Role or Role_SubRole), each repeatable; arch; '
                 'configuration. kernel-parameters may hold commas.')
        return parser

    def take_action(self, parsed_args):
        file_doc = read_file(parsed_args)
        name = parsed_args.template or file_doc.get('name')
        if not name:
            raise osc_exc.CommandError('Give the name of the template.')
        body = template_body(parsed_args, file_doc)
        if not body.get('boot_sets'):
            raise osc_exc.CommandError(
                'A template needs boot sets: give --boot-set or --file.')
        doc = self.boot.put(boot.path(COLLECTION, name), body)
        return common.show(doc or body)


class SetBootTemplate(TemplateCommand, command.Command):
    """Change a session template (description, CFS, boot sets)."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        add_field_options(parser, 'New')
        return parser

    def take_action(self, parsed_args):
        body = template_body(parsed_args, read_file(parsed_args))
        if not body:
            raise osc_exc.CommandError(
                'Nothing to set: give --description, --enable-cfs, '
                '--disable-cfs, --configuration or --file.')
        self.boot.patch(self.path(parsed_args.template), body)


class DeleteBootTemplate(boot.BootMixin, command.Command):
    """Delete session templates."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('templates', nargs='+', metavar='<template>',
                            help='Names of the session templates.')
        return parser

    def take_action(self, parsed_args):
        common.delete_each(
            parsed_args.templates,
            lambda name: self.boot.delete(boot.path(COLLECTION, name)),
            'session template', out=self.app.stdout)


class ValidateBootTemplate(TemplateCommand, command.Command):
    """Validate a session template: print "Valid" or the problems (exit
    status 1 then)."""

    def take_action(self, parsed_args):
        result = self.boot.get(boot.path('sessiontemplatesvalid',
                                         parsed_args.template))
        text = result if isinstance(result, str) else str(result)
        self.app.stdout.write(text.rstrip('\n') + '\n')
        return 0 if text.strip() == 'Valid' else 1
