"""Read-only views of the inspection data with the secrets masked.

Conditions and interpolation see the inventory and plugin data through
these views ([inspection_rules]mask_secrets): the value of a secret key
(password, auth_token, bmc_password..., as ironic_like.common.masking
recognises them) reads as the mask. The views are lazy and live: nothing
is copied, and a change an action makes to the plugin data is seen by
the next read.
"""

from collections import abc

from ironic_like.common import masking

MASK = masking.MASK


def _is_secret(key):
    return isinstance(key, str) and masking.is_secret_key(key)


def _view(value):
    if isinstance(value, dict):
        return MaskedMapping(value)
    if isinstance(value, (list, tuple)):
        return MaskedSequence(value)
    return value


class MaskedMapping(abc.Mapping):
    """A dict whose secret values read as the mask."""

    def __init__(self, data):
        self._data = data

    def __getitem__(self, key):
        value = self._data[key]
        return MASK if _is_secret(key) else _view(value)

    def __iter__(self):
        return iter(self._data)

    def __len__(self):
        return len(self._data)

    def __repr__(self):
        # As the dict would print, masked: what "{inventory[x]}" shows.
        return repr(dict(self.items()))


class MaskedSequence(abc.Sequence):
    """A list whose dictionaries are masked."""

    def __init__(self, data):
        self._data = data

    def __getitem__(self, index):
        if isinstance(index, slice):
            return MaskedSequence(self._data[index])
        return _view(self._data[index])

    def __len__(self):
        return len(self._data)

    def __repr__(self):
        return repr(list(self))


def view(data, mask):
    """``data`` (a dict) as conditions and interpolation see it: masked
    if ``mask``, else as is."""
    return MaskedMapping(data) if mask else data
