"""Session templates and boot sets: validation and the values they yield.

The shape is BOS v2's (bos-v2.md section 1), with these differences:
a boot set names its artifacts either by a boot manifest (``path`` and
``type``, where the only type is ``http``: a JSON document fetched over
http or https) or, our addition, by ``kernel`` and ``initrd`` URLs; a
``rootfs_provider`` is accepted but ignored, with a warning (we provide
none); hardware specifier lists may be empty as long as one is not. A
template checked without an operation (on create or replace) need not
name artifacts, so that a template meant for shutdown only can be stored.
"""

import json
import re
import urllib.parse

from ironic_like.common.boot import options as boot_options


class _Pattern(str):
    """A regular expression usable as text (in a JSON schema) or to match."""

    def __new__(cls, text):
        self = super().__new__(cls, text)
        self._regex = re.compile(text)
        return self

    def match(self, text):
        return self._regex.match(text)


NAME_PATTERN = _Pattern(r'^[a-zA-Z0-9](?:[-._a-zA-Z0-9]{0,125}[a-zA-Z0-9])?$')

TEMPLATE_FIELDS = frozenset(['name', 'tenant', 'description', 'enable_cfs',
                             'cfs', 'boot_sets', 'links'])
BOOT_SET_FIELDS = frozenset(['name', 'path', 'type', 'etag',
                             'kernel_parameters', 'node_list', 'node_groups',
                             'node_roles_groups', 'arch', 'cfs',
                             'rootfs_provider', 'rootfs_provider_passthrough',
                             'kernel', 'initrd'])
HARDWARE_FIELDS = ('node_list', 'node_groups', 'node_roles_groups')
ARCHES = ('X86', 'ARM', 'Other', 'Unknown')
DEFAULT_ARCH = 'X86'
MANIFEST_TYPES = ('http',)
OPERATIONS = ('boot', 'reboot', 'shutdown')

MAX_BOOT_SETS = 127
MAX_KERNEL_PARAMETERS = 4096
MAX_CONFIGURATION = 127
# (most items, longest item) of each hardware specifier list.
_LIST_LIMITS = {'node_list': (65535, 255),
                'node_groups': (4095, 127),
                'node_roles_groups': (1023, 127)}

_X86 = frozenset(['x86_64', 'amd64', 'i386', 'i686'])
_ARM = frozenset(['aarch64', 'arm64'])
_SHA256 = re.compile(r'^[0-9a-fA-F]{64}$')


class TemplateError(ValueError):
    """A refused template, boot set or manifest; ``field`` names where."""

    def __init__(self, field, message):
        super().__init__(message)
        self.field = field


class _Findings(object):
    """Errors and warnings, each with the field it is about."""

    def __init__(self):
        self.errors = []
        self.warnings = []

    def error(self, field, message):
        self.errors.append((field, message))

    def warn(self, field, message):
        self.warnings.append((field, message))


def validate_template(doc, operation=None, options=None):
    """(errors, warnings) of a template, as lists of messages.

    ``operation`` is the session's ('boot', 'reboot' or 'shutdown'), or
    None when the template alone is checked. ``options`` are the effective
    boot options (reject_nids turns NID-looking node names into errors).
    """
    findings = _check(doc, operation, options)
    return ([message for _field, message in findings.errors],
            [message for _field, message in findings.warnings])


def check_template(doc, operation=None, options=None):
    """The warnings of a valid template; raises TemplateError otherwise.

    The error's field is that of the first problem, its message all of
    them, so that a 400 both names a field and lists everything to fix.
    """
    findings = _check(doc, operation, options)
    if findings.errors:
        raise TemplateError(findings.errors[0][0], '; '.join(
            message for _field, message in findings.errors))
    return [message for _field, message in findings.warnings]


def _check(doc, operation, options):
    if operation is not None and operation not in OPERATIONS:
        raise TemplateError('operation', 'operation must be one of %s, not %r'
                            % (', '.join(OPERATIONS), operation))
    findings = _Findings()
    if not isinstance(doc, dict):
        findings.error(None, 'a session template must be a JSON object')
        return findings
    _check_template_fields(findings, doc)
    boot_sets = doc.get('boot_sets')
    if not _check_boot_sets_map(findings, boot_sets):
        return findings
    for key, boot_set in boot_sets.items():
        _check_boot_set(findings, key, boot_set, operation, options or {})
    return findings


