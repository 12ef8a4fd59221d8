"""Module archives (common/hostos/archive.py): inspect and build."""

import gzip
import hashlib
import io
import json
import tarfile

import testtools
import yaml

from ironic_like.common.hostos import archive

PLAYBOOK = '- hosts: all\n  tasks: []\n'
SCHEMA = {'type': 'object', 'properties': {'a': {'type': 'integer'}}}


def metadata(**kw):
    value = {'name': 'sysctl', 'version': '1.2.0', 'playbook': 'main.yaml'}
    value.update(kw)
    return yaml.safe_dump({k: v for k, v in value.items() if v is not None})


def raw_tar(entries, compress=True):
    """A tar of (TarInfo fields, data) pairs, for what build() won't do."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode='w') as tar:
        for fields, data in entries:
            fields = dict(fields)
            info = tarfile.TarInfo(fields.pop('name'))
            for key, value in fields.items():
                setattr(info, key, value)
            if data is not None:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
            else:
                tar.addfile(info)
    data = buf.getvalue()
    return gzip.compress(data) if compress else data


def good_entries():
    return [({'name': 'metadata.yaml'}, metadata().encode()),
            ({'name': 'main.yaml'}, PLAYBOOK.encode())]


class TestInspect(testtools.TestCase):

    def inspect(self, data, name='sysctl', version='1.2.0'):
        return archive.inspect(io.BytesIO(data), name, version)

    def assertError(self, data, text, name='sysctl', version='1.2.0'):
        exc = self.assertRaises(archive.ArchiveError, self.inspect, data,
                                name, version)
        self.assertIn(text, str(exc))
        return exc

    def test_minimal(self):
        self.assertEqual(
            {'playbook': 'main.yaml', 'values_schema': None,
             'deprecates': [], 'description': None, 'doc_url': None},
            self.inspect(archive.make_module('sysctl', '1.2.0', PLAYBOOK)))

    def test_everything(self):
        data = archive.build({
            'metadata.yaml': metadata(
                playbook='./dir/play.yaml', valuesJsonSchema='schema.json',
                description='Kernel parameters',
                docURL='https://example.com/sysctl',
                deprecates=[{'version': '1.1.0'}, {'version': '1.0.0-rc.1'}]),
            'dir/play.yaml': PLAYBOOK,
            'schema.json': json.dumps(SCHEMA)})
        self.assertEqual(
            {'playbook': 'dir/play.yaml', 'values_schema': SCHEMA,
             'deprecates': ['1.1.0', '1.0.0-rc.1'],
             'description': 'Kernel parameters',
             'doc_url': 'https://example.com/sysctl'},
            self.inspect(data))

    def test_make_module(self):
        data = archive.make_module('sysctl', '1.2.0', PLAYBOOK,
                                   schema=SCHEMA, deprecates=['1.1.0'],
                                   extra_files={'files/x.conf': 'x'})
        result = self.inspect(data)
        self.assertEqual(SCHEMA, result['values_schema'])
        self.assertEqual(['1.1.0'], result['deprecates'])
        with tarfile.open(fileobj=io.BytesIO(data), mode='r:gz') as tar:
            self.assertEqual(['files/x.conf', 'main.yaml', 'metadata.yaml',
                              'schema.json'], tar.getnames())

    def test_dot_slash_names_like_tar_c(self):
        # "tar -czf m.tgz -C dir ." gives "./" and "./metadata.yaml".
        data = raw_tar([({'name': '.', 'type': tarfile.DIRTYPE}, None),
                        ({'name': './metadata.yaml'}, metadata().encode()),
                        ({'name': './main.yaml'}, PLAYBOOK.encode())])
        self.assertEqual('main.yaml', self.inspect(data)['playbook'])

    def test_links_inside_are_accepted(self):
        data = raw_tar(good_entries() + [
            ({'name': 'docs', 'type': tarfile.SYMTYPE,
              'linkname': 'files/docs'}, None),
            ({'name': 'copy.yaml', 'type': tarfile.LNKTYPE,
              'linkname': 'main.yaml'}, None)])
        self.assertEqual('main.yaml', self.inspect(data)['playbook'])

    def test_not_gzip(self):
        self.assertError(b'not an archive', 'not a readable gzip tar')
        self.assertError(raw_tar(good_entries(), compress=False),
                         'not a readable gzip tar')

    def test_truncated(self):
        data = archive.make_module('sysctl', '1.2.0', 'x' * 100000)
        self.assertError(data[:len(data) // 2], 'not a readable gzip tar')

    def test_absolute_path(self):
        self.assertError(raw_tar(good_entries() + [
            ({'name': '/etc/passwd'}, b'x')]), 'absolute path: "/etc/passwd"')

    def test_dot_dot(self):
        for name in ('../x', 'a/../../x', './..'):
            self.assertError(raw_tar(good_entries() + [({'name': name},
                                                        b'x')]),
                             'outside its root: "%s"' % name)

    def test_links_pointing_outside(self):
        for kind, target in [(tarfile.SYMTYPE, '/etc'),
                             (tarfile.SYMTYPE, '../../etc'),
                             (tarfile.SYMTYPE, 'y/..'),
                             (tarfile.LNKTYPE, '../x'),
                             (tarfile.LNKTYPE, '/etc/shadow')]:
            exc = self.assertError(
                raw_tar(good_entries() + [({'name': 'l', 'type': kind,
                                            'linkname': target}, None)]),
                'link pointing outside its root')
            self.assertIn('"l" -> "%s"' % target, str(exc))

    def test_special_file(self):
        self.assertError(raw_tar(good_entries() + [
            ({'name': 'dev', 'type': tarfile.CHRTYPE}, None)]),
            'special file')

    def test_duplicate_member(self):
        self.assertError(raw_tar(good_entries() + [
            ({'name': './metadata.yaml'}, metadata(name='other').encode())]),
            'holds "metadata.yaml" twice')

    def test_too_many_members(self):
        entries = good_entries() + [({'name': 'f%d' % i}, b'')
                                    for i in range(archive.MAX_MEMBERS - 1)]
        self.assertError(raw_tar(entries), 'more than 10000 members')
        self.assertEqual('main.yaml',
                         self.inspect(raw_tar(entries[:-1]))['playbook'])

    def test_no_metadata(self):
        self.assertError(archive.build({'main.yaml': PLAYBOOK}),
                         'no metadata.yaml at its root')
        self.assertError(archive.build({'dir/metadata.yaml': metadata(),
                                        'main.yaml': PLAYBOOK}),
                         'no metadata.yaml at its root')

    def test_metadata_too_large(self):
        big = metadata() + '# ' + 'x' * (1024 * 1024) + '\n'
        self.assertError(archive.build({'metadata.yaml': big,
                                        'main.yaml': PLAYBOOK}),
                         'metadata.yaml" is larger than 1 MiB')

    def test_metadata_not_yaml(self):
        self.assertError(archive.build({'metadata.yaml': 'a: [b',
                                        'main.yaml': PLAYBOOK}),
                         'metadata.yaml is not valid YAML')
        self.assertError(archive.build({'metadata.yaml': '- a\n',
                                        'main.yaml': PLAYBOOK}),
                         'metadata.yaml must be a mapping')

    def test_unsafe_yaml_is_refused(self):
        text = metadata() + 'x: !!python/object/apply:os.system ["true"]\n'
        self.assertError(archive.build({'metadata.yaml': text,
                                        'main.yaml': PLAYBOOK}),
                         'not valid YAML')

    def test_name_and_version(self):
        data = archive.make_module('sysctl', '1.2.0', PLAYBOOK)
        self.assertError(data, 'metadata.yaml says name "sysctl", the '
                               'module is registered as "other"',
                         name='other')
        self.assertError(data, 'metadata.yaml says version "1.2.0", the '
                               'module is registered as "1.3.0"',
                         version='1.3.0')
        for key in ('name', 'version'):
            self.assertError(archive.build({
                'metadata.yaml': metadata(**{key: None}),
                'main.yaml': PLAYBOOK}), 'metadata.yaml has no "%s"' % key)

    def test_playbook(self):
        self.assertError(archive.build({'metadata.yaml': metadata(
            playbook=None), 'main.yaml': PLAYBOOK}),
            'metadata.yaml has no "playbook"')
        self.assertError(archive.build({'metadata.yaml': metadata(
            playbook='missing.yaml'), 'main.yaml': PLAYBOOK}),
            'names the playbook "missing.yaml", which is not a file')
        self.assertError(archive.build({'metadata.yaml': metadata(
            playbook='../main.yaml'), 'main.yaml': PLAYBOOK}),
            '"playbook" must be a path inside the archive')
        self.assertError(archive.build({'metadata.yaml': metadata(
            playbook=['main.yaml']), 'main.yaml': PLAYBOOK}),
            '"playbook" must be a string')

    def test_playbook_must_be_a_regular_file(self):
        self.assertError(raw_tar([
            ({'name': 'metadata.yaml'}, metadata().encode()),
            ({'name': 'real.yaml'}, PLAYBOOK.encode()),
            ({'name': 'main.yaml', 'type': tarfile.SYMTYPE,
              'linkname': 'real.yaml'}, None)]), 'not a file of the archive')
        self.assertError(raw_tar([
            ({'name': 'metadata.yaml'}, metadata().encode()),
            ({'name': 'main.yaml', 'type': tarfile.DIRTYPE}, None)]),
            'not a file of the archive')

    def test_schema(self):
        def with_schema(text, name='schema.json'):
            return archive.build({
                'metadata.yaml': metadata(valuesJsonSchema=name),
                'main.yaml': PLAYBOOK, 'schema.json': text})
        self.assertError(with_schema('{}', 'other.json'),
                         'names the values schema "other.json", which is '
                         'not a file')
        self.assertError(with_schema('{"type": '),
                         'the values schema "schema.json" is not valid JSON')
        self.assertError(with_schema('{"type": "objekt"}'),
                         'the values schema "schema.json": invalid JSON '
                         'schema')
        self.assertError(with_schema('[]'), 'must be a JSON object')
        self.assertError(with_schema(b'\xff'), 'not valid JSON')

    def test_deprecates(self):
        def deprecating(value):
            return archive.build({'metadata.yaml': metadata(
                deprecates=value), 'main.yaml': PLAYBOOK})
        self.assertError(deprecating('1.1.0'), '"deprecates" must be a list')
        self.assertError(deprecating(['1.1.0']), 'deprecates[0] must be')
        self.assertError(deprecating([{'version': '1.1.0'},
                                      {'version': '1.1'}]),
                         'deprecates[1] must be')
        self.assertError(deprecating([{'version': '1.2.0'}]),
                         'version 1.2.0 is not older than 1.2.0')
        self.assertError(deprecating([{'version': '2.0.0'}]),
                         'not older')


class TestBuild(testtools.TestCase):

    def test_reproducible(self):
        files = {'metadata.yaml': metadata(), 'main.yaml': PLAYBOOK,
                 'b/c': b'\x00\x01', 'a': 'é'}
        one = archive.build(files)
        two = archive.build(dict(reversed(list(files.items()))))
        self.assertEqual(one, two)
        self.assertEqual(hashlib.sha256(one).hexdigest(),
                         hashlib.sha256(archive.build(files)).hexdigest())
        self.assertEqual(
            archive.make_module('m', '1.0.0', PLAYBOOK, schema=SCHEMA),
            archive.make_module('m', '1.0.0', PLAYBOOK, schema=SCHEMA))

    def test_headers(self):
        data = archive.build({'b': 'x', 'a': b'yz'})
        self.assertEqual(b'\x00\x00\x00\x00', data[4:8])  # gzip mtime
        with tarfile.open(fileobj=io.BytesIO(data), mode='r:gz') as tar:
            members = tar.getmembers()
            self.assertEqual(['a', 'b'], [m.name for m in members])
            for member in members:
                self.assertEqual((0, 0, 0, 0o644, '', ''),
                                 (member.mtime, member.uid, member.gid,
                                  member.mode, member.uname, member.gname))
            self.assertEqual(b'yz', tar.extractfile('a').read())
            self.assertEqual(b'x', tar.extractfile('b').read())
