"""Database access for accelerators, mixed into Connection.

Every write that changes which attach handles a node offers (discovery,
a reservation, a program, a release) recomputes that node's
accelerator_traits rows in the same transaction, so an allocation asking
for an accelerator trait never sees a stale free count. These writes are
serialised per node by a locking read of the node's
accelerator_inventories row (taken first, so the rest of the transaction
reads what the previous holder committed); a handle is still taken with a
conditional UPDATE and its rowcount, which alone guarantees that no
handle is given twice, on SQLite as on MariaDB and PostgreSQL.

See doc/accelerators.md.
"""

import collections

from oslo_db import exception as db_exc
from oslo_utils import timeutils
from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_like.common.accelerators import inventory as acc_inventory
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.db.sqlalchemy import models
from ironic_like.db.sqlalchemy import retry

# Discovery states (accelerator_inventories.state).
DISCOVERING = 'discovering'
DISCOVERED = 'done'
DISCOVERY_FAILED = 'failed'

DEVICE_ENABLED = 'enabled'
DEVICE_MISSING = 'missing'
HANDLE_AVAILABLE = 'available'
HANDLE_MISSING = 'missing'

# Attachment states.
PENDING = 'pending'
PROGRAMMING = 'programming'
PROGRAMMED = 'programmed'
ATTACHED = 'attached'
FAILED = 'failed'
IN_PROGRESS = (PENDING, PROGRAMMING, PROGRAMMED)
# Node states where no instance is (an attachment left there is orphaned).
NO_INSTANCE_STATES = (states.ENROLL, states.MANAGEABLE, states.AVAILABLE,
                      states.CLEANING, states.CLEANWAIT, states.CLEANFAIL)

_Dev = models.AcceleratorDevice
_Dep = models.AcceleratorDeployable
_Handle = models.AcceleratorAttachHandle
_Att = models.AcceleratorAttachment
_Trait = models.AcceleratorTrait
_Inv = models.AcceleratorInventory


def _sa_api():
    # Imported lazily: api.py imports this module to build Connection.
    from ironic_like.db.sqlalchemy import api
    return api


_retried = retry.lazily_retried


def _ensure_lock_row(node_id):
    """Create the node's inventory row, in a transaction of its own,
    before any writer locks it. A locking read of a missing row takes a
    gap lock on InnoDB, and two such writers inserting their rows
    deadlock each other; a locking read of an existing row does not."""
    with _sa_api()._reader() as session:
        if session.get(_Inv, node_id) is not None:
            return
    try:
        with _sa_api()._writer() as session:
            session.add(_Inv(node_id=node_id, state=DISCOVERED))
    except db_exc.DBDuplicateEntry:
        pass  # another writer created it meanwhile


def _lock_node(session, node_id):
    """Serialise this node's accelerator writes (see the module doc).
    Its row exists (_ensure_lock_row); only a node destroyed meanwhile
    has none, and then there is nothing to lock for."""
    row = session.execute(
        sa.select(_Inv).where(_Inv.node_id == node_id)
        .with_for_update()).scalar_one_or_none()
    if row is None:
        raise exception.NodeNotFound(node=node_id)
    return row


def _node_of(model, row_id):
    """The node_id of a row, read in a transaction of its own: a writer
    must take the node lock before its first read (under MariaDB's
    REPEATABLE READ the first read fixes the transaction's snapshot, and
    what the previous lock holder committed would stay unseen)."""
    with _sa_api()._reader() as session:
        return session.execute(sa.select(model.node_id).where(
            model.id == row_id)).scalar()


def _handle_traits(spec_handle):
    return sorted(set(spec_handle.get('traits') or []))


