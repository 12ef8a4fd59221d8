"""Accelerator records as the API shows them (mixed into Connection):
lists with filters and project scoping, one record, a node's whole
accelerator document. Writes are in accelerators.py."""

import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.db.sqlalchemy import models

_Dev = models.AcceleratorDevice
_Dep = models.AcceleratorDeployable
_Handle = models.AcceleratorAttachHandle
_Att = models.AcceleratorAttachment
_Trait = models.AcceleratorTrait


def _sa_api():
    # Imported lazily: api.py imports this module to build Connection.
    from ironic_like.db.sqlalchemy import api
    return api


class AcceleratorViewsMixin(object):

    @staticmethod
    def _scope(query, model, project):
        if project is None:
            return query
        n = models.Node
        return query.join(n, n.id == model.node_id).where(
            sa.or_(n.owner == project, n.lessee == project))

    @staticmethod
    def _node_uuids(session, node_ids):
        if not node_ids:
            return {}
        return dict(session.execute(
            sa.select(models.Node.id, models.Node.uuid).where(
                models.Node.id.in_(list(set(node_ids))))).all())

    def list_accelerator_devices(self, filters=None, project=None):
        """Devices as API dicts. filters: node_id, type, vendor (id or
        name, any case), in_use (bool), status."""
        filters = filters or {}
        with _sa_api()._reader() as session:
            query = self._scope(sa.select(_Dev), _Dev, project)
            query = self._device_filters(query, filters)
            rows = session.execute(query.order_by(_Dev.id)).scalars().all()
            return self._device_dicts(session, rows)

    @staticmethod
    def _device_filters(query, filters):
        if filters.get('node_id') is not None:
            query = query.where(_Dev.node_id == filters['node_id'])
        if filters.get('type'):
            query = query.where(_Dev.type == filters['type'].upper())
        if filters.get('vendor'):
            vendor = filters['vendor'].lower().replace('0x', '', 1)
            query = query.where(sa.or_(
                _Dev.vendor_id == vendor,
                sa.func.lower(_Dev.vendor) == filters['vendor'].lower(),
                sa.func.lower(_Dev.vendor_name) ==
                filters['vendor'].lower()))
        if filters.get('status'):
            query = query.where(_Dev.status == filters['status'])
        if filters.get('in_use') is not None:
            used = sa.select(_Handle.id).where(
                _Handle.device_id == _Dev.id, _Handle.in_use.is_(True))
            query = query.where(used.exists() if filters['in_use']
                                else ~used.exists())
        return query

    def _device_dicts(self, session, rows):
        ids = [r.id for r in rows]
        used = set()
        if ids:
            used = set(session.execute(sa.select(_Handle.device_id).where(
                _Handle.device_id.in_(ids),
                _Handle.in_use.is_(True))).scalars())
        nodes = self._node_uuids(session, [r.node_id for r in rows])
        return [{'uuid': r.uuid, 'node_uuid': nodes.get(r.node_id),
                 'type': r.type, 'vendor': r.vendor_id,
                 'vendor_name': r.vendor_name or r.vendor,
                 'model': r.model, 'product_id': r.product_id,
                 'pci_address': r.pci_address,
                 'std_board_info': r.std_board_info or {},
                 'status': r.status, 'in_use': r.id in used,
                 'created_at': r.created_at, 'updated_at': r.updated_at}
                for r in rows]

    def get_accelerator_device(self, uuid):
        with _sa_api()._reader() as session:
            row = session.execute(sa.select(_Dev).where(
                _Dev.uuid == uuid)).scalar_one_or_none()
            if row is None:
                raise exception.AcceleratorNotFound(kind='device',
                                                    uuid=uuid)
            return self._device_dicts(session, [row])[0]

    def list_accelerator_deployables(self, filters=None, project=None):
        """filters: node_id, device_uuid, type, vendor."""
        filters = filters or {}
        with _sa_api()._reader() as session:
            query = self._scope(
                sa.select(_Dep).join(_Dev, _Dev.id == _Dep.device_id),
                _Dep, project)
            if filters.get('device_uuid'):
                query = query.where(_Dev.uuid == filters['device_uuid'])
            query = self._device_filters(query, {
                k: filters.get(k) for k in ('node_id', 'type', 'vendor')})
            rows = session.execute(query.order_by(_Dep.id)).scalars().all()
            return self._deployable_dicts(session, rows)

    def _deployable_dicts(self, session, rows):
        devices = {}
        if rows:
            devices = dict(session.execute(sa.select(_Dev.id, _Dev.uuid)
                           .where(_Dev.id.in_({r.device_id
                                               for r in rows}))).all())
        nodes = self._node_uuids(session, [r.node_id for r in rows])
        return [{'uuid': r.uuid, 'node_uuid': nodes.get(r.node_id),
                 'device_uuid': devices.get(r.device_id),
                 'parent_uuid': r.parent_uuid, 'root_uuid': r.root_uuid,
                 'name': r.name, 'kind': r.kind,
                 'num_accelerators': r.num_accelerators,
                 'driver_name': r.driver_name,
                 'resource_class': r.resource_class,
                 'region_type_uuid': r.region_type_uuid,
                 'partial_reconfiguration': r.partial_reconfiguration,
                 'function_uuid': r.function_uuid,
                 'function_name': r.function_name,
                 'bitstream_id': r.bitstream_id,
                 'created_at': r.created_at, 'updated_at': r.updated_at}
                for r in rows]

    def get_accelerator_deployable(self, uuid):
        with _sa_api()._reader() as session:
            row = session.execute(sa.select(_Dep).where(
                _Dep.uuid == uuid)).scalar_one_or_none()
            if row is None:
                raise exception.AcceleratorNotFound(kind='deployable',
                                                    uuid=uuid)
            return self._deployable_dicts(session, [row])[0]

    def list_accelerator_attach_handles(self, filters=None, project=None):
        """filters: node_id, device_uuid, in_use."""
        filters = filters or {}
        with _sa_api()._reader() as session:
            query = self._scope(
                sa.select(_Handle).join(_Dev, _Dev.id == _Handle.device_id),
                _Handle, project)
            if filters.get('node_id') is not None:
                query = query.where(_Handle.node_id == filters['node_id'])
            if filters.get('device_uuid'):
                query = query.where(_Dev.uuid == filters['device_uuid'])
            if filters.get('in_use') is not None:
                query = query.where(_Handle.in_use.is_(
                    bool(filters['in_use'])))
            rows = session.execute(
                query.order_by(_Handle.id)).scalars().all()
            return self._handle_dicts(session, rows)

    def _handle_dicts(self, session, rows):
        devices, deployables, attachments = {}, {}, {}
        if rows:
            devices = dict(session.execute(sa.select(_Dev.id, _Dev.uuid)
                           .where(_Dev.id.in_({r.device_id
                                               for r in rows}))).all())
            deployables = dict(session.execute(
                sa.select(_Dep.id, _Dep.uuid).where(
                    _Dep.id.in_({r.deployable_id for r in rows}))).all())
            att_ids = {r.attachment_id for r in rows if r.attachment_id}
            if att_ids:
                attachments = dict(session.execute(
                    sa.select(_Att.id, _Att.uuid).where(
                        _Att.id.in_(att_ids))).all())
        nodes = self._node_uuids(session, [r.node_id for r in rows])
        return [{'uuid': r.uuid, 'node_uuid': nodes.get(r.node_id),
                 'device_uuid': devices.get(r.device_id),
                 'deployable_uuid': deployables.get(r.deployable_id),
                 'attach_type': r.attach_type,
                 'attach_info': r.attach_info or {},
                 'pci_address': r.pci_address,
                 'resource_class': r.resource_class,
                 'traits': list(r.traits or []), 'in_use': bool(r.in_use),
                 'status': r.status,
                 'attachment_uuid': attachments.get(r.attachment_id),
                 'created_at': r.created_at, 'updated_at': r.updated_at}
                for r in rows]

    def get_accelerator_attach_handle(self, uuid):
        with _sa_api()._reader() as session:
            row = session.execute(sa.select(_Handle).where(
                _Handle.uuid == uuid)).scalar_one_or_none()
            if row is None:
                raise exception.AcceleratorNotFound(kind='attach handle',
                                                    uuid=uuid)
            return self._handle_dicts(session, [row])[0]

    def get_node_accelerators(self, node_id):
        """Everything about one node's accelerators (the API's
        /v1/nodes/{node}/accelerators)."""
        devices = self.list_accelerator_devices({'node_id': node_id})
        deployables = self.list_accelerator_deployables(
            {'node_id': node_id})
        handles = self.list_accelerator_attach_handles({'node_id': node_id})
        attachments = self.list_accelerator_attachments(node_id=node_id)
        with _sa_api()._reader() as session:
            traits = [{'name': t.name, 'kind': t.kind, 'total': t.total,
                       'free': t.free}
                      for t in session.execute(
                          sa.select(_Trait).where(_Trait.node_id == node_id)
                          .order_by(_Trait.kind, _Trait.name)).scalars()]
        discovery = self.get_accelerator_discovery(node_id)
        for att in attachments:
            for key in ('id', 'node_id', 'deployable_id',
                        'attach_handle_id'):
                att.pop(key, None)
        return {'devices': devices, 'deployables': deployables,
                'attach_handles': handles, 'attachments': attachments,
                'traits': traits,
                'discovery': {k: v for k, v in (discovery or {}).items()
                              if k != 'digest'} or None}
