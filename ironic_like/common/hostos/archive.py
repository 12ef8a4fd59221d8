"""Module archives: read and check one, or build one.

A module archive is a gzip tar with, at its root, ``metadata.yaml`` (name,
version, playbook, optional valuesJsonSchema, deprecates, description,
docURL), the playbook and the optional JSON schema of values (Mirantis's
package format). The conductor checks each registered version once with
inspect(), before any host sees it; the host agent unpacks it later, so
anything that could escape the module directory on unpacking (absolute
names, "..", links pointing outside, device files) is refused here.
"""

import gzip
import io
import json
import tarfile
import zlib

import yaml

from ironic_like.common.hostos import semver
from ironic_like.common.hostos import values

METADATA = 'metadata.yaml'
MAX_MEMBERS = 10000
MAX_METADATA = 1024 * 1024
MAX_SCHEMA = 1024 * 1024


class ArchiveError(Exception):
    """A module archive that cannot be used; the message says why."""


def _clean(name):
    """The member name relative to the root, without "./" prefixes."""
    while name.startswith('./'):
        name = name[2:]
    return name.rstrip('/')


def _check_member(member, name):
    if member.name.startswith('/'):
        raise ArchiveError('the module archive has a member with an '
                           'absolute path: "%s"' % member.name)
    if '..' in name.split('/'):
        raise ArchiveError('the module archive has a member outside its '
                           'root: "%s"' % member.name)
    if member.issym() or member.islnk():
        # Lexical normalization is not enough for symbolic links (with
        # "y" -> ".", "x" -> "y/.." is the parent of the root), so a link
        # target must be relative and free of "..": such a link can only
        # reach below its own directory.
        target = member.linkname
        if target.startswith('/') or '..' in target.split('/'):
            raise ArchiveError('the module archive has a link pointing '
                               'outside its root (absolute or with ".."): '
                               '"%s" -> "%s"' % (member.name, target))
    elif not (member.isreg() or member.isdir()):
        raise ArchiveError('the module archive has a special file (device '
                           'or fifo): "%s"' % member.name)


def _members(tar):
    """name -> member for every entry, after the safety checks."""
    members = {}
    count = 0
    while True:
        member = tar.next()
        if member is None:
            return members
        count += 1
        if count > MAX_MEMBERS:
            raise ArchiveError('the module archive has more than %d members'
                               % MAX_MEMBERS)
        name = _clean(member.name)
        _check_member(member, name)
        if name in members and not (member.isdir()
                                    and members[name].isdir()):
            # tar keeps the last copy on extraction: the agent could unpack
            # another file than the one checked here.
            raise ArchiveError('the module archive holds "%s" twice' % name)
        members[name] = member


