"""os_acc: initialize, every plug branch, unplug, and the reconciler."""

import datetime
import hashlib
import os
import threading
from unittest import mock

from oslo_utils import timeutils
import sqlalchemy as sa

from ironic_like.accelerators import bitstreams
from ironic_like.accelerators import images
from ironic_like.accelerators import os_acc
from ironic_like.common.accelerators import traits as acc_traits
from ironic_like.common import exception
from ironic_like.conductor import accelerators as conductor_acc
from ironic_like.db import api as db_api
from ironic_like.db.sqlalchemy import accelerators as acc_db
from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.db.sqlalchemy import models
from ironic_like.tests import base
from ironic_like.tests.unit import accelerator_samples as samples
from ironic_like.tests.unit.db import utils

REGION_TRAIT = acc_traits.region_trait('INTEL', samples.REGION_TYPE)
GZIP_TRAIT = acc_traits.function_trait('INTEL', samples.GZIP)
AES_TRAIT = acc_traits.function_trait('INTEL', samples.AES)
INSTANCE = {'uuid': '7d0c8a4e-1b2f-4c3d-9e8f-0a1b2c3d4e5f',
            'name': 'vm-1', 'project_id': 'p1'}
RUN = 'ironic_like.drivers.modules.agent_client.run_command'


def _props(function, name, region=samples.REGION_TYPE, vendor='intel'):
    return {'accel:function_uuid': function, 'accel:function_name': name,
            'accel:region_type_uuid': region, 'accel:vendor': vendor}


class OsAccTestCase(base.TestCase):

    def setUp(self):
        super().setUp()
        self.db = db_api.get_instance()
        tmp = self.useFixture(__import__('fixtures').TempDir()).path
        self.index_dir = os.path.join(tmp, 'index')
        self.config(http_root=os.path.join(tmp, 'http'),
                    http_url='http://127.0.0.1:8088', group='deploy')
        self.config(image_service='index', index_url=self.index_dir,
                    group='accelerators')
        images.reset_service()
        self.addCleanup(images.reset_service)
        self.gzip_data = b'gzip-bitstream-' * 100
        records = images.write_index(self.index_dir, [
            ('gzip', self.gzip_data, _props(samples.GZIP, 'gzip'),
             'img-gzip'),
            ('aes-1', b'aes one', _props(samples.AES, 'aes'), 'img-aes-1'),
            ('aes-2', b'aes two', _props(samples.AES, 'aes'), 'img-aes-2'),
            # Same function, another board: never chosen for this one.
            ('gzip-other', b'other', _props(samples.GZIP, 'gzip',
                                            samples.OTHER_REGION_TYPE),
             'img-gzip-other'),
        ])
        self.records = {r.id: r for r in records}
        self.node = utils.create_test_node(
            name='fpga-1', provision_state='deploying',
            instance_uuid=INSTANCE['uuid'],
            driver_internal_info={'agent_url': 'http://127.0.0.1:9999'})
        samples.apply(self.node, [samples.fpga()])
        self.rp = {'uuid': self.node.uuid}
        run = mock.patch(RUN, autospec=True,
                         return_value={'sha256': 'x', 'size': 1})
        self.run = run.start()
        self.addCleanup(run.stop)

    def traits(self):
        return {t['name']: (t['total'], t['free'])
                for t in self.db.get_node_accelerators(
                    self.node.id)['traits']}

    def attachments(self, **kwargs):
        return self.db.list_accelerator_attachments(
            instance_uuid=INSTANCE['uuid'], **kwargs)

    def held(self):
        return [h for h in self.db.list_accelerator_attach_handles(
            {'node_id': self.node.id}) if h['in_use']]

    def assert_nothing_held(self):
        self.assertEqual([], self.held())
        self.assertEqual([], self.attachments(states=[acc_db.ATTACHED]))


