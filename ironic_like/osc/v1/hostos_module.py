"""``openstack baremetal hostos module ...``: host OS configuration
modules, each version an Ansible playbook archive the service downloads
once and verifies (state ``verifying``, then ``available`` or ``error``).

A module version is named by two arguments, ``<name> <version>`` (the
version is positional: OpenStackClient takes ``--version`` anywhere on the
command line as its own).
"""

import re

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import boot
from ironic_like.osc.v1 import hostos

COLLECTION = 'modules'
MODULE_STATES = ('verifying', 'available', 'deprecated', 'error')
SHORT_FIELDS = ('name', 'version', 'state', 'deprecated_by', 'used_by',
                'description')
LONG_FIELDS = SHORT_FIELDS + ('error', 'url', 'sha256sum', 'playbook',
                              'archive_size', 'values_schema', 'uuid',
                              'created_at', 'updated_at')
# Titles that common.label() gets wrong.
_TITLES = {'url': 'URL', 'sha256sum': 'SHA256'}
_SHA256_RE = re.compile(r'^[0-9a-fA-F]{64}$')


def module_path(name, version):
    return boot.path(COLLECTION, name, version)


def sha256_arg(value):
    if not _SHA256_RE.match(value or ''):
        raise osc_exc.CommandError(
            'Invalid --sha256sum "%s": give the 64 hexadecimal digits of '
            'the archive\'s SHA-256.' % value)
    return value.lower()


def add_module_arguments(parser):
    parser.add_argument('name', metavar='<name>',
                        help='Name of the module.')
    parser.add_argument('module_version', metavar='<version>',
                        help='Version of the module (SemVer).')


def verification_check(name, version):
    """The check of wait_for: done unless ``verifying``; a module in
    ``error`` fails with its error text."""
    def check(module):
        state = module.get('state')
        if state == 'verifying':
            return False
        if state == 'error':
            raise osc_exc.CommandError(
                'Module %s version %s failed verification: %s'
                % (name, version, http.one_line(module.get('error')
                                                or 'no error given')))
        return True
    return check


class ModuleCommand(hostos.HostosMixin):
    """A command on one module version (``<name> <version>``)."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        add_module_arguments(parser)
        return parser

    def path(self, parsed_args):
        return module_path(parsed_args.name, parsed_args.module_version)


class CreateHostosModule(ModuleCommand, command.ShowOne):
    """Register a module version: the service downloads its archive once,
    checks its SHA-256 and its metadata (state verifying, then available
    or error)."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--url', required=True, metavar='<url>',
                            help='HTTP or HTTPS URL of the module archive '
                                 '(.tgz).')
        parser.add_argument('--sha256sum', required=True,
                            metavar='<sha256>',
                            help='SHA-256 of the archive (64 hexadecimal '
                                 'digits).')
        parser.add_argument('--description', metavar='<description>',
                            help='Description of the module version.')
        common.add_wait_option(
            parser, 'the service verified the archive (state available '
                    'or deprecated; error fails with its text)')
        return parser

    def take_action(self, parsed_args):
        body = {'name': parsed_args.name,
                'version': parsed_args.module_version,
                'url': parsed_args.url,
                'sha256sum': sha256_arg(parsed_args.sha256sum)}
        if parsed_args.description is not None:
            body['description'] = parsed_args.description
        module = self.hostos.post(COLLECTION, body) or body
        if parsed_args.wait_timeout is not None:
            module = self.wait(parsed_args.name, parsed_args.module_version,
                               parsed_args.wait_timeout)
        return common.show(module)

    def wait(self, name, version, timeout):
        def describe(module):
            return ('Waiting for the verification of module %s version %s: '
                    'it is %s' % (name, version, module.get('state')))

        return common.wait_for(
            lambda: self.hostos.get(module_path(name, version)),
            verification_check(name, version), describe, timeout,
            clock=self.clock, sleep=self.sleep,
            progress=common.Progress(self.app.stderr),
            max_interval=hostos.POLL_INTERVAL)


class ListHostosModule(hostos.ListCommand):
    """List module versions (every version of every module)."""

    COLLECTION = COLLECTION
    FILTERS = (('name', {'metavar': '<name>',
                         'help': 'Only the versions of this module.'}),
               ('state', {'choices': MODULE_STATES,
                          'help': 'Only versions in this state.'}))
    LONG_HELP = 'Show every field.'

    def listing(self, items, long):
        if long:
            fields = common.long_fields(items, LONG_FIELDS)
        else:
            fields = SHORT_FIELDS
        return common.listing(items, fields, [
            _TITLES.get(f) or common.label(f) for f in fields])


class ShowHostosModule(ModuleCommand, command.ShowOne):
    """Show a module version."""

    def take_action(self, parsed_args):
        return common.show(self.hostos.get(self.path(parsed_args)))


class SetHostosModule(ModuleCommand, command.Command):
    """Change a module version (only its description can change)."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--description', metavar='<description>',
                            required=True,
                            help='New description.')
        return parser

    def take_action(self, parsed_args):
        self.hostos.patch(self.path(parsed_args), [common.add_op(
            '/description', parsed_args.description)])


class DeleteHostosModule(hostos.HostosMixin, command.Command):
    """Delete module versions (refused while a configuration uses
    one)."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('modules', nargs='+',
                            metavar='<name> <version>',
                            help='Module versions to delete, as pairs: '
                                 '<name> <version> [<name> <version> '
                                 '...].')
        return parser

    def take_action(self, parsed_args):
        words = parsed_args.modules
        if len(words) % 2:
            raise osc_exc.CommandError(
                'Give module versions as pairs <name> <version>: "%s" has '
                'no version.' % words[-1])
        pairs = {'%s %s' % (name, version): (name, version)
                 for name, version in zip(words[::2], words[1::2])}
        common.delete_each(
            list(pairs),
            lambda ident: self.hostos.delete(module_path(*pairs[ident])),
            'module', out=self.app.stdout)
