"""Database access for host OS configuration, mixed into Connection.

Modules and configurations are plain rows. State items are derived: the
items a node should run are a function of the configurations, the
modules and the node's labels (common/hostos/items.py), and
``sync_hostos_items`` brings the stored items to that function for some
configurations or some nodes, touching only the rows that differ. A
label change derives items for that node only; the node label index
(node_labels) lets a configuration find its nodes without reading every
node.
"""

import collections
import hashlib
import hmac
import secrets

from oslo_db import exception as db_exc
from oslo_utils import timeutils
from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.common.hostos import items as hostos_items
from ironic_like.common.hostos import selector as hostos_selector
from ironic_like.common import states
from ironic_like.conf import CONF
from ironic_like.db.sqlalchemy import models
from ironic_like.db.sqlalchemy import retry

ACTIVE = 'active'
PAUSED = 'paused'
DELETING = 'deleting'
DELETE_FAILED = 'delete_failed'
# Configurations whose items nodes should have.
LIVE_STATUSES = (ACTIVE, PAUSED)

MODULE_VERIFYING = 'verifying'
MODULE_AVAILABLE = 'available'
MODULE_DEPRECATED = 'deprecated'
MODULE_ERROR = 'error'
USABLE_MODULE_STATES = (MODULE_AVAILABLE, MODULE_DEPRECATED)

# What the status of an item needs (a row of _STATUS_COLUMNS).
_STATUS_COLUMNS = (
    models.HostOSItem.configuration_id, models.HostOSItem.node_id,
    models.HostOSItem.spec_hash, models.HostOSItem.removed,
    models.HostOSItem.released, models.HostOSItem.reported_hash,
    models.HostOSItem.state, models.HostOSItem.exit_code)

ItemStatus = collections.namedtuple(
    'ItemStatus', ['configuration_id', 'node_id', 'spec_hash', 'removed',
                   'released', 'reported_hash', 'state', 'exit_code'])


def _sa_api():
    # Imported lazily: api.py imports this module to build Connection.
    from ironic_like.db.sqlalchemy import api
    return api


# The writers of the item rows race (a fleet-wide sync, a node's
# relabelling, the host agents' heartbeats), which MariaDB may break as a
# deadlock: they are tried again.
_retried = retry.lazily_retried

# What a sync may still end with after its retries (a deadlock, a lost
# connection, a race on an item): the conductor leaves it to the next
# reconciliation pass rather than failing the change that was made.
SYNC_LEFT_FOR_LATER = (db_exc.DBDeadlock, db_exc.DBConnectionError,
                       db_exc.DBDuplicateEntry)


def token_hash(token):
    return hashlib.sha256(token.encode('utf-8')).hexdigest()


def item_state(row, paused=False):
    """The state the service shows for an item row (or ItemStatus)."""
    held = not row.released or paused
    return hostos_items.effective_state(
        row.spec_hash, row.removed, held, row.reported_hash, row.state,
        row.exit_code)


def index_labels(session, node_id, labels):
    """Make node_labels repeat ``labels`` of node ``node_id``."""
    session.execute(sa.delete(models.NodeLabel).where(
        models.NodeLabel.node_id == node_id))
    for key, value in sorted((labels or {}).items()):
        session.add(models.NodeLabel(node_id=node_id, key=key,
                                     value=str(value)))


def destroy_node_rows(session, node_id):
    """Delete what host OS configuration keeps of a node."""
    for model in (models.NodeLabel, models.HostOSItem, models.HostOSAgent):
        session.execute(sa.delete(model).where(model.node_id == node_id))


def configuration_dict(configuration):
    """What common/hostos/items.derive needs of a configuration row."""
    return {'name': configuration.name, 'order': configuration.order,
            'configs': configuration.configs or [],
            'secret_values': configuration.secret_values or [],
            'secret_salt': configuration.secret_salt}


def module_key(config):
    return (config['module'], config['module_version'])


