"""Session templates (common/boot/templates.py): validation, the
configuration and kernel parameters of a boot set, arch matching and the
boot manifest."""

import copy
import json
import re

from ironic_like.common.boot import options
from ironic_like.common.boot import templates
from ironic_like.tests import base

SHA = 'ab' * 32
MANIFEST_SET = {'name': 'compute', 'path': 'https://img/manifest.json',
                'type': 'http', 'node_roles_groups': ['Compute'],
                'kernel_parameters': 'console=ttyS0', 'arch': 'X86',
                'cfs': {'configuration': 'compute-config'}}
KERNEL_SET = {'kernel': 'http://img/vmlinuz', 'initrd': 'http://img/initrd',
              'node_list': ['node-1', 'node-2'], 'node_groups': []}
TEMPLATE = {'name': 'cle-1.0.0', 'description': 'compute and uan',
            'enable_cfs': True, 'cfs': {'configuration': 'site-config'},
            'boot_sets': {'compute': MANIFEST_SET, 'uan': KERNEL_SET}}


def with_boot_set(**fields):
    doc = copy.deepcopy(TEMPLATE)
    for key, value in fields.items():
        if value is None:
            doc['boot_sets']['uan'].pop(key, None)
        else:
            doc['boot_sets']['uan'][key] = value
    return doc


class TestNamePattern(base.TestCase):

    def test_names(self):
        for name in ('a', 'cle-1.0.0', 'A_b.c-d', 'x' * 127, '0'):
            self.assertTrue(templates.NAME_PATTERN.match(name), name)
        for name in ('', '-a', 'a-', '.a', 'a b', 'x' * 128, 'a/b'):
            self.assertFalse(templates.NAME_PATTERN.match(name), name)

    def test_usable_as_text(self):
        self.assertEqual(r'^[a-zA-Z0-9](?:[-._a-zA-Z0-9]{0,125}[a-zA-Z0-9])?$',
                         templates.NAME_PATTERN)
        self.assertTrue(re.match(templates.NAME_PATTERN, 'abc'))
        self.assertEqual('"%s"' % templates.NAME_PATTERN.replace('\\', '\\\\'),
                         json.dumps(templates.NAME_PATTERN))


