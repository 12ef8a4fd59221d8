"""The agent token: the secret a deploy agent proves itself with.

It lives in the node's driver_internal_info. Either the conductor put it
in the boot configuration (out of band, ``agent_secret_token_pregenerated``
set), or the first lookup generates it and hands it to the agent. Every
heartbeat must carry it; the API never shows it; it is dropped when the
node leaves the ramdisk.
"""

import hmac
import secrets

TOKEN_KEY = 'agent_secret_token'
PREGENERATED_KEY = 'agent_secret_token_pregenerated'
# What the API shows instead of a token, and what a lookup hands out when
# the agent already has its token (ironic-python-agent understands it as
# "keep the one you were given").
MASK = '******'


def generate():
    return secrets.token_urlsafe(32)


def get(info):
    return (info or {}).get(TOKEN_KEY)


def is_present(info):
    return bool(get(info))


def is_valid(info, candidate):
    """Whether ``candidate`` is the node's token (constant-time compare);
    never valid when the node has no token or the candidate is empty or
    the mask."""
    token = get(info)
    if not token or not candidate or not isinstance(candidate, str):
        return False
    if candidate == MASK:
        return False
    return hmac.compare_digest(token.encode('utf-8'),
                               candidate.encode('utf-8'))


def with_new_token(info, pregenerated=False):
    """A copy of ``info`` holding a fresh token."""
    info = dict(info or {})
    info[TOKEN_KEY] = generate()
    if pregenerated:
        info[PREGENERATED_KEY] = True
    else:
        info.pop(PREGENERATED_KEY, None)
    return info


def without_token(info):
    """A copy of ``info`` without the token and its flag."""
    info = dict(info or {})
    info.pop(TOKEN_KEY, None)
    info.pop(PREGENERATED_KEY, None)
    return info


def masked(info):
    """A copy of ``info`` with the token replaced by the mask."""
    info = dict(info)
    if info.get(TOKEN_KEY) is not None:
        info[TOKEN_KEY] = MASK
    return info