def recompute_traits(session, node_id):
    """Bring the node's accelerator_traits rows to what its handles say,
    touching only rows that differ."""
    counts = collections.defaultdict(lambda: [None, 0, 0])
    rows = session.execute(
        sa.select(_Handle.resource_class, _Handle.traits, _Handle.status,
                  _Handle.in_use, _Dev.status)
        .join(_Dev, _Dev.id == _Handle.device_id)
        .where(_Handle.node_id == node_id)).all()
    for rc, traits, status, in_use, device_status in rows:
        free = (status == HANDLE_AVAILABLE and not in_use
                and device_status == DEVICE_ENABLED)
        names = [(rc, 'resource_class')] + [(t, 'trait')
                                            for t in (traits or [])]
        for name, kind in names:
            entry = counts[name]
            entry[0] = kind
            entry[1] += 1
            entry[2] += 1 if free else 0
    current = {r.name: r for r in session.execute(
        sa.select(_Trait).where(_Trait.node_id == node_id)).scalars()}
    for name, (kind, total, free) in counts.items():
        row = current.pop(name, None)
        if row is None:
            session.add(_Trait(node_id=node_id, name=name, kind=kind,
                               total=total, free=free))
        elif (row.total, row.free, row.kind) != (total, free, kind):
            row.total, row.free, row.kind = total, free, kind
    if current:
        session.execute(sa.delete(_Trait).where(
            _Trait.node_id == node_id, _Trait.name.in_(list(current))))


def _deployable_values(entry):
    return {k: entry.get(k) for k in (
        'kind', 'name', 'num_accelerators', 'driver_name', 'resource_class',
        'region_type_uuid', 'partial_reconfiguration', 'function_uuid',
        'function_name')}


def _device_values(spec):
    board = {k: spec[k] for k in ('virtual_functions', 'regions')
             if k in spec}
    return {'type': spec['type'], 'vendor_id': spec['vendor_id'],
            'product_id': spec['product_id'],
            'vendor_name': spec.get('vendor_name'),
            'model': spec.get('model'), 'vendor': spec['vendor'],
            'pci_address': spec['pci_address'], 'std_board_info': board,
            'digest': spec['digest'], 'status': DEVICE_ENABLED}


def _write_layout(session, node_id, device, spec, name_prefix, new=False):
    """Bring a device's deployables and handles to the spec's layout
    (``new``: the device was just inserted, it has no rows to read).
    Handles in use are never deleted: one whose address vanished is
    flagged missing and keeps its attachment."""
    layout = acc_inventory.layout(spec, name_prefix)
    existing = {} if new else {d.key: d for d in session.execute(
        sa.select(_Dep).where(_Dep.device_id == device.id)).scalars()}
    # UUIDs first, so that parents and the root are known when a row is
    # written (no second UPDATE of rows just inserted).
    uuids = {e['key']: (existing[e['key']].uuid if e['key'] in existing
                        else uuidutils.generate_uuid())
             for e in layout['deployables']}
    by_key = {}
    for entry in layout['deployables']:
        values = _deployable_values(entry)
        values['parent_uuid'] = uuids.get(entry.get('parent_key'))
        values['root_uuid'] = uuids.get('device')
        row = existing.pop(entry['key'], None)
        if row is None:
            row = _Dep(uuid=uuids[entry['key']], node_id=node_id,
                       device_id=device.id, key=entry['key'],
                       needs_clean=False, **values)
            session.add(row)
        else:
            if row.function_uuid != values['function_uuid']:
                # Loaded by someone else than a plug we recorded.
                row.bitstream_id = None
            for name, value in values.items():
                if getattr(row, name) != value:
                    setattr(row, name, value)
        by_key[entry['key']] = (row, entry)
    session.flush()
    handles = {} if new else {h.pci_address: h for h in session.execute(
        sa.select(_Handle).where(_Handle.device_id == device.id)).scalars()}
    kept_deployables = set()
    for entry in layout['handles']:
        dep_row = by_key[entry['deployable_key']][0]
        values = {'deployable_id': dep_row.id,
                  'attach_type': entry.get('attach_type', 'PCI'),
                  'attach_info': entry.get('attach_info') or {},
                  'resource_class': entry['resource_class'],
                  'traits': _handle_traits(entry),
                  'status': HANDLE_AVAILABLE}
        row = handles.pop(entry['pci_address'], None)
        if row is None:
            session.add(_Handle(uuid=uuidutils.generate_uuid(),
                                node_id=node_id, device_id=device.id,
                                pci_address=entry['pci_address'],
                                in_use=False, **values))
        else:
            for name, value in values.items():
                if getattr(row, name) != value:
                    setattr(row, name, value)
    for row in handles.values():
        if row.in_use:
            row.status = HANDLE_MISSING
            kept_deployables.add(row.deployable_id)
        else:
            session.delete(row)
    for row in existing.values():
        if row.id not in kept_deployables:
            session.delete(row)


