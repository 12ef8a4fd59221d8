"""The cache of pecan's argument-spec look-ups gives pecan's answers."""

from pecan import core
from pecan import rest
from pecan import routing
from pecan import util

from ironic_like.api import pecan_argspec
from ironic_like.tests import base


def _decorated(f):
    def wrapper(*args, **kwargs):
        return f(*args, **kwargs)
    return wrapper


class _Controller(object):

    def get_one(self, ident, fields=None):
        return ident

    @_decorated
    def post(self, *args, **kwargs):
        return args


class TestPecanArgspec(base.TestCase):

    def test_installed_in_every_pecan_module(self):
        pecan_argspec.install()
        for module in (core, rest, routing, util):
            self.assertIs(pecan_argspec.getargspec, module.getargspec)

    def test_same_answers_as_pecan(self):
        controller = _Controller()
        for method in (controller.get_one, _Controller.get_one,
                       controller.post):
            self.assertEqual(tuple(pecan_argspec._ORIGINAL(method)),
                             tuple(pecan_argspec.getargspec(method)))
        spec = pecan_argspec.getargspec(controller.get_one)
        self.assertEqual(['self', 'ident', 'fields'], spec.args)
        self.assertEqual((None,), spec.defaults)

    def test_computed_once_per_function(self):
        pecan_argspec._cached.cache_clear()
        for _ in range(5):
            # A new bound method object each time, one function.
            pecan_argspec.getargspec(_Controller().get_one)
        info = pecan_argspec._cached.cache_info()
        self.assertEqual(1, info.misses)
        self.assertEqual(4, info.hits)
