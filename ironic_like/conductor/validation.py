"""GET /v1/nodes/{id}/validate: each interface of the node checks the
node (driver_info and the like) on the node's conductor, which has the
drivers loaded and the BMCs in reach.

The answer is Ironic's: per interface ``result`` true (valid), false with
the ``reason`` (invalid), or null with the reason when the interface is a
no-op one that cannot do anything (no-console, no-raid...). The vendor
interface is left out, as Ironic leaves it out.
"""

from oslo_log import log

from ironic_like.common import exception
from ironic_like.conductor import locks
from ironic_like.conf import CONF
from ironic_like.drivers import base

LOG = log.getLogger(__name__)

VALIDATED_KINDS = tuple(k for k in base.INTERFACE_KINDS if k != 'vendor')


def _check(task, kind):
    iface = getattr(task.driver, kind, None)
    if iface is None:
        return {'result': None, 'reason': 'not supported'}
    try:
        iface.validate(task)
    except exception.UnsupportedDriverExtension as e:
        return {'result': None, 'reason': exception.safe_message(e)}
    except exception.Invalid as e:
        # InvalidParameterValue, MissingParameterValue and the like: the
        # node's fault, told as it is.
        return {'result': False, 'reason': exception.safe_message(e)}
    except Exception as e:
        # A bug or an unreachable service: the operator needs the log.
        LOG.exception('Unexpected error validating the %s interface of '
                      'node %s', kind, task.node.uuid)
        return {'result': False,
                'reason': 'Unexpected exception, traceback saved into log '
                          'by the conductor service that is running on '
                          '%s: %s' % (CONF.host,
                                      exception.safe_message(e))}
    return {'result': True}


def validate_driver_interfaces(context, node_id):
    """{kind: {'result': True|False|None[, 'reason': text]}}."""
    with locks.acquire(context, node_id, shared=True,
                       purpose='driver interface validation') as task:
        return {kind: _check(task, kind) for kind in VALIDATED_KINDS}