def _delete_device(session, device_id):
    session.execute(sa.delete(_Handle).where(_Handle.device_id == device_id))
    session.execute(sa.delete(_Dep).where(_Dep.device_id == device_id))
    session.execute(sa.delete(_Dev).where(_Dev.id == device_id))


def _utcnow():
    return timeutils.utcnow()


class AcceleratorsMixin(object):

    # -- discovery -------------------------------------------------------

    @_retried
    def set_accelerator_discovery(self, node_id, state, error=None):
        """Record that discovery of the node started (DISCOVERING) or
        failed (DISCOVERY_FAILED, with the error)."""
        _ensure_lock_row(node_id)
        with _sa_api()._writer() as session:
            row = _lock_node(session, node_id)
            row.state = state
            row.error = error

    def get_accelerator_discovery(self, node_id):
        with _sa_api()._reader() as session:
            row = session.get(_Inv, node_id)
            if row is None:
                return None
            return {'state': row.state, 'error': row.error,
                    'reported_at': row.reported_at, 'digest': row.digest}

    def count_accelerator_discoveries(self, state=DISCOVERING):
        with _sa_api()._reader() as session:
            return session.execute(sa.select(sa.func.count()).where(
                _Inv.state == state)).scalar()

    @_retried
    def apply_accelerator_inventory(self, node_id, specs, name_prefix):
        """Diff ``specs`` (common/accelerators/inventory.parse output)
        against the node's records and apply the difference.

        Returns a summary: {'changed': bool, 'added': [...], 'updated':
        [...], 'removed': [...], 'missing': [...]} (PCI addresses). An
        inventory whose digest equals the stored one writes nothing but
        the discovery state.
        """
        digest = acc_inventory.digest(specs)
        summary = {'changed': False, 'added': [], 'updated': [],
                   'removed': [], 'missing': []}
        _ensure_lock_row(node_id)
        with _sa_api()._writer() as session:
            inv = _lock_node(session, node_id)
            if inv.digest == digest:
                if inv.state != DISCOVERED or inv.error:
                    inv.state, inv.error = DISCOVERED, None
                    inv.reported_at = _utcnow()
                return summary
            devices = {d.pci_address: d for d in session.execute(
                sa.select(_Dev).where(_Dev.node_id == node_id)).scalars()}
            used = set(session.execute(
                sa.select(_Handle.device_id).where(
                    _Handle.node_id == node_id,
                    _Handle.in_use.is_(True))).scalars())
            existing = {addr: {'digest': d.digest, 'status': d.status,
                               'in_use': d.id in used}
                        for addr, d in devices.items()}
            plan = acc_inventory.diff(existing, specs)
            for spec in plan['add']:
                device = _Dev(uuid=uuidutils.generate_uuid(),
                              node_id=node_id, **_device_values(spec))
                session.add(device)
                session.flush()
                _write_layout(session, node_id, device, spec, name_prefix,
                              new=True)
            for spec in plan['update']:
                device = devices[spec['pci_address']]
                for name, value in _device_values(spec).items():
                    if getattr(device, name) != value:
                        setattr(device, name, value)
                _write_layout(session, node_id, device, spec, name_prefix)
            for address in plan['remove']:
                _delete_device(session, devices[address].id)
            for address in plan['missing']:
                device = devices[address]
                device.status = DEVICE_MISSING
                session.execute(sa.update(_Handle).where(
                    _Handle.device_id == device.id).values(
                        status=HANDLE_MISSING))
            session.flush()
            recompute_traits(session, node_id)
            inv.digest = digest
            inv.state, inv.error = DISCOVERED, None
            inv.reported_at = _utcnow()
            summary.update(
                changed=True,
                added=[s['pci_address'] for s in plan['add']],
                updated=[s['pci_address'] for s in plan['update']],
                removed=list(plan['remove']),
                missing=list(plan['missing']))
        return summary

    # -- plug ------------------------------------------------------------

    def list_accelerator_candidates(self, node_id):
        """Every attach handle of the node with its deployable, device
        and whether it is free, for os_acc to choose from."""
        with _sa_api()._reader() as session:
            rows = session.execute(
                sa.select(_Handle, _Dep, _Dev)
                .join(_Dep, _Dep.id == _Handle.deployable_id)
                .join(_Dev, _Dev.id == _Handle.device_id)
                .where(_Handle.node_id == node_id)
                .order_by(_Handle.pci_address)).all()
            # The functions loaded in the node's regions, in one query.
            functions = {f.parent_uuid: f for f in session.execute(
                sa.select(_Dep).where(_Dep.node_id == node_id,
                                      _Dep.kind == 'function')).scalars()}
            result = []
            for handle, dep, dev in rows:
                free = (not handle.in_use
                        and handle.status == HANDLE_AVAILABLE
                        and dev.status == DEVICE_ENABLED)
                function = functions.get(dep.uuid)
                result.append({
                    'handle_id': handle.id, 'handle_uuid': handle.uuid,
                    'pci_address': handle.pci_address,
                    'resource_class': handle.resource_class,
                    'traits': list(handle.traits or []), 'free': free,
                    'deployable_id': dep.id, 'deployable_uuid': dep.uuid,
                    'deployable_key': dep.key, 'deployable_name': dep.name,
                    'driver_name': dep.driver_name,
                    'region_type_uuid': dep.region_type_uuid,
                    'function_uuid': (function.function_uuid
                                      if function else
                                      dep.function_uuid),
                    'function_name': (function.function_name
                                      if function else
                                      dep.function_name),
                    'bitstream_id': (function.bitstream_id
                                     if function else dep.bitstream_id),
                    'device_id': dev.id, 'device_uuid': dev.uuid,
                    'device_type': dev.type, 'device_address':
                        dev.pci_address, 'vendor': dev.vendor,
                    'vendor_id': dev.vendor_id})
            return result

    @_retried
    def reserve_accelerator_handle(self, node_id, values, handle_ids,
                                   deadline):
        """Create an attachment (state pending) holding the first free
        handle of ``handle_ids``, in one transaction.

        :raises: NoFreeAcceleratorHandle when every candidate was taken
            meanwhile (no attachment is left behind).
        """
        _ensure_lock_row(node_id)
        with _sa_api()._writer() as session:
            _lock_node(session, node_id)
            att = _Att(uuid=uuidutils.generate_uuid(), node_id=node_id,
                       state=PENDING, deadline=deadline, **values)
            session.add(att)
            session.flush()
            for handle_id in handle_ids:
                taken = session.execute(
                    sa.update(_Handle)
                    .where(_Handle.id == handle_id,
                           _Handle.in_use.is_(False),
                           _Handle.status == HANDLE_AVAILABLE)
                    .values(in_use=True, attachment_id=att.id)
                    .execution_options(synchronize_session=False)).rowcount
                if taken == 1:
                    deployable_id = session.execute(
                        sa.select(_Handle.deployable_id).where(
                            _Handle.id == handle_id)).scalar()
                    att.attach_handle_id = handle_id
                    att.deployable_id = deployable_id
                    session.flush()
                    recompute_traits(session, node_id)
                    return self._attachment_dict(session, att)
            raise exception.NoFreeAcceleratorHandle(
                node=node_id, request=values.get('request_index'))

    @_retried
    def update_accelerator_attachment(self, attachment_id, expect, **values):
        """Conditional update: only when the state is one of ``expect``.
        Returns True if the row was updated."""
        with _sa_api()._writer() as session:
            count = session.execute(
                sa.update(_Att).where(_Att.id == attachment_id,
                                      _Att.state.in_(list(expect)))
                .values(**values)
                .execution_options(synchronize_session=False)).rowcount
            return count == 1

    @_retried
    def record_accelerator_program(self, attachment_id, deployable_id,
                                   function, bitstream_id):
        """The region now holds ``function`` ({uuid, name} or None),
        programmed from ``bitstream_id``: in one transaction the
        attachment goes programming -> programmed, the region's function
        deployable is replaced and the handles' and node's traits follow
        (the old function trait goes, the new one comes).

        Returns False (nothing written) when the attachment is no longer
        programming (rolled back by the reconciler meanwhile).
        """
        from ironic_like.common.accelerators import traits as acc_traits
        node_id = _node_of(_Dep, deployable_id)
        if node_id is None:
            return False
        _ensure_lock_row(node_id)
        with _sa_api()._writer() as session:
            inv = _lock_node(session, node_id)
            region = session.get(_Dep, deployable_id)
            count = session.execute(
                sa.update(_Att).where(_Att.id == attachment_id,
                                      _Att.state == PROGRAMMING)
                .values(state=PROGRAMMED)
                .execution_options(synchronize_session=False)).rowcount
            if count != 1:
                return False
            device = session.get(_Dev, region.device_id)
            old = session.execute(sa.select(_Dep).where(
                _Dep.parent_uuid == region.uuid,
                _Dep.kind == 'function')).scalar_one_or_none()
            old_trait = None
            if old is not None:
                old_trait = acc_traits.function_trait(device.vendor,
                                                      old.function_uuid)
                session.delete(old)
            if function:
                session.add(_Dep(
                    uuid=uuidutils.generate_uuid(), node_id=region.node_id,
                    device_id=region.device_id,
                    key=region.key + '/function', parent_uuid=region.uuid,
                    root_uuid=region.root_uuid, kind='function',
                    name=region.name + '_function',
                    num_accelerators=region.num_accelerators,
                    driver_name=region.driver_name,
                    resource_class=region.resource_class,
                    region_type_uuid=region.region_type_uuid,
                    function_uuid=function['uuid'],
                    function_name=function.get('name'),
                    bitstream_id=bitstream_id, needs_clean=False))
            region.bitstream_id = bitstream_id
            region.needs_clean = True
            # The records now differ from the last inventory: the next one
            # must be diffed, not skipped as unchanged.
            inv.digest = None
            device.digest = ''
            new_trait = (acc_traits.function_trait(device.vendor,
                                                   function['uuid'])
                         if function else None)
            for handle in session.execute(sa.select(_Handle).where(
                    _Handle.deployable_id == region.id)).scalars():
                traits = [t for t in (handle.traits or [])
                          if t != old_trait]
                if new_trait:
                    traits.append(new_trait)
                handle.traits = sorted(set(traits))
            session.flush()
            recompute_traits(session, region.node_id)
            return True

    @_retried
    def release_accelerator_attachment(self, attachment_id, state=None,
                                       error=None):
        """Free the attachment's handle. With ``state`` (FAILED) the row
        is kept with ``error``; without, it is deleted. Returns True if
        the attachment held a handle or was attached."""
        node_id = _node_of(_Att, attachment_id)
        if node_id is None:
            return False
        _ensure_lock_row(node_id)
        with _sa_api()._writer() as session:
            _lock_node(session, node_id)
            att = session.get(_Att, attachment_id)
            if att is None:
                return False
            held = self._free_handle(session, att)
            if state:
                att.state, att.last_error = state, error
                att.attach_handle_id = None
            else:
                session.delete(att)
            session.flush()
            recompute_traits(session, att.node_id)
            return held

    @staticmethod
    def _free_handle(session, att):
        if att.attach_handle_id is None:
            return att.state == ATTACHED
        handle = session.get(_Handle, att.attach_handle_id)
        if handle is None or handle.attachment_id != att.id:
            return att.state == ATTACHED
        if handle.status == HANDLE_MISSING:
            # Its device vanished while in use: now that it is free it
            # goes, and the device with it once nothing of it is held.
            device_id = handle.device_id
            session.delete(handle)
            session.flush()
            still = session.execute(sa.select(sa.func.count()).where(
                _Handle.device_id == device_id,
                _Handle.in_use.is_(True))).scalar()
            device = session.get(_Dev, device_id)
            if not still and device is not None and \
                    device.status == DEVICE_MISSING:
                _delete_device(session, device_id)
        else:
            handle.in_use = False
            handle.attachment_id = None
        return True

    def list_accelerator_attachments(self, instance_uuid=None, node_id=None,
                                     states=None):
        with _sa_api()._reader() as session:
            query = sa.select(_Att).order_by(_Att.request_index, _Att.id)
            if instance_uuid is not None:
                query = query.where(_Att.instance_uuid == instance_uuid)
            if node_id is not None:
                query = query.where(_Att.node_id == node_id)
            if states is not None:
                query = query.where(_Att.state.in_(list(states)))
            return [self._attachment_dict(session, a)
                    for a in session.execute(query).scalars()]

    def list_stale_accelerator_attachments(self, now, dead_conductors):
        """Attachments in progress past their deadline or whose conductor
        is dead, and attached ones whose node no longer has their
        instance (the reconciler's work)."""
        with _sa_api()._reader() as session:
            cond = [_Att.deadline < now]
            if dead_conductors:
                cond.append(_Att.conductor.in_(list(dead_conductors)))
            in_progress = session.execute(
                sa.select(_Att).where(_Att.state.in_(IN_PROGRESS),
                                      sa.or_(*cond))).scalars().all()
            n = models.Node
            orphaned = session.execute(
                sa.select(_Att).join(n, n.id == _Att.node_id)
                .where(_Att.state == ATTACHED,
                       sa.or_(n.provision_state.in_(NO_INSTANCE_STATES),
                              sa.and_(n.instance_uuid.is_not(None),
                                      n.instance_uuid !=
                                      _Att.instance_uuid)))).scalars().all()
            return [self._attachment_dict(session, a)
                    for a in list(in_progress) + list(orphaned)]

    def list_accelerator_regions_to_clean(self, node_id):
        with _sa_api()._reader() as session:
            rows = session.execute(
                sa.select(_Dep, _Dev)
                .join(_Dev, _Dev.id == _Dep.device_id)
                .where(_Dep.node_id == node_id,
                       _Dep.needs_clean.is_(True))).all()
            free = []
            for dep, dev in rows:
                held = session.execute(sa.select(sa.func.count()).where(
                    _Handle.deployable_id == dep.id,
                    _Handle.in_use.is_(True))).scalar()
                if not held:
                    free.append({'deployable_id': dep.id,
                                 'deployable_uuid': dep.uuid,
                                 'key': dep.key,
                                 'device_address': dev.pci_address,
                                 'driver_name': dep.driver_name})
            return free

    @_retried
    def mark_accelerator_region_cleaned(self, deployable_id):
        """The driver erased the region: the next inventory is diffed."""
        node_id = _node_of(_Dep, deployable_id)
        if node_id is None:
            return
        _ensure_lock_row(node_id)
        with _sa_api()._writer() as session:
            _lock_node(session, node_id).digest = None
            device_id = session.execute(sa.select(_Dep.device_id).where(
                _Dep.id == deployable_id)).scalar()
            session.execute(sa.update(_Dev).where(
                _Dev.id == device_id).values(digest=''))
            session.execute(sa.update(_Dep).where(
                _Dep.id == deployable_id).values(needs_clean=False,
                                                 bitstream_id=None))

    @staticmethod
    def _attachment_dict(session, att):
        handle = (session.get(_Handle, att.attach_handle_id)
                  if att.attach_handle_id else None)
        dep = (session.get(_Dep, att.deployable_id)
               if att.deployable_id else None)
        node_uuid = session.execute(sa.select(models.Node.uuid).where(
            models.Node.id == att.node_id)).scalar()
        return {'id': att.id, 'uuid': att.uuid, 'node_id': att.node_id,
                'node_uuid': node_uuid,
                'instance_uuid': att.instance_uuid,
                'instance_name': att.instance_name,
                'project_id': att.project_id,
                'request_index': att.request_index,
                'deployable_id': att.deployable_id,
                'deployable_uuid': dep.uuid if dep else None,
                'attach_handle_id': att.attach_handle_id,
                'attach_handle_uuid': handle.uuid if handle else None,
                'pci_address': handle.pci_address if handle else None,
                'bitstream_id': att.bitstream_id, 'state': att.state,
                'conductor': att.conductor, 'deadline': att.deadline,
                'last_error': att.last_error,
                'created_at': att.created_at, 'updated_at': att.updated_at}


def destroy_node_rows(session, node_id):
    """The node's accelerator rows (destroy_node)."""
    for model in (_Att, _Trait, _Handle, _Dep, _Dev, _Inv):
        session.execute(sa.delete(model).where(model.node_id == node_id))


def accelerator_trait_condition(node_id_column, trait):
    """SQL: the node has ``trait`` on a free accelerator."""
    return sa.select(_Trait.node_id).where(
        _Trait.node_id == node_id_column, _Trait.name == trait,
        _Trait.free > 0).exists()
