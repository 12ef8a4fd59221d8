"""Secrets kept out of API answers and log lines, as Ironic keeps them.

oslo.utils does the masking (strutils.mask_dict_password for dicts,
strutils.mask_password for text) with Ironic's mask, "******"; two things
it misses are added here: the password of a URL ("https://user:pw@bmc")
and keys spelled "passwd".

mask_dict() is called for every node of a list of up to a thousand: a
dict with nothing to mask (the common case) is recognised by one cached
check per key and one regular expression search per string value, and is
returned as is, without a copy.
"""

import re

from oslo_utils import strutils

MASK = '******'

# oslo.utils' secret words (its list is not public API: fall back to the
# words Ironic's users meet) plus ours.
_OSLO_WORDS = tuple(getattr(strutils, '_SANITIZE_KEYS', (
    'password', 'secret', 'token', 'configdrive', 'private_key',
    'passphrase')))
_EXTRA_WORDS = ('passwd',)
_WORDS = tuple(w.lower() for w in _OSLO_WORDS + _EXTRA_WORDS)

# scheme://user:password@ (RFC 3986 userinfo; the password runs to the
# last "@" before the path, so an unescaped "@" in it is masked too).
_URL_PASSWORD = re.compile(
    r'(?P<head>\b[A-Za-z][A-Za-z0-9+.\-]*://[^:/?#@\s]*:)[^/?#\s]*@')

# Key -> is it secret: the same few keys recur on every node of a list.
_secret_keys = {}
_SECRET_KEYS_MAX = 4096


def is_secret_key(key):
    """Whether a dict key names a secret (its value is masked whole)."""
    found = _secret_keys.get(key)
    if found is None:
        lowered = key.lower()
        found = any(word in lowered for word in _WORDS)
        if len(_secret_keys) < _SECRET_KEYS_MAX:
            _secret_keys[key] = found
    return found


def _may_hold_secret(text):
    """Whether mask_text() might change ``text``: it holds a secret word
    or a URL with a password. (Substring tests beat one regular expression
    of 36 alternatives tenfold.)"""
    lowered = text.lower()
    for word in _WORDS:
        if word in lowered:
            return True
    return '@' in text and '://' in text


def mask_url_password(text):
    """``text`` with the password of every URL in it masked."""
    if '@' not in text:
        return text
    return _URL_PASSWORD.sub(r'\g<head>' + MASK + '@', text)


def mask_text(text):
    """A message or a value with its secrets masked: "password=...",
    '"token": "..."' and the like (oslo.utils), URL passwords."""
    if not isinstance(text, str):
        text = str(text)
    if not _may_hold_secret(text):
        return text
    return mask_url_password(strutils.mask_password(text, secret=MASK))


def _needs_mask(value):
    if isinstance(value, str):
        return _may_hold_secret(value)
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and is_secret_key(key):
                return True
            if _needs_mask(item):
                return True
        return False
    if isinstance(value, (list, tuple)):
        return any(_needs_mask(item) for item in value)
    return False


def _mask_extra(value):
    """What oslo.utils leaves: "passwd" keys and URL passwords."""
    if isinstance(value, str):
        return mask_url_password(value)
    if isinstance(value, dict):
        return {key: (MASK if isinstance(key, str) and is_secret_key(key)
                      else _mask_extra(item))
                for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_mask_extra(item) for item in value]
    return value


def mask_dict(value):
    """``value`` (a dict such as driver_info) with its secrets masked:
    the values of secret-looking keys, at any depth, become "******", and
    passwords inside string values (URLs, "password=...") are masked.
    Anything but a dict, and a dict with nothing to mask, is returned as
    is."""
    if not isinstance(value, dict) or not _needs_mask(value):
        return value
    return _mask_extra(strutils.mask_dict_password(value, secret=MASK))


def mask(value):
    """mask_dict() for a dict, mask_text() for a string, else as is."""
    if isinstance(value, dict):
        return mask_dict(value)
    if isinstance(value, str):
        return mask_text(value)
    return value
