"""Ironic's ``redfish`` vendor interface: its node vendor passthru
methods, called as Ironic's are (``POST|GET|DELETE
/v1/nodes/{node}/vendor_passthru?method=<name>``, the JSON body the
arguments; synchronous but eject_vmedia).

``eject_vmedia``
    What DELETE /v1/nodes/{id}/vmedia (1.89) does, by Ironic's older
    route.
``create_subscription`` (POST), ``get_all_subscriptions`` (GET),
``get_subscription`` (GET), ``delete_subscription`` (DELETE)
    Redfish event subscriptions on the node's BMC (its EventService):
    the BMC then sends the events asked for (``EventTypes``, default
    ``["Alert"]``) to ``Destination``, an event listener of the
    operator's; this service only manages the subscriptions, as Ironic
    does. A subscription is answered as its ``Id``, ``Context``,
    ``Protocol``, ``Destination`` and ``EventTypes``; ``Id`` is what
    ``get_subscription`` and ``delete_subscription`` take as ``id``.
    Checked before the BMC is asked (400 naming the argument):
    ``Destination`` a URI with a scheme and a host; ``EventTypes`` a list
    of the types the BMC offers (its EventTypesForSubscription);
    ``Context`` and ``Protocol`` text; ``HttpHeaders`` a list. A
    subscription the BMC does not have is 404.
"""

import contextlib
from urllib import parse as urlparse

from oslo_log import log
import sushy

from ironic_like.common import exception
from ironic_like.common import masking
from ironic_like.drivers import base
from ironic_like.drivers.modules import redfish
from ironic_like.drivers.modules import redfish_utils

LOG = log.getLogger(__name__)

# eject_vmedia's boot_device (Ironic's words) -> the device type of
# virtual media (API 1.89).
_EJECT_DEVICES = {'cd': 'cdrom', 'dvd': 'cdrom', 'usb': 'disk',
                  'floppy': 'floppy'}

# What a subscription is answered as (Ironic's fields).
SUBSCRIPTION_FIELDS = ('Id', 'Context', 'Protocol', 'Destination',
                       'EventTypes')
DEFAULT_EVENT_TYPES = ['Alert']


def _invalid(field, err):
    return exception.InvalidParameterValue(err=err, field=field)


def _subscription(json_doc):
    return {key: value for key, value in (json_doc or {}).items()
            if key in SUBSCRIPTION_FIELDS}


@contextlib.contextmanager
def _bmc_errors(info, action, subscription_id=None):
    """sushy's errors as ours: a subscription the BMC does not have is
    NotFound (404; not a wrong redfish_system_id, what sushy_errors says
    of a 404); the BMC's refusal or failure is 500 quoting it."""
    with redfish_utils.sushy_errors(info, action,
                                    exception.IronicLikeException):
        try:
            yield
        except sushy.exceptions.ResourceNotFoundError as e:
            if subscription_id is None:
                # Not a subscription's 404 (the collection's): the BMC's
                # failure, quoted.
                raise exception.IronicLikeException(masking.mask_text(
                    'Node %s: %s: %s failed: %s'
                    % (info['node_uuid'], redfish_utils.describe(info),
                       action, e)))
            raise exception.NotFound(masking.mask_text(
                'Node %s: %s: the BMC has no event subscription %s: %s'
                % (info['node_uuid'], redfish_utils.describe(info),
                   subscription_id, e)))


