"""Property-based fuzzing of every operation of the OpenAPI document.

schemathesis generates requests from GET /openapi.json (so from the same
schemas the API validates with), valid ones and invalid ones, and sends
them to the whole WSGI application over a real in-process conductor.
Whatever it sends:

* the answer is never a server error (5xx) and never shows a traceback;
* a refused write (4xx) changes nothing in the database.

Reproducible: derandomized, no example database, a bounded number of
examples per operation (EXAMPLES, times two generation modes, plus random
path parameters for operations that have some).
"""

import json
import os
import time

import fixtures
import hypothesis
import hypothesis.errors
import schemathesis
from schemathesis import GenerationMode
import sqlalchemy as sa

from ironic_like.api import openapi
from ironic_like.common import states
from ironic_like.conductor import rpcapi
from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.db.sqlalchemy import models
from ironic_like.tests import base as test_base
from ironic_like.tests.unit.api import base

# Examples per operation and generation mode; more for a deeper run by
# hand (IRONIC_LIKE_FUZZ_EXAMPLES=200).
DEFAULT_EXAMPLES = 10
EXAMPLES = int(os.environ.get('IRONIC_LIKE_FUZZ_EXAMPLES') or
               DEFAULT_EXAMPLES)
WRITES = frozenset(['POST', 'PUT', 'PATCH', 'DELETE'])

NODE_UUID = '1be26c0b-03f2-4d2d-ae87-c02d7f33c123'
PORT_UUID = '2be26c0b-03f2-4d2d-ae87-c02d7f33c124'
ALLOCATION_UUID = '3be26c0b-03f2-4d2d-ae87-c02d7f33c125'
CHASSIS_UUID = '4be26c0b-03f2-4d2d-ae87-c02d7f33c126'
RULE_UUID = '5be26c0b-03f2-4d2d-ae87-c02d7f33c127'
NODE_NAME = 'fuzz-node'
TRAIT = 'CUSTOM_FUZZ'
TEMPLATE_NAME = 'fuzz-template'
SESSION_NAME = 'fuzz-session'
MODULE_NAME = 'fuzz-module'
MODULE_VERSION = '1.0.0'
CONFIGURATION_NAME = 'fuzz-configuration'
# Path parameters naming resources that exist, so that requests reach
# validation instead of stopping at 404.
PATH_PARAMETERS = {
    'node_ident': NODE_UUID,
    'port_uuid': PORT_UUID,
    'allocation_ident': ALLOCATION_UUID,
    'chassis_uuid': CHASSIS_UUID,
    'rule_id': RULE_UUID,
    'hostname': 'test-conductor',
    'driver_name': 'fake-hardware',
    'trait': TRAIT,
    'template_name': TEMPLATE_NAME,
    'session_name': SESSION_NAME,
    'module_name': MODULE_NAME,
    'module_version': MODULE_VERSION,
    'configuration_name': CONFIGURATION_NAME,
}


def _rows(connection, model, *columns):
    return sorted(tuple(row) for row in connection.execute(
        sa.select(*[getattr(model, column) for column in columns])))


def _snapshot(engine):
    """What a refused request must not change: a few columns of every row
    that requests may write, read on one connection (cheap enough to
    take around every write)."""
    with engine.connect() as c:
        modules = [
            # Module versions registered by accepted requests are
            # verified in the background: their state is left out.
            row[:3] + ((row[3] if row[0] == MODULE_NAME else None),)
            for row in _rows(c, models.HostOSModule, 'name', 'version',
                             'description', 'state')]
        return {
            'nodes': _rows(c, models.Node, 'uuid', 'updated_at',
                           'provision_state', 'power_state', 'maintenance',
                           'allocation_id', 'instance_uuid'),
            'traits': _rows(c, models.NodeTrait, 'node_id', 'trait'),
            'ports': _rows(c, models.Port, 'uuid', 'updated_at', 'node_id'),
            'allocations': _rows(c, models.Allocation, 'uuid', 'updated_at',
                                 'state', 'node_id'),
            'chassis': _rows(c, models.Chassis, 'uuid', 'updated_at'),
            # (A refused DELETE of the collection must leave every rule.)
            'inspection_rules': _rows(c, models.InspectionRule, 'uuid',
                                      'updated_at'),
            'boot_templates': _rows(c, models.BootTemplate, 'name',
                                    'updated_at'),
            'boot_sessions': _rows(c, models.BootSession, 'name',
                                   'updated_at', 'status'),
            'boot_components': _rows(c, models.BootComponent, 'node_id',
                                     'updated_at', 'status', 'enabled'),
            'boot_options': [json.dumps(row[0], sort_keys=True) for row in
                             _rows(c, models.BootOptions, 'options')],
            'hostos_modules': modules,
            'hostos_configurations': _rows(
                c, models.HostOSConfiguration, 'name', 'updated_at',
                'status'),
        }


