"""Database access for inspection rules (Ironic API 1.96), mixed into
Connection. A rule is one row: its conditions and actions are JSON."""

from oslo_db import exception as db_exc
from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.db.sqlalchemy import models

# Columns a rule list may be sorted by (not the JSON ones, as Ironic).
INSPECTION_RULE_SORT_KEYS = frozenset(['id', 'uuid', 'priority', 'phase',
                                       'description', 'sensitive',
                                       'created_at', 'updated_at'])


def _sa_api():
    # Imported lazily: api.py imports this module to build Connection.
    from ironic_like.db.sqlalchemy import api
    return api


class InspectionRulesMixin(object):

    def create_inspection_rule(self, values):
        values = dict(values)
        values.setdefault('uuid', uuidutils.generate_uuid())
        values.setdefault('conditions', [])
        rule = models.InspectionRule()
        rule.update(values)
        try:
            with _sa_api()._writer() as session:
                session.add(rule)
                session.flush()
        except db_exc.DBDuplicateEntry:
            raise exception.InspectionRuleAlreadyExists(
                uuid=values['uuid'])
        return self.get_inspection_rule_by_uuid(values['uuid'])

    def get_inspection_rule_by_uuid(self, rule_uuid):
        r = models.InspectionRule
        with _sa_api()._reader() as session:
            rule = session.scalars(
                sa.select(r).where(r.uuid == rule_uuid)).first()
        if rule is None:
            raise exception.InspectionRuleNotFound(rule=rule_uuid)
        return rule

    def get_inspection_rule_list(self, filters=None, limit=None,
                                 marker=None, sort_key=None, sort_dir=None):
        """Rules; ``filters`` may hold ``phase``."""
        r = models.InspectionRule
        marker_obj = None
        if marker is not None:
            try:
                marker_obj = self.get_inspection_rule_by_uuid(marker)
            except exception.InspectionRuleNotFound:
                raise exception.InvalidParameterValue(
                    err='The marker %s does not name an existing '
                        'inspection rule.' % marker, field='marker')
        query = sa.select(r)
        if (filters or {}).get('phase') is not None:
            query = query.where(r.phase == filters['phase'])
        sa_api = _sa_api()
        query = sa_api._paginate(query, r, limit, marker_obj, sort_key,
                                 sort_dir, INSPECTION_RULE_SORT_KEYS)
        with sa_api._reader() as session:
            return list(session.scalars(query))

    def update_inspection_rule(self, rule_id, values):
        values = dict(values)
        for key in ('id', 'uuid', 'created_at'):
            values.pop(key, None)
        with _sa_api()._writer() as session:
            rule = session.get(models.InspectionRule, rule_id,
                               with_for_update=True)
            if rule is None:
                raise exception.InspectionRuleNotFound(rule=rule_id)
            rule.update(values)
            session.flush()
            rule_uuid = rule.uuid
        return self.get_inspection_rule_by_uuid(rule_uuid)

    def destroy_inspection_rule(self, rule_id):
        r = models.InspectionRule
        with _sa_api()._writer() as session:
            count = session.execute(
                sa.delete(r).where(r.id == rule_id)
                .execution_options(synchronize_session=False)).rowcount
        if count != 1:
            raise exception.InspectionRuleNotFound(rule=rule_id)

    def destroy_all_inspection_rules(self):
        """Delete every stored rule in one statement; the number deleted.

        The built-in rules ([inspection_rules]built_in_rules) live in a
        file, not here, so they stay, as Ironic's bulk delete keeps them.
        """
        with _sa_api()._writer() as session:
            return session.execute(
                sa.delete(models.InspectionRule)
                .execution_options(synchronize_session=False)).rowcount
