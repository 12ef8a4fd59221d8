"""oslo.messaging plumbing shared by the API and the conductors."""

import oslo_messaging as messaging
from oslo_messaging.rpc import dispatcher

from ironic_like.common import context as ctx
from ironic_like.conf import CONF

TRANSPORT = None
# Our exceptions arrive in the API as the same classes (not RemoteError).
ALLOWED_EXMODS = ['ironic_like.common.exception']
# Used by the embedded mode: everything in one process, no broker.
EMBEDDED_TRANSPORT_URL = 'fake://'


def init(conf=CONF):
    global TRANSPORT
    if TRANSPORT is None:
        messaging.set_transport_defaults('ironic_like')
        TRANSPORT = messaging.get_rpc_transport(
            conf, allowed_remote_exmods=ALLOWED_EXMODS)
    return TRANSPORT


def cleanup():
    global TRANSPORT
    if TRANSPORT is not None:
        TRANSPORT.cleanup()
    TRANSPORT = None


class RequestContextSerializer(messaging.Serializer):
    """Carries the request context across RPC as a plain dict."""

    def serialize_entity(self, context, entity):
        return entity

    def deserialize_entity(self, context, entity):
        return entity

    def serialize_context(self, context):
        return context.to_dict()

    def deserialize_context(self, context):
        return ctx.RequestContext.from_dict(context)


def get_client(target, version_cap=None):
    return messaging.get_rpc_client(init(), target, version_cap=version_cap,
                                    serializer=RequestContextSerializer())


def get_server(target, endpoints):
    return messaging.get_rpc_server(
        init(), target, endpoints,
        serializer=RequestContextSerializer(),
        access_policy=dispatcher.DefaultRPCAccessPolicy)


def register_opts(conf=CONF):
    """Register oslo.messaging's [DEFAULT] options (transport_url, ...)
    early, so commands can read or default them before the transport is
    built. Registering the same options again later is harmless."""
    # The very Opt objects oslo.messaging registers itself: list_opts()
    # returns copies, and once set_transport_defaults() or set_default()
    # changes a default the copy no longer equals the original, so the
    # library's own registration raises DuplicateOptError.
    from oslo_messaging import transport as messaging_transport
    conf.register_opts(messaging_transport._transport_opts)
