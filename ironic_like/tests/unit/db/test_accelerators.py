"""Accelerators in the database: the inventory diff, traits and their
free counts, atomic handle reservation, programs and releases."""

import datetime

from oslo_utils import timeutils
import sqlalchemy as sa

from ironic_like.common.accelerators import traits as acc_traits
from ironic_like.common import exception
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
GPU_TRAIT = 'CUSTOM_GPU_NVIDIA_1EB8'


def _count(model, **where):
    with sa_api._reader() as session:
        query = sa.select(sa.func.count()).select_from(model)
        for key, value in where.items():
            query = query.where(getattr(model, key) == value)
        return session.execute(query).scalar()


def _max_updated(model, node_id):
    with sa_api._reader() as session:
        return session.execute(sa.select(
            sa.func.max(model.updated_at), sa.func.max(model.created_at))
            .where(model.node_id == node_id)).one()


class AcceleratorDBTestCase(base.TestCase):

    def setUp(self):
        super().setUp()
        self.db = db_api.get_instance()
        self.node = utils.create_test_node(name='fpga-1',
                                           provision_state='active')

    def traits(self, node=None):
        return {t['name']: (t['total'], t['free'])
                for t in self.db.get_node_accelerators(
                    (node or self.node).id)['traits']}

    def reserve(self, instance='11111111-2222-4333-8444-555555555555',
                index=0, handle_ids=None, node=None):
        node = node or self.node
        if handle_ids is None:
            handle_ids = [c['handle_id'] for c in
                          self.db.list_accelerator_candidates(node.id)
                          if c['free']]
        return self.db.reserve_accelerator_handle(
            node.id, {'instance_uuid': instance, 'request_index': index,
                      'conductor': 'c1'}, handle_ids,
            timeutils.utcnow() + datetime.timedelta(seconds=60))


class TestInventoryDiff(AcceleratorDBTestCase):

    def test_added(self):
        summary = samples.apply(self.node, [samples.fpga(), samples.gpu()])
        self.assertTrue(summary['changed'])
        self.assertEqual(['0000:3b:00.0', '0000:5e:00.0'],
                         sorted(summary['added']))
        devices = self.db.list_accelerator_devices({'node_id':
                                                    self.node.id})
        self.assertEqual(2, len(devices))
        handles = self.db.list_accelerator_attach_handles(
            {'node_id': self.node.id})
        # The FPGA's PF is not offered: its two VFs are.
        self.assertEqual(['0000:3b:00.0', '0000:5e:01.0', '0000:5e:01.1'],
                         sorted(h['pci_address'] for h in handles))
        self.assertEqual({'FPGA': (2, 2), 'PGPU': (1, 1),
                          REGION_TRAIT: (2, 2), GPU_TRAIT: (1, 1),
                          'CUSTOM_FPGA_INTEL_09C4': (2, 2)},
                         self.traits())
        kinds = sorted(d['kind'] for d in
                       self.db.list_accelerator_deployables(
                           {'node_id': self.node.id}))
        self.assertEqual(['device', 'device', 'region'], kinds)
        state = self.db.get_accelerator_discovery(self.node.id)
        self.assertEqual(acc_db.DISCOVERED, state['state'])

    def test_unchanged_writes_nothing(self):
        samples.apply(self.node, [samples.fpga(), samples.gpu()])
        before = [_max_updated(m, self.node.id) for m in (
            models.AcceleratorDevice, models.AcceleratorDeployable,
            models.AcceleratorAttachHandle, models.AcceleratorTrait)]
        summary = samples.apply(self.node, [samples.gpu(), samples.fpga()])
        self.assertFalse(summary['changed'])
        after = [_max_updated(m, self.node.id) for m in (
            models.AcceleratorDevice, models.AcceleratorDeployable,
            models.AcceleratorAttachHandle, models.AcceleratorTrait)]
        self.assertEqual(before, after)

    def test_one_node_changes_only_its_rows(self):
        other = utils.create_test_node(name='other')
        samples.apply(other, [samples.gpu()])
        samples.apply(self.node, [samples.gpu()])
        before = _max_updated(models.AcceleratorDevice, other.id)
        samples.apply(self.node, [samples.gpu(), samples.fpga()])
        self.assertEqual(before, _max_updated(models.AcceleratorDevice,
                                              other.id))
        self.assertEqual(1, len(self.db.list_accelerator_devices(
            {'node_id': other.id})))

    def test_unused_vanished_is_removed(self):
        samples.apply(self.node, [samples.fpga(), samples.gpu()])
        summary = samples.apply(self.node, [samples.gpu()])
        self.assertEqual(['0000:5e:00.0'], summary['removed'])
        self.assertEqual(1, _count(models.AcceleratorDevice,
                                   node_id=self.node.id))
        self.assertEqual(1, _count(models.AcceleratorAttachHandle,
                                   node_id=self.node.id))
        self.assertEqual(1, _count(models.AcceleratorDeployable,
                                   node_id=self.node.id))
        self.assertEqual({'PGPU': (1, 1), GPU_TRAIT: (1, 1)},
                         self.traits())

    def test_in_use_vanished_is_kept_missing(self):
        samples.apply(self.node, [samples.gpu()])
        att = self.reserve()
        summary = samples.apply(self.node, [])
        self.assertEqual(['0000:3b:00.0'], summary['missing'])
        device = self.db.list_accelerator_devices(
            {'node_id': self.node.id})[0]
        self.assertEqual('missing', device['status'])
        self.assertTrue(device['in_use'])
        handle = self.db.list_accelerator_attach_handles(
            {'node_id': self.node.id})[0]
        self.assertEqual('missing', handle['status'])
        self.assertTrue(handle['in_use'])
        self.assertEqual(att['uuid'], handle['attachment_uuid'])
        self.assertEqual({'PGPU': (1, 0), GPU_TRAIT: (1, 0)},
                         self.traits())
        # It comes back: enabled again, still held.
        summary = samples.apply(self.node, [samples.gpu()])
        self.assertEqual(['0000:3b:00.0'], summary['updated'])
        device = self.db.get_accelerator_device(device['uuid'])
        self.assertEqual('enabled', device['status'])
        handle = self.db.get_accelerator_attach_handle(handle['uuid'])
        self.assertTrue(handle['in_use'])
        self.assertEqual('available', handle['status'])

    def test_missing_device_goes_when_released(self):
        samples.apply(self.node, [samples.gpu()])
        att = self.reserve()
        samples.apply(self.node, [])
        self.assertTrue(self.db.release_accelerator_attachment(att['id']))
        self.assertEqual(0, _count(models.AcceleratorDevice,
                                   node_id=self.node.id))
        self.assertEqual({}, self.traits())

    def test_function_change_replaces_trait(self):
        samples.apply(self.node, [samples.fpga(
            function={'uuid': samples.GZIP, 'name': 'gzip'})])
        self.assertIn(GZIP_TRAIT, self.traits())
        samples.apply(self.node, [samples.fpga(
            function={'uuid': samples.AES, 'name': 'aes'})])
        traits = self.traits()
        self.assertNotIn(GZIP_TRAIT, traits)
        self.assertEqual((2, 2), traits[AES_TRAIT])

    def test_node_destroy_removes_rows(self):
        samples.apply(self.node, [samples.fpga()])
        self.reserve()
        self.db.destroy_node(self.node.id)
        for model in (models.AcceleratorDevice, models.AcceleratorTrait,
                      models.AcceleratorAttachHandle,
                      models.AcceleratorAttachment):
            self.assertEqual(0, _count(model))