class HostOSMixin(object):

    # -- modules ---------------------------------------------------------

    def create_hostos_module(self, values):
        values = dict(values)
        values.setdefault('uuid', uuidutils.generate_uuid())
        values.setdefault('state', MODULE_VERIFYING)
        module = models.HostOSModule()
        module.update(values)
        try:
            with _sa_api()._writer() as session:
                session.add(module)
                session.flush()
        except db_exc.DBDuplicateEntry:
            raise exception.HostOSModuleExists(name=values['name'],
                                               version=values['version'])
        return module

    def get_hostos_module(self, name, version):
        with _sa_api()._reader() as session:
            module = session.scalars(sa.select(models.HostOSModule).where(
                models.HostOSModule.name == name,
                models.HostOSModule.version == version)).first()
        if module is None:
            raise exception.HostOSModuleNotFound(name=name, version=version)
        return module

    def get_hostos_module_by_id(self, module_id):
        with _sa_api()._reader() as session:
            module = session.get(models.HostOSModule, module_id)
        if module is None:
            raise exception.HostOSModuleNotFound(name=module_id, version='?')
        return module

    def list_hostos_modules(self, filters=None):
        filters = filters or {}
        query = sa.select(models.HostOSModule).order_by(
            models.HostOSModule.name, models.HostOSModule.id)
        for key in ('name', 'state'):
            if filters.get(key) is not None:
                query = query.where(
                    getattr(models.HostOSModule, key) == filters[key])
        with _sa_api()._reader() as session:
            return list(session.scalars(query))

    def update_hostos_module(self, module_id, values, expected=None):
        """Update a module; with ``expected`` (column -> value) a
        compare-and-swap: None is returned if the row no longer matches."""
        with _sa_api()._writer() as session:
            module = session.scalars(sa.select(models.HostOSModule).where(
                models.HostOSModule.id == module_id).with_for_update()
            ).first()
            if module is None:
                raise exception.HostOSModuleNotFound(name=module_id,
                                                     version='?')
            for key, value in (expected or {}).items():
                if getattr(module, key) != value:
                    return None
            module.update(values)
            session.flush()
            session.refresh(module)
        return module

    def deprecate_hostos_modules(self, name, versions, by_version):
        """Mark the listed versions of module ``name`` deprecated by
        ``by_version`` (those that are available or already deprecated)."""
        if not versions:
            return 0
        with _sa_api()._writer() as session:
            return session.execute(
                sa.update(models.HostOSModule)
                .where(models.HostOSModule.name == name,
                       models.HostOSModule.version.in_(list(versions)),
                       models.HostOSModule.state.in_(USABLE_MODULE_STATES))
                .values(state=MODULE_DEPRECATED, deprecated_by=by_version,
                        updated_at=timeutils.utcnow())).rowcount

    def hostos_module_users(self, name, version):
        """Names of the configurations whose configs use this version."""
        users = []
        for configuration in self.list_hostos_configurations():
            for config in configuration.configs or []:
                if module_key(config) == (name, version):
                    users.append(configuration.name)
                    break
        return users

    def destroy_hostos_module(self, name, version):
        module = self.get_hostos_module(name, version)
        with _sa_api()._writer() as session:
            # Checked inside the transaction that deletes, against the
            # configurations committed so far.
            users = self.hostos_module_users(name, version)
            if users:
                raise exception.HostOSModuleInUse(
                    name=name, version=version,
                    configurations=', '.join(sorted(users)))
            session.execute(sa.delete(models.HostOSModule).where(
                models.HostOSModule.id == module.id))

    # -- configurations --------------------------------------------------

    def create_hostos_configuration(self, values):
        values = dict(values)
        values.setdefault('uuid', uuidutils.generate_uuid())
        values.setdefault('status', ACTIVE)
        values.setdefault('secret_salt', secrets.token_hex(16))
        configuration = models.HostOSConfiguration()
        configuration.update(values)
        try:
            with _sa_api()._writer() as session:
                session.add(configuration)
                session.flush()
        except db_exc.DBDuplicateEntry:
            raise exception.HostOSConfigurationExists(name=values['name'])
        return configuration

    def get_hostos_configuration(self, name):
        with _sa_api()._reader() as session:
            configuration = session.scalars(
                sa.select(models.HostOSConfiguration).where(
                    models.HostOSConfiguration.name == name)).first()
        if configuration is None:
            raise exception.HostOSConfigurationNotFound(name=name)
        return configuration

    def list_hostos_configurations(self, filters=None):
        filters = filters or {}
        query = sa.select(models.HostOSConfiguration).order_by(
            models.HostOSConfiguration.name)
        if filters.get('status') is not None:
            query = query.where(
                models.HostOSConfiguration.status == filters['status'])
        if filters.get('ids') is not None:
            query = query.where(
                models.HostOSConfiguration.id.in_(list(filters['ids'])))
        with _sa_api()._reader() as session:
            return list(session.scalars(query))

    def update_hostos_configuration(self, configuration_id, values,
                                    expected=None):
        """Update a configuration; with ``expected`` a compare-and-swap
        (None is returned when the row no longer matches)."""
        with _sa_api()._writer() as session:
            configuration = session.scalars(
                sa.select(models.HostOSConfiguration).where(
                    models.HostOSConfiguration.id == configuration_id
                ).with_for_update()).first()
            if configuration is None:
                raise exception.HostOSConfigurationNotFound(
                    name=configuration_id)
            for key, value in (expected or {}).items():
                if getattr(configuration, key) != value:
                    return None
            configuration.update(values)
            session.flush()
            session.refresh(configuration)
        return configuration

    def start_hostos_configuration_delete(self, configuration_id):
        """Mark a configuration deleting and all its items removed."""
        now = timeutils.utcnow()
        with _sa_api()._writer() as session:
            session.execute(
                sa.update(models.HostOSConfiguration)
                .where(models.HostOSConfiguration.id == configuration_id)
                .values(status=DELETING, delete_started_at=now,
                        status_reason=None, updated_at=now))
            # Items no agent received go at once; the others when their
            # node's agent no longer holds them.
            session.execute(
                sa.delete(models.HostOSItem)
                .where(models.HostOSItem.configuration_id
                       == configuration_id,
                       models.HostOSItem.released.is_(False)))
            session.execute(
                sa.update(models.HostOSItem)
                .where(models.HostOSItem.configuration_id
                       == configuration_id,
                       models.HostOSItem.removed.is_(False))
                .values(removed=True, updated_at=now))

    def hostos_nodes_holding(self, configuration_id):
        """(node uuid, node name) of the nodes still holding items of a
        configuration."""
        with _sa_api()._reader() as session:
            rows = session.execute(
                sa.select(models.Node.uuid, models.Node.name).distinct()
                .join(models.HostOSItem,
                      models.HostOSItem.node_id == models.Node.id)
                .where(models.HostOSItem.configuration_id
                       == configuration_id)
                .order_by(models.Node.uuid)).all()
        return [tuple(r) for r in rows]

    def finish_hostos_configuration_delete(self, configuration_id):
        """Delete the configuration row if no node holds its items any
        more; True if it is gone."""
        with _sa_api()._writer() as session:
            left = session.execute(
                sa.select(sa.func.count()).select_from(models.HostOSItem)
                .where(models.HostOSItem.configuration_id
                       == configuration_id)).scalar()
            if left:
                return False
            session.execute(sa.delete(models.HostOSConfiguration).where(
                models.HostOSConfiguration.id == configuration_id,
                models.HostOSConfiguration.status.in_(
                    (DELETING, DELETE_FAILED))))
        return True

    # -- items: derivation -----------------------------------------------

    def _usable_modules(self, session):
        rows = session.scalars(sa.select(models.HostOSModule).where(
            models.HostOSModule.state.in_(USABLE_MODULE_STATES)))
        return {(m.name, m.version): {'url': m.url,
                                      'sha256sum': m.sha256sum,
                                      'playbook': m.playbook}
                for m in rows}

    def _templates(self, configuration, modules):
        try:
            return hostos_items.derive(
                configuration_dict(configuration), modules,
                CONF.hostos.modules_dir, CONF.hostos.ansible_playbook)
        except exception.InvalidParameterValue:
            # A module it needs is not usable (cannot happen through the
            # API, which refuses such configurations): it gets no items
            # rather than half of them.
            return []

    def _selected_nodes(self, session, selector, node_ids=None):
        """{node id: labels} of the nodes ``selector`` selects, among
        ``node_ids`` if given."""
        selector = hostos_selector.normalize(selector)
        if hostos_selector.is_empty(selector):
            return {}
        query = sa.select(models.Node.id, models.Node.labels)
        if node_ids is not None:
            query = query.where(models.Node.id.in_(list(node_ids)))
        else:
            terms = hostos_selector.index_terms(selector)
            for key, values in terms:
                sub = sa.select(models.NodeLabel.node_id).where(
                    models.NodeLabel.key == key)
                if values is not None:
                    sub = sub.where(models.NodeLabel.value.in_(list(values)))
                query = query.where(models.Node.id.in_(sub))
        return {node_id: labels or {}
                for node_id, labels in session.execute(query)
                if hostos_selector.matches(selector, labels or {})}

    @_retried
    def sync_hostos_items(self, configuration_ids=None, node_ids=None):
        """Bring the stored items to what the configurations want, for
        the configurations ``configuration_ids`` (on every node) or for
        the nodes ``node_ids`` (against every configuration). Returns
        counts: created, changed, removed.

        Two syncs racing on one item make one of them hit the unique
        (node, name) constraint; it starts again on fresh rows (a sync is
        idempotent). The conductor's periodic reconciliation repairs what
        a lost race could still leave behind.
        """
        for attempt in range(3):
            try:
                return self._sync_items(configuration_ids, node_ids)
            except db_exc.DBDuplicateEntry:
                if attempt == 2:
                    raise

    def _sync_items(self, configuration_ids, node_ids):
        counts = {'created': 0, 'changed': 0, 'removed': 0}
        now = timeutils.utcnow()
        with _sa_api()._writer() as session:
            modules = self._usable_modules(session)
            query = sa.select(models.HostOSConfiguration)
            if configuration_ids is not None:
                query = query.where(models.HostOSConfiguration.id.in_(
                    list(configuration_ids)))
            configurations = list(session.scalars(query))
            wanted = {}
            for configuration in configurations:
                if configuration.status not in LIVE_STATUSES:
                    continue
                templates = self._templates(configuration, modules)
                if not templates:
                    continue
                selected = self._selected_nodes(
                    session, configuration.machine_selector, node_ids)
                for node_id in selected:
                    for template in templates:
                        wanted[(node_id, template['name'])] = (
                            configuration.id, template)
            existing = self._existing_items(
                session, [c.id for c in configurations], node_ids,
                wanted)
            for key, row in existing.items():
                if key in wanted:
                    config_id, template = wanted.pop(key)
                    item = hostos_items.for_node(template, row.generation)
                    if (row.spec_hash != item['hash'] or row.removed
                            or row.configuration_id != config_id
                            or row.sort_key != item['sort_key']):
                        row.update({
                            'configuration_id': config_id,
                            'runner': item['runner'],
                            'phase': item['phase'],
                            'version': item['version'],
                            'params': item['params'],
                            'spec_hash': item['hash'],
                            'sort_key': item['sort_key'],
                            'removed': False, 'updated_at': now})
                        counts['changed'] += 1
                elif not row.removed:
                    counts['removed'] += 1
                    if not row.released:
                        # No agent ever received it: nothing to wait for.
                        session.delete(row)
                    else:
                        row.update({'removed': True, 'updated_at': now})
            for (node_id, name), (config_id, template) in sorted(
                    wanted.items(), key=lambda kv: kv[0]):
                item = hostos_items.for_node(template, 1)
                session.add(models.HostOSItem(
                    node_id=node_id, configuration_id=config_id, name=name,
                    runner=item['runner'], phase=item['phase'],
                    version=item['version'], params=item['params'],
                    spec_hash=item['hash'], sort_key=item['sort_key'],
                    generation=1, removed=False, released=False,
                    attempt=0))
                counts['created'] += 1
            session.flush()
        return counts

    def _existing_items(self, session, configuration_ids, node_ids, wanted):
        """{(node id, name): row} of the items a sync may touch: those of
        the configurations (or of the nodes) synced, and those holding a
        name the sync wants (an item of a deleted configuration of the
        same name, still held by its node, is taken over)."""
        item = models.HostOSItem
        rows = {}
        if node_ids is not None:
            query = sa.select(item).where(item.node_id.in_(list(node_ids)))
        else:
            query = sa.select(item).where(
                item.configuration_id.in_(list(configuration_ids)))
        for row in session.scalars(query.with_for_update()):
            rows[(row.node_id, row.name)] = row
        missing = [key for key in wanted if key not in rows]
        if missing and node_ids is None:
            names = sorted({name for _, name in missing})
            nodes = sorted({node for node, _ in missing})
            for start in range(0, len(nodes), 1000):
                query = sa.select(item).where(
                    item.name.in_(names),
                    item.node_id.in_(nodes[start:start + 1000]))
                for row in session.scalars(query.with_for_update()):
                    rows[(row.node_id, row.name)] = row
        return rows

    @_retried
    def bump_hostos_generation(self, configuration_id, node_ids=None):
        """Reapply: one more generation for the configuration's items (on
        ``node_ids`` only, if given); the caller syncs to re-hash them.
        Returns the number of items bumped."""
        item = models.HostOSItem
        query = (sa.update(item)
                 .where(item.configuration_id == configuration_id,
                        item.removed.is_(False))
                 .values(generation=item.generation + 1))
        if node_ids is not None:
            query = query.where(item.node_id.in_(list(node_ids)))
        with _sa_api()._writer() as session:
            return session.execute(query).rowcount

    # -- items: status ---------------------------------------------------

    def list_hostos_item_status(self, configuration_ids=None, node_ids=None):
        """ItemStatus of the items of some configurations or nodes."""
        query = sa.select(*_STATUS_COLUMNS)
        if configuration_ids is not None:
            query = query.where(models.HostOSItem.configuration_id.in_(
                list(configuration_ids)))
        if node_ids is not None:
            query = query.where(models.HostOSItem.node_id.in_(
                list(node_ids)))
        with _sa_api()._reader() as session:
            return [ItemStatus(*row) for row in session.execute(query)]

    def list_hostos_items(self, configuration_id, node_ids=None):
        """(item row, node uuid, node name) of a configuration's items,
        by node then order."""
        item = models.HostOSItem
        query = (sa.select(item, models.Node.uuid, models.Node.name)
                 .join(models.Node, models.Node.id == item.node_id)
                 .where(item.configuration_id == configuration_id))
        if node_ids is not None:
            query = query.where(item.node_id.in_(list(node_ids)))
        with _sa_api()._reader() as session:
            rows = [tuple(r) for r in session.execute(query)]
        rows.sort(key=lambda r: (r[2] or '', r[1], r[0].sort_key or []))
        return rows

    def failed_hostos_nodes(self, configuration_id, since=None):
        """Node ids whose items of a configuration failed (the current
        spec) and finished after ``since``."""
        item = models.HostOSItem
        query = (sa.select(item.node_id).distinct()
                 .where(item.configuration_id == configuration_id,
                        item.removed.is_(False),
                        item.reported_hash == item.spec_hash,
                        item.state == 'failed'))
        if since is not None:
            query = query.where(item.finished_at > since)
        with _sa_api()._reader() as session:
            return [row[0] for row in session.execute(query)]

    # -- host agents -----------------------------------------------------

    @_retried
    def hostos_heartbeat(self, node_uuid, token, agent_version, reports,
                         held):
        """Record a host agent's heartbeat and compute its answer.

        Returns (node, new token or None, items or None, hold reason or
        None, changed configuration ids). ``items`` are (row, paused)
        pairs in execution order.
        """
        now = timeutils.utcnow()
        new_token = None
        with _sa_api()._writer() as session:
            node = session.scalars(sa.select(models.Node).where(
                models.Node.uuid == node_uuid)).first()
            if node is None:
                raise exception.NodeNotFound(node=node_uuid)
            agent = session.get(models.HostOSAgent, node.id)
            if agent is None:
                if token:
                    # A token nobody issued: the record was reset or the
                    # host is not the one the token was given to.
                    raise exception.HostOSAgentTokenInvalid(node=node_uuid)
                new_token = secrets.token_urlsafe(32)
                agent = models.HostOSAgent(node_id=node.id,
                                           token_hash=token_hash(new_token))
                session.add(agent)
                # A new host agent is a new host (deployed anew): what
                # the previous one reported says nothing about it.
                session.execute(
                    sa.update(models.HostOSItem)
                    .where(models.HostOSItem.node_id == node.id)
                    .values(state=None, reported_hash=None, exit_code=None,
                            attempt=0, started_at=None, finished_at=None,
                            output=None))
            elif not token or not hmac.compare_digest(
                    agent.token_hash, token_hash(token)):
                raise exception.HostOSAgentTokenInvalid(node=node_uuid)
            agent.agent_version = agent_version
            agent.last_heartbeat = now
            rows = {row.name: row for row in session.scalars(
                sa.select(models.HostOSItem).where(
                    models.HostOSItem.node_id == node.id
                ).with_for_update())}
            changed = self._record_reports(rows, reports, now)
            held = set(held or ())
            for name, row in list(rows.items()):
                if row.removed and name not in held:
                    session.delete(row)
                    del rows[name]
                    changed.add(row.configuration_id)
            session.flush()
            hold = None
            if node.provision_state != states.ACTIVE:
                hold = ('node is %s, not active' % node.provision_state)
            elif node.maintenance:
                hold = 'node is in maintenance'
            if hold is not None:
                return node, new_token, None, hold, changed
            answer = self._release(session, node.id, rows)
        return node, new_token, answer, None, changed

    @staticmethod
    def _record_reports(rows, reports, now):
        changed = set()
        for report in reports or ():
            row = rows.get(report.get('name'))
            if row is None:
                continue
            row.update({
                'state': report.get('state'),
                'reported_hash': report.get('hash'),
                'exit_code': report.get('exit_code'),
                'attempt': int(report.get('attempt') or 0),
                'started_at': report.get('started_at'),
                'finished_at': report.get('finished_at'),
                'output': hostos_items.trim_output(
                    report.get('output') or ''),
                'updated_at': now})
            changed.add(row.configuration_id)
        return changed

    def _release(self, session, node_id, rows):
        """Release to the node the configurations its items wait for, as
        far as each configuration's rollout allows; the node's items in
        execution order with whether each is paused."""
        live = [r for r in rows.values() if not r.removed]
        config_ids = sorted({r.configuration_id for r in live})
        configurations = {}
        if config_ids:
            configurations = {c.id: c for c in session.scalars(
                sa.select(models.HostOSConfiguration).where(
                    models.HostOSConfiguration.id.in_(config_ids)))}
        for config_id in config_ids:
            waiting = [r for r in live if r.configuration_id == config_id
                       and not r.released]
            configuration = configurations.get(config_id)
            if not waiting or configuration is None:
                continue
            if configuration.status != ACTIVE:
                continue
            if configuration.max_concurrent and not self._room(
                    session, configuration):
                continue
            for row in waiting:
                row.released = True
        session.flush()
        answer = []
        for row in sorted(live, key=lambda r: r.sort_key or []):
            configuration = configurations.get(row.configuration_id)
            paused = (configuration is None
                      or configuration.status != ACTIVE)
            answer.append((row, configuration, paused))
        return answer

    @staticmethod
    def _room(session, configuration):
        """Whether one more node may start ``configuration`` (its
        max_concurrent): counted under the configuration's row lock so
        that two heartbeats do not both take the last place."""
        session.execute(sa.select(models.HostOSConfiguration.id).where(
            models.HostOSConfiguration.id == configuration.id
        ).with_for_update()).all()
        item = models.HostOSItem
        # A locking read: it sees what other heartbeats released and
        # committed, where a plain read of a REPEATABLE READ transaction
        # (MariaDB's default) would see the snapshot taken at its first
        # read, before it waited for the configuration's lock.
        rows = session.execute(
            sa.select(*_STATUS_COLUMNS).where(
                item.configuration_id == configuration.id,
                item.released.is_(True), item.removed.is_(False)
            ).with_for_update(read=True)).all()
        by_node = collections.defaultdict(list)
        for row in rows:
            by_node[row[1]].append(item_state(ItemStatus(*row)))
        busy = sum(1 for node_states in by_node.values()
                   if hostos_items.node_state(node_states) != 'ok')
        return busy < configuration.max_concurrent

    def reset_hostos_agent(self, node_id):
        """Forget a node's host agent (its token): the next heartbeat of
        the node gets a new one. The host it ran on is gone with it: the
        items it was still to drop go, and the others wait to be released
        to the next host (a rollout's max_concurrent counts it again)."""
        item = models.HostOSItem
        with _sa_api()._writer() as session:
            session.execute(sa.delete(item).where(
                item.node_id == node_id, item.removed.is_(True)))
            session.execute(sa.update(item).where(
                item.node_id == node_id, item.released.is_(True)
            ).values(released=False))
            return session.execute(sa.delete(models.HostOSAgent).where(
                models.HostOSAgent.node_id == node_id)).rowcount

    def get_hostos_agent(self, node_id):
        with _sa_api()._reader() as session:
            return session.get(models.HostOSAgent, node_id)


def label_selector_clause(selector):
    """A WHERE clause selecting the nodes a label selector (normalized,
    see common/hostos/selector.py) matches, through the node_labels index
    (one sub-query per term). An empty selector selects no node."""
    if hostos_selector.is_empty(selector):
        return sa.false()
    node_id = models.Node.id
    label = models.NodeLabel

    def having(key, values=None):
        sub = sa.select(label.node_id).where(label.key == key)
        if values is not None:
            sub = sub.where(label.value.in_(list(values)))
        return node_id.in_(sub)

    clauses = [having(key, [value]) for key, value
               in (selector.get('match_labels') or {}).items()]
    for expr in selector.get('match_expressions') or ():
        key, operator = expr['key'], expr['operator']
        values = expr.get('values') or []
        if operator == hostos_selector.IN:
            clauses.append(having(key, values))
        elif operator == hostos_selector.NOT_IN:
            # A node without the key is not in any value set.
            clauses.append(sa.not_(having(key, values)))
        elif operator == hostos_selector.EXISTS:
            clauses.append(having(key))
        else:
            clauses.append(sa.not_(having(key)))
    return sa.and_(*clauses)
