"""The TLS certificate an agent sends with its heartbeat
(``agent_verify_ca``, API 1.68), with which the conductor verifies the
agent's https URL.

As Ironic does, the certificate is written to
``[agent]certificates_path/<node uuid>.crt`` and its path kept in the
node's driver_internal_info; a different certificate from the same agent
is refused. The text is kept there too: a conductor that takes the node
over writes the file again before it talks to the agent (certificates are
public; only the agent's key is secret, and it never leaves the agent).
"""

import os

from oslo_log import log

from ironic_like.common import exception
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

PATH_KEY = 'agent_verify_ca'
TEXT_KEY = 'agent_verify_ca_text'
# The most a certificate (chain) may take, in characters.
MAX_LENGTH = 65536


def _path(node_uuid):
    return os.path.join(CONF.agent.certificates_path, '%s.crt' % node_uuid)


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wt') as f:
        f.write(text)


def store(node_uuid, info, text):
    """Record certificate ``text`` of the node's agent; returns the
    {key: value} to merge into driver_internal_info ``info``.

    :raises: InvalidParameterValue if the agent sent another one before
        (its agent changed without a new lookup: refused, as Ironic)."""
    known = (info or {}).get(TEXT_KEY)
    if known is not None and not is_stored(info, text):
        LOG.error('Node %s: the agent sent a different agent_verify_ca',
                  node_uuid)
        raise exception.InvalidParameterValue(
            err='Detected change in ramdisk provided "agent_verify_ca"',
            field='agent_verify_ca')
    path = _path(node_uuid)
    _write(path, text)
    return {PATH_KEY: path, TEXT_KEY: text}


def is_stored(info, text):
    """Whether driver_internal_info ``info`` holds certificate ``text``
    already (surrounding whitespace aside)."""
    known = (info or {}).get(TEXT_KEY)
    return known is not None and known.strip() == text.strip()


def verify_for(node_uuid, info):
    """What ``requests`` should verify the agent's certificate with: the
    stored certificate's path (written again if this conductor lacks the
    file), or True (the system's CAs) when the agent sent none."""
    text = (info or {}).get(TEXT_KEY)
    if not text:
        return True
    path = (info or {}).get(PATH_KEY) or _path(node_uuid)
    if not os.path.exists(path):
        path = _path(node_uuid)
        _write(path, text)
    return path