class TestValidateTemplate(base.TestCase):

    def assertOnlyError(self, doc, *words, operation=None, field=None):
        errors, _warnings = templates.validate_template(doc, operation)
        self.assertEqual(1, len(errors), errors)
        for word in words:
            self.assertIn(word, errors[0])
        if field is not None:
            exc = self.assertRaises(templates.TemplateError,
                                    templates.check_template, doc, operation)
            self.assertEqual(field, exc.field)
        return errors[0]

    def test_valid(self):
        for operation in (None, 'boot', 'reboot', 'shutdown'):
            self.assertEqual(([], []),
                             templates.validate_template(TEMPLATE, operation))
            self.assertEqual([], templates.check_template(TEMPLATE,
                                                          operation))

    def test_unknown_operation(self):
        exc = self.assertRaises(templates.TemplateError,
                                templates.validate_template, TEMPLATE,
                                'restart')
        self.assertEqual('operation', exc.field)

    def test_not_an_object(self):
        self.assertOnlyError([], 'JSON object')

    def test_no_boot_sets(self):
        for boot_sets in (None, {}):
            doc = dict(TEMPLATE, boot_sets=boot_sets)
            self.assertOnlyError(doc, 'at least 1 boot set',
                                 field='boot_sets')
        self.assertOnlyError(dict(TEMPLATE, boot_sets=[KERNEL_SET]),
                             'object', field='boot_sets')

    def test_too_many_boot_sets(self):
        sets = {'bs%d' % i: KERNEL_SET for i in range(128)}
        self.assertOnlyError(dict(TEMPLATE, boot_sets=sets), 'at most 127')

    def test_template_fields(self):
        self.assertOnlyError(dict(TEMPLATE, owner='x'), "'owner'",
                             field='owner')
        self.assertOnlyError(dict(TEMPLATE, name='-bad'), 'name',
                             field='name')
        self.assertOnlyError(dict(TEMPLATE, description=''), 'description',
                             field='description')
        self.assertOnlyError(dict(TEMPLATE, description='x' * 1024),
                             '1023')
        self.assertOnlyError(dict(TEMPLATE, enable_cfs='yes'), 'enable_cfs',
                             field='enable_cfs')
        self.assertOnlyError(dict(TEMPLATE, cfs='c'), 'cfs', field='cfs')
        self.assertOnlyError(dict(TEMPLATE, cfs={'configuration': 'c' * 128}),
                             '127', field='cfs.configuration')
        self.assertOnlyError(dict(TEMPLATE, cfs={'commit': 'abc'}),
                             "'commit'", field='cfs.commit')

    def test_read_only_fields_are_accepted(self):
        doc = dict(TEMPLATE, tenant=None, links=[{'rel': 'self'}])
        self.assertEqual(([], []), templates.validate_template(doc))

    def test_boot_set_name(self):
        doc = copy.deepcopy(TEMPLATE)
        doc['boot_sets']['bad name'] = doc['boot_sets'].pop('uan')
        self.assertOnlyError(doc, "boot set 'bad name'",
                             field='boot_sets.bad name')
        self.assertOnlyError(with_boot_set(name='other'), 'must equal its key',
                             field='boot_sets.uan.name')

    def test_boot_set_not_an_object(self):
        doc = copy.deepcopy(TEMPLATE)
        doc['boot_sets']['uan'] = 'uan'
        self.assertOnlyError(doc, 'must be an object', field='boot_sets.uan')

    def test_unknown_boot_set_field(self):
        self.assertOnlyError(with_boot_set(image='x'), "'image'",
                             field='boot_sets.uan.image')

    def test_hardware_specifiers(self):
        for fields in ({'node_list': None},
                       {'node_list': []},
                       {'node_list': [], 'node_groups': [],
                        'node_roles_groups': []}):
            self.assertOnlyError(with_boot_set(**fields),
                                 'no non-empty hardware specifier',
                                 field='boot_sets.uan')
        errors, _w = templates.validate_template(
            with_boot_set(node_list='node-1'))
        self.assertIn('must be a list', errors[0])
        self.assertOnlyError(with_boot_set(node_groups=['g', '']),
                             "''", field='boot_sets.uan.node_groups')
        self.assertOnlyError(with_boot_set(node_roles_groups=['r' * 128]),
                             '127', field='boot_sets.uan.node_roles_groups')
        self.assertOnlyError(with_boot_set(node_groups=['g'] * 4096),
                             'more than 4095')

    def test_nids(self):
        doc = with_boot_set(node_list=['nid000001', 'node-2'])
        errors, warnings = templates.validate_template(doc)
        self.assertEqual([], errors)
        self.assertEqual(1, len(warnings))
        self.assertIn('nid000001', warnings[0])
        errors, warnings = templates.validate_template(
            doc, options=dict(options.DEFAULTS, reject_nids=True))
        self.assertEqual([], warnings)
        self.assertIn('nid000001', errors[0])

    def test_arch(self):
        for arch in templates.ARCHES:
            self.assertEqual([], templates.validate_template(
                with_boot_set(arch=arch))[0])
        self.assertOnlyError(with_boot_set(arch='x86'), 'X86, ARM',
                             field='boot_sets.uan.arch')

    def test_sizes(self):
        self.assertEqual([], templates.validate_template(
            with_boot_set(kernel_parameters='x' * 4096))[0])
        self.assertOnlyError(with_boot_set(kernel_parameters='x' * 4097),
                             '4096', field='boot_sets.uan.kernel_parameters')
        self.assertOnlyError(with_boot_set(kernel_parameters=['a']),
                             'string')
        self.assertOnlyError(with_boot_set(cfs={'configuration': 'c' * 128}),
                             '127', field='boot_sets.uan.cfs.configuration')
        self.assertOnlyError(with_boot_set(path=None, kernel=None,
                                           initrd=None, type=None,
                                           etag='e' * 65537), 'etag')

    def test_rootfs_provider_is_ignored(self):
        doc = with_boot_set(rootfs_provider='sbps',
                            rootfs_provider_passthrough='sbps:v1:x')
        errors, warnings = templates.validate_template(doc, 'boot')
        self.assertEqual([], errors)
        self.assertIn("rootfs_provider 'sbps' is not supported", warnings[0])

    def test_manifest_type_must_be_http(self):
        doc = with_boot_set(kernel=None, initrd=None,
                            path='https://img/manifest.json', type='s3')
        self.assertOnlyError(doc, "type 's3'", field='boot_sets.uan.type')

    def test_manifest_path_must_be_http(self):
        for path in ('s3://boot-images/m.json', 'img/manifest.json',
                     'http://', 'https://h/' + 'p' * 4095):
            doc = with_boot_set(kernel=None, initrd=None, path=path,
                                type='http')
            self.assertOnlyError(doc, 'http or https URL',
                                 field='boot_sets.uan.path')

    def test_path_and_type_go_together(self):
        self.assertOnlyError(with_boot_set(kernel=None, initrd=None,
                                           path='http://img/m.json'),
                             'path and type', field='boot_sets.uan.type')
        self.assertOnlyError(with_boot_set(type='http'), 'path and type',
                             field='boot_sets.uan.path')

    def test_manifest_or_kernel_not_both(self):
        self.assertOnlyError(with_boot_set(path='http://img/m.json',
                                           type='http'), 'not both',
                             field='boot_sets.uan')

    def test_kernel_and_initrd_urls(self):
        self.assertOnlyError(with_boot_set(kernel='/boot/vmlinuz'),
                             'boot set \'uan\' kernel',
                             field='boot_sets.uan.kernel')
        self.assertOnlyError(with_boot_set(initrd='ftp://img/initrd'),
                             'initrd', field='boot_sets.uan.initrd')
        self.assertOnlyError(with_boot_set(kernel=None), 'initrd without',
                             field='boot_sets.uan.kernel')

    def test_missing_artifacts_per_operation(self):
        doc = with_boot_set(kernel=None, initrd=None)
        for operation in (None, 'shutdown'):
            self.assertEqual(([], []),
                             templates.validate_template(doc, operation))
        for operation in ('boot', 'reboot'):
            self.assertOnlyError(doc, 'a %s needs boot artifacts' % operation,
                                 operation=operation, field='boot_sets.uan')

    def test_missing_initrd_is_a_warning(self):
        doc = with_boot_set(initrd=None)
        self.assertEqual(([], []), templates.validate_template(doc))
        self.assertEqual(([], []),
                         templates.validate_template(doc, 'shutdown'))
        errors, warnings = templates.validate_template(doc, 'boot')
        self.assertEqual([], errors)
        self.assertEqual(["boot set 'uan': no initrd"], warnings)
        self.assertEqual(warnings, templates.check_template(doc, 'reboot'))

    def test_every_error_is_listed(self):
        doc = with_boot_set(arch='arm', node_list=None, kernel_parameters=1)
        errors, _w = templates.validate_template(doc)
        self.assertEqual(3, len(errors))
        exc = self.assertRaises(templates.TemplateError,
                                templates.check_template, doc)
        for error in errors:
            self.assertIn(error, str(exc))

    def test_template_error_is_a_value_error(self):
        self.assertTrue(issubclass(templates.TemplateError, ValueError))