class TestPlug(OsAccTestCase):

    def test_nothing_requested(self):
        self.assertEqual([], os_acc.plug(INSTANCE, self.rp, {}))
        self.assertEqual([], os_acc.plug(INSTANCE, self.rp,
                                         {'hw:cpu_policy': 'dedicated'}))
        self.assertEqual([], self.attachments())
        self.run.assert_not_called()

    def test_bitstream_by_id(self):
        result = os_acc.plug(INSTANCE, self.rp, {
            'resources:FPGA': '1', 'trait:%s' % REGION_TRAIT: 'required',
            'accel:bitstream_id': 'img-gzip'})
        self.assertEqual([{'pci_id': '0000:5e:01.0'}], result)
        sha = hashlib.sha256(self.gzip_data).hexdigest()
        self.run.assert_called_once_with(
            mock.ANY, 'accelerator.program', {
                'pci_address': '0000:5e:00.0', 'region_index': 0,
                'image': {'id': 'img-gzip',
                          'url': 'http://127.0.0.1:8088/bitstreams/' + sha,
                          'os_hash_algo': 'sha256', 'os_hash_value': sha,
                          'size': len(self.gzip_data)},
                'function': {'uuid': samples.GZIP, 'name': 'gzip'}},
            timeout=300)
        staged = os.path.join(self.index_dir, '..', 'http', 'bitstreams',
                              sha)
        with open(staged, 'rb') as f:
            self.assertEqual(self.gzip_data, f.read())
        att = self.attachments()[0]
        self.assertEqual((acc_db.ATTACHED, 'img-gzip', 'vm-1', 'p1'),
                         (att['state'], att['bitstream_id'],
                          att['instance_name'], att['project_id']))
        self.assertIsNone(att['deadline'])
        self.assertEqual((2, 1), self.traits()[GZIP_TRAIT])

    def test_seed_bitstream_key(self):
        result = os_acc.plug(INSTANCE, self.rp, {
            'trait:%s' % REGION_TRAIT: 'required',
            'bitstream:img-gzip': 'true'})
        self.assertEqual(1, len(result))
        self.assertEqual('img-gzip', self.attachments()[0]['bitstream_id'])

    def test_function_one_match(self):
        result = os_acc.plug(INSTANCE, self.rp,
                             {'trait:%s' % GZIP_TRAIT: 'required'})
        self.assertEqual([{'pci_id': '0000:5e:01.0'}], result)
        params = self.run.call_args[0][2]
        self.assertEqual('img-gzip', params['image']['id'])

    def test_function_no_match(self):
        missing = '12345678-1234-4234-8234-123456789abc'
        e = self.assertRaises(exception.BitstreamSelectionError,
                              os_acc.plug, INSTANCE, self.rp,
                              {'accel:function_id': missing})
        self.assertIn(missing, str(e))
        self.assertIn(samples.REGION_TYPE, str(e))
        self.run.assert_not_called()
        self.assert_nothing_held()
        self.assertEqual(acc_db.FAILED, self.attachments()[0]['state'])

    def test_function_two_matches(self):
        e = self.assertRaises(exception.BitstreamSelectionError,
                              os_acc.plug, INSTANCE, self.rp,
                              {'accel:function_name': 'aes'})
        self.assertIn('img-aes-1', str(e))
        self.assertIn('img-aes-2', str(e))
        self.assertNotIn('img-gzip', str(e))
        self.run.assert_not_called()
        self.assert_nothing_held()

    def test_checksum_mismatch(self):
        path = os.path.join(self.index_dir, 'img-gzip.bin')
        with open(path, 'wb') as f:
            f.write(b'X' * len(self.gzip_data))
        e = self.assertRaises(bitstreams.BitstreamInvalid, os_acc.plug,
                              INSTANCE, self.rp,
                              {'accel:bitstream_id': 'img-gzip'})
        self.assertIn('checksum mismatch', str(e))
        self.run.assert_not_called()
        self.assert_nothing_held()
        self.assertNotIn(GZIP_TRAIT, self.traits())
        region = [d for d in self.db.list_accelerator_deployables(
            {'node_id': self.node.id}) if d['kind'] == 'region'][0]
        self.assertIsNone(region['bitstream_id'])

    def test_program_failure(self):
        self.run.side_effect = exception.AgentCommandFailed(
            command='accelerator.program',
            error='FPGAProgramError: fpgaconf exited 1')
        e = self.assertRaises(exception.AcceleratorProgramFailed,
                              os_acc.plug, INSTANCE, self.rp,
                              {'accel:bitstream_id': 'img-gzip'})
        self.assertIn('fpgaconf exited 1', str(e))
        self.assert_nothing_held()
        self.assertNotIn(GZIP_TRAIT, self.traits())
        self.assertIn('fpgaconf exited 1',
                      self.attachments()[0]['last_error'])

    def test_program_timeout(self):
        self.run.side_effect = exception.AgentConnectionFailed(
            reason='Read timed out. (read timeout=300)')
        e = self.assertRaises(exception.AcceleratorProgramFailed,
                              os_acc.plug, INSTANCE, self.rp,
                              {'accel:bitstream_id': 'img-gzip'})
        self.assertIn('timed out', str(e))
        self.assert_nothing_held()

    def test_loaded_function_is_not_programmed_again(self):
        samples.apply(self.node, [samples.fpga(
            function={'uuid': samples.GZIP, 'name': 'gzip'})])
        result = os_acc.plug(INSTANCE, self.rp, {
            'resources:FPGA': '2', 'trait:%s' % GZIP_TRAIT: 'required'})
        self.assertEqual(['0000:5e:01.0', '0000:5e:01.1'],
                         [r['pci_id'] for r in result])
        self.run.assert_not_called()

    def test_staged_bitstream_is_downloaded_once(self):
        specs = {'accel:bitstream_id': 'img-gzip'}
        service = images.get_service()
        with mock.patch.object(type(service), 'data', autospec=True,
                               side_effect=type(service).data) as data:
            os_acc.plug(INSTANCE, self.rp, specs)
            os_acc.unplug(INSTANCE)
            # Cleaning erased the region: the next plug programs again.
            for region in self.db.list_accelerator_regions_to_clean(
                    self.node.id):
                self.db.mark_accelerator_region_cleaned(
                    region['deployable_id'])
            samples.apply(self.node, [samples.fpga()])
            other = dict(INSTANCE,
                         uuid='0e1d2c3b-4a59-4687-9a6b-5c4d3e2f1a0b')
            os_acc.plug(other, self.rp, specs)
        self.assertEqual(1, data.call_count)
        self.assertEqual(2, self.run.call_count)
        first, second = [c[0][2]['image'] for c in self.run.call_args_list]
        self.assertEqual(first, second)

    def test_rebuild_keeps_attachment(self):
        specs = {'accel:bitstream_id': 'img-gzip'}
        first = os_acc.plug(INSTANCE, self.rp, specs)
        again = os_acc.plug(INSTANCE, self.rp, specs)
        self.assertEqual(first, again)
        self.assertEqual(1, self.run.call_count)
        self.assertEqual(1, len(self.held()))

    def test_no_free_handle(self):
        os_acc.plug(INSTANCE, self.rp, {'resources:FPGA': '2',
                                        'accel:bitstream_id': 'img-gzip'})
        other = dict(INSTANCE, uuid='0e1d2c3b-4a59-4687-9a6b-5c4d3e2f1a0b')
        self.assertRaises(exception.NoFreeAcceleratorHandle, os_acc.plug,
                          other, self.rp, {'resources:FPGA': '1'})

    def test_partial_failure_releases_what_this_call_took(self):
        self.assertRaises(exception.NoFreeAcceleratorHandle, os_acc.plug,
                          INSTANCE, self.rp, {'resources:FPGA': '3'})
        self.assert_nothing_held()

    def test_gpu_cannot_be_programmed(self):
        samples.apply(self.node, [samples.gpu()])
        self.assertRaises(exception.NoFreeAcceleratorHandle, os_acc.plug,
                          INSTANCE, self.rp,
                          {'resources:PGPU': '1',
                           'accel:bitstream_id': 'img-gzip'})
        self.assertEqual([{'pci_id': '0000:3b:00.0'}], os_acc.plug(
            INSTANCE, self.rp, {'resources:PGPU': '1'}))

    def test_bad_input(self):
        self.assertRaises(exception.InvalidParameterValue, os_acc.plug,
                          {'uuid': 'nope'}, self.rp, {})
        self.assertRaises(exception.InvalidParameterValue, os_acc.plug,
                          INSTANCE, {}, {})
        self.assertRaises(exception.InvalidParameterValue, os_acc.plug,
                          INSTANCE, self.rp,
                          {'accel:bitstream_id': 'img-gzip',
                           'accel:function_id': samples.GZIP})
        self.assertEqual([], self.attachments())

    def test_concurrent_plugs(self):
        node = utils.create_test_node(name='gpu-16')
        samples.apply(node, [samples.gpu(vfs=16)])
        won, errors = samples.race(lambda i: os_acc.plug(
            {'uuid': '00000000-0000-4000-8000-%012d' % i},
            {'uuid': node.uuid}, {'resources:PGPU': '1'})[0], 100)
        lost = [e for e in errors
                if isinstance(e, exception.NoFreeAcceleratorHandle)]
        self.assertEqual([], [e for e in errors if e not in lost])
        self.assertEqual(16, len(won))
        self.assertEqual(84, len(lost))
        self.assertEqual(16, len({w['pci_id'] for w in won}))