def _busy_nodes(engine):
    """How many nodes a conductor holds or is changing."""
    node = models.Node
    query = sa.select(sa.func.count(node.id)).where(sa.or_(
        node.reservation.isnot(None), node.target_power_state.isnot(None)))
    with engine.connect() as c:
        return c.execute(query).scalar()


class FuzzTestBase(base.APITestCase):

    def setUp(self):
        super().setUp()
        # A bound, not a timing check: a loaded machine (or a deeper run
        # by hand) takes longer than the 60 s every other test gets.
        self.useFixture(fixtures.Timeout(max(180, 5 * EXAMPLES),
                                         gentle=True))
        # No periodic task may change rows while a refused request is
        # checked for having changed nothing.
        for name in ('sync_power_state_interval',
                     'check_allocations_interval',
                     'check_orphaned_work_interval'):
            self.config(**{name: 0, 'group': 'conductor'})
        self.config(check_heartbeat_interval=0, group='agent')
        # (Nor the boot-session operators: tests/base.py turns them off.)
        # Nor a take-over of the nodes written straight to the database.
        self.config(takeover_check_interval=3600, group='conductor')
        # Generated requests are many: no lookup rate limit.
        self.config(lookup_failures_per_minute=0, group='agent')
        self.useFixture(test_base.ConductorFixture())
        # Module versions registered are not downloaded (the conductor's
        # verification is not what is fuzzed here).
        self.useFixture(fixtures.MockPatchObject(
            rpcapi.ConductorAPI, 'verify_hostos_module', return_value=True))
        # No traceback in the logs either (pecan used to log one for each
        # body that was not UTF-8).
        self.logs = self.useFixture(fixtures.FakeLogger(level='ERROR'))
        self.schema = schemathesis.openapi.from_wsgi(openapi.PATH,
                                                     self.app.app)
        # Whether a write not proven to have changed nothing may have
        # removed a resource the path parameters name (then they are made
        # again before the next case).
        self._maybe_changed = True

    # -- the resources requests name ----------------------------------------

    def _ensure_resources(self):
        """(Re)create the node, port, allocation and trait the path
        parameters name (an accepted DELETE may have removed them)."""
        db = self.db
        try:
            node = db.get_node_by_uuid(NODE_UUID)
        except Exception:
            node = self.create_node(uuid=NODE_UUID, name=NODE_NAME,
                                    provision_state=states.MANAGEABLE)
        if not any(t.trait == TRAIT for t in node.traits):
            db.set_node_traits(node.id, [TRAIT])
        try:
            db.get_port_by_uuid(PORT_UUID)
        except Exception:
            self.create_port(node, uuid=PORT_UUID)
        try:
            db.get_chassis_by_uuid(CHASSIS_UUID)
        except Exception:
            db.create_chassis({'uuid': CHASSIS_UUID})
        try:
            db.get_inspection_rule_by_uuid(RULE_UUID)
        except Exception:
            db.create_inspection_rule({
                'uuid': RULE_UUID, 'priority': 0, 'phase': 'main',
                'sensitive': False, 'conditions': [],
                'actions': [{'op': 'log', 'args': {'msg': 'fuzz'}}]})
        try:
            db.get_allocation_by_uuid(ALLOCATION_UUID)
        except Exception:
            db.create_allocation({'uuid': ALLOCATION_UUID,
                                  'name': 'fuzz-allocation',
                                  'resource_class': 'fuzz',
                                  'state': states.ALLOCATING})
        try:
            db.get_boot_template(TEMPLATE_NAME)
        except Exception:
            db.put_boot_template(TEMPLATE_NAME, {
                'enable_cfs': False,
                'boot_sets': {'fuzz': {
                    'kernel': 'http://images.example.com/vmlinuz',
                    'initrd': 'http://images.example.com/initrd',
                    'node_list': [NODE_NAME]}}})
        try:
            db.get_boot_session(SESSION_NAME)
        except Exception:
            # Complete: no operator acts on it while requests are checked.
            db.create_boot_session({
                'name': SESSION_NAME, 'operation': 'boot',
                'template_name': TEMPLATE_NAME, 'components': [],
                'status': 'complete'})
        try:
            db.get_hostos_module(MODULE_NAME, MODULE_VERSION)
        except Exception:
            db.create_hostos_module({
                'name': MODULE_NAME, 'version': MODULE_VERSION,
                'url': 'https://modules.example.com/fuzz.tgz',
                'sha256sum': 'a' * 64, 'state': 'available',
                'playbook': 'main.yaml'})
        try:
            db.get_hostos_configuration(CONFIGURATION_NAME)
        except Exception:
            db.create_hostos_configuration({
                'name': CONFIGURATION_NAME,
                'machine_selector': {'match_labels': {'fuzz': 'yes'}},
                'configs': [{'module': MODULE_NAME,
                             'module_version': MODULE_VERSION,
                             'values': {}}],
                'secret_values': [None]})

    def _quiesce(self, timeout=5.0):
        """Wait until no conductor holds or changes a node."""
        deadline = time.monotonic() + timeout
        engine = sa_api.get_engine()
        while time.monotonic() < deadline:
            if not _busy_nodes(engine):
                return
            time.sleep(0.02)

    # -- checks -------------------------------------------------------------

    def _check(self, case):
        self._quiesce()
        if self._maybe_changed:
            # Only a write may have deleted what the path parameters name
            # (a read changes nothing; a refusal is checked to, below).
            self._ensure_resources()
        writes = case.method.upper() in WRITES
        # Until a write is known to have changed nothing (below), the next
        # case (Hypothesis's replays and shrinking of a failure among
        # them) remakes the resources.
        self._maybe_changed = writes
        # Only a write is compared with what it found.
        before = _snapshot(sa_api.get_engine()) if writes else None
        response = case.call()
        text = response.text or ''
        where = '%s %s -> %d\n%s' % (case.method, case.formatted_path,
                                     response.status_code,
                                     case.as_curl_command())
        self.assertLess(response.status_code, 500, where + '\n' + text)
        self.assertNotIn('Traceback', text, where)
        if response.status_code >= 400:
            # Always Ironic's JSON error.
            self.assertIn('error_message', json.loads(text), where)
            if writes:
                self._quiesce()
                self.assertEqual(before, _snapshot(sa_api.get_engine()),
                                 'refused but changed: ' + where)
                self._maybe_changed = False

    def _fuzz(self, operation, mode, fixed_paths):
        kwargs = {'generation_mode': mode,
                  'headers': dict(base.LATEST)}
        if fixed_paths:
            kwargs['path_parameters'] = {
                name: value for name, value in PATH_PARAMETERS.items()
                if '{%s}' % name in operation.path}
        strategy = operation.as_strategy(**kwargs)
        counter = []

        @hypothesis.settings(
            max_examples=EXAMPLES, deadline=None, derandomize=True,
            database=None, print_blob=False,
            suppress_health_check=list(hypothesis.HealthCheck),
            phases=[hypothesis.Phase.generate, hypothesis.Phase.shrink])
        @hypothesis.given(case=strategy)
        def run(case):
            counter.append(1)
            self._check(case)

        try:
            run()
        except hypothesis.errors.Unsatisfiable:
            # Nothing left to make invalid (no query, no body: the path
            # and the version header are fixed).
            self.assertEqual(GenerationMode.NEGATIVE, mode)
        return len(counter)

    def _fuzz_group(self, group):
        total = 0
        selected = [result.ok() for result in
                    self.schema.get_all_operations()]
        selected = [op for op in selected if group_of(op.path) == group]
        self.assertTrue(selected)
        for operation in selected:
            total += self._fuzz(operation, GenerationMode.POSITIVE, True)
            total += self._fuzz(operation, GenerationMode.NEGATIVE, True)
            if '{' in operation.path:
                # Path parameters generated too (mostly unknown resources).
                total += self._fuzz(operation, GenerationMode.POSITIVE,
                                    False)
        # Every operation ran examples (not only the explicit ones).
        self.assertGreater(total, 2 * len(selected))
        self.assertNotIn('Traceback', self.logs.output)