def _size(limit):
    if limit % (1024 * 1024) == 0:
        return '%d MiB' % (limit // (1024 * 1024))
    return '%d bytes' % limit


def _read(tar, members, name, limit, what):
    member = members.get(name)
    if member is None or not member.isreg():
        return None
    if member.size > limit:
        raise ArchiveError('%s "%s" is larger than %s'
                           % (what, name, _size(limit)))
    return tar.extractfile(member).read(limit + 1)


def _text(metadata, key, required=False):
    value = metadata.get(key)
    if value is None:
        if required:
            raise ArchiveError('metadata.yaml has no "%s"' % key)
        return None
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise ArchiveError('metadata.yaml: "%s" must be a string' % key)
    return str(value)


def _file_name(metadata, key):
    """The archive member a metadata key names, checked to be relative."""
    name = _text(metadata, key)
    if name is None:
        return None
    clean = _clean(name)
    if not clean or name.startswith('/') or '..' in clean.split('/'):
        raise ArchiveError('metadata.yaml: "%s" must be a path inside the '
                           'archive, not "%s"' % (key, name))
    return clean


def _deprecates(metadata, own_version):
    entries = metadata.get('deprecates')
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise ArchiveError('metadata.yaml: "deprecates" must be a list of '
                           '{version: X}')
    versions = []
    for index, entry in enumerate(entries):
        version = entry.get('version') if isinstance(entry, dict) else None
        if not semver.is_valid(version):
            raise ArchiveError('metadata.yaml: deprecates[%d] must be '
                               '{version: X} with X a SemVer version, not '
                               '%r' % (index, entry))
        if semver.sort_key(version) >= semver.sort_key(own_version):
            raise ArchiveError('metadata.yaml: deprecates[%d]: version %s is '
                               'not older than %s' % (index, version,
                                                      own_version))
        versions.append(version)
    return versions


def inspect(fileobj, expected_name, expected_version):
    """Check a module archive and return what the service records.

    Returns {playbook, values_schema (dict or None), deprecates (versions),
    description, doc_url}; raises ArchiveError naming the first problem.
    """
    try:
        with tarfile.open(fileobj=fileobj, mode='r:gz') as tar:
            members = _members(tar)
            raw = _read(tar, members, METADATA, MAX_METADATA, 'the file')
            if raw is None:
                raise ArchiveError('the module archive has no %s at its '
                                   'root' % METADATA)
            metadata = _load_metadata(raw)
            result = _check_metadata(metadata, expected_name,
                                     expected_version, members)
            schema_name = _file_name(metadata, 'valuesJsonSchema')
            if schema_name is not None:
                result['values_schema'] = _load_schema(
                    _read(tar, members, schema_name, MAX_SCHEMA,
                          'the values schema'), schema_name)
    except (tarfile.TarError, EOFError, OSError, zlib.error) as exc:
        raise ArchiveError('the module archive is not a readable gzip tar '
                           'archive: %s' % exc)
    return result


def _load_metadata(raw):
    if len(raw) > MAX_METADATA:
        raise ArchiveError('%s is larger than %s'
                           % (METADATA, _size(MAX_METADATA)))
    try:
        metadata = yaml.safe_load(raw)
    except yaml.YAMLError as exc:
        raise ArchiveError('%s is not valid YAML: %s' % (METADATA, exc))
    if not isinstance(metadata, dict):
        raise ArchiveError('%s must be a mapping' % METADATA)
    return metadata


def _check_metadata(metadata, expected_name, expected_version, members):
    for key, expected in (('name', expected_name),
                          ('version', expected_version)):
        found = _text(metadata, key, required=True)
        if found != expected:
            raise ArchiveError('metadata.yaml says %s "%s", the module is '
                               'registered as "%s"' % (key, found, expected))
    if metadata.get('playbook') is None:
        raise ArchiveError('metadata.yaml has no "playbook"')
    playbook = _file_name(metadata, 'playbook')
    member = members.get(playbook)
    if member is None or not member.isreg():
        raise ArchiveError('metadata.yaml names the playbook "%s", which is '
                           'not a file of the archive' % playbook)
    return {'playbook': playbook,
            'values_schema': None,
            'deprecates': _deprecates(metadata, expected_version),
            'description': _text(metadata, 'description'),
            'doc_url': _text(metadata, 'docURL')}


def _load_schema(raw, name):
    if raw is None:
        raise ArchiveError('metadata.yaml names the values schema "%s", '
                           'which is not a file of the archive' % name)
    try:
        schema = json.loads(raw.decode('utf-8'))
    except ValueError as exc:
        raise ArchiveError('the values schema "%s" is not valid JSON: %s'
                           % (name, exc))
    error = values.check_schema(schema)
    if error:
        raise ArchiveError('the values schema "%s": %s' % (name, error))
    return schema


def build(files):
    """A reproducible gzip tar of {relative name: bytes or str}.

    Same files, same bytes: mtime 0, uid/gid 0, no owner names, mode 0644,
    sorted names, no name or time in the gzip header (like Mirantis's
    module-builder), so a test or the lab can state a module's sha256.
    """
    buf = io.BytesIO()
    with gzip.GzipFile(filename='', mode='wb', fileobj=buf, mtime=0) as gz:
        with tarfile.open(fileobj=gz, mode='w',
                          format=tarfile.PAX_FORMAT) as tar:
            for name in sorted(files):
                data = files[name]
                if isinstance(data, str):
                    data = data.encode('utf-8')
                info = tarfile.TarInfo(name)
                info.size = len(data)
                info.mtime = 0
                info.mode = 0o644
                info.uid = info.gid = 0
                info.uname = info.gname = ''
                tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def make_module(name, version, playbook_text, schema=None, deprecates=(),
                extra_files=None):
    """The archive of a module with main.yaml and optional schema.json."""
    metadata = {'name': name, 'version': version, 'playbook': 'main.yaml'}
    files = {'main.yaml': playbook_text}
    if schema is not None:
        metadata['valuesJsonSchema'] = 'schema.json'
        files['schema.json'] = json.dumps(schema, sort_keys=True, indent=2)
    if deprecates:
        metadata['deprecates'] = [{'version': v} for v in deprecates]
    files[METADATA] = yaml.safe_dump(metadata, sort_keys=False)
    files.update(extra_files or {})
    return build(files)