class TestUnplug(OsAccTestCase):

    def test_counts_and_idempotence(self):
        os_acc.plug(INSTANCE, self.rp, {'resources:FPGA': '2',
                                        'accel:bitstream_id': 'img-gzip'})
        self.assertEqual(2, len(self.held()))
        self.assertEqual(2, os_acc.unplug(INSTANCE))
        self.assertEqual([], self.held())
        self.assertEqual(0, os_acc.unplug(INSTANCE))
        self.assertEqual([], self.attachments())
        # The programmed region is left for the next cleaning.
        self.assertEqual(['region0'], [
            r['key'] for r in self.db.list_accelerator_regions_to_clean(
                self.node.id)])

    def test_failed_rows_are_not_counted(self):
        self.run.side_effect = exception.AgentCommandFailed(
            command='accelerator.program', error='no')
        self.assertRaises(exception.AcceleratorProgramFailed, os_acc.plug,
                          INSTANCE, self.rp,
                          {'accel:bitstream_id': 'img-gzip'})
        self.assertEqual(0, os_acc.unplug(INSTANCE))
        self.assertEqual([], self.attachments())


class TestInitialize(OsAccTestCase):

    def test_done(self):
        self.assertIsNone(os_acc.initialize(self.node.uuid, timeout=1))
        self.assertIsNone(os_acc.initialize(timeout=1))

    def test_failed(self):
        self.db.set_accelerator_discovery(
            self.node.id, acc_db.DISCOVERY_FAILED,
            error='agent unavailable: connection refused')
        e = self.assertRaises(os_acc.CyborgAgentUnavailable,
                              os_acc.initialize, self.node.uuid, 1)
        self.assertIn('connection refused', str(e))
        self.assertIn(self.node.uuid, str(e))

    def test_never_discovered(self):
        node = utils.create_test_node(name='new')
        self.assertRaises(os_acc.AgentUnavailable, os_acc.initialize,
                          node.uuid, 1)

    def test_waits_then_times_out(self):
        self.db.set_accelerator_discovery(self.node.id, acc_db.DISCOVERING)
        e = self.assertRaises(os_acc.AgentUnavailable, os_acc.initialize,
                              self.node.uuid, 0.3)
        self.assertIn('did not finish', str(e))
        self.assertRaises(os_acc.AgentUnavailable, os_acc.initialize,
                          None, 0.3)

    def test_waits_for_discovery(self):
        self.db.set_accelerator_discovery(self.node.id, acc_db.DISCOVERING)
        timer = threading.Timer(0.3, samples.apply,
                                (self.node, [samples.gpu()]))
        timer.start()
        self.addCleanup(timer.cancel)
        self.assertIsNone(os_acc.initialize(self.node.uuid, timeout=10))