class TestConfigurationFor(base.TestCase):

    def test_rules(self):
        template = {'cfs': {'configuration': 'site'}}
        own = {'cfs': {'configuration': 'own'}}
        self.assertEqual('own', templates.configuration_for(template, own))
        self.assertEqual('site', templates.configuration_for(template, {}))
        self.assertEqual('site', templates.configuration_for(
            template, {'cfs': {'configuration': ''}}))
        self.assertEqual('', templates.configuration_for({}, {}))
        self.assertEqual('', templates.configuration_for(
            {'cfs': None}, {'cfs': None}))
        for enable_cfs in (True, None):
            self.assertEqual('own', templates.configuration_for(
                dict(template, enable_cfs=enable_cfs), own))
        self.assertEqual('', templates.configuration_for(
            dict(template, enable_cfs=False), own))


class TestKernelParameters(base.TestCase):

    def test_order(self):
        self.assertEqual(
            'root=live:x quiet console=ttyS0 bos_update_frequency=4h',
            templates.kernel_parameters('root=live:x quiet',
                                        {'kernel_parameters': 'console=ttyS0'},
                                        options.DEFAULTS))

    def test_empty_parts_are_skipped(self):
        for image, own in [(None, None), ('', ''), ('  ', ' ')]:
            self.assertEqual('bos_update_frequency=6h',
                             templates.kernel_parameters(
                                 image, {'kernel_parameters': own},
                                 {'component_actual_state_ttl': '6h'}))
        self.assertEqual('a=1 bos_update_frequency=4h',
                         templates.kernel_parameters(' a=1 ', {}, None))


