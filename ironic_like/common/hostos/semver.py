"""SemVer 2.0.0 versions of host OS modules (https://semver.org).

Module versions are compared to tell which version a ``deprecates`` entry
names and to list versions newest first, so they get the real precedence
rules: 1.0.0-alpha < 1.0.0-alpha.1 < 1.0.0-beta < 1.0.0 < 1.0.1 < 1.10.0,
which neither string order nor a tuple of the dotted parts gives.
"""

import re

from ironic_like.common import exception

# The regular expression suggested by semver.org, with [0-9] for \d (which
# would also accept non-ASCII digits) and used with fullmatch (``$`` would
# accept a trailing newline).
_NUM = r'(?:0|[1-9][0-9]*)'
_PRE_ID = r'(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)'
_BUILD_ID = r'[0-9a-zA-Z-]+'
_SEMVER = re.compile(
    r'(?P<major>%(n)s)\.(?P<minor>%(n)s)\.(?P<patch>%(n)s)'
    r'(?:-(?P<pre>%(p)s(?:\.%(p)s)*))?'
    r'(?:\+(?P<build>%(b)s(?:\.%(b)s)*))?'
    % {'n': _NUM, 'p': _PRE_ID, 'b': _BUILD_ID})


def is_valid(text):
    """Whether ``text`` is a SemVer 2.0.0 version (a string)."""
    return isinstance(text, str) and _SEMVER.fullmatch(text) is not None


def sort_key(text):
    """A key sorting versions by SemVer precedence (lowest first).

    A release sorts after its pre-releases; pre-release identifiers compare
    numerically when numeric, in ASCII order otherwise, numeric before
    alphanumeric, and a shorter list first when all else is equal. Build
    metadata has no precedence: it only breaks ties, so that sorting is
    deterministic. Raises ValueError for an invalid version.
    """
    match = _SEMVER.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError('%r is not a SemVer 2.0.0 version' % (text,))
    pre = match.group('pre')
    if pre is None:
        pre_key = (1,)
    else:
        pre_key = (0, tuple((0, int(part), '') if part.isdigit()
                            else (1, 0, part)
                            for part in pre.split('.')))
    return (int(match.group('major')), int(match.group('minor')),
            int(match.group('patch')), pre_key, match.group('build') or '')


def check(text, field):
    """Return ``text`` if it is a valid version, else raise a 400."""
    if not is_valid(text):
        raise exception.InvalidParameterValue(
            err='%r is not a SemVer 2.0.0 version (MAJOR.MINOR.PATCH with '
                'optional -pre-release and +build, e.g. 1.2.0 or '
                '1.2.0-rc.1)' % (text,),
            field=field)
    return text