def _check_template_fields(findings, doc):
    for field in sorted(set(doc) - TEMPLATE_FIELDS):
        findings.error(field, 'unknown session template field %r' % field)
    name = doc.get('name')
    if name is not None and not _is_name(name):
        findings.error('name', 'name %r must be 1-127 letters, digits, '
                               '".", "-" or "_", starting and ending with a '
                               'letter or digit' % (name,))
    _check_text(findings, 'description', 'description',
                doc.get('description'), 1, 1023)
    _check_bool(findings, 'enable_cfs', 'enable_cfs', doc.get('enable_cfs'))
    _check_cfs(findings, 'cfs', 'cfs', doc.get('cfs'))


def _check_boot_sets_map(findings, boot_sets):
    if not boot_sets:
        findings.error('boot_sets',
                       'a session template requires at least 1 boot set')
        return False
    if not isinstance(boot_sets, dict):
        findings.error('boot_sets', 'boot_sets must be an object mapping '
                                    'boot set names to boot sets')
        return False
    if len(boot_sets) > MAX_BOOT_SETS:
        findings.error('boot_sets', 'a session template has at most %d boot '
                                    'sets, not %d'
                       % (MAX_BOOT_SETS, len(boot_sets)))
    return True


def _is_name(value):
    return isinstance(value, str) and bool(NAME_PATTERN.match(value))


def _check_text(findings, field, label, value, shortest, longest):
    """Checks an optional string; None counts as absent."""
    if value is None:
        return
    if not isinstance(value, str):
        findings.error(field, '%s must be a string' % label)
    elif not shortest <= len(value) <= longest:
        findings.error(field, '%s must be %d to %d characters long, not %d'
                       % (label, shortest, longest, len(value)))


def _check_bool(findings, field, label, value):
    if value is not None and not isinstance(value, bool):
        findings.error(field, '%s must be true or false' % label)


def _check_cfs(findings, field, label, cfs):
    if cfs is None:
        return
    if not isinstance(cfs, dict):
        findings.error(field, '%s must be an object' % label)
        return
    for extra in sorted(set(cfs) - {'configuration'}):
        findings.error('%s.%s' % (field, extra),
                       'unknown field %r in %s' % (extra, label))
    _check_text(findings, field + '.configuration',
                label + '.configuration', cfs.get('configuration'), 0,
                MAX_CONFIGURATION)


def _check_boot_set(findings, key, boot_set, operation, options):
    field = 'boot_sets.%s' % key
    label = 'boot set %r' % key
    if not _is_name(key):
        findings.error(field, '%s: the name must be 1-127 letters, digits, '
                              '".", "-" or "_", starting and ending with a '
                              'letter or digit' % label)
    if not isinstance(boot_set, dict):
        findings.error(field, '%s must be an object' % label)
        return
    for extra in sorted(set(boot_set) - BOOT_SET_FIELDS):
        findings.error('%s.%s' % (field, extra),
                       '%s: unknown field %r' % (label, extra))
    if boot_set.get('name', key) != key:
        findings.error(field + '.name', '%s: name %r must equal its key'
                       % (label, boot_set.get('name')))
    _check_boot_set_text(findings, field, label, boot_set)
    _check_hardware(findings, field, label, boot_set, options)
    _check_arch(findings, field, label, boot_set.get('arch'))
    _check_cfs(findings, field + '.cfs', label + ' cfs', boot_set.get('cfs'))
    _check_rootfs(findings, field, label, boot_set)
    _check_artifacts(findings, field, label, boot_set, operation)


def _check_boot_set_text(findings, field, label, boot_set):
    for name, longest in (('kernel_parameters', MAX_KERNEL_PARAMETERS),
                          ('etag', 65536),
                          ('rootfs_provider_passthrough', 4096)):
        _check_text(findings, '%s.%s' % (field, name),
                    '%s %s' % (label, name), boot_set.get(name), 0, longest)


