"""What crosses a real broker: arguments, replies and exceptions as JSON.

fake:// passes objects by reference and re-raises the original exception,
so these tests do by hand what a real broker does (DEPENDENCY-NOTES).
"""

import inspect
import sys

from oslo_messaging._drivers import common as rpc_common
from oslo_messaging.rpc import dispatcher as rpc_dispatcher
from oslo_serialization import jsonutils
from oslo_utils import uuidutils
import testtools

from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.common import rpc
from ironic_like.conductor import manager
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils


def _over_the_wire(error):
    """Serialize ``error`` as the conductor's broker driver does and
    rebuild it as the API's would."""
    try:
        raise error
    except Exception:
        data = rpc_common.serialize_remote_exception(sys.exc_info())
    # It really is JSON text.
    jsonutils.loads(data)
    return rpc_common.deserialize_remote_exception(data, rpc.ALLOWED_EXMODS)


class TestRemoteExceptions(testtools.TestCase):

    def test_node_locked_round_trip(self):
        error = exception.NodeLocked(node='n-uuid', host='cond-1')
        remote = _over_the_wire(error)
        self.assertIsInstance(remote, exception.NodeLocked)
        self.assertIsInstance(remote, exception.Conflict)
        self.assertEqual(409, remote.code)
        # str() of the rebuilt error carries the remote traceback ...
        self.assertIn('Traceback', str(remote))
        # ... the user-facing message does not.
        message = exception.safe_message(remote)
        self.assertNotIn('Traceback', message)
        self.assertEqual(str(error), message)
        self.assertIn('cond-1', message)

    def test_field_survives(self):
        error = exception.InvalidParameterValue(err='bad target',
                                                field='target')
        remote = _over_the_wire(error)
        self.assertIsInstance(remote, exception.InvalidParameterValue)
        self.assertEqual('target', remote.field)
        self.assertEqual('bad target', exception.safe_message(remote))

    def test_plain_message_errors(self):
        for error in (exception.InvalidState('Node x changed meanwhile.'),
                      exception.TemporaryFailure('busy'),
                      exception.DriverNotFound(driver_name='nope',
                                               field='driver')):
            remote = _over_the_wire(error)
            self.assertIsInstance(remote, type(error))
            self.assertEqual(str(error), exception.safe_message(remote))
            self.assertEqual(error.code, remote.code)

    def test_every_exception_class_round_trips(self):
        classes = [c for _n, c in inspect.getmembers(exception,
                                                     inspect.isclass)
                   if issubclass(c, exception.IronicLikeException)]
        self.assertGreater(len(classes), 20)
        for cls in classes:
            error = cls('message of %s' % cls.__name__, field='f')
            remote = _over_the_wire(error)
            self.assertIsInstance(remote, cls)
            self.assertEqual('message of %s' % cls.__name__,
                             exception.safe_message(remote))
            self.assertEqual('f', remote.field)

    def test_foreign_exceptions_become_remote_error(self):
        import oslo_messaging
        remote = rpc_common.deserialize_remote_exception(
            self._serialized(KeyError('x')), rpc.ALLOWED_EXMODS)
        self.assertIsInstance(remote, KeyError)

        class Local(Exception):
            pass

        remote = rpc_common.deserialize_remote_exception(
            self._serialized(Local('x')), rpc.ALLOWED_EXMODS)
        self.assertIsInstance(remote, oslo_messaging.RemoteError)

    @staticmethod
    def _serialized(error):
        try:
            raise error
        except Exception:
            return rpc_common.serialize_remote_exception(sys.exc_info())

    def test_safe_message_of_other_errors(self):
        self.assertEqual('boom', exception.safe_message(ValueError('boom')))
        self.assertEqual('Node n could not be found.',
                         exception.safe_message(
                             exception.NodeNotFound(node='n')))


class TestContextSerializer(testtools.TestCase):

    def test_context_round_trip(self):
        serializer = rpc.RequestContextSerializer()
        context = ctx.get_admin_context()
        wire = jsonutils.loads(jsonutils.dumps(
            serializer.serialize_context(context)))
        back = serializer.deserialize_context(wire)
        self.assertIsInstance(back, ctx.RequestContext)
        self.assertTrue(back.is_admin)
        self.assertEqual(sorted(context.roles), sorted(back.roles))
        self.assertEqual('all', back.system_scope)


class JSONManager(object):
    """Calls a ConductorManager the way a broker would: JSON in and out,
    exceptions serialized and rebuilt."""

    def __init__(self, endpoint):
        self.endpoint = endpoint

    def call(self, method, **kwargs):
        kwargs = jsonutils.loads(jsonutils.dumps(kwargs))
        try:
            result = getattr(self.endpoint, method)(
                ctx.get_admin_context(), **kwargs)
        except Exception as e:
            # The RPC server unwraps errors marked as expected (our own
            # exceptions) and sends the original one.
            exc_info = (e.exc_info if isinstance(
                e, rpc_dispatcher.ExpectedException) else sys.exc_info())
            data = rpc_common.serialize_remote_exception(exc_info)
            raise rpc_common.deserialize_remote_exception(
                data, rpc.ALLOWED_EXMODS)
        return jsonutils.loads(jsonutils.dumps(result))


class TestManagerOverJSON(base.TestCase):

    def setUp(self):
        super().setUp()
        service = type('Service', (), {'executor': None})()
        self.manager = JSONManager(manager.ConductorManager(service))

    def test_create_node_reply_and_errors(self):
        uuid = uuidutils.generate_uuid()
        reply = self.manager.call('create_node', values={
            'uuid': uuid, 'driver': utils.FAKE_HW, 'name': 'n1'})
        self.assertEqual(uuid, reply)
        e = self.assertRaises(exception.DriverNotFound, self.manager.call,
                              'create_node', values={'driver': 'nope'})
        self.assertEqual('driver', e.field)
        self.assertNotIn('Traceback', exception.safe_message(e))
        self.assertRaises(exception.DuplicateName, self.manager.call,
                          'create_node', values={'driver': utils.FAKE_HW,
                                                 'name': 'n1'})

    def test_node_locked_from_the_endpoint(self):
        self.config(node_locked_retry_attempts=1, group='conductor')
        node = utils.create_test_node()
        self.db.reserve_node('other-host', node.id)
        e = self.assertRaises(exception.NodeLocked, self.manager.call,
                              'set_maintenance', node_id=node.id, mode=True)
        self.assertIn('other-host', exception.safe_message(e))
        self.assertNotIn('Traceback', exception.safe_message(e))

    def test_replies_are_json(self):
        node = utils.create_test_node()
        for method, kwargs in (
                ('update_node', {'values': {'extra': {'a': 1}}}),
                ('set_maintenance', {'mode': True, 'reason': 'r'}),
                ('set_node_traits', {'traits': ['CUSTOM_A']}),
                ('add_node_trait', {'trait': 'CUSTOM_B'}),
                ('remove_node_traits', {'traits': ['CUSTOM_A']}),
                ('create_port', {'values': {'address':
                                            '52:54:00:12:34:56'}})):
            self.manager.call(method, node_id=node.id, **kwargs)
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual({'a': 1}, stored.extra)
        self.assertTrue(stored.maintenance)
        self.assertEqual(['CUSTOM_B'], [t.trait for t in stored.traits])
        self.assertEqual(1, len(self.db.get_ports_by_node_id(node.id)))