class TestReservation(AcceleratorDBTestCase):

    def test_reserve_and_release(self):
        samples.apply(self.node, [samples.gpu()])
        att = self.reserve()
        self.assertEqual(acc_db.PENDING, att['state'])
        self.assertEqual('0000:3b:00.0', att['pci_address'])
        self.assertEqual({'PGPU': (1, 0), GPU_TRAIT: (1, 0)},
                         self.traits())
        self.assertRaises(exception.NoFreeAcceleratorHandle, self.reserve,
                          handle_ids=[att['attach_handle_id']])
        # A failed reservation leaves no attachment behind.
        self.assertEqual(1, _count(models.AcceleratorAttachment))
        self.assertTrue(self.db.release_accelerator_attachment(att['id']))
        self.assertEqual(0, _count(models.AcceleratorAttachment))
        self.assertEqual({'PGPU': (1, 1), GPU_TRAIT: (1, 1)},
                         self.traits())
        self.assertFalse(self.db.release_accelerator_attachment(att['id']))

    def test_release_as_failed_keeps_row(self):
        samples.apply(self.node, [samples.gpu()])
        att = self.reserve()
        self.assertTrue(self.db.release_accelerator_attachment(
            att['id'], state=acc_db.FAILED, error='boom'))
        row = self.db.list_accelerator_attachments(node_id=self.node.id)[0]
        self.assertEqual((acc_db.FAILED, 'boom', None),
                         (row['state'], row['last_error'],
                          row['attach_handle_id']))
        self.assertEqual((1, 1), self.traits()['PGPU'])

    def test_concurrent_reservations_never_share(self):
        samples.apply(self.node, [samples.gpu(vfs=16)])
        candidates = [c['handle_id'] for c in
                      self.db.list_accelerator_candidates(self.node.id)]
        self.assertEqual(16, len(candidates))
        won, errors = samples.race(lambda i: self.reserve(
            instance='00000000-0000-4000-8000-%012d' % i,
            handle_ids=candidates), 100)
        lost = [e for e in errors
                if isinstance(e, exception.NoFreeAcceleratorHandle)]
        self.assertEqual([], [e for e in errors if e not in lost])
        self.assertEqual(16, len(won))
        self.assertEqual(84, len(lost))
        self.assertEqual(16, len({a['attach_handle_id'] for a in won}))
        self.assertEqual(16, _count(models.AcceleratorAttachment))
        self.assertEqual((16, 0), self.traits()['PGPU'])

    def test_record_program_swaps_function_trait(self):
        samples.apply(self.node, [samples.fpga(
            function={'uuid': samples.GZIP, 'name': 'gzip'})])
        att = self.reserve()
        self.assertTrue(self.db.update_accelerator_attachment(
            att['id'], (acc_db.PENDING,), state=acc_db.PROGRAMMING))
        self.assertTrue(self.db.record_accelerator_program(
            att['id'], att['deployable_id'],
            {'uuid': samples.AES, 'name': 'aes'}, 'image-aes'))
        traits = self.traits()
        self.assertNotIn(GZIP_TRAIT, traits)
        self.assertEqual((2, 1), traits[AES_TRAIT])
        functions = [d for d in self.db.list_accelerator_deployables(
            {'node_id': self.node.id}) if d['kind'] == 'function']
        self.assertEqual([(samples.AES, 'image-aes')],
                         [(d['function_uuid'], d['bitstream_id'])
                          for d in functions])
        row = self.db.list_accelerator_attachments(node_id=self.node.id)[0]
        self.assertEqual(acc_db.PROGRAMMED, row['state'])
        # The region is left for cleaning once free.
        self.assertEqual([], self.db.list_accelerator_regions_to_clean(
            self.node.id))
        self.db.release_accelerator_attachment(att['id'])
        regions = self.db.list_accelerator_regions_to_clean(self.node.id)
        self.assertEqual(['region0'], [r['key'] for r in regions])
        self.db.mark_accelerator_region_cleaned(regions[0]['deployable_id'])
        self.assertEqual([], self.db.list_accelerator_regions_to_clean(
            self.node.id))
        # The erased region reports the original inventory again: it is
        # diffed (not skipped as unchanged) and the function trait goes.
        summary = samples.apply(self.node, [samples.fpga(
            function={'uuid': samples.GZIP, 'name': 'gzip'})])
        self.assertTrue(summary['changed'])
        self.assertNotIn(AES_TRAIT, self.traits())
        self.assertEqual((2, 2), self.traits()[GZIP_TRAIT])

    def test_record_program_refused_after_rollback(self):
        samples.apply(self.node, [samples.fpga()])
        att = self.reserve()
        # Still pending (never moved to programming): nothing recorded.
        self.assertFalse(self.db.record_accelerator_program(
            att['id'], att['deployable_id'],
            {'uuid': samples.AES, 'name': 'aes'}, 'image-aes'))
        self.assertNotIn(AES_TRAIT, self.traits())