# The test classes below split the operations (each test must end within
# the unit tests' timeout); every path belongs to exactly one group.
_GROUPS = (
    ('ports', ('/v1/ports',)),
    ('portgroups', ('/v1/portgroups', openapi.NODE + '/portgroups')),
    ('chassis', ('/v1/chassis',)),
    ('deploy-templates', ('/v1/deploy_templates',)),
    ('runbooks', ('/v1/runbooks',)),
    ('inspection-rules', ('/v1/inspection_rules',)),
    ('volume', ('/v1/volume', openapi.NODE + '/volume')),
    ('accelerators', ('/v1/accelerators', openapi.NODE + '/accelerators')),
    ('allocations', ('/v1/allocations',)),
    ('network', (openapi.NODE + '/vifs', '/v1/events')),
    ('node-subresources', (openapi.NODE + '/traits', openapi.NODE + '/ports',
                           openapi.NODE + '/allocation',
                           openapi.NODE + '/vendor_passthru')),
    ('node-history', (openapi.NODE + '/history',
                      openapi.NODE + '/inventory',
                      openapi.NODE + '/children',
                      openapi.NODE + '/firmware',
                      openapi.NODE + '/vmedia')),
    ('node-states', (openapi.NODE + '/states', openapi.NODE + '/maintenance')),
    ('node-interfaces', (openapi.NODE + '/validate',
                         openapi.NODE + '/management',
                         openapi.NODE + '/bios')),
    ('drivers', ('/v1/drivers',)),
    ('nodes', ('/v1/nodes', '/v1/shards')),
    ('boot-templates', ('/v1/boot/sessiontemplate',)),
    ('boot-sessions', ('/v1/boot/sessions',)),
    ('boot-components', ('/v1/boot/components',)),
    ('boot-other', ('/v1/boot',)),
    ('hostos-modules', ('/v1/hostos/modules',)),
    ('hostos-configurations', ('/v1/hostos/configurations',)),
    ('hostos-other', ('/v1/hostos',)),
    ('other', ('/',)),
)