def _check_hardware(findings, field, label, boot_set, options):
    for name in HARDWARE_FIELDS:
        _check_names_list(findings, '%s.%s' % (field, name),
                          '%s %s' % (label, name), boot_set.get(name),
                          *_LIST_LIMITS[name])
    if not any(boot_set.get(name) for name in HARDWARE_FIELDS):
        findings.error(field, '%s: no non-empty hardware specifier field '
                              '(%s)' % (label, ', '.join(HARDWARE_FIELDS)))
    _check_nids(findings, field, label, boot_set.get('node_list'), options)


def _check_names_list(findings, field, label, value, most, longest):
    if value is None:
        return
    if not isinstance(value, list):
        findings.error(field, '%s must be a list of names' % label)
        return
    if len(value) > most:
        findings.error(field, '%s has more than %d entries' % (label, most))
    bad = [item for item in value
           if not isinstance(item, str) or not 1 <= len(item) <= longest]
    if bad:
        findings.error(field, '%s entries must be names of 1 to %d '
                              'characters, not %s'
                       % (label, longest, ', '.join(repr(b) for b in bad)))


def _check_nids(findings, field, label, node_list, options):
    # BOS's heuristic: xnames never start with "nid", so such a name is
    # most likely a NID that matches no component.
    if not isinstance(node_list, list):
        return
    nids = [node for node in node_list
            if isinstance(node, str) and node.startswith('nid')]
    if not nids:
        return
    message = ('%s: node_list has names that look like NIDs: %s'
               % (label, ', '.join(nids)))
    if options.get('reject_nids'):
        findings.error(field + '.node_list', message)
    else:
        findings.warn(field + '.node_list', message)


def _check_arch(findings, field, label, arch):
    if arch is not None and arch not in ARCHES:
        findings.error(field + '.arch', '%s: arch must be one of %s, not %r'
                       % (label, ', '.join(ARCHES), arch))


def _check_rootfs(findings, field, label, boot_set):
    provider = boot_set.get('rootfs_provider')
    if provider:
        findings.warn(field + '.rootfs_provider',
                      '%s: rootfs_provider %r is not supported and is '
                      'ignored' % (label, provider))


def _is_http_url(value):
    if not isinstance(value, str):
        return False
    parsed = urllib.parse.urlparse(value)
    return parsed.scheme in ('http', 'https') and bool(parsed.netloc)


def _check_url(findings, field, label, value, longest=4095):
    if value is None:
        return
    if not _is_http_url(value) or len(value) > longest:
        findings.error(field, '%s must be an http or https URL of at most %d '
                              'characters, not %r' % (label, longest, value))


def _check_artifacts(findings, field, label, boot_set, operation):
    for name in ('path', 'kernel', 'initrd'):
        _check_url(findings, '%s.%s' % (field, name),
                   '%s %s' % (label, name), boot_set.get(name))
    path, kind = boot_set.get('path'), boot_set.get('type')
    kernel, initrd = boot_set.get('kernel'), boot_set.get('initrd')
    if kind is not None and kind not in MANIFEST_TYPES:
        findings.error(field + '.type', '%s: type %r is not supported; the '
                                        'only boot manifest type is "http"'
                       % (label, kind))
    if bool(path) != bool(kind):
        findings.error(field + ('.type' if path else '.path'),
                       '%s: path and type go together (a boot manifest)'
                       % label)
    if path and (kernel or initrd):
        findings.error(field, '%s: give either path and type (a boot '
                              'manifest) or kernel and initrd, not both'
                       % label)
    elif initrd and not kernel:
        findings.error(field + '.kernel', '%s: initrd without kernel' % label)
    if operation in ('boot', 'reboot'):
        _check_bootable(findings, field, label, boot_set, operation)


def _check_bootable(findings, field, label, boot_set, operation):
    if not boot_set.get('path') and not boot_set.get('kernel'):
        findings.error(field, '%s: a %s needs boot artifacts: path and type '
                              '(a boot manifest) or kernel and initrd'
                       % (label, operation))
    elif boot_set.get('kernel') and not boot_set.get('initrd'):
        findings.warn(field + '.initrd', '%s: no initrd' % label)


