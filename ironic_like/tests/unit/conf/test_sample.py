"""The committed sample config lists every option of ours (regenerate it
with `tox -e genconfig` after adding one)."""

import os
import re

import testtools

from ironic_like.conf import opts

SAMPLE = os.path.join(os.path.dirname(__file__), '..', '..', '..', '..',
                      'etc', 'ironic_like', 'ironic_like.conf.sample')


def _sections(text):
    sections = {}
    current = None
    for line in text.splitlines():
        match = re.match(r'^\[(\w+)\]$', line)
        if match:
            current = sections.setdefault(match.group(1), [])
        elif current is not None:
            current.append(line)
    return {name: '\n'.join(lines) for name, lines in sections.items()}


class TestSampleConfig(testtools.TestCase):

    def test_every_option_is_in_the_sample(self):
        with open(SAMPLE) as f:
            sections = _sections(f.read())
        missing = []
        for group, group_opts in opts.list_opts():
            body = sections.get(group, '')
            for opt in group_opts:
                if not re.search(r'^#?%s =' % re.escape(opt.dest), body,
                                 re.MULTILINE):
                    missing.append('[%s]%s' % (group, opt.dest))
        self.assertEqual([], missing,
                         'run "tox -e genconfig" to refresh the sample')

    def test_every_option_has_help(self):
        for group, group_opts in opts.list_opts():
            for opt in group_opts:
                self.assertTrue(opt.help, '[%s]%s' % (group, opt.dest))
