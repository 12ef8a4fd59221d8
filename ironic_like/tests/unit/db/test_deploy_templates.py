"""Deploy templates in the database."""

from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.db.sqlalchemy import models
from ironic_like.tests import base

STEP = {'interface': 'bios', 'step': 'apply_configuration',
        'args': {'settings': [{'name': 'LogicalProc', 'value': 'Enabled'}]},
        'priority': 150}


def _steps(template):
    return [(s.interface, s.step, s.args, s.priority)
            for s in template.steps]


class TestDeployTemplates(base.TestCase):

    def _create(self, name='CUSTOM_HYPERTHREADING_ON', steps=(STEP,),
                **values):
        values.update(name=name, steps=list(steps))
        return self.db.create_deploy_template(values)

    def test_create_and_get(self):
        template = self._create(extra={'a': 1})
        self.assertTrue(uuidutils.is_uuid_like(template.uuid))
        self.assertEqual({'a': 1}, template.extra)
        self.assertIsNotNone(template.created_at)
        for found in (self.db.get_deploy_template_by_id(template.id),
                      self.db.get_deploy_template_by_uuid(template.uuid),
                      self.db.get_deploy_template_by_name(
                          'CUSTOM_HYPERTHREADING_ON')):
            self.assertEqual(template.id, found.id)
            self.assertEqual([('bios', 'apply_configuration',
                               STEP['args'], 150)], _steps(found))
        self.assertEqual({}, self._create('CUSTOM_B', extra=None).extra)
        given = uuidutils.generate_uuid()
        self.assertEqual(given, self._create('CUSTOM_C', uuid=given).uuid)

    def test_steps_keep_their_order(self):
        steps = [dict(STEP, step='s%d' % i, priority=i) for i in range(5)]
        template = self._create(steps=steps)
        self.assertEqual(['s0', 's1', 's2', 's3', 's4'],
                         [s.step for s in self.db.get_deploy_template_by_id(
                             template.id).steps])

    def test_duplicates(self):
        template = self._create()
        self.assertRaises(exception.DeployTemplateDuplicateName,
                          self._create)
        self.assertRaises(exception.DeployTemplateAlreadyExists,
                          self._create, 'CUSTOM_OTHER', uuid=template.uuid)
        other = self._create('CUSTOM_OTHER')
        self.assertRaises(exception.DeployTemplateDuplicateName,
                          self.db.update_deploy_template, other.id,
                          {'name': template.name})

    def test_not_found(self):
        for get, value in ((self.db.get_deploy_template_by_id, 9),
                           (self.db.get_deploy_template_by_uuid,
                            uuidutils.generate_uuid()),
                           (self.db.get_deploy_template_by_name,
                            'CUSTOM_NONE')):
            self.assertRaises(exception.DeployTemplateNotFound, get, value)
        self.assertRaises(exception.DeployTemplateNotFound,
                          self.db.update_deploy_template, 9, {'extra': {}})
        self.assertRaises(exception.DeployTemplateNotFound,
                          self.db.destroy_deploy_template, 9)

    def test_update_replaces_steps_whole(self):
        template = self._create(steps=[STEP, dict(STEP, step='other')])
        new = {'interface': 'raid', 'step': 'create_configuration',
               'args': {}, 'priority': 10}
        updated = self.db.update_deploy_template(
            template.id, {'name': 'CUSTOM_RENAMED', 'extra': None,
                          'steps': [new], 'uuid': 'ignored'})
        self.assertEqual(template.uuid, updated.uuid)
        self.assertEqual('CUSTOM_RENAMED', updated.name)
        self.assertEqual({}, updated.extra)
        self.assertEqual([('raid', 'create_configuration', {}, 10)],
                         _steps(updated))
        # No orphan rows are left behind.
        with sa_api._reader() as session:
            self.assertEqual(1, session.execute(
                sa.select(sa.func.count()).select_from(
                    models.DeployTemplateStep)).scalar())
        # Without steps, the steps stay.
        kept = self.db.update_deploy_template(template.id,
                                              {'extra': {'x': 1}})
        self.assertEqual(_steps(updated), _steps(kept))

    def test_destroy(self):
        template = self._create()
        kept = self._create('CUSTOM_KEPT')
        self.db.destroy_deploy_template(template.id)
        self.assertRaises(exception.DeployTemplateNotFound,
                          self.db.get_deploy_template_by_id, template.id)
        self.assertEqual([kept.id],
                         [t.id for t in self.db.get_deploy_template_list()])
        self.assertEqual(1, len(kept.steps))
        # The name is free again.
        self._create()

    def test_list_pagination_and_sort(self):
        names = ['CUSTOM_B', 'CUSTOM_A', 'CUSTOM_C']
        made = [self._create(n) for n in names]
        self.assertEqual(names,
                         [t.name for t in self.db.get_deploy_template_list()])
        self.assertEqual(['CUSTOM_A', 'CUSTOM_B', 'CUSTOM_C'], [
            t.name for t in self.db.get_deploy_template_list(
                sort_key='name')])
        self.assertEqual(['CUSTOM_C', 'CUSTOM_B'], [
            t.name for t in self.db.get_deploy_template_list(
                sort_key='name', sort_dir='desc', limit=2)])
        self.assertEqual(['CUSTOM_A', 'CUSTOM_C'], [
            t.name for t in self.db.get_deploy_template_list(
                marker=made[0].uuid)])
        self.assertRaises(exception.InvalidParameterValue,
                          self.db.get_deploy_template_list,
                          marker=uuidutils.generate_uuid())
        self.assertRaises(exception.InvalidParameterValue,
                          self.db.get_deploy_template_list,
                          sort_key='extra')

    def test_by_names(self):
        a = self._create('CUSTOM_A')
        b = self._create('CUSTOM_B')
        self._create('CUSTOM_C')
        self.assertEqual([a.id, b.id], [
            t.id for t in self.db.get_deploy_templates_by_names(
                ['CUSTOM_B', 'CUSTOM_A', 'CUSTOM_UNKNOWN', 'CUSTOM_A'])])
        self.assertEqual([], self.db.get_deploy_templates_by_names([]))
        self.assertEqual([], self.db.get_deploy_templates_by_names(None))
        self.assertEqual(1, len(self.db.get_deploy_templates_by_names(
            ['CUSTOM_A'])[0].steps))
