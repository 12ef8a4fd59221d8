"""Inspection rules in the database."""

from oslo_utils import uuidutils

from ironic_like.common import exception
from ironic_like.tests import base

ACTIONS = [{'op': 'set-attribute',
            'args': {'path': '/extra/rack', 'value': 'r1'}}]


class TestInspectionRules(base.TestCase):

    def _create(self, **values):
        values.setdefault('actions', ACTIONS)
        values.setdefault('priority', 0)
        values.setdefault('phase', 'main')
        values.setdefault('sensitive', False)
        return self.db.create_inspection_rule(values)

    def test_create_get_update_destroy(self):
        rule = self._create(conditions=[{'op': 'is-true',
                                         'args': {'value': True}}],
                            description='rack')
        self.assertTrue(uuidutils.is_uuid_like(rule.uuid))
        found = self.db.get_inspection_rule_by_uuid(rule.uuid)
        self.assertEqual(ACTIONS, found.actions)
        self.assertEqual('is-true', found.conditions[0]['op'])
        updated = self.db.update_inspection_rule(rule.id, {'priority': 7,
                                                           'uuid': 'x'})
        self.assertEqual((7, rule.uuid), (updated.priority, updated.uuid))
        self.db.destroy_inspection_rule(rule.id)
        self.assertRaises(exception.InspectionRuleNotFound,
                          self.db.get_inspection_rule_by_uuid, rule.uuid)
        self.assertRaises(exception.InspectionRuleNotFound,
                          self.db.destroy_inspection_rule, rule.id)
        self.assertRaises(exception.InspectionRuleNotFound,
                          self.db.update_inspection_rule, rule.id, {})

    def test_duplicate_uuid(self):
        rule = self._create()
        self.assertRaises(exception.InspectionRuleAlreadyExists,
                          self._create, uuid=rule.uuid)

    def test_list(self):
        a = self._create(priority=5)
        b = self._create(priority=1, phase='other')
        self.assertEqual([a.uuid, b.uuid],
                         [r.uuid for r in self.db.get_inspection_rule_list()])
        self.assertEqual([a.uuid], [r.uuid for r in
                                    self.db.get_inspection_rule_list(
                                        filters={'phase': 'main'})])
        self.assertEqual([b.uuid], [r.uuid for r in
                                    self.db.get_inspection_rule_list(
                                        sort_key='priority', limit=1)])
        self.assertRaises(exception.InvalidParameterValue,
                          self.db.get_inspection_rule_list,
                          marker=uuidutils.generate_uuid())

    def test_destroy_all(self):
        self._create()
        self._create(phase='other', sensitive=True)
        self.assertEqual(2, self.db.destroy_all_inspection_rules())
        self.assertEqual([], self.db.get_inspection_rule_list())
        self.assertEqual(0, self.db.destroy_all_inspection_rules())