class TestReconciler(OsAccTestCase):

    def setUp(self):
        super().setUp()
        utils.register_conductor('test-conductor')
        self.ring = mock.Mock()
        self.ring.get_owner.return_value = 'test-conductor'

    def _reserve(self, conductor='test-conductor', state=None, age=0):
        candidates = [c['handle_id'] for c in
                      self.db.list_accelerator_candidates(self.node.id)
                      if c['free']]
        att = self.db.reserve_accelerator_handle(
            self.node.id, {'instance_uuid': INSTANCE['uuid'],
                           'request_index': 0, 'conductor': conductor},
            candidates,
            timeutils.utcnow() - datetime.timedelta(seconds=age))
        if state:
            self.db.update_accelerator_attachment(
                att['id'], (acc_db.PENDING,), state=state)
        return att

    def run_pass(self):
        return conductor_acc.reconcile(self.db, self.ring, 'test-conductor')

    def test_programming_past_deadline_rolled_back(self):
        self._reserve(state=acc_db.PROGRAMMING, age=5)
        self.assertEqual({'finished': 0, 'rolled_back': 1, 'released': 0},
                         self.run_pass())
        self.assert_nothing_held()
        self.assertIn('past its deadline', self.attachments()[0][
            'last_error'])

    def test_dead_conductor_programmed_finished(self):
        utils.register_conductor('dead-one', age=3600)
        self._reserve(conductor='dead-one', state=acc_db.PROGRAMMED,
                      age=-600)
        self.assertEqual({'finished': 1, 'rolled_back': 0, 'released': 0},
                         self.run_pass())
        self.assertEqual(acc_db.ATTACHED, self.attachments()[0]['state'])
        self.assertEqual(1, len(self.held()))

    def test_programmed_without_instance_rolled_back(self):
        self.db.update_node(self.node.id, {'provision_state': 'deploy failed',
                                           'instance_uuid': None})
        self._reserve(state=acc_db.PROGRAMMED, age=5)
        self.assertEqual(1, self.run_pass()['rolled_back'])
        self.assert_nothing_held()

    def test_live_within_deadline_untouched(self):
        self._reserve(state=acc_db.PROGRAMMING, age=-600)
        self.assertEqual({'finished': 0, 'rolled_back': 0, 'released': 0},
                         self.run_pass())
        self.assertEqual(1, len(self.held()))

    def test_orphaned_attached_released(self):
        os_acc.plug(INSTANCE, self.rp, {'resources:FPGA': '1'})
        self.db.update_node(self.node.id, {'provision_state': 'available',
                                           'instance_uuid': None})
        self.assertEqual(1, self.run_pass()['released'])
        self.assertEqual([], self.held())
        self.assertEqual([], self.attachments())

    def test_not_owned_untouched(self):
        self.ring.get_owner.return_value = 'someone-else'
        self._reserve(state=acc_db.PROGRAMMING, age=5)
        self.assertEqual(0, self.run_pass()['rolled_back'])

    def test_plug_takes_over_dead_conductors_rows(self):
        utils.register_conductor('dead-one', age=3600)
        self._reserve(conductor='dead-one', state=acc_db.PROGRAMMING,
                      age=-600)
        result = os_acc.plug(INSTANCE, self.rp,
                             {'accel:bitstream_id': 'img-gzip'})
        self.assertEqual(1, len(result))
        self.assertEqual(1, len(self.held()))
        states = sorted(a['state'] for a in self.attachments())
        self.assertEqual([acc_db.ATTACHED, acc_db.FAILED], states)

    def test_plug_waits_for_a_live_conductor(self):
        utils.register_conductor('other-live')
        self._reserve(conductor='other-live', state=acc_db.PROGRAMMING,
                      age=-600)
        self.assertRaises(exception.AcceleratorPlugInProgress, os_acc.plug,
                          INSTANCE, self.rp,
                          {'accel:bitstream_id': 'img-gzip'})

    def test_stale_rows_survive_no_double_release(self):
        att = self._reserve(state=acc_db.PROGRAMMING, age=5)
        self.run_pass()
        self.run_pass()
        with sa_api._reader() as session:
            self.assertEqual(1, session.execute(
                sa.select(sa.func.count()).select_from(
                    models.AcceleratorAttachment).where(
                        models.AcceleratorAttachment.id == att['id'])
            ).scalar())


