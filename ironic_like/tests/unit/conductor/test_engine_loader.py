"""The engine loader runs flows as taskflow's does, finding the engine
class once."""

from unittest import mock

from taskflow.engines.action_engine import engine as action_engine
from taskflow import exceptions
from taskflow.patterns import linear_flow
from taskflow.persistence import backends
from taskflow.persistence import models
from taskflow import task
import testtools

from ironic_like.conductor.flows import engine_loader
from ironic_like.conductor.flows import transient_backend


class _Add(task.Task):
    default_provides = 'total'

    def execute(self, first, second):
        return first + second


class _Double(task.Task):
    default_provides = 'doubled'

    def execute(self, total):
        return total * 2


def _flow():
    flow = linear_flow.Flow('sum')
    flow.add(_Add(), _Double())
    return flow


class TestEngineLoader(testtools.TestCase):

    def setUp(self):
        super().setUp()
        engine_loader.engine_class.cache_clear()
        self.addCleanup(engine_loader.engine_class.cache_clear)

    def test_serial_engine(self):
        self.assertIs(action_engine.SerialActionEngine,
                      engine_loader.engine_class())

    def test_run_with_store(self):
        engine = engine_loader.run(_flow(), store={'first': 2, 'second': 3})
        self.assertEqual(10, engine.storage.fetch('doubled'))
        self.assertEqual('SUCCESS', engine.storage.get_flow_state())

    def test_entry_point_read_once(self):
        with mock.patch.object(engine_loader.driver, 'DriverManager',
                               wraps=engine_loader.driver.DriverManager
                               ) as manager:
            for _ in range(3):
                engine_loader.run(_flow(), store={'first': 1, 'second': 1})
        manager.assert_called_once_with('taskflow.engines', 'serial',
                                        invoke_on_load=False)

    def test_load_into_book_of_backend(self):
        backend = backends.fetch({'connection': 'memory://'})
        book = models.LogBook('test')
        engine = engine_loader.load(_flow(), store={'first': 1,
                                                    'second': 4},
                                    book=book, backend=backend)
        engine.run()
        self.assertEqual(10, engine.storage.fetch('doubled'))
        # The flow's detail was made in the book given, and saved there.
        self.assertEqual(1, len(book))
        saved = backend.get_connection().get_logbook(book.uuid)
        self.assertEqual('SUCCESS', list(saved)[0].state)

    def test_flow_detail_given_is_used(self):
        backend = backends.fetch({'connection': 'memory://'})
        book = models.LogBook('test')
        detail = models.FlowDetail('sum', 'detail-uuid')
        book.add(detail)
        backend.get_connection().save_logbook(book)
        engine = engine_loader.load(_flow(), store={'first': 3,
                                                    'second': 3},
                                    flow_detail=detail, backend=backend)
        engine.run()
        self.assertEqual('detail-uuid', engine.storage.flow_uuid)


class TestTransientBackend(testtools.TestCase):

    def test_run_keeps_nothing_and_hands_back(self):
        engine = engine_loader.run(_flow(), store={'first': 1, 'second': 2})
        self.assertIs(transient_backend.BACKEND, engine.storage.backend)
        self.assertEqual(6, engine.storage.fetch('doubled'))
        conn = transient_backend.BACKEND.get_connection()
        self.assertEqual([], list(conn.get_logbooks()))
        self.assertRaises(exceptions.NotFound, conn.get_logbook, 'x')
        self.assertRaises(exceptions.NotFound, conn.get_flow_details, 'x')
        self.assertRaises(exceptions.NotFound, conn.get_atom_details, 'x')

    def test_failing_flow_reverts(self):
        reverted = []

        class _Undo(task.Task):
            def execute(self):
                pass

            def revert(self, **kwargs):
                reverted.append(True)

        class _Boom(task.Task):
            def execute(self):
                raise RuntimeError('boom')

        flow = linear_flow.Flow('fails')
        flow.add(_Undo(), _Boom())
        self.assertRaises(RuntimeError, engine_loader.run, flow)
        self.assertEqual([True], reverted)
