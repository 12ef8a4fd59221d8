"""Runbooks in the database."""

from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.db.sqlalchemy import models
from ironic_like.tests import base

STEPS = [{'interface': 'bios', 'step': 'apply_configuration',
          'args': {'settings': []}, 'order': 2},
         {'interface': 'deploy', 'step': 'erase_devices_metadata',
          'args': {}, 'order': 1}]


def _steps(runbook):
    return [(s.interface, s.step, s.order) for s in runbook.steps]


class TestRunbooks(base.TestCase):

    def _create(self, name='CUSTOM_FIRMWARE', steps=STEPS, **values):
        values.update(name=name, steps=list(steps))
        return self.db.create_runbook(values)

    def test_create_and_get(self):
        runbook = self._create(extra={'a': 1}, owner='p1')
        self.assertTrue(uuidutils.is_uuid_like(runbook.uuid))
        self.assertFalse(runbook.public)
        self.assertFalse(runbook.disable_ramdisk)
        for found in (self.db.get_runbook_by_id(runbook.id),
                      self.db.get_runbook_by_uuid(runbook.uuid),
                      self.db.get_runbook_by_name('CUSTOM_FIRMWARE')):
            self.assertEqual(runbook.id, found.id)
            self.assertEqual('p1', found.owner)
            self.assertEqual([('bios', 'apply_configuration', 2),
                              ('deploy', 'erase_devices_metadata', 1)],
                             _steps(found))
        self.assertRaises(exception.RunbookNotFound,
                          self.db.get_runbook_by_name, 'CUSTOM_NONE')

    def test_duplicates(self):
        runbook = self._create()
        self.assertRaises(exception.RunbookDuplicateName, self._create)
        self.assertRaises(exception.RunbookAlreadyExists, self._create,
                          'CUSTOM_OTHER', uuid=runbook.uuid)

    def test_list_for_a_project(self):
        self._create('CUSTOM_MINE', owner='p1')
        self._create('CUSTOM_THEIRS', owner='p2')
        self._create('CUSTOM_PUBLIC', public=True)
        self._create('CUSTOM_SYSTEM')
        names = [r.name for r in self.db.get_runbook_list(project='p1')]
        self.assertEqual(['CUSTOM_MINE', 'CUSTOM_PUBLIC'], names)
        self.assertEqual(4, len(self.db.get_runbook_list()))
        page = self.db.get_runbook_list(limit=2, sort_key='name')
        self.assertEqual(['CUSTOM_MINE', 'CUSTOM_PUBLIC'],
                         [r.name for r in page])
        self.assertRaises(exception.InvalidParameterValue,
                          self.db.get_runbook_list,
                          marker=uuidutils.generate_uuid())

    def test_update_replaces_steps(self):
        runbook = self._create()
        updated = self.db.update_runbook(runbook.id, {
            'public': True, 'steps': [STEPS[1]]})
        self.assertTrue(updated.public)
        self.assertEqual([('deploy', 'erase_devices_metadata', 1)],
                         _steps(updated))
        with sa_api._reader() as session:
            count = session.scalar(sa.select(sa.func.count()).select_from(
                models.RunbookStep))
        self.assertEqual(1, count)

    def test_destroy(self):
        runbook = self._create()
        self.db.destroy_runbook(runbook.id)
        self.assertRaises(exception.RunbookNotFound,
                          self.db.get_runbook_by_id, runbook.id)
        self.assertRaises(exception.RunbookNotFound,
                          self.db.destroy_runbook, runbook.id)
        with sa_api._reader() as session:
            self.assertEqual(0, session.scalar(sa.select(
                sa.func.count()).select_from(models.RunbookStep)))
