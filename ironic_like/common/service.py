"""What every console script does first: logging and configuration."""

import sys
import warnings

from oslo_log import log

from ironic_like.common import rpc
from ironic_like.conf import CONF

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