def group_of(path):
    for name, prefixes in _GROUPS:
        if path.startswith(prefixes):
            return name


class TestFuzzGroups(base.APITestCase):

    def test_every_operation_is_fuzzed(self):
        doc = openapi.build()
        for path in doc['paths']:
            self.assertIsNotNone(group_of(path), path)


class TestFuzzNodes(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('nodes')


class TestFuzzNodeStates(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('node-states')


class TestFuzzNodeInterfaces(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('node-interfaces')


class TestFuzzDrivers(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('drivers')


class TestFuzzNodeSubresources(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('node-subresources')


class TestFuzzNodeHistory(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('node-history')


class TestFuzzNetwork(FuzzTestBase):
    """A node's VIFs and the networking service's events."""

    def test_fuzz(self):
        self._fuzz_group('network')


class TestFuzzPorts(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('ports')


class TestFuzzPortgroups(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('portgroups')


class TestFuzzChassis(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('chassis')


class TestFuzzDeployTemplates(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('deploy-templates')


class TestFuzzRunbooks(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('runbooks')


class TestFuzzInspectionRules(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('inspection-rules')


class TestFuzzVolume(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('volume')


class TestFuzzAccelerators(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('accelerators')


class TestFuzzAllocations(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('allocations')


class TestFuzzBootTemplates(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('boot-templates')


class TestFuzzBootSessions(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('boot-sessions')


class TestFuzzBootComponents(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('boot-components')


class TestFuzzBootOther(FuzzTestBase):
    """The boot API's version, applystaged and options."""

    def test_fuzz(self):
        self._fuzz_group('boot-other')


class TestFuzzHostOSModules(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('hostos-modules')


class TestFuzzHostOSConfigurations(FuzzTestBase):

    def test_fuzz(self):
        self._fuzz_group('hostos-configurations')


class TestFuzzHostOSOther(FuzzTestBase):
    """The host OS API's version and the host agents'."""

    def test_fuzz(self):
        self._fuzz_group('hostos-other')


class TestFuzzOther(FuzzTestBase):
    """Discovery, this document, conductors and the agent's."""

    def test_fuzz(self):
        self._fuzz_group('other')
