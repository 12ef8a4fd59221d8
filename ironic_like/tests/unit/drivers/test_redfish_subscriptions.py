"""The redfish vendor interface's event subscription methods (Ironic's
create_subscription, get_all_subscriptions, get_subscription,
delete_subscription) against a mocked EventService."""

from unittest import mock

import sushy

from ironic_like.common import exception
from ironic_like.drivers import base as drivers_base
from ironic_like.drivers.modules import redfish_vendor
from ironic_like.tests.unit.drivers import test_firmware
from ironic_like.tests.unit.drivers import test_redfish

COLLECTION = '/redfish/v1/EventService/Subscriptions'
CREATED = {'@odata.id': COLLECTION + '/1', 'Id': '1', 'Name': 'Sub 1',
           'Destination': 'https://listener.example/events',
           'Protocol': 'Redfish', 'Context': 'rack-4',
           'EventTypes': ['Alert'],
           'HttpHeaders': [{'Authorization': 'secret'}]}


def _not_found():
    return sushy.exceptions.ResourceNotFoundError(
        method='GET', url=COLLECTION + '/9', response=mock.Mock(
            status_code=404, json=mock.Mock(return_value={})))


class TestSubscriptions(test_redfish._SushyTest):

    def setUp(self):
        super().setUp()
        self.service = mock.Mock()
        self.service.get_event_types_for_subscription.return_value = {
            sushy.EventType.ALERT, sushy.EventType.STATUS_CHANGE}
        self.subscriptions = self.service.subscriptions
        self.subscriptions.path = COLLECTION
        self.subscriptions.create.return_value = mock.Mock(
            identity='1', json=CREATED)
        self.conn.get_event_service.return_value = self.service
        self.vendor = redfish_vendor.RedfishVendor()
        self.task = test_firmware._task()

    def _validate(self, method, **kwargs):
        self.vendor.validate(self.task, method=method, http_method='POST',
                             **kwargs)

    def _refused(self, method, field, message, **kwargs):
        e = self.assertRaises(exception.InvalidParameterValue,
                              self._validate, method, **kwargs)
        self.assertEqual(field, e.field)
        self.assertIn(message, str(e))

    def test_routes_as_ironic_marks_them(self):
        routes = self.vendor.vendor_routes
        for method, http in (('create_subscription', 'POST'),
                             ('get_all_subscriptions', 'GET'),
                             ('get_subscription', 'GET'),
                             ('delete_subscription', 'DELETE')):
            self.assertEqual([http], routes[method]['http_methods'])
            self.assertFalse(routes[method]['async'], method)
            self.assertTrue(routes[method]['require_exclusive_lock'])
        self.assertIn('Destination',
                      routes['create_subscription']['description'])

    def test_create_with_defaults(self):
        self._validate('create_subscription',
                       Destination='https://listener.example/events')
        found = self.vendor.create_subscription(
            self.task, http_method='POST',
            Destination='https://listener.example/events')
        self.subscriptions.create.assert_called_once_with(
            {'Destination': 'https://listener.example/events',
             'Protocol': 'Redfish', 'Context': '', 'EventTypes': ['Alert']})
        # Ironic's fields only: the headers (credentials) stay at the BMC.
        self.assertEqual({'Id': '1', 'Destination':
                          'https://listener.example/events',
                          'Protocol': 'Redfish', 'Context': 'rack-4',
                          'EventTypes': ['Alert']}, found)

    def test_create_with_everything(self):
        args = {'Destination': 'https://listener.example/events',
                'EventTypes': ['Alert', 'StatusChange'],
                'Context': 'rack-4', 'Protocol': 'Redfish',
                'HttpHeaders': [{'Authorization': 'secret'}]}
        self._validate('create_subscription', **args)
        self.vendor.create_subscription(self.task, http_method='POST',
                                        **args)
        self.subscriptions.create.assert_called_once_with(args)

    def test_create_refusals(self):
        self._refused('create_subscription', 'Destination',
                      'not a valid URI')
        self._refused('create_subscription', 'Destination',
                      'not a valid URI', Destination='listener/events')
        self._refused('create_subscription', 'Destination',
                      'not a valid URI', Destination='https://[::1/events')
        ok = {'Destination': 'https://l.example/e'}
        self._refused('create_subscription', 'Context', 'not a string',
                      Context=4, **ok)
        self._refused('create_subscription', 'Protocol', 'not a string',
                      Protocol=['Redfish'], **ok)
        self._refused('create_subscription', 'HttpHeaders', 'not a list',
                      HttpHeaders={'a': 'b'}, **ok)
        self._refused('create_subscription', 'EventTypes',
                      'not a list of event types', EventTypes='Alert', **ok)
        self._refused('create_subscription', 'EventTypes',
                      'MetricReport are not offered by the BMC; it offers '
                      'Alert, StatusChange',
                      EventTypes=['Alert', 'MetricReport'], **ok)
        self.subscriptions.create.assert_not_called()

    def test_create_refused_by_the_bmc(self):
        self.subscriptions.create.side_effect = (
            sushy.exceptions.BadRequestError(
                method='POST', url=COLLECTION, response=mock.Mock(
                    status_code=400, json=mock.Mock(return_value={
                        'error': {'message': 'Destination unreachable'}}))))
        e = self.assertRaises(exception.IronicLikeException,
                              self.vendor.create_subscription, self.task,
                              Destination='https://l.example/e')
        self.assertEqual(500, e.code)
        self.assertIn('creating an event subscription failed', str(e))

    def test_create_without_a_location(self):
        self.subscriptions.create.return_value = None
        e = self.assertRaises(exception.IronicLikeException,
                              self.vendor.create_subscription, self.task,
                              Destination='https://l.example/e')
        self.assertIn('did not say where the subscription is', str(e))

    def test_no_event_service(self):
        self.conn.get_event_service.side_effect = (
            sushy.exceptions.MissingAttributeError(
                attribute='EventService/@odata.id', resource='/redfish/v1'))
        e = self.assertRaises(exception.IronicLikeException,
                              self.vendor.get_all_subscriptions, self.task)
        self.assertIn('the BMC has no EventService', str(e))

    def test_list(self):
        self.subscriptions.json = {'Members@odata.count': 1, 'Members': [
            {'@odata.id': COLLECTION + '/1'}]}
        self.assertEqual(self.subscriptions.json,
                         self.vendor.get_all_subscriptions(self.task))

    def test_get_and_delete_by_id(self):
        member = mock.Mock(json=CREATED)
        self.subscriptions.get_member.return_value = member
        self._validate('get_subscription', id='1')
        self.assertEqual('rack-4', self.vendor.get_subscription(
            self.task, id='1')['Context'])
        self.subscriptions.get_member.assert_called_with(COLLECTION + '/1')
        self.vendor.delete_subscription(self.task, id='1')
        member.delete.assert_called_once_with()
        # An Id cannot name another resource.
        self.vendor.get_subscription(self.task, id='../../Systems/1')
        self.subscriptions.get_member.assert_called_with(
            COLLECTION + '/..%2F..%2FSystems%2F1')

    def test_id_required(self):
        for method in ('get_subscription', 'delete_subscription'):
            self._refused(method, 'id', 'id must be the Id')
            self._refused(method, 'id', 'id must be the Id', id=True)
            # "." and ".." would name the collection or the service.
            for dots in ('.', '..', ' '):
                self._refused(method, 'id', 'id must be the Id', id=dots)

    def test_numeric_id_as_the_cli_sends_it(self):
        # python-ironicclient's --arg id=1 sends the number 1.
        self._validate('get_subscription', id=1)
        self.subscriptions.get_member.return_value = mock.Mock(json=CREATED)
        self.vendor.get_subscription(self.task, id=1)
        self.subscriptions.get_member.assert_called_with(COLLECTION + '/1')

    def test_event_types_as_the_bmc_lists_them(self):
        # A type sushy does not know, listed by the BMC.
        self.service.event_types_for_subscription = ['Alert', 'OemEvent']
        self._validate('create_subscription',
                       Destination='https://l.example/e',
                       EventTypes=['OemEvent'])
        self._refused('create_subscription', 'EventTypes',
                      'StatusChange are not offered by the BMC; it offers '
                      'Alert, OemEvent', Destination='https://l.example/e',
                      EventTypes=['StatusChange'])

    def test_collection_404_on_create_is_the_bmcs_failure(self):
        self.subscriptions.create.side_effect = _not_found()
        e = self.assertRaises(exception.IronicLikeException,
                              self.vendor.create_subscription, self.task,
                              Destination='https://l.example/e')
        self.assertEqual(500, e.code)
        self.assertIn('creating an event subscription failed', str(e))

    def test_unknown_subscription_is_404(self):
        self.subscriptions.get_member.side_effect = _not_found()
        for call in (self.vendor.get_subscription,
                     self.vendor.delete_subscription):
            e = self.assertRaises(exception.NotFound, call, self.task,
                                  id='9')
            self.assertIn('the BMC has no event subscription 9', str(e))
            self.assertNotIn('redfish_system_id', str(e))

    def test_not_steps(self):
        for method in ('create_subscription', 'delete_subscription'):
            self.assertIsNone(drivers_base.step_info(
                self.vendor, method, drivers_base.CLEAN))

    def test_old_entry_points_still_load(self):
        # Installations made before the interfaces got their own modules
        # name them in drivers.modules.redfish.
        from ironic_like.drivers.modules import redfish
        from ironic_like.drivers.modules import redfish_firmware
        self.assertIs(redfish_vendor.RedfishVendor, redfish.RedfishVendor)
        self.assertIs(redfish_firmware.RedfishFirmware,
                      redfish.RedfishFirmware)
        self.assertRaises(AttributeError, getattr, redfish, 'NoSuchThing')
