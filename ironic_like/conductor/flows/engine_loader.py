"""taskflow engines, with the engine class looked up once per process.

``taskflow.engines.load`` asks stevedore for the engine's entry point at
every call, and stevedore reads the installed distributions' entry
points each time: under a burst of allocations that was a fifth of an
allocation worker's time (issue 14, py-spy). The class behind an engine
name does not change while the process runs, so it is found once (still
through stevedore, from taskflow's own namespace) and instantiated per
run, as taskflow's loader does.
"""

import functools

from stevedore import driver
from taskflow.engines import helpers
from taskflow.utils import persistence_utils

from ironic_like.conductor.flows import transient_backend

# The engine every flow of the conductor runs on: one thread per flow,
# the tasks in order (the flows are linear, and the conductor's own
# threads give the parallelism).
SERIAL = 'serial'


@functools.lru_cache(maxsize=None)
def engine_class(kind=SERIAL):
    return driver.DriverManager(helpers.ENGINES_NAMESPACE, kind,
                                invoke_on_load=False).driver


def load(flow, store=None, flow_detail=None, book=None, backend=None,
         kind=SERIAL):
    """An engine ready to run ``flow``: taskflow.engines.load's contract
    (a flow detail made in ``book``/``backend`` when none is given, the
    ``store`` injected), for an engine named without options."""
    if flow_detail is None:
        flow_detail = persistence_utils.create_flow_detail(
            flow, book=book, backend=backend)
    engine = engine_class(kind)(flow, flow_detail, backend, {})
    if store:
        engine.storage.inject(store)
    return engine


def run(flow, store=None):
    """Run ``flow`` to its end keeping no record of its progress
    (transient_backend), as taskflow.engines.run does without a
    backend, without its cost."""
    engine = load(flow, store=store, backend=transient_backend.BACKEND)
    engine.run()
    return engine
