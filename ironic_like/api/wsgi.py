"""Entry point for WSGI servers (uwsgi, mod_wsgi, gunicorn):
``ironic-like-api-wsgi`` is generated from it by pbr."""

import sys

from oslo_config import cfg
from oslo_log import log

from ironic_like.api import app
from ironic_like.conf import CONF


def initialize_wsgi_app(argv=None):
    """Parse the configuration (from ``argv``, default sys.argv) and
    return the API application."""
    argv = sys.argv if argv is None else argv
    try:
        log.register_options(CONF)
    except cfg.ArgsAlreadyParsedError:
        pass
    CONF(argv[1:], project='ironic_like')
    log.setup(CONF, 'ironic_like')
    return app.setup_app()
