"""PCI addresses (bus:device.function, "BDF").

Agents, operators and Cyborg spell the same function differently
(``5E:00.1``, ``0000:5e:00.1``); records, handle keys and duplicate checks
need one spelling, so every address is normalised to ``dddd:bb:dd.f``
lower case before it is compared or stored.
"""

import re

# A device number is 5 bits (00-1f), a function number 3 bits (0-7).
_ADDRESS = re.compile(
    r'(?:(?P<domain>[0-9a-f]{4}):)?(?P<bus>[0-9a-f]{2}):'
    r'(?P<device>[01][0-9a-f])\.(?P<function>[0-7])')


def _match(text):
    if not isinstance(text, str):
        raise ValueError('A PCI address must be a string, not %r' % (text,))
    # fullmatch: "$" would also accept a trailing newline.
    match = _ADDRESS.fullmatch(text.lower())
    if match is None:
        raise ValueError('%r is not a PCI address (dddd:bb:dd.f or bb:dd.f)'
                         % (text,))
    return match


def normalize_address(text):
    """``text`` as ``dddd:bb:dd.f`` lower case (domain 0000 when absent).

    :raises ValueError: not a string, or not a PCI address.
    """
    parts = bdf_info(text)
    return '%(domain)s:%(bus)s:%(device)s.%(function)s' % parts


def bdf_info(address):
    """The parts of a PCI address, each as its normalised hex string.

    E.g. ``{"domain": "0000", "bus": "5e", "device": "00",
    "function": "1"}``: the attach_info of a handle carries them so that a
    consumer need not parse the address again.

    :raises ValueError: not a PCI address.
    """
    match = _match(address)
    return {'domain': match.group('domain') or '0000',
            'bus': match.group('bus'),
            'device': match.group('device'),
            'function': match.group('function')}