class RedfishVendor(redfish._RedfishBMC, base.VendorInterface):
    """Ironic's ``redfish`` vendor interface: eject_vmedia and the event
    subscription methods."""

    def validate(self, task, method=None, **kwargs):
        super().validate(task)
        if method == 'eject_vmedia':
            device = kwargs.get('boot_device')
            if device is not None and device not in _EJECT_DEVICES:
                raise _invalid('boot_device', 'Boot device %s is not a '
                               'valid value; use one of %s.' % (
                                   device, ', '.join(sorted(_EJECT_DEVICES))))
        elif method == 'create_subscription':
            self._check_new_subscription(task, kwargs)
        elif method in ('get_subscription', 'delete_subscription'):
            _subscription_id(kwargs.get('id'))

    def _check_new_subscription(self, task, kwargs):
        destination = kwargs.get('Destination')
        try:
            parsed = (urlparse.urlparse(destination)
                      if isinstance(destination, str) else None)
            host = parsed.hostname if parsed is not None else None
        except ValueError:
            parsed = host = None    # a bad IPv6 host, a bad port
        if parsed is None or not parsed.scheme or not host:
            raise _invalid('Destination', 'Destination %r is not a valid '
                           'URI (a scheme and a host)' % (destination,))
        for field, default in (('Context', ''), ('Protocol', 'Redfish')):
            if not isinstance(kwargs.get(field, default), str):
                raise _invalid(field, '%s %r is not a string'
                               % (field, kwargs[field]))
        headers = kwargs.get('HttpHeaders')
        if headers is not None and not isinstance(headers, list):
            raise _invalid('HttpHeaders', 'HttpHeaders %r is not a list of '
                           'headers' % (headers,))
        event_types = kwargs.get('EventTypes')
        if event_types is None:
            return
        if (not isinstance(event_types, list) or not event_types
                or not all(isinstance(t, str) for t in event_types)):
            raise _invalid('EventTypes', 'EventTypes %r is not a list of '
                           'event types' % (event_types,))
        action = 'reading the event types it offers'
        info, service = redfish_utils.get_event_service(task.node, action)
        with redfish_utils.sushy_errors(info, action,
                                        exception.IronicLikeException):
            # As the BMC lists them (sushy's list knows only the types of
            # its enum, and gives them all when the BMC lists none).
            listed = service.event_types_for_subscription
            offered = {t for t in (listed if isinstance(listed, list)
                                   else []) if isinstance(t, str)} or {
                getattr(t, 'value', t) for t in
                service.get_event_types_for_subscription()}
        refused = sorted(set(event_types) - offered)
        if refused:
            raise _invalid('EventTypes', 'EventTypes %s are not offered by '
                           'the BMC; it offers %s'
                           % (', '.join(refused),
                              ', '.join(sorted(offered))))

    @base.passthru(['POST'], description=(
        'Eject a virtual media device. If no device is provided then all '
        'attached devices will be ejected. Optional arguments: '
        '\'boot_device\' - the boot device to eject, either \'cd\', '
        '\'dvd\', \'usb\', or \'floppy\''))
    def eject_vmedia(self, task, http_method=None, boot_device=None):
        task.driver.management.detach_virtual_media(
            task, [_EJECT_DEVICES[boot_device]] if boot_device else None)

    @base.passthru(['POST'], async_call=False, description=(
        'Creates a subscription on a node. Required argument: a '
        'dictionary of {\'Destination\': \'destination_url\'}'))
    def create_subscription(self, task, http_method=None, Destination=None,
                            EventTypes=None, Context='', Protocol='Redfish',
                            HttpHeaders=None):
        payload = {'Destination': Destination, 'Protocol': Protocol,
                   'Context': Context,
                   'EventTypes': EventTypes or list(DEFAULT_EVENT_TYPES)}
        if HttpHeaders:
            # Sent to the BMC only: they may carry the listener's
            # credentials, and are never answered back.
            payload['HttpHeaders'] = HttpHeaders
        action = 'creating an event subscription'
        info, service = redfish_utils.get_event_service(task.node, action)
        with _bmc_errors(info, action):
            created = service.subscriptions.create(payload)
        if created is None:
            # sushy: the BMC did not answer 201 with a Location.
            raise exception.IronicLikeException(masking.mask_text(
                'Node %s: %s: %s failed: the BMC did not say where the '
                'subscription is (no 201 with a Location)'
                % (info['node_uuid'], redfish_utils.describe(info),
                   action)))
        LOG.info('Node %s: event subscription %s created for %s',
                 task.node.uuid, created.identity,
                 masking.mask_url_password(Destination))
        return _subscription(created.json)

    @base.passthru(['GET'], async_call=False, description=(
        'Returns all subscriptions on the node.'))
    def get_all_subscriptions(self, task, http_method=None):
        action = 'listing the event subscriptions'
        info, service = redfish_utils.get_event_service(task.node, action)
        with _bmc_errors(info, action):
            return service.subscriptions.json

    @base.passthru(['GET'], async_call=False, description=(
        'Get a subscription on the node. Required argument: a dictionary '
        'of {\'id\': \'subscription_bmc_id\'}'))
    def get_subscription(self, task, http_method=None, id=None):
        with _subscription_of(task, id, 'reading') as member:
            return _subscription(member.json)

    @base.passthru(['DELETE'], async_call=False, description=(
        'Delete a subscription on a node. Required argument: a dictionary '
        'of {\'id\': \'subscription_bmc_id\'}'))
    def delete_subscription(self, task, http_method=None, id=None):
        with _subscription_of(task, id, 'deleting') as member:
            member.delete()
        LOG.info('Node %s: event subscription %s deleted', task.node.uuid,
                 _subscription_id(id))


def _subscription_id(value):
    """``id`` as the BMC's subscription Id (text; a whole number, as
    python-ironicclient's ``--arg id=1`` sends it, is taken as text);
    InvalidParameterValue naming ``id`` otherwise, or for "." and ".."
    (a path segment that would name another resource)."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or value.strip() in ('', '.', '..'):
        raise _invalid('id', 'id must be the Id of one of the BMC\'s event '
                       'subscriptions, got %r' % (value,))
    return value


@contextlib.contextmanager
def _subscription_of(task, value, verb):
    """The BMC's subscription ``value`` (the ``id`` argument), the BMC's
    errors turned into ours (404 when it has no such subscription) for
    what the block does with it."""
    subscription_id = _subscription_id(value)
    action = '%s event subscription %s' % (verb, subscription_id)
    info, service = redfish_utils.get_event_service(task.node, action)
    with _bmc_errors(info, action, subscription_id):
        yield _member(service, subscription_id)


def _member(service, subscription_id):
    """The BMC's subscription ``subscription_id`` (its Id, a path segment
    under the subscriptions collection: quoted, and never "." or "..",
    so that an Id cannot name another resource)."""
    collection = service.subscriptions
    return collection.get_member('%s/%s' % (
        collection.path.rstrip('/'), urlparse.quote(subscription_id,
                                                    safe='')))