class TestReinventory(OsAccTestCase):
    """The periodic re-inventory of owned nodes whose agent is up."""

    def setUp(self):
        super().setUp()
        self.ring = mock.Mock()
        self.ring.get_owner.return_value = 'test-conductor'
        self.config(inventory_interval=60, group='accelerators')
        self.db.update_node(self.node.id,
                            {'provision_state': 'wait call-back'})
        discover = mock.patch.object(conductor_acc.discovery, 'discover',
                                     autospec=True)
        self.discover = discover.start()
        self.addCleanup(discover.stop)

    def run_pass(self):
        return conductor_acc.reinventory(self.db, self.ring,
                                         'test-conductor')

    def _age(self, seconds):
        with sa_api._writer() as session:
            session.execute(sa.update(models.AcceleratorInventory).values(
                reported_at=timeutils.utcnow()
                - datetime.timedelta(seconds=seconds)))

    def test_stale_inventory_taken_again(self):
        self._age(120)
        self.assertEqual(1, self.run_pass())
        self.assertEqual(self.node.id, self.discover.call_args[0][0].id)

    def test_recent_inventory_left_alone(self):
        self._age(5)
        self.assertEqual(0, self.run_pass())
        self.discover.assert_not_called()

    def test_locked_or_agentless_or_other_owner_left_alone(self):
        self._age(120)
        self.db.update_node(self.node.id, {'reservation': 'someone'})
        self.assertEqual(0, self.run_pass())
        self.db.update_node(self.node.id, {'reservation': None,
                                           'driver_internal_info': {}})
        self.assertEqual(0, self.run_pass())
        self.db.update_node(self.node.id, {'driver_internal_info': {
            'agent_url': 'http://127.0.0.1:9999'}})
        self.ring.get_owner.return_value = 'other'
        self.assertEqual(0, self.run_pass())
        self.discover.assert_not_called()

    def test_disabled(self):
        self._age(120)
        self.config(inventory_interval=0, group='accelerators')
        self.assertEqual(0, self.run_pass())

    def test_on_demand_needs_an_agent(self):
        self.db.update_node(self.node.id, {'driver_internal_info': {}})
        e = self.assertRaises(exception.InvalidState,
                              conductor_acc.discover, None, self.node.id)
        self.assertIn('no agent up', str(e))
