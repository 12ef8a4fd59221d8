"""The URL an agent says it listens on (``callback_url``/``agent_url``).

The conductor sends that URL the node's agent token with every command,
so whoever heartbeats must not be able to point it anywhere: only http or
https, a host, no user name or password (nor a query or fragment, which
would mangle the command URLs built from it), and, when
``[agent]allowed_callback_networks`` is set, an IP address inside one of
those networks. The address need not belong to one of the node's ports:
an agent may call back on another NIC than the one it booted from. With
``[agent]require_tls``, only https.

The API checks it (400 naming the field) before calling the conductor;
the conductor checks it again before recording it.
"""

import ipaddress
import urllib.parse

from ironic_like.common import exception
from ironic_like.conf import CONF


def _invalid(field, reason):
    return exception.InvalidParameterValue(
        err='"%s" %s.' % (field, reason), field=field)


def check(value, field='callback_url'):
    """``value`` if it is an acceptable callback URL.

    :raises: MissingParameterValue when it is missing,
        InvalidParameterValue otherwise (both 400, naming ``field``). The
        messages never repeat the URL: it may hold a password.
    """
    if not isinstance(value, str) or not value:
        raise exception.MissingParameterValue(
            err='"%s" is required: the URL the agent listens on.' % field,
            field=field)
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in value):
        raise _invalid(field, 'must not contain spaces or control '
                              'characters')
    try:
        parsed = urllib.parse.urlsplit(value)
        port = parsed.port
    except ValueError:
        raise _invalid(field, 'is not a valid URL')
    if parsed.scheme.lower() not in ('http', 'https'):
        raise _invalid(field, 'must be an http or https URL')
    # As Ironic's [agent]require_tls: the agent token then never travels
    # in clear to the agent.
    if CONF.agent.require_tls and parsed.scheme.lower() != 'https':
        raise _invalid(field, 'must be an https URL ([agent]require_tls)')
    if '@' in parsed.netloc:
        raise _invalid(field, 'must not carry a user name or password')
    host = parsed.hostname
    if not host:
        raise _invalid(field, 'must name a host')
    if port == 0:
        raise _invalid(field, 'must not use port 0')
    if parsed.query or parsed.fragment or value.rstrip().endswith(('?',
                                                                   '#')):
        raise _invalid(field, 'must not carry a query or a fragment')
    networks = CONF.agent.allowed_callback_networks
    if networks:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            raise _invalid(field, 'must give the agent\'s IP address, not '
                                  'a host name, when '
                                  '[agent]allowed_callback_networks is set')
        if not any(address in ipaddress.ip_network(net)
                   for net in networks):
            raise _invalid(field, 'points to %s, outside the networks '
                                  'agents may call back from '
                                  '([agent]allowed_callback_networks)'
                                  % address)
    return value