class TestArch(base.TestCase):

    def test_arch_of(self):
        for cpu_arch, arch in [('x86_64', 'X86'), ('amd64', 'X86'),
                               ('i686', 'X86'), ('X86_64', 'X86'),
                               ('aarch64', 'ARM'), ('arm64', 'ARM'),
                               ('ppc64le', 'Other'), ('riscv64', 'Other')]:
            self.assertEqual(arch, templates.arch_of({'cpu_arch': cpu_arch}))
        for properties in ({}, None, {'cpu_arch': ''},
                           {'cpu_arch': None}):
            self.assertEqual('Unknown', templates.arch_of(properties))

    def test_arch_matches(self):
        self.assertTrue(templates.arch_matches('X86', 'X86'))
        self.assertTrue(templates.arch_matches('X86', 'Unknown'))
        self.assertTrue(templates.arch_matches(None, 'Unknown'))
        self.assertTrue(templates.arch_matches(None, 'X86'))
        self.assertFalse(templates.arch_matches(None, 'ARM'))
        self.assertTrue(templates.arch_matches('ARM', 'ARM'))
        self.assertFalse(templates.arch_matches('ARM', 'Unknown'))
        self.assertTrue(templates.arch_matches('Unknown', 'Unknown'))
        self.assertFalse(templates.arch_matches('Unknown', 'X86'))
        self.assertTrue(templates.arch_matches('Other', 'Other'))
        self.assertFalse(templates.arch_matches('Other', 'X86'))


MANIFEST = {'kernel': {'path': 'https://img/vmlinuz', 'sha256': SHA},
            'initrd': {'path': 'https://img/initrd', 'sha256': SHA.upper()},
            'kernel_parameters': 'root=live:x'}


class TestParseManifest(base.TestCase):

    def test_full(self):
        expected = {'kernel': 'https://img/vmlinuz',
                    'initrd': 'https://img/initrd',
                    'kernel_parameters': 'root=live:x',
                    'sha256': {'kernel': SHA, 'initrd': SHA}}
        self.assertEqual(expected, templates.parse_manifest(MANIFEST))
        self.assertEqual(expected,
                         templates.parse_manifest(json.dumps(MANIFEST)))
        self.assertEqual(expected, templates.parse_manifest(
            json.dumps(MANIFEST).encode()))

    def test_minimal(self):
        self.assertEqual(
            {'kernel': 'http://img/k', 'initrd': '', 'kernel_parameters': '',
             'sha256': {'kernel': None, 'initrd': None}},
            templates.parse_manifest({'kernel': {'path': 'http://img/k'},
                                      'kernel_parameters': None,
                                      'version': 2}))

    def assertBad(self, doc, field, *words):
        exc = self.assertRaises(templates.TemplateError,
                                templates.parse_manifest, doc)
        self.assertEqual(field, exc.field)
        for word in words:
            self.assertIn(word, str(exc))

    def test_bad_shapes(self):
        self.assertBad('{not json', 'manifest', 'not JSON')
        self.assertBad(b'\xff', 'manifest', 'not JSON')
        self.assertBad('[]', 'manifest', 'JSON object')
        self.assertBad({}, 'kernel', 'no kernel')
        self.assertBad({'kernel': 'http://img/k'}, 'kernel', '"path"')
        self.assertBad({'kernel': {'sha256': SHA}}, 'kernel.path', 'URL')
        self.assertBad({'kernel': {'path': 's3://b/k'}}, 'kernel.path',
                       "'s3://b/k'")
        self.assertBad({'kernel': {'path': 'http://img/k', 'sha256': 'abc'}},
                       'kernel.sha256', '64 hexadecimal')
        self.assertBad(dict(MANIFEST, initrd={'path': 'file:///initrd'}),
                       'initrd.path')
        self.assertBad(dict(MANIFEST, initrd=[]), 'initrd')
        self.assertBad(dict(MANIFEST, kernel_parameters=['a']),
                       'kernel_parameters', 'string')
        self.assertBad(dict(MANIFEST, kernel_parameters='x' * 4097),
                       'kernel_parameters', '4096')
