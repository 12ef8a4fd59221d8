"""What every console script does first: logging and configuration; and
what an API service checks before it serves."""

import ipaddress
import socket
import sys
import warnings

from oslo_log import log

from ironic_like.common import rpc
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

_QUIET_LOGGERS = ['amqp=WARN', 'amqplib=WARN', 'kombu=WARN',
                  'oslo.messaging=INFO', 'oslo_messaging=INFO',
                  'stevedore=WARN', 'urllib3=WARN', 'keystonemiddleware=WARN',
                  'sqlalchemy=WARN', 'oslo_policy=WARN', 'tooz=WARN',
                  'futurist=WARN', 'cheroot=WARN', 'pecan=WARN']


def prepare_service(argv=None, default_config_files=None):
    # oslo.messaging pulls in eventlet only to warn that it is deprecated;
    # we never use it.
    warnings.filterwarnings('ignore', module='oslo_service')
    warnings.filterwarnings('ignore', message='.*[Ee]ventlet.*')
    argv = sys.argv[1:] if argv is None else argv
    log.register_options(CONF)
    log.set_defaults(default_log_levels=log.get_default_log_levels() +
                     _QUIET_LOGGERS)
    rpc.register_opts(CONF)
    CONF(argv, project='ironic_like', prog=None,
         default_config_files=default_config_files)
    log.setup(CONF, 'ironic_like')


# -- noauth only on loopback ------------------------------------------------

class UnsafeConfiguration(Exception):
    """The configuration would expose the service without protection."""


def _is_loopback_address(text):
    try:
        address = ipaddress.ip_address(text.split('%', 1)[0])
    except ValueError:
        return False
    mapped = getattr(address, 'ipv4_mapped', None)
    return (mapped or address).is_loopback


def is_loopback(host):
    """Whether ``host`` (an address, or a name resolving to addresses)
    can be reached from this machine only. 0.0.0.0 and :: (every
    interface) are not; a name that does not resolve is not."""
    host = (host or '').strip().strip('[]')
    try:
        ipaddress.ip_address(host.split('%', 1)[0])
    except ValueError:
        pass
    else:
        return _is_loopback_address(host)
    try:
        infos = socket.getaddrinfo(host, None)
    except (OSError, UnicodeError):
        return False
    addresses = {info[4][0] for info in infos}
    return bool(addresses) and all(_is_loopback_address(a)
                                   for a in addresses)


def check_noauth_exposure(conf=CONF):
    """Refuse noauth (every caller an administrator) on an API reachable
    from other machines, unless [api]allow_insecure_noauth says so (then
    warn).

    :raises UnsafeConfiguration: with a message naming the options.
    """
    if conf.auth_strategy != 'noauth':
        return
    host = conf.api.host_ip
    if is_loopback(host):
        return
    if conf.api.allow_insecure_noauth:
        LOG.warning('[DEFAULT]auth_strategy is noauth and the API listens '
                    'on %s (not a loopback address): anyone who can reach '
                    'port %s is an administrator of this service. '
                    '[api]allow_insecure_noauth is set; use it on an '
                    'isolated lab network only.', host, conf.api.port)
        return
    raise UnsafeConfiguration(
        'refusing to start: [DEFAULT]auth_strategy = noauth makes every '
        'caller an administrator, and [api]host_ip = %s is not a loopback '
        'address. Use auth_strategy = keystone or http_basic, or listen on '
        '127.0.0.1, or (on an isolated lab network only) set '
        '[api]allow_insecure_noauth = True.' % host)


def exit_if_noauth_exposed(prog):
    """check_noauth_exposure() for a console script: log the refusal and
    exit with it (status 1) rather than serve."""
    try:
        check_noauth_exposure()
    except UnsafeConfiguration as e:
        LOG.critical('%s', e)
        raise SystemExit('%s: %s' % (prog, e))