class TestStale(AcceleratorDBTestCase):

    def test_stale_lists(self):
        samples.apply(self.node, [samples.gpu(vfs=3)])
        fresh = self.reserve(index=0)
        late = self.reserve(index=1)
        dead = self.reserve(index=2)
        with sa_api._writer() as session:
            session.execute(sa.update(models.AcceleratorAttachment).where(
                models.AcceleratorAttachment.id == late['id']).values(
                    deadline=timeutils.utcnow()
                    - datetime.timedelta(seconds=1)))
            session.execute(sa.update(models.AcceleratorAttachment).where(
                models.AcceleratorAttachment.id == dead['id']).values(
                    conductor='gone'))
        stale = self.db.list_stale_accelerator_attachments(
            timeutils.utcnow(), {'gone'})
        self.assertEqual({late['id'], dead['id']},
                         {a['id'] for a in stale})
        self.assertNotIn(fresh['id'], [a['id'] for a in stale])

    def test_attached_without_instance_is_orphaned(self):
        samples.apply(self.node, [samples.gpu()])
        att = self.reserve()
        self.db.update_accelerator_attachment(
            att['id'], (acc_db.PENDING,), state=acc_db.ATTACHED,
            deadline=None)
        self.assertEqual([], self.db.list_stale_accelerator_attachments(
            timeutils.utcnow(), set()))
        self.db.update_node(self.node.id, {'provision_state': 'available'})
        self.assertEqual([att['id']], [
            a['id'] for a in self.db.list_stale_accelerator_attachments(
                timeutils.utcnow(), set())])


class TestAllocationMatch(AcceleratorDBTestCase):

    def test_accelerator_trait_needs_a_free_handle(self):
        free_node = utils.create_test_node(
            name='free', provision_state='available', power_state='power off',
            resource_class='baremetal')
        samples.apply(free_node, [samples.fpga(
            function={'uuid': samples.GZIP, 'name': 'gzip'})])
        plain = utils.create_test_node(
            name='plain', provision_state='available',
            power_state='power off', resource_class='baremetal')
        found = self.db.allocation_candidates('baremetal', [GZIP_TRAIT])
        self.assertEqual([free_node.id], list(found))
        self.assertEqual([], self.db.allocation_candidates(
            'baremetal', [AES_TRAIT]))
        # Every handle taken: the trait is no longer offered.
        self.reserve(node=free_node, index=0)
        self.reserve(node=free_node, index=1)
        self.assertEqual([], self.db.allocation_candidates(
            'baremetal', [GZIP_TRAIT]))
        # An operator trait is matched as before.
        self.db.set_node_traits(plain.id, ['CUSTOM_RACK_A'])
        self.assertEqual([plain.id], list(self.db.allocation_candidates(
            'baremetal', ['CUSTOM_RACK_A'])))