def configuration_for(template, boot_set):
    """The host OS configuration a boot set's nodes get ("" for none)."""
    if template.get('enable_cfs', True) is False:
        return ''
    own = (boot_set.get('cfs') or {}).get('configuration')
    if own:
        return own
    return (template.get('cfs') or {}).get('configuration') or ''


def kernel_parameters(image_params, boot_set, options):
    """The kernel command line for a boot set, without the boot token.

    In BOS's order: the image's own parameters, the boot set's, then
    bos_update_frequency so that the reporter refreshes the actual state
    before it expires.
    """
    ttl = (options or {}).get('component_actual_state_ttl') or \
        boot_options.DEFAULTS['component_actual_state_ttl']
    parts = [image_params, boot_set.get('kernel_parameters'),
             'bos_update_frequency=%s' % ttl]
    return ' '.join(part.strip() for part in parts
                    if part and part.strip())


def arch_of(properties):
    """A node's BOS arch (X86, ARM, Other, Unknown) from its properties."""
    cpu_arch = (properties or {}).get('cpu_arch')
    if not cpu_arch:
        return 'Unknown'
    cpu_arch = str(cpu_arch).lower()
    if cpu_arch in _X86:
        return 'X86'
    if cpu_arch in _ARM:
        return 'ARM'
    return 'Other'


def arch_matches(boot_set_arch, node_arch):
    """Whether a node of node_arch belongs to a boot set of boot_set_arch.

    As in BOS, an X86 boot set (the default) also takes nodes whose arch
    is unknown: most old inventories never recorded one.
    """
    wanted = boot_set_arch or DEFAULT_ARCH
    return node_arch == wanted or (wanted == 'X86' and node_arch == 'Unknown')


def parse_manifest(doc):
    """The kernel, initrd, kernel parameters and digests of a manifest.

    ``doc`` is the manifest as text, bytes or already decoded JSON:
    ``{"kernel": {"path": url, "sha256": hex}, "initrd": {...},
    "kernel_parameters": "..."}``. The kernel is required; initrd, the
    digests and kernel_parameters are optional ("" / None when absent).
    """
    doc = _decoded(doc)
    kernel, kernel_sha = _manifest_artifact(doc, 'kernel', required=True)
    initrd, initrd_sha = _manifest_artifact(doc, 'initrd', required=False)
    params = doc.get('kernel_parameters')
    if params is None:
        params = ''
    if not isinstance(params, str) or len(params) > MAX_KERNEL_PARAMETERS:
        raise TemplateError('kernel_parameters', 'the boot manifest\'s '
                            'kernel_parameters must be a string of at most '
                            '%d characters' % MAX_KERNEL_PARAMETERS)
    return {'kernel': kernel, 'initrd': initrd, 'kernel_parameters': params,
            'sha256': {'kernel': kernel_sha, 'initrd': initrd_sha}}


def _decoded(doc):
    if isinstance(doc, (bytes, str)):
        try:
            doc = json.loads(doc)
        except ValueError as exc:
            raise TemplateError('manifest', 'the boot manifest is not JSON: '
                                '%s' % exc)
    if not isinstance(doc, dict):
        raise TemplateError('manifest', 'the boot manifest must be a JSON '
                                        'object')
    return doc


def _manifest_artifact(doc, name, required):
    artifact = doc.get(name)
    if artifact is None:
        if required:
            raise TemplateError(name, 'the boot manifest has no %s' % name)
        return '', None
    if not isinstance(artifact, dict):
        raise TemplateError(name, 'the boot manifest\'s %s must be an object '
                                  'with "path" and "sha256"' % name)
    path = artifact.get('path')
    if not _is_http_url(path):
        raise TemplateError('%s.path' % name, 'the boot manifest\'s %s.path '
                            'must be an http or https URL, not %r'
                            % (name, path))
    return path, _manifest_digest(artifact, name)


def _manifest_digest(artifact, name):
    digest = artifact.get('sha256')
    if digest is None:
        return None
    if not isinstance(digest, str) or not _SHA256.match(digest):
        raise TemplateError('%s.sha256' % name, 'the boot manifest\'s '
                            '%s.sha256 must be 64 hexadecimal digits, not %r'
                            % (name, digest))
    return digest.lower()
